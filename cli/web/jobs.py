"""Long computations for the page: each runs on a worker thread while the page polls its
progress, so that a request is never held for the seconds advice can take.

A job's body is checked when it is submitted (the command's checks and the budget's,
:func:`.api.check_job`): a bad one is refused then, never queued. At most :data:`RUNNING` jobs
compute at once, their chunks taking turns on the workers, and :data:`WAITING` more wait their
turn; beyond, the server is busy and says so. A job its page stops polling for
:data:`ABANDONED` seconds is stopped, as are all jobs when the server stops."""

from __future__ import annotations

import itertools
import json
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from tarot_advisor.analyzer.advice.ecart_advice import EcartAnalysis
from tarot_advisor.analyzer.parallel import watched
from tarot_advisor.cli.errors import InputError
from tarot_advisor.cli.progress import compile_note
from tarot_advisor.cli.review import review_document
from tarot_advisor.cli.web import api, views

RUNNING = 4
"""Jobs computing at once: their chunks take turns on the workers, so that a long one holds a
short one up by a chunk or two (a few seconds at most), never by its whole length."""
WAITING = 8
"""Jobs that may wait for their turn beyond the running ones; more are refused (:class:`Busy`)."""
KEPT = 200
"""Finished jobs remembered for their page to collect."""
ABANDONED = 10.0
"""Seconds without a poll after which a job's page is taken to have gone, and the job stopped
(the page polls five times a second)."""


class Busy(Exception):
    """The server runs and queues as many jobs as it may: try again in a few seconds."""

    def __init__(self, jobs: int) -> None:
        super().__init__(f"the server is busy with {jobs} computations: try again in a few seconds")
        self.message = str(self)


class Cancelled(BaseException):
    """A job stopped: its page went away, or the server is stopping. (Not an ``Exception``, so
    that no handler of the computation's own takes it for an error of its.)"""


class Job:
    """One computation: ``state`` queued, running, done or error; ``done`` of ``total`` items of
    ``unit`` (0 of 0 while unknown); then ``result`` (the command's JSON text) and ``view``, or
    ``error``. ``note``: a line for the page to show beside its progress (that it compiles the
    engine, :func:`.progress.compile_note`), or empty."""

    def __init__(self, note: str = "") -> None:
        self.note = note
        self.state = "queued"
        self.done = 0
        self.total = 0
        self.unit = ""
        self.result: str | None = None
        self.view: dict | None = None
        self.error: str | None = None
        self.stopped = threading.Event()
        self.polled = time.monotonic()

    def check(self) -> None:
        """Raise :class:`Cancelled` when the job should stop (called between its chunks)."""
        if self.stopped.is_set() or time.monotonic() - self.polled > ABANDONED:
            raise Cancelled

    def status(self) -> str:
        """The job as the page polls it, a JSON text holding the command's JSON unchanged."""
        self.polled = time.monotonic()
        if self.state == "done":
            return f'{{"state": "done", "result": {self.result}, "view": {_json(self.view)}}}'
        fields: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.total}
        fields["unit"] = self.unit
        if self.note:
            fields["note"] = self.note
        if self.error is not None:
            fields["error"] = self.error
        return _json(fields)

    @contextmanager
    def bar(self, total: int, unit: str) -> Iterator[Callable[..., None]]:
        self.total, self.unit = total, unit

        def update(done: int, total: int | None = None) -> None:
            if total is not None:
                self.total = total
            self.done = done

        yield update


def advise(body: Any, job: Job) -> None:
    result = api.advise_result(body, bar=job.bar)
    job.result = api.document(result)
    is_ecart = isinstance(result, EcartAnalysis)
    job.view = views.ecart_view(result) if is_ecart else views.advice_view(result)


def play(body: Any, job: Job) -> None:
    advice, seconds = api.play_result(body)
    job.result = api.document(advice)
    job.view = views.play_view(advice, seconds)


def review(body: Any, job: Job) -> None:
    result = api.review_result(body, bar=job.bar)
    job.result = review_document(result)
    job.view = views.review_view(result)


KINDS = {"advise": advise, "play": play, "review": review}
CHECKS = {"advise": api.advise_result, "play": api.play_result, "review": api.review_result}
"""Each kind's computation, which :func:`.api.check_job` runs to its first chunk."""


class Jobs:
    """The jobs of one server: started by kind, looked up by number."""

    def __init__(self, running: int = RUNNING, waiting: int = WAITING) -> None:
        self._pool = ThreadPoolExecutor(running, thread_name_prefix="tarot-job")
        self._most = running + waiting
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    def start(self, kind: str, body: Any) -> str:
        """Check ``body`` (:class:`.errors.InputError`), then queue its job, unless as many as
        the server may hold are running or waiting (:class:`Busy`): the job's number."""
        api.check_job(CHECKS[kind], body)
        players = api.players_of(body)
        job = Job(compile_note(players) if players is not None else "")
        with self._lock:
            active = sum(job.state in ("queued", "running") for job in self._jobs.values())
            if active >= self._most:
                raise Busy(active)
            number = str(next(self._numbers))
            self._jobs[number] = job
            while len(self._jobs) > KEPT:
                self._jobs.popitem(last=False)
        self._pool.submit(_run, KINDS[kind], body, job)
        return number

    def get(self, number: str) -> Job | None:
        with self._lock:
            return self._jobs.get(number)

    def close(self) -> None:
        """Stop every job: the queued ones never start, the running ones stop at their next
        chunk."""
        with self._lock:
            for job in self._jobs.values():
                job.stopped.set()
        self._pool.shutdown(wait=False, cancel_futures=True)


def _run(work: Callable[[Any, Job], None], body: Any, job: Job) -> None:
    job.state = "running"
    try:
        with watched(job.check):
            job.check()  # a page gone, or a server stopping, while the job waited its turn
            work(body, job)
    except Cancelled:
        job.error, job.state = "stopped: its page went away, or the server stopped", "error"
    except InputError as error:
        job.error, job.state = error.message, "error"
    except Exception as error:  # a job never takes the server down; the page says what broke
        traceback.print_exc()
        job.error, job.state = f"internal error: {error}", "error"
    else:
        job.state = "done"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
