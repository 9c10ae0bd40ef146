"""The greedy's habits (analyzer/players/habits.py) around the taker's voids, with 3, 4 and 5
players: a master card is cashed only where the taker cannot trump it (cash_masters), and the
defence leads the taker's void suit to make him trump (force_the_taker).

In each deal seat 0 defends against the taker, seat 1, who holds no spade and no diamond. Trick
1: seat 0 leads 1♠ (or 1♦), the taker trumps it with his 2, the others follow low. Trick 2: the
taker leads 1♥, which seat 0 wins with his R♥. Then seat 0 leads, having seen the taker's void.
With 5 players the taker calls R♣, seat 4's: seat 0 knows nobody's side. Garde Sans.
"""

import pytest
from policy_helpers import card_played, deal_of, hand_of, play_position, suit_but

from tarot_advisor.analyzer.playout.engine import Playout

TAKER = {
    3: "2 3 4 5 6 7 8 9 1♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ V♥ C♥ D♥ R♣ D♣ C♣ V♣ 10♣ 9♣",
    4: "2 3 4 5 6 7 8 9 1♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ V♥ C♥ D♥",
    5: "2 3 4 5 6 1♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ V♥ C♥ D♥",
}
# Seat 0's spades (three), and any trumps, are given by each test; diamonds are his longest suit.
DEFENDER = "1♦ 10♦ 9♦ 8♦ 7♦ 6♦ R♥ 2♣ 3♣ 4♣ 5♣ 6♣ 10 11 12 13 14 15 D♦ C♦ V♦"


def taker_1_plays(players: int, hands: dict, script: dict, partner: bool = False) -> Playout:
    """The deal ``hands`` played to the end from ``script``, seat 1 the taker; with 5 players he
    calls the R♣, which seat 4 holds unless seat 0, his ``partner``, was given it."""
    called = "R♣" if players == 5 else None
    if called and not partner:
        hands[4] += " R♣"
    return play_position(deal_of(hands, players=players), taker=1, script=script, called=called)


def seat_0_leads_trick_3(players: int, cards: str, opening: str, partner: bool = False) -> str:
    """The card seat 0, holding ``cards`` and :data:`DEFENDER`'s, leads to trick 3, after the
    taker has trumped his ``opening`` lead; with 5 players, as the taker's ``partner`` (holding
    the called R♣) or not."""
    suit = opening[-1]
    hands = {0: hand_of(players, "R♣ " * partner + cards, DEFENDER), 1: TAKER[players]}
    script = {0: f"{opening} R♥", 1: "2 1♥"}
    for seat in range(2, players):
        hands[seat] = f"{seat + 1}{suit} {seat}♥"
        script[seat] = f"{seat + 1}{suit} {seat}♥"
    playout = taker_1_plays(players, hands, script, partner)
    assert card_played(playout, seat=0, trick=2) == "R♥"  # seat 0 won trick 2
    return card_played(playout, seat=0, trick=3)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("opening", "led"),
    [("1♠", "2♠"), ("1♦", "R♠")],
    ids=["taker-void-in-spades-force-him", "taker-void-in-diamonds-the-king-of-spades-passes"],
)
def test_the_defence_cashes_no_king_into_the_takers_void_it_leads_low_there(players, opening, led):
    # Seat 0 holds R♠ 2♠ and one more spade; at least 2 × (players − 1) spades are out, enough
    # for everyone to follow. Once the taker has trumped a spade, the king would be trumped:
    # seat 0 leads 2♠ instead, so that the taker must spend another trump. When the taker has
    # trumped a diamond, nobody has shown a void in spades: the king passes.
    assert seat_0_leads_trick_3(players, "1♠ R♠ 2♠", opening) == led


@pytest.mark.parametrize("players", [3, 4, 5])
def test_with_no_low_card_in_the_takers_void_the_defence_leads_low_elsewhere(players):
    # Seat 0's spades left are R♠ and V♠: no low spade to force the taker with, and a face
    # card led into his void would only be trumped. He leads low from his longest suit.
    assert seat_0_leads_trick_3(players, "1♠ R♠ V♠", "1♠") == "1♦"


TWO_VOIDS_TAKER = "2 3 4 5 6 7 8 9 1♥ 9♥ 10♥ V♥ C♥ D♥"  # and clubs: no spade, no diamond
FORCING_DEFENDER = "1♠ R♥ 1♦ 15 2♠ 3♠ 6♦ 7♦ 8♦ 9♦ 10♦ V♦ 10 11 12 13 14 9♠ 10♠ 16 17 18 19"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_taker_void_in_two_suits_is_forced_in_the_first_spades(players):
    # Trick 1: seat 0 leads 1♠, the taker trumps with his 2. Trick 2: the taker leads 1♥, seat
    # 0 wins with R♥. Trick 3: seat 0 leads 1♦, the taker trumps with his 3. Trick 4: the
    # taker leads 9♥, seat 0, out of hearts, wins with his 15. The taker has shown a void in
    # spades and one in diamonds, and seat 0 holds low cards of both: he forces the taker in
    # the first of them in the order ♠ ♥ ♦ ♣, with 2♠, not 6♦.
    hands = {0: hand_of(players, FORCING_DEFENDER)}
    hands[1] = hand_of(players, TWO_VOIDS_TAKER, suit_but("♣", "R♣"))
    script = {0: "1♠ R♥ 1♦ 15", 1: "2 1♥ 3 9♥"}
    for seat in range(2, players):
        hands[seat] = script[seat] = f"{seat + 2}♠ {seat}♥ {seat + 1}♦ {seat + 3}♥"
    playout = taker_1_plays(players, hands, script)
    assert card_played(playout, seat=0, trick=5) == "2♠"


NO_TRUMPS = {
    3: "R♥ D♥ C♥ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ R♣ D♣ C♣ V♣ 10♣ 9♣ 8♣ 7♣ 1♣ Excuse",
    4: "R♥ D♥ C♥ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ D♣ C♣ V♣ 10♣",
    5: "R♥ D♥ C♥ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ Excuse",
}


@pytest.mark.parametrize(
    ("players", "led"),
    [(3, "2♠"), (4, "2♠"), (5, "1♦")],
    ids=["3-every-spade-is-master", "4-every-spade-is-master", "5-lead-low-elsewhere"],
)
def test_a_taker_who_cannot_trump_is_not_forced(players, led):
    # Seat 0 leads 10♠, which wins trick 1: the taker, with no spade and no trump, discards
    # 1♥. With 3 or 4 players the taker is seat 0's only opponent: he can take no spade, so
    # seat 0's highest spade left is a master that passes. With 5 players the others' sides
    # are unknown and may hold higher spades and trumps; a spade led to the taker would cost
    # him no trump: seat 0 leads low from his longest suit, diamonds, not 1♠ (compare the taker
    # who trumped, above).
    defender = DEFENDER.replace("R♥", "16")
    hands = {0: hand_of(players, "10♠ 2♠ 1♠", defender), 1: NO_TRUMPS[players]}
    script = {0: "10♠", 1: "1♥"}
    for seat in range(2, players):
        hands[seat] = script[seat] = f"{seat + 1}♠"
    playout = taker_1_plays(players, hands, script)
    assert card_played(playout, seat=0, trick=2) == led


HUNTING_TRUMPS = {3: "15 16 17 18 19 20 21", 4: "17 18 19 20 21", 5: "18 19 20 21"}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_defence_forces_the_taker_before_hunting_the_petit(players):
    # Seat 0 also holds enough trumps to hunt the Petit (7, 5 or 4 for 3, 4 or 5 players), the
    # Petit being out. Making the taker trump comes first: seat 0 leads 2♠, not his 21.
    cards = f"1♠ R♠ 2♠ {HUNTING_TRUMPS[players]}"
    assert seat_0_leads_trick_3(players, cards, "1♠") == "2♠"


@pytest.mark.parametrize(
    ("partner", "led"), [(False, "2♠"), (True, "1♦")], ids=["defender-forces", "partner-leads-low"]
)
def test_with_5_players_the_partner_does_not_force_his_own_taker(partner, led):
    # Seat 0 has seen the taker trump a spade; he holds seven clubs (too many for a club king
    # to pass), four spades and two diamonds. A defender leads 2♠ to make the taker trump
    # again. As the taker's partner (the seventh club is the called R♣), seat 0 leads low from
    # his shortest suit, diamonds.
    cards = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 1♠ V♠ 2♠ 10♠ 9♠ R♥ 1♦ 10♦"
    assert seat_0_leads_trick_3(5, cards if partner else f"8♣ {cards}", "1♠", partner) == led
