"""The greedy playing every seat plays each deal out in one compiled loop
(:meth:`GreedyPolicy.play_out`): the same cards, tricks and scores as the engine asking it at
every card, whether the loop starts at the first card or in the middle of a trick, and stops
at the end or at any card. And a trick's closing (:func:`tally.close_trick`), on concrete
cards: the Excuse in a chelem's last trick, and the Excuse kept by its side."""

from __future__ import annotations

import numpy as np
import pytest
from policy_helpers import SeatScript, deal_of

from tarot_advisor.analyzer.game import Contract, hand_size
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play_on, start
from tarot_advisor.analyzer.playout.scoring import score
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call


class CardByCard:
    """The greedy, asked at every card (it has no ``play_out``)."""

    name = "greedy, card by card"

    def __init__(self) -> None:
        self.greedy = GreedyPolicy()

    def choose(self, turn, rng):
        return self.greedy.choose(turn, rng)


def started(players: int, contract: Contract, seed: int):
    deals = deal(np.random.default_rng(seed), 50, players, reject_petit_sec=True)
    taker = np.random.default_rng(seed + 1).integers(0, players, 50)
    options = {}
    if players == 5:
        options["called"] = longest_suit_call(deals.hands[np.arange(50), taker])
    return lambda: start(deals, taker, contract, **options)


@pytest.mark.parametrize(
    ("players", "contract", "stops"),
    [
        (3, Contract.GARDE_CONTRE, (0, 39)),
        (4, Contract.GARDE, (6, 28, 29)),
        (4, Contract.PRISE, (0,)),
        (5, Contract.GARDE_SANS, (3, 52, 74)),
    ],
)
def test_played_out_in_one_loop_as_card_by_card(players, contract, stops) -> None:
    """The policies take turns at the stops (the greedy's loop, then card by card, …): every
    way plays the same cards to the same scores, and leaves the table where the engine's own
    loop does."""
    new_game = started(players, contract, seed=players)
    rng = np.random.default_rng(0)
    reference = new_game()
    play_on(reference, CardByCard(), rng=rng)
    for first in (GreedyPolicy(), CardByCard()):
        game = new_game()
        policies = [first, CardByCard() if isinstance(first, GreedyPolicy) else GreedyPolicy()]
        for turn, stop in enumerate((*stops, None)):
            play_on(game, policies[turn % 2], rng=rng, until=stop)
            if stop is not None:
                beside = new_game()
                play_on(beside, CardByCard(), rng=rng, until=stop)
                assert (game.table.trick, game.table.position) == (
                    beside.table.trick,
                    beside.table.position,
                )
                assert (game.table.seat == beside.table.seat).all()
        done, expected = game.playout(), reference.playout()
        assert (done.plays == expected.plays).all()
        assert (done.leaders == expected.leaders).all()
        assert (game.table.winners == reference.table.winners).all()
        assert (score(done).scores == score(expected).scores).all()
        assert game.step == hand_size(players) * players


TAKER_TRUMPS = "21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5"


@pytest.mark.parametrize("last", [GreedyPolicy(), CardByCard()], ids=["one loop", "by card"])
def test_the_excuse_wins_a_chelems_last_trick(last) -> None:
    """Seat 0 announces a chelem with every trump from the 5 and the Excuse: it wins the 17
    tricks with trumps (nobody holds a higher one), then the last with the Excuse, its last
    card. The Excuse wins that trick, the taker's side holds all 91 points and the 3 bouts.
    The last trick is closed by the greedy's loop, or card by card."""
    deals = deal_of({0: TAKER_TRUMPS + " Excuse"})
    game = start(deals, 0, Contract.GARDE_SANS, announce_chelem=True)
    rng = np.random.default_rng(0)
    play_on(game, SeatScript({0: TAKER_TRUMPS}), rng=rng, until=17 * 4)
    play_on(game, last, rng=rng)
    playout = game.playout()
    assert (game.table.winners[:, 0] == 0).all()
    assert playout.chelem[0] == 1 and game.tally.won_by_excuse[0]
    assert playout.taker_points2[0] == 182 and playout.bouts[0] == 3


def test_the_excuse_stays_with_its_side_for_a_half_point_card() -> None:
    """Seat 0 (the taker) leads the 21 and seat 1 plays the Excuse under it: the taker's side
    wins the trick but not the Excuse, which seat 1's side keeps, giving the taker's side a
    half-point card for it (one exchange, +1)."""
    deals = deal_of({0: "21", 1: "Excuse"})
    game = start(deals, 0, Contract.GARDE_SANS)
    play_on(game, SeatScript({0: "21", 1: "Excuse"}), rng=np.random.default_rng(0), until=4)
    assert game.table.winners[0, 0] == 0
    assert game.tally.won_hi[0] & bb.EXCUSE_HI == 0
    assert game.tally.won_hi[0] & bb.TWENTY_ONE_HI != 0
    assert game.tally.exchange2[0] == 1
