"""``tarot-report check-engine``: the engine replayed card by card through the referee."""

from __future__ import annotations

import json

import click

from tarot_advisor.cli.limits import check_time
from tarot_advisor.cli.options import (
    check_timings,
    command,
    jobs_option,
    json_document,
    json_option,
    players_option,
    quiet_option,
    seed_option,
    timings_option,
)
from tarot_advisor.cli.progress import progress
from tarot_advisor.reports.engine_check import check_engine
from tarot_advisor.reports.formatting import counted


@command("check-engine")
@players_option()
@click.option(
    "--deals",
    "n_deals",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Random deals, each played by the engine and replayed by the referee.",
)
@seed_option()
@jobs_option()
@json_option()
@timings_option()
@quiet_option()
def check(
    players: str,
    n_deals: int,
    seed: int,
    jobs: int,
    as_json: bool,
    timings: bool,
    show_progress: bool | None,
) -> None:
    """Play deals through the engine (every contract, greedy and random play, poignées, calls,
    some announced chelems) and replay each through the referee: exit 1 on any disagreement."""
    check_timings(as_json, timings)
    check_time("--deals", n_deals, "checked deal", jobs)
    with progress(
        n_deals, "checking", show=show_progress, unit="deals", players=int(players)
    ) as bar:
        result = check_engine(int(players), n_deals, seed=seed, jobs=jobs, on_done=bar)
    if as_json:
        click.echo(json_document(result.to_dict(), timings, result.seconds))
    else:
        click.echo(
            f"{counted(result.deals, f'{result.players}-player deal')} played by the engine and "
            f"replayed by the referee in {result.seconds:.1f} s (seed {result.seed}): "
            + (
                "every card legal, every outcome equal."
                if result.ok
                else f"{result.mismatches} disagreements."
            )
        )
        for example in result.examples:
            click.echo(
                f"  {example['reason']}: {json.dumps(example['record'], ensure_ascii=False)}"
            )
    if not result.ok:
        raise SystemExit(1)
