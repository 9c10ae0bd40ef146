"""tarot-report bench runs and names every figure (speed itself is not a test's business)."""

import json
import sys

from click.testing import CliRunner

from tarot_advisor.cli.report import main
from tarot_advisor.reports import bench

SMALL = ["bench", "--deals", "2000", "--playouts", "300", "--jobs", "1", "--quiet"]
FIGURES = (
    "deals_per_second",
    "deals_per_second_one_core",
    "playouts_per_second",
    "playouts_per_second_one_core",
    "advise_seconds",
    "advise_seconds_10000",
    "advise_seconds_50000",
)


def quick_advise(monkeypatch):
    """Stands a do-nothing Python run in for tarot-advise, so that the test stays short."""
    monkeypatch.setattr(bench, "advise_command", lambda samples=None: [sys.executable, "-c", ""])


def test_json_has_every_figure_and_the_number_of_workers(monkeypatch):
    quick_advise(monkeypatch)
    result = CliRunner().invoke(main, [*SMALL, "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"jobs", "notes", *FIGURES}
    assert figures["jobs"] == 1 and figures["notes"] == {}
    assert all(figures[name] > 0 for name in FIGURES)


def test_human_output_is_one_line_per_figure(monkeypatch):
    quick_advise(monkeypatch)
    result = CliRunner().invoke(main, SMALL)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["jobs", *FIGURES]
    assert lines[-1].endswith(" s")


def test_without_the_advisor_its_figures_are_null_with_a_note(monkeypatch):
    monkeypatch.setattr(bench, "ADVISE_SCRIPT", "tarot-no-such-advisor")
    only = ["--only", "playouts_per_second", "--only", "advise_seconds"]
    # No dealer measurement: --deals would not act, and is refused.
    small = [a for a in SMALL if a not in ("--deals", "2000")]
    result = CliRunner().invoke(main, [*small, *only, "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"jobs", "notes", "playouts_per_second", "advise_seconds"}
    assert figures["advise_seconds"] is None
    assert "not installed" in figures["notes"]["advise_seconds"]


def test_an_unknown_measurement_is_one_sentence_and_exit_code_2():
    result = CliRunner().invoke(main, [*SMALL, "--only", "warp_speed"])
    assert result.exit_code == 2
    assert "warp_speed" in result.stderr and len(result.stderr.splitlines()) == 1
