"""The écart (discard) for Prise and Garde: legal always, and close to what good players do."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import bitboard as bb
from .bitboard import U64, ZERO
from .cards import POINTS2
from .table import EcartPolicy

_BIT_SUIT = np.arange(56) % 4
_BIT_POINTS2 = POINTS2[bb.LO_CARD].astype(np.int32)
_BIT_IS_KING = np.arange(56) // 4 == 13
_HONOUR_POINTS2 = {11: 2, 12: 4, 13: 6, 14: 8}
"""Doubled points of the valet, cavalier, dame and roi (by rank) beyond a small card's 1."""
_NOT_DISCARDABLE = np.int32(1 << 20)
_IN_PLAN = 10_000
"""Subtracted from the key of the cards of the suits a plan empties: below every other key."""

KEEP, EMPTY, SINGLETON = range(3)
"""What a plan does to a suit: keep it, empty it (but the king), or leave its lowest card."""
_PLANS = np.array(list(itertools.product(range(3), repeat=4)), np.int64)
"""(81, 4): every plan, the state of each suit."""
ROI_SEC_GUARDS = 3
"""A king suit is emptied down to the lone king only when it has at most this many other cards."""


@dataclass(frozen=True)
class Style:
    """How the écart weighs the shape of the hand against points.

    A plan counts ``void``, ``roi_sec`` and ``singleton`` for each void, roi sec and singleton
    it makes (``None``: never make one), ``points`` for each doubled point of the cards it
    throws, and ``card`` for each card it spends; ``keep_masters``: whether the honours that
    follow a king unbroken (R D, R D C…) stay in the hand."""

    void: int
    roi_sec: int | None
    singleton: int | None
    points: int
    card: int
    keep_masters: bool


STYLES = {
    6: Style(void=1000, roi_sec=500, singleton=400, points=-5, card=0, keep_masters=True),
    3: Style(void=15, roi_sec=None, singleton=None, points=1, card=-10, keep_masters=False),
}
"""By the size of the écart. With 3 and 4 players (6 cards) the shape comes first, and of two
plans that make it, the one throwing the fewer points (the honours left go to points after,
or make tricks); with 5 (3 cards, and four other hands that run short of a suit sooner) a
void must pay for itself in points, a roi sec or a singleton loses, and a dame behind its king
is safer in the écart. Every value was chosen by the écart duel (README) on deals of other
seeds than its figures."""


class GreedyEcart:
    """The engine's écart: shape the hand (voids), then save points, keeping kings and trumps.

    A void lets the taker trump the suit, so the écart first plans the shape of the hand: per
    suit, keep it, empty it, or leave it a singleton (its lowest card: one round, then a void).
    A suit with a king is emptied but for the king, and only when it has at most
    :data:`ROI_SEC_GUARDS` other cards ("roi sec": the king wins the first round, then the suit
    is void too). Every plan that fits in the écart is scored at once, as :data:`STYLES` says
    for the size of the écart: with 3 or 4 players two voids before one, a void before a roi
    sec before a singleton, and of plans making the same shape the one throwing the fewer
    points; with 5 the points weigh more. The cards left over go to points: the most valuable
    first (a dame or cavalier without its king would likely fall to a defender's king, while
    in the écart it counts for the taker), then the shortest suits' small cards, never a king
    (nor, with 3 or 4 players, the honours that follow the king unbroken: R D, R D C…, masters
    that make tricks). Trumps go only when there are not enough other cards (the rules' case),
    the lowest first and never a bout.

    Measured against :class:`ShortSuitsEcart`, the engine's écart before, by
    ``tarot-report duel --ecart greedy --against-ecart short-suits`` (README).
    """

    def choose(
        self, hand_lo: np.ndarray, hand_hi: np.ndarray, count: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The écart of ``count`` cards from each hand (taker's cards + chien), as (lo, hi)
        (N,) uint64."""
        holds = _holds(hand_lo)
        length = np.stack([bb.popcount(hand_lo & mask) for mask in bb.SUIT_LO], axis=1)
        king = holds[:, 52:56].astype(bool)
        points2 = length.copy()
        for rank, extra in _HONOUR_POINTS2.items():
            points2 += extra * holds[:, 4 * (rank - 1) : 4 * rank]
        lowest = np.zeros_like(hand_lo)
        for mask in bb.SUIT_LO:
            lowest |= bb.lowest(hand_lo & mask)
        lowest_points2 = np.stack(
            [bb.points2(lowest & mask, np.zeros_like(lowest)) for mask in bb.SUIT_LO], axis=1
        )
        style = STYLES[count]
        state = _plan(length, king, points2, lowest_points2, count, style)[:, _BIT_SUIT]
        spared = state == SINGLETON
        in_plan = (state == EMPTY) | (spared & (_holds(lowest) == 0))
        key = length.astype(np.int32)[:, _BIT_SUIT] - 10 * _BIT_POINTS2
        if style.keep_masters:
            key += np.int32(500) * _masters_below_king(holds)
        key -= np.int32(_IN_PLAN) * in_plan
        return _lowest_keys(holds, key, hand_hi, count)


def _plan(
    length: np.ndarray,
    king: np.ndarray,
    points2: np.ndarray,
    lowest_points2: np.ndarray,
    count: int,
    style: Style,
) -> np.ndarray:
    """(N, 4) the state of each suit (:data:`KEEP`, :data:`EMPTY`, :data:`SINGLETON`) in the
    best plan that fits in ``count`` cards (the first of equals), as ``style`` weighs them.

    ``length``, ``points2``, ``lowest_points2``: (N, 4) the cards, doubled points, and doubled
    points of the lowest card of each suit; ``king``: (N, 4) bool."""
    n = len(length)
    value = np.zeros((n, 4, 3), np.int64)
    cost = np.zeros((n, 4, 3), np.int64)
    spent = length - king
    roi_sec = (
        np.zeros_like(king)
        if style.roi_sec is None
        else king & (length > 1) & (spent <= ROI_SEC_GUARDS)
    )
    shape = np.where(king, style.roi_sec or 0, style.void)
    value[:, :, EMPTY] = shape + style.points * (points2 - 9 * king) + style.card * spent
    # An impossible state costs more than any écart: it never fits.
    cost[:, :, EMPTY] = spent + 100 * ~((~king & (length > 0)) | roi_sec)
    value[:, :, SINGLETON] = (
        (style.singleton or 0)
        + style.points * (points2 - lowest_points2)
        + style.card * (length - 1)
    )
    cost[:, :, SINGLETON] = length - 1 + 100 * (king | (length < 2) | (style.singleton is None))
    # (81, N), summed suit by suit: each plan's value, times 128 plus its reversed index so that
    # the maximum also names the first best plan.
    # Plan a * 9 + b sets the first two suits by a, the last two by b: the 9 plans of each b at
    # a time, so that the arrays stay in cache (all 81 at once are megabytes).
    head_value, head_cost = _pairs(value[:, 0], value[:, 1]), _pairs(cost[:, 0], cost[:, 1])
    tail_value, tail_cost = _pairs(value[:, 2], value[:, 3]), _pairs(cost[:, 2], cost[:, 3])
    best = np.zeros(n, np.int64)
    for b in range(9):
        reverse = len(_PLANS) - 1 - (9 * np.arange(9) + b)
        total = (head_value + tail_value[b]) << 7 | reverse[:, None]
        total *= (head_cost + tail_cost[b]) <= count
        np.maximum(best, total.max(axis=0), out=best)
    return _PLANS[len(_PLANS) - 1 - (best & 127)]


def _pairs(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """(9, N) the sums of two suits' (N, 3) figures, by ``3 * first's state + second's``."""
    return (first.T[:, None, :] + second.T[None, :, :]).reshape(9, -1)


class ShortSuitsEcart:
    """The engine's écart until the void-seeking :class:`GreedyEcart`, kept as the reference
    of the écart duel: short suits without a king first, the valuable cards first within.

    Each suited card but the kings gets a key, and the cards with the lowest keys go: cards of
    suits without a king before those of suits with one; within those, short suits before long
    ones; within a suit, the valuable cards first, but not the honours that follow the king
    unbroken. Trumps as in :class:`GreedyEcart`.
    """

    def choose(
        self, hand_lo: np.ndarray, hand_hi: np.ndarray, count: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The écart of ``count`` cards from each hand, as (lo, hi) (N,) uint64."""
        holds = _holds(hand_lo)
        length = np.stack([bb.popcount(hand_lo & mask) for mask in bb.SUIT_LO], axis=1)
        suit_key = (1000 * (holds[:, 52:56] != 0) + 10 * length).astype(np.int32)
        key = suit_key[:, _BIT_SUIT] - _BIT_POINTS2 + np.int32(500) * _masters_below_king(holds)
        return _lowest_keys(holds, key, hand_hi, count)


ECARTS: dict[str, Callable[[], EcartPolicy]] = {
    "greedy": GreedyEcart,
    "short-suits": ShortSuitsEcart,
}
"""The écart policies by name: the engine's, and the one it replaced (for the duel)."""


def _holds(hand_lo: np.ndarray) -> np.ndarray:
    """(N, 56) uint8, 1 for the suited cards of each hand, by ``lo`` bit (rank-major)."""
    as_bytes = hand_lo.astype("<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :56]


def _lowest_keys(
    holds: np.ndarray, key: np.ndarray, hand_hi: np.ndarray, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """The ``count`` held non-king suited cards of lowest ``key`` ((N, 56) int, each within
    ±2**18; ``holds``: (N, 56) uint8), completed by the lowest middle trumps where there are
    too few of them: (lo, hi) (N,) uint64. Of cards of equal key, the lowest go first."""
    excluded = (1 - holds) | _BIT_IS_KING  # branch-free: np.where is several times slower
    key = key + _NOT_DISCARDABLE * excluded
    # The key and the bit packed in one int32, sorted: several times faster than argpartition.
    packed = np.sort(key.astype(np.int32) << 6 | np.arange(56, dtype=np.int32), axis=1)
    ecart_lo = np.zeros(len(key), U64)
    for column in packed[:, :count].T:
        usable = (column >> 6) < _NOT_DISCARDABLE // 2
        ecart_lo |= (bb.ONE << (column & 63).astype(U64)) * usable
    missing = count - bb.popcount(ecart_lo)
    ecart_hi = _lowest_trumps(hand_hi & bb.MIDDLE_TRUMPS_HI, missing)
    return ecart_lo, ecart_hi


def _masters_below_king(holds: np.ndarray) -> np.ndarray:
    """(N, 56) bool: the dames, cavaliers and valets held with every higher card of their suit
    (``holds``: (N, 56) uint8 by ``lo`` bit)."""
    masters = np.zeros(holds.shape, bool)
    for suit in range(4):
        unbroken = holds[:, 4 * 13 + suit] != 0  # the king
        for rank in (13, 12, 11):
            bit = 4 * (rank - 1) + suit
            unbroken = unbroken & (holds[:, bit] != 0)
            masters[:, bit] = unbroken
    return masters


def _lowest_trumps(trumps: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The ``count`` (N,) lowest trumps of each set (N,) uint64."""
    taken = np.zeros_like(trumps)
    remaining = trumps.copy()
    for step in range(int(count.max(initial=0))):
        single = bb.lowest(remaining)
        take = step < count
        taken |= np.where(take, single, ZERO)
        remaining = np.where(take, remaining ^ single, remaining)
    return taken
