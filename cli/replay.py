"""``tarot-replay FILE|-``: check played deals against the FFT rules and score them.

Reads one deal record (JSON) or several (JSON Lines) from a file or stdin. Exit code 0 when
every record is legal, 1 when any is not (all are still reported), 2 when the input cannot be
read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from tarot_advisor.analyzer.cards import format_card
from tarot_advisor.analyzer.game import POIGNEE_BONUSES, POIGNEE_NAMES, Contract, Side
from tarot_advisor.analyzer.rulebook.outcome import Outcome
from tarot_advisor.analyzer.rulebook.record import (
    RecordError,
    RecordSyntaxError,
    decode,
    load_records,
    replay,
)
from tarot_advisor.analyzer.rulebook.rules import IllegalPlay, RuleError
from tarot_advisor.cli.errors import INPUT_ERROR, console_script, fail
from tarot_advisor.cli.options import command, quiet_option
from tarot_advisor.cli.progress import progress


def read_source(source: str) -> str:
    """The text of ``source`` (a path, or ``-`` for stdin); exits with code 2 if unreadable.

    UTF-8 or UTF-16, as :func:`~tarot_advisor.analyzer.rulebook.record.decode` reads them.
    """
    name = "stdin" if source == "-" else source
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except FileNotFoundError:
        fail(f"no such file: {source}")
    except IsADirectoryError:
        fail(f"{source} is a directory, not a deal record file")
    except PermissionError:
        fail(f"cannot read {source}: permission denied")
    except OSError as error:
        fail(f"cannot read {source}: {error.strerror}")
    try:
        return decode(data)
    except UnicodeDecodeError as error:
        fail(f"{name} is not UTF-8 text (byte {error.start + 1} cannot be read)")


def error_dict(error: Exception) -> dict:
    """The ``--json`` object of a record that does not replay: ``well_formed`` is false for
    input that is not a deal record (exit 2), true for a record breaking a rule (exit 1)."""
    data: dict = {"valid": False, "well_formed": isinstance(error, RuleError), "error": str(error)}
    if isinstance(error, IllegalPlay):
        data |= {
            "trick": error.trick,
            "seat": error.seat,
            "card": format_card(error.card),
            "rule": error.rule,
        }
    return data


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def score_formula(outcome: Outcome) -> str:
    """S written out as rules.md §8 computes it, e.g. ``(25 + 1) × 2 + 10 × 2 = 72``."""
    base = f"(25 + {abs(outcome.difference)}) × {outcome.multiplier}"
    terms = [base if outcome.made else f"-{base}"]
    if outcome.petit_au_bout is not None:
        sign = "+" if outcome.petit_au_bout == Side.TAKER else "-"
        terms.append(f"{sign} 10 × {outcome.multiplier}")
    if outcome.poignee_bonus:
        terms.append(f"{'+' if outcome.made else '-'} {outcome.poignee_bonus}")
    if outcome.chelem_bonus:
        terms.append(f"{'+' if outcome.chelem_bonus > 0 else '-'} {abs(outcome.chelem_bonus)}")
    return f"{' '.join(terms)} = {outcome.per_defender}"


def _points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def summary(number: int, outcome: Outcome) -> str:
    """The score sheet of one deal, as a player would check it."""
    contract = Contract(outcome.contract)
    lines = [
        f"Deal {number}: {contract.label} (x{outcome.multiplier}), {outcome.players} players "
        f"(seats 0–{outcome.players - 1}, as in the record)"
    ]
    taker = f"seat {outcome.taker}"
    if outcome.called is not None:
        called = format_card(outcome.called)
        if outcome.partner is None:
            taker += f" alone (called {called}: in the chien or the taker's own hand)"
        else:
            taker += f", partner seat {outcome.partner} (called {called})"
    lines.append(f"  Taker:         {taker}")
    result = "made" if outcome.made else "lost"
    half = ""
    if not float(outcome.taker_points).is_integer():
        half = f" (the half point goes to the {'taker' if outcome.made else 'defence'})"
    lines.append(
        f"  Points:        {_points(outcome.taker_points)} with {outcome.bouts} bout"
        f"{'s' * (outcome.bouts != 1)}, needed {outcome.needed}:"
        f" {result} by {abs(outcome.difference)}{half}"
    )
    petit = outcome.petit_au_bout
    lines.append(f"  Petit au bout: {'no' if petit is None else petit.label}")
    shown = ", ".join(
        f"seat {seat} {POIGNEE_NAMES[POIGNEE_BONUSES.index(bonus)]} ({bonus})"
        for seat, bonus in outcome.poignees
    )
    lines.append(f"  Poignées:      {shown or 'none'}")
    chelem = "none" if outcome.chelem is None else outcome.chelem.label
    if outcome.chelem_announced:
        chelem += " (announced by the taker)"
    lines.append(f"  Chelem:        {chelem}")
    lines.append(f"  Per defender:  S = {score_formula(outcome)}")
    scores = ", ".join(f"seat {seat} {_signed(score)}" for seat, score in enumerate(outcome.scores))
    lines.append(f"  Scores:        {scores}")
    return "\n".join(lines)


@command()
@click.argument("source", metavar="FILE|-")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record, one per line.")
@quiet_option()
def main(source: str, as_json: bool, show_progress: bool | None) -> None:
    """Replay played deals (a JSON deal record, or JSON Lines) under the FFT rules and score them.

    FILE is a path, or - for stdin. Exit code: 0 all legal; 1 a record breaks a rule of play;
    2 input that is not a deal record (unreadable, not JSON, missing or wrongly typed keys).
    The other records are still reported.
    """
    try:
        records = load_records(read_source(source))
    except RecordSyntaxError as error:
        fail(f"{'stdin' if source == '-' else source}: {error}")
    code = 0
    with progress(len(records), "replaying", show=show_progress, unit="records") as bar:
        for number, data in enumerate(records, 1):
            try:
                if isinstance(data, RecordSyntaxError):
                    raise data
                outcome = replay(data)
            except (RecordError, RecordSyntaxError, RuleError) as error:
                code = max(code, 1 if isinstance(error, RuleError) else INPUT_ERROR)
                if as_json:
                    click.echo(json.dumps(error_dict(error), ensure_ascii=False))
                else:
                    kind = "illegal" if isinstance(error, RuleError) else "not a deal record"
                    click.echo(f"Deal {number}: {kind}: {error}")
            else:
                click.echo(outcome.to_json() if as_json else summary(number, outcome))
            bar(number)
    sys.exit(code)


run = console_script(main)
"""The console script: :func:`main`, then the process ends at once (:func:`console_script`)."""
