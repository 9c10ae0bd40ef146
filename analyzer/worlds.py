"""Consistent worlds: deals of the hidden cards that fit what a player knows, drawn uniformly.

The input, :class:`Constraints`, says for each of D deals and each of h holders (the seats, and
the chien or écart as one more pseudo-holder) which cards the holder may hold, which it
certainly holds, and how many it holds. A *world* gives each holder exactly ``count`` cards,
all within its ``may`` set and including its ``must`` set, every card of ``may`` sets' union
minus the ``must`` sets going to exactly one holder. :func:`sample` draws worlds **uniformly**
among all the worlds that fit (optionally among those an ``accept`` test keeps).

Why the draw is exactly uniform
-------------------------------
Take the free cards (in no ``must`` set) in a fixed order 1…M; card j may go to the holders
``A_j``. Let ``W_j(c)`` be the number of ways to give cards 1…j to the holders so that holder
p receives exactly ``c_p`` of them (each within its ``A``). Then ``W_0(0) = 1`` and
``W_j(c) = Σ_{p ∈ A_j} W_{j−1}(c − e_p)``: the last card goes to one of its holders. The
worlds are the ways counted by ``W_M(r)``, ``r`` the free places left in each holder. Drawing
backwards — card M goes to p with probability ``W_{M−1}(r − e_p) / W_M(r)``, then card M−1
given what is left, and so on — gives each world the probability of the product of these
ratios, which telescopes to ``W_0(0) / W_M(r) = 1 / W_M(r)``: the same for every world.
Only ratios within one card's choice are used, so each ``W_j`` may be rescaled freely (it is,
to keep float64 in range). One holder's count is implied by the others' (``j`` minus their
sum), so the tables have one dimension fewer. Rejection by ``accept`` keeps the uniform law on
the accepted worlds (accepted draws are i.i.d. from it).

The tables are built per deal (one Python loop over the D deals, a few array operations per
free card); the K worlds of one deal are drawn together, as arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from . import bitboard as bb
from .bitboard import U64
from .cards import N_CARDS


class NoWorldError(ValueError):
    """No deal of the hidden cards fits the constraints."""


@dataclass(frozen=True)
class Constraints:
    """What the player to act knows of where the cards are.

    All arrays have shape (D, h): D deals, h holders (the seats, then the chien or écart).
    ``may_lo``/``may_hi`` uint64: cards the holder may hold (its ``must`` cards included);
    ``must_lo``/``must_hi`` uint64: cards it certainly holds; ``count`` int64: how many it holds.
    A fully known holder (the player's own hand) has ``may == must`` and ``count`` its size.
    """

    may_lo: np.ndarray
    may_hi: np.ndarray
    must_lo: np.ndarray
    must_hi: np.ndarray
    count: np.ndarray

    @property
    def n_deals(self) -> int:
        return self.count.shape[0]

    @property
    def holders(self) -> int:
        return self.count.shape[1]


Worlds = tuple[np.ndarray, np.ndarray]
"""Each holder's cards in each world: (lo, hi) uint64 arrays of shape (D, K, h)."""


def _card_masks() -> tuple[np.ndarray, np.ndarray]:
    ids = np.arange(N_CARDS)[:, None]
    return bb.from_cards(ids)


_CARD_LO, _CARD_HI = _card_masks()
"""(78,) uint64 one-bit pairs of every card id."""


def card_set(cards: Iterable[int]) -> tuple[int, int]:
    """The (lo, hi) words, as Python ints, of a set of card ids."""
    lo, hi = 0, 0
    for card in cards:
        lo |= int(_CARD_LO[card])
        hi |= int(_CARD_HI[card])
    return lo, hi


def _holds(lo: int, hi: int) -> np.ndarray:
    """(78,) bool: which card ids the scalar set (lo, hi) holds."""
    return ((_CARD_LO & U64(lo)) | (_CARD_HI & U64(hi))) != 0


class _Tables:
    """The counting tables ``W_j`` of one deal (see the module docstring)."""

    def __init__(self, allowed: np.ndarray, room: np.ndarray) -> None:
        """``allowed`` (M, h) bool: holders each free card may go to; ``room`` (h,) int64: free
        places left in each holder."""
        self.allowed = allowed
        self.room = room
        holders = np.flatnonzero(room > 0)
        if len(holders) == 0:
            self.implicit, self.explicit = -1, holders
        else:
            self.implicit = int(holders[np.argmax(room[holders])])
            self.explicit = holders[holders != self.implicit]
        shape = tuple(int(room[p]) + 1 for p in self.explicit)
        grid_sum = np.zeros(shape, np.int64)
        for axis, size in enumerate(shape):
            view = [1] * len(shape)
            view[axis] = size
            grid_sum = grid_sum + np.arange(size).reshape(view)
        table = np.zeros(shape)
        table[(0,) * len(shape)] = 1.0
        self.tables = [table]
        for j in range(len(allowed)):
            table = self._add_card(table, allowed[j], grid_sum, j + 1)
            self.tables.append(table)

    def _add_card(
        self, previous: np.ndarray, allowed: np.ndarray, grid_sum: np.ndarray, placed: int
    ) -> np.ndarray:
        table = previous.copy() if self.implicit >= 0 and allowed[self.implicit] else None
        if table is None:
            table = np.zeros_like(previous)
        for axis, holder in enumerate(self.explicit):
            if allowed[holder]:
                target = [slice(None)] * previous.ndim
                source = [slice(None)] * previous.ndim
                target[axis], source[axis] = slice(1, None), slice(None, -1)
                table[tuple(target)] += previous[tuple(source)]
        implied = placed - grid_sum  # the implicit holder's count
        limit = self.room[self.implicit] if self.implicit >= 0 else 0
        table[(implied < 0) | (implied > limit)] = 0
        peak = table.max(initial=0.0)
        return table / peak if peak > 0 else table

    @property
    def feasible(self) -> bool:
        end = tuple(int(self.room[p]) for p in self.explicit)
        return bool(self.tables[-1][end] > 0)

    def draw(self, k: int, rng: np.random.Generator) -> np.ndarray:
        """(k, M) int64: the holder of every free card in k uniform worlds."""
        n_free = len(self.allowed)
        holder = np.empty((k, n_free), np.int64)
        left = np.tile(self.room[self.explicit], (k, 1))  # (k, e) places still to fill
        for j in range(n_free - 1, -1, -1):
            table = self.tables[j]
            options = np.flatnonzero(self.allowed[j] & (self.room > 0))
            weights = np.zeros((k, len(options)))
            for column, p in enumerate(options):
                index = left.copy()
                if p != self.implicit:
                    axis = int(np.flatnonzero(self.explicit == p)[0])
                    index[:, axis] -= 1
                ok = (index >= 0).all(axis=1)
                flat = np.ravel_multi_index(tuple(np.maximum(index, 0).T), table.shape)
                weights[:, column] = np.where(ok, table.reshape(-1)[flat], 0.0)
            cumulative = np.cumsum(weights, axis=1)
            u = rng.random(k) * cumulative[:, -1]
            column = np.minimum((cumulative <= u[:, None]).sum(axis=1), len(options) - 1)
            chosen = options[column]
            holder[:, j] = chosen
            for axis, p in enumerate(self.explicit):
                left[:, axis] -= chosen == p
        return holder


def _deal_tables(constraints: Constraints, d: int) -> tuple[_Tables, np.ndarray, np.ndarray]:
    """The counting tables of deal ``d``, its free cards' ids and the ``must`` cards (h, 78)."""
    h = constraints.holders
    must = np.stack(
        [_holds(constraints.must_lo[d, p], constraints.must_hi[d, p]) for p in range(h)]
    )
    may = np.stack([_holds(constraints.may_lo[d, p], constraints.may_hi[d, p]) for p in range(h)])
    if (must.sum(axis=0) > 1).any():
        card = int(np.flatnonzero(must.sum(axis=0) > 1)[0])
        raise NoWorldError(f"card {card} is certainly held by two holders")
    room = constraints.count[d] - must.sum(axis=1)
    if (room < 0).any():
        raise NoWorldError("a holder certainly holds more cards than it has")
    free = np.flatnonzero(may.any(axis=0) & ~must.any(axis=0))
    if room.sum() != len(free):
        raise NoWorldError(
            f"{len(free)} cards are hidden but the holders have room for {room.sum()}"
        )
    tables = _Tables(may[:, free].T, room)
    if not tables.feasible:
        raise NoWorldError("no deal of the hidden cards fits what is known")
    return tables, free, must


def check(constraints: Constraints) -> None:
    """Raises :class:`NoWorldError` if some deal has no world that fits."""
    for d in range(constraints.n_deals):
        _deal_tables(constraints, d)


def _as_bools(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(..., 78) bool: the cards of each (lo, hi) set of shape (...)."""
    return ((lo[..., None] & _CARD_LO) | (hi[..., None] & _CARD_HI)) != 0


def _shuffled(
    constraints: Constraints, k: int, rng: np.random.Generator, rounds: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Up to ``k`` worlds per deal by plain rejection, all deals at once: the free cards are
    shuffled into the holders' free places (every such deal equally likely) and the deal is
    kept if every card went to a holder that may hold it — so a kept world is uniform among
    the worlds that fit. Returns (lo, hi) (D, k, h) and the number filled per deal (D,)."""
    n_deals, h = constraints.n_deals, constraints.holders
    may = _as_bools(constraints.may_lo, constraints.may_hi)  # (D, h, 78)
    must = _as_bools(constraints.must_lo, constraints.must_hi)
    free = may.any(axis=1) & ~must.any(axis=1)  # (D, 78)
    room = constraints.count - must.sum(axis=2)
    ends = np.cumsum(room, axis=1)  # (D, h) the last rank + 1 of each holder's places
    # The holder of each rank in the shuffled order (h: no place, for cards that are not free).
    holder_of_rank = (np.arange(N_CARDS)[None, :, None] >= ends[:, None, :]).sum(axis=2)
    flat_may = np.concatenate([may, np.zeros((n_deals, 1, N_CARDS), bool)], axis=1).reshape(-1)
    out_lo = np.zeros((n_deals, k, h), U64)
    out_hi = np.zeros((n_deals, k, h), U64)
    filled = np.zeros(n_deals, np.int64)
    sound = (room >= 0).all(axis=1) & (room.sum(axis=1) == free.sum(axis=1))
    for _ in range(rounds):
        todo = np.flatnonzero(sound & (filled < k))  # deals still short of worlds
        if len(todo) == 0:
            break
        keys = np.where(free[todo, None, :], rng.random((len(todo), k, N_CARDS)), 2.0)
        rank = np.argsort(np.argsort(keys, axis=2), axis=2)  # (T, k, 78)
        holder = np.take_along_axis(holder_of_rank[todo, None, :], rank, axis=2)
        index = (todo[:, None, None] * (h + 1) + holder) * N_CARDS + np.arange(N_CARDS)
        fits = (~free[todo, None, :] | flat_may[index]).all(axis=2)  # (T, k)
        world_lo = np.zeros((len(todo), k, h), U64)
        world_hi = np.zeros((len(todo), k, h), U64)
        for p in range(h):
            mine = holder == p
            world_lo[:, :, p] = np.bitwise_or.reduce(bb.keep(mine, _CARD_LO), axis=2)
            world_hi[:, :, p] = np.bitwise_or.reduce(bb.keep(mine, _CARD_HI), axis=2)
        world_lo |= constraints.must_lo[todo, None, :]
        world_hi |= constraints.must_hi[todo, None, :]
        for t in np.flatnonzero(fits.any(axis=1)):
            d = todo[t]
            kept = np.flatnonzero(fits[t])[: k - filled[d]]
            out_lo[d, filled[d] : filled[d] + len(kept)] = world_lo[t, kept]
            out_hi[d, filled[d] : filled[d] + len(kept)] = world_hi[t, kept]
            filled[d] += len(kept)
    return out_lo, out_hi, filled


def sample(
    constraints: Constraints,
    k: int,
    rng: np.random.Generator,
    accept: Callable[[np.ndarray, np.ndarray, int], np.ndarray] | None = None,
    max_rounds: int = 100,
    shuffles: int = 16,
) -> Worlds:
    """``k`` worlds per deal, uniform among those that fit (and that ``accept`` keeps).

    First up to ``shuffles`` rounds of plain rejection for all deals at once (cheap when few
    constraints bind), then the exact counting draw for the worlds still missing (when many
    bind, few cards are left and the tables are small). Each world is uniform either way, and
    independent of the others, so the mixture is uniform too.

    ``accept(lo, hi, d)`` gets (k', h) uint64 worlds of deal ``d`` and returns (k',) bool.
    Returns (lo, hi), each (D, k, h) uint64. Raises :class:`NoWorldError` when a deal has no
    world, or when ``accept`` refuses every draw for ``max_rounds`` rounds.
    """
    h = constraints.holders
    out_lo, out_hi, filled = _shuffled(constraints, k, rng, shuffles)
    if accept is not None:
        for d in np.flatnonzero(filled):
            kept = np.flatnonzero(accept(out_lo[d, : filled[d]], out_hi[d, : filled[d]], d))
            out_lo[d, : len(kept)] = out_lo[d, kept]
            out_hi[d, : len(kept)] = out_hi[d, kept]
            filled[d] = len(kept)
    for d in np.flatnonzero(filled < k):
        tables, free, _ = _deal_tables(constraints, d)
        base_lo = constraints.must_lo[d]
        base_hi = constraints.must_hi[d]
        for _ in range(max_rounds):
            holder = tables.draw(k - filled[d], rng)  # (k', M)
            lo = np.tile(base_lo, (len(holder), 1))
            hi = np.tile(base_hi, (len(holder), 1))
            for j, card in enumerate(free):
                one_hot = holder[:, j][:, None] == np.arange(h)[None, :]
                lo |= bb.keep(one_hot, _CARD_LO[card])
                hi |= bb.keep(one_hot, _CARD_HI[card])
            if accept is not None:
                kept = accept(lo, hi, d)
                lo, hi = lo[kept], hi[kept]
            out_lo[d, filled[d] : filled[d] + len(lo)] = lo
            out_hi[d, filled[d] : filled[d] + len(hi)] = hi
            filled[d] += len(lo)
            if filled[d] == k:
                break
        else:
            raise NoWorldError("no deal of the hidden cards passes the acceptance test")
    return out_lo, out_hi
