"""The écart (discard) for Prise and Garde: legal always, and close to what good players do."""

from __future__ import annotations

import numpy as np

from . import bitboard as bb
from .bitboard import U64, ZERO
from .cards import POINTS2

_BITS = np.arange(56, dtype=U64)
_BIT_SUIT = np.arange(56) % 4
_BIT_POINTS2 = POINTS2[bb.LO_CARD].astype(np.int16)
_BIT_IS_KING = np.arange(56) // 4 == 13
_NOT_DISCARDABLE = np.int16(32000)


class GreedyEcart:
    """Discard to make voids and save points, keeping kings and long suits.

    Each suited card but the kings gets a key, and the cards with the lowest keys go: cards of
    suits without a king before those of suits with one (a king's guards are what lets it
    pass); within those, short suits before long ones (discarding a short suit whole makes a
    void, so the taker can trump it; long suits are kept, they make tricks late in the deal);
    within a suit, the valuable cards first (a dame or cavalier in a short suit would likely
    fall to a defender's king, while in the écart it counts for the taker) — but not the
    honours that follow the king unbroken (R D, R D C…): they are masters and make tricks.
    Trumps go only when there are not enough other cards (the rules' case), the lowest first
    and never a bout.
    """

    def choose(
        self, hand_lo: np.ndarray, hand_hi: np.ndarray, count: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The écart of ``count`` cards from each hand (taker's cards + chien), as (lo, hi)
        (N,) uint64."""
        holds = ((hand_lo[:, None] >> _BITS) & bb.ONE).astype(bool)  # (N, 56)
        suit_length = np.stack([bb.popcount(hand_lo & mask) for mask in bb.SUIT_LO], axis=1)
        suit_has_king = np.stack(
            [(hand_lo & mask & bb.KINGS_LO) != ZERO for mask in bb.SUIT_LO], axis=1
        )
        suit_key = (1000 * suit_has_king + 10 * suit_length).astype(np.int16)
        key = suit_key[:, _BIT_SUIT] - _BIT_POINTS2 + 500 * _masters_below_king(holds)
        key = np.where(holds & ~_BIT_IS_KING, key, _NOT_DISCARDABLE)
        # The ``count`` lowest keys, in no particular order (cards of equal key are alike).
        chosen = np.argpartition(key, count - 1, axis=1)[:, :count]
        usable = np.take_along_axis(key, chosen, axis=1) < _NOT_DISCARDABLE
        bits = np.where(usable, bb.ONE << chosen.astype(U64), ZERO)
        ecart_lo = np.bitwise_or.reduce(bits, axis=1)
        missing = count - usable.sum(axis=1)
        ecart_hi = _lowest_trumps(hand_hi & bb.MIDDLE_TRUMPS_HI, missing)
        return ecart_lo, ecart_hi


def _masters_below_king(holds: np.ndarray) -> np.ndarray:
    """(N, 56) bool: the dames, cavaliers and valets held with every higher card of their suit
    (``holds``: (N, 56) bool by ``lo`` bit)."""
    masters = np.zeros_like(holds)
    for suit in range(4):
        unbroken = holds[:, 4 * 13 + suit]  # the king
        for rank in (13, 12, 11):
            bit = 4 * (rank - 1) + suit
            unbroken = unbroken & holds[:, bit]
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
