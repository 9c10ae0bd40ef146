"""The compiled greedy (analyzer/greedy_kernel.py) plays the array greedy's cards, every one.

Whole games are played twice on the same deals, once by each version, and must match card for
card: 3, 4 and 5 players, every contract, poignées shown and hidden, an announced chelem, and
the lookahead's searches, whose rollouts play the greedy from the middle of worlds it deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from tarot_advisor.analyzer import greedy
from tarot_advisor.analyzer.calling import longest_suit_call
from tarot_advisor.analyzer.deal import deal
from tarot_advisor.analyzer.engine import play
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.greedy import GreedyPolicy
from tarot_advisor.analyzer.lookahead import LookaheadPolicy

pytest.importorskip("numba")


def setting(players: int, seed: int, n_deals: int):
    rng = np.random.default_rng(seed)
    deals = deal(rng, n_deals, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n_deals)
    options = {}
    if players == 5:
        options["called"] = longest_suit_call(deals.hands[np.arange(n_deals), taker])
    return deals, taker, options


def same_cards(first, second) -> np.ndarray:
    """(N,) bool: the two playouts played the same cards in the same order."""
    return (first.played_lo == second.played_lo).all(axis=0) & (
        first.played_hi == second.played_hi
    ).all(axis=0)


def both_versions(deals, taker, contract, **options):
    return [
        play(
            deals,
            taker,
            contract,
            GreedyPolicy(compiled=compiled),
            rng=np.random.default_rng(0),
            **options,
        )
        for compiled in (True, False)
    ]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("contract", list(Contract))
def test_the_compiled_greedy_plays_the_same_cards(players, contract):
    deals, taker, options = setting(players, 10 * players + contract.code, 600)
    compiled, arrays = both_versions(deals, taker, contract, **options)
    assert same_cards(compiled, arrays).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_same_cards_after_an_announced_chelem_and_hidden_poignees(players):
    deals, taker, options = setting(players, 99 + players, 400)
    compiled, arrays = both_versions(
        deals, taker, Contract.GARDE, announce_chelem=True, others_poignees=False, **options
    )
    assert same_cards(compiled, arrays).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_lookahead_searches_the_same_with_either_rollout(players):
    deals, taker, options = setting(players, 7 * players, 6)
    plays = [
        play(
            deals,
            taker,
            Contract.GARDE,
            LookaheadPolicy(worlds=4, side="taker", rollout=GreedyPolicy(compiled=compiled)),
            LookaheadPolicy(worlds=4, side="defence", rollout=GreedyPolicy(compiled=compiled)),
            rng=np.random.default_rng(5),
            **options,
        )
        for compiled in (True, False)
    ]
    assert same_cards(*plays).all()


def test_a_process_switches_to_the_compiled_greedy_once_it_has_played_enough(monkeypatch):
    monkeypatch.setattr(greedy, "_compiled", greedy._Compiled())
    monkeypatch.setattr(greedy, "COMPILE_AFTER_SECONDS", 0.0)
    deals, taker, _ = setting(4, 1, 50)
    automatic = play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(0))
    assert greedy._compiled.kernel is not None
    arrays = play(
        deals, taker, Contract.GARDE, GreedyPolicy(compiled=False), rng=np.random.default_rng(0)
    )
    assert same_cards(automatic, arrays).all()


def test_a_quick_run_never_loads_it(monkeypatch):
    monkeypatch.setattr(greedy, "_compiled", greedy._Compiled())
    deals, taker, _ = setting(4, 2, 20)
    play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(0))
    assert greedy._compiled.kernel is None
