"""Partial records: what a player at the table knows, and the states no deal can reach."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import IS_TRUMP, format_cards, parse_cards
from tarot_advisor.analyzer.game import hand_size
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.rulebook.record import record_of_game
from tarot_advisor.analyzer.search.position import (
    PositionError,
    constraints,
    no_petit_sec,
    read_position,
)
from tarot_advisor.analyzer.search.worlds import sample

DEALS = Path(__file__).parent.parent / "data" / "deals"


def partial(record: dict, seats: list[tuple[int, ...]], cards: int, seat: int) -> dict:
    """The partial record of ``record`` after ``cards`` cards, as ``seat`` sees it."""
    n = record["players"]
    tricks = [list(trick) for trick in record["tricks"]]
    flat = [
        (c, s)
        for trick, order in zip(tricks, seats, strict=True)
        for c, s in zip(trick, order, strict=True)
    ]
    held = [card for card, who in flat[cards:] if who == seat]
    if seat != record["taker"] and record["discard"]:
        # The others know the trumps shown from the écart (rules.md §3), nothing else of it.
        shown = [card for card in record["discard"] if IS_TRUMP[parse_cards(card)[0]]]
        record = {**record, "discard": shown or None}
    data = {key: value for key, value in record.items() if key != "result"}
    data["tricks"] = [
        tricks[t][: max(0, min(n, cards - n * t))] for t in range((cards + n - 1) // n)
    ]
    if record["contract"] in ("garde_sans", "garde_contre"):
        data.pop("chien")
    data["seat"], data["hand"] = seat, held
    return data


def record_seats(record: dict) -> list[tuple[int, ...]]:
    from tarot_advisor.analyzer.rulebook.record import parse_record, seats_of_tricks

    parsed = parse_record(record)
    return seats_of_tricks(parsed.tricks, parsed.first_leader, parsed.players)


GARDE = json.loads((DEALS / "garde-4p.json").read_text())


def test_the_real_deal_always_fits_what_the_player_knows(random_game):
    """Cut random refereed deals anywhere: the hands really held are always a consistent
    world (every card within its holder's ``may``, the ``must`` cards held, the counts right).
    What is certain, that is: these random takers may call their own king, which the likely
    inference of the worlds (the taker lacks the card he called) rules out."""
    rng = random.Random(2)
    checked = 0
    for _ in range(60):
        players = rng.choice((3, 4, 5))
        game = random_game(rng, players)
        record = record_of_game(game, with_result=False)
        seats = [trick.seats for trick in game.tricks]
        cards = rng.randrange(0, players * hand_size(players))
        seat = rng.randrange(players)
        position = read_position(json.loads(json.dumps(partial(record, seats, cards, seat))))
        c = constraints(position, likely=False)
        flat = [(card, s) for t in game.tricks for card, s in zip(t.cards, t.seats, strict=True)]
        truth = [{card for card, s in flat[cards:] if s == p} for p in range(players)]
        aside = set(game.discard) if game.contract.takes_chien else set(game.chien)
        truth.append(aside)
        for p, cards_held in enumerate(truth):
            may = set(bb.to_cards(c.may_lo[0, p], c.may_hi[0, p]))
            must = set(bb.to_cards(c.must_lo[0, p], c.must_hi[0, p]))
            assert must <= cards_held <= may, (p, format_cards(cards_held - may))
            assert len(cards_held) == c.count[0, p]
        checked += 1
    assert checked > 40


HAND_AFTER_R_HEARTS = [
    "21",
    "20",
    "19",
    "Excuse",
    "D♥",
    "C♥",
    "V♥",
    "10♥",
    "9♥",
    "8♥",
    "7♥",
    "R♠",
    "D♠",
    "3♠",
    "R♣",
    "D♣",
    "C♣",
]
AFTER_ONE_TRICK = {
    "players": 4,
    "taker": 0,
    "contract": "garde_sans",
    "first_leader": 0,
    # Seat 0 leads the R♥; seat 1 trumps with the 18 (no ♥), seat 2 plays the 5 under it (no ♥
    # and no trump above the 18), seat 3 discards the 2♣ (no ♥, no trumps).
    "tricks": [["R♥", "18", "5", "2♣"]],
    "seat": 0,
    "hand": HAND_AFTER_R_HEARTS,
}


def test_voids_no_trumps_and_trump_caps_are_read_from_the_play():
    position = read_position(AFTER_ONE_TRICK)
    assert position.to_play == 1  # the 18 won the trick
    hearts, trumps = 1, 4
    assert position.void[1:] == (
        frozenset({hearts}),
        frozenset({hearts}),
        frozenset({hearts, trumps}),
    )
    (eighteen,) = parse_cards("18")
    assert position.cap[2] == eighteen
    lo, hi = sample(constraints(position), 300, np.random.default_rng(1))
    for k in range(300):
        seat2 = bb.to_cards(lo[0, k, 2], hi[0, k, 2])
        seat3 = bb.to_cards(lo[0, k, 3], hi[0, k, 3])
        assert not any(IS_TRUMP[c] and c > eighteen for c in seat2)
        assert not any(IS_TRUMP[c] for c in seat3)
        assert not any(14 <= c < 28 for c in seat2 + seat3)  # no ♥
    # The six hearts left can only be in the chien.
    assert all(set(bb.to_cards(lo[0, k, 4], hi[0, k, 4])) == set(range(14, 20)) for k in range(300))


def test_a_poignee_and_the_chien_shown_stay_with_their_holders():
    # From the 4-player Garde example, after 13 cards, as seat 1 sees it: the taker's poignée
    # and the chien's king, dame and 14 can only be in the taker's hand.
    position = read_position(partial(GARDE, record_seats(GARDE), 13, 1))
    lo, hi = sample(constraints(position), 200, np.random.default_rng(2), no_petit_sec(position))
    taker = [set(bb.to_cards(lo[0, k, 0], hi[0, k, 0])) for k in range(200)]
    shown = set(parse_cards("21 20 19 16 15 14 13 10 7 4"))
    assert all(shown <= hand for hand in taker)
    ecart = [set(bb.to_cards(lo[0, k, 4], hi[0, k, 4])) for k in range(200)]
    assert all(not hand & set(parse_cards("R♣ 14")) for hand in ecart)
    # No trump was shown from the écart, and none shown fits: the écart holds none.
    assert not position.ecart_trumps_unknown
    assert not any(IS_TRUMP[card] for hand in ecart for card in hand)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("tricks", [["R♥", "18", "5", "R♥"]], "tricks, trick 1: R♥ appears twice"),
        ("tricks", [["R♥", "21", "5", "2♣"]], "21, but it is already in your hand"),
        ("tricks", [["R♥", "18"], ["2♦"]], "trick 1: 4 cards expected, found 2"),
        ("hand", HAND_AFTER_R_HEARTS[:-1], "hand: after playing 1 cards you hold 17"),
        ("hand", [*HAND_AFTER_R_HEARTS[:-1], "21"], "hand: 21 appears twice"),
        ("chien", ["4♠", "5♠", "6♠", "7♠", "8♠", "9♠"], "in a Garde Sans nobody sees the chien"),
        ("discard", ["4♠", "5♠", "6♠", "7♠", "8♠", "9♠"], "a Garde Sans has no écart"),
        ("seat", 7, "seat: expected a whole number from 0 to 3"),
    ],
)
def test_impossible_states_are_named_in_one_sentence(key, value, message):
    data = {**AFTER_ONE_TRICK, key: value}
    with pytest.raises(PositionError, match=message):
        read_position(data)


@pytest.mark.parametrize(
    ("players", "called", "message"),
    [
        (5, None, "called: with 5 players the taker calls a card; give it"),
        (4, "R♠", "called: only with 5 players is a card called"),
        (5, "1", "called: the called card must be a king, or a face card below, not 1"),
    ],
)
def test_a_card_is_called_with_five_players_and_only_then(players, called, message):
    data = {**AFTER_ONE_TRICK, "players": players, "called": called}
    with pytest.raises(PositionError, match=message):
        read_position(data)


# The 4-player Garde of a random deal, as seat 1 sees it after 21 cards; the taker discarded
# the 16, the 6 and the 4 (shown to all) with the ♠V, 4 and 3.
ECART_TRUMPS = {
    "players": 4,
    "taker": 0,
    "contract": "garde",
    "first_leader": 0,
    "tricks": [
        ["13", "12", "7", "C♥"],
        ["5", "10", "5♣", "D♥"],
        ["1♠", "D♠", "6♠", "R♠"],
        ["2", "C♦", "8♦", "6♣"],
        ["20", "8♣", "1♣", "2♣"],
        ["14"],
    ],
    "seat": 1,
    "hand": ["5♠", "7♠", "10♠", "5♥", "9♥", "10♥", "1♦", "2♦", "6♦", "10♦", "R♦", "4♣", "V♣"],
}


def test_a_defender_who_leaves_out_the_ecarts_trumps_may_find_them_there():
    # Given, the three trumps are in the écart in every world. Left out (or given as none),
    # none shown would fit no deal (nobody else can hold them all), so which ones were shown
    # is taken as unknown.
    shown = read_position({**ECART_TRUMPS, "discard": ["16", "6", "4"]})
    lo, hi = sample(constraints(shown), 50, np.random.default_rng(1), no_petit_sec(shown))
    trumps = set(parse_cards("16 6 4"))
    assert all(trumps <= set(bb.to_cards(lo[0, k, 4], hi[0, k, 4])) for k in range(50))
    # Left out, they are unknown: some worlds put them in the écart, some in the hands, and no
    # bout is ever discarded.
    unknown = read_position(ECART_TRUMPS)
    lo, hi = sample(constraints(unknown), 200, np.random.default_rng(1), no_petit_sec(unknown))
    ecarts = [set(bb.to_cards(lo[0, k, 4], hi[0, k, 4])) for k in range(200)]
    assert any(trumps & ecart for ecart in ecarts)
    assert not all(trumps <= ecart for ecart in ecarts)
    assert not any(ecart & set(parse_cards("21 1 Excuse")) for ecart in ecarts)
    assert read_position({**ECART_TRUMPS, "discard": []}).ecart_trumps_unknown


def test_a_revoke_already_in_the_record_is_refused():
    data = {**AFTER_ONE_TRICK, "tricks": [["R♥", "12", "5", "2♣"], ["2♦", "1♦", "11"]]}
    # Seat 3 discarded the 2♣ on a ♥ lead (no trumps), then trumps with the 11.
    with pytest.raises(PositionError, match="revoke: it had shown it held no trumps in trick 1"):
        read_position(data)
    data["tricks"] = [["R♥", "12", "5", "2♣"], ["2♦", "1♦", "20"]]
    with pytest.raises(PositionError, match="20, but it is already in your hand"):
        read_position(data)
    # Seat 2 undertrumped the 12 with the 5: it may trump ♠ later, but not above the 12.
    data["tricks"] = [["R♥", "12", "5", "2♣"], ["2♠", "4"]]
    read_position(data)
    data["tricks"] = [["R♥", "12", "5", "2♣"], ["2♠", "17"]]
    with pytest.raises(PositionError, match="no trump above the 12"):
        read_position(data)
    data["tricks"] = [["R♥", "12", "5", "2♣"], ["2♠", "2♥"]]
    with pytest.raises(PositionError, match="held no ♥ in trick 1"):
        read_position(data)


def test_the_users_own_cards_are_held_to_the_rules():
    data = {
        "players": 4,
        "taker": 0,
        "contract": "garde_sans",
        "first_leader": 1,
        # Seat 0 discards 3♣ on a ♥ lead although it holds the D♥.
        "tricks": [["R♥", "2♥", "1♥", "3♣"]],
        "seat": 0,
        "hand": [
            "21",
            "20",
            "19",
            "Excuse",
            "R♠",
            "D♠",
            "3♠",
            "2♠",
            "1♠",
            "D♦",
            "C♦",
            "4♦",
            "3♦",
            "R♣",
            "D♣",
            "C♣",
            "D♥",
        ],
    }
    with pytest.raises(PositionError, match="must follow ♥"):
        read_position(data)
