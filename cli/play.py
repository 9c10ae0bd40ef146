"""``tarot-play FILE|-``: what to play now, every legal card with its expected score.

Reads one partial record (design.md: the deal record's keys, the tricks so far, ``seat`` and
``hand``), checks it, and plays every legal card of the user out on the same consistent deals
of the unseen cards. Exit code 2 for input that is not a possible state of a deal.
"""

from __future__ import annotations

import time

import click

from tarot_advisor.analyzer.advice.cardplay import (
    DEFAULT_SAMPLES,
    CardAdvice,
    CardEstimate,
    advise_play,
)
from tarot_advisor.analyzer.advice.display import proportion
from tarot_advisor.analyzer.cards import format_card, format_cards
from tarot_advisor.analyzer.rulebook.record import RecordSyntaxError, load_records
from tarot_advisor.analyzer.search.position import PositionError, read_position
from tarot_advisor.analyzer.stats import Z95
from tarot_advisor.cli.errors import console_script, fail
from tarot_advisor.cli.limits import check_memory
from tarot_advisor.cli.options import (
    check_timings,
    command,
    jobs_option,
    json_document,
    json_option,
    seed_option,
    timings_option,
)
from tarot_advisor.cli.progress import say_compiling
from tarot_advisor.cli.replay import read_source

BYTES_PER_SAMPLE = 600
"""Memory a sample takes until the cards are ranked: a score, a make and a gap for each of up
to 24 legal cards."""


def table(advice: CardAdvice, seconds: float) -> str:
    """The human table: one row per legal card, best first, the greedy's card marked."""
    position, record = advice.position, advice.position.record
    trick = len(record.tricks) + (not position.current)
    lines = [
        f"Seat {position.seat} ({position.role}), {record.contract.label}, trick {trick}:"
        f" {format_cards(position.hand)}",
    ]
    if position.current:
        lines.append(f"On the table: {format_cards(position.current, sort=False)}")
    lines += ["", f"Card       E[score] (you)  {'vs best':^15}  P(make) [95%]"]
    for rank, estimate in enumerate(advice.cards):
        card, score, versus, make = card_cells(estimate, rank)
        mark = "  ◀ greedy" if estimate.card == advice.greedy_choice else ""
        lines.append(f"{card:<7} {score}  {versus}  {make}{mark}")
    lines += [
        "",
        f"{advice.samples:,} deals of the unseen cards · seed {advice.seed} · {seconds:.2f} s"
        " · ± and [ ] = 95% intervals · P(make): the taker makes the contract",
        "vs best: the gap to the first card, deal by deal on the same deals — its ± is the one"
        " that says whether the first card is really better",
        f"Seats count 0–{record.players - 1} as in the record; seat {record.first_leader} led"
        " the first trick (position 1 in tarot-advise --position).",
    ]
    return "\n".join(lines)


def card_cells(estimate: CardEstimate, rank: int) -> tuple[str, str, str, str]:
    """A card's row of the table (``rank`` 0 is the best): the card, E[score] ± 95% for the
    user, the gap to the best card ± 95% on the same deals, P(make) with its Wilson interval."""
    score, make, gap = estimate.expected_score, estimate.p_make, estimate.versus_best
    versus = "best".center(15) if rank == 0 else f"{gap.mean:+7.1f} ± {Z95 * gap.se:5.1f}"
    return (
        format_card(estimate.card),
        f"{score.mean:+9.1f} ± {Z95 * score.se:5.1f}",
        versus,
        proportion(make.mean, make.n),
    )


@command()
@click.argument("source", metavar="FILE|-")
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help="Deals of the unseen cards (the same ones for every card).",
)
@seed_option()
@jobs_option()
@json_option()
@timings_option()
def main(source: str, samples: int, seed: int, jobs: int, as_json: bool, timings: bool) -> None:
    """What to play now: every legal card, its expected score for you and P(make), ranked."""
    check_timings(as_json, timings)
    text = read_source(source)
    advice, seconds = run_play(text, samples=samples, seed=seed, jobs=jobs, announce=True)
    if as_json:
        click.echo(json_document(advice.to_dict(), timings, seconds))
    else:
        click.echo(table(advice, seconds))


def run_play(
    text: str, *, samples: int, seed: int, jobs: int, announce: bool = False
) -> tuple[CardAdvice, float]:
    """What ``tarot-play`` computes from the text of one partial record: the advice (its
    ``to_dict()`` is the ``--json`` document) and the seconds it took; with ``announce``, a
    first run says on a terminal that it compiles the engine (:func:`.progress.say_compiling`).
    Bad input raises :class:`.errors.InputError` with the command's sentence."""
    # No time limit: a week of samples would need terabytes, which the memory check refuses.
    check_memory("--samples", samples, BYTES_PER_SAMPLE, "sample")
    try:
        (data,) = load_records(text)
    except RecordSyntaxError as error:
        fail(str(error))
    except ValueError:
        fail("give one partial record, not several")
    try:
        position = read_position(data)
    except PositionError as error:
        fail(str(error))
    if position.to_play != position.seat:
        fail(f"it is seat {position.to_play}'s turn to play, not seat {position.seat}'s (yours)")
    if announce:
        say_compiling(position.record.players)
    start = time.perf_counter()
    advice = advise_play(position, samples=samples, seed=seed, jobs=jobs)
    return advice, time.perf_counter() - start


run = console_script(main)
"""The console script: :func:`main`, then the process ends at once (:func:`console_script`)."""
