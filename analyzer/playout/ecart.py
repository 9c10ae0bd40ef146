"""The écart (discard) for Prise and Garde: legal always, and close to what good players do."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..cards import POINTS2
from . import bitboard as bb
from .bitboard import U64, ZERO
from .table import EcartPolicy

_BIT_SUIT = np.arange(56) % 4
_BIT_POINTS2 = POINTS2[bb.LO_CARD].astype(np.int32)
_BIT_IS_KING = np.arange(56) // 4 == 13
_HONOUR_POINTS2 = {11: 2, 12: 4, 13: 6, 14: 8}
"""Doubled points of the valet, cavalier, dame and roi (by rank) beyond a small card's 1."""
_FACES_SHIFT = (4 * 10 + np.arange(4, dtype=U64))[:, None]
"""(4, 1) shifts that bring a suit's valet to bit 0, its cavalier, dame, roi to bits 4, 8, 12."""
_RANK_SHIFT = U64(4)
"""A rank's ``lo`` bits are this many above the next lower rank's."""


def _faces_points2() -> np.ndarray:
    """Doubled points of the faces of one suit beyond 1 a card, by the suit's cards shifted down
    by :data:`_FACES_SHIFT` (int64, indexed by a word with bits 0, 4, 8, 12 at most)."""
    table = np.zeros(1 + 0x1111, np.int64)
    for faces in itertools.product((0, 1), repeat=4):
        extras = zip(faces, _HONOUR_POINTS2.values(), strict=True)
        table[sum(held << 4 * i for i, held in enumerate(faces))] = sum(h * e for h, e in extras)
    return table


_FACES_POINTS2 = _faces_points2()
_NOT_DISCARDABLE = np.int32(1 << 20)
_NO_PLAN = np.int32(-(1 << 30))
"""The key of a plan that does not fit: below every other (keys are within ±2**24)."""
_IN_PLAN = 10_000
"""Subtracted from the key of the cards of the suits a plan empties: below every other key."""
_MASTER = 500
"""Added to the key of the honours that follow their king unbroken (3 and 4 players)."""
_GREEDY_BIT_KEYS = np.arange(64, dtype=np.int32) - 640 * np.append(
    _BIT_POINTS2, np.zeros(8, np.int32)
)
"""The part of :class:`GreedyEcart`'s packed key set by the card itself: 64 times −10 times its
doubled points, plus its bit (the 8 bits above the cards' are no cards: worth nothing)."""

KEEP, EMPTY, SINGLETON = range(3)
"""What a plan does to a suit: keep it, empty it (but the king), or leave its lowest card."""
_PLANS = np.array(list(itertools.product(range(3), repeat=4)), np.int64)
"""(81, 4): every plan, the state of each suit."""
_SUIT_WEIGHT = (27, 9, 3, 1)
"""What each suit's state weighs in a plan's row of :data:`_PLANS`."""
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
        # Suit-major (4, N) figures: each suit's are contiguous rows.
        suits = hand_lo & bb.SUIT_LO_COLUMN
        length = np.bitwise_count(suits).astype(np.int64)
        king = (suits & bb.KINGS_LO) != ZERO
        points2 = length + _FACES_POINTS2[suits >> _FACES_SHIFT]
        lowest = bb.lowest(suits)
        lowest_points2 = (lowest != ZERO) + _FACES_POINTS2[lowest >> _FACES_SHIFT]
        style = STYLES[count]
        state = _plan(length, king, points2, lowest_points2, count, style)
        # The cards of the suits the plan empties, and of those it leaves a singleton but that.
        planned = bb.keep(state == EMPTY, bb.SUIT_LO_COLUMN) | bb.keep(
            state == SINGLETON, bb.SUIT_LO_COLUMN & ~lowest
        )
        # The packed keys of _lowest_keys, by bit of the whole word (its 8 bits above the cards'
        # are not held): contiguous rows.
        packed = np.tile((length.T << 6).astype(np.int32), 16)
        packed += _GREEDY_BIT_KEYS
        packed += _bits(np.bitwise_or.reduce(planned, axis=0)) * np.int32(-64 * _IN_PLAN)
        if style.keep_masters:
            packed += _bits(_masters_below_king(hand_lo)) * np.int32(64 * _MASTER)
        packed += _bits(~hand_lo | bb.KINGS_LO) * np.int32(64 * _NOT_DISCARDABLE)
        return _lowest_keys(packed, hand_hi, count)


def _plan(
    length: np.ndarray,
    king: np.ndarray,
    points2: np.ndarray,
    lowest_points2: np.ndarray,
    count: int,
    style: Style,
) -> np.ndarray:
    """(4, N) the state of each suit (:data:`KEEP`, :data:`EMPTY`, :data:`SINGLETON`) in the
    best plan that fits in ``count`` cards (the first of equals), as ``style`` weighs them.

    ``length``, ``points2``, ``lowest_points2``: (4, N) int64 the cards, doubled points, and
    doubled points of the lowest card of each suit; ``king``: (4, N) bool."""
    spent = length - king
    roi_sec = (
        np.zeros_like(king)
        if style.roi_sec is None
        else king & (length > 1) & (spent <= ROI_SEC_GUARDS)
    )
    shape = np.where(king, style.roi_sec or 0, style.void)
    # Per suit, each state's value and the cards it spends (KEEP: none, and worth nothing). An
    # impossible state costs more than any écart: it never fits.
    states = (
        (
            EMPTY,
            shape + style.points * (points2 - 9 * king) + style.card * spent,
            spent + 100 * ~((~king & (length > 0)) | roi_sec),
        ),
        (
            SINGLETON,
            (style.singleton or 0)
            + style.points * (points2 - lowest_points2)
            + style.card * (length - 1),
            length - 1 + 100 * (king | (length < 2) | (style.singleton is None)),
        ),
    )
    # A plan's key is its value times 128 plus its reversed index (80 − its row of _PLANS), so
    # that the largest key also names the first best plan; both parts are sums over the suits,
    # the index of suit s's state being _SUIT_WEIGHT[s] times the state. best[1 + c]: the
    # largest key of a plan of the suits so far spending at most c cards, suit by suit (a
    # knapsack of count + 1 budgets: a few (count + 1, N) arrays, not the 81 plans). Row 0 holds
    # _NO_PLAN, which every state that does not fit reads: its flat index, below the row of
    # budget 0, is clipped to 0.
    n = length.shape[1]
    flat = np.arange(n, (count + 2) * n).reshape(count + 1, n)  # the flat index of each budget
    best = np.zeros((count + 2, n), np.int32)
    best[0] = _NO_PLAN
    for suit, weight in enumerate(_SUIT_WEIGHT):
        first = 0 if suit < 3 else count  # the last suit: the whole budget only
        budgets = slice(1 + first, None)
        extended = np.empty_like(best)
        extended[0] = _NO_PLAN
        np.add(best[budgets], np.int32(2 * weight), out=extended[budgets])  # KEEP
        for state, value, cost in states:
            key = best.take(flat[first:] - cost[suit] * n, mode="clip")
            key += (value[suit] * 128 + (2 - state) * weight).astype(np.int32)
            np.maximum(extended[budgets], key, out=extended[budgets])
        best = extended
    return _PLANS[len(_PLANS) - 1 - (best[count + 1] & 127)].T


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
        masters = _holds(_masters_below_king(hand_lo))
        key = suit_key[:, _BIT_SUIT] - _BIT_POINTS2 + np.int32(500) * masters
        excluded = (1 - holds) | _BIT_IS_KING  # branch-free: np.where is several times slower
        packed = (key + _NOT_DISCARDABLE * excluded) << 6 | np.arange(56, dtype=np.int32)
        return _lowest_keys(packed, hand_hi, count)


ECARTS: dict[str, Callable[[], EcartPolicy]] = {
    "greedy": GreedyEcart,
    "short-suits": ShortSuitsEcart,
}
"""The écart policies by name: the engine's, and the one it replaced (for the duel)."""


def _holds(hand_lo: np.ndarray) -> np.ndarray:
    """(N, 56) uint8, 1 for the suited cards of each hand, by ``lo`` bit (rank-major)."""
    return _bits(hand_lo)[:, :56]


def _bits(words: np.ndarray) -> np.ndarray:
    """(N, 64) uint8 the bits of each (N,) uint64 word, lowest first."""
    as_bytes = words.astype("<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")


def _lowest_keys(
    packed: np.ndarray, hand_hi: np.ndarray, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """The ``count`` suited cards of lowest key, completed by the lowest middle trumps where
    there are too few of them: (lo, hi) (N,) uint64. ``packed``: (N, 56) or (N, 64) int32, by
    bit of ``lo``, each card's key (within ±2**18; :data:`_NOT_DISCARDABLE` added for the cards
    not held, the kings and the bits of no card) times 64 plus its bit, so that of cards of
    equal key the lowest go first."""
    # The key and the bit packed in one int32, sorted: several times faster than argpartition.
    packed = np.sort(packed, axis=1)
    ecart_lo = np.zeros(len(packed), U64)
    for column in packed[:, :count].T:
        usable = (column >> 6) < _NOT_DISCARDABLE // 2
        ecart_lo |= (bb.ONE << (column & 63).astype(U64)) * usable
    missing = count - bb.popcount(ecart_lo)
    ecart_hi = _lowest_trumps(hand_hi & bb.MIDDLE_TRUMPS_HI, missing)
    return ecart_lo, ecart_hi


def _masters_below_king(hand_lo: np.ndarray) -> np.ndarray:
    """(N,) uint64 the dames, cavaliers and valets of each hand held with every higher card of
    their suit."""
    dames = hand_lo & ((hand_lo & bb.KINGS_LO) >> _RANK_SHIFT)
    cavaliers = hand_lo & (dames >> _RANK_SHIFT)
    return dames | cavaliers | (hand_lo & (cavaliers >> _RANK_SHIFT))


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


@dataclass(frozen=True)
class FixedEcart:
    """An écart policy that makes the écart it is given: (N,) uint64 ``lo``/``hi`` sets, one
    per deal."""

    lo: np.ndarray
    hi: np.ndarray

    def choose(self, hand_lo: np.ndarray, hand_hi: np.ndarray, count: int):
        return self.lo, self.hi
