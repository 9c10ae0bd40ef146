"""Options every command shares, written once: players, seed, jobs, JSON output, quiet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tarot_advisor.analyzer.game import PLAYER_COUNTS
from tarot_advisor.analyzer.parallel import DEFAULT_SEED, ParallelError, choose_jobs

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _jobs(_ctx: click.Context, _param: click.Parameter, value: int) -> int:
    try:
        return choose_jobs(value)
    except ParallelError:
        raise click.BadParameter("give a number of workers, or 0 (or -1) for all cores") from None


def players_option(help: str = "Number of players.") -> Decorator:
    return click.option(
        "--players",
        type=click.Choice([str(p) for p in PLAYER_COUNTS]),
        default="4",
        show_default=True,
        help=help,
    )


def seed_option() -> Decorator:
    return click.option(
        "--seed",
        type=click.IntRange(min=0),
        default=DEFAULT_SEED,
        show_default=True,
        help="Random seed; the same seed and sizes give the same numbers whatever --jobs.",
    )


def jobs_option(default: int = 0, help: str | None = None) -> Decorator:
    """``--jobs``, turned into a number of workers (0 or -1: every core)."""
    return click.option(
        "--jobs",
        type=int,
        default=default,
        show_default=True,
        callback=_jobs,
        help=help or "Worker processes; 0 or -1 uses every core.",
    )


def json_option() -> Decorator:
    return click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")


def quiet_option() -> Decorator:
    return click.option("--quiet", is_flag=True, help="No progress bar on stderr.")


def version_option() -> Decorator:
    """``--version``: the installed distribution's version."""
    return click.version_option(
        package_name="tarot-advisor", message="%(prog)s (tarot-advisor) %(version)s"
    )
