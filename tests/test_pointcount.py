"""The calibrated point count (issue 12): its items, its shipped tables, its fits, its report.

A small fixed-seed run of ``tarot-report pointcount`` must rebuild the same table, byte for
byte, whatever the number of workers, and the one stored in ``tests/golden/``. A change meant to
change the fit regenerates that file in the same commit::

    .venv/bin/python tests/test_pointcount.py --regenerate
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tarot_advisor.analyzer.advice.calibrated import (
    ITEMS,
    CountTable,
    calibrated_count,
    item_counts,
    shipped_table,
)
from tarot_advisor.analyzer.advice.heuristic import bid
from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.cli.report import main as report
from tarot_advisor.reports.pointcount_fit import SeedLines, bids_of, fit_lines

GOLDEN = Path(__file__).parent / "golden" / "pointcount-4-small.json"
SMALL_RUN = ["--players", "4", "--hands", "60", "--samples", "12", "--seed", "5",
             "--chunk-hands", "15", "--taker", "greedy", "--defence", "greedy",
             "--quiet"]  # fmt: skip
"""A study the greedy plays at every seat: it tests the fit's bookkeeping, 200 times cheaper
than the lookahead the shipped tables are fitted on."""
GARDE_HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"


def items_of(text: str, players: int = 4) -> dict[str, int]:
    counts = item_counts(np.array([parse_cards(text)], np.uint8), players)[0]
    return {name: int(c) for name, c in zip(ITEMS, counts, strict=True) if c}


def test_the_items_of_the_barème_s_worked_example():
    assert items_of(GARDE_HAND) == {
        "21": 1,
        "excuse": 1,
        "petit": 1,
        "petit_guarded": 1,  # 21 19 12 6 and the Excuse: 5 other trumps
        "trump": 5,  # 21 19 12 6 1, the Excuse apart
        "major": 1,  # 19 (the 21 is an item of its own)
        "king": 1,
        "queen": 1,
        "cavalier": 2,
        "valet": 1,
        "guarded_queen": 1,  # D♣ C♣ 7♣ without R♣
        "long_suit": 1,  # five hearts
        "doubleton": 2,  # V♦ 8♦ and 6♠ 4♠
    }


def test_voids_singletons_long_trumps_and_the_king_with_his_queen():
    hand = "21 20 18 17 16 14 13 11 9 5 2 Excuse R♥ D♥ 3♥ 2♥ 1♥ R♣"
    assert items_of(hand) == {
        "21": 1,
        "excuse": 1,
        "trump": 11,
        "long_trump": 5,  # the 7th to the 11th trump
        "major": 4,  # 20 18 17 16
        "king": 2,
        "queen": 1,
        "king_queen": 1,
        "long_suit": 1,
        "void": 2,  # ♠ and ♦
        "singleton": 1,  # R♣
    }


def table_with(weights: dict[str, int], lines: tuple) -> CountTable:
    return CountTable.from_dict(
        {
            "players": 4,
            "weights": {name: weights.get(name, 0) for name in ITEMS},
            "thresholds": dict(zip(BIDS[1:], lines, strict=True)),
        }
    )


def test_a_count_adds_its_items_points_and_reads_its_lines():
    table = table_with({"21": 10, "excuse": 8, "trump": 3, "king": 5}, (30, 30, 40, None))
    count = calibrated_count(parse_cards(GARDE_HAND), 4, table)
    assert dict(count.breakdown) == {"21": 10, "excuse": 8, "trump": 15, "king": 5}
    assert count.points == 38
    assert count.bid == "garde"  # 30 ≤ 38 < 40; Prise's band is empty
    assert calibrated_count(parse_cards(GARDE_HAND), 4, table_with({}, (30, 30, 40, None))).bid == (
        "pass"
    )


def test_bid_reads_the_seed_or_the_calibrated_table():
    hand = parse_cards(GARDE_HAND)
    assert bid(hand, 4) == "garde"  # rules.md §11: 60 points
    assert bid(hand, 4, table="calibrated") == calibrated_count(hand, 4).bid
    with pytest.raises(ValueError, match="'seed' or 'calibrated'"):
        bid(hand, 4, table="mine")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_count_ships_a_table_with_its_provenance(players):
    table = shipped_table(players)
    assert table.players == players
    lines = [line for line in table.thresholds.values() if line is not None]
    assert lines == sorted(lines) and lines
    provenance = table.provenance
    # Fitted on the advice's play, the lookahead at every seat: a small study for its cost.
    assert provenance["taker"] == provenance["defence"] == "lookahead"
    assert "--taker lookahead --defence lookahead" in provenance["command"]
    assert provenance["hands"] >= 320 and provenance["samples"] >= 100
    for key in ("seed", "study_code_version", "fit_code_version", "command", "held_out"):
        assert provenance[key] is not None
    held_out = provenance["held_out"]
    # The target: at most half the seed count's regret, on held-out hands.
    assert held_out["calibrated"]["regret"] <= held_out["seed"]["regret"] / 2


def test_fit_lines_finds_the_best_non_decreasing_bids():
    rng = np.random.default_rng(3)
    points = rng.integers(0, 7, 40)
    values = rng.normal(size=(40, 3)) + np.array([0, 0.1, 0.2]) * points[:, None]
    lines, total = fit_lines(points, values)
    distinct = np.unique(points)
    best = max(
        sum(values[points == d, b].sum() for d, b in zip(distinct, bands, strict=True))
        for bands in itertools.combinations_with_replacement(range(3), distinct.size)
    )
    assert total == pytest.approx(best)
    chosen = bids_of(points, lines)
    assert values[np.arange(40), chosen].sum() == pytest.approx(best)


def test_the_seed_lines_read_two_counts():
    lines = SeedLines(prise=40, garde=56, garde_sans=71, garde_contre=81)
    points = np.array([39, 40, 56, 60, 60, 70])
    with_distribution = np.array([39, 45, 56, 71, 81, 70])
    assert BIDS[0] == "pass"
    assert lines.bids(points, with_distribution).tolist() == [0, 1, 2, 3, 4, 2]


def run_small(out: Path, jobs: str) -> str:
    result = CliRunner().invoke(
        report, ["pointcount", *SMALL_RUN, "--jobs", jobs, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return (out / "pointcount-4.json").read_text(encoding="utf-8")


_DIGESTS = re.compile(r'"(study|fit)_code_version": "[0-9a-f]+"')


def _without_digests(text: str) -> str:
    return _DIGESTS.sub(r'"\1_code_version": null', text)


def test_a_small_fixed_seed_run_rebuilds_the_same_table(tmp_path):
    one = run_small(tmp_path / "one", "1")
    two = run_small(tmp_path / "two", "2")
    assert one == two
    # The code digests change with any edit of the analyser, not with the numbers: not pinned.
    assert _without_digests(one) == _without_digests(GOLDEN.read_text(encoding="utf-8")), (
        "the small run's table changed: if the fit was meant to change, regenerate with "
        "`python tests/test_pointcount.py --regenerate` and say why in the commit"
    )
    for name in ("report.html", "card.png", "held_out.csv", "summary.json"):
        assert (tmp_path / "one" / name).stat().st_size > 0
    # --resume reuses the finished study, and fits the same table again.
    again = CliRunner().invoke(
        report, ["pointcount", *SMALL_RUN, "--resume", "--out", str(tmp_path / "one")]
    )
    assert again.exit_code == 0, again.output
    assert (tmp_path / "one" / "pointcount-4.json").read_text(encoding="utf-8") == one


def test_a_folder_without_a_study_is_one_sentence_and_exit_2(tmp_path):
    result = CliRunner().invoke(
        report, ["pointcount", "--study", str(tmp_path / "none"), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert "holds no finished thresholds study" in result.stderr
    assert "Traceback" not in result.output


def test_a_study_stored_before_the_play_was_recorded_is_read_as_the_greedys(tmp_path):
    run_small(tmp_path / "four", "1")
    run_file = tmp_path / "four" / "study" / "run.json"
    run = json.loads(run_file.read_text(encoding="utf-8"))
    del run["taker"], run["defence"]
    run_file.write_text(json.dumps(run), encoding="utf-8")
    result = CliRunner().invoke(
        report, ["pointcount", "--study", str(run_file.parent), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 0, result.output
    assert "played by the greedy at every seat" in result.stdout
    provenance = json.loads((tmp_path / "o" / "pointcount-4.json").read_text())["provenance"]
    assert (provenance["taker"], provenance["defence"]) == ("greedy", "greedy")


def test_a_study_of_other_players_is_refused(tmp_path):
    run_small(tmp_path / "four", "1")
    result = CliRunner().invoke(
        report,
        ["pointcount", "--players", "5", "--study", str(tmp_path / "four" / "study"),
         "--out", str(tmp_path / "o")],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "is of 4 players, not 5" in result.stderr


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: {sys.argv[0]} --regenerate   (rewrites {GOLDEN})")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        GOLDEN.write_text(run_small(Path(folder), "1"), encoding="utf-8")
    print(f"wrote {GOLDEN}")
    json.loads(GOLDEN.read_text(encoding="utf-8"))
