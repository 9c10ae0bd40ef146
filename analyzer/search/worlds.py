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
by powers of two, to keep float32 in range). One holder's count is implied by the others'
(``j`` minus their sum), so the tables have one dimension fewer. Rejection by ``accept``
keeps the uniform law on the accepted worlds (accepted draws are i.i.d. from it).

Holders with room that may take exactly the same free cards are counted as one holder (a
class, its room the sum of theirs), and its cards are shared out among them at the end, in a
uniformly random order of the cards (the first ``room`` to its first holder, the next to the
next…). Every world of the classes is as many worlds of the holders (the ways to share each
class's cards out, the same number for every world), so a uniform world of the classes shared
out uniformly is a uniform world. The classes are put in order of decreasing room (the first is
the implicit one).
The tables and the draw are compiled kernels, deal by deal (:mod:`drawing`). The deals with as
many holders with room are drawn as a group, their draws one block of the generator's stream
(all the groups' blocks one call to it, in a fixed order: :func:`_layout`), so that a seed gives
the same worlds as the numpy statement this replaced (its float32 sums in the same order).
Each deal's table has its own axes, each as long as its holder's room: the entries beyond a
holder's room, which the group's longest axes held, feed no entry within it, and since the
rescalings are by powers of two, they change no draw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from ..cards import N_CARDS
from ..playout import bitboard as bb
from ..playout.bitboard import U64
from ..playout.keys import mix, unit
from ..playout.words import quiet_wrap
from . import drawing


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


TABLE_BUDGET = 16_000_000
"""Entries of the counting tables of one group of deals drawn together: the draws of a group
are one block of the generator's stream, (M, T, k), so this grouping is part of what a seed
gives."""


def _prepared(constraints: Constraints, deals: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`drawing.prepare`'s arrays for the ``deals``; :class:`NoWorldError` when the
    counts cannot be met."""
    n, h = len(deals), constraints.holders
    out = (
        *(np.zeros(n, np.int64) for _ in range(3)),  # problem, twice, n_free
        np.zeros((n, N_CARDS), np.int64),  # card
        *(np.zeros((n, h), np.int64) for _ in range(4)),  # kept, first, order, room
        np.zeros((n, N_CARDS, h), np.bool_),  # allowed
    )
    c = constraints
    words = (c.may_lo[deals], c.may_hi[deals], c.must_lo[deals], c.must_hi[deals])
    with quiet_wrap():
        drawing.prepare((*words, c.count[deals]), _CARD_LO, _CARD_HI, out)
    problem, twice, n_free = out[:3]
    if (problem == drawing.TWICE).any():
        raise NoWorldError(f"card {int(twice.min())} is certainly held by two holders")
    if (problem == drawing.OVERFULL).any():
        raise NoWorldError("a holder certainly holds more cards than it has")
    if (problem == drawing.MISCOUNTED).any():
        t = int(np.flatnonzero(problem)[0])
        places = int(out[4][t].sum())
        raise NoWorldError(f"{n_free[t]} cards are hidden but the holders have room for {places}")
    return out[2:]


def _exact(
    constraints: Constraints,
    deals: np.ndarray,
    k: int,
    rng: np.random.Generator,
    keys: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``k`` uniform worlds of each of the ``deals`` by the counting draw (module docstring):
    (lo, hi) uint64 (T, k, h). With ``keys`` ((T,) uint64), the draws are the keyed ones
    (:func:`_keyed`), and ``rng`` is not drawn from."""
    n_free, card, kept, first, order, room, allowed = _prepared(constraints, deals)
    h = constraints.holders
    holder = np.empty((len(deals), k, int(n_free.max())), np.int64)  # past a deal's cards: unread
    sequence, start, last, step, total = _layout(n_free, room, k)
    if keys is None:
        before = rng.bit_generator.state
        uniform = rng.random(total)
    else:
        where = (last[:, None] - np.arange(card.shape[1]) * step[:, None])[:, :, None]
        placed = np.arange(card.shape[1]) < n_free[:, None]  # (T, 78): the deal's free cards
        uniform = np.zeros(total)  # the draws past a deal's cards are never read
        uniform[(where + np.arange(k))[placed]] = _keyed(keys, card, k, _HOLDER)[placed]
    work = _room_to_count(n_free, room, k)
    failed = drawing.count_and_draw(
        allowed, n_free, room, sequence, (uniform, last, step), holder, work
    )
    if failed >= 0:
        if keys is None:  # a refusal leaves the generator as after the earlier parts' draws
            rng.bit_generator.state = before
            rng.random(int(start[failed]))
        raise NoWorldError("no deal of the hidden cards fits what is known")
    # The cards of a class of several holders are shared out in the order of these draws.
    shared = (first != np.arange(h)).any()
    if not shared:
        uniform = np.zeros((0, 0, 0))
    elif keys is None:
        uniform = rng.random(holder.shape)
    else:
        shares = _keyed(keys, card[:, : holder.shape[2]], k, _SHARE)
        uniform = np.ascontiguousarray(shares.transpose(0, 2, 1))
    out_lo = np.repeat(constraints.must_lo[deals][:, None, :], k, axis=1)
    out_hi = np.repeat(constraints.must_hi[deals][:, None, :], k, axis=1)
    with quiet_wrap():
        drawing.hand_out(
            holder,
            (n_free, card, kept, first, order),
            uniform,
            _CARD_LO,
            _CARD_HI,
            out_lo,
            out_hi,
            (
                *(np.empty(N_CARDS, np.int64) for _ in range(3)),
                np.empty(N_CARDS + 1, np.int64),
                np.empty(h, np.bool_),
            ),
        )
    return out_lo, out_hi


_HOLDER, _SHARE = 0, 1
"""The two uses of a keyed draw: a free card's holder, and its place in its class's share-out."""


def _keyed(keys: np.ndarray, card: np.ndarray, k: int, use: int) -> np.ndarray:
    """(T, C, k) float64 in [0, 1): the keyed draw of each card of ``card`` ((T, C) card ids)
    in each of ``k`` worlds, for ``use``, from its deal's key (``keys``, (T,) uint64).

    Why by card and not by place in the deal's list of free cards: two draws whose keys agree
    but whose constraints differ a little (the alternatives of the advice, where the player
    holds one card more or less) still draw each card they share alike."""
    world = np.arange(k)
    return unit(mix(keys[:, None, None], use, world, card[:, :, None]))


def _layout(n_free: np.ndarray, room: np.ndarray, k: int) -> tuple[np.ndarray, ...]:
    """Where each deal's draws lie in the one stretch of the generator drawn for all (the
    module docstring): the deals with as many holders with room are a group, cut in parts of at
    most :data:`TABLE_BUDGET` table entries (a table with an axis per explicit holder, as long
    as the group's longest), each part's draws one block (M, P, k) — M its group's most cards,
    the last card first — the parts by increasing holders with room, then in order.

    Returns ``sequence`` (T,) int64 the deals part by part; per deal (T,) int64, ``start`` its
    part's first draw, ``last`` the index of its last card's draw in world 0 and ``step`` the
    step back to the previous card's; and the draws in all."""
    open_ = (room > 0).sum(axis=1)
    sequence = np.argsort(open_, kind="stable")
    # Per group: its deals, its first deal in the sequence, its most cards, its parts' size
    # and its first draw.
    size = np.bincount(open_)
    size = size[size > 0]
    first = np.cumsum(size) - size
    most = np.maximum.reduceat(n_free[sequence], first)
    entries = np.prod(np.maximum.reduceat(room[sequence, 1:], first, axis=0) + 1, axis=1)
    limit = np.maximum(1, TABLE_BUDGET // (entries * (most + 1)))
    block = most * size * k
    begin = np.cumsum(block) - block
    # Per deal of the sequence: the same of its group, its part and its place in that part.
    group = np.repeat(np.arange(len(size)), size)
    part, place = np.divmod(np.arange(len(sequence)) - first[group], limit[group])
    m, limit = most[group], limit[group]
    in_part = np.minimum(limit, size[group] - part * limit)
    start, last, step = np.empty((3, len(sequence)), np.int64)
    start[sequence] = begin[group] + part * m * limit * k
    last[sequence] = start[sequence] + (m - 1) * in_part * k + place * k
    step[sequence] = in_part * k
    return sequence, start, last, step, int(block.sum())


def _room_to_count(n_free: np.ndarray, room: np.ndarray, k: int) -> tuple[np.ndarray, ...]:
    """:func:`drawing.count_and_draw`'s room to work in (the kernels allocate nothing)."""
    h = room.shape[1]
    entries = int(np.prod(room[:, 1:] + 1, axis=1).max())
    tables = np.empty((int(n_free.max()) + 1, entries), np.float32)
    ints = (np.empty(h, np.int64) for _ in range(2))
    counts, running = np.empty((k, h), np.int64), np.empty(h, np.float32)
    return tables, *ints, counts, running, np.empty(h - 1, np.int64), np.empty(k, np.int64)


def check(constraints: Constraints) -> None:
    """Raises :class:`NoWorldError` if some deal has no world that fits."""
    _exact(constraints, np.arange(constraints.n_deals), 1, np.random.default_rng(0))


def sample(
    constraints: Constraints,
    k: int,
    rng: np.random.Generator,
    accept: Callable[[np.ndarray, np.ndarray, int], np.ndarray] | None = None,
    max_rounds: int = 100,
    keys: np.ndarray | None = None,
) -> Worlds:
    """``k`` worlds per deal, uniform among those that fit (and that ``accept`` keeps), by the
    counting draw (module docstring).

    Why no plain rejection first (shuffle the hidden cards, keep the deals that fit): a
    defender's worlds in a Garde fit about one shuffle in two hundred (the écart holds no king
    and no trump, the chien's cards are the taker's or the écart's), so the counting draw did
    nearly all the work anyway; without the two rounds of shuffles the lookahead defence's
    worlds cost 17% less with 4 players (2.9 s against 3.5 s on the worlds of 250 Garde deals)
    and 2% less with 5, and the worlds of later tricks, where more shuffles fit, cost less too.

    ``accept(lo, hi, d)`` gets (k', h) uint64 worlds of deal ``d`` and returns (k',) bool.
    ``keys``: (D,) uint64, one per deal: the draws are a function of the key
    (:mod:`..playout.keys`), not of ``rng``: the same key and constraints, the same worlds.
    Returns (lo, hi), each (D, k, h) uint64. Raises :class:`NoWorldError` when a deal has no
    world, or when ``accept`` refuses every draw for ``max_rounds`` rounds.
    """
    if accept is None:
        return _exact(constraints, np.arange(constraints.n_deals), k, rng, keys)
    shape = (constraints.n_deals, k, constraints.holders)
    out_lo, out_hi = np.zeros(shape, U64), np.zeros(shape, U64)
    filled = np.zeros(constraints.n_deals, np.int64)
    for round_ in range(max_rounds):
        short = np.flatnonzero(filled < k)
        if len(short) == 0:
            return out_lo, out_hi
        keyed = None if keys is None else mix(keys[short], round_)
        lo, hi = _exact(constraints, short, k, rng, keyed)
        for t, d in enumerate(short):
            kept = np.flatnonzero(accept(lo[t], hi[t], d))[: k - filled[d]]
            out_lo[d, filled[d] : filled[d] + len(kept)] = lo[t, kept]
            out_hi[d, filled[d] : filled[d] + len(kept)] = hi[t, kept]
            filled[d] += len(kept)
    raise NoWorldError("no deal of the hidden cards passes the acceptance test")
