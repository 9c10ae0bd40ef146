"""Laying a card down, compiled: :meth:`table.Table.play` (with
:meth:`knowledge.PublicKnowledge.observe`) deal by deal, as one numba kernel.

The array version costs 67 µs a card at 10 deals and 0.38 ms at 10,000, much of it numpy's cost per
call; this twin, 7 µs and 0.15 ms, is one call that updates the same arrays to the same values
(``tests/test_compiled_twins.py``). It follows the rules as :mod:`vector_rules` states them
(:func:`~vector_rules.led_suit`, :func:`~vector_rules.beats`), which :mod:`rules`, the referee,
holds to account; a change there is made here too. See :mod:`compiled` for when a process uses
it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from . import bitboard as bb
from .knowledge import NO_TRUMP_BIT
from .table import Table
from .vector_rules import NO_SUIT, TRUMP_LEAD

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_TRUMPS_HI = bb.TRUMPS_HI
_EXCUSE_HI = bb.EXCUSE_HI
_SUIT_LO = bb.SUIT_LO  # (4,) uint64
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _S8, _S16, _S32, _S56 = (np.uint64(s) for s in (1, 2, 4, 8, 16, 32, 56))


def word_function(function: Callable) -> Callable:
    """A compiled function of ``uint64`` card sets, callable from the kernels."""
    return njit(cache=True, nogil=True)(function)


@word_function
def popcount(x: np.uint64) -> np.int64:
    """:func:`bitboard.popcount` of one word (numba makes it the processor's instruction)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@word_function
def lowest(x: np.uint64) -> np.uint64:
    """:func:`bitboard.lowest` of one word."""
    return x & (~x + _ONE)


@word_function
def top(x: np.uint64) -> np.uint64:
    """The highest set bit of ``x`` (0 for 0): :func:`bitboard.top` of any word."""
    x |= x >> _S1
    x |= x >> _S2
    x |= x >> _S4
    x |= x >> _S8
    x |= x >> _S16
    x |= x >> _S32
    return x ^ (x >> _S1)


@word_function
def above(single: np.uint64) -> np.uint64:
    """:func:`bitboard.above`: every bit above the one of ``single`` (none for 0)."""
    return ~(single << _ONE) + _ONE


@word_function
def _lay_down(
    card_lo,
    card_hi,
    k,
    players,
    first_trick_shown,
    seat,
    on_taker_side,
    is_taker,
    shown_hi,
    holds_hi,
    may_hold_lo,
    may_hold_hi,
    void,
    taker_void,
    hands_lo,
    hands_hi,
    played_lo,
    played_hi,
    trick_lo,
    trick_hi,
    revealed,
    called_lo,
    called_hi,
    excuse_on_taker_side,
    lead_suit,
    lead_lo,
    lead_hi,
    lead_bit,
    beat_lo,
    beat_hi,
    best_position,
    best_on_taker_side,
    excuse_position,
):
    """The player at position ``k`` plays ``card`` in every deal. The arrays are those of
    :class:`table.Table` and its :class:`knowledge.PublicKnowledge` of the same names, updated
    in place (the array version makes new arrays of the trick's summary, ``lead_*``, ``beat_*``,
    ``best_*`` and ``excuse_position``; nothing keeps the old ones). ``first_trick_shown``: the
    first trick, and some deal shows a poignée (shown with its holder's first card)."""
    for d in range(card_lo.shape[0]):
        lo = card_lo[d]
        hi = card_hi[d]
        # --- PublicKnowledge.observe: what the card proves, before it joins the trick --------
        if first_trick_shown:
            shown = shown_hi[seat[k, d], d]
            holds_hi[seat[k, d], d] |= shown
            for r in range(players):
                may_hold_hi[r, d] &= ~shown
            may_hold_hi[k, d] |= shown
        if k > 0:
            is_trump = (hi & _TRUMPS_HI) != _ZERO
            followed = ((lo & lead_lo[d]) | (hi & lead_hi[d])) != _ZERO
            off_suit = lead_suit[d] != NO_SUIT and hi != _EXCUSE_HI and not followed
            if off_suit:
                bits = lead_bit[d]
                if not is_trump:  # not following, nor trumping: no trumps
                    bits |= NO_TRUMP_BIT
                    may_hold_hi[k, d] &= ~_TRUMPS_HI
                void[k, d] |= bits
                if is_taker[k, d]:
                    taker_void[d] |= bits
                may_hold_lo[k, d] &= ~lead_lo[d]
            if is_trump and (hi & beat_hi[d]) == _ZERO:  # under a trump: none above it held
                may_hold_hi[k, d] &= ~beat_hi[d]
        # --- Table.play --------------------------------------------------------------------
        hands_lo[k, d] ^= lo
        hands_hi[k, d] ^= hi
        played_lo[d] |= lo
        played_hi[d] |= hi
        trick_lo[d] |= lo
        trick_hi[d] |= hi
        if players == 5 and ((lo & called_lo[d]) | (hi & called_hi[d])) != _ZERO:
            revealed[d] = True
        if hi == _EXCUSE_HI:
            excuse_position[d] = k
            if on_taker_side[k, d]:
                excuse_on_taker_side[d] = True
        elif lead_suit[d] == NO_SUIT:  # vector_rules.led_suit: the first card but the Excuse
            if (hi & _TRUMPS_HI) != _ZERO:
                suit = TRUMP_LEAD
                lead_lo[d] = _ZERO
                lead_hi[d] = _TRUMPS_HI
                lead_bit[d] = NO_TRUMP_BIT
            else:
                suit = popcount(lo - _ONE) & 3  # the card's bit is 4 × (rank − 1) + suit
                lead_lo[d] = _SUIT_LO[suit]
                lead_hi[d] = _ZERO
                lead_bit[d] = np.uint8(1 << suit)
            lead_suit[d] = suit
        # vector_rules.beats (wins only, for the trick's last card)
        trumps_in = (hi & beat_hi[d]) != _ZERO
        wins = (lo & beat_lo[d]) != _ZERO or trumps_in
        if wins:
            best_position[d] = k
            best_on_taker_side[d] = on_taker_side[k, d]
            if k < players - 1:
                beat_lo[d] = lead_lo[d] & above(lo)
                if trumps_in:
                    beat_hi[d] = _TRUMPS_HI & above(hi)


def lay_down(table: Table, card_lo: np.ndarray, card_hi: np.ndarray) -> None:
    """:meth:`table.Table.play` but for the position's step: the player to act plays one card
    in every deal."""
    public = table.public
    c = np.ascontiguousarray  # the read-only (n, N) arrays row-major: one compiled version
    _lay_down(
        card_lo,
        card_hi,
        table.position,
        table.players,
        table.trick == 0 and table.any_shown,
        c(table.seat),
        c(table.on_taker_side),
        c(table.is_taker),
        c(table.shown_hi),
        public.holds_hi,
        public.may_hold_lo,
        public.may_hold_hi,
        public.void,
        public.taker_void,
        table.hands_lo,
        table.hands_hi,
        table.played_lo,
        table.played_hi,
        table.trick_lo,
        table.trick_hi,
        table.revealed,
        table.called_lo,
        table.called_hi,
        table.excuse_on_taker_side,
        table.lead_suit,
        table.lead_lo,
        table.lead_hi,
        table.lead_bit,
        table.beat_lo,
        table.beat_hi,
        table.best_position,
        table.best_on_taker_side,
        table.excuse_position,
    )
