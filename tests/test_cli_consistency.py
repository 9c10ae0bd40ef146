"""Every command alike: ``-h`` and ``--version``, one default for ``--jobs``, JSON that is the same
bytes for the same seed, and output paths checked before any work (one sentence, exit 2,
nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tarot_advisor.cli.advise import main as advise
from tarot_advisor.cli.options import JOBS_RULE
from tarot_advisor.cli.play import main as play
from tarot_advisor.cli.replay import main as replay
from tarot_advisor.cli.report import main as report
from tarot_advisor.cli.review import main as review_command

HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
DATA = Path(__file__).parent.parent / "data"
POSITION = DATA / "positions" / "garde-4p-trick-10.json"
EXAMPLES = DATA / "deals" / "examples.jsonl"
SUBCOMMANDS = sorted(report.commands)
GREEDY = ["--taker", "greedy", "--defence", "greedy"]
"""The greedy table: these tests check the commands' manners, not the play."""


def _invoke(command: click.Command, arguments: list[str]):
    return CliRunner().invoke(command, arguments)


@pytest.mark.parametrize(
    ("command", "prefix"),
    [(advise, []), (play, []), (replay, []), (report, [])]
    + [(report, [name]) for name in SUBCOMMANDS],
)
def test_every_command_answers_h_and_version(command: click.Command, prefix: list[str]) -> None:
    helped = _invoke(command, [*prefix, "-h"])
    assert helped.exit_code == 0 and helped.stdout.startswith("Usage:"), helped.output
    version = _invoke(command, [*prefix, "--version"])
    assert version.exit_code == 0 and version.stdout.endswith("(tarot-advisor) 0.1.0\n")


@pytest.mark.parametrize(
    ("command", "prefix"),
    [(play, [])] + [(report, [name]) for name in SUBCOMMANDS if name != "bench"],
)
def test_jobs_has_one_default_and_one_rule(command: click.Command, prefix: list[str]) -> None:
    helped = " ".join(_invoke(command, [*prefix, "-h"]).stdout.split())
    assert " ".join(JOBS_RULE.split()) in helped
    assert "[default: 1]" in helped.split("--jobs", 1)[1]


def test_the_advice_uses_every_core_by_default_its_workers_forked() -> None:
    # The one exception: its workers are forked (started in milliseconds, not a second), and
    # the lookahead's advice takes seconds that two cores halve.
    helped = " ".join(_invoke(advise, ["-h"]).stdout.split())
    jobs = helped.split("--jobs", 1)[1]
    assert "forked from this one" in jobs and "[default: 0]" in jobs


@pytest.mark.parametrize(
    ("command", "arguments"),
    [
        (advise, [HAND, "--samples", "40", *GREEDY, "--json", "--quiet"]),
        (advise, [HAND, "--samples", "20", *GREEDY, "--chien", "3♥ 9♦ 14 R♠ 2♣ V♠", "--json"]),
        (play, [str(POSITION), "--samples", "30", "--json"]),
        (report, ["check-engine", "--deals", "30", "--json", "--quiet"]),
        (report, ["duel", "--policy", "greedy", "--against", "simple", "--deals", "20", "--json"]),
    ],
)
def test_json_is_byte_identical_for_the_same_seed(command, arguments) -> None:
    first, second = _invoke(command, arguments), _invoke(command, arguments)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    assert "seconds" not in first.stdout
    timed = _invoke(command, [*arguments, "--timings"])
    if timed.exit_code == 0:  # the commands that time themselves
        document = json.loads(timed.stdout)
        assert document["timings"]["seconds"] >= 0
        assert {k: v for k, v in document.items() if k != "timings"} == json.loads(first.stdout)


def _one_sentence(result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ["deals", "--deals", "10", "--out", "{file}/sub"],
        ["pointcount", "--hands", "5", "--samples", "4", "--out", "{file}/sub"],
        ["pointcount", "--study", "{tmp}/nothing", "--out", "{tmp}/pc"],
        ["duel", "--policy", "greedy", "--against", "simple", "--dump-deals", "{tmp}/no/d.jsonl"],
        ["duel", "--policy", "greedy", "--against", "simple", "--dump-deals", "{tmp}"],
    ],
)
def test_output_paths_are_refused_before_any_work(tmp_path: Path, arguments: list[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    filled = [a.format(file=blocker, tmp=tmp_path) for a in arguments]
    message = _one_sentence(_invoke(report, filled))
    assert message.startswith("Error: ") and str(tmp_path) in message, "names the culprit"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"], "nothing written"


def test_the_duel_validates_its_contract_and_keeps_the_old_option_names() -> None:
    message = _one_sentence(
        _invoke(report, ["duel", "--policy", "greedy", "--against", "simple", "--contract", "x"])
    )
    assert "'x' is not one of 'prise', 'garde', 'garde_sans', 'garde_contre'" in message
    old = _invoke(report, ["duel", "--a", "greedy", "--b", "simple", "--deals", "4", "--json"])
    new = _invoke(
        report, ["duel", "--policy", "greedy", "--against", "simple", "--deals", "4", "--json"]
    )
    assert old.exit_code == 0 and old.stdout == new.stdout
    assert "--a " not in _invoke(report, ["duel", "-h"]).stdout
    assert "Missing option '--policy'" in _one_sentence(
        _invoke(report, ["duel", "--against", "simple"])
    )


def test_plot_draws_the_analysis_into_a_png_or_an_html_page(tmp_path: Path) -> None:
    picture, page = tmp_path / "hand.png", tmp_path / "hand.html"
    drawn = _invoke(advise, [HAND, "--samples", "40", *GREEDY, "--plot", str(picture)])
    assert drawn.exit_code == 0, drawn.output
    assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert _invoke(advise, [HAND, "--samples", "40", *GREEDY, "--plot", str(page)]).exit_code == 0
    text = page.read_text(encoding="utf-8")
    assert '<img src="data:image/png;base64,' in text and "Garde Contre" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.html", "hand.png"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--plot", "{tmp}/hand.jpg"], "give a file ending in .png or .html"),
        (["--plot", "{tmp}/no/hand.png"], "does not exist"),
        (["--plot", "{tmp}/hand.png", "--chien", "3♥ 9♦ 14 R♠ 2♣ V♠"], "leave out --chien"),
    ],
)
def test_a_plot_that_cannot_be_written_is_refused_first(tmp_path, arguments, message) -> None:
    filled = [a.format(tmp=tmp_path) for a in arguments]
    assert message in _one_sentence(_invoke(advise, [HAND, "--samples", "40", *GREEDY, *filled]))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("command", "arguments", "unit"),
    [
        (advise, [HAND, "--samples", "20", *GREEDY], "batches of samples"),
        (replay, [str(EXAMPLES)], "records"),
        (report, ["check-engine", "--deals", "20"], "deals"),
        (report, ["duel", "--policy", "greedy", "--against", "simple", "--deals", "4"], "deals"),
    ],
)
def test_progress_shows_on_a_terminal_or_when_asked_in_its_unit(command, arguments, unit) -> None:
    assert "[" not in _invoke(command, arguments).stderr  # not a terminal: no bar
    shown = _invoke(command, [*arguments, "--progress"]).stderr
    assert f" {unit}  " in shown and "100%" in shown and shown.count("\r") >= 2
    assert "[" not in _invoke(command, [*arguments, "--quiet"]).stderr


def test_a_first_run_says_above_its_bar_that_it_compiles_the_engine(monkeypatch) -> None:
    from tarot_advisor.cli import progress as bars

    monkeypatch.setattr(bars, "kept_for", lambda players: False)
    shown = _invoke(advise, [HAND, "--samples", "20", *GREEDY, "--progress"]).stderr
    note = "The first run for 4 players compiles the engine: up to a minute, once.\n"
    assert shown.startswith(note) and "simulating [" in shown
    assert note not in _invoke(advise, [HAND, "--samples", "20", *GREEDY, "--quiet"]).stderr
    blunder = str(DATA / "deals" / "blunder-garde-4p.json")
    review = [blunder, "--samples", "10", *GREEDY, "--progress"]
    assert _invoke(review_command, review).stderr.startswith(note)  # the record's 4 players
    monkeypatch.setattr(bars, "kept_for", lambda players: True)
    assert note not in _invoke(advise, [HAND, "--samples", "20", *GREEDY, "--progress"]).stderr


def test_a_command_without_a_bar_says_it_compiles_where_a_bar_would_show(
    monkeypatch, capsys
) -> None:
    from tarot_advisor.cli import progress as bars

    monkeypatch.setattr(bars, "kept_for", lambda players: players != 5)
    bars.say_compiling(5, show=True)
    bars.say_compiling(4, show=True)  # already compiled: nothing to say
    bars.say_compiling(5, show=False)
    assert capsys.readouterr().err == (
        "The first run for 5 players compiles the engine: up to a minute, once.\n"
    )
    monkeypatch.setattr(bars, "kept_for", lambda players: players == 4)
    assert bars.compile_note(5, 4, 3) == (
        "The first run for 3 and 5 players compiles the engine: up to a minute each, once."
    )


def test_a_dump_shows_its_records_being_written(tmp_path: Path) -> None:
    dump = tmp_path / "deals.jsonl"
    shown = _invoke(
        advise, [HAND, "--samples", "20", *GREEDY, "--dump-deals", str(dump), "--progress"]
    )
    assert "writing [" in shown.stderr and "80/80 deal records" in shown.stderr
    assert len(dump.read_text(encoding="utf-8").splitlines()) == 80
