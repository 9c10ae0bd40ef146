"""The score of a deal (rules.md §7, §8): the scoring vectors and every worked example of §8."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarot_advisor.analyzer.game import Side
from tarot_advisor.analyzer.rulebook.rules import (
    DEFENCE,
    TAKER,
    chelem_bonus,
    per_defender_score,
    seat_scores,
)

SCORING = json.loads((Path(__file__).parent / "vectors" / "scoring.json").read_text("utf-8"))

# The vectors' chelem labels, as (side that made the chelem, announced).
CHELEM_LABELS = {
    "announced_made": (TAKER, True),
    "announced_failed": (None, True),
    "made": (TAKER, False),
    "unannounced_made": (TAKER, False),
    "defence": (DEFENCE, False),
}


@pytest.mark.parametrize("case", SCORING["cases"], ids=lambda c: f"{c['players']}p-{c['contract']}")
def test_scoring_vectors(case: dict) -> None:
    """tests/vectors/scoring.json — provenance: its "about" line (checked by hand against the FFT
    formula)."""
    chelem, announced = CHELEM_LABELS.get(case.get("chelem"), (None, False))
    s = per_defender_score(
        case["contract"],
        case["points"],
        case["bouts"],
        petit_au_bout=Side.from_label(case.get("petit_au_bout")),
        poignee_bonus=sum(case.get("poignees", [])),
        chelem_bonus=chelem_bonus(chelem, announced),
    )
    assert s == case["per_defender"]
    # The vectors list the taker first, then the partner: seat 0 takes, seat 1 partners.
    partner = 1 if case.get("partner") else None
    scores = seat_scores(case["players"], 0, s, partner)
    if "taker" in case:
        assert scores[0] == case["taker"]
    if "seats" in case:
        assert scores == case["seats"]
    assert sum(scores) == 0


def test_scoring_vectors_keep_their_provenance() -> None:
    assert "FFT formula" in SCORING["about"]


# --- rules.md §8, the worked examples (4 players unless said) --------------------------------


def test_garde_2_bouts_42_points() -> None:
    s = per_defender_score("garde", 42, 2)
    assert s == (25 + 1) * 2 == 52
    assert seat_scores(4, 0, s) == [156, -52, -52, -52]


def test_garde_sans_lost_with_the_takers_simple_poignee() -> None:
    # The poignée goes to the side that wins the contract, here the defence.
    s = per_defender_score("garde_sans", 50, 0, poignee_bonus=20)
    assert s == -((25 + 6) * 4 + 20) == -144
    assert seat_scores(4, 0, s)[0] == -432


def test_garde_made_with_the_petit_au_bout_lost_to_the_defence() -> None:
    s = per_defender_score("garde", 46, 2, petit_au_bout=DEFENCE)
    assert s == (25 + 5) * 2 - 10 * 2 == (25 + 5 - 10) * 2 == 40
    assert seat_scores(4, 0, s)[0] == 120


def test_prise_lost_is_minus_25_minus_the_difference() -> None:
    s = per_defender_score("prise", 50, 1)
    assert s == -26
    assert seat_scores(4, 0, s)[0] == -78
    # A loss by 3 at Prise is −28, not 22 (the sign bug of rules.md §9).
    assert per_defender_score("prise", 48, 1) == -28


def test_three_players_garde_lost_on_a_half_point() -> None:
    s = per_defender_score("garde", 40.5, 2)
    assert s == -(25 + 1) * 2 == -52
    assert seat_scores(3, 0, s) == [-104, 52, 52]


def test_five_players_prise_juste_fait_with_a_partner() -> None:
    s = per_defender_score("prise", 51, 1)
    assert s == 25
    assert seat_scores(5, 2, s, partner=4) == [-25, -25, 50, -25, 25]


def test_five_players_taker_alone_takes_four_shares() -> None:
    assert seat_scores(5, 2, 25, partner=None) == [-25, -25, 100, -25, -25]
    assert seat_scores(5, 2, 25, partner=2) == [-25, -25, 100, -25, -25]  # own king called


# --- bonuses ----------------------------------------------------------------------------------


def test_petit_au_bout_is_multiplied_whatever_the_result() -> None:
    # Garde Contre lost by 5 (46 of 51), the taker took the Petit au bout: −(30 × 6) + 10 × 6.
    assert per_defender_score("garde_contre", 46, 1, petit_au_bout=TAKER) == -180 + 60


def test_poignee_goes_to_the_side_winning_the_contract_not_multiplied() -> None:
    assert per_defender_score("garde", 41, 2, poignee_bonus=30) == 25 * 2 + 30
    assert per_defender_score("garde", 40, 2, poignee_bonus=30) == -26 * 2 - 30
    # Two poignées (say the taker's simple and a defender's double) both go to the winner.
    assert per_defender_score("prise", 60, 1, poignee_bonus=20 + 30) == 34 + 50


@pytest.mark.parametrize(
    ("chelem", "announced", "bonus"),
    [
        (TAKER, True, 400),
        (TAKER, False, 200),
        (None, True, -200),
        (DEFENCE, False, -200),
        (DEFENCE, True, -400),  # announced, failed, and the defence took every trick
        (None, False, 0),
    ],
)
def test_chelem_bonus_from_the_takers_side(chelem: str | None, announced: bool, bonus: int) -> None:
    assert chelem_bonus(chelem, announced) == bonus


def test_chelem_bonus_is_not_multiplied() -> None:
    assert per_defender_score("garde_sans", 91, 3, chelem_bonus=400) == (25 + 55) * 4 + 400


def test_scores_sum_to_zero() -> None:
    for players in (3, 4, 5):
        for partner in (None, 1):
            assert sum(seat_scores(players, 0, 137, partner if players == 5 else None)) == 0
