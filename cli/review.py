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

import click

from tarot_advisor.analyzer.advice.cardplay import DEFAULT_SAMPLES
from tarot_advisor.analyzer.advice.review import decisions_to_judge, review_deal
from tarot_advisor.analyzer.advice.review_calls import ReviewError
from tarot_advisor.analyzer.advice.review_decision import DealReview, SeatReview
from tarot_advisor.analyzer.cards import format_cards
from tarot_advisor.analyzer.rulebook.record import RecordError, RecordSyntaxError, load_records
from tarot_advisor.analyzer.rulebook.rules import RuleError
from tarot_advisor.cli.errors import INPUT_ERROR, fail
from tarot_advisor.cli.limits import check_output_file, write_text_atomically
from tarot_advisor.cli.options import command, jobs_option, json_option, quiet_option, seed_option
from tarot_advisor.cli.progress import progress
from tarot_advisor.cli.replay import error_dict, read_source

KIND_NAMES = {"card": "", "ecart": "écart", "poignee": "poignée", "chelem": "chelem", "bid": "bid"}


def seat_table(review: SeatReview) -> list[str]:
    """A seat's decisions as a table a player reads quickly, the significant costs marked."""
    lines = [
        f"Seat {review.seat} ({review.role}): {format_cards(review.hand)}",
        f"  {'':7}{'played':<22}{'best':<22}{'cost':>7} {'± SE':>6}",
    ]
    for decision in review.decisions:
        where = f"trick {decision.trick}" if decision.kind == "card" else KIND_NAMES[decision.kind]
        if decision.cost is None:
            cost = f"  not measured: {decision.note}"
        else:
            cost = f"{decision.cost.mean:7.1f} {decision.cost.se:6.1f}"
            cost += "  ◀ significant" if decision.significant else ""
            cost += "  (forced)" if decision.note == "forced" else ""
        lines.append(f"  {where:<9}{decision.played:<22.22}{decision.best or '–':<22.22}{cost}")
    total = review.total_cost
    lines.append(f"  Total expected cost: {total.mean:.1f} ± {total.se:.1f} points")
    for number, decision in enumerate(review.costliest(), 1):
        lines.append(f"  {number}. {decision.sentence()}")
    return lines


def deal_text(number: int, review: DealReview) -> str:
    game = review.game
    lines = [
        f"Deal {number}: {game.contract.label}, {game.players} players, taker seat {game.taker}"
        f" · {review.samples} worlds per card · seed {review.seed} · {review.seconds:.1f} s"
    ]
    for seat in review.seats:
        lines += seat_table(seat)
    lines.append(
        "cost: E[best] − E[played] for the seat, on the same worlds (paired); ◀: over 2 SE"
        " and at least 10 points"
    )
    return "\n".join(lines)


def _seats(seat: str, data: object) -> list[int] | None:
    """The seats to review: ``None`` for the taker's; every seat for ``all``."""
    if seat == "taker":
        return None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, int) or players not in (3, 4, 5):
        return None  # the replay names what is wrong with the record
    if seat == "all":
        return list(range(players))
    if not seat.isdigit() or int(seat) >= players:
        raise ReviewError(f"--seat {seat}: give a seat from 0 to {players - 1}, or all")
    return [int(seat)]


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
@seed_option()
@jobs_option()
@json_option()
@quiet_option()
def main(
    source: str,
    seat: str,
    samples: int,
    html_path: Path | None,
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
    seat = seat.strip().lower()
    if html_path is not None:
        check_output_file("--html", html_path)
    try:
        records = load_records(read_source(source))
    except RecordSyntaxError as error:
        fail(f"{'stdin' if source == '-' else source}: {error}")
    code, reviews = 0, []
    for number, data in enumerate(records, 1):
        try:
            if isinstance(data, RecordSyntaxError):
                raise data
            seats = _seats(seat, data)
            players = data.get("players") if isinstance(data, dict) else None
            players = players if players in (3, 4, 5) else 4  # for the bar only: replay checks
            total = decisions_to_judge(players, len(seats or [0]), seats is None)
            with progress(total, f"deal {number}", show=show_progress, unit="decisions") as bar:
                review = review_deal(
                    data, seats, samples=samples, seed=seed, jobs=jobs, on_done=bar
                )
        except (RecordError, RecordSyntaxError, RuleError, ReviewError) as error:
            code = max(code, 1 if isinstance(error, RuleError) else INPUT_ERROR)
            kind = "illegal" if isinstance(error, RuleError) else "not a deal record"
            click.echo(f"Error: deal {number}: {kind}: {error}", err=True)
            if as_json:
                click.echo(json.dumps(error_dict(error), ensure_ascii=False))
            continue
        reviews.append((number, review))
        if as_json:
            click.echo(json.dumps(review.to_dict(), ensure_ascii=False))
        else:
            click.echo(deal_text(number, review))
    if html_path is not None and reviews:
        from tarot_advisor.reports.review_html import review_page

        try:
            write_text_atomically(html_path, [review_page(reviews)])
        except OSError as error:
            fail(f"could not write the page to {html_path}: {error.strerror}", 1)
        click.echo(f"Page written to {html_path}", err=True)
    sys.exit(code)
