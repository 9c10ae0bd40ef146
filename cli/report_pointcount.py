"""``tarot-report pointcount``: a point count players can add up at the table, calibrated by
simulation (issue 12).

It runs a thresholds study in ``OUT/study`` (``--resume`` finishes or reuses it, as in
``tarot-report thresholds``; ``--backend dask`` runs it on Dask) or reads a finished one given
with ``--study``, then fits and writes the report. Registered on the ``tarot-report`` group by
:mod:`tarot_advisor.cli.report`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from tarot_advisor.analyzer.studies.study import StudyError, StudyParameters
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
from tarot_advisor.reports.pointcount import (
    PointCountError,
    Study,
    fit_study,
    read_study,
    too_small,
    write_report,
)
from tarot_advisor.reports.pointcount_fit import METHOD_LABELS
from tarot_advisor.reports.thresholds_folder import (
    HANDS_FILE,
    StudyFolderError,
    assemble,
    missing_chunks,
    read_run,
    run_study,
)


def _finished(folder: Path, parameters: StudyParameters) -> bool:
    """Whether ``folder`` holds this study finished (its hands.csv written): then it is read as
    it is, even if the analyser's code has changed since (nothing would be mixed)."""
    try:
        run = read_run(folder)
    except StudyFolderError:
        return False  # then resuming says what is wrong with it
    if run is None:
        return False
    wanted = parameters.to_dict()
    return (folder / HANDS_FILE).exists() and all(run.get(k) == v for k, v in wanted.items())


STUDY_RUN_OPTIONS = (
    "hands", "samples", "seed", "jobs", "resume", "backend", "scheduler", "chunk_hands", "taker",
    "defence",
)  # fmt: skip
"""The options that run a study, which a study given with --study cannot take."""


@command()
@players_option()
@hands_option(2_000, "Random hands of the study.")
@hand_samples_option(100)
@seed_option()
@jobs_option(
    "With --backend dask and no --scheduler, the local cluster's workers; a remote cluster "
    "uses all its own."
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for the study, the fitted table, card.png and report.html.",
)
@click.option("--resume", is_flag=True, help="Finish (or reuse) the study already in OUT/study.")
@click.option(
    "--study",
    "study_folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Fit on this finished thresholds study instead of running one (its hands, "
    "samples, seed and play are its own).",
)
@backend_option()
@scheduler_option()
@chunk_hands_option()
@play_options()
@quiet_option()
def pointcount(
    players: str,
    hands: int,
    samples: int,
    seed: int,
    jobs: int,
    out: Path,
    resume: bool,
    study_folder: Path | None,
    backend: str,
    scheduler: str | None,
    chunk_hands: int | None,
    taker: str,
    defence: str,
    show_progress: bool | None,
) -> None:
    """A point count players can add up at the table: new lines for the seed's count, new whole
    points per item, both fitted on training hands and judged on held-out hands.

    The study's cards are played by the lookahead at every seat unless --taker and --defence
    say otherwise, as the advice assumes (the shipped tables are fitted so).

    A study too small to fit on (fewer than 50 hands, or 5 worth a bid) says so and exits 0,
    the study kept but no table, card or report written (as thresholds and ecart-ideas do)."""
    if scheduler is not None and backend != "dask":
        fail("--scheduler goes with --backend dask")
    if scheduler is not None:
        refuse_unused({"jobs": "--jobs"}, "with --scheduler (the cluster has its own workers)")
    if study_folder is not None:
        refuse_unused(
            {n: f"--{n.replace('_', '-')}" for n in STUDY_RUN_OPTIONS},
            "with --study (the study given was run already, with its own)",
        )
        refuse_unused(
            {"show_progress": "--progress" if show_progress else "--quiet"},
            "with --study (no study is run, so there is no progress bar)",
        )
    # A given study is read, and the output folder made, before any work.
    study = None if study_folder is None else _read(study_folder, int(players))
    if backend == "dask" and study is None:
        import_distributed()  # a missing extra is said before the folder is made
    if study is None:
        try:
            parameters = StudyParameters(
                int(players), hands, samples, seed, chunk_hands, taker=taker, defence=defence
            )
        except StudyError as error:
            fail(str(error))
        check_study_size(hands, samples, jobs, scheduler, parameters.sides)
    prepare_output_folder("--out", out)
    if study is None:
        check_study_disk(out, hands)
        folder = out / "study"
        if resume and _finished(folder, parameters):
            click.echo(_study_line(folder, 0, 0.0, parameters.n_chunks), err=True)
        else:
            _run(folder, parameters, resume, jobs, backend, scheduler, show_progress)
        study = _read(folder, int(players))
    sentence = too_small(study)
    if sentence is not None:
        click.echo(sentence)
        return
    try:
        result = fit_study(study)
        write_report(out, study, result)
    except (PointCountError, StudyError) as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write into {out}: {error.strerror or error}")
    click.echo(
        f"Report: {out / 'report.html'} (card.png, the fitted table and held_out.csv beside it)"
    )
    p = study.parameters
    click.echo(
        f"Held out ({counted(p.hands, 'hand')} × {counted(p.samples, 'sample')}, {players} "
        f"players, played by {play_text(p.sides)}):"
    )
    for row in result.held_out.itertuples():
        click.echo(
            f"  {METHOD_LABELS[row.method]:<28} agreement {100 * row.agreement:5.1f} %   "
            f"regret {row.regret:6.2f} ± {row.regret_se:.2f} per hand"
        )


def _read(folder: Path, players: int) -> Study:
    """The finished study in ``folder``, of ``players`` players; else one sentence, exit 2."""
    try:
        study = read_study(folder)
    except (PointCountError, StudyError) as error:
        fail(str(error))
    if study.parameters.players != players:
        fail(f"the study in {folder} is of {study.parameters.players} players, not {players}")
    return study


def _run(
    folder: Path,
    parameters: StudyParameters,
    resume: bool,
    jobs: int,
    backend: str,
    scheduler: str | None,
    show_progress: bool | None,
) -> None:
    """Run (or finish) the thresholds study into ``folder``, then put its hands.csv together."""
    # A finished study's chunks need no cluster.
    cluster = backend == "dask" and bool(missing_chunks(folder, parameters))
    client = dask_client(scheduler, jobs) if cluster else contextlib.nullcontext()
    done = 0
    here = None if scheduler else parameters.players  # a cluster compiles on its own machines
    try:
        with (
            client,
            progress(
                parameters.hands, "analysing", show=show_progress, unit="hands", players=here
            ) as bar,
        ):

            def on_chunk(count: int) -> None:
                nonlocal done
                done = count
                bar(count)

            outcome = run_study(
                folder, parameters, resume=resume, jobs=jobs, backend=backend, on_chunk=on_chunk
            )
        assemble(folder, parameters)
    except StudyFolderError as error:
        fail(str(error))
    except KeyboardInterrupt:
        interrupted(folder, done, parameters.hands)
    except worker_errors() as error:
        stopped(folder, done, parameters.hands, f"a worker died ({type(error).__name__})")
    except OSError as error:
        stopped(folder, done, parameters.hands, f"cannot write into {folder}: {error.strerror}")
    # Nothing computed is said even with --quiet: the run's options did not act.
    if not outcome.computed or show_progress is not False:
        click.echo(_study_line(folder, outcome.computed, outcome.seconds, outcome.kept), err=True)


def _study_line(folder: Path, computed: int, seconds: float, kept: int) -> str:
    """What the study run did, as ``tarot-report thresholds`` says it; when it computed
    nothing, that the study was complete (so --jobs, --backend… had nothing to act on)."""
    resumed = f", {kept} resumed" if kept else ""
    if computed:
        return f"Study: {computed} chunk(s) computed in {seconds:.1f} s{resumed}"
    return f"Study: 0 chunk(s) computed{resumed}: the study in {folder} is complete"
