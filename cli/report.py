"""``tarot-report``: batch studies written as report folders, and the speed benchmark.

Subcommands are click commands registered on the :data:`main` group; a study in its own module
(``cli/report_<name>.py``) registers itself with ``main.add_command(<command>)`` imported at the
end of this module.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from tarot_advisor.analyzer.parallel import workers_for
from tarot_advisor.cli.errors import Group, fail
from tarot_advisor.cli.limits import check_time, prepare_output_folder
from tarot_advisor.cli.options import (
    HELP_OPTIONS,
    command,
    jobs_option,
    json_option,
    players_option,
    quiet_option,
    refuse_unused,
    seed_option,
    version_option,
)
from tarot_advisor.cli.progress import progress
from tarot_advisor.reports.bench import (
    DEFAULT_HANDS,
    DEFAULT_PLAYOUTS,
    DEFAULT_SEARCHED_DEALS,
    EVERY_CORE,
    HAND_MIN_POINTS,
    MEASUREMENTS,
    players_played,
    run_benchmarks,
)
from tarot_advisor.reports.deals import (
    CHUNK_SIZE,
    largest_z,
    run_deal_study,
    statistics,
    write_deal_report,
)
from tarot_advisor.reports.formatting import counted


@click.group(cls=Group, context_settings=HELP_OPTIONS)
@version_option()
def main() -> None:
    """Batch studies of French Tarot deals, written as report folders."""


@command()
@players_option()
@click.option(
    "--deals",
    "n_deals",
    type=click.IntRange(min=1),
    default=1_000_000,
    show_default=True,
    help="Number of random deals.",
)
@seed_option()
@jobs_option(f"The deals go in chunks of {CHUNK_SIZE:,}.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for report.html, the PNG charts, the CSV tables and summary.json.",
)
@quiet_option()
def deals(
    players: str, n_deals: int, seed: int, jobs: int, out: Path, show_progress: bool | None
) -> None:
    """What random deals look like: trumps, bouts, kings, suits, poignées, petit sec and the
    point count, each beside its exact probability."""
    check_time("--deals", n_deals, "deal", jobs)
    prepare_output_folder("--out", out)
    with progress(n_deals, "dealing", show=show_progress, unit="deals") as bar:
        study = run_deal_study(int(players), n_deals, seed=seed, jobs=jobs, on_done=bar)
    stats = statistics(study)
    try:
        write_deal_report(study, out, stats)
    except OSError as error:
        fail(f"cannot write the report into {out}: {error.strerror}")
    click.echo(f"Report: {out / 'report.html'} (charts, CSV tables and summary.json beside it)")
    workers = counted(workers_for(jobs, -(-study.deals // CHUNK_SIZE)), "worker")
    click.echo(
        f"{counted(study.deals, 'deal')} for {study.players} players in {study.seconds:.2f} s "
        f"({study.deals_per_second:,.0f} deals/s on {workers}), seed {seed}"
    )
    worst = largest_z(stats)
    if worst is not None:
        name, z = worst
        figures = int(stats["z"].notna().sum())
        click.echo(f"Largest |z| against the exact laws: {abs(z):.2f} ({name}), over {figures}")


def _figure(name: str, value: object) -> str:
    if value is None:
        return "—"
    if "seconds_" in name or name.endswith("_seconds"):
        return f"{value:.2f} s"
    return f"{value:,.0f}" if isinstance(value, float) else str(value)


@command()
@json_option()
@click.option(
    "--deals",
    "n_deals",
    type=click.IntRange(min=1),
    default=2_000_000,
    show_default=True,
    help="Deals dealt per dealer measurement.",
)
@click.option(
    "--playouts",
    type=click.IntRange(min=1),
    default=DEFAULT_PLAYOUTS,
    show_default=True,
    help="Greedy Garde playouts per playout measurement.",
)
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    default=DEFAULT_HANDS,
    show_default=True,
    help=f"Random hands (point count {HAND_MIN_POINTS} or more) per advise_seconds_random "
    "measurement, each timed as one tarot-advise run: the figure is their median.",
)
@click.option(
    "--searched-deals",
    type=click.IntRange(min=1),
    default=DEFAULT_SEARCHED_DEALS,
    show_default=True,
    help="Four-player Garde deals whose defence the lookahead plays, on one core, in the "
    "lookahead_decisions_per_cpu_second measurement.",
)
@click.option(
    "--only",
    type=click.Choice(list(MEASUREMENTS)),
    multiple=True,
    help="Take only this measurement (repeat the option for several).",
)
@jobs_option("Workers of the every-core measurements (0 = every core).", default=0)
@quiet_option()
def bench(
    as_json: bool,
    n_deals: int,
    playouts: int,
    hands: int,
    searched_deals: int,
    only: tuple[str, ...],
    jobs: int,
    show_progress: bool | None,
) -> None:
    """Speed on this machine, every core and one core: deals dealt, greedy Garde playouts
    (deal, écart, play, score) per second, the wall time of tarot-advise runs (the README's
    hand, and the median over random hands for 3, 4 and 5 players), and the lookahead's
    decisions per CPU-second in a 4-player defence."""
    names = only or tuple(MEASUREMENTS)
    for prefix, name, flag in (
        ("deals", "n_deals", "--deals"),
        ("playouts", "playouts", "--playouts"),
        ("advise_seconds_random", "hands", "--hands"),
        ("lookahead", "searched_deals", "--searched-deals"),
    ):
        if not any(measured.startswith(prefix) for measured in names):
            refuse_unused({name: flag}, f"without a {prefix} measurement in --only")
    if not set(names) & EVERY_CORE:
        refuse_unused({"jobs": "--jobs"}, f"without {' or '.join(sorted(EVERY_CORE))} in --only")
    check_time("--deals", n_deals, "deal", jobs)
    check_time("--playouts", playouts, "playout", jobs)
    timed = sum(name.startswith("advise_seconds_random") for name in names)
    check_time("--hands", hands, "timed advice", units_each=max(1, timed))  # one run at a time
    check_time("--searched-deals", searched_deals, "searched deal")  # on one core
    measured = iter(range(1, len(names) + 1))
    played = players_played(names)
    unit = "measurements"
    with progress(len(names), "measuring", show=show_progress, unit=unit, players=played) as bar:
        results = run_benchmarks(
            n_deals,
            jobs,
            playouts=playouts,
            hands=hands,
            searched_deals=searched_deals,
            only=only or None,
            on_measured=lambda _name: bar(next(measured)),
        )
    if as_json:
        click.echo(json.dumps(results))
        return
    notes = results.pop("notes")
    for name, value in results.items():
        note = f"  ({notes[name]})" if name in notes else ""
        click.echo(f"{name:>34}  {_figure(name, value)}{note}")


main.add_command(deals)
main.add_command(bench)
# Studies in their own modules register here, once the group and its options exist.
from tarot_advisor.cli.report_duel import duel  # noqa: E402

main.add_command(duel)
from tarot_advisor.cli.report_thresholds import thresholds  # noqa: E402

main.add_command(thresholds)
from tarot_advisor.cli.report_check import check  # noqa: E402

main.add_command(check)
from tarot_advisor.cli.report_pointcount import pointcount  # noqa: E402

main.add_command(pointcount)
from tarot_advisor.cli.report_ecart import ecart_ideas  # noqa: E402

main.add_command(ecart_ideas)
