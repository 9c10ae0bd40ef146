"""What the study commands (thresholds, pointcount) share: their options, a Dask client, and
how a run that stops early is reported."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from pathlib import Path

import click
from joblib.externals.loky.process_executor import TerminatedWorkerError

from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.policies import POLICIES
from tarot_advisor.analyzer.studies.study import (
    DEFAULT_CHUNK_HANDS,
    DEFAULT_PLAY,
    SEARCH_CHUNK_HANDS,
)
from tarot_advisor.cli.errors import INTERRUPTED, fail
from tarot_advisor.cli.limits import check_disk, check_memory, check_time
from tarot_advisor.cli.options import Decorator
from tarot_advisor.reports.formatting import counted

STOPPED = 1
"""Exit status of a study run stopped early (interrupted, a worker lost, a folder unwritable)."""


def hands_option(default: int, help: str) -> Decorator:
    return click.option(
        "--hands", type=click.IntRange(min=1), default=default, show_default=True, help=help
    )


def hand_samples_option(default: int) -> Decorator:
    return click.option(
        "--samples",
        type=click.IntRange(min=2),
        default=default,
        show_default=True,
        help="Random deals of the unseen cards per hand.",
    )


def play_options() -> Decorator:
    """``--taker`` and ``--defence``: who plays the cards in the study (part of its
    parameters), by default the advice's play, the lookahead at every seat."""
    taker = click.option(
        "--taker",
        type=click.Choice(list(POLICIES)),
        default=DEFAULT_PLAY.taker,
        show_default=True,
        help="Who plays the taker's side (and the partner's with 5 players). The lookahead, as "
        "the advice assumes, costs about 100 times the greedy's CPU: 9 ms a hand-sample with 3 "
        "or 4 players, 11 with 5, where the greedy takes about 0.1 ms.",
    )
    defence = click.option(
        "--defence",
        type=click.Choice(list(POLICIES)),
        default=DEFAULT_PLAY.defence,
        show_default=True,
        help="Who plays the defenders' cards.",
    )
    return lambda function: taker(defence(function))


def backend_option() -> Decorator:
    return click.option(
        "--backend",
        type=click.Choice(["loky", "dask"]),
        default="loky",
        show_default=True,
        help="Where the study's chunks run: local processes, or a Dask cluster.",
    )


def scheduler_option() -> Decorator:
    return click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://host:8786); without it --backend dask starts a "
        "local cluster.",
    )


def chunk_hands_option() -> Decorator:
    return click.option(
        "--chunk-hands",
        type=click.IntRange(min=1),
        default=None,
        help=f"Hands per chunk of the study (stored with it: the numbers depend on it); "
        f"default {DEFAULT_CHUNK_HANDS}, or {SEARCH_CHUNK_HANDS} when a side plays by lookahead "
        "(smaller chunks of slower work).",
    )


HAND_DISK = 400
"""Bytes of disk a hand of a study takes: its row in a chunk and in hands.csv (about 170 each)."""
HAND_MEMORY = 1_000
"""Bytes of memory a hand of a study takes when its table is put together and fitted."""


def check_study_size(
    hands: int, samples: int, jobs: int, scheduler: str | None, sides: Sides
) -> None:
    """Refuses, before any work, a study that would not fit in memory or would take more than a
    week on ``jobs`` local workers (a remote cluster's size is unknown: only memory counts);
    a hand-sample played by search (``sides``) costs far more than the greedy's."""
    check_memory("--hands", hands, HAND_MEMORY, "hand")
    what = "searched hand-sample" if sides.searches else "hand-sample"
    if scheduler is None:
        check_time("--hands", hands, what, jobs, samples)


def check_study_disk(out: Path, hands: int) -> None:
    """Refuses a study whose files would not fit on the disk of ``out`` (an existing folder)."""
    check_disk("--out", out / "hands.csv", hands * HAND_DISK)


def import_distributed():
    """The ``distributed`` module, imported only when Dask is asked for."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        fail(
            "the Dask backend needs the optional dask extra: pip install 'tarot-advisor[dask]' "
            "(or pip install 'dask[distributed]')"
        )


@contextlib.contextmanager
def dask_client(scheduler: str | None, jobs: int) -> Iterator[object]:
    """A Dask client on ``scheduler``, or on a local cluster of ``jobs`` workers; joblib's
    ``dask`` backend then sends the chunks to it."""
    distributed = import_distributed()
    try:
        if scheduler is None:
            cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1)
            client = distributed.Client(cluster)
        else:
            cluster = None
            client = distributed.Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as error:
        fail(f"cannot reach the Dask scheduler {scheduler}: {error}")
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def worker_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean a worker died: loky's, and Dask's when it is loaded."""
    errors: list[type[BaseException]] = [TerminatedWorkerError]
    with contextlib.suppress(ImportError):
        from distributed.scheduler import KilledWorker

        errors.append(KilledWorker)
    return tuple(errors)


def interrupted(out: Path, done: int, hands: int) -> None:
    """End a study run stopped by Ctrl-C: exit 130, the finished chunks kept."""
    stopped(out, done, hands, "interrupted", INTERRUPTED)


def stopped(out: Path, done: int, hands: int, reason: str, code: int = STOPPED) -> None:
    """End a study run that stopped for ``reason`` (exit ``code``), saying what is kept and how
    to finish."""
    if done == 0:
        fail(f"{reason}; no hand was finished, so nothing is kept", code)
    fail(
        f"{reason}; the {done:,} of {counted(hands, 'hand')} already done are kept in "
        f"{out / 'chunks'}: "
        "run the same command with --resume to finish",
        code,
    )
