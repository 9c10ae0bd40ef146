"""The greedy's habits: the habits of competent players, deal by deal.

The greedy player first reads the position (:func:`read`, a :class:`Reading`) from what it may
know (:mod:`~..playout.knowledge`): its own hand, the cards played, its écart (the taker's), the
trumps shown in poignées, the voids others have shown, and who is on which side (with 5 players,
known to the others only once the called card appears). Then it plays the card of the first
habit that applies, in the order a player would think of them: :func:`lead` and
:func:`follow`. Each habit is one function of the reading that returns a card, ``(lo, hi)``
one-bit ``uint64`` words, or ``(0, 0)`` where it does not apply.

This is the one statement of the habits. Every function is a per-deal kernel
(:func:`~..playout.words.kernel`): compiled by numba, else run as it is. Card sets are ``uint64``
words as in :mod:`~..playout.bitboard`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..playout import bitboard as bb
from ..playout.knowledge import NO_TRUMP_BIT, known_ally, knows_sides, unseen
from ..playout.words import above_or_all, keep, kernel, lowest, popcount, top

HUNTING_TRUMPS = {3: 7, 4: 5, 5: 4}
"""Trumps a defender needs in hand to lead them to hunt the Petit."""

_ZERO = bb.U64(0)
_LOW_LO = bb.LOW_LO
_FACES_LO = bb.FACES_LO
_TRUMPS_HI = bb.TRUMPS_HI
_PETIT_HI = bb.PETIT_HI
_EXCUSE_HI = bb.EXCUSE_HI
_MIDDLE_TRUMPS_HI = bb.MIDDLE_TRUMPS_HI
_TWENTY_ONE_AND_PETIT_HI = bb.PETIT_HI | bb.TWENTY_ONE_HI
_TWENTY_ONE_TO_PETIT = bb.U64(20)  # shifting hi down by this brings the 21's bit onto the Petit's
_SUIT_LO = bb.SUIT_LO  # (4,) uint64
_HUNTING_TRUMPS = np.array([HUNTING_TRUMPS.get(players, 0) for players in range(6)], np.int64)


class Reading(NamedTuple):
    """The greedy's reading of one deal at one decision. Card sets are uint64 words; the
    opponents are the players not known to be allies, the later ones those after the player in
    this trick."""

    players: int
    legal_lo: np.uint64  # the cards the rules allow
    legal_hi: np.uint64
    mine: bool  # the player is on the taker's side
    is_taker: bool
    last: bool  # nobody plays after the player in this trick
    near_the_end: bool  # the second-to-last trick or later
    unseen_lo: np.uint64  # the cards the player has not seen (knowledge.unseen)
    opponents_lo: np.uint64  # the suited cards an opponent may hold
    threat_hi: np.uint64  # the trumps an opponent may hold
    opponents_void: np.int64  # the void bits some opponent has shown
    later_lo: np.uint64  # the suited cards a later opponent may hold
    later_threat_hi: np.uint64  # the trumps a later opponent may hold
    later_opponents: np.int64
    others_hi: np.uint64  # the unseen trumps the players but the taker may hold
    taker_sure_hi: np.uint64  # the unseen trumps the taker surely holds (poignée, chien)
    taker_void: np.uint8  # the taker's shown voids
    side_swept: bool  # the player's side has won every trick so far, as the player knows
    ally_wins: bool  # the card winning the trick so far is a known ally's
    lead_may_be_trumped: bool  # a later opponent may trump a card of the suit led
    lead_suit: np.int64  # as the table's
    lead_lo: np.uint64
    beat_lo: np.uint64  # the cards that would beat the trick's best card
    beat_hi: np.uint64


@kernel
def read(k, d, trick, n_tricks, legal_lo, legal_hi, t, public):
    """The :class:`Reading` of the player at position ``k`` in deal ``d`` at trick ``trick``
    of ``n_tricks``, its legal cards ``legal_lo``/``_hi``; ``t`` and ``public`` the table's
    :class:`~..playout.table.TableArrays` and :class:`~..playout.knowledge.KnowledgeArrays`."""
    players = t.seat.shape[0]
    mine = t.on_taker_side[k, d]
    unseen_lo, unseen_hi = unseen(k, d, t, public)
    opponents_lo = opponents_hi = later_lo = later_hi = others_hi = _ZERO
    later_opponents = opponents_void = 0
    later_void_in_lead = False
    for r in range(players):
        if r == k:
            continue
        may_lo = public.may_hold_lo[r, d]
        may_hi = public.may_hold_hi[r, d]
        void = public.void[r, d]
        others_hi |= keep(not t.is_taker[r, d], may_hi)
        # Whether r is an opponent taken as a mask, not a branch: with five players, before the
        # called card appears, it would be mispredicted often.
        opponent = not known_ally(k, r, d, t)
        opponents_lo |= keep(opponent, may_lo)
        opponents_hi |= keep(opponent, may_hi)
        opponents_void |= np.int64(keep(opponent, np.uint64(void)))
        later = opponent & (r > k)
        later_lo |= keep(later, may_lo)
        later_hi |= keep(later, may_hi)
        later_opponents += np.int64(later)
        later_void_in_lead |= later & ((void & t.lead_bit[d]) != 0)
    later_lo &= unseen_lo
    later_threat_hi = later_hi & unseen_hi & _TRUMPS_HI
    sides_known = knows_sides(k, d, t)
    side_swept = (t.defence_tricks[d] if mine else t.taker_tricks[d]) == 0
    if not sides_known:  # only the player's own tricks are known to be its side's
        side_swept = True
        for before in range(trick):
            side_swept &= t.winners[before, d] == t.seat[k, d]
    last = k == players - 1
    lead_may_be_trumped = False
    if not last:  # one may hold a trump, and has shown a void or is likely void
        likely_void = later_void_in_lead or popcount(unseen_lo & t.lead_lo[d]) < 2 * later_opponents
        lead_may_be_trumped = later_opponents > 0 and later_threat_hi != _ZERO and likely_void
    ally_wins = t.best_position[d] >= 0 and sides_known and t.best_on_taker_side[d] == mine
    taker_sure_hi = public.holds_hi[public.taker[d], d] & unseen_hi
    return Reading(
        players=players,
        legal_lo=legal_lo,
        legal_hi=legal_hi,
        mine=mine,
        is_taker=t.is_taker[k, d],
        last=last,
        near_the_end=trick >= n_tricks - 2,
        unseen_lo=unseen_lo,
        opponents_lo=opponents_lo & unseen_lo,
        threat_hi=opponents_hi & unseen_hi & _TRUMPS_HI,
        opponents_void=opponents_void,
        later_lo=later_lo,
        later_threat_hi=later_threat_hi,
        later_opponents=later_opponents,
        others_hi=others_hi & unseen_hi,
        taker_sure_hi=taker_sure_hi,
        taker_void=public.taker_void[d],
        side_swept=side_swept,
        ally_wins=ally_wins,
        lead_may_be_trumped=lead_may_be_trumped,
        lead_suit=t.lead_suit[d],
        lead_lo=t.lead_lo[d],
        beat_lo=t.beat_lo[d],
        beat_hi=t.beat_hi[d],
    )


@kernel
def lead(r):
    """The card to lead (or to play after an Excuse led): the first habit that applies."""
    lo, hi = excuse_before_the_end(r)
    if (lo | hi) == _ZERO:
        lo, hi = draw_trumps(r)
    if (lo | hi) == _ZERO:
        lo, hi = cash_masters(r)
    if (lo | hi) == _ZERO:
        lo, hi = force_the_taker(r)
    if (lo | hi) == _ZERO:
        lo, hi = hunt_the_petit(r)
    if (lo | hi) == _ZERO:
        lo, hi = lead_low(r)
    return lo, hi


@kernel
def follow(r):
    """The card to play to a trick led: the first habit that applies."""
    lo, hi = excuse_before_the_end(r)
    if (lo | hi) == _ZERO:
        lo, hi = feed_a_sure_partner(r)
    if (lo | hi) == _ZERO:
        lo, hi = win_cheaply(r)
    if (lo | hi) == _ZERO:
        lo, hi = give_least(r)
    return lo, hi


# --- habits -----------------------------------------------------------------------------------


@kernel
def excuse_before_the_end(r):
    """Never keep the Excuse for the last trick outside a chelem: it would change sides. Play it
    by the second-to-last trick, unless one's side has won every trick (then it wins the last)."""
    if r.near_the_end and not r.side_swept and (r.legal_hi & _EXCUSE_HI) != _ZERO:
        return _ZERO, _EXCUSE_HI
    return _ZERO, _ZERO


@kernel
def feed_a_sure_partner(r):
    """Give points to a partner sure to win the trick: the most valuable suited card; when only
    trumps may be played, the cheapest — the Petit first, which is thus saved. A trump that must
    go over the partner's card takes the trick itself: then it must be safe."""
    if not r.ally_wins or not _best_is_safe(r):
        return _ZERO, _ZERO
    card_lo = top(r.legal_lo)
    card_hi = _ZERO
    if card_lo == _ZERO:
        card_hi = lowest(_spare_the_safe_petit(r, r.legal_hi & _TRUMPS_HI))
    takes_over = (card_hi & r.beat_hi) != _ZERO
    if takes_over and (card_hi & _safe_trumps(r)) == _ZERO:
        return _ZERO, _ZERO
    return card_lo, card_hi


@kernel
def win_cheaply(r):
    """Win the trick with the cheapest card that no later opponent can beat — the Petit when it
    is safe, which is how it is protected (but see :func:`_spare_the_safe_petit`); never when
    the trick is already one's side's."""
    if r.ally_wins:
        return _ZERO, _ZERO
    safe_lo = _ZERO
    if r.last:
        safe_lo = r.legal_lo & r.beat_lo
    elif not r.lead_may_be_trumped:  # above every card of the suit a later opponent may hold
        safe_lo = r.legal_lo & r.beat_lo & above_or_all(top(r.later_lo & r.lead_lo))
    if safe_lo != _ZERO:
        return lowest(safe_lo), _ZERO
    safe_hi = r.legal_hi & r.beat_hi & _safe_trumps(r)
    return _ZERO, lowest(_spare_the_safe_petit(r, safe_hi))


@kernel
def give_least(r):
    """Losing the trick: give the fewest points. The Excuse saves a face card, the Petit or the
    21 from falling to the opponents; the Petit is played only when nothing else is legal."""
    lo, hi = r.legal_lo, r.legal_hi
    # policy.cheapest's order, the Excuse and the Petit aside: a low suited card, else a middle
    # trump, else a face, else the 21, else the Petit — the higher of those two bouts.
    lowest_lo = lowest(lo)
    middle = lowest(hi & _MIDDLE_TRUMPS_HI)
    from_hi = (lowest_lo & _LOW_LO) == _ZERO and (middle != _ZERO or lowest_lo == _ZERO)
    bouts = hi & _TWENTY_ONE_AND_PETIT_HI
    bout = bouts & ~(bouts >> _TWENTY_ONE_TO_PETIT)  # the 21 held hides the Petit
    bout_or_none = from_hi and middle == _ZERO  # a bout, or nothing but the Excuse
    card_lo = card_hi = _ZERO
    if not from_hi:
        card_lo = lowest_lo
    elif bout_or_none:
        card_hi = bout
    else:
        card_hi = middle
    # The Excuse instead of a face card or a bout while the trick is not one's side's, and
    # when it is the only card.
    costly = (card_lo & _FACES_LO) != _ZERO or bout_or_none
    only_the_excuse = (card_lo | card_hi) == _ZERO
    if (hi & _EXCUSE_HI) != _ZERO and (only_the_excuse or (not r.ally_wins and costly)):
        return _ZERO, _EXCUSE_HI
    return card_lo, card_hi


@kernel
def draw_trumps(r):
    """As taker, long in trumps: lead them, the master trump when one holds it, else a low one
    (never the Petit), so the defence's trumps fall and one's long suits and kings pass."""
    trumps = r.legal_hi & _TRUMPS_HI
    threats = popcount(r.threat_hi)
    if not (r.is_taker and popcount(trumps) >= threats and threats > 0):
        return _ZERO, _ZERO
    highest = top(trumps)
    if highest > r.threat_hi:  # one bit above every trump an opponent may hold
        return _ZERO, highest
    return _ZERO, lowest(trumps & ~_PETIT_HI)


@kernel
def cash_masters(r):
    """Cash a master card (no opponent may hold a higher one of its suit) when it will pass: no
    opponent can have a trump left, or none has shown a void there and enough of the suit is out
    for everyone to follow. The highest of the masters that pass."""
    best = _ZERO
    for s in range(4):
        suit = _SUIT_LO[s]
        highest = top(r.legal_lo & suit)
        if highest > (r.opponents_lo & suit):  # one bit above every card of the suit out there
            enough_out = popcount(r.unseen_lo & suit) >= 2 * (r.players - 1)
            no_void = (r.opponents_void & (1 << s)) == 0
            passes = r.threat_hi == _ZERO or (enough_out and no_void)
            if passes and highest > best:
                best = highest
    return best, _ZERO


@kernel
def force_the_taker(r):
    """In defence, lead a suit the taker has shown a void in (the first such suit) with a low
    card: the taker must spend a trump on it."""
    if r.mine or (r.taker_void & NO_TRUMP_BIT) != 0:
        return _ZERO, _ZERO
    for s in range(4):
        if (r.taker_void & np.uint8(1 << s)) != 0:
            low = lowest(r.legal_lo & _SUIT_LO[s] & _LOW_LO)
            if low != _ZERO:
                return low, _ZERO
    return _ZERO, _ZERO


@kernel
def hunt_the_petit(r):
    """In defence, long in trumps while an opponent may hold the Petit: lead high trumps, so
    that the taker's trumps run out and the Petit falls — but only while the defence can hold
    more trumps than the taker is known to hold besides the Petit (its poignée, the shown
    chien): else the hunt cannot succeed and only spends the defence's trumps. (Knowing that
    the taker holds the Petit is no reason to hunt it without the trumps to do so: measured,
    that reflex costs the defence several points a deal.)"""
    trumps = r.legal_hi & _TRUMPS_HI
    n_trumps = popcount(trumps)
    petit_out = (r.threat_hi & _PETIT_HI) != _ZERO
    if r.mine or not petit_out or n_trumps < _HUNTING_TRUMPS[r.players]:
        return _ZERO, _ZERO
    taker_others = popcount(r.taker_sure_hi & _TRUMPS_HI & ~_PETIT_HI)
    defence_most = n_trumps + popcount(r.others_hi & _TRUMPS_HI & ~r.taker_sure_hi)
    if defence_most <= taker_others:
        return _ZERO, _ZERO
    return _ZERO, top(trumps)


@kernel
def lead_low(r):
    """Otherwise lead a low card: the taker's side from its shortest suit (to make a void it can
    trump later), the defence from its longest (likely the taker's short one), the first suit of
    equals. With no low suited card, the cheapest card, the Petit and the Excuse last — the
    Excuse after the Petit while one's side has won every trick, for it then wins the last one
    (chelem)."""
    lo, hi = r.legal_lo, r.legal_hi
    sign = 1 if r.mine else -1
    best_key = 31  # above every suit's ±length
    card_lo = _ZERO
    for s in range(4):
        low = lowest(lo & _SUIT_LO[s] & _LOW_LO)
        if low != _ZERO:
            key = sign * popcount(lo & _SUIT_LO[s])
            if key < best_key:
                best_key = key
                card_lo = low
    if card_lo != _ZERO:
        return card_lo, _ZERO
    spare_hi = hi & ~_PETIT_HI & ~_EXCUSE_HI
    if (lo | spare_hi) != _ZERO:
        return _cheapest(lo, spare_hi)
    if r.side_swept and (hi & ~_EXCUSE_HI) != _ZERO:
        return _cheapest(lo, hi & ~_EXCUSE_HI)
    return _cheapest(lo, hi)


# --- what several habits judge alike ----------------------------------------------------------


@kernel
def _safe_trumps(r):
    """The trumps no later opponent can beat: above every trump one may hold."""
    if r.last:
        return _TRUMPS_HI
    return above_or_all(top(r.later_threat_hi)) & _TRUMPS_HI


@kernel
def _best_is_safe(r):
    """No later opponent can beat the card now winning the trick: none may hold a higher card
    of its suit, nor a trump above it (any trump, when it is not a trump). That an opponent is
    likely to follow is not enough to feed the trick, as it is to win it cheaply: a trick fed
    and trumped costs the points given. Feeding those that the others likely follow played
    1.5 ± 0.2 a deal worse in defence, with 3 and 4 players (docs/performance.md)."""
    if r.last or r.later_opponents == 0:
        return True
    beaten_in_suit = (r.later_lo & r.beat_lo) != _ZERO
    trumped = (r.later_threat_hi & r.beat_hi) != _ZERO
    return not (beaten_in_suit or trumped)


@kernel
def _spare_the_safe_petit(r, trumps_hi):
    """Petit au bout: once no opponent can have a trump, the Petit cannot be lost, so it is kept
    for the last trick (10 × the multiplier) while other trumps will do. (Until then it is
    played whenever it wins, the only way to save it.)"""
    if r.threat_hi == _ZERO and (trumps_hi & ~_PETIT_HI) != _ZERO:
        return trumps_hi & ~_PETIT_HI
    return trumps_hi


@kernel
def _cheapest(lo, hi):
    """:func:`~.policy.cheapest` of one set: (lo, hi) of the card."""
    lowest_lo = lowest(lo)
    middle_trump = lowest(hi & _MIDDLE_TRUMPS_HI)
    if (lowest_lo & _LOW_LO) != _ZERO or (middle_trump == _ZERO and lowest_lo != _ZERO):
        return lowest_lo, _ZERO
    if middle_trump != _ZERO:
        return _ZERO, middle_trump
    if (hi & _EXCUSE_HI) != _ZERO:
        return _ZERO, _EXCUSE_HI
    return _ZERO, lowest(hi)
