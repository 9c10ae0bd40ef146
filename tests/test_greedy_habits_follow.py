"""The greedy's habits when following (analyzer/players/habits.py), with 3, 4 and 5 players:
feed an ally sure to win the trick (feed_a_sure_partner), and else give the least (give_least).

Seat 0 leads and seat 1 plays second, as seat 0's ally: with 3 players both defend against the
taker, seat 2; with 4 the taker is seat 2 and seat 3 defends; with 5 the taker leads and seat 1,
who holds the called R♣, is his partner and knows it, while seats 2 to 4 defend. Or seat 0 is
the taker and seat 1 defends (with 5 players the R♣ is then seat 4's, and seat 1 knows nobody's
side). The cards "out" are those seat 1 has not seen. Garde Sans."""

import pytest
from policy_helpers import card_played, deal_of, first_card, hand_of, play_position, suit_but

from tarot_advisor.analyzer.game import hand_size

TAKER = {3: 2, 4: 2, 5: 0}
LATER_OPPONENTS = {3: 1, 4: 1, 5: 3}
FILLER = "D♣ C♣ V♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥"


def seat_1_plays(players: int, led: str, cards: str, taker: int | None = None) -> str:
    """The card seat 1, holding ``cards`` (its hand filled up with clubs and hearts), plays to
    seat 0's lead ``led``: seat 0 is seat 1's ally (the taker as the module says), or the taker
    when ``taker`` is 0 (with 5 players the called R♣ is then seat 4's)."""
    partner = players == 5 and taker is None
    taker = TAKER[players] if taker is None else taker
    hands = {0: led, 1: hand_of(players, cards, "R♣ " * partner + FILLER)}
    called = "R♣" if players == 5 else None
    if players == 5 and not partner:
        hands[4] = "R♣"
    return first_card(players, hands, taker, seat=1, script={0: led}, called=called)


def diamonds_from(high: str, out: int) -> str:
    """The diamonds from ``high`` down, leaving the ``out`` lowest ones out."""
    ranks = ["R", "D", "C", "V", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
    return " ".join(rank + "♦" for rank in ranks[ranks.index(high) : 14 - out])


def lowest_held(out: int) -> str:
    return f"{out + 1}♦"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("led", "held"),
    [("D♦", "R♦ " + diamonds_from("C", 6)), ("R♦", diamonds_from("D", 6))],
    ids=["the-dame-under-his-king", "the-king-led"],
)
def test_the_ally_feeds_no_trick_a_later_opponent_may_trump(players, led, held):
    # Seat 0 leads a diamond no diamond out can beat: the D♦ under seat 1's R♦, or the R♦.
    # Plenty of diamonds are out, so the opponents after seat 1 likely follow; but any of them
    # may hold a trump and be void: seat 1 gives his lowest diamond, not his king or dame.
    # (Measured, 10,000 Garde deals a count, the greedy's defence against the simple's taker:
    # feeding such tricks when the others likely follow cost 1.5 ± 0.2 a deal with 3 and 4
    # players.)
    assert seat_1_plays(players, led, held) == "7♦"


SUITED = " ".join(suit_but(suit) for suit in "♠♥♣♦").split()


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("trump_shown", "given"),
    [(False, "D♦"), (True, "2♦")],
    ids=["every-later-seat-showed-no-trump-feed-the-dame", "seat-2-played-the-19-the-least"],
)
def test_the_ally_feeds_the_kings_trick_once_no_later_opponent_may_trump(
    players, trump_shown, given
):
    # Trick 1: seat 0 leads the 21, seat 1 gives his 2, and every later seat discards a plain
    # card, void in trumps — or seat 2, an opponent of seat 1's, plays the 19 and may hold
    # more. Trick 2: seat 0 leads the R♦. Seat 1 holds D♦ C♦ 2♦. When no opponent after him
    # may hold a trump, nobody can take the king: he gives his dame. Else his 2♦.
    size = hand_size(players)
    seat_1 = ["D♦", "C♦", "2♦", *["R♣"] * (players == 5), *map(str, range(2, 19)), "20"]
    seat_1 += ["Excuse", "1♣", "2♣"][: size - len(seat_1)]  # 24 cards with 3 players
    plain = [card for card in SUITED if card not in seat_1 and card != "R♦"]
    hands = {1: seat_1[:size]}
    script = {0: "21 R♦", 1: "2"}
    for seat in range(2, players):
        trumped = trump_shown and seat == 2
        hands[seat] = ["19"] * trumped + plain[: size - trumped]
        plain = plain[size - trumped :]
        script[seat] = hands[seat][0]
    hands[0] = ["21", "R♦", *plain][:size]
    hands = {seat: " ".join(cards) for seat, cards in hands.items()}
    deal = deal_of(hands, players=players)
    called = "R♣" if players == 5 else None
    playout = play_position(deal, taker=TAKER[players], script=script, called=called)
    assert card_played(playout, seat=1, trick=2) == given


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_ally_does_not_feed_a_dame_that_the_king_out_may_beat(players):
    # Seat 0 leads D♦ while R♦ is out: an opponent after seat 1 may hold it. Plenty of diamonds
    # are out, so none is likely void, but the dame is not sure to win: seat 1 gives his
    # lowest diamond, not his cavalier.
    out = 2 * LATER_OPPONENTS[players]
    assert seat_1_plays(players, "D♦", diamonds_from("C", out)) == lowest_held(out)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("led", "given"),
    [("21", "1"), ("6", "5")],
    ids=["the-21-is-sure-the-petit-slips-under-it", "the-6-may-be-overtrumped-keep-the-petit"],
)
def test_under_the_allys_sure_trump_the_petit_slips_in(players, led, given):
    # Seat 0 leads a trump; seat 1 holds the Petit and the 5. Nobody can beat the 21: the
    # Petit is safe under it. The 6 may be overtrumped by an opponent after seat 1: he gives
    # his 5 and keeps the Petit.
    assert seat_1_plays(players, led, "1 5") == given


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("taker", "led", "cards", "given"),
    [
        (0, "R♠", "D♠ Excuse", "Excuse"),
        (0, "R♠", "D♠ 2♠ Excuse", "2♠"),
        (0, "21", "1 5 Excuse", "5"),
        (0, "21", "1 Excuse", "Excuse"),
        (None, "D♠", "C♠ Excuse", "C♠"),
    ],
    ids=[
        "the-excuse-saves-the-dame-from-the-taker",
        "a-small-spade",
        "a-small-trump-keeps-the-petit",
        "the-excuse-saves-the-petit",
        "under-the-allys-unsure-dame-the-cavalier-not-the-excuse",
    ],
)
def test_losing_the_trick_seat_1_gives_the_least(players, taker, led, cards, given):
    # The taker, seat 0, leads R♠ or the 21, which seat 1 cannot beat: the Excuse saves a face
    # card or the Petit, else the least card goes. When the trick is his ally's D♠ (R♠ out, it
    # may be beaten), seat 1 gives his cavalier: the Excuse would not save it from his own side.
    assert seat_1_plays(players, led, cards, taker) == given


@pytest.mark.parametrize(
    ("called_holder", "given"),
    [(1, "1"), (4, "5")],
    ids=["the-partner-knows-his-takers-21-the-petit-slips-under", "a-defender-does-not-know-whose"],
)
def test_with_5_players_only_a_known_ally_is_fed(called_holder, given):
    # Seat 0 leads the 21. Seat 1, holding the called R♣, knows that seat 0 is his taker: the
    # Petit is safe under his 21. When the taker is seat 2 and the R♣ is seat 4's, seat 1 does
    # not know seat 0's side before the king appears: he gives his 5 and keeps the Petit.
    partner = called_holder == 1
    taker = 0 if partner else 2
    hands = {0: "21", 1: hand_of(5, "1 5 R♣" if partner else "1 5", FILLER)}
    if not partner:
        hands[4] = "R♣"
    assert first_card(5, hands, taker, seat=1, script={0: "21"}, called="R♣") == given


# --- win_cheaply: a void shown counts, and the Petit only where it is safe -----------------------

TAKER_HAND = "R♥ 3♥ 1♥ 2♠ 11 12 13 14 15 16 R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ 1♦"
SEAT_2 = "2 1♠ 3 4 6 7 8 9 10 R♣ D♣ C♣ V♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣ 17 18"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("seat_2_plays", "played"),
    [("D♥", "R♥"), ("2", "1♥")],
    ids=["nobody-showed-a-void-the-king-wins", "seat-2-trumped-hearts-the-least"],
)
def test_the_taker_wins_with_his_king_unless_a_later_defender_has_shown_a_void(
    players, seat_2_plays, played
):
    # Trick 1: seat 0 leads 2♥, the taker (seat 1) gives 3♥, seat 2 takes with D♥ or trumps
    # with his 2, void in hearts. Trick 2: seat 2 leads 1♠, which seat 0 wins with R♠. Trick
    # 3: seat 0 leads 4♥. Enough hearts are out for the defenders after the taker to follow;
    # his king wins unless seat 2, who has shown he has none, is there to trump it: then the
    # taker gives his 1♥.
    hands = {0: "2♥ R♠ 4♥", 1: hand_of(players, TAKER_HAND), 2: hand_of(players, SEAT_2)}
    hands[2] = hands[2].replace("2 ", f"{seat_2_plays} ", 1)
    script = {0: "2♥ R♠ 4♥", 1: "3♥ 2♠", 2: f"{seat_2_plays} 1♠"}
    for seat in range(3, players):
        hands[seat] = script[seat] = f"{seat + 3}♥ {seat}♠"
    called = "R♦" if players == 5 else None  # the taker's own king: he plays alone
    deal = deal_of(hands, players=players)
    playout = play_position(deal, taker=1, script=script, called=called)
    assert card_played(playout, seat=1, trick=3) == played


TAKER_TRUMPS = "R♦ 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_taker_wins_cheaply_when_the_one_after_him_showed_no_heart_and_no_trump(players):
    # The taker plays second-to-last, the last seat after him. Trick 1: seat 0 leads 10♥, the
    # seats between follow low, the taker gives 2♥, and the last seat discards 1♣: he has no
    # heart, and no trump either, or he would have had to trump. Trick 2: seat 0 leads 3♥.
    # The last seat can neither follow nor trump: the taker wins with his V♥, the cheapest
    # heart that wins, not his king — nor his 1♥, as when that seat may trump (see above).
    taker = players - 2
    last = players - 1
    hands = {0: "10♥ 3♥", taker: hand_of(players, "2♥ R♥ V♥ 1♥", TAKER_TRUMPS)}
    hands[last] = hand_of(players, suit_but("♣"), suit_but("♠"))
    script = {0: "10♥ 3♥", taker: "2♥", last: "1♣"}
    for seat in range(1, taker):
        hands[seat] = script[seat] = f"{seat + 3}♥ {seat + 5}♥"
    called = "R♦" if players == 5 else None  # the taker's own king: he plays alone
    playout = play_position(deal_of(hands, players=players), taker, script, called=called)
    assert card_played(playout, seat=taker, trick=2) == "V♥"


TRUMPING_TAKER = "1 5 R♥ D♥ C♥ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥ R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦ 7♦"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("last", "played"),
    [(True, "1"), (False, "5")],
    ids=["last-the-petit-cannot-be-overtrumped", "a-defender-after-him-may-overtrump-the-5"],
)
def test_the_taker_void_trumps_with_the_petit_only_when_nobody_can_overtrump(players, last, played):
    # Seat 0 leads 1♠; the taker, void in spades, holds two trumps: the Petit and the 5. Last
    # to play, he wins with the Petit, which nobody can take. With defenders after him who may
    # hold higher trumps, he trumps with his 5: the Petit would be overtrumped and lost.
    taker = players - 1 if last else 1
    hands = {0: "1♠", taker: hand_of(players, TRUMPING_TAKER)}
    script = {0: "1♠"}
    for seat in range(1, taker):
        hands[seat] = script[seat] = f"{seat + 1}♠"
    called = "R♦" if players == 5 else None  # the taker's own king: he plays alone
    assert first_card(players, hands, taker, seat=taker, script=script, called=called) == played


DEFENDERS_TRUMPS = {1: "19 18", 2: "17 16", 3: "15 14"}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("unseen", "played"),
    [("", "2"), ("9", "1")],
    ids=["every-trump-seen-the-2-keeps-the-petit-for-the-end", "the-9-unseen-the-petit-wins-now"],
)
def test_the_taker_keeps_the_petit_for_the_last_trick_once_no_defender_may_hold_a_trump(
    players, unseen, played
):
    # The taker, last to play, holds every trump from the Petit up but the 21, the 20 and the
    # two that each other defender holds (seat 1 the 19 and 18, seat 2 the 17 and 16, ...).
    # Seat 0 leads the 21 and the 20, and everyone plays his trumps (the taker his 11 and 10):
    # the defence has none left. Trick 3: seat 0 leads 1♠, the taker has no spade. Nobody can
    # take his Petit any more: he trumps with his 2 and keeps it for the last trick (the Petit
    # au bout). When the 9 is in the chien, which he has not seen, a defender may hold it: the
    # Petit, which wins this trick, is played now.
    taker = players - 1
    highest = 21 - 2 * (players - 1)
    trumps = [str(n) for n in range(1, highest + 1) if str(n) not in ("11", "10", unseen)]
    hands = {0: "21 20 1♠", taker: hand_of(players, "11 10 R♦", *trumps, suit_but("♥"))}
    script = {0: "21 20 1♠", taker: "11 10"}
    for seat in range(1, taker):
        hands[seat] = script[seat] = f"{DEFENDERS_TRUMPS[seat]} {seat + 1}♠"
    called = "R♦" if players == 5 else None  # the taker's own king: he plays alone
    deal = deal_of(hands, unseen, players=players)
    playout = play_position(deal, taker, script, called=called)
    assert card_played(playout, seat=taker, trick=3) == played


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_ally_does_not_overtake_his_allys_trick_even_unsure(players):
    # Seat 0 leads V♦, which an opponent after seat 1 may beat (D♦ and C♦ are out). Seat 1
    # could win safely with his R♦, but the trick is his own side's: he gives his 2♦.
    assert seat_1_plays(players, "V♦", "R♦ 2♦") == "2♦"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_void_under_his_allys_unsure_trick_with_the_petit_and_the_21_he_plays_the_21(players):
    # Seat 0 leads V♦, which an opponent may beat. Seat 1, void in diamonds, must trump, and
    # holds only the Petit and the 21: the Petit could be lost, the 21 cannot.
    assert seat_1_plays(players, "V♦", "1 21") == "21"
