"""The JSON API: a request's body turned into the command line's own options, parsed by the
command's own parser and computed by the command's own function, so that the page and the
command line can never answer differently.

Every function takes the decoded body (a dict) and raises :class:`.errors.InputError` with the
command's sentence for bad input.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import click

from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.advice.cardplay import CardAdvice
from tarot_advisor.analyzer.advice.ecart_advice import EcartAnalysis
from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.advice.review_decision import DealReview
from tarot_advisor.analyzer.game import PLAYER_COUNTS, hand_size
from tarot_advisor.analyzer.parallel import started_workers, watched
from tarot_advisor.analyzer.rulebook.record import RecordSyntaxError, load_records
from tarot_advisor.cli import advise, play, review
from tarot_advisor.cli.advise_outputs import check_sizes
from tarot_advisor.cli.errors import InputError
from tarot_advisor.cli.limits import check_memory
from tarot_advisor.cli.options import json_document
from tarot_advisor.cli.progress import Bar, no_bar
from tarot_advisor.cli.web import budget

ADVISE_OPTIONS = {
    "players": "--players",
    "position": "--position",
    "bids": "--bids",
    "others": "--others",
    "samples": "--samples",
    "seed": "--seed",
    "chien": "--chien",
    "contract": "--contract",
    "called": "--called",
    "taker": "--taker",
    "defence": "--defence",
}
"""The body's keys for ``/api/advise`` besides ``hand``, and the options they stand for."""
PLAY_OPTIONS = {"samples": "--samples", "seed": "--seed"}
"""The body's keys for ``/api/play`` besides ``record``."""
REVIEW_OPTIONS = {
    "seat": "--seat",
    "samples": "--samples",
    "seed": "--seed",
    "taker": "--taker",
    "defence": "--defence",
}
"""The body's keys for ``/api/review`` besides ``record``."""
ADVICE_PARAMETERS = tuple(
    name
    for name, parameter in inspect.signature(advise.run_advice).parameters.items()
    if parameter.kind is parameter.KEYWORD_ONLY and name not in ("jobs", "dump_deals", "bar")
)
"""The parsed options :func:`.advise.run_advice` takes by name, read from its signature so that
the command's list is the only one (the web sets the workers itself, dumps no deals and
reports its own progress)."""
REVIEW_PARAMETERS = ("samples", "seed", "taker_policy", "defence_policy")
"""The parsed options :func:`.review.run_review` takes by name, besides the seat."""


def document(result: Analysis | EcartAnalysis | CardAdvice) -> str:
    """The ``--json`` text of a result, as the command prints it without ``--timings``."""
    return json_document(result.to_dict(), False, 0.0)


def advise_result(body: Any, bar: Bar | None = None) -> Analysis | EcartAnalysis:
    """``tarot-advise --json``'s computation for the body ``{"hand": …, "players": …, …}``."""
    body = _object(body, "hand", ADVISE_OPTIONS)
    hand = body.get("hand")
    if hand is None:
        raise InputError('give your hand under the key hand, e.g. "21 19 12 6 1 Excuse R♥ C♥ …"')
    argv = [*_options(body, ADVISE_OPTIONS), "--", _text(hand, "hand")]
    params = _parse(advise.main, argv)
    players, samples = int(params["players"]), params["samples"]
    sides = Sides(params["taker_policy"], params["defence_policy"])
    is_ecart = params["chien"] is not None
    check_sizes(players, samples, None, sides, is_ecart)  # the command's sentences first
    budget.check(budget.Work("ecart" if is_ecart else "bid", players, samples, sides))
    options = {name: params[name] for name in ADVICE_PARAMETERS}
    extra = {} if bar is None else {"bar": bar}
    return advise.run_advice(params["hand"], params["players"], jobs=_jobs(), **options, **extra)


def play_result(body: Any) -> tuple[CardAdvice, float]:
    """``tarot-play --json``'s computation for the body ``{"record": …, "samples", "seed"}``:
    the advice and its seconds."""
    body = _object(body, "record", PLAY_OPTIONS)
    record = body.get("record")
    if record is None:
        raise InputError("give the partial record under the key record")
    params = _parse(play.main, [*_options(body, PLAY_OPTIONS), "-"])
    text = record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)
    players = _players(record)
    cards = budget.Work("play", players, params["samples"], Sides(), cards=hand_size(players))
    check_memory("--samples", params["samples"], play.BYTES_PER_SAMPLE)  # the command's first
    budget.check(cards)
    return play.run_play(text, samples=params["samples"], seed=params["seed"], jobs=1)


def review_result(body: Any, bar: Bar = no_bar) -> DealReview:
    """``tarot-review --json``'s computation for the body ``{"record": …, "seat", "samples",
    "seed", "taker", "defence"}``, the record a finished deal (an object, or its JSON text)."""
    body = _object(body, "record", REVIEW_OPTIONS)
    record = body.get("record")
    if record is None:
        raise InputError("give the finished deal record under the key record")
    params = _parse(review.main, [*_options(body, REVIEW_OPTIONS), "-"])
    text = record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)
    try:
        records = load_records(text)
    except RecordSyntaxError as error:
        raise InputError(str(error)) from None
    if len(records) != 1:
        raise InputError("give one deal record, not several")
    options = {name: params[name] for name in REVIEW_PARAMETERS}
    review.check_sizes(options["samples"])
    budget.check(_review_work(records[0], params))
    return review.run_review(records[0], params["seat"], jobs=1, bar=bar, **options)


class Ready(BaseException):
    """A job's body checked: its work reached its first chunk (:func:`check_job`)."""


def check_job(work: Callable[[Any], Any], body: Any) -> None:
    """Raise :class:`.errors.InputError` with the command's sentence, or the budget's, for a
    job's body, before the job is queued: ``work`` (:func:`advise_result`, :func:`play_result`
    or :func:`review_result`) runs up to its first chunk of samples, so the checks are the
    command's own, all of them, and cost no sample."""

    def ready() -> None:
        raise Ready

    try:
        with watched(ready):
            work(body)
    except Ready:
        return


def _players(record: Any) -> int:
    """A record's number of players for the estimate (4 until the command reads it)."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError:
            return 4
    return review.record_players(record) or 4


def _review_work(record: Any, params: dict) -> budget.Work:
    players = review.record_players(record) or 4
    seat = str(params["seat"]).strip().lower()
    taker = isinstance(record, dict) and str(record.get("taker")) == seat
    seats = players if seat == "all" else 1
    sides = Sides(params["taker_policy"], params["defence_policy"])
    calls = seat in ("taker", "all") or taker
    return budget.Work("review", players, params["samples"], sides, seats=seats, calls=calls)


def players_of(body: Any) -> int | None:
    """The number of players a job's ``body`` asks about, where it gives a valid one: its
    record's, else its ``players`` (4 when not given). Only for the job's note that it compiles
    the engine; the job itself checks the body."""
    if not isinstance(body, dict):
        return None
    record = body.get("record")
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError:
            return None
    if record is not None:
        return review.record_players(record)
    players = str(body.get("players", 4))  # as the command's option reads it
    return int(players) if players in map(str, PLAYER_COUNTS) else None


def _jobs() -> int:
    """The workers an advice may use: those ``tarot-web`` forked at its start (a job's thread
    cannot fork), else one, the job's own thread. (The card-play advice and the review run on
    their thread: their chunks go to joblib's fresh processes, which would cost more than they
    save.)"""
    return started_workers() or 1


def _object(body: Any, main_key: str, options: dict[str, str]) -> dict:
    if not isinstance(body, dict):
        raise InputError(f"the request's body is a JSON object with the key {main_key}")
    unknown = sorted(set(body) - {main_key} - set(options))
    if unknown:
        known = ", ".join([main_key, *options])
        raise InputError(
            f"unknown key{'s' * (len(unknown) > 1)} {', '.join(unknown)}: the keys are {known}"
        )
    return body


def _options(body: dict, options: dict[str, str]) -> list[str]:
    argv = []
    for key, option in options.items():
        value = body.get(key)
        if value is not None:
            argv += [option, _text(value, key)]
    return argv


def _text(value: Any, key: str) -> str:
    """A value as the command line would receive it: text, a whole number, or a list of cards
    or bids (joined by spaces)."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " ".join(value)
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InputError(f"{key}: expected text or a whole number, not {json.dumps(value)[:40]}")
    return str(value)


def _parse(command: click.Command, argv: list[str]) -> dict:
    """The options as the command's own parser reads them, or its own sentence."""
    try:
        with command.make_context(command.name or "tarot", argv) as context:
            return dict(context.params)
    except click.UsageError as error:
        raise InputError(error.format_message()) from None
    except click.exceptions.Exit:  # --help or --version given as a value
        raise InputError("an option's value may not be --help or --version") from None
