"""``tarot-review RECORD``: where were the points lost? Every decision of a seat, and its cost.

Reads what ``tarot-replay`` reads (a file, JSON Lines, ``-``; TarotClub's deals and
``--dump-deals`` output are deal records too), replays each record through the referee, and
reviews the seat's decisions (:mod:`analyzer.advice.review`). Exit code 0 when every record
was reviewed, 1 when one breaks a rule of play (the replay's sentence), 2 when input is not a
deal record; the other records are still reviewed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from tarot_advisor.analyzer.advice.cardplay import DEFAULT_SAMPLES
from tarot_advisor.analyzer.advice.hand_samples import DEFAULT_POLICY, Sides
from tarot_advisor.analyzer.advice.review import decisions_to_judge, review_deal
from tarot_advisor.analyzer.advice.review_calls import ReviewError
from tarot_advisor.analyzer.advice.review_decision import DealReview, Decision, SeatReview
from tarot_advisor.analyzer.cards import format_cards
from tarot_advisor.analyzer.game import PLAYER_COUNTS
from tarot_advisor.analyzer.rulebook.record import RecordError, RecordSyntaxError, load_records
from tarot_advisor.analyzer.rulebook.rules import RuleError
from tarot_advisor.cli.errors import INPUT_ERROR, InputError, console_script, fail
from tarot_advisor.cli.limits import check_memory, check_output_file
from tarot_advisor.cli.options import command, jobs_option, json_option, quiet_option, seed_option
from tarot_advisor.cli.play import BYTES_PER_SAMPLE
from tarot_advisor.cli.progress import Bar, Progress, no_bar, progress
from tarot_advisor.cli.replay import error_dict, read_source
from tarot_advisor.cli.table_options import defence_option, played_by, taker_option
from tarot_advisor.reports.files import write_text

KIND_NAMES = {"card": "", "ecart": "écart", "poignee": "poignée", "chelem": "chelem", "bid": "bid"}


def seat_title(review: SeatReview) -> str:
    return f"Seat {review.seat} ({review.role})"


def decision_cells(decision: Decision) -> tuple[str, str, str, str, str, str]:
    """A decision's row of the table: where (trick n, écart…), played, best, cost, SE, and the
    mark ("◀ significant", "(forced)"), or, where the cost is not measured, why."""
    where = f"trick {decision.trick}" if decision.kind == "card" else KIND_NAMES[decision.kind]
    best = decision.best or "–"
    if decision.cost is None:
        return where, decision.played, best, "", "", f"not measured: {decision.note}"
    mark = "◀ significant" if decision.significant else ""
    mark = "(forced)" if decision.note == "forced" else mark
    cost, se = f"{decision.cost.mean:.1f}", f"{decision.cost.se:.1f}"
    return where, decision.played, best, cost, se, mark


def seat_summary(review: SeatReview) -> list[str]:
    """The total expected cost, then the costliest decisions, one numbered sentence each."""
    total = review.total_cost
    lines = [f"Total expected cost: {total.mean:.1f} ± {total.se:.1f} points"]
    return lines + [f"{n}. {d.sentence()}" for n, d in enumerate(review.costliest(), 1)]


def seat_table(review: SeatReview) -> list[str]:
    """A seat's decisions as a table a player reads quickly, the significant costs marked."""
    lines = [
        f"{seat_title(review)}: {format_cards(review.hand)}",
        f"  {'':7}{'played':<22}{'best':<22}{'cost':>7} {'± SE':>6}",
    ]
    for decision in review.decisions:
        where, played, best, cost, se, mark = decision_cells(decision)
        row = f"  {where:<9}{played:<22.22}{best:<22.22}"
        if cost:
            row += f"{cost:>7} {se:>6}" + (f"  {mark}" if mark else "")
        else:
            row += f"  {mark}"
        lines.append(row)
    return lines + [f"  {line}" for line in seat_summary(review)]


def deal_text(number: int, review: DealReview) -> str:
    game = review.game
    lines = [
        f"Deal {number}: {game.contract.label}, {game.players} players, taker seat {game.taker}"
        f" · {review.samples} worlds per card · seed {review.seed} · {review.seconds:.1f} s"
    ]
    for seat in review.seats:
        lines += seat_table(seat)
    if review.calls_judged:
        by = played_by(review.sides)
        lines.append(f"Bid, écart, poignée and chelem judged on deals played by {by}.")
    lines.append(
        "cost: E[best] − E[played] for the seat, on the same worlds (paired); ◀: over 2 SE"
        " and at least 10 points"
    )
    return "\n".join(lines)


def _seats(seat: str, data: object) -> list[int] | None:
    """The seats to review: ``None`` for the taker's; every seat for ``all``; a seat the record
    does not have is the option's error (:class:`InputError`), not the record's."""
    if seat == "taker":
        return None
    players = record_players(data)
    if players is None:
        return None  # the replay names what is wrong with the record
    if seat == "all":
        return list(range(players))
    if not (seat.isascii() and seat.isdigit()) or int(seat) >= players:
        raise InputError(f"--seat {seat}: give a seat from 0 to {players - 1}, or all", INPUT_ERROR)
    return [int(seat)]


def record_players(data: Any) -> int | None:
    """A deal record's number of players, where it gives a valid one (the replay checks it)."""
    players = data.get("players") if isinstance(data, dict) else None
    return players if type(players) is int and players in PLAYER_COUNTS else None


def run_review(
    data: Any,
    seat: str,
    *,
    samples: int,
    seed: int,
    jobs: int,
    taker_policy: str = DEFAULT_POLICY,
    defence_policy: str = DEFAULT_POLICY,
    bar: Bar = no_bar,
) -> DealReview:
    """What ``tarot-review`` computes for one record as :func:`load_records` gives it, with the
    command's options: the review (:func:`review_document` is its ``--json`` line). A record
    that breaks a rule raises :class:`.errors.InputError` with code 1, one that is not a deal
    record with code 2, each with the command's sentence and the record's error as cause.
    The caller checks the sizes first (:func:`check_sizes`), once for all its records."""
    seats = _seats(seat.strip().lower(), data)  # a wrong --seat is the option's, not the record's
    try:
        if isinstance(data, RecordSyntaxError):
            raise data
        players = record_players(data) or 4  # for the bar only: the replay checks it
        total = decisions_to_judge(players, len(seats or [0]), seats is None)
        with bar(total, "decisions") as done:
            return review_deal(
                data,
                seats,
                samples=samples,
                seed=seed,
                jobs=jobs,
                sides=Sides(taker_policy, defence_policy),
                on_done=done,
            )
    except (RecordError, RecordSyntaxError, RuleError, ReviewError) as error:
        illegal = isinstance(error, RuleError)
        kind = "illegal" if illegal else "not a deal record"
        raise InputError(f"{kind}: {error}", 1 if illegal else INPUT_ERROR) from error


def check_sizes(samples: int) -> None:
    """Refuse, before any work, worlds that would not fit in memory (one card's worlds at a
    time). No time limit: the worlds of a week of CPU would need terabytes."""
    check_memory("--samples", samples, BYTES_PER_SAMPLE, "sample")


def review_document(review: DealReview) -> str:
    """``tarot-review --json``'s line for one reviewed deal."""
    return json.dumps(review.to_dict(), ensure_ascii=False)


@command()
@click.argument("source", metavar="RECORD")
@click.option(
    "--seat",
    default="taker",
    show_default=True,
    help="The seat to review (0…n−1, as in the record), or all.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help="Worlds of the unseen cards per card played (the same ones for every card).",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also write the review as a self-contained web page, the deal drawn trick by trick.",
)
@taker_option(
    "Who plays the taker's side in the deals the bid, the écart, the poignée and the chelem are "
    "judged on (the cards are judged as tarot-play judges them)."
)
@defence_option("Who plays the defenders' cards in those deals")
@seed_option()
@jobs_option()
@json_option()
@quiet_option()
def main(
    source: str,
    seat: str,
    samples: int,
    html_path: Path | None,
    taker_policy: str,
    defence_policy: str,
    seed: int,
    jobs: int,
    as_json: bool,
    show_progress: bool | None,
) -> None:
    """Review a played deal: every decision of a seat (default: the taker), what was best, and
    what the choice made cost, E[best] − E[played], with its paired standard error.

    RECORD is a deal record file (JSON or JSON Lines), or - for stdin. Exit code: 0 all
    reviewed; 1 a record breaks a rule of play; 2 input that is not a deal record.
    """
    check_sizes(samples)
    if html_path is not None:
        check_output_file("--html", html_path)
    try:
        records = load_records(read_source(source))
    except RecordSyntaxError as error:
        fail(f"{'stdin' if source == '-' else source}: {error}")
    code, reviews = 0, []
    for number, data in enumerate(records, 1):

        def bar(total: int, unit: str, number: int = number, data: Any = data) -> Progress:
            players = record_players(data)
            label = f"deal {number}"
            return progress(total, label, show=show_progress, unit=unit, players=players)

        try:
            review = run_review(
                data,
                seat,
                samples=samples,
                seed=seed,
                jobs=jobs,
                taker_policy=taker_policy,
                defence_policy=defence_policy,
                bar=bar,
            )
        except InputError as error:
            code = max(code, error.code)
            click.echo(f"Error: deal {number}: {error.message}", err=True)
            if as_json:
                click.echo(json.dumps(error_dict(error.__cause__), ensure_ascii=False))
            continue
        reviews.append((number, review))
        click.echo(review_document(review) if as_json else deal_text(number, review))
    if html_path is not None and reviews:
        from tarot_advisor.reports.review_html import review_page

        try:
            write_text(html_path, review_page(reviews))
        except OSError as error:
            fail(f"could not write the page to {html_path}: {error.strerror}", 1)
        click.echo(f"Page written to {html_path}", err=True)
    elif html_path is not None:
        click.echo(f"No page written to {html_path}: no deal could be reviewed", err=True)
    sys.exit(code)


run = console_script(main)
"""The console script: :func:`main`, then the process ends at once (:func:`console_script`)."""
