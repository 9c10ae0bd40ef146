"""TarotClub's played deals (tests/data/tarotclub/README.md: provenance and how they were read),
scored exactly. Five have no chien: the cards nobody played are then the écart of a Prise or a
Garde and the chien of a Garde Sans or Contre (design.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarot_advisor.analyzer.rulebook.record import replay

FOLDER = Path(__file__).parent / "data" / "tarotclub"

# name: (taker's points, bouts, made, per defender, scores by seat, petit au bout, chelem)
SCORES = {
    "01-T_lasttrickbydefense_game_lost": (28, 1, False, -58, (58, 58, -174, 58), "defence", None),
    "3_oudlers": (47, 3, True, 72, (216, -72, -72, -72), None, None),
    "4_oudlers_bug": (47, 3, True, 36, (-36, 108, -36, -36), None, None),
    "maximum_points": (88, 3, True, 962, (2886, -962, -962, -962), "taker", "taker"),
    "one_trump_last_trick": (43, 1, False, -23, (-69, 23, 23, 23), "taker", None),
    "slam_announced_failure": (81, 3, True, 120, (360, -120, -120, -120), "taker", None),
    "slam_not_announed_by_defense": (0, 0, False, -686, (-2058, 686, 686, 686), None, "defence"),
    "taker_loses_two_oudlers": (67, 1, True, 164, (492, -164, -164, -164), None, None),
    "tarotmag_17": (42, 1, False, -34, (-102, 34, 34, 34), None, None),
    "tarotmag_18": (43, 2, True, 54, (162, -54, -54, -54), None, None),
}


def record(name: str) -> dict:
    return json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SCORES))
def test_every_played_deal_is_legal_and_scored_exactly(name: str) -> None:
    points, bouts, made, per_defender, scores, petit, chelem = SCORES[name]
    outcome = replay(record(name)).as_dict()
    assert (outcome["taker_points"], outcome["bouts"], outcome["made"]) == (points, bouts, made)
    assert (outcome["per_defender"], tuple(outcome["scores"])) == (per_defender, scores)
    assert (outcome["petit_au_bout"], outcome["chelem"]) == (petit, chelem)


def test_tarotclubs_own_assertions_hold() -> None:
    """tst_tarot_rules.cpp: tarotmag_17 −102 with 1 oudler; tarotmag_18 54 × 3 with 2;
    taker_loses_two_oudlers 67 points, 1 oudler, 612 with a triple poignée the test adds (40
    points per defender, so 3 × 40 less without it)."""
    assert replay(record("tarotmag_17")).scores[0] == -102
    assert replay(record("tarotmag_18")).scores[0] == 54 * 3
    assert replay(record("taker_loses_two_oudlers")).scores[0] == 612 - 3 * 40


def test_five_records_have_no_chien_and_their_unplayed_cards_stand_aside() -> None:
    without = [name for name in SCORES if "chien" not in record(name)]
    assert len(without) == 5
    # 3_oudlers: a Garde whose six unplayed cards (3 points) are the taker's écart.
    data = record("3_oudlers")
    assert replay(data | {"discard": ["6♠", "4♠", "2♠", "10♣", "8♣", "1♣"]}).taker_points == 47
