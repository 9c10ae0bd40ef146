"""``tarot-report duel``: a duplicate match between two card-play policies.

Registered on the ``tarot-report`` group by :mod:`tarot_advisor.cli.report`. The options are
declared here rather than shared with that module, which imports this one.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.policies import POLICIES
from tarot_advisor.analyzer.stats import Estimate
from tarot_advisor.cli.errors import fail
from tarot_advisor.cli.options import (
    jobs_option,
    json_option,
    players_option,
    quiet_option,
    seed_option,
)
from tarot_advisor.cli.progress import progress
from tarot_advisor.reports.duel import (
    DuelError,
    DuelResult,
    run_duel,
)

CLEAR_Z = 2.0
"""Below this many standard errors a difference is reported as not clear."""


def _contract(_ctx: click.Context, _param: click.Parameter, value: str) -> Contract:
    try:
        return Contract.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _policy_option(flag: str, role: str):
    return click.option(
        flag,
        type=click.Choice(list(POLICIES)),
        required=True,
        help=f"Policy {role}: {', '.join(POLICIES)}.",
    )


def _verdict(role: str, gain: Estimate, a: str, b: str) -> str:
    """One clause: which policy does better in ``role``, and by how many standard errors."""
    z = gain.z
    if abs(z) < CLEAR_Z:
        return f"{role} neither is clearly better ({abs(z):.1f} SE)"
    better, worse = (a, b) if z > 0 else (b, a)
    return f"{role} {better} beats {worse} by {abs(gain.mean):.1f} points a deal ({abs(z):.1f} SE)"


def format_duel(result: DuelResult) -> str:
    """The human output: the settings, a two-line table with 95 % intervals, the verdict."""
    a, b = result.a, result.b
    lines = [
        f"Duel: {a} (A) against {b} (B), {result.players} players, {result.contract.label}, "
        f"{result.deals:,} deals, seed {result.seed} ({result.seconds:.1f} s)",
        "Taker's score, A's side minus B's, per deal (± 1.96 SE):",
    ]
    for name, gain, how in (
        ("taker gain", result.taker_gain, f"{a} takes vs {b} takes, {b} defends"),
        ("defence gain", result.defence_gain, f"{a} defends vs {b} defends, {b} takes"),
    ):
        lines.append(f"  {name:<13}{gain.mean:+9.1f} ± {1.96 * gain.se:<7.1f} {how}")
    taker = _verdict("As taker", result.taker_gain, a, b)
    defence = _verdict("in defence", result.defence_gain, a, b)
    lines.append(f"{taker}; {defence}.")
    return "\n".join(lines)


@click.command()
@_policy_option("--a", "A, the one measured")
@_policy_option("--b", "B, the reference")
@players_option()
@click.option(
    "--contract",
    default="garde",
    show_default=True,
    callback=_contract,
    help="prise, garde, garde_sans or garde_contre.",
)
@click.option(
    "--deals",
    "n_deals",
    type=click.IntRange(min=2),
    default=4000,
    show_default=True,
    help="Number of deals, each played three times (four with --taker or --defence).",
)
@click.option(
    "--taker",
    "fixed_taker",
    type=click.Choice(list(POLICIES)),
    default=None,
    help="The taker against whom the two defences are compared (default: B).",
)
@click.option(
    "--defence",
    "fixed_defence",
    type=click.Choice(list(POLICIES)),
    default=None,
    help="The defence against which the two takers are compared (default: B).",
)
@seed_option()
@jobs_option()
@json_option()
@click.option(
    "--dump-deals",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every playout as a deal record, one JSON per line, its outcome under result.",
)
@quiet_option()
def duel(
    a: str,
    b: str,
    players: str,
    contract: Contract,
    n_deals: int,
    fixed_taker: str | None,
    fixed_defence: str | None,
    seed: int,
    jobs: int,
    as_json: bool,
    dump_deals: Path | None,
    quiet: bool,
) -> None:
    """A duplicate match: policy A against policy B on the same deals, as taker and in
    defence (the taker: the seat with the highest point count)."""
    # Open the dump first, so that a bad path fails before the match rather than after it.
    try:
        out = dump_deals.open("w", encoding="utf-8") if dump_deals is not None else None
    except OSError as error:
        fail(f"cannot write the deals to {dump_deals}: {error.strerror}")
    try:
        with progress(n_deals, "duel", quiet=quiet) as bar:
            result = run_duel(
                a,
                b,
                players=int(players),
                contract=contract,
                deals=n_deals,
                seed=seed,
                jobs=jobs,
                keep_records=out is not None,
                on_done=bar,
                taker=fixed_taker,
                defence=fixed_defence,
            )
    except DuelError as error:
        fail(str(error))
    if out is not None:
        with out:
            out.write(result.dumped or "")
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    click.echo(format_duel(result))
    if dump_deals is not None:
        per_deal = 4 if fixed_taker or fixed_defence else 3
        click.echo(f"{per_deal * result.deals:,} playouts written to {dump_deals}")
