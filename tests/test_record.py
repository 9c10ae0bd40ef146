"""The deal record (design.md): the examples of data/deals scored by hand, reading, checking,
writing, and the errors that name what is wrong."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import EXCUSE, IS_KING, POINTS2, format_cards, parse_cards
from tarot_advisor.analyzer.game import Side, hand_size
from tarot_advisor.analyzer.rulebook.record import (
    RecordError,
    RecordSyntaxError,
    dumps_records,
    load_records,
    make_record,
    record_of_game,
    replay,
    replay_game,
)
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.analyzer.rulebook.rules import (
    IllegalCall,
    IllegalDeal,
    IllegalDiscard,
    IllegalPlay,
    IllegalPoignee,
    is_petit_sec,
)

DEALS = Path(__file__).parent.parent / "data" / "deals"
EXAMPLES = [
    "garde-4p.json",
    "prise-3p-half-point.json",
    "garde-5p-called-king.json",
    "garde-sans-4p-petit-au-bout.json",
]


def example(name: str) -> dict:
    return json.loads((DEALS / name).read_text(encoding="utf-8"))


def taker_side_tricks(name: str) -> list[int]:
    game = replay_game(example(name))
    return [t.number for t in game.tricks if game.side(t.winner) == Side.TAKER]


def taker_side_cards(game: Game) -> list[int]:
    """Every card of the tricks the taker's side won, with the écart or the chien if it counts."""
    won = [c for t in game.tricks if game.side(t.winner) == Side.TAKER for c in t.cards]
    aside = game.discard if game.contract.takes_chien else game.chien
    return won + list(aside) if game.contract.chien_to_taker else won


def half_points(cards: list[int]) -> int:
    return sum(int(POINTS2[c]) for c in cards)


# --- the examples, checked by hand ------------------------------------------------------------


def test_garde_4p_with_a_simple_poignee() -> None:
    """Seat 0 takes at Garde, shows ten trumps, and wins tricks 3, 5, 7, 8, 10 and 13 to 18.

    The taker's cards (tricks won, écart) hold the 21 and the Petit (taken from seat 1 in trick
    15), R♠ R♦ R♣, D♥, C♠, V♥ V♦ V♣ and 39 small cards: 5 × 4.5 + 3.5 + 2.5 + 3 × 1.5 + 39 × 0.5
    = 52.5. In trick 15 seat 3 played the Excuse: the defence keeps it and gives the taker 0.5.
    53 with 2 bouts against 41: made by 12. S = (25 + 12) × 2 + 20 = 94, taker 3 × 94 = 282.
    """
    assert taker_side_tricks("garde-4p.json") == [3, 5, 7, 8, 10, 13, 14, 15, 16, 17, 18]
    game = replay_game(example("garde-4p.json"))
    taker_cards = [c for c in taker_side_cards(game) if c != EXCUSE]  # the defence's Excuse
    assert len(taker_cards) == 49
    assert half_points(taker_cards) == 5 * 9 + 7 + 5 + 3 * 3 + 39 == 105
    outcome = replay(example("garde-4p.json"))
    assert (outcome.taker_points, outcome.bouts, outcome.needed) == (53, 2, 41)
    assert (outcome.made, outcome.difference, outcome.poignee_bonus) == (True, 12, 20)
    assert outcome.per_defender == (25 + 12) * 2 + 20 == 94
    assert outcome.scores == (282, -94, -94, -94)


def test_prise_3p_ending_on_a_half_point() -> None:
    """Seat 0 takes at Prise and wins tricks 2, 4, 6, 8, 11, 15, 18, 23, 24.

    Cards: R♠ R♣, D♠ D♥ D♣, C♥ C♦, V♥, 23 small cards, the Petit (seat 1's, trick 4) and the
    Excuse, which seat 1 played to the last trick won by the taker: it changes side.
    (2 × 9 + 3 × 7 + 2 × 5 + 3 + 23 + 9 + 9) / 2 = 46.5 with 2 bouts (Petit, Excuse) against 41.
    Made by 5.5: the half point goes to the winning side, made by 6. S = 25 + 6 = 31, taker 62.
    """
    assert taker_side_tricks("prise-3p-half-point.json") == [2, 4, 6, 8, 11, 15, 18, 23, 24]
    game = replay_game(example("prise-3p-half-point.json"))
    assert format_cards(game.tricks[-1].cards, sort=False) == "C♦ Excuse R♣"
    assert game.tricks[-1].seats[1] == 1  # a defender's Excuse
    assert half_points(taker_side_cards(game)) == 2 * 9 + 3 * 7 + 2 * 5 + 3 + 23 + 9 + 9 == 93
    outcome = replay(example("prise-3p-half-point.json"))
    assert (outcome.taker_points, outcome.defence_points, outcome.bouts) == (46.5, 44.5, 2)
    assert (outcome.made, outcome.difference, outcome.per_defender) == (True, 6, 31)
    assert outcome.scores == (62, -31, -31)


def test_garde_5p_with_a_called_king() -> None:
    """Seat 2 takes at Garde and calls R♥; seat 4 holds it (and plays it in trick 2): partner.

    Their side wins 10 tricks and has the écart: R♠ R♥ R♣, D♠ D♥ D♦ D♣, C♠ C♦, V♠ V♦, 40 small
    cards, the Petit (saved by the partner in trick 4) and the Excuse (seat 0 plays it to the
    last trick, won by the taker: it changes side): 64.5 with 2 bouts. Made by 23.5, rounded to
    the winner: 24. S = (25 + 24) × 2 = 98;
    taker 2 × 98, partner 98, each of the three defenders −98.
    """
    assert taker_side_tricks("garde-5p-called-king.json") == [1, 2, 4, 6, 8, 9, 11, 12, 14, 15]
    game = replay_game(example("garde-5p-called-king.json"))
    assert format_cards(game.tricks[1].cards, sort=False) == "7♥ 8♥ R♥ 1♥ 2♥"
    assert game.tricks[1].seats[2] == 4
    assert half_points(taker_side_cards(game)) == 3 * 9 + 4 * 7 + 2 * 5 + 2 * 3 + 40 + 9 + 9 == 129
    outcome = replay(example("garde-5p-called-king.json"))
    assert (outcome.partner, outcome.taker_points, outcome.bouts) == (4, 64.5, 2)
    assert (outcome.made, outcome.difference, outcome.per_defender) == (True, 24, 98)
    assert outcome.scores == (-98, -98, 196, -98, 98)


def test_garde_sans_4p_lost_with_the_petit_au_bout() -> None:
    """Seat 1 takes at Garde Sans (the chien counts for the taker) and wins tricks 8, 12, 14, 16,
    18. Seat 0 leads the Petit to the last trick and the taker takes it with the 17.

    Cards: tricks and chien give 3 × 4.5 + 3.5 + 3 × 1.5 + 19 × 0.5 = 31 with 1 bout. Needed 51:
    lost by 20. S = −(25 + 20) × 4 + 10 × 4 = −140; the taker pays 3 × 140 = 420.
    """
    assert taker_side_tricks("garde-sans-4p-petit-au-bout.json") == [8, 12, 14, 16, 18]
    game = replay_game(example("garde-sans-4p-petit-au-bout.json"))
    assert format_cards(game.tricks[-1].cards, sort=False) == "1 17 R♥ 6"
    # The Petit, R♥ R♣, D♣, V♠ V♦ V♣ and 19 small cards.
    assert half_points(taker_side_cards(game)) == 3 * 9 + 7 + 3 * 3 + 19 == 62
    outcome = replay(example("garde-sans-4p-petit-au-bout.json"))
    assert (outcome.taker_points, outcome.bouts, outcome.difference) == (31, 1, -20)
    assert outcome.petit_au_bout == Side.TAKER
    assert outcome.per_defender == -(25 + 20) * 4 + 10 * 4 == -140
    assert outcome.scores == (140, -420, 140, 140)


def test_the_jsonl_example_holds_the_same_records_with_their_results() -> None:
    lines = load_records((DEALS / "examples.jsonl").read_text(encoding="utf-8"))
    assert len(lines) == len(EXAMPLES)
    for name, line in zip(EXAMPLES, lines, strict=True):
        result = line.pop("result")
        assert line == example(name)
        assert result == replay(line).as_dict()


def test_the_illegal_example_is_a_revoke_in_trick_1() -> None:
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 1 played R♥: must follow ♣"):
        replay(example("illegal-revoke-4p.json"))


# --- reading ----------------------------------------------------------------------------------


def test_load_one_document_a_list_or_json_lines() -> None:
    record = example("garde-4p.json")
    text = json.dumps(record, indent=2, ensure_ascii=False)
    assert load_records(text) == [record]
    assert load_records(json.dumps([record, record])) == [record, record]
    assert load_records("\n" + dumps_records([record, record]) + "\n\n") == [record, record]


def test_one_bad_json_line_stands_for_itself_and_the_others_are_read() -> None:
    first, bad, third = load_records('{"a": 1}\n{"a": \n{"b": 2}\n')
    assert (first, third) == ({"a": 1}, {"b": 2})
    assert isinstance(bad, RecordSyntaxError)
    assert str(bad).startswith("line 2 is not valid JSON")


def test_a_byte_order_mark_is_ignored() -> None:
    assert load_records("\ufeff" + dumps_records([{"a": 1}])) == [{"a": 1}]


def test_json_nested_100000_deep_is_one_sentence() -> None:
    with pytest.raises(RecordSyntaxError, match="nested too deeply"):
        load_records("[" * 100_000 + "]" * 100_000)


def test_unreadable_text_names_the_line() -> None:
    with pytest.raises(RecordSyntaxError, match="not valid JSON"):
        load_records('{"players": 4,\n "taker": }')
    with pytest.raises(RecordSyntaxError, match="empty"):
        load_records("  \n")


def broken(change: dict | None = None, drop: str | None = None) -> dict:
    record = copy.deepcopy(example("garde-4p.json"))
    record.update(change or {})
    if drop:
        del record[drop]
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (broken(drop="tricks"), "missing key: tricks"),
        (broken({"about": "x"}), "unknown key: about"),
        (broken({"players": 6}), "players: expected 3, 4 or 5, got 6"),
        (broken({"players": 4.0}), "players: expected 3, 4 or 5, got 4.0"),
        (broken({"players": True}), "players: expected 3, 4 or 5, got true"),
        (broken({"players": "4"}), 'players: expected 3, 4 or 5, got "4"'),
        (broken({"taker": 0.0}), "taker: expected a whole number from 0 to 3, got 0.0"),
        (broken({"tricks": {"1": []}}), "tricks: expected a list of tricks"),
        (broken({"chien": [[[[1]]]] * 100}), r"chien: expected a list of cards .*, got .{,40}$"),
        (broken({"taker": 4}), "taker: expected a whole number from 0 to 3"),
        (broken({"contract": "grande"}), "contract: 'grande' is not a contract"),
        (broken({"chien": "8♠ 3♥"}), "chien: expected a list of cards"),
        (broken({"discard": ["8♠", "3♥", "X♥", "4♣", "8♣", "9♣"]}), "discard: 'X♥' is not"),
        (broken({"tricks": []}), "tricks: a 4-player deal has 18 tricks, found 0"),
        (broken({"chelem_announced": "no"}), "chelem_announced: expected true or false"),
        (broken({"poignees": [{"seat": 0}]}), r"poignees\[0\]: expected an object"),
        (broken({"called": 27}), "called: expected a card or null"),
        ([1, 2], "a deal record is a JSON object, not list"),
    ],
)
def test_malformed_records_name_the_field(record: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_a_bad_trick_is_named_by_its_number() -> None:
    record = broken()
    record["tricks"][4] = ["7♠", "3♠", "9♠"]
    with pytest.raises(RecordError, match="tricks, trick 5: 4 cards expected, found 3"):
        replay(record)
    record["tricks"][4] = ["7♠", "3♠", "9♠", "Joker"]
    with pytest.raises(RecordError, match="tricks, trick 5: 'Joker' is not a card"):
        replay(record)


def test_every_card_once() -> None:
    record = broken()
    record["tricks"][4] = ["7♠", "3♠", "9♠", "2♠"]  # 2♠ was played in trick 3, the 3 is gone
    with pytest.raises(RecordError, match=r"2♠ is played twice \(trick 3 and trick 5\)"):
        replay(record)
    record = broken({"discard": ["8♠", "3♥", "4♥", "4♣", "8♣", "10♣"]})
    with pytest.raises(RecordError, match="discard: 10♣ was also played, in trick 1"):
        replay(record)


def test_a_garde_sans_has_no_ecart() -> None:
    record = example("garde-sans-4p-petit-au-bout.json")
    record["discard"] = record["chien"]
    with pytest.raises(RecordError, match="discard: a Garde Sans has no écart"):
        replay(record)


def test_the_ecart_when_left_out_is_what_the_taker_never_played() -> None:
    record = broken(drop="discard")
    assert replay_game(record).discard == tuple(sorted(parse_cards("8♠ 3♥ 4♥ 4♣ 8♣ 9♣")))
    assert replay(record) == replay(example("garde-4p.json"))


# --- records that break a rule -----------------------------------------------------------------


def test_an_illegal_ecart_is_refused() -> None:
    # Swap the écart's 9♣ with the R♣ the taker won trick 8 with: a king in the écart.
    record = broken({"discard": ["8♠", "3♥", "4♥", "4♣", "8♣", "R♣"]})
    record["tricks"][7] = ["9♣", "5♣", "3♣", "1♣"]
    with pytest.raises(IllegalDiscard, match="no king"):
        replay(record)


def test_a_poignee_must_come_from_the_hand() -> None:
    record = broken()
    record["poignees"][0]["cards"][-1] = "2"  # seat 3 holds the 2
    with pytest.raises(IllegalPoignee, match="2 not in the hand"):
        replay(record)


def test_five_players_first_trick_not_led_in_the_called_suit() -> None:
    """Calling R♠ (the taker's own king: alone), seat 0 may not lead 2♠ to trick 1."""
    record = example("garde-5p-called-king.json")
    record["called"] = "R♠"
    with pytest.raises(IllegalPlay, match="trick 1, seat 0 played 2♠: the first trick may not"):
        replay(record)


def test_five_players_the_record_names_the_called_card() -> None:
    record = example("garde-5p-called-king.json")
    record["called"] = None
    with pytest.raises(RecordError, match="called: with 5 players the taker calls a card; give"):
        replay(record)


def test_five_players_a_called_dame_needs_the_four_kings() -> None:
    record = example("garde-5p-called-king.json")
    record["called"] = "D♥"
    with pytest.raises(IllegalCall):
        replay(record)


def test_five_players_called_card_in_the_chien_plays_alone() -> None:
    """A king in the chien is called: the taker plays alone and takes 4 × S."""
    rng = random.Random(3)
    while True:
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [deck[15 * seat : 15 * seat + 15] for seat in range(5)]
        kings = [c for c in deck[75:] if IS_KING[c]]
        if kings and not any(is_petit_sec(hand) for hand in hands):
            break
    game = Game(5, hands, 1, "garde_sans", chien=deck[75:], called=kings[0])
    while not game.is_over:
        game.play(min(game.legal_plays()))
    outcome = game.outcome()
    assert outcome.partner is None
    s = outcome.per_defender
    assert outcome.scores == (-s, 4 * s, -s, -s, -s)


def test_hands_must_make_a_deal() -> None:
    hands = [list(range(18 * seat, 18 * seat + 18)) for seat in range(4)]
    with pytest.raises(IllegalDeal, match="once: twice 1♠ missing Excuse"):
        Game(4, hands, 0, "garde_sans", chien=[*range(72, 77), 0])
    with pytest.raises(IllegalDeal, match="seat 3 holds 17 cards"):
        Game(4, [*hands[:3], hands[3][:17]], 0, "garde_sans", chien=range(72, 78))


# --- writing ------------------------------------------------------------------------------------


def test_make_record_writes_the_notation_and_replays() -> None:
    game = replay_game(example("garde-4p.json"))
    record = make_record(
        4,
        np.int64(0),
        "garde",
        np.array([t.cards for t in game.tricks], dtype=np.uint8),
        first_leader=0,
        chien=np.array(game.chien, dtype=np.uint8),
        discard=game.discard,
        poignees=[(0, parse_cards("21 20 19 16 15 14 13 10 7 4"))],
        result={"made": True},
    )
    assert record["tricks"][0] == ["10♣", "2♣", "C♣", "D♣"]
    assert record["result"] == {"made": True}
    assert json.loads(json.dumps(record)) == record
    record.pop("result")
    assert replay(record) == replay(example("garde-4p.json"))


def test_record_of_game_carries_the_outcome() -> None:
    game = replay_game(example("prise-3p-half-point.json"))
    record = record_of_game(game)
    assert record["result"]["taker_points"] == 46.5
    assert len(record["tricks"]) == hand_size(3)
    record.pop("result")
    assert record == example("prise-3p-half-point.json")
