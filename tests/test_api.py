"""The Python API a notebook uses: cards that print as cards, answers that show as tables, and
the same numbers as the commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from greedy_table import GREEDY, GREEDY_SIDES

import tarot_advisor
from tarot_advisor import (
    Card,
    advise_play,
    analyse_ecart,
    analyse_hand,
    load_records,
    parse_cards,
    parse_hand,
    replay,
)
from tarot_advisor.analyzer.advice import advisor
from tarot_advisor.analyzer.cards import POINTS2, CardError
from tarot_advisor.analyzer.rulebook.rules import IllegalPlay

ROOT = Path(__file__).resolve().parent.parent
HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"


def test_a_hand_prints_as_cards_sorted_as_the_commands_print_it():
    hand = parse_hand(HAND)
    assert (
        repr(hand) == "[21, 19, 12, 6, 1, Excuse, 6♠, 4♠, R♥, C♥, 10♥, 8♥, 1♥, V♦, 8♦, D♣, C♣, 7♣]"
    )
    assert str(hand[5]) == "Excuse" and f"{hand[6]:>4}|" == "  6♠|"
    assert repr(parse_cards("Rs, 10h XXI")) == "[R♠, 10♥, 21]"


def test_a_card_is_still_its_id_for_numpy_and_sets():
    king, excuse = parse_cards("R♠ Excuse")
    assert (king, excuse) == (13, 77) and type(king + 1) is int
    assert POINTS2[king] == 9
    assert np.asarray([king, excuse], np.uint8).tolist() == [13, 77]
    assert np.array([king]).dtype == np.int64
    assert {13: "king"}[king] == "king"
    with pytest.raises(CardError, match="78 is not a card id"):
        Card(78)


def test_bad_cards_raise_the_sentence_the_commands_print():
    with pytest.raises(ValueError, match="'Z♠' is not a card"):
        parse_hand("Z♠")
    with pytest.raises(ValueError, match="a 4-player hand has 18 cards, but 2 were given"):
        parse_hand("R♠ D♠")


def test_the_analysis_shows_a_table_of_bids_with_the_advice_marked():
    analysis = analyse_hand(HAND, samples=300, **GREEDY)
    assert analysis.hand == tuple(parse_hand(HAND)) and isinstance(analysis.hand[0], Card)
    assert analysis.recommendation == "garde"
    lines = repr(analysis).splitlines()
    assert lines[0].startswith("21 19 12 6 1 Excuse 6♠ 4♠ R♥") and "4 players" in lines[0]
    marked = [line for line in lines if line.endswith("◀")]
    assert len(marked) == 1 and marked[0].startswith("Garde ")
    assert any(line.startswith("Pass ") for line in lines)
    assert "Advice: Garde (point count 60 → Garde" in repr(analysis)
    page = analysis._repr_html_()
    assert page.startswith("<table>") and page.count("<tr") == 6  # the header, pass, 4 bids
    assert '<tr style="font-weight:bold"><td style="text-align:left">Garde</td>' in page


def test_the_api_gives_the_numbers_of_the_library_on_the_same_seed():
    by_text = analyse_hand(HAND, samples=300, seed=5, **GREEDY)
    by_ids = advisor.analyse_hand([int(c) for c in parse_hand(HAND)], samples=300, seed=5, **GREEDY)
    assert by_text.to_dict() == by_ids.to_dict()


def test_five_players_name_the_card_to_call():
    analysis = analyse_hand(
        "21 18 15 9 4 1 Excuse R♥ D♥ 8♥ R♠ 3♠ C♦ 6♦ 2♣", players=5, samples=300, **GREEDY
    )
    assert repr(analysis.called) == "R♣"
    assert "Advice: Garde Contre, calling R♣" in repr(analysis)


def test_the_ecart_shows_its_candidates_and_the_advised_one():
    ecart = analyse_ecart(HAND, "3♥ 9♦ 14 R♠ 2♣ V♠", samples=300, sides=GREEDY_SIDES)
    assert repr(ecart.recommended.cards) == "(V♠ 6♠ 4♠ V♦ 9♦ 8♦)".replace(" ", ", ")
    text = repr(ecart)
    assert text.startswith("Écart for a Garde (4 players")
    (marked,) = [line for line in text.splitlines() if line.endswith("◀")]
    assert marked.startswith("V♠ 6♠ 4♠ V♦ 9♦ 8♦") and "engine" in marked
    assert "Advice: discard V♠ 6♠ 4♠ V♦ 9♦ 8♦." in text
    assert ecart._repr_html_().count("<tr") == 1 + len(ecart.candidates)


def test_the_card_to_play_from_a_partial_record_file_or_dict():
    path = ROOT / "data" / "positions" / "garde-4p-trick-10.json"
    advice = advise_play(path, samples=100)
    assert repr(advice.greedy_choice) == "19"
    assert advice.cards[0].card in parse_cards("13 14 15 16")
    assert "19 (greedy)" in repr(advice) and "Advice: play " in repr(advice)
    same = advise_play(json.loads(path.read_text(encoding="utf-8")), samples=100)
    assert same.to_dict() == advice.to_dict()


def test_a_replayed_deal_gives_its_score_sheet():
    outcome = replay(ROOT / "data" / "deals" / "garde-4p.json")
    assert outcome.scores == (282, -94, -94, -94) and outcome.made
    called = replay(str(ROOT / "data" / "deals" / "garde-5p-called-king.json")).called
    assert repr(called) == "R♥"


def test_several_records_are_loaded_then_replayed_one_by_one():
    path = ROOT / "data" / "deals" / "examples.jsonl"
    records = load_records(path)
    assert len(records) == 4
    with pytest.raises(ValueError, match="holds 4 records, not one deal record"):
        replay(path)
    assert replay(records[0]).contract == "garde"


def test_an_illegal_card_raises_the_rule_it_breaks():
    with pytest.raises(IllegalPlay):
        replay(ROOT / "data" / "deals" / "illegal-revoke-4p.json")


def test_the_package_offers_the_api_by_name_and_loads_it_only_when_asked():
    assert set(tarot_advisor.__all__) <= set(dir(tarot_advisor))
    with pytest.raises(AttributeError, match="no attribute 'advise'"):
        tarot_advisor.advise  # noqa: B018
    code = (
        "import sys, tarot_advisor.analyzer.cards\n"
        "assert 'tarot_advisor.analyzer.api' not in sys.modules\n"
        "from tarot_advisor import analyse_hand\n"
        "print(sorted(m for m in ('click', 'matplotlib') if m in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"  # the library never loads click nor matplotlib
