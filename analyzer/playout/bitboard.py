"""Sets of cards as two ``uint64`` bitmasks, for the vectorised engine.

A set of cards is a pair ``(lo, hi)`` of ``uint64`` arrays of the same shape:

* ``lo`` holds the 56 suited cards **rank-major**: the card of rank r (1…14) in suit s (0…3) is
  bit ``4 * (r - 1) + s``. Ordering by rank first makes "the lowest card" (lowest set bit) the
  cheapest card across all suits, and "cards worth at least a valet" a contiguous range.
* ``hi`` holds the trumps and the Excuse: trump n is bit ``n - 1`` (the Petit bit 0, the 21 bit
  20) and the Excuse bit 21.

Card ids (see :mod:`cards`) and bit positions convert through :data:`CARD_WORD`,
:data:`CARD_BIT` and :func:`card_of`.
"""

from __future__ import annotations

import numpy as np

from ..cards import EXCUSE, N_CARDS, POINTS2, RANK, SUIT, TRUMP

U64 = np.uint64
ONE = U64(1)
ZERO = U64(0)

CARD_WORD = np.where(SUIT < TRUMP, 0, 1).astype(np.int8)
"""(78,) int8: 0 when the card lives in ``lo``, 1 in ``hi``."""
CARD_BIT = np.where(SUIT < TRUMP, 4 * (RANK.astype(np.int64) - 1) + SUIT, 0).astype(np.int64)
CARD_BIT[SUIT == TRUMP] = RANK[SUIT == TRUMP].astype(np.int64) - 1
CARD_BIT[EXCUSE] = 21

LO_CARD = np.array([14 * (b % 4) + b // 4 for b in range(56)], np.int64)
"""(56,) card id of each ``lo`` bit."""
HI_CARD = np.arange(56, 78, dtype=np.int64)
"""(22,) card id of each ``hi`` bit."""

SUIT_LO = np.array([sum(1 << (4 * r + s) for r in range(14)) for s in range(4)], dtype=U64)
"""(4,) uint64: the ``lo`` bits of each suit."""
SUIT_LO_COLUMN = SUIT_LO[:, None]
"""(4, 1) uint64: :data:`SUIT_LO` as a column, so that ``lo & SUIT_LO_COLUMN`` is a set's cards
(4, …) suit by suit."""
SUIT_OR_NONE_LO = np.append(SUIT_LO, [U64(0), U64(0)])
"""(6,) uint64: :data:`SUIT_LO` indexed by a suit code 0…5 (trumps and none give 0)."""
ALL_LO = U64((1 << 56) - 1)
LOW_LO = U64((1 << 40) - 1)
"""Suited cards of rank 1…10 (each worth half a point)."""
FACES_LO = ALL_LO & ~LOW_LO
KINGS_LO = U64(0xF << 52)
TRUMPS_HI = U64((1 << 21) - 1)
PETIT_HI = U64(1)
TWENTY_ONE_HI = U64(1 << 20)
EXCUSE_HI = U64(1 << 21)
ALL_HI = TRUMPS_HI | EXCUSE_HI
MIDDLE_TRUMPS_HI = TRUMPS_HI & ~PETIT_HI & ~TWENTY_ONE_HI
BOUTS_HI = PETIT_HI | TWENTY_ONE_HI | EXCUSE_HI


def select(mask: np.ndarray, a, b):
    """``a`` where ``mask`` is true, else ``b``: integer or boolean arrays (or scalars).

    Eight-byte numbers (card sets, seats) go through ``np.where``, which numpy 2 blends without
    branching. On narrower ones (bools, int8) it branches on every element and, on the
    unpredictable masks of a card game, runs up to three times slower than these three
    arithmetic operations.
    """
    if getattr(a, "itemsize", 0) == 8 or getattr(b, "itemsize", 0) == 8:
        return np.where(mask, a, b)
    diff = a ^ b
    if isinstance(diff, np.ndarray) and isinstance(mask, np.ndarray) and diff.shape == mask.shape:
        if diff.dtype == bool:
            diff &= mask
            diff ^= b
            return diff
        # Multiplying by a boolean array casts it in small buffers as it goes, which costs more
        # than converting the whole mask first (here and in keep).
        diff *= mask.astype(diff.dtype)
        diff ^= b
        return diff
    return b ^ (diff * mask)


def anywhere(mask: np.ndarray) -> bool:
    """Whether any element of the boolean array ``mask`` is true: ``mask.any()``, for a tenth of
    its cost on the small arrays of a search (a count of nonzeros has the lightest call path)."""
    return np.count_nonzero(mask) > 0


def keep(mask: np.ndarray, a):
    """``a`` where ``mask`` is true, else 0 (see :func:`select`)."""
    array_mask = isinstance(mask, np.ndarray)
    if array_mask and isinstance(a, np.ndarray | np.generic) and a.shape in (mask.shape, ()):
        return mask.astype(a.dtype) * a
    return a * mask


def keep_pair(mask: np.ndarray, lo, hi) -> tuple[np.ndarray, np.ndarray]:
    """:func:`keep` of both words of a card set, the mask converted once."""
    wide = mask.astype(U64)
    return wide * lo, wide * hi


def card_of(word: np.ndarray, bit: np.ndarray) -> np.ndarray:
    """Card ids (int64) of bit positions ``bit`` in words ``word`` (0 = lo, 1 = hi)."""
    return select(word == 0, LO_CARD[np.clip(bit, 0, 55)], 56 + bit)


_LO_BIT_OF_CARD = np.where(CARD_WORD == 0, np.left_shift(1, CARD_BIT), 0).astype(U64)
_HI_BIT_OF_CARD = np.where(CARD_WORD == 1, np.left_shift(1, CARD_BIT), 0).astype(U64)


def from_cards(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The set of the cards of each row: ``cards`` (..., k) card ids → (lo, hi) of shape (...)."""
    cards = np.asarray(cards)
    lo = np.zeros(cards.shape[:-1], U64)
    hi = np.zeros(cards.shape[:-1], U64)
    # Column by column, the columns made contiguous first: a reduction along a short last axis,
    # or gathers through strided ids, are several times slower.
    for ids in np.ascontiguousarray(np.moveaxis(cards, -1, 0)):
        lo |= _LO_BIT_OF_CARD.take(ids)
        hi |= _HI_BIT_OF_CARD.take(ids)
    return lo, hi


def to_cards(lo: int, hi: int) -> list[int]:
    """Card ids in one set (scalar words), lowest bit first."""
    lo, hi = int(lo), int(hi)
    return [int(LO_CARD[b]) for b in range(56) if lo >> b & 1] + [
        56 + b for b in range(22) if hi >> b & 1
    ]


_EXPONENT = U64(0x7FF0000000000000)
_EXPONENT_SHIFT = U64(52)


def _exponent(f: np.ndarray) -> np.ndarray:
    return (f.view(U64) >> _EXPONENT_SHIFT).astype(np.int64) - 1023


def lowest(x: np.ndarray) -> np.ndarray:
    """The lowest set bit of each word as a one-bit mask (0 where ``x`` is 0)."""
    return x & -x  # two's complement: −x keeps the lowest set bit and flips all above it


def highest(x: np.ndarray) -> np.ndarray:
    """The highest set bit of each word (below 2**63) as a one-bit mask (0 where ``x`` is 0)."""
    # Clearing every set bit whose upper neighbour is set keeps the highest and leaves no run of
    # 53 ones, the only words :func:`top` could round up.
    return top(x & ~(x >> ONE))


def top(x: np.ndarray) -> np.ndarray:
    """The highest set bit of each word with at most 52 bits set — any set of cards short of
    53 suited ones: a hand, a suit, the trumps — as a one-bit mask (0 where ``x`` is 0).

    Keeping only a float's exponent bits leaves the power of two at or below it. Converting a
    word rounds it to 53 significant bits, which changes the exponent only for a word of 53 set
    bits in a row (rounded up to the next power of two): :func:`highest` guards against that.
    """
    f = x.view(np.int64).astype(np.float64)  # the words are below 2**63: as int64 is faster
    bits = f.view(U64)
    bits &= _EXPONENT
    return f.astype(np.int64).view(U64)


def lowest_bit(x: np.ndarray) -> np.ndarray:
    """Index (int64) of the lowest set bit of each ``uint64``; −1023 where ``x`` is 0."""
    return _exponent(lowest(x).astype(np.float64))  # a power of two converts exactly


def above(single: np.ndarray) -> np.ndarray:
    """All bits strictly above the one set bit of ``single`` (none where ``single`` is 0)."""
    return -(single << ONE)  # two's complement: −2**(k+1) is every bit from k + 1 up


def above_or_all(single: np.ndarray) -> np.ndarray:
    """All bits strictly above the one set bit of ``single``, and all bits where it is 0 (so
    that "above the highest card of an empty set" is everything)."""
    return -((single << ONE) | (single == ZERO).astype(U64))  # −1 is every bit


def _point_masks(word_cards: np.ndarray) -> tuple[tuple[int, np.uint64], ...]:
    """For each doubled point value of a word's cards, the bits of the cards worth it."""
    values = POINTS2[word_cards]
    return tuple(
        (int(value), U64(sum(1 << int(bit) for bit in np.flatnonzero(values == value))))
        for value in np.unique(values)
    )


_LO_POINTS = _point_masks(LO_CARD)
_HI_POINTS = _point_masks(HI_CARD)


def points2(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Doubled card points (int64) of each set (the Excuse counts 9)."""
    # A count of the cards of each value (seven in all): cheaper than gathers from byte tables.
    # In uint8: no value's count times the value passes 40 (the forty low suited cards).
    total = np.zeros(np.shape(lo), np.int64)
    for masks, word in ((_LO_POINTS, lo), (_HI_POINTS, hi)):
        for value, mask in masks:
            count = np.bitwise_count(word & mask)
            if value != 1:
                count *= np.uint8(value)
            total += count
    return total


def popcount(x: np.ndarray) -> np.ndarray:
    """Number of set bits (int64) of each ``uint64``."""
    return np.bitwise_count(x).astype(np.int64)


def popcount8(x: np.ndarray) -> np.ndarray:
    """Number of set bits (int8) of each ``uint64``: for counts compared or selected in the play,
    where eight times narrower arrays are that much cheaper."""
    return np.bitwise_count(x).view(np.int8)


def card_ids(card_lo: np.ndarray, card_hi: np.ndarray) -> np.ndarray:
    """(…) uint8 the card of each one-bit pair."""
    in_hi = card_hi != ZERO
    bit = lowest_bit(select(in_hi, card_hi, card_lo))
    return card_of(in_hi.astype(np.int8), bit).astype(np.uint8)


def cards_of_sets(lo: np.ndarray, hi: np.ndarray, count: int) -> np.ndarray:
    """(N, count) uint8 card ids of sets that each hold ``count`` cards, lowest bit first."""
    out = np.zeros((len(lo), count), np.uint8)
    lo, hi = lo.copy(), hi.copy()
    for column in range(count):
        in_hi = lo == ZERO
        word = select(in_hi, hi, lo)
        single = lowest(word)
        out[:, column] = card_ids(select(in_hi, ZERO, single), keep(in_hi, single))
        lo = select(in_hi, lo, lo ^ single)
        hi = select(in_hi, hi ^ single, hi)
    return out


assert len(LO_CARD) + len(HI_CARD) == N_CARDS
