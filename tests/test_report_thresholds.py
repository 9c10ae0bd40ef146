"""``tarot-report thresholds``: the files, resuming without loss, workers and Dask, the fit."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import one_error_line
from click.testing import CliRunner

from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.studies.study import StudyParameters, columns
from tarot_advisor.cli.report import main
from tarot_advisor.reports import files
from tarot_advisor.reports.thresholds_fit import fit_thresholds, last_upward_crossing
from tarot_advisor.reports.thresholds_folder import (
    StudyFolderError,
    assemble,
    chunk_path,
    run_study,
)

GREEDY = {"taker": "greedy", "defence": "greedy"}
"""The greedy at every seat: these tests are about the study's files, which any play shows."""
SMALL = ["--players", "4", "--hands", "24", "--samples", "50", "--seed", "11"]
SMALL += ["--taker", "greedy", "--defence", "greedy"]
SMALL_PARAMETERS = StudyParameters(4, hands=24, samples=50, seed=11, chunk_hands=8, **GREEDY)


def _run_cli(out: Path, *extra: str):
    arguments = ["thresholds", *SMALL, "--chunk-hands", "8", "--jobs", "1", "--quiet"]
    return CliRunner().invoke(main, [*arguments, "--out", str(out), *extra])


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def small_study(tmp_path_factory) -> Path:
    """A finished 24-hand study, 50 samples a hand, chunks of 8 hands, run by the command."""
    out = tmp_path_factory.mktemp("thresholds") / "study"
    result = _run_cli(out)
    assert result.exit_code == 0, result.output
    return out


def test_a_small_study_writes_every_file_with_the_required_keys(small_study):
    for name in ("hands.csv", "summary.json", "report.html", "run.json"):
        assert (small_study / name).is_file()
    for stem in ("p_make", "expected_score", "best_share", "confusion", "poignee"):
        assert (small_study / f"{stem}.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in (small_study / "chunks").iterdir()) == [
        "00000.csv",
        "00001.csv",
        "00002.csv",
    ]
    hands = pd.read_csv(small_study / "hands.csv")
    assert list(hands.columns) == columns(4)
    assert hands["hand_id"].tolist() == list(range(24))
    assert set(hands["best_contract"]) <= set(BIDS)
    assert hands.filter(like="p_make_").stack().between(0, 1).all()

    summary = json.loads((small_study / "summary.json").read_text())
    keys = ("players", "hands", "samples", "seed", "taker", "defence")
    assert {k: summary[k] for k in keys} == {
        "players": 4,
        "hands": 24,
        "samples": 50,
        "seed": 11,
        "taker": "greedy",
        "defence": "greedy",
    }
    assert summary["seconds"] > 0
    agreement = (hands["heuristic_bid"] == hands["best_contract"]).mean()
    assert summary["agreement"] == pytest.approx(agreement)
    assert summary["heuristic_thresholds"] == {
        "prise": 40,
        "garde": 56,
        "garde_sans": 71,
        "garde_contre": 81,
    }
    for fit in summary["fitted_thresholds"].values():
        assert set(fit) == {"value", "low", "high"}

    html = (small_study / "report.html").read_text(encoding="utf-8")
    assert "the cards played by the greedy at every seat" in html
    assert html.count("data:image/png;base64,") == 5
    assert html.count("<figcaption>") == 5


def test_resuming_a_finished_study_recomputes_nothing_and_changes_nothing(small_study):
    before = _files(small_study)
    result = _run_cli(small_study, "--resume")
    assert result.exit_code == 0, result.output
    assert "0 chunk(s) computed" in result.output
    assert _files(small_study) == before


def test_resuming_after_losing_a_chunk_recomputes_only_it(small_study, tmp_path):
    out = tmp_path / "copy"
    for name, data in _files(small_study).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    chunk_path(out, 1).unlink()
    kept = {k: chunk_path(out, k).stat().st_mtime_ns for k in (0, 2)}

    outcome = run_study(out, SMALL_PARAMETERS, resume=True)
    assert (outcome.computed, outcome.kept) == (1, 2)
    assert {k: chunk_path(out, k).stat().st_mtime_ns for k in (0, 2)} == kept
    assemble(out, SMALL_PARAMETERS)
    assert (out / "hands.csv").read_bytes() == (small_study / "hands.csv").read_bytes()


def test_an_interrupted_run_keeps_its_chunks_and_resumes_to_the_same_file(small_study, tmp_path):
    out = tmp_path / "interrupted"

    def stop_after_two_chunks(done: int) -> None:
        if done >= 16:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(out, SMALL_PARAMETERS, on_chunk=stop_after_two_chunks)
    assert [chunk_path(out, k).exists() for k in range(3)] == [True, True, False]
    with pytest.raises(StudyFolderError, match="missing"):
        assemble(out, SMALL_PARAMETERS)

    outcome = run_study(out, SMALL_PARAMETERS, resume=True)
    assert (outcome.computed, outcome.kept) == (1, 2)
    assemble(out, SMALL_PARAMETERS)
    assert (out / "hands.csv").read_bytes() == (small_study / "hands.csv").read_bytes()


def test_a_full_disk_keeps_the_completed_chunks_and_says_how_to_finish(tmp_path, monkeypatch):
    real_replace = files.os.replace
    calls = []

    def replace(source, target):
        calls.append(target)
        if str(target).endswith("00001.csv"):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", replace)  # every file is written by reports/files
    out = tmp_path / "full"
    result = _run_cli(out)
    assert result.exit_code == 1
    assert "No space left on device" in result.output
    assert "--resume" in result.output
    assert "Traceback" not in result.output
    assert chunk_path(out, 0).exists() and not chunk_path(out, 1).exists()
    assert not list((out / "chunks").glob(".*"))  # no half-written temporary file is left


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory) -> bytes:
    """hands.csv of a tiny study run on two loky workers."""
    out = tmp_path_factory.mktemp("loky")
    parameters = StudyParameters(3, hands=12, samples=20, seed=4, chunk_hands=4, **GREEDY)
    run_study(out, parameters, jobs=2)
    assemble(out, parameters)
    return (out / "hands.csv").read_bytes()


def test_one_or_two_workers_give_the_same_hands(two_workers, tmp_path):
    parameters = StudyParameters(3, hands=12, samples=20, seed=4, chunk_hands=4, **GREEDY)
    run_study(tmp_path, parameters, jobs=1)
    assemble(tmp_path, parameters)
    assert (tmp_path / "hands.csv").read_bytes() == two_workers


def test_a_local_dask_cluster_gives_the_same_hands_as_loky(two_workers, tmp_path):
    distributed = pytest.importorskip("distributed")
    parameters = StudyParameters(3, hands=12, samples=20, seed=4, chunk_hands=4, **GREEDY)
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with cluster, distributed.Client(cluster):
        run_study(tmp_path, parameters, jobs=2, backend="dask")
    assemble(tmp_path, parameters)
    assert (tmp_path / "hands.csv").read_bytes() == two_workers


def test_the_speed_is_said_on_the_workers_used_not_those_asked_for(tmp_path):
    # One chunk of 24 hands runs in the process, whatever --jobs allows.
    arguments = ["thresholds", *SMALL, "--chunk-hands", "24", "--jobs", "2", "--quiet"]
    result = CliRunner().invoke(main, [*arguments, "--out", str(tmp_path / "one-chunk")])
    assert result.exit_code == 0, result.output
    assert "hand-samples/s on 1 worker\n" in result.stdout


def test_a_folder_with_results_is_refused_without_resume(small_study):
    result = _run_cli(small_study)
    assert result.exit_code == 2
    assert "--resume" in result.output and "another folder" in result.output
    assert result.output.count("\n") == 1


def test_resuming_with_other_parameters_is_refused(small_study):
    arguments = [
        "thresholds",
        "--hands",
        "24",
        "--samples",
        "60",
        "--seed",
        "11",
        "--resume",
        *SMALL[-4:],
    ]
    result = CliRunner().invoke(main, [*arguments, "--chunk-hands", "8", "--out", str(small_study)])
    assert result.exit_code == 2
    assert "other parameters" in result.output and "samples 50 (asked 60)" in result.output
    assert result.output.count("\n") == 1


def test_resuming_with_another_play_is_refused(small_study):
    # The study was played by the greedy; the lookahead would give other numbers.
    result = _run_cli(small_study, "--resume", "--defence", "lookahead")
    assert result.exit_code == 2
    assert "defence greedy (asked lookahead)" in result.output
    assert result.output.count("\n") == 1


def test_a_scheduler_needs_the_dask_backend(tmp_path):
    result = _run_cli(tmp_path / "x", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert "--backend dask" in result.output


def _synthetic(crossing: float, slope: float, n: int = 2000) -> pd.DataFrame:
    """Hands whose Prise score rises linearly through 0 at ``crossing`` points, with noise."""
    rng = np.random.default_rng(0)
    points = rng.integers(20, 80, n)
    prise = slope * (points - crossing) + rng.normal(0, 20, n)
    return pd.DataFrame(
        {
            "points": points,
            "points_with_distribution": points + 3,
            "expected_score_prise": prise,
            "expected_score_garde": 2 * prise,
            "expected_score_garde_sans": 4 * prise - 100,
            "expected_score_garde_contre": 4 * prise - 200,  # never above Garde Sans
        }
    )


def test_the_fit_finds_where_a_score_difference_crosses_zero():
    fits = fit_thresholds(_synthetic(48.0, 5.0), seed=1, bootstrap=100)
    prise = fits["prise"]
    assert prise["low"] <= 48.0 <= prise["high"]
    assert abs(prise["value"] - 48.0) < 1.0
    # Garde − Prise is Prise itself here: the same crossing.
    assert fits["garde"]["value"] == pytest.approx(prise["value"], abs=0.3)
    # Garde Sans − Garde = 2 Prise − 100 crosses at 48 + 10 points, read with distribution (+3).
    assert abs(fits["garde_sans"]["value"] - 61.0) < 1.0
    assert fits["garde_contre"] == {"value": None, "low": None, "high": None, "crossed_share": 0}


def test_a_crossing_is_the_last_rise_through_zero_inside_the_data():
    grid = np.array([10.0, 11.0, 12.0, 13.0, 14.0])
    assert last_upward_crossing(grid, np.array([-2.0, 1.0, -1.0, 1.0, 3.0])) == 12.5
    assert last_upward_crossing(grid, np.array([1.0, 2.0, 3.0, 4.0, 5.0])) is None
    assert last_upward_crossing(grid, np.array([-1.0, 2.0, 3.0, 4.0, -5.0])) is None
    assert last_upward_crossing(grid, np.array([np.nan, -1.0, 1.0, np.nan, np.nan])) == 11.5


def test_without_dask_installed_the_dask_backend_says_how_to_get_it(tmp_path, monkeypatch):
    from tarot_advisor.cli import study_run

    def no_module(name: str):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(study_run.importlib, "import_module", no_module)
    result = _run_cli(tmp_path / "x", "--backend", "dask")
    assert result.exit_code == 2
    assert "pip install" in result.output and "[dask]" in result.output
    assert not (tmp_path / "x").exists()


def test_another_report_in_the_folder_is_not_overwritten(tmp_path):
    (tmp_path / "report.html").write_text("<html>a deal study</html>")
    for extra in ((), ("--resume",)):
        result = _run_cli(tmp_path, *extra)
        assert result.exit_code == 2
        assert "another folder" in result.output
    assert (tmp_path / "report.html").read_text() == "<html>a deal study</html>"


def test_strong_hands_only_leave_the_lower_thresholds_unfitted():
    fits = fit_thresholds(_synthetic(48.0, 5.0), seed=1, bootstrap=20, min_points=30)
    assert fits["prise"]["value"] is None and fits["garde"]["value"] is None
    assert abs(fits["garde_sans"]["value"] - 61.0) < 1.0


def test_resuming_with_changed_analyser_code_is_refused(small_study, tmp_path):
    out = tmp_path / "old"
    for name, data in _files(small_study).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    run = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps({**run, "code": "0123456789abcdef"}))
    result = _run_cli(out, "--resume")
    assert result.exit_code == 2
    assert "code has changed" in result.output and "another folder" in result.output


def test_a_study_too_small_to_fill_a_bin_still_writes_its_report(tmp_path):
    arguments = ["thresholds", "--hands", "3", "--samples", "4", "--jobs", "1", "--quiet"]
    result = CliRunner().invoke(main, [*arguments, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "report.html").exists() and (tmp_path / "poignee.png").exists()
    # Without --taker and --defence, the lookahead plays at every seat, as in the advice.
    assert "played by the lookahead at every seat" in result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["taker"] == summary["defence"] == "lookahead"
    assert summary["chunk_hands"] == 4  # smaller chunks of slower work


def _copy(study: Path, out: Path) -> Path:
    for name, data in _files(study).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    return out


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("[]", "it holds a list, not an object of the study's parameters"),
        ("null", "it holds null, not an object of the study's parameters"),
        ('"a study"', "it holds a string, not an object of the study's parameters"),
        ("players: 4", "Expecting value"),
        ("{}", "it lacks players, hands, samples, seed"),
        ('{"players": 4, "hands": "24", "samples": 50, "seed": 11}', 'hands is "24"'),
    ],
)
def test_resuming_over_a_broken_run_json_is_one_sentence_naming_it(
    small_study, tmp_path, text, what
):
    out = _copy(small_study, tmp_path / "broken")
    (out / "run.json").write_text(text + "\n")
    chunks = {k: chunk_path(out, k).read_bytes() for k in range(3)}
    result = _run_cli(out, "--resume")
    one_error_line(result, f"{out / 'run.json'} is not a study's run.json ({what}")
    assert {k: chunk_path(out, k).read_bytes() for k in range(3)} == chunks  # nothing lost


@pytest.mark.parametrize(
    ("index", "text", "what"),
    [
        (0, "x,y\n", "its header is not the study's columns"),
        (2, ",".join(columns(4)) + "\n", "it holds 0 whole line(s) of hands, not 8"),
        (1, "", "it is empty"),
        (1, None, "it holds 4 whole line(s) of hands, not 8"),  # cut inside its 5th row
        (2, b"\xff\xfe", "it is not UTF-8 text"),
    ],
)
def test_resuming_over_a_damaged_chunk_is_one_sentence_naming_it(
    small_study, tmp_path, index, text, what
):
    out = _copy(small_study, tmp_path / "damaged")
    path = chunk_path(out, index)
    if text is None:
        lines = path.read_text(encoding="utf-8").split("\n")
        path.write_text("\n".join(lines[:5]) + "\n" + lines[5][:20], encoding="utf-8")
    elif isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    before = _files(out)
    result = _run_cli(out, "--resume")
    one_error_line(result, f"{path} is damaged ({what})", "delete it", "--resume")
    assert _files(out) == before  # no hands.csv, report or chunk rewritten from a damaged chunk


def test_without_its_damaged_chunk_a_study_resumes_to_the_same_hands(small_study, tmp_path):
    # As the sentence above says: delete the damaged file, and resuming computes it again.
    out = _copy(small_study, tmp_path / "damaged")
    chunk_path(out, 1).write_text("", encoding="utf-8")
    assert _run_cli(out, "--resume").exit_code != 0
    chunk_path(out, 1).unlink()
    assert _run_cli(out, "--resume").exit_code == 0
    assert (out / "hands.csv").read_bytes() == (small_study / "hands.csv").read_bytes()


def test_resuming_a_finished_study_on_dask_starts_no_cluster(small_study, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from tarot_advisor.cli import report_thresholds

    def no_cluster(scheduler, jobs):
        raise AssertionError("a cluster was started for a finished study")

    monkeypatch.setattr(report_thresholds, "dask_client", no_cluster)
    out = _copy(small_study, tmp_path / "finished")
    result = _run_cli(out, "--resume", "--backend", "dask")
    assert result.exit_code == 0, result.output
    assert "0 chunk(s) computed in 0.0 s, 3 resumed" in result.stdout
