"""``tarot-report thresholds``: where the bid thresholds really lie, from many random hands.

Registered on the ``tarot-report`` group by :mod:`tarot_advisor.cli.report`. The options are
declared here rather than shared with that module, which imports this one.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.parallel import workers_for
from tarot_advisor.analyzer.studies.study import (
    MAX_MIN_POINTS,
    StudyError,
    StudyParameters,
)
from tarot_advisor.cli.errors import fail
from tarot_advisor.cli.limits import prepare_output_folder
from tarot_advisor.cli.options import (
    command,
    jobs_option,
    players_option,
    quiet_option,
    refuse_unused,
    seed_option,
)
from tarot_advisor.cli.progress import progress
from tarot_advisor.cli.study_run import (
    backend_option,
    check_study_disk,
    check_study_size,
    chunk_hands_option,
    dask_client,
    hand_samples_option,
    hands_option,
    import_distributed,
    interrupted,
    play_options,
    scheduler_option,
    stopped,
    worker_errors,
)
from tarot_advisor.reports.formatting import counted, play_text
from tarot_advisor.reports.thresholds import unfitted_sentence, write_report
from tarot_advisor.reports.thresholds_folder import (
    StudyFolderError,
    assemble,
    missing_chunks,
    run_study,
)


@command()
@players_option()
@hands_option(1000, "Random hands to analyse.")
@hand_samples_option(200)
@seed_option()
@jobs_option(
    "With --backend dask and no --scheduler, the local cluster's workers; a remote cluster "
    "uses all its own."
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for hands.csv, the chunks, the PNG charts, report.html and summary.json.",
)
@click.option("--resume", is_flag=True, help="Finish (or reuse) the study already in --out.")
@backend_option()
@scheduler_option()
@chunk_hands_option()
@play_options()
@click.option(
    "--min-points",
    type=click.IntRange(min=0, max=MAX_MIN_POINTS),
    default=0,
    show_default=True,
    help="Only hands with at least this many points with distribution, to study the upper "
    "thresholds (strong hands are rare in a uniform draw).",
)
@quiet_option()
def thresholds(
    players: str,
    hands: int,
    samples: int,
    seed: int,
    jobs: int,
    out: Path,
    resume: bool,
    backend: str,
    scheduler: str | None,
    chunk_hands: int | None,
    taker: str,
    defence: str,
    min_points: int,
    show_progress: bool | None,
) -> None:
    """Where the bid thresholds lie: many random hands, each played out on many deals under
    every contract, set against the barème's point count.

    The cards are played by the lookahead at every seat unless --taker and --defence say
    otherwise: the advice's play, so that the thresholds describe the table the advice assumes.

    A study too small to fit a line says so and exits 0: the line is "too few hands" in the
    report, never a number (as pointcount and ecart-ideas write nothing they cannot fit)."""
    if scheduler is not None and backend != "dask":
        fail("--scheduler goes with --backend dask")
    if scheduler is not None:
        refuse_unused({"jobs": "--jobs"}, "with --scheduler (the cluster has its own workers)")
    if backend == "dask":
        import_distributed()  # a missing extra is said before the folder is made
    try:
        parameters = StudyParameters(
            int(players), hands, samples, seed, chunk_hands, min_points, taker, defence
        )
    except StudyError as error:
        fail(str(error))
    check_study_size(hands, samples, jobs, scheduler, parameters.sides)
    prepare_output_folder("--out", out)
    check_study_disk(out, hands)
    # A finished study's chunks need no cluster.
    cluster = backend == "dask" and bool(missing_chunks(out, parameters))
    client = dask_client(scheduler, jobs) if cluster else contextlib.nullcontext()
    done = 0
    here = None if scheduler else int(players)  # a cluster compiles on its own machines
    try:
        with (
            client,
            progress(hands, "analysing", show=show_progress, unit="hands", players=here) as bar,
        ):

            def on_chunk(count: int) -> None:
                nonlocal done
                done = count
                bar(count)

            outcome = run_study(
                out, parameters, resume=resume, jobs=jobs, backend=backend, on_chunk=on_chunk
            )
        frame = assemble(out, parameters)
        summary = write_report(out, frame, parameters)
    except StudyFolderError as error:
        fail(str(error))
    except KeyboardInterrupt:
        interrupted(out, done, hands)
    except worker_errors() as error:
        stopped(out, done, hands, f"a worker died ({type(error).__name__})")
    except OSError as error:
        stopped(out, done, hands, f"cannot write into {out}: {error.strerror or error}")
    click.echo(f"Report: {out / 'report.html'} (hands.csv, charts and summary.json beside it)")
    resumed = f", {outcome.kept} resumed" if outcome.kept else ""
    click.echo(
        f"{counted(hands, 'hand')} × {counted(samples, 'sample')} for {players} players, "
        f"seed {seed}, played by {play_text(parameters.sides)}: "
        f"{outcome.computed} chunk(s) computed in {outcome.seconds:.1f} s{resumed}"
    )
    if outcome.computed == parameters.n_chunks and outcome.seconds > 0:
        on = f"the cluster at {scheduler}" if scheduler else ""
        on = on or counted(workers_for(jobs, outcome.computed), "worker")
        click.echo(f"{hands * samples / outcome.seconds:,.0f} hand-samples/s on {on}")
    fitted = summary["fitted_thresholds"]
    parts = []
    for name, fit in fitted.items():
        label = Contract(name).label
        if fit["value"] is None:
            continue
        if fit["low"] is None:
            parts.append(f"{label} {fit['value']:.1f} points")
        else:
            parts.append(f"{label} {fit['value']:.1f} points [{fit['low']:.1f}, {fit['high']:.1f}]")
    if parts:
        click.echo(f"Fitted thresholds (95% interval): {'; '.join(parts)}")
    sentence = unfitted_sentence(fitted, min_points)
    if sentence is not None:
        click.echo(sentence)
    click.echo(
        f"The barème agrees with the simulation's best bid on {summary['agreement']:.1%} of the "
        f"{counted(hands, 'hand')}"
    )
