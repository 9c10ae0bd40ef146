"""The 78 cards, their points and the notation (rules.md §1, design.md "Card notation")."""

from __future__ import annotations

import pytest

from tarot_advisor.analyzer.cards import (
    EXCUSE,
    IS_BOUT,
    IS_KING,
    IS_TRUMP,
    PETIT,
    POINTS2,
    TWENTY_ONE,
    CardError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_hand,
    sort_cards,
)


def test_the_deck_holds_91_points() -> None:
    assert int(POINTS2.sum()) == 2 * 91


def test_card_points() -> None:
    def points(text: str) -> float:
        return POINTS2[parse_card(text)] / 2

    assert [points(t) for t in ("R♠", "D♥", "C♦", "V♣")] == [4.5, 3.5, 2.5, 1.5]
    assert [points(t) for t in ("21", "1", "Excuse")] == [4.5, 4.5, 4.5]
    assert [points(t) for t in ("10♠", "1♥", "12", "2")] == [0.5, 0.5, 0.5, 0.5]


def test_the_three_bouts_the_four_kings_the_21_trumps() -> None:
    assert sorted(int(c) for c in IS_BOUT.nonzero()[0]) == [PETIT, TWENTY_ONE, EXCUSE]
    assert format_cards(IS_KING.nonzero()[0]) == "R♠ R♥ R♦ R♣"
    assert IS_TRUMP.sum() == 21 and not IS_TRUMP[EXCUSE]


@pytest.mark.parametrize(
    ("tokens", "card"),
    [
        (["R♠", "Rs", "rS", "R♤"], "R♠"),
        (["10♥", "10h", "10H"], "10♥"),
        (["1c", "1♣"], "1♣"),
        (["Cd", "C♦"], "C♦"),
        (["Vs", "V♠"], "V♠"),
        (["21", "XXI", "xxi"], "21"),
        (["1", "I"], "1"),
        (["14", "XIV"], "14"),
        (["9", "IX"], "9"),
        (["E", "Ex", "Exc", "Excuse", "★", "*"], "Excuse"),
    ],
)
def test_every_spelling_names_the_same_card(tokens: list[str], card: str) -> None:
    assert {format_card(parse_card(token)) for token in tokens} == {card}


def test_a_lone_v_is_refused_as_ambiguous_and_a_v_with_a_suit_is_a_valet() -> None:
    # "V" could be a valet whose suit was forgotten or trump 5 in Roman numerals: never guess.
    with pytest.raises(CardError, match="'V' is ambiguous"):
        parse_card("V")
    assert format_card(parse_card("VH")) == "V♥"
    assert format_card(parse_card("IV")) == "4"


@pytest.mark.parametrize(
    ("token", "card"),
    [("R♥\ufe0f", "R♥"), ("10♣\ufe0e", "10♣"), ("\ufeffExcuse", "Excuse"), ("R❤", "R♥")],
)
def test_invisible_characters_phones_type_are_ignored(token: str, card: str) -> None:
    # R♥️ as a phone types it: R, ♥, then the emoji variation selector U+FE0F.
    assert format_card(parse_card(token)) == card


@pytest.mark.parametrize("token", ["²", "١", "1" * 5000, "\x00", "R♥" * 100])
def test_odd_text_is_refused_in_one_short_sentence(token: str) -> None:
    with pytest.raises(CardError, match="is not a card") as error:
        parse_card(token)
    assert len(str(error.value)) < 120


@pytest.mark.parametrize("token", ["22", "0", "11♠", "Z♥", "R", "XXII", "♠"])
def test_a_bad_token_is_named(token: str) -> None:
    with pytest.raises(CardError, match=f"'{token}' is not a card"):
        parse_card(token)


def test_a_repeated_card_is_refused() -> None:
    with pytest.raises(CardError, match=r"^R♥ appears twice \('Rh'\)$"):
        parse_cards("R♥ 3♠ Rh")
    with pytest.raises(CardError, match=r"^R♥ appears twice$"):  # written as shown: no echo
        parse_cards("R♥ 3♠ R♥")


def test_tokens_separated_by_spaces_or_commas() -> None:
    assert parse_cards("R♥, 3♠,21  Excuse") == [parse_card(t) for t in ("R♥", "3♠", "21", "E")]


def test_a_hand_is_sorted_trumps_excuse_then_suits() -> None:
    text = "3♣ R♥ 1 Excuse 21 D♠ 10♦ 2♠ 7 V♥ C♣ 4♦ 6♠ 9♥ 8♣ 5 12 D♦"
    assert format_cards(parse_hand(text)) == (
        "21 12 7 5 1 Excuse D♠ 6♠ 2♠ R♥ V♥ 9♥ D♦ 10♦ 4♦ C♣ 8♣ 3♣"
    )
    assert sort_cards(parse_hand(text)) == parse_hand(text)


def test_a_hand_has_the_right_number_of_cards() -> None:
    with pytest.raises(CardError, match="a 4-player hand has 18 cards, but 2 were given"):
        parse_hand("R♥ 3♠")
    assert len(parse_hand(" ".join(format_card(c) for c in range(24)), players=3)) == 24


def test_notation_round_trip_for_every_card() -> None:
    assert [parse_card(format_card(card)) for card in range(78)] == list(range(78))
