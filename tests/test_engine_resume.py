"""The engine played in parts: a game stopped at any card, some of its deals taken (repeated,
reordered), and played on, plays every taken deal as one uninterrupted playout does (and as
the same deals taken from that playout)."""

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import Deals, deal
from tarot_advisor.analyzer.playout.engine import play, play_on, start
from tarot_advisor.analyzer.playout.scoring import score
from tarot_advisor.analyzer.search.midgame import Shadow
from tarot_advisor.reports.duel import choose_takers


@pytest.mark.parametrize(
    ("players", "contract", "stop"),
    [
        (4, Contract.GARDE, 29),
        (5, Contract.PRISE, 0),
        (5, Contract.GARDE_SANS, 41),
        (3, Contract.GARDE_CONTRE, 71),
    ],
)
def test_a_game_stopped_taken_and_played_on_plays_as_one(players, contract, stop):
    deals = deal(np.random.default_rng(players), 40, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    options = dict(called=called)
    whole = play(deals, taker, contract, GreedyPolicy(), rng=np.random.default_rng(0), **options)
    game = start(deals, taker, contract, **options)
    play_on(game, GreedyPolicy(), rng=np.random.default_rng(0), until=stop)
    rows = np.array([3, 3, 0, 39, 17, 3])
    game = game.take(rows)
    play_on(game, GreedyPolicy(), rng=np.random.default_rng(0))
    part = game.playout()
    assert (part.plays == whole.plays[rows]).all()
    assert (score(part).scores == score(whole).scores[rows]).all()
    taken = whole.take(rows)
    assert (taken.plays == part.plays).all() and (taken.shown_hi == part.shown_hi).all()
    assert (score(taken).scores == score(part).scores).all()


def greedy_garde(deals: Deals, taker: np.ndarray, called: np.ndarray | None, **options):
    """``deals`` played in Garde by the greedy at every seat, the same stream every time."""
    return play(
        deals,
        taker,
        Contract.GARDE,
        GreedyPolicy(),
        rng=np.random.default_rng(1),
        called=called,
        **options,
    )


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_that_keeps_no_record_of_its_cards_scores_as_one_that_does(players):
    deals = deal(np.random.default_rng(players), 60, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    kept = greedy_garde(deals, taker, called)
    bare = greedy_garde(deals, taker, called, keep_plays=False)
    assert bare.played_lo is None and bare.played_hi is None
    assert (score(bare).scores == score(kept).scores).all()
    assert (bare.leaders == kept.leaders).all()


@pytest.mark.parametrize(
    ("players", "contract", "stop"),
    [
        (4, Contract.GARDE, 3),
        (4, Contract.GARDE, 4),
        (4, Contract.GARDE_CONTRE, 37),
        (3, Contract.PRISE, 50),
        (5, Contract.PRISE, 2),
        (5, Contract.GARDE, 5),
        (5, Contract.GARDE_SANS, 12),
        (5, Contract.GARDE_CONTRE, 40),
    ],
)
def test_a_game_followed_from_the_public_side_and_dealt_its_hidden_cards_plays_as_the_game(
    players, contract, stop
):
    """A game kept from what everyone sees (no hands, nothing aside: midgame.Shadow), given
    the cards played, then the true hands and aside, plays on as the real game does: the
    poignée seat 1 shows with its first card is still shown after the first trick (stop 4
    with 4 players: between two tricks). With 5 players, the sides are those the hands
    decide, whether the called card has been played (stops 12 and 40 have deals of both
    kinds) or not."""
    trumps = parse_cards(" ".join(str(rank) for rank in range(1, 14)))
    deals = deal(
        np.random.default_rng(players), 40, players, known_hands={1: trumps}, reject_petit_sec=True
    )
    taker, called = choose_takers(deals)
    taker[taker == 1] = 0
    game = start(deals, taker, contract, called=called)
    shadow = Shadow(game.table)
    for step in range(stop):
        play_on(game, GreedyPolicy(), rng=np.random.default_rng(0), until=step + 1)
        shadow.follow((game.tally.played_lo[step], game.tally.played_hi[step]))
    by_seat = np.argsort(game.table.seat, axis=0)
    hands_lo = np.take_along_axis(game.table.hands_lo, by_seat, axis=0)
    hands_hi = np.take_along_axis(game.table.hands_hi, by_seat, axis=0)
    aside = game.table.ecart_lo, game.table.ecart_hi
    if not contract.takes_chien:
        aside = bb.from_cards(deals.chien)
    rows = np.array([5, 0, 5, 39, *range(6, 39)])
    followed = shadow.worlds(rows, hands_lo[:, rows], hands_hi[:, rows], *(a[rows] for a in aside))
    for finished in (game, followed):
        play_on(finished, GreedyPolicy(), rng=np.random.default_rng(0))
    # A world's playout keeps no record of the cards (searches only score): the tricks'
    # leaders and winners, and the scores, say the play was the same.
    assert (followed.table.winners == game.table.winners[:, rows]).all()
    real, world = game.playout().take(rows), followed.playout()
    assert (world.leaders == real.leaders).all()
    assert (world.taker_points2 == real.taker_points2).all()
    assert (world.partner == real.partner).all() and (world.shown_hi == real.shown_hi).all()
    assert (score(world).scores == score(real).scores).all()


def test_a_chelem_announced_by_the_first_to_play_is_known_in_every_world():
    # The first to play leads anyway: only the announcement says a chelem was bid, and the
    # worlds' playouts must score it as bid (+400 made, -200 failed).
    deals = deal(np.random.default_rng(9), 6, 4, reject_petit_sec=True)
    game = start(deals, 0, Contract.GARDE, announce_chelem=True)
    assert (game.table.seat[0] == 0).all()
    hands_lo, hands_hi = game.table.hands_lo.copy(), game.table.hands_hi.copy()
    world = Shadow(game.table).worlds(
        np.arange(6), hands_lo, hands_hi, game.table.ecart_lo, game.table.ecart_hi
    )
    play_on(world, GreedyPolicy(), rng=np.random.default_rng(0))
    assert world.playout().announced_chelem.all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deals_with_and_without_a_chelem_announced_play_in_one_run_as_in_two(players):
    # The staged advice plays its chelem's first samples announced in the focus's own run.
    deals = deal(np.random.default_rng(players), 40, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    announced = np.arange(40) % 3 == 0
    both = greedy_garde(deals, taker, called, announce_chelem=announced)
    for flag in (True, False):
        rows = np.flatnonzero(announced == flag)
        alone = greedy_garde(
            Deals(players, deals.cards[rows]),
            taker[rows],
            None if called is None else called[rows],
            announce_chelem=flag,
        )
        part = both.take(rows)
        assert (part.announced_chelem == flag).all()
        assert (part.plays == alone.plays).all()
        assert (score(part).scores == score(alone).scores).all()
    # The taker leads the first trick where he announced.
    assert (both.leaders[announced, 0] == taker[announced]).all()


class _Counting(GreedyPolicy):
    """The greedy, counting the deals it is asked to play out by itself."""

    def __init__(self, plays_out: str | None) -> None:
        self.plays_out = plays_out
        self.played_out = 0

    def play_out(self, table, tally, step, end) -> None:
        self.played_out += 1
        super().play_out(table, tally, step, end)


@pytest.mark.parametrize(
    ("taker_play", "defence_play", "asked"),
    [("greedy", "greedy", 1), ("greedy", "greedy-variant", 0), (None, None, 0)],
)
def test_the_engine_plays_out_both_sides_at_once_only_for_policies_declaring_the_same_play(
    taker_play, defence_play, asked
):
    # Two policies that declare one name play alike: the taker's plays every seat in one loop.
    # Another name (a variant of the habits), or none, and every card is asked of each side.
    deals = deal(np.random.default_rng(1), 8, 4, reject_petit_sec=True)
    taker, defence = _Counting(taker_play), _Counting(defence_play)
    rng = np.random.default_rng(0)
    together = play(deals, 0, Contract.GARDE, taker, defence, rng=rng)
    alone = play(deals, 0, Contract.GARDE, GreedyPolicy(), rng=rng)
    assert taker.played_out == asked and defence.played_out == 0
    assert (together.plays == alone.plays).all()  # the same cards either way
