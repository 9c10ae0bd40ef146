"""Options every command shares, written once: players, seed, jobs, JSON output, timings, quiet;
and :func:`command`, the decorator every command is declared with (one-sentence errors, ``-h``,
``--version``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from tarot_advisor.analyzer.game import PLAYER_COUNTS
from tarot_advisor.analyzer.parallel import DEFAULT_SEED, ParallelError, choose_jobs
from tarot_advisor.cli.errors import Command, fail

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


JOBS_RULE = (
    "Worker processes (0 = every core). Starting workers costs about a second, so they pay off "
    "only on runs that take more than about ten seconds on one, with idle cores to run on; the "
    "numbers never change with it."
)
"""The one rule for ``--jobs``, the same in every command's help and in the README."""


def jobs_option(help: str = "", *, default: int = 1) -> Decorator:
    """``--jobs``, turned into a number of workers (0 or -1: every core).

    ``help``: what a worker takes in this command, added to :data:`JOBS_RULE`. ``default``: 1
    in every command but the benchmark, which measures every core."""
    return click.option(
        "--jobs",
        type=int,
        default=default,
        show_default=True,
        callback=_jobs,
        help=help if default != 1 else f"{JOBS_RULE} {help}".strip(),
    )


def json_option() -> Decorator:
    return click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")


def timings_option() -> Decorator:
    """``--timings``: the seconds a run took, in the JSON under ``timings``. Left out by default
    so that the same seed gives the same bytes."""
    return click.option(
        "--timings",
        is_flag=True,
        help="With --json: add the run's seconds under the key timings (without it, the same "
        "seed gives byte-identical JSON).",
    )


def given(name: str) -> bool:
    """Whether the user gave the option ``name`` (its parameter name) rather than its default."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def refuse_unused(names: dict[str, str], reason: str) -> None:
    """Refuses, in one sentence, the first of the options ``names`` (parameter name → flag)
    the user gave, which cannot act for ``reason``."""
    for name, flag in names.items():
        if given(name):
            fail(f"{flag} cannot act {reason}: leave it out")


def check_timings(as_json: bool, timings: bool) -> None:
    """Refuses ``--timings`` without ``--json``, where it could not act."""
    if timings and not as_json:
        fail("--timings adds the seconds to the JSON: give it with --json")


def json_document(document: dict, timings: bool, seconds: float) -> str:
    """The ``--json`` text of ``document``: byte-identical for the same seed, the run's
    ``seconds`` added under ``timings`` only when asked (``--timings``)."""
    if timings:
        document = document | {"timings": {"seconds": round(seconds, 3)}}
    return json.dumps(document, ensure_ascii=False)


def quiet_option() -> Decorator:
    """``--progress/--quiet``: the progress bar on stderr, shown by default only when stderr
    is a terminal (``show_progress`` None)."""
    return click.option(
        "--progress/--quiet",
        "show_progress",
        default=None,
        help="Show the progress bar on stderr, or not [default: only when stderr is a terminal].",
    )


def version_option() -> Decorator:
    """``--version``: the installed distribution's version."""
    return click.version_option(
        package_name="tarot-advisor", message="%(prog)s (tarot-advisor) %(version)s"
    )


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}


def command(name: str | None = None) -> Decorator:
    """Declares a command as every command of the package is: bad usage answered in one sentence
    with exit 2 (:class:`.errors.Command`), ``-h`` beside ``--help``, and ``--version``."""

    def decorate(function: Callable[..., Any]) -> click.Command:
        return click.command(name, cls=Command, context_settings=HELP_OPTIONS)(
            version_option()(function)
        )

    return decorate
