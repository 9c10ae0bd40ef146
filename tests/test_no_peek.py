"""No policy peeks (rules.md §12): a card chosen from what the player knows stays the same card
when everything it cannot know is dealt again.

At random decisions of real playouts (every contract, poignées shown, 5-player calls), the world
is redealt for the player to act: the cards it has not seen and that nobody is known to hold
(the other hands, and for a defender in Prise or Garde the écart) are shuffled between their
places, keeping each place's count and everything the player knows — shown voids, no trumps,
trump limits after an undertrump, poignées seen, the shown chien in the taker's hand or écart,
no king, bout or unshown trump in the écart, the partner once the called card is played. With
5 players the partner is whoever then holds the called card, and what follows from sides (who
won the tricks so far, whose card is winning) is recounted. The policy must choose the same card
in both worlds, in every deal where a consistent world was found. A policy that looks at the
next player's hand is caught.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import N_CARDS
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.players.policy import RandomPolicy, SimplePolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.table import Turn
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call

CARD_LO, CARD_HI = bb.from_cards(np.arange(N_CARDS)[:, None])  # (78,) one-bit pairs
ROUNDS = 60  # rejection rounds per redeal


def members(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(…, 78) bool: the cards of each set."""
    return ((lo[..., None] & CARD_LO) | (hi[..., None] & CARD_HI)) != bb.ZERO


def as_sets(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(…,) uint64 pairs from (…, 78) bool."""
    lo = np.bitwise_or.reduce(np.where(cards, CARD_LO, bb.ZERO), axis=-1)
    hi = np.bitwise_or.reduce(np.where(cards, CARD_HI, bb.ZERO), axis=-1)
    return lo, hi


def redeal(turn: Turn, rng: np.random.Generator) -> tuple[Turn, np.ndarray]:
    """Another world for the player of ``turn``, and (N,) bool: the deals where one consistent
    with what it knows was found (elsewhere the world is left as it is)."""
    table = turn.table
    k, n, n_deals = turn.position, table.players, table.n_deals
    public = table.public
    hidden_ecart = table.takes_chien & ~turn.is_taker
    # Places: the other players' rows, then the écart. What stays put in each: the cards
    # everyone knows are there (poignées seen, the chien's sure cards, the écart's trumps).
    hands = members(table.hands_lo, table.hands_hi)  # (n, N, 78)
    sure = members(public.holds_lo, public.holds_hi) & hands
    sure[k] = hands[k]
    ecart = members(table.ecart_lo, table.ecart_hi)
    shown_in_ecart = members(np.zeros_like(table.ecart_lo), public.ecart_shown_hi)
    ecart_sure = (ecart & ~hidden_ecart[:, None]) | shown_in_ecart
    places = np.concatenate([hands, ecart[None]])  # (n + 1, N, 78)
    fixed = np.concatenate([sure, ecart_sure[None]])
    loose = places & ~fixed
    counts = loose.sum(axis=2)  # (n + 1, N)
    # Where each card may go: a hand as far as the player knows (the shown chien's cards only to
    # the taker), the écart no king, bout or trump (those it holds are shown, so fixed).
    never_in_ecart = members(np.full(n_deals, bb.KINGS_LO), np.full(n_deals, bb.ALL_HI))
    allowed = np.concatenate(
        [members(public.may_hold_lo, public.may_hold_hi), ~never_in_ecart[None]]
    )
    pool = loose.any(axis=0)  # (N, 78)
    found = np.zeros(n_deals, bool)
    world = places.copy()
    for _ in range(ROUNDS):
        todo = ~found
        if not todo.any():
            break
        keys = np.where(pool[todo], rng.random((todo.sum(), N_CARDS)), 2.0)
        order = np.argsort(keys, axis=1)
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(N_CARDS)[None, :], axis=1)
        start = np.concatenate([np.zeros((1, todo.sum()), int), counts[:, todo].cumsum(axis=0)])
        dealt = (rank[None] >= start[:-1, :, None]) & (rank[None] < start[1:, :, None])
        dealt &= pool[todo][None]
        candidate = fixed[:, todo] | dealt
        ok = ~(candidate & ~allowed[:, todo] & ~fixed[:, todo]).any(axis=(0, 2))
        rows = np.flatnonzero(todo)[ok]
        world[:, rows] = candidate[:, ok]
        found[rows] = True
    other = copy.copy(table)
    other.public = table.public
    other.hands_lo, other.hands_hi = as_sets(world[:n])
    other.ecart_lo, other.ecart_hi = as_sets(world[n])
    if n == 5:
        _recount_sides(other, turn)
    if table.trick == 0:  # poignées not shown yet are unknown
        other.shown_hi = table.shown_hi.copy()
        for position in range(k + 1, n):
            seat = table.seat[position]
            other.shown_hi[seat, np.arange(n_deals)] = bb.ZERO
    return Turn(other, k, turn.legal_lo, turn.legal_hi), found


def _recount_sides(table, turn: Turn) -> None:
    """5 players: the partner is whoever holds (or has played) the called card in this world,
    and every side-dependent count follows."""
    holds = ((table.hands_lo & table.called_lo) | (table.hands_hi & table.called_hi)) != bb.ZERO
    is_partner = table.is_partner.copy()
    hidden = ~(table.revealed | turn.table.is_partner[turn.position])
    is_partner[:, hidden] = holds[:, hidden] & ~table.is_taker[:, hidden]
    table.is_partner = is_partner
    table.on_taker_side = table.is_taker | is_partner
    seats = np.arange(table.n_deals)
    taker_side_seat = np.zeros((table.players, table.n_deals), bool)
    np.put_along_axis(taker_side_seat, table.seat, table.on_taker_side, axis=0)
    won = table.winners[: table.trick]
    won_taker = np.take_along_axis(taker_side_seat, np.maximum(won, 0), axis=0) & (won >= 0)
    table.taker_tricks = won_taker.sum(axis=0)
    table.defence_tricks = table.trick - table.taker_tricks
    best = np.maximum(table.best_position, 0)
    table.best_on_taker_side = table.on_taker_side[best, seats] & (table.best_position >= 0)
    excuse = np.maximum(table.excuse_position, 0)
    table.excuse_on_taker_side = table.on_taker_side[excuse, seats] & (table.excuse_position >= 0)


class NoPeekProbe:
    """Plays like ``inner``; at about ``rate`` of its decisions it also asks ``inner`` in a
    redealt world (same random stream) and records the deals where the answers differ."""

    def __init__(self, inner, rate: float, seed: int) -> None:
        self.inner, self.rate = inner, rate
        self.name = inner.name
        self.rng = np.random.default_rng(seed)
        self.checked = 0
        self.mismatches = 0

    def choose(self, turn, rng):
        if self.rng.random() < self.rate:
            other, found = redeal(turn, self.rng)
            state = copy.deepcopy(rng.bit_generator.state)
            alt_lo, alt_hi = self.inner.choose(other, rng)
            rng.bit_generator.state = state
            lo, hi = self.inner.choose(turn, rng)
            differ = (lo != alt_lo) | (hi != alt_hi)
            self.checked += int(found.sum())
            self.mismatches += int((differ & found).sum())
            return lo, hi
        return self.inner.choose(turn, rng)


class PeekingPolicy:
    """The control: the greedy, except that it plays its highest legal card whenever the next
    player holds a trump — something it cannot know."""

    name = "peeking"

    def __init__(self) -> None:
        self.greedy = GreedyPolicy()

    def choose(self, turn, rng):
        table = turn.table
        lo, hi = self.greedy.choose(turn, rng)
        after = (turn.position + 1) % table.players
        next_has_trump = (table.hands_hi[after] & bb.TRUMPS_HI) != bb.ZERO
        top_lo, top_hi = bb.highest(turn.legal_lo), bb.highest(turn.legal_hi)
        top_in_hi = top_hi != bb.ZERO
        return (
            bb.select(next_has_trump, bb.keep(~top_in_hi, top_lo), lo),
            bb.select(next_has_trump, top_hi, hi),
        )


def probe(policy, players: int, decisions: int, seed: int) -> NoPeekProbe:
    """Plays deals (every contract in turn, poignées shown, calls) through a probe until at
    least ``decisions`` decisions were checked in a consistent redealt world."""
    rng = np.random.default_rng(seed)
    checker = NoPeekProbe(policy, rate=0.2, seed=seed)
    contracts = list(Contract)
    rounds = 0
    while checker.checked < decisions:
        n_deals = 200
        deals = deal(rng, n_deals, players, reject_petit_sec=True)
        taker = rng.integers(0, players, n_deals)
        options = {}
        if players == 5:
            options["called"] = longest_suit_call(deals.hands[np.arange(n_deals), taker])
        contract = contracts[rounds % len(contracts)]
        play(deals, taker, contract, checker, rng=rng, **options)
        rounds += 1
    return checker


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "policy", [GreedyPolicy(), SimplePolicy(), RandomPolicy()], ids=lambda p: p.name
)
def test_no_policy_peeks(players: int, policy) -> None:
    checker = probe(policy, players, decisions=10_000, seed=players)
    assert checker.checked >= 10_000
    assert checker.mismatches == 0, f"{checker.mismatches} of {checker.checked} decisions"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_peeking_policy_is_caught(players: int) -> None:
    checker = probe(PeekingPolicy(), players, decisions=2_000, seed=players)
    assert checker.mismatches > 0
