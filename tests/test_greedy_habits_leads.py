"""The greedy's habits when leading (analyzer/players/habits.py), each limit with 3, 4 and 5
players: draw trumps as taker only (draw_trumps), hunt the Petit only while an opponent may hold
it (hunt_the_petit), lead low only from a suit with a low card (lead_low), play the Excuse by the
second-to-last trick (excuse_before_the_end), cash a master once no trump is out (cash_masters).

Every deal is written by hand in the card notation; seat 0 leads the first trick (with 5 players
not in the called suit, but with the king). Garde Sans, so the taker plays the hand he was dealt.
"""

import pytest
from policy_helpers import (
    card_played,
    deal_of,
    end_position,
    first_card,
    first_choice,
    hand_of,
    play_position,
    suit_but,
)

from tarot_advisor.analyzer.game import hand_size
from tarot_advisor.analyzer.players.greedy import GreedyPolicy


def first_lead(players: int, hand: str, taker: int, called: str = "R♥", **others: str) -> str:
    """The card seat 0, holding ``hand`` (cut to a hand's size), leads to trick 1; ``others``:
    more hands, by seat (``seat_3="R♣"``); with 5 players the taker calls ``called``."""
    hands = {0: hand_of(players, hand), **{int(k[-1]): v for k, v in others.items()}}
    return first_card(players, hands, taker, seat=0, called=called if players == 5 else None)


# --- draw_trumps ------------------------------------------------------------------------------

SUITS = "D♠ 3♠ 6♦ 2♣ 9♣ D♥ 7♥ 4♥ 2♥ 10♠ 8♠ 4♣ 1♣ 3♣"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("top", "led"),
    [("21", "21"), ("20", "5")],
    ids=["holding-the-master-leads-it", "without-it-a-low-trump-not-the-petit"],
)
def test_the_taker_long_in_trumps_draws_them_never_with_the_petit(players, top, led):
    # Eleven trumps against ten out: the taker leads the master, else a low one, never the Petit.
    trumps = f"1 5 7 9 11 13 15 16 17 18 {top}"
    assert first_lead(players, f"{trumps} {SUITS}", taker=0) == led


def test_with_5_players_ten_trumps_against_ten_out_are_enough_to_draw():
    # The taker, seat 1, trumps seat 0's diamond lead with his 5: ten trumps left against the
    # ten the others (his partner among them) or the chien may hold. As many as may be out: he
    # draws, with the master 21.
    taker = "1 5 7 9 11 13 15 16 17 18 21 D♠ 3♠ 2♣ 9♣"
    deal = deal_of({0: "1♦", 1: taker, 2: "2♦", 3: "4♦", 4: "6♦"}, players=5)
    script = {0: "1♦", 1: "5", 2: "2♦", 3: "4♦", 4: "6♦"}
    playout = play_position(deal, taker=1, script=script, called="R♥")
    assert card_played(playout, seat=1, trick=2) == "21"


@pytest.mark.parametrize(("taker", "led"), [(0, "21"), (2, "R♣")], ids=["taker", "partner"])
def test_with_5_players_the_partner_long_in_trumps_leaves_the_drawing_to_the_taker(taker, led):
    # Eleven trumps and the called R♣. As the taker (seat 0 calls R♣, his own king) he draws;
    # as the partner of seat 2 he does not: he cashes the called king, which passes.
    hand = "1 5 7 9 11 13 15 16 17 18 21 R♣ 7♣ D♠ 3♠"
    assert first_lead(5, hand, taker=taker, called="R♣") == led


# --- hunt_the_petit: only while an opponent may hold the Petit ---------------------------------

HUNTING = {3: "4 6 9 11 13 17 20", 4: "4 9 13 17 20", 5: "4 9 13 17"}
HUNTER_SUITS = "D♠ 8♠ 6♠ 3♠ 2♠ C♥ 7♥ 4♥ 2♥ V♦ 9♦ 5♦ 3♦ D♣ 10♣ 5♣ 1♣ 1♥"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("lowest_trump", "led"),
    [("4", "top"), ("1", "2♠")],
    ids=["the-petit-out-hunt-it", "holding-the-petit-lead-low"],
)
def test_the_defender_hunts_the_petit_only_when_he_does_not_hold_it(players, lowest_trump, led):
    # As many trumps as a hunt takes (7, 5 or 4 for 3, 4 or 5 players): with the Petit out the
    # defender leads his highest trump to make it fall. Holding the Petit himself there is
    # nothing to hunt: he leads low from his longest suit.
    trumps = HUNTING[players].replace("4", lowest_trump, 1)
    highest = trumps.split()[-1]
    assert first_lead(players, f"{trumps} {HUNTER_SUITS}", taker=1) == (
        highest if led == "top" else led
    )


# --- lead_low: a suit with a low card ----------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_defender_leads_low_from_his_longest_suit_that_has_a_low_card(players):
    # Three hearts, all faces (R♥ out: none is a master), and two cards of each other suit. No
    # trump to hunt with (he holds the Petit). Hearts are his longest suit, but he has no low
    # heart to lead: he leads low from the first suit of two, 2♠, not V♥.
    hand = "D♥ C♥ V♥ 2♠ 3♠ 2♦ 3♦ 2♣ 3♣ 1 2 3 5 6 7 8 10 12 14 15 16 18 19 Excuse"
    assert first_lead(players, hand, taker=1, called="R♣") == "2♠"


# --- excuse_before_the_end: the 17th of 18 tricks, not before ---------------------------------


@pytest.mark.parametrize(
    ("suited", "excuse_in", "chelem"),
    [("2♠", 17, 0), ("R♠", 18, 1)],
    ids=["lost-a-trick-the-excuse-in-the-17th", "won-every-trick-the-excuse-wins-the-18th"],
)
def test_with_4_players_the_taker_plays_the_excuse_in_the_17th_trick_unless_he_won_every_trick(
    suited, excuse_in, chelem
):
    # Every trump from 6 to 21, the Excuse and 2♠ or R♠. With 2♠ he loses a trick: kept to
    # the last trick, the Excuse would go to the defence, so it goes in the 17th, not sooner.
    # With R♠ he wins every trick, and the Excuse led to the 18th wins it.
    trumps = " ".join(str(rank) for rank in range(6, 22))
    playout = play_position(deal_of({0: f"{trumps} Excuse {suited}"}), taker=0, script={})
    assert card_played(playout, seat=0, trick=excuse_in) == "Excuse"
    assert playout.chelem[0] == chelem


TRUMPS_DOWN = " ".join(str(rank) for rank in range(21, 1, -1))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_taker_who_has_won_every_trick_leads_the_petit_and_keeps_the_excuse_for_the_last(
    players,
):
    # The taker holds the Petit, the Excuse and the highest trumps (with 3 players every trump,
    # R♠ and R♥): he wins every trick. Left with the Petit and the Excuse for the last two
    # tricks, he leads the Petit, which nobody can take any more, and the Excuse wins the last
    # trick: a chelem.
    hand = hand_of(players, "1 Excuse", TRUMPS_DOWN, "R♠ R♥")
    called = "R♥" if players == 5 else None
    playout = play_position(deal_of({0: hand}, players=players), 0, {}, called=called)
    last = hand_size(players)
    assert card_played(playout, seat=0, trick=last - 1) == "1"
    assert card_played(playout, seat=0, trick=last) == "Excuse"
    assert playout.chelem[0] == 1


CHELEM_TAKER = "19 21 18 17 16 15 14 13 12 11 10 9 8 7 Excuse"  # his cards in trick order


@pytest.mark.parametrize(
    ("seat_2_trumps", "played"),
    [("6", "7"), ("20", "Excuse")],
    ids=["won-every-trick-himself-keeps-the-excuse", "his-unknown-partner-took-one-the-excuse"],
)
def test_with_5_players_before_the_called_king_appears_only_his_own_tricks_are_his_sides(
    seat_2_trumps, played
):
    # The taker, seat 0, calls R♥ and leads 19, 21, then his trumps down to the 8; seat 2
    # holds the R♥, the other hearts and one trump, and plays the king in the 15th trick only:
    # until then nobody but seat 2 knows the sides. When seat 2's trump is the 6 (the 20 lies
    # in the chien), the taker wins every trick: in the 14th he leads his 7 and keeps the
    # Excuse to win the 15th. When it is the 20, seat 2 takes the 19 in trick 1 (and leads 1♥,
    # which the taker trumps): his side has won every trick, but the taker cannot know it, so
    # he plays the Excuse in the 14th.
    seat_2 = f"{seat_2_trumps} 1♥ {suit_but('♥', 'R♥ 1♥')}"
    hands = {0: CHELEM_TAKER, 2: f"{seat_2} R♥"}
    script = {0: " ".join(CHELEM_TAKER.split()[:13]), 2: seat_2}
    chien = "20" if seat_2_trumps == "6" else "6"
    playout = play_position(deal_of(hands, chien, players=5), taker=0, script=script, called="R♥")
    assert card_played(playout, seat=2, trick=15) == "R♥"
    assert card_played(playout, seat=0, trick=14) == played


# --- cash_masters: once no trump is out, every master passes ----------------------------------


@pytest.mark.parametrize(
    ("rounds", "led"),
    [(3, "18"), (4, "R♥")],
    ids=["the-petit-still-out-draw-it", "no-trump-left-the-king-passes-though-few-hearts-are-out"],
)
def test_with_5_players_once_the_trumps_are_drawn_the_taker_cashes_his_king(rounds, led):
    # The taker, seat 0, leads 21, 20, 19 and 18; the four others hold the thirteen trumps from
    # 1 to 13, seat 1 four of them, the others three. While one is out he draws it. Once none is
    # left, R♥ passes although only seven hearts are out, too few for the four others to follow.
    taker = "21 20 19 18 17 16 15 14 R♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥"
    trumps = {1: "4 3 2 1", 2: "7 6 5 1♣", 3: "10 9 8 2♣", 4: "13 12 11 3♣"}
    hands = {0: taker, **trumps}
    hands[1] += " R♦"  # the called king: seat 1 is the taker's partner
    script = {seat: " ".join(cards.split()[:rounds]) for seat, cards in trumps.items()}
    script[0] = " ".join(taker.split()[:rounds])
    deal = deal_of(hands, chien="1♠ 2♠ 3♠", players=5)
    playout = play_position(deal, taker=0, script=script, called="R♦")
    assert card_played(playout, seat=0, trick=rounds + 1) == led


TWO_KINGS = "R♠ 5♠ 2♠ R♣ 5♣ 1♣ C♦ 9♦ 4♦ 1♦ 8♥ 7♥ 3 8 14 V♥ 10♥ 6 9 11 13 16 17 19 20"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_of_two_kings_that_pass_the_defender_cashes_the_king_of_clubs(players):
    # Seat 0, defending, leads to trick 1 holding R♠ and R♣, each with two small cards: eleven
    # of each suit are out, enough for everyone to follow, and nobody has shown a void. Both
    # kings pass; of two masters of one rank he cashes the one of the last suit in the order
    # ♠ ♥ ♦ ♣, R♣.
    assert first_lead(players, TWO_KINGS, taker=1) == "R♣"


# --- lead_low: with neither a suited card nor a middle trump, the Petit and the Excuse last ------

END_HANDS = {0: "1 21 Excuse", 1: "R♠ 5♠ 4♠", 2: "3♠ 2♠ 6♠", 3: "7♠ 8♠ 9♠", 4: "10♠ V♠ C♠"}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_holding_the_petit_the_21_and_the_excuse_the_defender_leads_the_21(players):
    # Three tricks to go, seat 0 to lead, defending: the Petit would fall to any trump, and the
    # Excuse is kept for the second-to-last trick; he leads the 21.
    kept = {seat: END_HANDS[seat] for seat in range(players)}
    called = "R♦" if players == 5 else None
    data = end_position(players, "garde_sans", 1, 0, kept, seed=3, called=called)
    assert first_choice(data, GreedyPolicy(), runs=2) == {"21"}
