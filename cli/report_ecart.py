"""``tarot-report ecart-ideas``: the named écart ideas against the engine's écart."""

from __future__ import annotations

import click

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.cli.errors import fail
from tarot_advisor.cli.limits import check_time
from tarot_advisor.cli.options import (
    check_timings,
    command,
    jobs_option,
    json_document,
    json_option,
    players_option,
    quiet_option,
    timings_option,
)
from tarot_advisor.cli.progress import progress
from tarot_advisor.reports.ecart_ideas import MIN_HANDS, IdeasError, check_ideas
from tarot_advisor.reports.formatting import counted


@command("ecart-ideas")
@players_option()
@click.option(
    "--contract",
    type=click.Choice(["prise", "garde"]),
    default="garde",
    show_default=True,
    help="The contract every écart is played under.",
)
@click.option(
    "--hands", type=click.IntRange(min=2), default=60, show_default=True, help="Random hands."
)
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    default=300,
    show_default=True,
    help="Deals of the other hands per hand, every écart played on the same ones.",
)
@click.option(
    "--min-points",
    type=click.IntRange(min=0),
    default=40,
    show_default=True,
    help="The least point count (the barème) of a hand studied.",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=2026, show_default=True, help="Random seed."
)
@jobs_option()
@json_option()
@timings_option()
@quiet_option()
def ecart_ideas(
    players: str,
    contract: str,
    hands: int,
    samples: int,
    min_points: int,
    seed: int,
    jobs: int,
    as_json: bool,
    timings: bool,
    show_progress: bool | None,
) -> None:
    """Whether the écart advice beats the engine's écart again and again: every named idea's
    gain over it (as tarot-advise --chien finds it), averaged over random hands.

    An idea found on fewer than 5 hands is not judged; a study too small to judge any says so
    and exits 0 with no table (as thresholds and pointcount do)."""
    check_timings(as_json, timings)
    check_time("--hands", hands, "écart hand-sample", jobs, samples)
    with progress(
        hands, "écart ideas", show=show_progress, unit="hands", players=int(players)
    ) as bar:
        try:
            result = check_ideas(
                int(players),
                contract=Contract(contract),
                hands=hands,
                samples=samples,
                min_points=min_points,
                seed=seed,
                jobs=jobs,
                on_done=bar,
            )
        except IdeasError as error:
            fail(str(error))
    if as_json:
        click.echo(json_document(result.to_dict(), timings, result.seconds))
        return
    click.echo(
        "Écart ideas against the engine's écart: "
        f"{counted(result.hands, f'random {result.players}-player hand')} "
        f"of at least {result.min_points} points, {result.contract.label}, "
        f"{result.samples:,} samples each, the greedy at every seat, seed {result.seed} "
        f"({result.seconds:.1f} s)"
    )
    if not result.judged:
        click.echo(
            f"Too few hands to judge any idea: each needs at least {MIN_HANDS} hands where it "
            "exists: study more hands (--hands), or weaker ones (--min-points); no table is "
            "written."
        )
        return
    click.echo(f"{'Idea':<40} {'gain ± 1 SE':>16} {'hands':>6} {'better':>7}")
    for idea in result.judged:
        click.echo(
            f"{idea.idea:<40} {idea.gain.mean:+8.1f} ± {idea.gain.se:5.1f} {idea.hands:>6} "
            f"{idea.better:>7.0%}"
        )
    click.echo(
        "gain: the idea's E[score] minus the engine's écart's on each hand (paired on its "
        "samples), averaged over the hands where the idea exists, ± 1 SE across them; better: "
        "the share of those hands where it scored higher."
    )
    if result.too_few:
        names = ", ".join(f"{idea.idea} ({idea.hands})" for idea in result.too_few)
        click.echo(f"Found on fewer than {MIN_HANDS} hands, not judged: {names}.")
