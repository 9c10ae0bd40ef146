"""The greedy policy's habits (analyzer/players/habits.py), each on a concrete 4-player position.

Every deal is written by hand in the card notation. The cards before the position of interest
are scripted for every seat (and checked legal as they are played); at the position, the greedy
policy chooses, and the test states the card a competent player would choose. Garde Sans unless
said, so the taker plays the hand he was dealt; seat 0 leads the first trick.
"""

import pytest
from policy_helpers import IllegalScript, card_played, deal_of, first_card, play_position, suit_but

# --- excuse_before_the_end ----------------------------------------------------------------

# Sixteen tricks in which everyone follows: three of each suit, then four of trumps (each
# player his highest trump, which is always legal). Each seat's cards in trick order.
SIXTEEN_TRICKS = {
    0: "R♠ D♠ C♠ R♥ D♥ C♥ R♦ D♦ C♦ R♣ D♣ {clubs} 21 20 19 18",
    1: "V♠ 10♠ 9♠ V♥ 10♥ 9♥ V♦ 10♦ 9♦ V♣ 10♣ 9♣ 16 15 14 13",
    2: "8♠ 7♠ 6♠ 8♥ 7♥ 6♥ 8♦ 7♦ 6♦ 7♣ 6♣ {other_clubs} 12 11 10 9",
    3: "5♠ 4♠ 3♠ 5♥ 4♥ 3♥ 5♦ 4♦ 3♦ 5♣ 4♣ 3♣ 8 7 6 5",
}
LAST_TWO = {0: "17 Excuse", 1: "2♠ 2♥", 2: "2♦ 2♣", 3: "1♠ 1♥"}


def sixteen_tricks(defence_takes_the_twelfth: bool) -> dict[int, str]:
    clubs, other = ("8♣", "C♣") if defence_takes_the_twelfth else ("C♣", "8♣")
    return {
        seat: cards.format(clubs=clubs, other_clubs=other) for seat, cards in SIXTEEN_TRICKS.items()
    }


def test_the_taker_who_has_lost_a_trick_plays_the_excuse_before_the_last_trick():
    script = sixteen_tricks(defence_takes_the_twelfth=True)
    deal = deal_of({s: f"{script[s]} {LAST_TWO[s]}" for s in range(4)}, "1♦ 1♣ 4 3 2 1")
    playout = play_position(deal, taker=0, script=script)
    assert card_played(playout, seat=2, trick=12) == "C♣"  # the defence's one trick
    # Kept to the last trick, the Excuse would go to the defence.
    assert card_played(playout, seat=0, trick=17) == "Excuse"


def test_the_taker_who_has_won_every_trick_keeps_the_excuse_to_win_the_last_one():
    script = sixteen_tricks(defence_takes_the_twelfth=False)
    deal = deal_of({s: f"{script[s]} {LAST_TWO[s]}" for s in range(4)}, "1♦ 1♣ 4 3 2 1")
    playout = play_position(deal, taker=0, script=script)
    assert card_played(playout, seat=0, trick=17) == "17"
    assert card_played(playout, seat=0, trick=18) == "Excuse"
    assert playout.chelem[0] == 1  # the Excuse led to the last trick wins it: a chelem


# --- feed_a_sure_partner ------------------------------------------------------------------

NO_DIAMONDS = "21 6 R♠ C♠ 8♠ 3♠ D♥ 10♥ 7♥ 3♥ D♣ 10♣ 8♣ 4♣ 1♣ 18 13 Excuse"
WITH_DIAMONDS = "R♦ 3♦ D♠ 9♠ 4♠ C♥ 8♥ 5♥ 1♥ V♣ 9♣ 6♣ 2♣ 2 5 11 15 17"
TRUMPS_NO_DIAMONDS = "1 2 5 11 15 17 D♠ 9♠ 4♠ C♥ 8♥ 5♥ 1♥ V♣ 9♣ 6♣ 2♣ 7♣"
NEITHER = "R♥ V♥ 9♥ 4♥ 2♥ D♠ 9♠ 7♠ 6♠ 2♠ C♣ V♣ 9♣ 7♣ 6♣ 5♣ 2♣ 3♣"


@pytest.mark.parametrize(
    ("hand", "partners_trump", "given"),
    [
        (WITH_DIAMONDS, "21", "R♦"),
        (WITH_DIAMONDS, "6", "3♦"),
        (TRUMPS_NO_DIAMONDS, "21", "1"),
        (NEITHER, "21", "R♥"),
    ],
    ids=[
        "over-the-21-the-king",
        "over-a-low-trump-the-taker-may-overtrump-a-small-card",
        "void-the-petit-slips-under-the-21",
        "void-and-no-trump-the-king-of-another-suit",
    ],
)
def test_the_defender_sure_of_his_partners_trick_gives_him_the_king(hand, partners_trump, given):
    # Seat 0 leads a diamond, seat 1 (void) trumps; the taker, seat 3, plays after seat 2.
    deal = deal_of({0: "5♦", 1: NO_DIAMONDS, 2: hand})
    playout = play_position(deal, taker=3, script={0: "5♦", 1: partners_trump})
    assert card_played(playout, seat=2, trick=1) == given


# --- win_cheaply ----------------------------------------------------------------------------


def test_the_taker_last_to_play_and_void_trumps_with_the_petit_which_nobody_can_take():
    taker = "1 4 9 12 16 19 21 R♠ D♠ 7♠ 2♠ R♦ 8♦ 4♦ D♣ C♣ 6♣ 3♣"  # no hearts
    deal = deal_of({0: "R♥", 1: "4♥", 2: "8♥", 3: taker})
    playout = play_position(deal, taker=3, script={0: "R♥", 1: "4♥", 2: "8♥"})
    assert card_played(playout, seat=3, trick=1) == "1"


def test_the_taker_last_to_play_takes_the_valet_with_his_dame_and_keeps_the_king():
    taker = "R♥ D♥ 7♥ 3 8 13 17 20 R♠ 9♠ 5♠ D♦ 6♦ 2♦ R♣ 10♣ 7♣ 4♣"
    deal = deal_of({0: "10♥", 1: "V♥", 2: "2♥", 3: taker})
    playout = play_position(deal, taker=3, script={0: "10♥", 1: "V♥", 2: "2♥"})
    assert card_played(playout, seat=3, trick=1) == "D♥"


@pytest.mark.parametrize(
    ("out", "played"),
    [("D♥ C♥ V♥ 10♥", "R♥"), ("D♥ C♥ V♥", "2♥")],
    ids=["four-hearts-out-the-king-wins", "three-out-likely-trumped-the-least"],
)
def test_the_taker_wins_with_his_king_unless_a_later_defender_is_likely_void(out, played):
    # Seat 0 leads 1♥; the taker, seat 1, holds every other heart but ``out`` (seat 2's). With
    # 2 × 2 = 4 hearts out for the two defenders after him, they likely follow: the king wins.
    # With three out, one is likely void and would trump it: the taker gives 2♥.
    hands = {0: "1♥", 1: suit_but("♥", f"1♥ {out}"), 2: out}
    assert first_card(4, hands, taker=1, seat=1, script={0: "1♥"}) == played


# --- give_least -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "cards", "given"),
    [
        ("R♠", "D♠ Excuse", "Excuse"),
        ("R♠", "D♠ 2♠ Excuse", "2♠"),
        ("21", "1 5 Excuse", "5"),
        ("21", "1 Excuse", "Excuse"),
    ],
    ids=[
        "the-excuse-saves-the-dame",
        "a-small-spade",
        "a-small-trump-keeps-the-petit",
        "the-excuse-saves-the-petit",
    ],
)
def test_the_defender_losing_the_trick_gives_the_least(lead, cards, given):
    # The taker leads his king of spades, or the 21; seat 1 cannot win the trick.
    rest = "C♥ 9♥ 4♥ D♦ 7♦ 5♦ 1♦ V♣ 8♣ 2♣ 6♣ 3♣ 4♣ 5♣ 7♣ 9♣"
    hand = " ".join((cards + " " + rest).split()[:18])
    deal = deal_of({0: lead, 1: hand})
    playout = play_position(deal, taker=0, script={0: lead})
    assert card_played(playout, seat=1, trick=1) == given


# --- the Petit au bout, draw_trumps and cash_masters once the trumps are out ----------------

TRUMP_TAKER = "1 10 11 12 13 14 15 16 17 18 19 20 21 R♠ D♠ R♥ 3♦ 2♣"
TRUMP_DRAWING = {0: "21 20 19", 1: "2 3 4", 2: "5 6 7", 3: "8 9 2♥"}


@pytest.mark.parametrize(
    ("tricks_drawn", "led"),
    [(2, "19"), (3, "R♥")],
    ids=["trumps-still-out-draw-with-the-master", "no-trump-left-cash-a-king-not-the-petit"],
)
def test_the_taker_draws_trumps_then_cashes_his_kings_keeping_the_petit(tricks_drawn, led):
    # The defenders hold eight trumps (2 to 9); after three rounds none is left: every master
    # card passes, and the Petit, which nobody can take any more, waits for the last trick.
    deal = deal_of({0: TRUMP_TAKER, 1: "2 3 4", 2: "5 6 7", 3: "8 9 2♥"}, "1♦ 1♣ 1♠ 1♥ 2♦ 2♠")
    script = {seat: " ".join(cards.split()[:tricks_drawn]) for seat, cards in TRUMP_DRAWING.items()}
    playout = play_position(deal, taker=0, script=script)
    assert card_played(playout, seat=0, trick=tricks_drawn + 1) == led


def test_the_safe_petit_is_kept_for_the_last_trick_petit_au_bout():
    deal = deal_of({0: TRUMP_TAKER, 1: "2 3 4", 2: "5 6 7", 3: "8 9 2♥"}, "1♦ 1♣ 1♠ 1♥ 2♦ 2♠")
    playout = play_position(deal, taker=0, script=TRUMP_DRAWING)
    assert card_played(playout, seat=0, trick=18) == "1"
    assert playout.petit_au_bout[0] == 1


@pytest.mark.parametrize(
    ("top", "led"),
    [("21", "21"), ("20", "5")],
    ids=["holding-the-master-leads-it", "without-it-a-low-trump-not-the-petit"],
)
def test_the_taker_long_in_trumps_draws_them(top, led):
    # Eleven trumps against ten out: lead the master, else a low one, never the Petit.
    taker = f"1 5 7 9 11 13 15 16 17 18 {top} R♠ 3♠ D♥ 4♥ 6♦ 2♣ 9♣"
    playout = play_position(deal_of({0: taker}), taker=0, script={})
    assert card_played(playout, seat=0, trick=1) == led


@pytest.mark.parametrize(
    ("trumps", "led"),
    [("1 5 7 9 11 13 15 16 17 18 21", "21"), ("5 7 9 11 13 15 16 17 18 21 3♦", "3♦")],
    ids=["eleven-against-ten-out-draws", "ten-against-eleven-out-leads-low"],
)
def test_the_taker_draws_trumps_when_he_holds_as_many_as_may_be_out(trumps, led):
    # Eleven trumps against the ten the others may hold: he draws, with the master 21. With
    # ten against eleven, low from his shortest suit.
    hand = f"{trumps} D♠ 3♠ D♥ 4♥ 9♥ 2♣ 9♣"
    assert first_card(4, {0: hand}, taker=0, seat=0) == led


def test_after_trumping_the_first_trick_ten_trumps_against_ten_out_are_enough_to_draw():
    # The taker, seat 1, trumps seat 0's diamond lead with his 5: ten trumps left against the
    # ten the others may hold. As many as may be out: he draws, with the master 21.
    taker = "1 5 7 9 11 13 15 16 17 18 21 D♠ 3♠ D♥ 4♥ 9♥ 2♣ 9♣"
    deal = deal_of({0: "1♦", 1: taker, 2: "2♦", 3: "4♦"})
    playout = play_position(deal, taker=1, script={0: "1♦", 1: "5", 2: "2♦", 3: "4♦"})
    assert card_played(playout, seat=1, trick=2) == "21"


# --- cash_masters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hearts", "led"),
    [
        ("R♥ 6♥ 3♥", "R♥"),
        ("R♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥", "R♥"),
        ("R♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥", "3♥"),
    ],
    ids=["kings-pass-while-everyone-follows", "six-hearts-out-enough", "five-out-too-few"],
)
def test_the_defender_leading_cashes_his_king_while_everyone_can_follow(hearts, led):
    # No other master: the ♠ ♦ ♣ kings are out. The king passes with 2 × 3 = 6 hearts out, for
    # the three others to follow. With nine hearts only five are out: the king would be
    # trumped, and a low heart is led.
    others = "D♠ 5♠ 2♠ C♦ 9♦ 4♦ 1♦ V♣ 10♣ 8♣ 7♣ 1♣ 3 8 14"
    hand = " ".join((hearts + " " + others).split()[:18])
    playout = play_position(deal_of({0: hand}), taker=2, script={})
    assert card_played(playout, seat=0, trick=1) == led


# --- force_the_taker ------------------------------------------------------------------------


def test_the_defence_leads_the_suit_the_taker_trumped_to_shorten_his_trumps():
    # Trick 1: the taker (seat 1) trumps the diamond lead. Trick 2: seat 2 wins with R♣ and
    # leads: a small diamond (not from his longest suit, hearts), forcing the taker to trump.
    taker = "7 10 12 14 16 18 19 20 21 R♠ D♠ 9♠ R♥ 3♥ 4♣ 5♣ C♣ 10♣"  # no diamonds
    greedy = "5♦ R♣ 9♦ 2♦ D♥ 10♥ 8♥ 5♥ 2♥ C♠ 7♠ 4♠ V♣ 3♣ 2 11 15 17"
    deal = deal_of({0: "3♦ 9♣", 1: taker, 2: greedy, 3: "8♦ 6♣"})
    script = {0: "3♦ 9♣", 1: "7 4♣", 2: "5♦ R♣", 3: "8♦ 6♣"}
    playout = play_position(deal, taker=1, script=script)
    assert card_played(playout, seat=2, trick=2) == "R♣"
    assert card_played(playout, seat=2, trick=3) == "2♦"


# --- hunt_the_petit -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trumps", "led"),
    [("4 9 13 17 20", "20"), ("4 9 13 17", "2♠")],
    ids=["five-trumps-hunt", "four-trumps-lead-low"],
)
def test_the_defender_long_in_trumps_leads_his_highest_to_hunt_the_petit(trumps, led):
    # No master to cash; with five trumps (4 players) the defender leads his highest.
    suits = "D♠ 8♠ 6♠ 3♠ 2♠ C♥ 7♥ 4♥ V♦ 9♦ 5♦ D♣ 10♣ 5♣"
    hand = " ".join((trumps + " " + suits + " 1♣").split()[:18])
    playout = play_position(deal_of({0: hand}), taker=1, script={})
    assert card_played(playout, seat=0, trick=1) == led


def test_a_shown_petit_is_no_reason_to_hunt_it_without_the_trumps_to_do_so():
    # The taker shows ten trumps, the Petit among them; seat 2, with three trumps, wins trick 1.
    # Leading his 20 would only feed the taker's long trumps: he leads a low diamond instead.
    taker = "1 3 6 8 11 12 16 18 19 21 R♥ 9♥ 5♥ D♦ 4♦ 9♣ 6♣ 3♠"  # exactly ten trumps
    greedy = "R♠ 5 14 20 C♠ 8♠ 6♠ C♥ 7♥ 4♥ V♦ 9♦ 5♦ D♣ 10♣ 5♣ 2♣ 1♣"
    deal = deal_of({0: "2♠", 1: taker, 2: greedy, 3: "4♠"})
    script = {0: "2♠", 1: "3♠", 2: "R♠", 3: "4♠"}
    playout = play_position(deal, taker=1, script=script, poignees=True)
    assert playout.shown_hi[1, 0] & 1  # the Petit is shown
    assert card_played(playout, seat=2, trick=2) not in ("20", "14", "5")


@pytest.mark.parametrize(("shown", "led"), [(False, "20"), (True, "2♠")])
def test_the_defence_does_not_hunt_a_petit_it_cannot_force_out(shown, led):
    # Seat 0, five trumps, wins trick 1 and would hunt the Petit (see above). But when the taker
    # has shown fifteen trumps, the Petit among them, the defence holds at most six against his
    # fourteen others: the Petit cannot be forced out, and seat 0 leads low instead.
    taker = "3♥ 1 2 3 6 7 8 10 11 12 14 15 16 18 19 21 R♥ 9♥"  # fifteen trumps
    suits = "D♠ 8♠ 6♠ 3♠ 2♠ 7♥ 4♥ V♦ 9♦ 5♦ D♣ 10♣"
    deal = deal_of({0: f"C♥ 4 9 13 17 20 {suits}", 1: taker, 2: "2♥ D♥", 3: "1♥"})
    script = {0: "C♥", 1: "3♥", 2: "2♥", 3: "1♥"}
    playout = play_position(deal, taker=1, script=script, poignees=shown)
    assert bool(playout.shown_hi[1, 0] & 1) == shown
    assert card_played(playout, seat=0, trick=2) == led


@pytest.mark.parametrize(
    ("seat_2", "led"),
    [("4♥", "20"), ("2", "2♠")],
    ids=["ten-against-his-nine-hunt", "nine-against-his-nine-lead-low"],
)
def test_the_defence_hunts_the_petit_only_with_more_trumps_than_the_taker_holds_besides(
    seat_2, led
):
    # The taker, seat 1, shows his ten trumps, the Petit among them: nine besides it. Seat 3
    # trumps the heart lead with his 5 and leads next. Eleven trumps are not the taker's, one
    # down: ten left for the defence, and seat 3 leads his highest to hunt the Petit. When
    # seat 2 has trumped too, nine: no more than the taker's nine, the hunt cannot succeed,
    # and seat 3 leads low from his longest suit.
    taker = "1 3 4 7 8 10 11 12 14 21 3♥ R♠ 7♦ 6♦ 4♦ R♣ 9♣ 8♣"
    hunter = "5 6 9 13 17 20 D♠ 8♠ 6♠ 3♠ 2♠ V♦ 9♦ 5♦ D♣ 10♣ 5♣ 1♣"
    hands = {0: suit_but("♥", f"3♥ {seat_2}"), 1: taker, 2: seat_2, 3: hunter}
    script = {0: "2♥", 1: "3♥", 2: seat_2, 3: "5"}
    playout = play_position(deal_of(hands), taker=1, script=script, poignees=True)
    assert card_played(playout, seat=3, trick=2) == led


# --- lead_low -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("taker", "hand", "led"),
    [
        (2, "D♠ 8♠ 6♠ 3♠ 2♠ C♥ 7♥ 4♥ V♦ 9♦ 5♦ D♣ 10♣ 5♣ 1♣ 6 12 15", "2♠"),
        (0, "D♠ 9♠ 7♠ 5♠ D♥ 8♥ 6♥ 2♥ 7♦ 4♦ C♣ 10♣ 8♣ 21 18 14 10 6", "4♦"),
    ],
    ids=["defence-from-its-longest-suit", "taker-from-his-shortest-suit"],
)
def test_with_nothing_better_lead_low(taker, hand, led):
    # The defender leads low from his longest suit (likely the taker's short one); the taker,
    # short in trumps, from his shortest, to trump it later.
    playout = play_position(deal_of({0: hand}), taker=taker, script={})
    assert card_played(playout, seat=0, trick=1) == led


def test_a_position_is_only_reached_by_legal_play_a_scripted_revoke_is_refused():
    deal = deal_of({0: "R♥", 1: "4♥ 21"})
    with pytest.raises(IllegalScript, match="seat 1 may not play 21 in trick 1"):
        play_position(deal, taker=0, script={0: "R♥", 1: "21"})
