"""A trick, deal by deal: the per-deal kernels (:func:`.words.kernel`) that play it.

:func:`legal_cards` says what the player to act may play, :func:`lay_down` plays a card (what
everyone learns first, :func:`.knowledge.observe`), and :func:`turn` starts the next trick with
its leader as row 0. Each works on one deal ``d`` of a table's arrays (``t``: a
:class:`.table.TableArrays`, ``public``: a :class:`.knowledge.KnowledgeArrays`), in place. They
are the one statement of these steps: the table applies them to all its deals at once (the
loops over deals below, one call per card), and a whole playout compiled as one loop
(:func:`.players.greedy.play_out`) calls them deal by deal.
"""

from __future__ import annotations

import numpy as np

from . import bitboard as bb
from .knowledge import NO_TRUMP_BIT, observe
from .vector_rules import NO_SUIT, TRUMP_LEAD, first_lead_plays, legal_plays
from .words import above, entry_point, kernel, popcount

_ZERO = bb.U64(0)
_ONE = bb.U64(1)
_ALL_LO = bb.ALL_LO
_TRUMPS_HI = bb.TRUMPS_HI
_EXCUSE_HI = bb.EXCUSE_HI
_SUIT_LO = bb.SUIT_LO  # (4,) uint64


@kernel
def legal_cards(k, d, trick, t):
    """(lo, hi) the cards the player at position ``k`` may play in deal ``d`` at trick
    ``trick`` (rules.md §3, §4): :func:`.vector_rules.legal_plays` of its hand and the trick,
    or :func:`.vector_rules.first_lead_plays` for the first lead with 5 players."""
    if k == 0 and trick == 0 and t.seat.shape[0] == 5:
        return first_lead_plays(t.hands_lo[k, d], t.hands_hi[k, d], t.called_lo[d])
    hand_lo = t.hands_lo[k, d]
    hand_hi = t.hands_hi[k, d]
    return legal_plays(hand_lo, hand_hi, t.lead_suit[d], t.lead_lo[d], t.beat_hi[d])


@kernel
def lay_down(k, d, lo, hi, first_trick_shown, t, public):
    """The player at position ``k`` plays the card ``lo``/``hi`` (one-bit words) in deal ``d``:
    :func:`.knowledge.observe` first (``first_trick_shown``: the first trick, and some deal of
    the table shows a poignée), then the card leaves the hand and joins the trick, which it may
    lead (the first card but the Excuse sets the suit) and may win (the highest trump, else the
    highest card of the suit led; the Excuse never wins), as :func:`rules.trick_winner` says
    (``tests/test_engine_vs_referee.py``)."""
    players = t.seat.shape[0]
    observe(k, d, lo, hi, t, public, first_trick_shown)
    t.hands_lo[k, d] ^= lo
    t.hands_hi[k, d] ^= hi
    t.played_lo[d] |= lo
    t.played_hi[d] |= hi
    t.trick_lo[d] |= lo
    t.trick_hi[d] |= hi
    if players == 5 and ((lo & t.called_lo[d]) | (hi & t.called_hi[d])) != _ZERO:
        t.revealed[d] = True
    if hi == _EXCUSE_HI:
        t.excuse_position[d] = k
        if t.on_taker_side[k, d]:
            t.excuse_on_taker_side[d] = True
    elif t.lead_suit[d] == NO_SUIT:  # the first card but the Excuse leads
        if (hi & _TRUMPS_HI) != _ZERO:
            t.lead_suit[d] = TRUMP_LEAD
            t.lead_lo[d] = _ZERO
            t.lead_hi[d] = _TRUMPS_HI
            t.lead_bit[d] = NO_TRUMP_BIT
        else:
            suit = popcount(lo - _ONE) & 3  # the card's bit is 4 × (rank − 1) + suit
            t.lead_suit[d] = suit
            t.lead_lo[d] = _SUIT_LO[suit]
            t.lead_hi[d] = _ZERO
            t.lead_bit[d] = np.uint8(1 << suit)
    trumps_in = (hi & t.beat_hi[d]) != _ZERO
    if (lo & t.beat_lo[d]) != _ZERO or trumps_in:
        t.best_position[d] = k
        t.best_on_taker_side[d] = t.on_taker_side[k, d]
        if k < players - 1:
            t.beat_lo[d] = t.lead_lo[d] & above(lo)
            if trumps_in:
                t.beat_hi[d] = _TRUMPS_HI & above(hi)


@kernel
def new_trick(d, t):
    """Deal ``d``'s trick in progress emptied: no card, no suit led, anything beats it."""
    t.trick_lo[d] = _ZERO
    t.trick_hi[d] = _ZERO
    t.lead_suit[d] = NO_SUIT
    t.lead_lo[d] = _ZERO
    t.lead_hi[d] = _ZERO
    t.lead_bit[d] = np.uint8(0)
    t.beat_lo[d] = _ALL_LO
    t.beat_hi[d] = _TRUMPS_HI
    t.best_position[d] = -1
    t.best_on_taker_side[d] = False
    t.excuse_position[d] = -1
    t.excuse_on_taker_side[d] = False


@kernel
def _rotate(d, by, t, public):
    """Deal ``d``'s per-player rows turned up by ``by`` rows (0 < ``by`` < n), in place: row
    ``r`` of the seats, hands, what the others may hold and voids takes row ``r + by``'s value
    (mod n). Each value moves once, along the cycles of that step: one, but two of two rows
    when 4 players turn by 2 (gcd(n, by) for n of 3 to 5). The six arrays move in one loop of
    a fixed count, without a branch on the leader but that one. Measured on the greedy's
    playouts (20,000 Garde deals): a loop for each array, as long as its cycle, took some 4 ns
    a card; this way, 3 ns a card less with 4 players, 6 with 5."""
    n = t.seat.shape[0]
    cycles = 2 if 2 * by == n else 1
    for start in range(cycles):
        seat = t.seat[start, d]
        hand_lo = t.hands_lo[start, d]
        hand_hi = t.hands_hi[start, d]
        may_lo = public.may_hold_lo[start, d]
        may_hi = public.may_hold_hi[start, d]
        void = public.void[start, d]
        r = start
        for _ in range(n // cycles - 1):
            nxt = r + by
            nxt = nxt - n if nxt >= n else nxt
            t.seat[r, d] = t.seat[nxt, d]
            t.hands_lo[r, d] = t.hands_lo[nxt, d]
            t.hands_hi[r, d] = t.hands_hi[nxt, d]
            public.may_hold_lo[r, d] = public.may_hold_lo[nxt, d]
            public.may_hold_hi[r, d] = public.may_hold_hi[nxt, d]
            public.void[r, d] = public.void[nxt, d]
            r = nxt
        t.seat[r, d] = seat
        t.hands_lo[r, d] = hand_lo
        t.hands_hi[r, d] = hand_hi
        public.may_hold_lo[r, d] = may_lo
        public.may_hold_hi[r, d] = may_hi
        public.void[r, d] = void


@kernel
def turn(d, leader, t, public):
    """Start deal ``d``'s next trick with the player now at position ``leader`` as row 0: the
    per-player rows (seats, hands, what the others may hold, voids) turn so that the row of the
    ``r``-th player after the leader is ``r`` (:func:`_rotate`), the sides follow the seats,
    the trick empties."""
    if leader > 0:
        _rotate(d, leader, t, public)
    for r in range(t.seat.shape[0]):
        t.is_taker[r, d] = t.seat[r, d] == t.taker_seat[d]
        t.is_partner[r, d] = t.seat[r, d] == t.partner_seat[d]
        t.on_taker_side[r, d] = t.is_taker[r, d] or t.is_partner[r, d]
    new_trick(d, t)


# --- the same steps for every deal of a table (one call per card) ------------------------------


@entry_point
def legal_all(k, trick, t, legal_lo, legal_hi):
    """:func:`legal_cards` of every deal, into ``legal_lo``/``_hi`` (N,) uint64."""
    for d in range(legal_lo.shape[0]):
        legal_lo[d], legal_hi[d] = legal_cards(k, d, trick, t)


@entry_point
def lay_down_all(k, card_lo, card_hi, first_trick_shown, t, public):
    """:func:`lay_down` of ``card_lo``/``card_hi`` ((N,) uint64, one bit per deal)."""
    for d in range(card_lo.shape[0]):
        lay_down(k, d, card_lo[d], card_hi[d], first_trick_shown, t, public)


@entry_point
def turn_all(leaders, t, public):
    """:func:`turn` of every deal, to the leaders ``leaders`` ((N,) int64 positions)."""
    for d in range(leaders.shape[0]):
        turn(d, leaders[d], t, public)


@entry_point
def new_tricks(t):
    """:func:`new_trick` of every deal."""
    for d in range(t.trick_lo.shape[0]):
        new_trick(d, t)
