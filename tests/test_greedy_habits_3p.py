"""The greedy policy's habits (analyzer/players/habits.py) with 3 players, each at its limit.

Three players: 24 cards each, a chien of 6; the taker plays against two defenders. Every deal is
written by hand in the card notation; the cards before the position are scripted (and checked
legal); at the position the greedy chooses, and the test states the card. Each limit is shown
from both sides: the card at the limit, and the card one step short of it. Garde Sans unless
said, so the taker plays the hand he was dealt; seat 0 leads the first trick.
"""

import pytest
from policy_helpers import card_played, deal_of, first_card, hand_of, play_position, suit_but

PLAYERS = 3


# --- excuse_before_the_end: the 23rd of 24 tricks -----------------------------------------

TRUMPS_BUT_THE_PETIT = " ".join(str(rank) for rank in range(2, 22))


@pytest.mark.parametrize(
    ("suited", "excuse_in", "chelem"),
    [("R♠ R♥ 2♠", 23, 0), ("R♠ R♥ R♦", 24, 1)],
    ids=["lost-a-trick-the-excuse-in-the-23rd", "won-every-trick-the-excuse-wins-the-24th"],
)
def test_the_taker_plays_the_excuse_in_the_second_to_last_trick_unless_he_won_every_trick(
    suited, excuse_in, chelem
):
    # Every trump but the Petit, the Excuse, two kings and 2♠ or a third king. With 2♠ he
    # loses one trick: kept to the last trick, the Excuse would go to the defence, so it goes
    # in the 23rd (before a trump, which he would lead otherwise). With three kings he wins
    # every trick, and the Excuse led to the 24th wins it.
    deal = deal_of({0: f"{TRUMPS_BUT_THE_PETIT} Excuse {suited}"}, players=PLAYERS)
    playout = play_position(deal, taker=0, script={})
    assert card_played(playout, seat=0, trick=excuse_in) == "Excuse"
    assert playout.chelem[0] == chelem


# --- draw_trumps: as many trumps as may be out ----------------------------------------------


@pytest.mark.parametrize(
    ("trumps", "led"),
    [("1 5 7 9 11 13 15 16 17 18 21", "21"), ("5 7 9 11 13 15 16 17 18 21", "6♦")],
    ids=["eleven-against-ten-out-draws-with-the-21", "ten-against-eleven-out-leads-low"],
)
def test_the_taker_draws_trumps_when_he_holds_as_many_as_may_be_out(trumps, led):
    # Eleven trumps against the ten the others (or the chien) may hold: lead them. With ten
    # against eleven, his shortest suit instead (one diamond), to trump diamonds later.
    suits = "D♠ 10♠ 8♠ 3♠ D♥ 7♥ 4♥ 2♥ 6♦ 9♣ 4♣ 2♣ 1♣ 3♣"
    assert first_card(PLAYERS, {0: hand_of(PLAYERS, trumps, suits)}, taker=0, seat=0) == led


def test_after_trumping_the_first_trick_ten_trumps_against_ten_out_are_enough_to_draw():
    # The taker, seat 1, trumps seat 0's diamond lead with his 5: ten trumps left against the
    # ten the others may hold. As many as may be out: he draws, with the master 21.
    taker = "1 5 7 9 11 13 15 16 17 18 21 D♠ 10♠ 8♠ 3♠ D♥ 7♥ 4♥ 2♥ 9♣ 4♣ 2♣ 1♣ 3♣"
    deal = deal_of({0: "1♦", 1: taker, 2: "2♦"}, players=PLAYERS)
    playout = play_position(deal, taker=1, script={0: "1♦", 1: "5", 2: "2♦"})
    assert card_played(playout, seat=1, trick=2) == "21"


# --- cash_masters: enough of the suit out for both opponents to follow ------------------------


@pytest.mark.parametrize(
    ("hearts", "led"),
    [("R♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥", "R♥"), ("R♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥", "1♥")],
    ids=["four-hearts-out-the-king-passes", "three-hearts-out-a-low-heart"],
)
def test_the_defender_cashes_his_king_while_four_of_the_suit_are_out(hearts, led):
    # With 3 players the king passes when 2 × 2 = 4 hearts are out (D♥ C♥ V♥ 1♥): both others
    # can follow. With 11 hearts only 3 are out: the king would be trumped, and the defender
    # leads low from his longest suit.
    others = "D♠ 5♠ 2♠ C♦ 9♦ 4♦ 1♦ V♣ 10♣ 8♣ 7♣ 1♣ 3 8 9♣"
    assert first_card(PLAYERS, {0: hand_of(PLAYERS, hearts, others)}, taker=2, seat=0) == led


# --- hunt_the_petit: seven trumps ---------------------------------------------------------


@pytest.mark.parametrize(
    ("trumps", "led"),
    [("4 6 9 11 13 17 20", "20"), ("4 6 9 13 17 20", "2♠")],
    ids=["seven-trumps-hunt", "six-trumps-lead-low"],
)
def test_the_defender_with_seven_trumps_leads_his_highest_to_hunt_the_petit(trumps, led):
    # No master to cash; with seven trumps (3 players) the defender leads his highest, so that
    # the taker's trumps run out and the Petit falls. With six, low from his longest suit.
    suits = "D♠ 8♠ 6♠ 3♠ 2♠ C♥ 7♥ 4♥ 2♥ V♦ 9♦ 5♦ 3♦ D♣ 10♣ 5♣ 1♣ 1♥"
    assert first_card(PLAYERS, {0: hand_of(PLAYERS, trumps, suits)}, taker=1, seat=0) == led


# --- win_cheaply: is the suit likely to be trumped? -----------------------------------------


@pytest.mark.parametrize(
    ("out", "played"),
    [("D♥ C♥", "R♥"), ("D♥", "2♥")],
    ids=["two-hearts-out-the-king-wins", "one-heart-out-likely-trumped-the-least"],
)
def test_the_taker_wins_with_his_king_unless_the_last_defender_is_likely_void(out, played):
    # Seat 0 leads 1♥; the taker, seat 1, holds every other heart but ``out`` (held by seat 2).
    # With two hearts out for the one defender after him (2 × 1), seat 2 likely follows: the
    # king wins. With one out, seat 2 is likely void and would trump it: the taker gives 2♥.
    hands = {0: "1♥", 1: suit_but("♥", f"1♥ {out}"), 2: out}
    assert first_card(PLAYERS, hands, taker=1, seat=1, script={0: "1♥"}) == played


# Seat 0 defends with seven trumps against a taker (seat 1) who shows twelve trumps and the
# Excuse, the Petit among them, and is void in spades and diamonds. The taker trumps seat 0's
# spade leads (and a diamond), then leads a low heart that seat 0 wins.
HUNTER = "6 9 11 13 17 18 20 10♠ 8♠ 9♦ D♥ C♥ V♥ 10♥ 9♥ D♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣"
SHOWN = "1 3 4 5 7 8 10 12 14 16 19 21 Excuse 2♥ 3♥ 4♥ R♣ V♣ 2♣ 1♣ 8♥ 1♥ R♥ C♣"
TRUMPED = {0: "10♠ D♥ 8♠ C♥ 9♦ V♥", 1: "3 2♥ 4 3♥ 5 4♥", 2: "9♠ 5♥ 7♠ 6♥ 2♦ 7♥"}


@pytest.mark.parametrize(
    ("trumped", "led"),
    [(2, "3♣"), (3, "20")],
    ids=["nine-against-his-nine-others-lead-low", "nine-against-his-eight-others-hunt"],
)
def test_the_defence_hunts_the_petit_only_with_more_trumps_than_the_taker_holds_besides(
    trumped, led
):
    # Nine trumps are not the taker's: seat 0's seven, 2 and 15. Once the taker has trumped
    # twice, he holds nine shown trumps besides the Petit: the defence cannot outlast them, and
    # seat 0 leads low from his longest suit. Once he has trumped three times, eight: seat 0
    # leads his highest trump to hunt the Petit.
    deal = deal_of({0: HUNTER, 1: SHOWN, 2: TRUMPED[2]}, players=PLAYERS)
    script = {seat: " ".join(cards.split()[: 2 * trumped]) for seat, cards in TRUMPED.items()}
    playout = play_position(deal, taker=1, script=script, poignees=True)
    assert card_played(playout, seat=0, trick=2 * trumped + 1) == led
