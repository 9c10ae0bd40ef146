"""The compiled twins (analyzer/playout/compiled.py) play the array versions' cards and keep
their state.

The same deals are played twice, once with the array versions only and once with the compiled
twins (the greedy's choice, laying a card down), and must match: every card, and every array of
the table, of its public knowledge and of the tally, both at the end and stopped in the middle
of a trick. 3, 4 and 5 players, every contract, poignées shown and hidden, an announced chelem,
and the lookahead's searches, whose rollouts play from the middle of the worlds they deal.
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pytest

from tarot_advisor.analyzer.game import Contract, hand_size
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import compiled
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play, play_on, start
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy

pytest.importorskip("numba")


@pytest.fixture(autouse=True, scope="module")
def twins_loaded():
    assert compiled.load()


def setting(players: int, seed: int, n_deals: int):
    rng = np.random.default_rng(seed)
    deals = deal(rng, n_deals, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n_deals)
    options = {}
    if players == 5:
        options["called"] = longest_suit_call(deals.hands[np.arange(n_deals), taker])
    return deals, taker, options


def state(game) -> dict[str, np.ndarray]:
    """Every array of a game in play: its table's, public knowledge's and tally's."""
    arrays = {}
    parts = {"table": game.table, "public": game.table.public, "tally": game.tally}
    for prefix, part in parts.items():
        for name, value in vars(part).items():
            if isinstance(value, np.ndarray):
                arrays[f"{prefix}.{name}"] = value
    return arrays


def played_both_ways(deals, taker, contract, until=None, **options):
    games = []
    for arrays_only in (True, False):
        game = start(deals, taker, contract, **options)
        with compiled.arrays_only() if arrays_only else nullcontext():
            play_on(game, GreedyPolicy(), rng=np.random.default_rng(0), until=until)
        games.append(game)
    return games


def assert_same_state(arrays_game, compiled_game):
    expected, got = state(arrays_game), state(compiled_game)
    assert expected.keys() == got.keys()
    for name, value in expected.items():
        assert got[name].dtype == value.dtype, name
        assert np.array_equal(got[name], value), name


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("contract", list(Contract))
def test_the_compiled_twins_play_the_same_cards_to_the_same_state(players, contract):
    deals, taker, options = setting(players, 10 * players + contract.code, 500)
    arrays_game, compiled_game = played_both_ways(deals, taker, contract, **options)
    assert_same_state(arrays_game, compiled_game)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("card", [1, 2, 7, 30])
def test_the_same_state_in_the_middle_of_a_trick(players, card):
    deals, taker, options = setting(players, 50 + players + card, 300)
    until = min(card, hand_size(players) * players - 1)
    assert_same_state(*played_both_ways(deals, taker, Contract.GARDE, until=until, **options))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_same_after_an_announced_chelem_and_hidden_poignees(players):
    deals, taker, options = setting(players, 99 + players, 400)
    arrays_game, compiled_game = played_both_ways(
        deals, taker, Contract.GARDE, announce_chelem=True, others_poignees=False, **options
    )
    assert_same_state(arrays_game, compiled_game)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_lookahead_searches_the_same_with_either(players):
    deals, taker, options = setting(players, 7 * players, 6)
    plays = []
    for arrays_only in (True, False):
        with compiled.arrays_only() if arrays_only else nullcontext():
            plays.append(
                play(
                    deals,
                    taker,
                    Contract.GARDE,
                    LookaheadPolicy(worlds=4, side="taker"),
                    LookaheadPolicy(worlds=4, side="defence"),
                    rng=np.random.default_rng(5),
                    **options,
                )
            )
    assert np.array_equal(plays[0].played_lo, plays[1].played_lo)
    assert np.array_equal(plays[0].played_hi, plays[1].played_hi)


def test_a_process_loads_the_twins_once_it_has_played_enough(monkeypatch):
    monkeypatch.setattr(compiled, "_process", compiled._Process())
    monkeypatch.setattr(compiled, "COMPILE_AFTER_SECONDS", 0.0)
    deals, taker, _ = setting(4, 1, 20)
    play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(0))
    assert compiled.twins() is not None


def test_a_quick_run_never_loads_them(monkeypatch):
    monkeypatch.setattr(compiled, "_process", compiled._Process())
    deals, taker, _ = setting(4, 2, 20)
    play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(0))
    assert compiled.twins() is None


def test_without_numba_the_array_versions_play_on(monkeypatch):
    def no_numba():
        raise ImportError("No module named 'numba'")

    monkeypatch.setattr(compiled, "_process", compiled._Process())
    monkeypatch.setattr(compiled, "Twins", no_numba)
    monkeypatch.setattr(compiled, "COMPILE_AFTER_SECONDS", 0.0)
    assert not compiled.load()
    deals, taker, _ = setting(4, 3, 20)
    playout = play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(0))
    assert compiled.twins() is None
    assert len(playout) == 20
