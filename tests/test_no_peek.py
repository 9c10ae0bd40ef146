"""No policy peeks (rules.md §12): a card chosen from what the player knows stays the same card
when everything it cannot know is dealt again.

At random decisions of real playouts (every contract, poignées shown, 5-player calls), the world
is redealt for the player to act: the cards it has not seen and that nobody is known to hold
(the other hands, and for a defender in Prise or Garde the écart) are shuffled between their
places, keeping each place's count and everything the player knows. What it knows is the
oracle's (tests/knowledge_oracle.py, derived from the deal by the referee), not the engine's
model: shown voids, no trumps, trump limits after an undertrump, poignées seen, the shown chien
in the taker's hand or écart, no king, bout or unshown trump in the écart, the partner once the
called card is played. The redealt deal is then seated by the engine and its cards so far
played again, so that all the table derives from the hands (its knowledge, the sides: with 5
players the partner is whoever holds the called card in the new world) is derived anew. The
policy must choose the same card in both worlds, in every deal where a consistent world was
found. A policy that looks at the next player's hand is caught, and so is a model that lets a
hidden card leak into what a player knows.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from knowledge_oracle import Known, Watcher

from tarot_advisor.analyzer.cards import N_CARDS
from tarot_advisor.analyzer.game import CONTRACTS, Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.players.policy import RandomPolicy, SimplePolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import Deals, deal
from tarot_advisor.analyzer.playout.ecart import FixedEcart
from tarot_advisor.analyzer.playout.engine import play, play_on, start
from tarot_advisor.analyzer.playout.table import Turn
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.referee import Game

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


_BIT = [1 << card for card in range(N_CARDS)]
_WORD = (1 << 64) - 1


def as_members(sets: list[list[frozenset[int]]]) -> np.ndarray:
    """(h, N, 78) bool from sets of card ids, per deal (N) and place (h)."""
    masks = [[sum(map(_BIT.__getitem__, cards)) for cards in places] for places in sets]
    low = np.array([[m & _WORD for m in row] for row in masks], np.uint64)
    high = np.array([[m >> 64 for m in row] for row in masks], np.uint64)
    shifts = np.arange(64, dtype=np.uint64)
    bits = np.concatenate([(low[..., None] >> shifts) & 1, (high[..., None] >> shifts) & 1], -1)
    return bits[..., :N_CARDS].astype(bool).transpose(1, 0, 2)


def redeal(
    turn: Turn, known: list[Known], history: list[tuple], rng: np.random.Generator
) -> tuple[Turn, np.ndarray]:
    """Another world for the player of ``turn``, and (N,) bool: the deals where one consistent
    with what it knows (``known``, the oracle's, one per deal) was found (elsewhere the world is
    left as it is). ``history``: (lo, hi, seat) of every card played so far."""
    table = turn.table
    n_deals = table.n_deals
    # Places: the players' rows, then the écart. What stays put in each: the cards the player
    # knows are there (its hand, poignées seen, the chien's sure cards, the écart's trumps).
    hands = members(table.hands_lo, table.hands_hi)  # (n, N, 78)
    ecart = members(table.ecart_lo, table.ecart_hi)
    places = np.concatenate([hands, ecart[None]])  # (n + 1, N, 78)
    seated = list(zip(known, table.seat.T.tolist(), strict=True))  # seats by row, per deal
    fixed = as_members([[*(kn.holds[s] for s in order), kn.aside_holds] for kn, order in seated])
    allowed = as_members(
        [[*(kn.may_hold[s] for s in order), kn.aside_may_hold] for kn, order in seated]
    )
    # The oracle must describe the true world too: its sure cards are there, and every card
    # is where it may be.
    assert not (fixed & ~places).any(), "the oracle places a card where it is not"
    assert not (places & ~allowed).any(), "the oracle rules out where a card is"
    loose = places & ~fixed
    counts = loose.sum(axis=2)  # (n + 1, N)
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
        ok = ~(candidate & ~allowed[:, todo]).any(axis=(0, 2))
        rows = np.flatnonzero(todo)[ok]
        world[:, rows] = candidate[:, ok]
        found[rows] = True
    return _replayed(turn, world, history), found


def _replayed(turn: Turn, world: np.ndarray, history: list[tuple]) -> Turn:
    """The decision of ``turn`` in the world ``world`` ((n + 1, N, 78) bool, rows by position,
    then the écart): the deal as it would have been dealt (each hand now with the cards its
    seat played; the taker's with its écart, less the chien shown), seated by the engine and
    its ``history`` ((lo, hi, seat) of every card so far) played again, so that everything the
    table derived from the hands (its knowledge, the sides) is derived again in this world."""
    table = turn.table
    n, n_deals = table.players, table.n_deals
    takes = table.takes_chien
    now = np.zeros((n, n_deals, N_CARDS), bool)  # rows by seat
    np.put_along_axis(now, table.seat[:, :, None], world[:n], axis=0)
    for lo, hi, seat in history:
        now[seat, np.arange(n_deals)] |= members(lo, hi)
    ecart = world[n]
    chien = members(table.public.chien_lo, table.public.chien_hi)
    taker = now[table.taker_seat, np.arange(n_deals)]
    now[table.taker_seat, np.arange(n_deals)] = (taker | ecart) & ~(chien & takes[:, None])
    aside = ~now.any(axis=0)  # the chien as dealt: the shown one, or what no hand holds
    cards = np.concatenate(
        [np.nonzero(now[seat])[1].reshape(n_deals, -1) for seat in range(n)]
        + [np.nonzero(aside)[1].reshape(n_deals, -1)],
        axis=1,
    ).astype(np.uint8)
    called = None
    if n == 5:
        called = bb.card_ids(table.called_lo, table.called_hi).astype(np.int64)
    shown = table.shown_by_now()
    game = start(
        Deals(n, cards),
        table.taker_seat,
        table.contracts,
        called=called,
        ecart_policy=FixedEcart(*as_sets(ecart)),
        poignee_policy=ShownPoignees(np.bitwise_or.reduce(shown, axis=0)),
        announce_chelem=table.announced_chelem,
    )
    play_on(game, Script(history), rng=np.random.default_rng(0), until=len(history))
    other = game.table
    other.trick = table.trick  # play_on moves to the next trick with its first card
    legal = other.legal()
    assert (legal[0] == turn.legal_lo).all() and (legal[1] == turn.legal_hi).all()
    return Turn(other, turn.position, *legal)


class Script:
    """Plays the cards of a history ((lo, hi, seat) per step), step by step."""

    name = "script"

    def __init__(self, history: list[tuple]) -> None:
        self.history = history

    def choose(self, turn, rng):
        step = turn.table.trick * turn.table.players + turn.position
        return self.history[step][:2]


class ShownPoignees:
    """Shows, from each hand, the trumps among ``shown`` ((N,) uint64): the poignées the
    player to act has seen."""

    def __init__(self, shown: np.ndarray) -> None:
        self.shown = shown

    def choose(self, hand_hi, players):
        return hand_hi & self.shown


def watchers(table) -> list[Watcher]:
    """The oracle's watcher of every deal of ``table``, before its first card: the referee's
    game of the deal as the table holds it."""
    out = []
    for d in range(table.n_deals):
        by_seat = np.argsort(table.seat[:, d])
        hands = [bb.to_cards(int(table.hands_lo[r, d]), int(table.hands_hi[r, d])) for r in by_seat]
        contract = CONTRACTS[int(table.contracts[d])]
        takes = contract.takes_chien
        shown = [
            (seat, bb.to_cards(0, int(table.shown_hi[seat, d])))
            for seat in range(table.players)
            if table.shown_hi[seat, d]
        ]
        called = bb.to_cards(int(table.called_lo[d]), int(table.called_hi[d]))
        game = Game(
            table.players,
            hands,
            int(table.taker_seat[d]),
            contract,
            chien=bb.to_cards(int(table.public.chien_lo[d]), int(table.public.chien_hi[d]))
            if takes
            else None,
            discard=bb.to_cards(int(table.ecart_lo[d]), int(table.ecart_hi[d])) if takes else None,
            called=called[0] if called else None,
            poignees=shown,
            first_leader=int(table.seat[0, d]),
            validate=False,
        )
        out.append(Watcher(game))
    return out


class NoPeekProbe:
    """Plays like ``inner``; at about ``rate`` of its decisions it also asks ``inner`` in a
    world redealt from what the oracle says the player knows (same random stream) and records
    the deals where the answers differ. It follows every deal through the oracle's watchers
    (the card each seat played since its last call)."""

    def __init__(self, inner, rate: float, seed: int) -> None:
        self.inner, self.rate = inner, rate
        self.name = inner.name
        self.rng = np.random.default_rng(seed)
        self.checked = 0
        self.mismatches = 0
        self._table = None

    def _follow(self, turn) -> None:
        table = turn.table
        if table is not self._table:
            self._table, self._watchers, self.history = table, watchers(table), []
        else:
            new_lo, new_hi = table.played_lo ^ self._seen_lo, table.played_hi ^ self._seen_hi
            self.history.append((new_lo, new_hi, self._seat))
            for watcher, lo, hi in zip(self._watchers, new_lo, new_hi, strict=True):
                (card,) = bb.to_cards(int(lo), int(hi))
                watcher.play(card)
        self._seen_lo, self._seen_hi = table.played_lo.copy(), table.played_hi.copy()
        self._seat = table.seat[turn.position].copy()

    def choose(self, turn, rng):
        self._follow(turn)
        if self.rng.random() < self.rate:
            known = [watcher.known() for watcher in self._watchers]
            other, found = redeal(turn, known, self.history, self.rng)
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
    checker = NoPeekProbe(policy, rate=0.5, seed=seed)
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
    "policy",
    [
        GreedyPolicy(),  # the greedy reads every piece of what a player knows: the fast tier's
        pytest.param(SimplePolicy(), marks=pytest.mark.slow),
        pytest.param(RandomPolicy(), marks=pytest.mark.slow),
    ],
    ids=lambda p: p.name,
)
def test_no_policy_peeks(players: int, policy) -> None:
    # The greedy is the one that reads what it knows: it gets the most decisions.
    decisions = 10_000 if policy.name == "greedy" else 4_000
    checker = probe(policy, players, decisions=decisions, seed=players)
    assert checker.checked >= decisions
    assert checker.mismatches == 0, f"{checker.mismatches} of {checker.checked} decisions"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_peeking_policy_is_caught(players: int) -> None:
    checker = probe(PeekingPolicy(), players, decisions=2_000, seed=players)
    assert checker.mismatches > 0
