"""Golden runs: the same seed gives the same bytes, so a refactor cannot change the play unseen.

Each case runs a command with a fixed seed and compares its output, byte for byte, with a file
in ``tests/golden/``: ``tarot-advise --json`` (which holds no timing without ``--timings``)
for 3, 4 and 5 players with the greedy at every seat, one at a fixed position, and the
default (the lookahead at every seat, a survey and a focus); and the ``hands.csv`` of two tiny
thresholds studies (4 players; 5 players, strong hands only).

A change that is *meant* to change the play (a better greedy habit, a rule fixed) regenerates
the files in the same commit, and the commit message says why the numbers moved::

    .venv/bin/python tests/test_golden.py --regenerate
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from tarot_advisor.analyzer.studies.study import StudyParameters
from tarot_advisor.cli.advise import main as advise
from tarot_advisor.reports.thresholds_folder import HANDS_FILE, assemble, run_study

GOLDEN = Path(__file__).parent / "golden"

GREEDY = ["--taker", "greedy", "--defence", "greedy"]
"""The table before the lookahead became the default: these files hold its numbers."""

ADVISE_CASES = {
    "advise-3p.json": [
        *GREEDY, "--players", "3", "--samples", "300", "--seed", "11",
        "21 19 17 12 6 1 Excuse R♠ 6♠ 4♠ R♥ C♥ 10♥ 9♥ 8♥ 1♥ V♦ 8♦ 3♦ 2♦ D♣ C♣ 7♣ 5♣",
    ],
    "advise-4p-position2.json": [
        *GREEDY, "--position", "2", "--samples", "400",
        "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠",
    ],
    "advise-5p.json": [
        *GREEDY, "--players", "5", "--samples", "200", "--seed", "3",
        "21 18 15 9 4 1 Excuse R♥ D♥ 8♥ R♠ 3♠ C♦ 6♦ 2♣",
    ],
    "advise-4p-default.json": [
        "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠",
    ],
}  # fmt: skip
"""File name → ``tarot-advise`` arguments (``--json`` added)."""

GREEDY_PLAY = {"taker": "greedy", "defence": "greedy"}
STUDY_CASES = {
    "hands-4p.csv": StudyParameters(
        players=4, hands=6, samples=20, seed=7, chunk_hands=3, **GREEDY_PLAY
    ),
    "hands-5p-min40.csv": StudyParameters(
        players=5, hands=4, samples=16, seed=9, chunk_hands=2, min_points=40, **GREEDY_PLAY
    ),
    "hands-4p-lookahead.csv": StudyParameters(players=4, hands=2, samples=6, seed=7),
}
"""File name → the thresholds study whose ``hands.csv`` it holds (the greedy's pinned before
the play was a study's parameter; the lookahead, the studies' default, on a few samples)."""


def advise_json(arguments: list[str]) -> str:
    """``tarot-advise --json`` on ``arguments``."""
    result = CliRunner().invoke(advise, [*arguments, "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "seconds" not in result.stdout, "the JSON should hold no timing"
    return result.stdout


def study_hands(parameters: StudyParameters) -> str:
    """The ``hands.csv`` of the thresholds study ``parameters``, computed on one worker."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        run_study(out, parameters, jobs=1)
        assemble(out, parameters)
        return (out / HANDS_FILE).read_text(encoding="utf-8")


def _cases() -> dict[str, Callable[[], str]]:
    cases: dict[str, Callable[[], str]] = {}
    for name, arguments in ADVISE_CASES.items():
        cases[name] = lambda arguments=arguments: advise_json(arguments)
    for name, parameters in STUDY_CASES.items():
        cases[name] = lambda parameters=parameters: study_hands(parameters)
    return cases


@pytest.mark.slow  # a snapshot: it specifies nothing, it only says that something changed
@pytest.mark.parametrize("name", list(ADVISE_CASES) + list(STUDY_CASES))
def test_the_same_seed_gives_the_same_bytes(name: str) -> None:
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    assert _cases()[name]() == expected, (
        f"{name} changed: if the play was meant to change, regenerate with "
        "`python tests/test_golden.py --regenerate` and say why in the commit"
    )


def regenerate() -> None:
    """Rewrite every golden file from the current code."""
    GOLDEN.mkdir(exist_ok=True)
    for name, run in _cases().items():
        (GOLDEN / name).write_text(run(), encoding="utf-8")
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: {sys.argv[0]} --regenerate   (rewrites {GOLDEN}/*)")
    regenerate()
