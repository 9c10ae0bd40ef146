"""Throughput benchmarks: named measurements, each a function of the benchmark settings.

A new measurement (playouts per second, advisor seconds…) is one function added to
:data:`MEASUREMENTS`; ``tarot-report bench`` runs them all in order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tarot_advisor.analyzer.deal import deal
from tarot_advisor.analyzer.parallel import choose_jobs, map_chunks

BENCH_SEED = 0
DEAL_CHUNK = 1 << 17
"""Deals per chunk in the dealer benchmark: large enough that scheduling costs vanish."""


@dataclass(frozen=True)
class BenchSettings:
    """What the benchmarks may use: ``deals`` samples each, on ``jobs`` workers."""

    deals: int
    jobs: int


def _deal_only(rng: np.random.Generator, n: int, players: int) -> int:
    """Deals ``n`` deals and returns their number, so that no deal travels between processes."""
    return len(deal(rng, n, players))


def dealer_throughput(deals: int, jobs: int, players: int = 4) -> float:
    """Full random deals per second on ``jobs`` workers (the workers are started beforehand)."""
    if jobs > 1:
        # Start the worker processes outside the timed run.
        map_chunks(_deal_only, 2 * jobs, seed=BENCH_SEED, chunk_size=1, jobs=jobs, players=players)
    start = time.perf_counter()
    map_chunks(
        _deal_only, deals, seed=BENCH_SEED, chunk_size=DEAL_CHUNK, jobs=jobs, players=players
    )
    return deals / (time.perf_counter() - start)


MEASUREMENTS: dict[str, Callable[[BenchSettings], float]] = {
    "deals_per_second": lambda s: dealer_throughput(s.deals, s.jobs),
    "deals_per_second_one_core": lambda s: dealer_throughput(s.deals, 1),
}
"""Name → measurement, run in this order; the name is the JSON key of the result."""


def run_benchmarks(deals: int, jobs: int = 0) -> dict[str, float | int]:
    """Every measurement of :data:`MEASUREMENTS`, plus the number of workers used (``jobs``)."""
    settings = BenchSettings(deals=deals, jobs=choose_jobs(jobs))
    results: dict[str, float | int] = {"jobs": settings.jobs}
    for name, measure in MEASUREMENTS.items():
        results[name] = measure(settings)
    return results
