"""What each player knows (analyzer/playout/knowledge.py, rules.md §12), each item on a concrete
4-player position: what the knowledge model says, and a decision of the greedy that changes
because of it.

Garde Sans unless said (the taker plays the hand he was dealt); seat 0 leads the first trick.
"""

import numpy as np
import pytest
from policy_helpers import SeatScript, card_played, deal_of

from tarot_advisor.analyzer.cards import format_cards, parse_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout import knowledge
from tarot_advisor.analyzer.playout.engine import play


def cards(lo, hi) -> str:
    return format_cards(sorted(bb.to_cards(int(lo), int(hi))))


class Spy:
    """Plays like ``inner`` and keeps what the player knows at one decision: seat ``seat`` in
    trick ``trick`` (1 for the first)."""

    name = "spy"

    def __init__(self, inner, seat: int, trick: int) -> None:
        self.inner, self.seat, self.trick = inner, seat, trick
        self.known = None

    def choose(self, turn, rng):
        table = turn.table
        if table.trick == self.trick - 1 and int(table.seat[turn.position, 0]) == self.seat:
            self.known = knowledge.of(turn)
            known = self.known
            known.holds_lo, known.holds_hi, known.may_hold_lo, known.may_hold_hi  # noqa: B018 (computed while valid)
            self.positions = table.seat[:, 0].tolist()
        return self.inner.choose(turn, rng)


# --- an undertrump: no trump above the trick's best ---------------------------------------------


@pytest.mark.parametrize(
    ("first_trick", "played"),
    [("18 6 2 4", "17"), ("R♠ 4♠ 2♠ 3♠", "6")],
    ids=["the-defence-undertrumped", "nothing-shown"],
)
def test_an_undertrump_shows_no_higher_trump(first_trick, played):
    # Trick 2: seat 0 leads the 3 and the taker (seat 1) decides, 17 or 9, before seats 2 and 3.
    # When both played a low trump under the 18 in trick 1, neither holds a trump above it (they
    # would have had to overtrump): the 17 cannot be beaten and the taker wins with it. Without
    # that proof the 19, 20 or 21 may be theirs, and he gives his lowest trump.
    deal = deal_of({0: "18 3 R♠ 19 20 21", 1: "6 17 9 4♠", 2: "2 2♠", 3: "4 3♠"})
    script = dict(enumerate(first_trick.split()))
    script[0] += " 3"
    spy = Spy(SeatScript(script), seat=1, trick=2)
    playout = play(
        deal, 1, Contract.GARDE_SANS, spy, rng=np.random.default_rng(0), others_poignees=False
    )
    assert card_played(playout, seat=1, trick=2) == played
    defence_trumps = cards(0, spy.known.may_hold_hi[2, 0] & bb.TRUMPS_HI).split()
    assert ("19" in defence_trumps) == (played != "17")


# --- the chien shown in Prise and Garde, and the trumps shown from the écart ---------------------


class ForcedEcart:
    """Discards the given cards (the taker's choice among legal écarts)."""

    def __init__(self, text: str) -> None:
        self.lo, self.hi = bb.from_cards(np.array([parse_cards(text)], np.uint8))

    def choose(self, hand_lo, hand_hi, count):
        return self.lo, self.hi


def test_the_shown_chien_is_the_takers_and_the_ecarts_trumps_are_out():
    # Garde: the chien (R♣ 21 14 13 4♦ 5♦) goes to the taker, seat 1, who holds almost only
    # trumps and kings and must discard two trumps, 12 and 13, shown to all.
    taker = "R♠ R♥ R♦ 1 2 3 5 6 7 8 9 10 11 12 15 16 17 18"
    deal = deal_of({1: taker}, chien="R♣ 21 14 13 4♦ 5♦")
    spy = Spy(GreedyPolicy(), seat=2, trick=1)
    play(
        deal,
        1,
        Contract.GARDE,
        spy,
        rng=np.random.default_rng(0),
        ecart_policy=ForcedEcart("4♦ 5♦ 13 12 3♠ 3♥"),
        others_poignees=False,
        taker_poignee=False,
    )
    known = spy.known
    row = {seat: row for row, seat in enumerate(spy.positions)}
    # The defender knows the taker surely holds the chien's king and its trumps not discarded...
    assert cards(known.holds_lo[row[1], 0], known.holds_hi[row[1], 0]) == "21 14 R♣"
    # ...that no other defender may hold any chien card, nor the écart's trumps...
    partner = known.may_hold_lo[row[3], 0], known.may_hold_hi[row[3], 0]
    for card in ("R♣", "21", "14", "4♦", "13", "12"):
        assert card not in cards(*partner).split()
    # ...but that the taker may still hold the chien's 4♦ (or have discarded it).
    assert "4♦" in cards(known.may_hold_lo[row[1], 0], known.may_hold_hi[row[1], 0]).split()


# --- poignées: public from their holder's first card --------------------------------------------


def test_a_poignee_is_known_from_its_holders_first_card():
    # Seat 1 (the taker) shows ten trumps. Seat 0, leading trick 1, has not seen them yet; seat 2
    # has, and knows they are his and nobody else's.
    taker = "1 3 6 8 11 12 16 18 19 21 R♥ 9♥ 5♥ D♦ 4♦ 9♣ 6♣ 3♠"
    deal = deal_of({1: taker})
    before, after = Spy(GreedyPolicy(), seat=0, trick=1), Spy(GreedyPolicy(), seat=2, trick=1)
    for spy in (before, after):
        play(deal, 1, Contract.GARDE_SANS, spy, rng=np.random.default_rng(0), others_poignees=False)
    assert cards(0, before.known.holds_hi[1, 0]) == ""
    assert cards(0, after.known.holds_hi[1, 0]).split() == [
        "21",
        "19",
        "18",
        "16",
        "12",
        "11",
        "8",
        "6",
        "3",
        "1",
    ]
    assert "21" not in cards(0, after.known.may_hold_hi[3, 0]).split()


# --- voids and no trumps -------------------------------------------------------------------------


def test_not_following_shows_a_void_and_not_trumping_no_trumps():
    # Trick 1: seat 0 leads R♠; seat 1 has no spade and trumps; seat 2 has neither and discards
    # a heart. Seat 3 then knows seat 1 holds no spade, and seat 2 no spade and no trump.
    spy = Spy(SeatScript({0: "R♠", 1: "5", 2: "2♥"}), seat=3, trick=1)
    hands = {0: "R♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ V♠ C♠ D♠ 1♠ 1 2 3 4 6", 3: "2♠"}
    hands[1] = "5 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 R♥ D♥"
    hands[2] = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ V♥ C♥ R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦"
    play(
        deal_of(hands),
        3,
        Contract.GARDE_SANS,
        spy,
        rng=np.random.default_rng(0),
        others_poignees=False,
        taker_poignee=False,
    )
    known = spy.known
    spades = set(format_cards(range(14)).split())
    assert not spades & set(cards(known.may_hold_lo[1, 0], known.may_hold_hi[1, 0]).split())
    seat2 = set(cards(known.may_hold_lo[2, 0], known.may_hold_hi[2, 0]).split())
    assert not spades & seat2
    assert not {str(t) for t in range(1, 22)} & seat2
    assert "Excuse" in seat2  # not trumping proves nothing about the Excuse
