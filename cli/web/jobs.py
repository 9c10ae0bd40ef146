"""Long computations for the page: each runs on a worker thread while the page polls its
progress, so that a request is never held for the seconds advice can take."""

from __future__ import annotations

import itertools
import json
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from tarot_advisor.analyzer.advice.ecart_advice import EcartAnalysis
from tarot_advisor.cli.errors import InputError
from tarot_advisor.cli.progress import compile_note
from tarot_advisor.cli.review import review_document
from tarot_advisor.cli.web import api, views

WORKERS = 2
"""Computations run at once; more wait their turn (queued) rather than share the cores."""
KEPT = 200
"""Finished jobs remembered for their page to collect."""


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

    def status(self) -> str:
        """The job as the page polls it, a JSON text holding the command's JSON unchanged."""
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


class Jobs:
    """The jobs of one server: started by kind, looked up by number."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="tarot-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    def start(self, kind: str, body: Any) -> str:
        players = api.players_of(body)
        job = Job(compile_note(players) if players is not None else "")
        with self._lock:
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
        self._pool.shutdown(wait=False, cancel_futures=True)


def _run(work: Callable[[Any, Job], None], body: Any, job: Job) -> None:
    job.state = "running"
    try:
        work(body, job)
    except InputError as error:
        job.error, job.state = error.message, "error"
    except Exception as error:  # a job never takes the server down; the page says what broke
        traceback.print_exc()
        job.error, job.state = f"internal error: {error}", "error"
    else:
        job.state = "done"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
