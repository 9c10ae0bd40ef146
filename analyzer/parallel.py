"""Run a sampling task in chunks, on one core or many, with results independent of the workers.

The work of ``n_items`` samples is cut into chunks of ``chunk_size`` (the last one may be
smaller). Chunk ``k`` draws from its own generator, seeded by
``numpy.random.SeedSequence(seed).spawn(n_chunks)[k]`` (:func:`chunk_seed`), so each chunk's
result depends only on the seed, the sample count and the chunk size — never on how many
workers run the chunks, in which order they finish, or which other chunks run at all (a study
resumed computes only its missing chunks). :func:`map_chunks` returns the results in chunk
order; :func:`iter_chunks` yields each with its index, as it is computed; :func:`map_chunks_until`
stops at the first chunks whose results settle a question — the same chunks whatever the
number of workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import queue
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

DEFAULT_BACKEND = "loky"
FORK = "fork"
"""The local backend whose workers are forked from this process (:func:`_forked_pool`)."""
LOCAL_BACKENDS = (DEFAULT_BACKEND, FORK)
DEFAULT_SEED = 78
"""The seed of every sampling command unless told otherwise (78, the number of cards), so
that two runs agree; it is printed with the results."""


HEAP_PAD = 64 << 20
"""Bytes of freed memory a process running chunks keeps for its next allocations
(:func:`keep_freed_memory`)."""
_M_TOP_PAD = -2
"""glibc's ``mallopt`` parameter number for the top pad."""


class ParallelError(ValueError):
    """Bad arguments to the parallel runner (chunk size, number of jobs…)."""


_WATCH = threading.local()
"""The check of the thread's current run (:func:`watched`)."""
WAIT_STEP = 0.25
"""Seconds between two checks while a run waits for its workers' chunks."""


@contextlib.contextmanager
def watched(check: Callable[[], None]) -> Iterator[None]:
    """Within this block, this thread's runs call ``check()`` before each chunk they start and
    every :data:`WAIT_STEP` seconds while they wait for one: an exception it raises ends the run
    there (its workers finish only the chunks already started). A server stops a job whose
    client went away, or refuses work it measures, this way."""
    before = getattr(_WATCH, "check", None)
    _WATCH.check = check
    try:
        yield
    finally:
        _WATCH.check = before


def _no_check() -> None:
    """The check of a run outside :func:`watched`: nothing."""


def available_cores() -> int:
    """Cores this process may use (the affinity mask when the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def choose_jobs(jobs: int) -> int:
    """The number of workers for ``jobs``: itself when positive, all cores for 0 or -1."""
    if jobs in (0, -1):
        return available_cores()
    if jobs < -1:
        raise ParallelError(
            f"jobs must be a positive number of workers, or 0 or -1 for all cores, not {jobs}"
        )
    return jobs


def workers_for(jobs: int, chunks: int) -> int:
    """The workers a local run of ``chunks`` chunks on ``jobs`` uses: no more than the chunks
    (one chunk, or none, runs in this process)."""
    return min(choose_jobs(jobs), max(chunks, 1))


def chunk_sizes(n_items: int, chunk_size: int | Sequence[int]) -> list[int]:
    """The sizes of the chunks: ``chunk_size`` each, the last one holding the remainder; or,
    given a sequence, those sizes (which must add up to ``n_items``)."""
    if not isinstance(chunk_size, int):
        sizes = [int(size) for size in chunk_size]
        if sum(sizes) != n_items or min(sizes, default=1) < 1:
            raise ParallelError(f"chunks of {sizes} do not cut {n_items} items")
        return sizes
    if chunk_size < 1:
        raise ParallelError(f"the chunk size must be at least 1, not {chunk_size}")
    if n_items < 0:
        raise ParallelError(f"cannot process {n_items} items")
    full, rest = divmod(n_items, chunk_size)
    return [chunk_size] * full + ([rest] if rest else [])


def chunk_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of chunk ``index``: the ``index``-th child of ``SeedSequence(seed).spawn``."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


@functools.cache
def keep_freed_memory() -> None:
    """Let this process's heap keep :data:`HEAP_PAD` bytes of freed memory (glibc only; once
    per process).

    A vectorised playout allocates and frees a few hundred arrays of about 100 kB a card. By
    default glibc gives the memory at the top of the heap back to the system whenever more than
    128 kB of it is free, and takes it back page by page, each a fault and a page zeroed by the
    kernel (greedy Garde playouts, 10,000 deals a chunk: 1,650 page faults a chunk, 955 with
    the pad; 4.6 ms of system time, 2.0 with it).
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no C library with mallopt: nothing to tune
        return
    mallopt(_M_TOP_PAD, HEAP_PAD)


def _run_chunk(
    index: int, task: Callable[..., T], seed: np.random.SeedSequence, n: int, kwargs: dict
) -> tuple[int, T]:
    keep_freed_memory()
    return index, task(np.random.default_rng(seed), n, **kwargs)


def _run_packed_chunk(call: tuple) -> tuple[int, Any]:
    return _run_chunk(*call)


_POOL: dict[int, Any] = {}
"""The forked workers of this process, by their number (:func:`_forked_pool`)."""


def _can_fork() -> bool:
    """Workers may be forked from this process: the platform forks, this is the main thread and
    no other thread but a daemon runs (a thread holding a lock at the fork leaves it held
    forever in the child; a daemon, such as a progress bar's clock, holds none a worker takes)."""
    others = [t for t in threading.enumerate() if t is not threading.main_thread()]
    return (
        hasattr(os, "fork")
        and sys.platform.startswith("linux")
        and threading.current_thread() is threading.main_thread()
        and all(t.daemon for t in others)
    )


def _quiet_worker() -> None:
    """In a forked worker: Ctrl-C is the parent's to handle (it ends the workers), and the
    worker writes nothing (its task's errors go back to the parent with its results; what it
    would print as the parent ends is noise)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)


_PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process receives when its parent ends."""


def _end_with_parent() -> None:
    """In a forked worker: be killed when the parent ends, however it ends (a SIGKILL too), so
    that no worker goes on computing as an orphan (Linux only)."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the call
        os._exit(1)


def _forked_pool(workers: int) -> Any:
    """``workers`` processes forked from this one, kept for the process's next runs.

    Forked, a worker starts in a few milliseconds with every module and compiled kernel of its
    parent already loaded (joblib's loky workers start fresh: about a second, then the kernels'
    load, which a run of a few seconds cannot afford); they are ended when the process ends.
    They see this process as it was when they were forked: a task must carry in its arguments
    whatever may change after (a module-level setting changed since does not reach them).
    Ctrl-C is held back while they are forked, so that it reaches the parent whole, after."""
    if workers not in _POOL:
        import atexit
        import multiprocessing

        stop_workers()  # a pool of another size: one pool at a time
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pool = multiprocessing.get_context("fork").Pool(workers, initializer=_quiet_worker)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        atexit.register(pool.terminate)
        _POOL[workers] = pool
    return _POOL[workers]


def start_workers(jobs: int = 0) -> int:
    """Fork ``jobs`` workers now (0 or -1: every core), for a process whose threads will run
    the analyses (a server): a thread cannot fork, but it may hand its chunks to workers forked
    before the threads began (:func:`iter_chunks`). Returns how many there are (0: this process
    cannot fork, and its threads will run their chunks themselves or by joblib)."""
    if not _can_fork():
        return 0
    workers = choose_jobs(jobs)
    _forked_pool(workers)
    return workers


def stop_workers() -> None:
    """End this process's forked workers now (they finish no chunk): before forking a pool of
    another size, or in a process about to end without the interpreter's own teardown, which
    would otherwise end them (atexit)."""
    for pool in _POOL.values():
        pool.terminate()
    _POOL.clear()


def started_workers() -> int:
    """How many forked workers this process keeps (0: none yet)."""
    return next(iter(_POOL), 0)


def iter_chunks(
    task: Callable[..., T],
    n_items: int,
    *,
    seed: int,
    chunk_size: int | Sequence[int],
    jobs: int = 1,
    backend: str | None = None,
    indices: Sequence[int] | None = None,
    ordered: bool = True,
    first_chunk: int = 0,
    **task_kwargs: Any,
) -> Iterator[tuple[int, T]]:
    """``(k, task(rng_k, n_k, **task_kwargs))`` for the chunks ``indices`` (default: all), each
    as soon as it is computed: in chunk order, or with ``ordered=False`` as they finish (so a
    caller can store each at once). Chunk ``k`` draws from the stream of chunk
    ``first_chunk + k`` (:func:`chunk_seed`): a second run of the same seed numbered from far
    enough draws samples independent of the first's.

    ``task`` must be picklable when the chunks leave this process (a module-level function).
    Locally (``backend`` ``"loky"``, the default, or ``"fork"``), ``jobs`` workers (0 or -1:
    all cores) run the chunks, and one worker (or a lone chunk) runs them here, without joblib
    — but with ``"fork"``, a lone chunk goes to the workers already forked for ``jobs``. With
    ``"fork"`` they are forked from this process where it can (:func:`_forked_pool`; from a
    thread, the workers :func:`start_workers` forked before), else they are joblib's loky
    processes. Any other joblib backend (``"threading"``, or ``"dask"`` once a Dask client
    exists) always receives the chunks and sizes itself (a cluster uses all its workers):
    ``jobs`` is then not used.
    """
    check = getattr(_WATCH, "check", None) or _no_check
    sizes = chunk_sizes(n_items, chunk_size)
    wanted = range(len(sizes)) if indices is None else indices
    backend = backend or DEFAULT_BACKEND
    local = backend in LOCAL_BACKENDS
    workers = workers_for(jobs, len(wanted)) if local else -1
    calls = ((k, task, chunk_seed(seed, first_chunk + k), sizes[k], task_kwargs) for k in wanted)
    # Their kernels are loaded; this process may have run none (0.2-0.4 s to load them).
    waiting = backend == FORK and choose_jobs(jobs) > 1 and choose_jobs(jobs) in _POOL
    if workers == 1 and not waiting:
        for call in calls:
            check()
            yield _run_chunk(*call)
        return
    if backend == FORK:
        # A thread hands its chunks to the workers forked before it began, whatever their
        # number (the numbers do not depend on it); only the main thread forks more.
        pool = _forked_pool(choose_jobs(jobs)) if _can_fork() else next(iter(_POOL.values()), None)
        if pool is not None:
            yield from _windowed(pool, calls, choose_jobs(jobs), ordered, check)
            return
        backend = DEFAULT_BACKEND
    import joblib  # a tenth of a second to import, which a run on one worker does without

    order = "generator" if ordered else "generator_unordered"
    checked = (call for call in calls if check() is None)
    with joblib.parallel_config(backend=backend, n_jobs=workers):
        yield from joblib.Parallel(return_as=order)(joblib.delayed(_run_chunk)(*c) for c in checked)


def _windowed(
    pool: Any, calls: Iterator[tuple], window: int, ordered: bool, check: Callable[[], None]
) -> Iterator[tuple[int, Any]]:
    """The chunks ``calls`` run on ``pool``, no more than ``window`` of them started and not yet
    collected: the runs of several threads sharing the workers take turns chunk by chunk (the
    pool starts chunks in the order they are handed to it, and ``imap`` would hand it all of a
    run's at once), and a run that stops leaves at most ``window`` chunks to finish."""
    started: deque[Any] = deque()
    finished: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def start_next() -> None:
        call = next(calls, None)
        if call is not None:
            check()
            started.append(
                pool.apply_async(
                    _run_packed_chunk, (call,), callback=finished.put, error_callback=finished.put
                )
            )

    for _ in range(window):
        start_next()
    while started:
        if ordered:
            first = started.popleft()
            while not first.ready():
                first.wait(WAIT_STEP)
                check()
            result = first.get()
        else:
            while True:
                try:
                    result = finished.get(timeout=WAIT_STEP)
                    break
                except queue.Empty:
                    check()
            started.pop()  # one fewer running (which one does not matter)
            if isinstance(result, BaseException):
                raise result
        start_next()
        yield result


def map_chunks(
    task: Callable[..., T],
    n_items: int,
    *,
    seed: int,
    chunk_size: int | Sequence[int],
    jobs: int = 1,
    backend: str | None = None,
    on_done: Callable[[int], None] | None = None,
    first_chunk: int = 0,
    **task_kwargs: Any,
) -> list[T]:
    """``[task(rng_k, n_k, **task_kwargs) for each chunk k]``, in chunk order, computed on
    ``jobs`` workers with ``backend`` as :func:`iter_chunks` says. ``on_done`` receives the
    number of items finished so far, after each chunk.
    """
    sizes = chunk_sizes(n_items, chunk_size)
    results: list[T] = []
    chunks = iter_chunks(
        task,
        n_items,
        seed=seed,
        chunk_size=chunk_size,
        jobs=jobs,
        backend=backend,
        first_chunk=first_chunk,
        **task_kwargs,
    )
    for index, result in chunks:
        results.append(result)
        if on_done is not None:
            on_done(sum(sizes[: index + 1]))
    return results


def map_chunks_until(
    task: Callable[..., T],
    n_items: int,
    settled: Callable[[list[T]], bool],
    *,
    seed: int,
    chunk_size: int | Sequence[int],
    jobs: int = 1,
    backend: str | None = None,
    on_done: Callable[[int], None] | None = None,
    first_chunk: int = 0,
    **task_kwargs: Any,
) -> list[T]:
    """The results of chunks 0 … L − 1, in order, for the smallest L such that
    ``settled(results[:L])`` (all the chunks if none): what :func:`map_chunks` returns, cut
    where the question is settled.

    ``settled`` is asked of every prefix in turn, so L depends only on the results, never on
    ``jobs``: the chunks are computed in waves of one per worker, and the chunks a wave computed
    beyond L are dropped (they cost time, not reproducibility). With a backend other than the
    local one, all the chunks are one wave (the cluster sizes itself). ``on_done`` receives the
    number of items finished so far, after each chunk kept.
    """
    sizes = chunk_sizes(n_items, chunk_size)
    local = (backend or DEFAULT_BACKEND) in LOCAL_BACKENDS
    wave = choose_jobs(jobs) if local else max(len(sizes), 1)
    options = dict(
        seed=seed,
        chunk_size=chunk_size,
        jobs=jobs,
        backend=backend,
        first_chunk=first_chunk,
        **task_kwargs,
    )
    results: list[T] = []
    kept: int | None = None
    for first in range(0, len(sizes), wave):
        indices = range(first, min(first + wave, len(sizes)))
        # The whole wave is waited for: its chunks run side by side, and a worker left busy
        # would be cancelled with a warning to the user.
        for index, result in iter_chunks(task, n_items, indices=indices, **options):
            results.append(result)
            if kept is None:
                if on_done is not None:
                    on_done(sum(sizes[: index + 1]))
                if settled(results):
                    kept = len(results)
        if kept is not None:
            return results[:kept]
    return results
