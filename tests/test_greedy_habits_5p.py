"""The greedy policy's habits (analyzer/players/habits.py) with 5 players, each at its limit.

Five players: 15 cards each, a chien of 3. The taker calls a king; its holder is his secret
partner, who knows it from the start, while the others learn it only when the king is played
(rules.md §3, §12). Until then a defender counts every other player as a possible opponent.
Every deal is written by hand in the card notation; the cards before the position are scripted
(and checked legal); at the position the greedy chooses, and the test states the card. Each
limit is shown from both sides. Garde Sans unless said; seat 0 leads the first trick, which may
not be led in the called suit.
"""

import pytest
from policy_helpers import card_played, deal_of, first_card, hand_of, play_position, suit_but

PLAYERS = 5


def first_card_5p(hands, taker, seat, called, script=None) -> str:
    return first_card(PLAYERS, hands, taker, seat, script=script, called=called)


# --- excuse_before_the_end: the 14th of 15 tricks -----------------------------------------

TOP_TRUMPS = " ".join(str(rank) for rank in range(9, 22))  # 9 to 21
SPADES = "R♠ D♠ C♠ V♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 1♠"
HEARTS = "R♥ D♥ C♥ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥"


@pytest.mark.parametrize(
    ("last", "excuse_in", "chelem"),
    [("2♠", 14, 0), ("8", 15, 1)],
    ids=["lost-a-trick-the-excuse-in-the-14th", "won-every-trick-the-excuse-wins-the-15th"],
)
def test_the_taker_plays_the_excuse_in_the_second_to_last_trick_unless_he_won_every_trick(
    last, excuse_in, chelem
):
    # The taker draws trumps with the thirteen from 9 to 21, then leads 2♠, which seat 1 wins
    # with a spade: kept to the last trick, the Excuse would go to the defence, so it goes in
    # the 14th. With the 8 instead of 2♠ he wins every trick, and the Excuse wins the 15th.
    hands = {0: f"{TOP_TRUMPS} Excuse {last}", 1: f"{SPADES} 1 2", 2: f"{HEARTS} R♦"}
    deal = deal_of(hands, players=PLAYERS)
    playout = play_position(deal, taker=0, script={}, called="R♥")
    assert card_played(playout, seat=0, trick=excuse_in) == "Excuse"
    assert playout.chelem[0] == chelem


# --- draw_trumps: as many trumps as may be out, the unknown partner's counted -----------------


def test_the_taker_draws_trumps_when_he_holds_as_many_as_may_be_out():
    # Eleven trumps against the ten the others may hold — his unknown partner's among them:
    # lead them, with the master 21. With ten against eleven, his shortest suit instead (one
    # diamond).
    eleven = "1 5 7 9 11 13 15 16 17 18 21 D♠ 3♠ 6♦ 2♣"
    ten = "5 7 9 11 13 15 16 17 18 21 D♠ 3♠ 6♦ 2♣ 9♣"
    assert first_card_5p({0: eleven}, taker=0, seat=0, called="R♥") == "21"
    assert first_card_5p({0: ten}, taker=0, seat=0, called="R♥") == "6♦"


# --- cash_masters: enough of the suit out for the four others to follow ---------------------


@pytest.mark.parametrize(
    ("hearts", "led"),
    [("R♥ 6♥ 5♥ 4♥ 3♥ 2♥", "R♥"), ("R♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥", "2♥")],
    ids=["eight-hearts-out-the-king-passes", "seven-hearts-out-a-low-heart"],
)
def test_the_defender_cashes_his_king_while_eight_of_the_suit_are_out(hearts, led):
    # With 5 players the king passes when 2 × 4 = 8 hearts are out: all four others can follow.
    # With seven hearts only seven are out: the king would be trumped, and the defender leads
    # low from his longest suit. The taker, seat 2, calls R♣ (seat 3's).
    hand = hand_of(PLAYERS, hearts, "D♠ 5♠ 2♠ C♦ 9♦ 4♦ 3 8 1♦")
    assert first_card_5p({0: hand, 3: "R♣"}, taker=2, seat=0, called="R♣") == led


# --- hunt_the_petit: four trumps, and never the partner's habit -----------------------------


@pytest.mark.parametrize(
    ("trumps", "led"),
    [("4 9 13 17", "17"), ("4 9 13", "2♠")],
    ids=["four-trumps-hunt", "three-trumps-lead-low"],
)
def test_the_defender_with_four_trumps_leads_his_highest_to_hunt_the_petit(trumps, led):
    # No master to cash; with four trumps (5 players) the defender leads his highest. With
    # three, low from his longest suit. The taker, seat 1, calls R♣ (seat 3's).
    hand = hand_of(PLAYERS, trumps, "D♠ 8♠ 6♠ 3♠ 2♠ C♥ 7♥ 4♥ V♦ 9♦ 5♦ 1♥")
    assert first_card_5p({0: hand, 3: "R♣"}, taker=1, seat=0, called="R♣") == led


@pytest.mark.parametrize(
    ("called", "led"),
    [("R♥", "20"), ("R♣", "8♠")],
    ids=["a-defender-hunts", "the-partner-does-not-hunt-his-takers-petit"],
)
def test_the_called_kings_holder_never_hunts_the_petit(called, led):
    # Six trumps and R♣ with six small clubs (seven clubs out: too few to cash the king). As a
    # defender (R♥ called) seat 0 hunts the Petit; as the partner (R♣ called) the Petit may be
    # his taker's: he leads low from his shortest suit instead, a spade (not a club: the
    # called suit may not be led to the first trick but with the king).
    hand = "4 6 9 13 17 20 R♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 8♠ 7♥"
    assert first_card_5p({0: hand}, taker=2, seat=0, called=called) == led


# --- win_cheaply: is the suit likely to be trumped? -----------------------------------------


@pytest.mark.parametrize(
    ("taker", "called", "out", "played"),
    [
        (1, "R♣", "D♥ C♥ V♥ 10♥ 9♥ 8♥", "R♥"),
        (1, "R♣", "D♥ C♥ V♥ 10♥ 9♥", "2♥"),
        (3, "R♠", "D♥ C♥ V♥ 10♥", "R♥"),
        (3, "R♠", "D♥ C♥ V♥", "2♥"),
    ],
    ids=[
        "taker-six-out-for-three-after-him-the-king-wins",
        "taker-five-out-likely-trumped-the-least",
        "partner-four-out-for-two-defenders-after-him-the-king-wins",
        "partner-three-out-likely-trumped-the-least",
    ],
)
def test_seat_1_wins_with_his_king_unless_someone_after_him_is_likely_void(
    taker, called, out, played
):
    # Seat 0 leads 1♥; seat 1 holds every other heart but ``out`` (seat 2's). As the taker he
    # does not know his partner: the three after him may all be opponents, and the king wins
    # only with 2 × 3 = 6 hearts out. As the partner (R♠ called) he knows the taker, seat 3:
    # two defenders after him, and four hearts out are enough.
    hands = {0: "1♥", 1: suit_but("♥", f"1♥ {out}") + " R♠", 2: out, 4: "R♣"}
    assert first_card_5p(hands, taker=taker, seat=1, called=called, script={0: "1♥"}) == played


# --- hunt_the_petit: more trumps than the taker holds besides the Petit -------------------------


@pytest.mark.parametrize(
    ("seat_2", "led"),
    [("4♥", "17"), ("2", "2♠")],
    ids=["ten-against-his-nine-hunt", "nine-against-his-nine-lead-low"],
)
def test_the_defence_hunts_the_petit_only_with_more_trumps_than_the_taker_holds_besides(
    seat_2, led
):
    # The taker, seat 1, shows his ten trumps, the Petit among them: nine besides it. Seat 3
    # trumps the heart lead with his 5 and leads next. Eleven trumps are not the taker's, one
    # down: ten left for the defence (and the partner, not yet known), and seat 3 leads his
    # highest to hunt the Petit. When seat 2 has trumped too, nine: no more than the taker's
    # nine, the hunt cannot succeed, and seat 3 leads low from his longest suit.
    taker = "1 3 4 7 8 10 11 12 14 21 3♥ R♠ 7♦ 6♦ 4♦"
    hunter = "5 6 9 13 17 D♠ 8♠ 6♠ 3♠ 2♠ V♦ 9♦ 5♦ D♣ 10♣"
    hands = {0: suit_but("♥", f"3♥ 6♥ {seat_2}"), 1: taker, 2: seat_2, 3: hunter, 4: "R♣ 6♥"}
    script = {0: "2♥", 1: "3♥", 2: seat_2, 3: "5", 4: "6♥"}
    deal = deal_of(hands, players=PLAYERS)
    playout = play_position(deal, taker=1, script=script, poignees=True, called="R♣")
    assert card_played(playout, seat=3, trick=2) == led
