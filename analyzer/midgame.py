"""N deals continued from a position: the worlds of the hidden cards, played on to the end.

Each world (a deal of the hidden cards, :mod:`worlds`) is turned back into the deal it came
from — every seat's hand is what it holds now plus what it played — and given to the engine
(:func:`engine.play`) with policies that replay the record: the écart and the poignées as the
world has them, then every card already played, then a *candidate* card for the player to act,
then the policy (the greedy by default) to the end. Replaying the record through the engine
rebuilds exactly the state a mid-deal table would hold (voids shown, cards seen, tricks won),
with no second copy of the engine's rules; its cost is a few array operations per card already
played, small beside the playout that follows.

Seats: the engine's seat 0 leads the first trick, so record seat ``s`` is engine seat
``(s − first_leader) mod n``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bitboard import U64
from .deal import Deals
from .engine import Playout, _cards_of_sets, play
from .game import chien_size, hand_size
from .greedy import GreedyPolicy
from .position import Position, no_petit_sec
from .position import constraints as position_constraints
from .table import Candidate, Policy, Turn
from .worlds import Worlds, card_set, sample


def draw_worlds(position: Position, k: int, rng: np.random.Generator) -> Worlds:
    """``k`` worlds of the position's hidden cards, uniform among those consistent with what
    the user knows (and dealing no Petit sec): (lo, hi) uint64 of shape (k, n + 1), holders by
    record seat then the aside (chien or écart)."""
    lo, hi = sample(position_constraints(position), k, rng, accept=no_petit_sec(position))
    return lo[0], hi[0]


@dataclass(frozen=True)
class Continuation:
    """Playouts of every candidate card on the same worlds: row ``c * K + w`` plays candidate
    ``c`` in world ``w``. ``user_seat`` is the user's seat in the engine's numbering."""

    playout: Playout
    candidates: tuple[int, ...]
    worlds: int
    user_seat: int


class _Replay:
    """Plays the record's cards, then each row's candidate, then ``then`` to the end."""

    name = "replay"

    def __init__(
        self, prefix: list[int], candidate: Candidate | None, then: Policy, players: int
    ) -> None:
        self.prefix = [card_set([card]) for card in prefix]
        self.candidate = candidate
        self.then = then
        self.players = players

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        step = turn.table.trick * self.players + turn.position
        rows = turn.table.n_deals
        if step < len(self.prefix):
            lo, hi = self.prefix[step]
            return np.full(rows, lo, U64), np.full(rows, hi, U64)
        if step == len(self.prefix) and self.candidate is not None:
            return self.candidate
        return self.then.choose(turn, rng)


class _FixedEcart:
    """The écart each row's world holds."""

    def __init__(self, lo: np.ndarray, hi: np.ndarray) -> None:
        self.lo, self.hi = lo, hi

    def choose(self, hand_lo: np.ndarray, hand_hi: np.ndarray, count: int) -> Candidate:
        return self.lo.copy(), self.hi.copy()


class _ShownPoignees:
    """Each seat shows the trumps the record says it showed (they are in its hand)."""

    def __init__(self, shown_hi: int) -> None:
        self.shown_hi = U64(shown_hi)

    def choose(self, hand_hi: np.ndarray, players: int) -> np.ndarray:
        return hand_hi & self.shown_hi


def _deals(position: Position, lo: np.ndarray, hi: np.ndarray) -> Deals:
    """(R,) deals of the worlds ``lo``/``hi`` ((R, n + 1) uint64), seats in engine order. In
    Prise and Garde the chien given to the engine is the world's écart: the taker takes it and
    discards it again, which leaves the same hands as the real chien and écart would."""
    n = position.players
    size = hand_size(n)
    rows = len(lo)
    cards = np.zeros((rows, 78), np.uint8)
    for seat in range(n):
        engine_seat = (seat - position.first_leader) % n
        played_lo, played_hi = card_set(position.played[seat])
        hand = _cards_of_sets(lo[:, seat] | U64(played_lo), hi[:, seat] | U64(played_hi), size)
        cards[:, engine_seat * size : (engine_seat + 1) * size] = hand
    cards[:, n * size :] = _cards_of_sets(lo[:, n], hi[:, n], chien_size(n))
    return Deals(n, cards)


def continue_play(
    position: Position,
    worlds: Worlds,
    candidates: list[int] | None,
    rng: np.random.Generator,
    policy: Policy | None = None,
) -> Continuation:
    """Play every candidate card (ids, each legal for the user) in every world, then on to the
    end with ``policy`` (default: the greedy) for every seat. ``candidates=None``: the policy
    chooses the user's card too (one row per world)."""
    if position.to_play != position.seat:
        raise ValueError(f"it is seat {position.to_play}'s turn, not seat {position.seat}'s")
    n = position.players
    lo, hi = worlds
    k = len(lo)
    copies = 1 if candidates is None else len(candidates)
    rows_lo, rows_hi = np.tile(lo, (copies, 1)), np.tile(hi, (copies, 1))
    candidate = None
    if candidates is not None:
        sets = [card_set([c]) for c in candidates]
        candidate = (
            np.repeat(np.array([lo for lo, _ in sets], U64), k),
            np.repeat(np.array([hi for _, hi in sets], U64), k),
        )
    prefix = [card for trick in position.tricks for card in trick]
    replay = _Replay(prefix, candidate, policy or GreedyPolicy(), n)
    shown = card_set([c for _, cards in position.poignees for c in cards])[1]
    engine_taker = (position.taker - position.first_leader) % n
    playout = play(
        _deals(position, rows_lo, rows_hi),
        engine_taker,
        position.contract,
        replay,
        rng=rng,
        called=position.called,
        ecart_policy=_FixedEcart(rows_lo[:, n], rows_hi[:, n]),
        poignee_policy=_ShownPoignees(shown),
        announce_chelem=position.chelem_announced,
    )
    return Continuation(
        playout=playout,
        candidates=tuple(candidates or ()),
        worlds=k,
        user_seat=(position.seat - position.first_leader) % n,
    )
