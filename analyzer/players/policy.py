"""Card-play policies: objects with one method, ``choose(turn, rng) -> (lo, hi)``.

A policy (:class:`table.Policy`) answers for every deal of a :class:`table.Turn` at once, with
array operations only; its answer is one card per deal, as a pair of (N,) ``uint64`` one-bit
masks taken from the legal cards. This module holds the two baselines; :mod:`greedy` the
engine's own policy.
"""

from __future__ import annotations

import numpy as np

from ..playout import bitboard as bb
from ..playout.bitboard import ZERO
from ..playout.table import Turn
from ..playout.vector_rules import NO_SUIT


def either(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One of two one-bit candidates per deal: ``lo``'s where it has one, else ``hi``'s."""
    return lo, bb.keep(lo == ZERO, hi)


def cheapest(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card of each set that gives away the least: a low suited card (lowest rank first),
    else a middle trump (lowest first), else a face card (valet first), else the Excuse, the
    Petit, the 21 in that order."""
    # Low ranks are the lowest bits of lo: the lowest card is a low one whenever the set has one.
    lowest_lo = bb.lowest(lo)
    has_low = (lowest_lo & bb.LOW_LO) != ZERO
    middle_trump = bb.lowest(hi & bb.MIDDLE_TRUMPS_HI)
    has_middle = middle_trump != ZERO
    excuse = hi & bb.EXCUSE_HI
    last_hi = excuse | bb.keep(excuse == ZERO, bb.lowest(hi))  # the Excuse, else the Petit, the 21
    from_hi = ~has_low & (has_middle | (lowest_lo == ZERO))
    chosen_hi = bb.keep(from_hi, bb.select(has_middle, middle_trump, last_hi))
    return bb.keep(~from_hi, lowest_lo), chosen_hi


class RandomPolicy:
    """A uniformly random legal card."""

    name = "random"

    def choose(self, turn: Turn, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = turn.legal_lo.copy(), turn.legal_hi.copy()
        count = bb.popcount(lo) + bb.popcount(hi)
        # A number for every deal of the table, whichever are asked about: a deal's card does
        # not depend on which side's policy was asked first, or about how many deals.
        skip = (turn.of(rng.random(turn.table.n_deals)) * count).astype(np.int64)
        for _ in range(int(skip.max(initial=0))):
            step = skip > 0
            in_lo = lo != ZERO
            lo = bb.select(step & in_lo, lo & (lo - bb.ONE), lo)
            hi = bb.select(step & ~in_lo, hi & (hi - bb.ONE), hi)
            skip -= step
        return either(bb.lowest(lo), bb.lowest(hi))


class SimplePolicy:
    """The common open-source AI: lead the highest trump with four or more trumps, else the
    highest card of the longest suit; follow with the cheapest winning card, else the card worth
    fewest points."""

    name = "simple"

    def choose(self, turn: Turn, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        table = turn.table
        lo, hi = turn.legal_lo, turn.legal_hi
        leading = turn.of(table.lead_suit) == NO_SUIT

        trumps = hi & bb.TRUMPS_HI
        lengths = np.stack([bb.popcount(lo & mask) for mask in bb.SUIT_LO])
        longest = bb.SUIT_LO[lengths.argmax(axis=0)]
        lead_lo, lead_hi = either(bb.top(lo & longest), bb.top(hi))
        many_trumps = bb.popcount(trumps) >= 4
        lead_lo = bb.select(many_trumps, ZERO, lead_lo)
        lead_hi = bb.select(many_trumps, bb.top(trumps), lead_hi)

        beat_lo, beat_hi = turn.of(table.beat_lo), turn.of(table.beat_hi)
        win_lo, win_hi = either(bb.lowest(lo & beat_lo), bb.lowest(hi & beat_hi))
        can_win = (win_lo | win_hi) != ZERO
        cheap_lo, cheap_hi = cheapest(lo, hi)
        follow_lo = bb.select(can_win, win_lo, cheap_lo)
        follow_hi = bb.select(can_win, win_hi, cheap_hi)
        return bb.select(leading, lead_lo, follow_lo), bb.select(leading, lead_hi, follow_hi)
