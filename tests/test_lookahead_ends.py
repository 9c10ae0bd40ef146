"""End positions where the greedy's card is wrong and the lookahead's is right, for 3, 4 and 5
players, the taker's side and the defence: a lookahead that played its worst card, or always the
greedy's, would play the greedy's card here and fail.

Each position is a partial record (:func:`policy_helpers.end_position`: the seats still hold
the cards given, the earlier tricks a random legal deal played by the referee), seen by the
player to lead. The greedy's card is pinned, the lookahead's (16 worlds a decision, in each of 6
runs) must be the other, and the card-play advice (the same comparison on 1,000 paired worlds)
must rank the lookahead's first by more than 5 standard errors. The gaps quoted are the advice's
on 4,000 worlds (seed 11), in the player's points."""

from __future__ import annotations

import pytest
from policy_helpers import end_position, first_choice

from tarot_advisor.analyzer.advice.cardplay import advise_play
from tarot_advisor.analyzer.cards import format_card, parse_cards
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy
from tarot_advisor.analyzer.search.position import read_position


def _end(hands: str, taker: int, seed: int, greedy: str, better: str, called: str | None = None):
    """A position: ``hands`` the cards each seat still holds, seat by seat, split by "/"; seat 0
    to lead; ``seed`` end_position's; the greedy's card and the better one."""
    kept = dict(enumerate(hand.strip() for hand in hands.split("/")))
    side = "taker" if taker == 0 else "defence"
    name = f"{len(kept)}-players-{side}-{better}-not-{greedy}"
    return pytest.param(kept, taker, called, seed, greedy, better, id=name)


# The 21 led draws a trump from every player who has one, the Petit too when it is its holder's
# last. A card of a suit led instead lets the Petit's holder, void there, trump it with the
# Petit and win the trick: the Petit is saved. Garde Sans, two tricks to go, seat 0 to lead.
TAKER_21_FIRST = (
    # Unseen: the 15, the 7 and the Petit (seat 1 holds it, beside the 7♣). The greedy's
    # taker, with one trump against three that may be out, does not draw trumps and leads his
    # low heart; the 21 first takes the Petit, and the 4♥ may then pass. 21 first: +112 ± 3
    # for the taker (made 95% of the time, not 74%).
    _end("21 4♥ / 1 7♣ / R♠ 2♦", taker=0, seed=32, greedy="4♥", better="21"),
    # Four players: unseen the 19, the 11 and the Petit, and no heart: the 4♥ is master, but
    # every defender is void in hearts. 21 first: +296 ± 6 (made 87%, not 44%).
    _end("21 4♥ / 1 7♣ / R♠ 2♦ / 9♠ 3♦", taker=0, seed=5, greedy="4♥", better="21"),
    # Five players: the taker called the R♦ and played it himself (he plays alone); unseen the
    # 20 and the Petit, no heart. 21 first: +683 ± 8 (made 94%, not 26%).
    _end("21 4♥ / 1 7♣ / R♠ 2♦ / 9♠ 3♦ / 8♠ 5♦", 0, 57, "4♥", "21", called="R♦"),
)
DEFENCE_21_FIRST = (
    # Seat 0 defends with the 21 and the R♥, the taker (seat 1) holds the Petit and the 10♣;
    # unseen: the 18 and the Petit. With no low card to lead, the greedy leads the cheaper of
    # its two, the king, which the taker, void in hearts, trumps with the Petit; the 21 first
    # makes the Petit fall (a bout to the defence). 21 first: +97 ± 2 for the defender (the
    # contract made 4% of the time, not 43%).
    _end("21 R♥ / 1 10♣ / 6♥ 6♠", taker=1, seed=11, greedy="R♥", better="21"),
    # Four players: the taker has shown no spade and no heart, and (undertrumping) no trump
    # above the 10; seats 2 and 3 have no trump: the unseen 18 lies in the chien, and the
    # Petit, when it is not there too, is the taker's last trump. The king is trumped; the 21
    # draws the Petit. 21 first: +20.9 ± 0.5 (the contract is lost either way).
    _end("21 R♥ / 1 10♣ / 6♥ 6♠ / 9♠ 3♦", taker=1, seed=139, greedy="R♥", better="21"),
    # Five players: the called R♦ fell to seat 2, the partner; seats 2, 3 and 4 have shown they
    # have no trump left, and the taker that he has no heart: the unseen 19 and Petit are his
    # or the chien's. The king led is trumped for sure; the 21 draws the taker's trump, the
    # Petit when it is his last. 21 first: +210 ± 2 (the contract made 1%, not 75%).
    _end("21 R♥ / 1 10♣ / 6♥ 6♠ / 9♠ 3♦ / 8♠ 5♦", 1, 51, "R♥", "21", called="R♦"),
)


@pytest.mark.parametrize(
    ("kept", "taker", "called", "seed", "greedy", "better"), [*TAKER_21_FIRST, *DEFENCE_21_FIRST]
)
def test_the_lookahead_leaves_the_greedys_wrong_card(kept, taker, called, seed, greedy, better):
    data = end_position(len(kept), "garde_sans", taker, 0, kept, seed=seed, called=called)
    position = read_position(data)
    side = "defence" if position.role == "defence" else "taker"
    assert first_choice(data, GreedyPolicy()) == {greedy}
    assert first_choice(data, LookaheadPolicy(worlds=16, side=side)) == {better}
    # The lookahead's card is the better one on many more worlds than it searched.
    advice = advise_play(
        position, samples=1000, seed=3, candidates=parse_cards(f"{greedy} {better}")
    )
    best, worse = advice.cards
    assert format_card(best.card) == better
    assert worse.versus_best.mean + 5 * worse.versus_best.se < 0
