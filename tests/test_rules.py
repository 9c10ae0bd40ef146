"""The referee's rules (rules.md §2–§7), stated with concrete cards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarot_advisor.analyzer.cards import format_cards, parse_card, parse_cards
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.analyzer.rulebook.rules import (
    DEFENCE,
    TAKER,
    IllegalCall,
    IllegalDeal,
    IllegalDiscard,
    IllegalPlay,
    IllegalPoignee,
    card_owners,
    check_called_card,
    check_discard,
    contract_result,
    excuse_changes_side,
    excuse_exchange,
    first_lead_plays,
    half_points,
    illegal_reason,
    is_petit_sec,
    last_trick_winner,
    legal_plays,
    poignee_bonus,
    points_needed,
    trick_winner,
)

VECTORS = Path(__file__).parent / "vectors"
LEGAL_MOVES = json.loads((VECTORS / "legal_moves.json").read_text(encoding="utf-8"))


def cards(text: str) -> list[int]:
    return parse_cards(text)


def legal(hand: str, trick: str) -> set[int]:
    return set(legal_plays(cards(hand), cards(trick)))


# --- §4 Legal plays ------------------------------------------------------------------------


@pytest.mark.parametrize("case", LEGAL_MOVES["cases"], ids=lambda c: f"{c['trick']!r}")
def test_legal_moves_vectors(case: dict) -> None:
    """tests/vectors/legal_moves.json — provenance: its "about" line (cross-checked against two
    independent engines' tests)."""
    assert legal(case["hand"], case["trick"]) == set(cards(case["legal"]))


def test_vectors_keep_their_provenance() -> None:
    assert "Cross-checked" in LEGAL_MOVES["about"]


def test_leader_may_play_anything() -> None:
    assert legal("R♥ 3♠ 5 Excuse", "") == set(cards("R♥ 3♠ 5 Excuse"))


def test_follow_the_suit_led() -> None:
    assert legal("R♥ 3♥ 5 2♠", "10♥") == set(cards("R♥ 3♥"))


def test_nobody_is_obliged_to_beat_a_suited_card() -> None:
    assert legal("3♥ D♥", "R♥") == set(cards("3♥ D♥"))


def test_without_the_suit_trump() -> None:
    assert legal("5 12 2♠", "10♥") == set(cards("5 12"))


def test_overtrump_when_trumping() -> None:
    assert legal("5 12 2♠", "10♥ 8") == set(cards("12"))


def test_undertrump_when_unable_to_overtrump() -> None:
    assert legal("5 12 2♠", "10♥ 15") == set(cards("5 12"))


def test_overtrump_even_the_partners_trump() -> None:
    # Beating the highest trump is owed whoever played it.
    assert legal("9 18 3♠", "R♦ 16 2♦") == set(cards("18"))


def test_trump_led_must_be_beaten() -> None:
    assert legal("5 12 R♥", "8") == set(cards("12"))
    assert legal("5 R♥", "8") == set(cards("5"))


def test_with_neither_suit_nor_trump_play_anything() -> None:
    assert legal("R♠ 2♣", "10♥") == set(cards("R♠ 2♣"))
    assert legal("R♠ 2♣", "8") == set(cards("R♠ 2♣"))


def test_the_excuse_is_always_legal() -> None:
    assert legal("Excuse 3♥ 5", "10♥") == set(cards("3♥ Excuse"))
    assert legal("Excuse 5 12", "10♥ 8") == set(cards("12 Excuse"))


def test_excuse_led_the_next_card_sets_the_suit() -> None:
    assert legal("3♥ 9♠ 5", "Excuse") == set(cards("3♥ 9♠ 5"))
    assert legal("3♥ 9♠ 5", "Excuse 2♥") == set(cards("3♥"))
    assert legal("3♥ 9♠ 5 7", "Excuse 6") == set(cards("7"))


def test_illegal_reason_names_the_rule() -> None:
    assert illegal_reason(cards("R♥ 3♥ 5"), cards("10♥"), parse_card("5")) == "must follow ♥"
    assert illegal_reason(cards("2♠ 5"), cards("10♥"), parse_card("2♠")) == (
        "must trump (no ♥ in hand)"
    )
    assert "must beat the 8" in illegal_reason(cards("5 12"), cards("10♥ 8"), parse_card("5"))
    assert "not in that seat's hand" in illegal_reason(cards("5"), [], parse_card("6"))
    assert illegal_reason(cards("5 12"), cards("10♥ 8"), parse_card("12")) is None


# --- §4 Who wins the trick -----------------------------------------------------------------


def winner(trick: str) -> int:
    return trick_winner(cards(trick))


def test_highest_card_of_the_suit_led_wins() -> None:
    assert winner("3♥ R♥ 10♥ 1♥") == 1
    assert winner("3♥ R♠ 2♥") == 0  # a king of another suit wins nothing
    assert winner("V♦ 10♦ C♦") == 2


def test_any_trump_beats_the_suit() -> None:
    assert winner("R♥ 1 D♥") == 1  # the Petit takes the king


def test_highest_trump_wins() -> None:
    assert winner("8 12 5 R♠") == 1


def test_the_excuse_never_wins_a_trick() -> None:
    assert winner("Excuse 3♥ 5♥") == 2
    assert winner("2♥ Excuse 1♥") == 0


# --- §5 The Excuse after the trick ---------------------------------------------------------


def test_excuse_kept_by_its_side_with_half_a_point_in_exchange() -> None:
    trick, sides = cards("R♥ Excuse 3♥ 4♥"), [TAKER, DEFENCE, DEFENCE, DEFENCE]
    assert not excuse_changes_side(last=False, chelem=False)
    assert card_owners(trick, sides, 0, changes_side=False) == [TAKER, DEFENCE, TAKER, TAKER]
    assert excuse_exchange(trick, sides, 0, changes_side=False) == TAKER


def test_no_exchange_when_the_excuses_side_wins_the_trick() -> None:
    trick, sides = cards("R♥ Excuse 3♥"), [DEFENCE, DEFENCE, TAKER]
    assert excuse_exchange(trick, sides, 0, changes_side=False) is None


def test_excuse_at_the_last_trick_changes_side() -> None:
    trick, sides = cards("R♥ Excuse 3♥"), [TAKER, DEFENCE, DEFENCE]
    assert excuse_changes_side(last=True, chelem=False)
    assert card_owners(trick, sides, 0, changes_side=True) == [TAKER, TAKER, TAKER]
    assert excuse_exchange(trick, sides, 0, changes_side=True) is None


def test_excuse_at_the_last_trick_of_a_chelem_stays() -> None:
    assert not excuse_changes_side(last=True, chelem=True)


def test_excuse_led_to_the_last_trick_by_a_side_that_won_everything_wins_it() -> None:
    trick, sides = cards("Excuse 3♥ 4♥"), [TAKER, DEFENCE, DEFENCE]
    assert last_trick_winner(trick, sides, [TAKER] * 23) == 0
    assert last_trick_winner(trick, sides, [TAKER] * 22 + [DEFENCE]) == 2


# --- §6 Counting ---------------------------------------------------------------------------


def test_points_needed_by_bouts() -> None:
    assert [points_needed(b) for b in range(4)] == [56, 51, 41, 36]


def test_juste_fait_is_a_win_by_zero() -> None:
    assert contract_result(41, 2) == (True, 0)
    assert contract_result(56, 0) == (True, 0)


def test_remaining_half_point_goes_to_the_winning_side() -> None:
    assert contract_result(40.5, 2) == (False, -1)
    assert contract_result(41.5, 2) == (True, 1)
    assert contract_result(35.5, 3) == (False, -1)
    assert contract_result(50.5, 1) == (False, -1)
    assert contract_result(60.5, 1) == (True, 10)


def test_points_come_in_halves() -> None:
    assert half_points(40.5) == 81
    with pytest.raises(ValueError, match="halves"):
        half_points(40.25)


# --- §2 Petit sec --------------------------------------------------------------------------


def test_petit_sec_is_the_petit_alone_without_the_excuse() -> None:
    assert is_petit_sec(cards("1 R♥ D♥ 3♠"))
    assert not is_petit_sec(cards("1 Excuse R♥ 3♠"))  # the Excuse protects it
    assert not is_petit_sec(cards("1 2 R♥"))
    assert not is_petit_sec(cards("2 R♥"))


# --- §3 The écart ---------------------------------------------------------------------------

# 18 cards + a chien of 6 for four players.
HAND_AND_CHIEN = cards("21 15 9 4 1 Excuse R♠ D♠ 7♠ 2♠ R♥ 10♥ 8♥ 3♥ C♦ 6♦ 5♦ R♣ V♣ 9♣ 8♣ 6♣ 4♣ 2♣")


def test_a_legal_ecart() -> None:
    check_discard(HAND_AND_CHIEN, cards("7♠ 2♠ 8♥ 3♥ 6♦ 5♦"), players=4)


@pytest.mark.parametrize(
    ("ecart", "message"),
    [
        ("R♠ 2♠ 8♥ 3♥ 6♦ 5♦", "no king"),
        ("Excuse 2♠ 8♥ 3♥ 6♦ 5♦", "no bout"),
        ("1 2♠ 8♥ 3♥ 6♦ 5♦", "no bout"),
        ("2♠ 8♥ 3♥ 6♦ 5♦", "6 different cards"),
        ("9 2♠ 8♥ 3♥ 6♦ 5♦", "only when the hand has too few"),
        ("3♣ 2♠ 8♥ 3♥ 6♦ 5♦", "not in the taker's hand"),
    ],
)
def test_illegal_ecarts(ecart: str, message: str) -> None:
    with pytest.raises(IllegalDiscard, match=message):
        check_discard(HAND_AND_CHIEN, cards(ecart), players=4)


def test_trumps_in_the_ecart_when_forced() -> None:
    # 17 trumps, three kings and only four other cards: two trumps must go.
    pool = cards("18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 R♠ R♥ R♦ 3♠ 4♠ 5♥ 6♦")
    check_discard(pool, cards("3♠ 4♠ 5♥ 6♦ 2 3"), players=4)
    with pytest.raises(IllegalDiscard):  # 6♦ must go before a third trump
        check_discard(pool, cards("3♠ 4♠ 5♥ 2 3 4"), players=4)


# --- §7 Poignée -------------------------------------------------------------------------------


def test_poignee_size_from_the_count_shown() -> None:
    hand = cards("21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 R♥ 2♠ 3♠")
    assert poignee_bonus(cards("21 20 19 18 17 16 15 14 13 12"), hand, 4) == 20
    assert poignee_bonus(cards("21 20 19 18 17 16 15 14 13 12 11 10 9"), hand, 4) == 30
    assert poignee_bonus(hand[:15], hand, 4) == 40


def test_poignee_thresholds_by_players() -> None:
    hand = cards("21 20 19 18 17 16 15 14 13 12 11 10 9 R♥")
    assert poignee_bonus(cards("21 20 19 18 17 16 15 14 13 12 11 10 9"), hand, 3) == 20
    assert poignee_bonus(cards("21 20 19 18 17 16 15 14"), hand, 5) == 20
    with pytest.raises(IllegalPoignee, match="needs 10"):
        poignee_bonus(cards("21 20 19 18 17 16 15 14 13"), hand, 4)


def test_excuse_stands_for_a_trump_only_without_other_trumps() -> None:
    nine_and_excuse = cards("21 20 19 18 17 16 15 14 13 Excuse R♥ D♥")
    assert poignee_bonus(nine_and_excuse[:10], nine_and_excuse, 4) == 20
    ten_and_excuse = cards("21 20 19 18 17 16 15 14 13 2 Excuse R♥")
    with pytest.raises(IllegalPoignee, match=r"no other trump.*2 not shown"):
        poignee_bonus(cards("21 20 19 18 17 16 15 14 13 Excuse"), ten_and_excuse, 4)


def test_poignee_cards_must_be_trumps_in_the_hand() -> None:
    hand = cards("21 20 19 18 17 16 15 14 13 12 R♥")
    with pytest.raises(IllegalPoignee, match="not in the hand"):
        poignee_bonus(cards("21 20 19 18 17 16 15 14 13 11"), hand, 4)
    with pytest.raises(IllegalPoignee, match="only trumps"):
        poignee_bonus(cards("21 20 19 18 17 16 15 14 13 R♥"), hand, 4)


# --- §3 Five players: the call ---------------------------------------------------------------


def test_a_king_may_always_be_called() -> None:
    check_called_card(parse_card("R♥"), cards("R♥ 3♠"))
    check_called_card(parse_card("R♥"), cards("3♠"))


def test_a_dame_only_with_the_four_kings() -> None:
    with pytest.raises(IllegalCall, match="R♠"):
        check_called_card(parse_card("D♥"), cards("R♥ R♦ R♣"))
    check_called_card(parse_card("D♥"), cards("R♠ R♥ R♦ R♣"))
    with pytest.raises(IllegalCall, match="D♠"):
        check_called_card(parse_card("C♥"), cards("R♠ R♥ R♦ R♣ D♥ D♦ D♣"))


def test_first_trick_not_led_in_the_called_suit() -> None:
    called = parse_card("R♥")
    assert set(first_lead_plays(cards("3♥ 8♥ 5 2♠"), called)) == set(cards("5 2♠"))
    # Holding the called king (playing alone), the taker may lead it.
    assert set(first_lead_plays(cards("R♥ 3♥ 2♠"), called)) == set(cards("R♥ 2♠"))


# --- Whole deals, refereed card by card --------------------------------------------------------


def play_out(game: Game, plans: dict[int, str]) -> Game:
    """Seats in ``plans`` play their listed cards in order; the others play their lowest legal
    card (by id, so the Excuse, id 77, only when it is their last card)."""
    queues = {seat: cards(text) for seat, text in plans.items()}
    while not game.is_over:
        seat = game.to_play
        game.play(queues[seat].pop(0) if seat in queues else min(game.legal_plays()))
    return game


SPADES_AND_LOW_HEARTS = "D♠ C♠ V♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥"
ALL_TRUMPS = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1"
TRUMPS_DOWN_TO_2 = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2"
HIGH_CLUBS = "R♣ D♣ C♣ V♣ 10♣ 9♣"
DIAMONDS = "R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ 1♦"
LOW_CLUBS = "8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣"


def three_player_garde_sans(hands: list[str], chien: str, **options) -> Game:
    return Game(3, [cards(h) for h in hands], 0, "garde_sans", chien=cards(chien), **options)


def test_announced_chelem_with_the_excuse_led_to_the_last_trick() -> None:
    """The taker holds every trump and the Excuse, leads them all, the Petit at trick 23 and the
    Excuse last: the Excuse wins trick 24 (chelem) and the Petit counts au bout in trick 23."""
    game = three_player_garde_sans(
        [f"{ALL_TRUMPS} Excuse R♠ R♥", SPADES_AND_LOW_HEARTS, f"D♥ C♥ {DIAMONDS} {LOW_CLUBS}"],
        HIGH_CLUBS,
        chelem_announced=True,
    )
    play_out(game, {0: f"{TRUMPS_DOWN_TO_2} R♠ R♥ 1 Excuse"})
    assert game.tricks[-1].winner == 0
    outcome = game.outcome()
    assert (outcome.taker_points, outcome.bouts, outcome.difference) == (91, 3, 55)
    assert outcome.chelem == TAKER
    assert outcome.petit_au_bout == TAKER
    # (25 + 55) × 4 + 10 × 4 + 400
    assert outcome.per_defender == 760
    assert outcome.scores == (1520, -760, -760)


def test_taker_chelem_with_the_defences_excuse_leaves_87() -> None:
    """A defender keeps the Excuse to the last trick: outside a chelem it would change side, but
    the taker won every trick, so it stays with the defence (4.5 − 0.5): the taker has 87."""
    game = three_player_garde_sans(
        [f"{ALL_TRUMPS} R♠ R♥ D♥", SPADES_AND_LOW_HEARTS, f"Excuse C♥ {DIAMONDS} {LOW_CLUBS}"],
        HIGH_CLUBS,
    )
    play_out(game, {0: f"{TRUMPS_DOWN_TO_2} R♠ R♥ D♥ 1"})
    assert game.tricks[-1].cards[2] == parse_card("Excuse")
    outcome = game.outcome()
    assert (outcome.taker_points, outcome.defence_points, outcome.bouts) == (87, 4, 2)
    assert (outcome.chelem, outcome.chelem_announced, outcome.chelem_bonus) == (TAKER, False, 200)
    assert outcome.petit_au_bout == TAKER
    # (25 + 46) × 4 + 10 × 4 + 200
    assert outcome.per_defender == 524


def test_excuse_played_to_the_last_trick_changes_side() -> None:
    """The defence won trick 1 (3♦ over 2♦), so no chelem: the defender's Excuse played to the
    last trick goes to the taker, who wins it with the Petit."""
    game = three_player_garde_sans(
        [
            f"{ALL_TRUMPS} R♠ R♥ 2♦",
            SPADES_AND_LOW_HEARTS,
            "Excuse D♥ C♥ R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 9♣ " + LOW_CLUBS,
        ],
        "1♦ R♣ D♣ C♣ V♣ 10♣",
    )
    play_out(game, {0: f"2♦ R♥ {TRUMPS_DOWN_TO_2} R♠ 1"})
    assert format_cards(game.tricks[0].cards, sort=False) == "2♦ 1♠ 3♦"
    assert game.tricks[0].winner == 2
    outcome = game.outcome()
    # The defence has 2♦ 1♠ 3♦ = 1.5; the taker the rest, the Excuse included: 89.5 and 3 bouts.
    assert (outcome.taker_points, outcome.bouts, outcome.chelem) == (89.5, 3, None)
    # 89.5 − 36 = 53.5, the half point to the winner: made by 54; (25 + 54) × 4 + 10 × 4.
    assert (outcome.made, outcome.difference, outcome.per_defender) == (True, 54, 356)
    assert outcome.scores == (712, -356, -356)


def test_chelem_by_the_defence() -> None:
    """Seat 1 takes trick 1 with R♠, then leads every trump, R♥, the Petit and the Excuse."""
    game = three_player_garde_sans(
        [
            "10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ 4♦ 3♦ 2♦ 1♦",
            f"{ALL_TRUMPS} Excuse R♠ R♥",
            "D♠ C♠ V♠ D♥ C♥ V♥ R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ " + LOW_CLUBS,
        ],
        "R♣ D♣ C♣ V♣ 10♣ 9♣",
    )
    play_out(game, {1: f"R♠ {TRUMPS_DOWN_TO_2} R♥ 1 Excuse"})
    outcome = game.outcome()
    # The taker only has the chien, which counts for him at Garde Sans: 4.5+3.5+2.5+1.5+0.5+0.5.
    assert (outcome.taker_points, outcome.bouts, outcome.difference) == (13, 0, -43)
    assert (outcome.chelem, outcome.petit_au_bout) == (DEFENCE, DEFENCE)
    # −(25 + 43) × 4 − 10 × 4 − 200
    assert outcome.per_defender == -512
    assert outcome.scores == (-1024, 512, 512)


def test_an_illegal_card_names_trick_seat_card_and_rule() -> None:
    game = three_player_garde_sans(
        [f"{ALL_TRUMPS} R♠ R♥ D♥", SPADES_AND_LOW_HEARTS, f"Excuse C♥ {DIAMONDS} {LOW_CLUBS}"],
        HIGH_CLUBS,
    )
    game.play(parse_card("R♥"))
    game.play(parse_card("3♥"))
    with pytest.raises(IllegalPlay, match=r"trick 1, seat 2 played 5♦: must follow ♥") as caught:
        game.play(parse_card("5♦"))
    assert (caught.value.trick, caught.value.seat, caught.value.card) == (1, 2, parse_card("5♦"))
    assert game.to_play == 2  # the refused card changed nothing
    with pytest.raises(IllegalPlay, match="not in that seat's hand"):
        game.play(parse_card("D♥"))


def test_announced_chelem_gives_the_first_lead_to_the_taker() -> None:
    hands = [f"{ALL_TRUMPS} R♠ R♥ D♥", SPADES_AND_LOW_HEARTS, f"Excuse C♥ {DIAMONDS} {LOW_CLUBS}"]
    game = Game(
        3,
        [cards(h) for h in hands[1:] + hands[:1]],
        2,
        "garde_sans",
        chien=cards(HIGH_CLUBS),
        chelem_announced=True,
    )
    assert game.to_play == 2
    with pytest.raises(IllegalDeal, match="first lead to the taker"):
        Game(
            3,
            [cards(h) for h in hands],
            1,
            "garde_sans",
            chien=cards(HIGH_CLUBS),
            chelem_announced=True,
            first_leader=0,
        )


def test_petit_sec_voids_the_deal() -> None:
    hands = [f"{ALL_TRUMPS} R♠ R♥ D♥", SPADES_AND_LOW_HEARTS, f"Excuse C♥ {DIAMONDS} {LOW_CLUBS}"]
    hands[0] = hands[0].replace(" 1 ", " Excuse ")
    hands[2] = hands[2].replace("Excuse", "1")
    with pytest.raises(IllegalDeal, match="seat 2 holds the Petit sec"):
        three_player_garde_sans(hands, HIGH_CLUBS)
