"""Run a sampling task in chunks, on one core or many, with results independent of the workers.

The work of ``n_items`` samples is cut into chunks of ``chunk_size`` (the last one may be
smaller). Chunk ``k`` draws from its own generator, seeded by
``numpy.random.SeedSequence(seed).spawn(n_chunks)[k]``, so each chunk's result depends only on
the seed, the sample count and the chunk size — never on how many workers run the chunks or in
which order they finish. Results come back in chunk order.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import joblib
import numpy as np

T = TypeVar("T")

DEFAULT_BACKEND = "loky"
DEFAULT_SEED = 78
"""The seed of every sampling command unless told otherwise (78, the number of cards), so
that two runs agree; it is printed with the results."""


class ParallelError(ValueError):
    """Bad arguments to the parallel runner (chunk size, number of jobs…)."""


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


def chunk_sizes(n_items: int, chunk_size: int) -> list[int]:
    """The sizes of the chunks: ``chunk_size`` each, the last one holding the remainder."""
    if chunk_size < 1:
        raise ParallelError(f"the chunk size must be at least 1, not {chunk_size}")
    if n_items < 0:
        raise ParallelError(f"cannot process {n_items} items")
    full, rest = divmod(n_items, chunk_size)
    return [chunk_size] * full + ([rest] if rest else [])


def _run_chunk(
    task: Callable[..., T], seed: np.random.SeedSequence, n: int, kwargs: dict[str, Any]
) -> T:
    return task(np.random.default_rng(seed), n, **kwargs)


def map_chunks(
    task: Callable[..., T],
    n_items: int,
    *,
    seed: int,
    chunk_size: int,
    jobs: int = 1,
    backend: str | None = None,
    on_done: Callable[[int], None] | None = None,
    **task_kwargs: Any,
) -> list[T]:
    """``[task(rng_k, n_k, **task_kwargs) for each chunk k]``, computed on ``jobs`` workers.

    ``task`` must be picklable when ``jobs > 1`` (a module-level function). ``jobs = 1`` runs in
    this process without joblib; otherwise joblib runs the chunks with ``backend`` (default
    ``"loky"``; any joblib backend, e.g. ``"dask"`` once a Dask client exists). ``on_done``
    receives the number of items finished so far, after each chunk.
    """
    sizes = chunk_sizes(n_items, chunk_size)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    workers = min(choose_jobs(jobs), max(len(sizes), 1))
    results: list[T] = []
    finished = 0
    if workers == 1:
        for chunk_seed, n in zip(seeds, sizes, strict=True):
            results.append(_run_chunk(task, chunk_seed, n, task_kwargs))
            finished += n
            if on_done is not None:
                on_done(finished)
        return results
    with joblib.parallel_config(backend=backend or DEFAULT_BACKEND, n_jobs=workers):
        # A generator keeps chunk order and lets progress be reported as chunks finish.
        outputs = joblib.Parallel(return_as="generator")(
            joblib.delayed(_run_chunk)(task, chunk_seed, n, task_kwargs)
            for chunk_seed, n in zip(seeds, sizes, strict=True)
        )
        for result, n in zip(outputs, sizes, strict=True):
            results.append(result)
            finished += n
            if on_done is not None:
                on_done(finished)
    return results
