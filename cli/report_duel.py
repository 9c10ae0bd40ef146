"""``tarot-report duel``: a duplicate match between two card-play policies.

Registered on the ``tarot-report`` group by :mod:`tarot_advisor.cli.report`. The options are
declared here rather than shared with that module, which imports this one.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.playout.ecart import ECARTS
from tarot_advisor.analyzer.policies import POLICIES
from tarot_advisor.analyzer.stats import Estimate
from tarot_advisor.cli.errors import fail
from tarot_advisor.cli.limits import check_disk, check_memory, check_output_file, check_time
from tarot_advisor.cli.options import (
    Decorator,
    command,
    jobs_option,
    json_option,
    players_option,
    quiet_option,
    refuse_unused,
    seed_option,
)
from tarot_advisor.cli.progress import progress
from tarot_advisor.reports.duel import (
    DuelError,
    DuelResult,
    run_duel,
)
from tarot_advisor.reports.files import write_text

CLEAR_Z = 2.0
"""Below this many standard errors a difference is reported as not clear."""
RECORDS_MEMORY_PER_DEAL = 60_000
"""Bytes of memory a deal's records take until written: four playouts at about 15 kB."""
RECORDS_DISK_PER_DEAL = 5_000
"""Bytes of disk a deal's records take: four playouts at about 1.2 kB."""


def _policy_options(flag: str, old: str, role: str) -> Decorator:
    """``flag`` (the documented name) and ``old`` (the name it had, kept working but hidden)."""
    choice = click.Choice(list(POLICIES))

    def decorate(function):
        function = click.option(old, f"{old[2:]}_alias", type=choice, hidden=True)(function)
        return click.option(flag, type=choice, default=None, help=role)(function)

    return decorate


def _either(new: str | None, old: str | None, flag: str) -> str:
    if new is not None and old is not None and new != old:
        fail(f"{flag} is given twice, as {new} and {old}")
    if new is None and old is None:
        fail(f"Missing option '{flag}': the card-play policy ({', '.join(POLICIES)})")
    return new or old  # type: ignore[return-value]


def _ecart_option(flag: str, name: str, who: str) -> Decorator:
    return click.option(
        flag,
        name,
        type=click.Choice(list(ECARTS)),
        default="greedy",
        show_default=True,
        help=f"The écart when {who} takes (Prise, Garde): {', '.join(ECARTS)} (the engine's "
        "before it sought voids).",
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
    named_a, named_b = a, b  # the écarts are named when they differ
    if result.ecart_a != result.ecart_b:
        named_a, named_b = f"{a} with écart {result.ecart_a}", f"{b} with écart {result.ecart_b}"
    lines = [
        f"Duel: {named_a} (A) against {named_b} (B), {result.players} players, "
        f"{result.contract.label}, {result.deals:,} deals, seed {result.seed} "
        f"({result.seconds:.1f} s)",
        "Taker's score, A's side minus B's, per deal (± 1.96 SE):",
    ]
    for name, gain, how in (
        ("taker gain", result.taker_gain, f"{a} takes vs {b} takes, {b} defends"),
        ("defence gain", result.defence_gain, f"{a} defends vs {b} defends, {b} takes"),
    ):
        lines.append(f"  {name:<13}{gain.mean:+9.1f} ± {1.96 * gain.se:<7.1f} {how}")
    taker = _verdict("As taker", result.taker_gain, named_a, named_b)
    defence = _verdict("in defence", result.defence_gain, named_a, named_b)
    lines.append(f"{taker}; {defence}.")
    return "\n".join(lines)


@command()
@_policy_options(
    "--policy", "--a", "The card-play policy measured (A): greedy, simple, random or lookahead."
)
@_policy_options("--against", "--b", "The policy it is measured against (B, the reference).")
@players_option()
@click.option(
    "--contract",
    type=click.Choice([contract.value for contract in Contract]),
    default="garde",
    show_default=True,
    help="The contract every deal is played under.",
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
@_ecart_option("--ecart", "ecart_a", "A")
@_ecart_option("--against-ecart", "ecart_b", "B (or --taker)")
@seed_option()
@jobs_option()
@json_option()
@click.option(
    "--dump-deals",
    type=click.Path(path_type=Path),
    help="Write every playout as a deal record, one JSON per line, its outcome under result "
    "(written whole at the end, or not at all).",
)
@quiet_option()
def duel(
    policy: str | None,
    a_alias: str | None,
    against: str | None,
    b_alias: str | None,
    players: str,
    contract: str,
    n_deals: int,
    fixed_taker: str | None,
    fixed_defence: str | None,
    ecart_a: str,
    ecart_b: str,
    seed: int,
    jobs: int,
    as_json: bool,
    dump_deals: Path | None,
    show_progress: bool | None,
) -> None:
    """A duplicate match: policy A (--policy) against policy B (--against) on the same deals,
    as taker and in defence (the taker: the seat with the highest point count).

    With the same policy on both sides and two écarts (--ecart, --against-ecart), the taker's
    gain is the duel of the écarts alone.

    Example: tarot-report duel --policy lookahead --against greedy --deals 400
    """
    a = _either(policy, a_alias, "--policy")
    b = _either(against, b_alias, "--against")
    if not Contract(contract).takes_chien:
        ecarts = {"ecart_a": "--ecart", "ecart_b": "--against-ecart"}
        refuse_unused(ecarts, f"in a {Contract(contract).label}, where nobody makes an écart")
    for flag, fixed in (("--taker", fixed_taker), ("--defence", fixed_defence)):
        if fixed == b:
            fail(f"{flag} {b} is B (--against), which it is by default: leave it out")
    check_time("--deals", n_deals, "duel deal", jobs)
    if dump_deals is not None:
        check_output_file("--dump-deals", dump_deals)
        check_memory("--deals", n_deals, RECORDS_MEMORY_PER_DEAL, "deal with its records")
        check_disk("--dump-deals", dump_deals, n_deals * RECORDS_DISK_PER_DEAL)
    try:
        with progress(
            n_deals, "playing", show=show_progress, unit="deals", players=int(players)
        ) as bar:
            result = run_duel(
                a,
                b,
                players=int(players),
                contract=Contract(contract),
                deals=n_deals,
                seed=seed,
                jobs=jobs,
                keep_records=dump_deals is not None,
                on_done=bar,
                taker=fixed_taker,
                defence=fixed_defence,
                ecart_a=ecart_a,
                ecart_b=ecart_b,
            )
    except DuelError as error:
        fail(str(error))
    if dump_deals is not None:
        try:
            write_text(dump_deals, result.dumped or "")
        except OSError as error:
            fail(f"could not write the deal records to {dump_deals}: {error.strerror}", 1)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    click.echo(format_duel(result))
    if dump_deals is not None:
        per_deal = 4 if fixed_taker or fixed_defence else 3
        click.echo(f"{per_deal * result.deals:,} playouts written to {dump_deals}")
