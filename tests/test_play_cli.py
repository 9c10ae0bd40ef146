"""``tarot-play``: the ranked table, ``--json``, and one sentence with exit 2 for impossible
states."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tarot_advisor.cli.play import main

EXAMPLE = Path(__file__).parent.parent / "data" / "positions" / "garde-4p-trick-10.json"


def test_json_lists_the_legal_cards_best_first_with_the_greedy_choice():
    result = CliRunner().invoke(main, [str(EXAMPLE), "--json", "--samples", "100"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    cards = data["cards"]
    assert {"card", "expected_score", "expected_score_se", "p_make"} <= set(cards[0])
    means = [c["expected_score"] for c in cards]
    assert means == sorted(means, reverse=True)
    # Trumps were led with the 6 over the 5♥: the taker must overtrump, with any trump in hand.
    assert {c["card"] for c in cards} == {"21", "20", "19", "16", "15", "14", "13", "10", "7"}
    assert data["greedy_choice"] in {c["card"] for c in cards}


def test_the_table_marks_the_greedy_choice():
    result = CliRunner().invoke(main, [str(EXAMPLE), "--samples", "50"])
    assert result.exit_code == 0
    assert "◀ greedy" in result.output
    assert "On the table: 5♥ 6" in result.output


def test_a_revoke_in_the_record_is_one_sentence_and_exit_2():
    data = json.loads(EXAMPLE.read_text())
    # Seat 2 discards the 9♦ on the C♥ in trick 4 (no ♥, no trumps), then plays the 7♥.
    data["tricks"][3] = ["C♥", "R♥", "9♦", "1♥"]
    result = CliRunner().invoke(main, ["-"], input=json.dumps(data))
    assert result.exit_code == 2
    assert result.output == (
        "Error: trick 7, seat 2 played 7♥, a revoke: it had shown it held no ♥ in trick 4\n"
    )


def test_not_the_users_turn_is_refused():
    data = json.loads(EXAMPLE.read_text())
    data["tricks"][-1] = ["5♥"]
    result = CliRunner().invoke(main, ["-"], input=json.dumps(data))
    assert result.exit_code == 2
    assert "turn" in result.output


def test_a_five_player_record_without_its_called_card_is_one_sentence_and_exit_2():
    data = {
        "players": 5,
        "taker": 4,
        "contract": "prise",
        "first_leader": 0,
        "tricks": [["2♥", "1♥", "4♥", "3♥", "D♥"], ["1♣", "6♣"]],
        "seat": 1,
        "hand": [
            "2♠",
            "C♠",
            "9♥",
            "10♥",
            "10♦",
            "V♦",
            "4♣",
            "C♣",
            "6",
            "10",
            "14",
            "17",
            "18",
            "Excuse",
        ],
    }
    result = CliRunner().invoke(main, ["-"], input=json.dumps(data))
    assert result.exit_code == 2
    assert result.output == "Error: called: with 5 players the taker calls a card; give it\n"
