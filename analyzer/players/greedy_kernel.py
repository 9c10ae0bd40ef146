"""The greedy policy compiled: :mod:`greedy`'s habits, deal by deal, as one numba kernel.

:mod:`greedy` states each habit as array operations over N deals: many numpy calls per decision,
whose fixed cost was most of a decision's time at the lookahead's rollout sizes (a decision of
10 deals took 239 µs; of 10,000, 1.23 ms). This module is their compiled twin (10 µs and 0.55
ms, measured on one core): one call per decision, a loop over the deals that reads the same
table and knowledge arrays, thinks the same thoughts in the same order, and writes one card per
deal (``tests/test_compiled_twins.py`` holds the two to the same cards; :mod:`compiled` says
when a process uses it).

A change to a habit is made in both files; :mod:`greedy` is the reference, this one follows it.
Names here are those of :mod:`greedy`. Card sets are ``uint64`` words as in :mod:`bitboard`.
"""

from __future__ import annotations

import numpy as np

from ..playout import bitboard as bb
from ..playout.knowledge import NO_TRUMP_BIT
from ..playout.table import Candidate, Turn
from ..playout.table_kernel import above, lowest, popcount, top, word_function
from ..playout.vector_rules import NO_SUIT, TRUMP_LEAD
from .greedy import HUNTING_TRUMPS

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_ALL_LO = bb.ALL_LO
_ALL_HI = bb.ALL_HI
_LOW_LO = bb.LOW_LO
_FACES_LO = bb.FACES_LO
_TRUMPS_HI = bb.TRUMPS_HI
_PETIT_HI = bb.PETIT_HI
_EXCUSE_HI = bb.EXCUSE_HI
_MIDDLE_TRUMPS_HI = bb.MIDDLE_TRUMPS_HI
_TWENTY_ONE_AND_PETIT_HI = bb.PETIT_HI | bb.TWENTY_ONE_HI
_TWENTY_ONE_TO_PETIT = np.uint64(20)
_SUIT_LO = bb.SUIT_LO  # (4,) uint64
_HUNTING_TRUMPS = np.array([HUNTING_TRUMPS.get(players, 0) for players in range(6)], np.int64)


@word_function
def _above_or_all(single):
    """:func:`bitboard.above_or_all`: the bits above ``single``, every bit when it is 0."""
    if single == _ZERO:
        return _ALL_ONES
    return above(single)


@word_function
def _spare_the_safe_petit(no_threat, trumps_hi):
    if no_threat and (trumps_hi & ~_PETIT_HI) != _ZERO:
        return trumps_hi & ~_PETIT_HI
    return trumps_hi


@word_function
def _cheapest(lo, hi):
    """:func:`policy.cheapest` of one set: (lo, hi) of the card."""
    lowest_lo = lowest(lo)
    has_low = (lowest_lo & _LOW_LO) != _ZERO
    middle_trump = lowest(hi & _MIDDLE_TRUMPS_HI)
    has_middle = middle_trump != _ZERO
    from_hi = not has_low and (has_middle or lowest_lo == _ZERO)
    if not from_hi:
        return lowest_lo, _ZERO
    if has_middle:
        return _ZERO, middle_trump
    excuse = hi & _EXCUSE_HI
    if excuse != _ZERO:
        return _ZERO, excuse
    return _ZERO, lowest(hi)


@word_function
def _choose_all(
    out_lo,
    out_hi,
    k,
    players,
    trick,
    n_tricks,
    legal_lo,
    legal_hi,
    hands_lo,
    hands_hi,
    seat,
    on_taker_side,
    is_taker,
    is_partner,
    revealed,
    played_lo,
    played_hi,
    ecart_lo,
    ecart_hi,
    may_hold_lo,
    may_hold_hi,
    void,
    taker_void,
    holds_hi,
    public_taker,
    ecart_shown_hi,
    lead_suit,
    lead_lo,
    lead_bit,
    beat_lo,
    beat_hi,
    best_position,
    best_on_taker_side,
    taker_tricks,
    defence_tricks,
    winners,
):
    """Writes the greedy's card of every deal into ``out_lo``/``out_hi`` (N,) uint64; the other
    arguments are the :class:`table.Table` and :class:`knowledge.PublicKnowledge` arrays of the
    same names ((N,), or (n, N) with rows by position; ``holds_hi`` by seat), ``k`` the position
    of the player to act."""
    n_deals = out_lo.shape[0]
    last = k == players - 1
    near_the_end = trick >= n_tricks - 2
    for d in range(n_deals):
        lo = legal_lo[d]
        hi = legal_hi[d]
        mine = on_taker_side[k, d]

        # --- what the player knows (knowledge.of) --------------------------------------------
        knows_sides = True
        if players == 5:
            knows_sides = revealed[d] or is_partner[k, d]
        own_lo = _ZERO
        own_hi = _ZERO
        if is_taker[k, d]:
            own_lo = ecart_lo[d]
            own_hi = ecart_hi[d]
        unseen_lo = _ALL_LO & ~(own_lo | hands_lo[k, d] | played_lo[d])
        unseen_hi = _ALL_HI & ~(own_hi | hands_hi[k, d] | played_hi[d] | ecart_shown_hi[d])

        # --- the reading (greedy.reading) ----------------------------------------------------
        opponents_lo = _ZERO
        opponents_hi = _ZERO
        later_lo = _ZERO
        later_hi = _ZERO
        later_opponents = 0
        later_void_in_lead = False
        opponents_void = 0
        others_hi = _ZERO  # the trumps the taker's others may hold (hunt_the_petit)
        for r in range(players):
            if r == k:
                continue
            r_hi = may_hold_hi[r, d]
            if not is_taker[r, d]:
                others_hi |= r_hi
            if knows_sides and on_taker_side[r, d] == mine:  # a known ally
                continue
            r_lo = may_hold_lo[r, d]
            r_void = void[r, d]
            opponents_lo |= r_lo
            opponents_hi |= r_hi
            opponents_void |= np.int64(r_void)
            if r > k:
                later_lo |= r_lo
                later_hi |= r_hi
                later_opponents += 1
                if (r_void & lead_bit[d]) != 0:
                    later_void_in_lead = True
        opponents_lo &= unseen_lo
        opponents_hi &= unseen_hi
        later_lo &= unseen_lo
        later_hi &= unseen_hi
        threat_hi = opponents_hi & _TRUMPS_HI
        later_threat_hi = later_hi & _TRUMPS_HI

        side_swept = (defence_tricks[d] if mine else taker_tricks[d]) == 0
        if players == 5 and not knows_sides:
            side_swept = True
            for t in range(trick):
                if winners[t, d] != seat[k, d]:
                    side_swept = False
        ally_wins = best_position[d] >= 0 and knows_sides and best_on_taker_side[d] == mine

        lead_may_be_trumped = False
        if not last:
            unseen_in_suit = popcount(unseen_lo & lead_lo[d])
            likely_void = later_void_in_lead or unseen_in_suit < 2 * later_opponents
            lead_may_be_trumped = later_opponents > 0 and later_threat_hi != _ZERO and likely_void

        if near_the_end and not side_swept and (hi & _EXCUSE_HI) != _ZERO:
            card_lo, card_hi = _ZERO, _EXCUSE_HI  # excuse_before_the_end
        elif k == 0 or lead_suit[d] == NO_SUIT:  # leading, or after an Excuse led
            card_lo, card_hi = _lead(
                players,
                lo,
                hi,
                mine,
                is_taker[k, d],
                unseen_lo,
                opponents_lo,
                threat_hi,
                opponents_void,
                taker_void[d],
                others_hi & unseen_hi,
                holds_hi[public_taker[d], d] & unseen_hi,
                side_swept,
            )
        else:
            card_lo, card_hi = _follow(
                lo,
                hi,
                last,
                ally_wins,
                threat_hi == _ZERO,
                later_lo,
                later_threat_hi,
                later_opponents,
                lead_may_be_trumped,
                lead_suit[d],
                lead_lo[d],
                beat_lo[d],
                beat_hi[d],
            )
        out_lo[d] = card_lo
        out_hi[d] = card_hi


@word_function
def _follow(
    lo,
    hi,
    last,
    ally_wins,
    no_threat,
    later_lo,
    later_threat_hi,
    later_opponents,
    lead_may_be_trumped,
    lead_suit,
    lead_lo,
    beat_lo,
    beat_hi,
):
    """feed_a_sure_partner, win_cheaply, give_least (after excuse_before_the_end)."""
    # _safe_winners' trumps: above every trump a later opponent may hold
    safe_trumps = _TRUMPS_HI if last else _above_or_all(top(later_threat_hi)) & _TRUMPS_HI
    if ally_wins:
        # feed_a_sure_partner, when _best_is_safe
        if last or later_opponents == 0:
            best_is_safe = True
        else:
            beaten_in_suit = (later_lo & beat_lo) != _ZERO
            if lead_suit == TRUMP_LEAD or beat_lo == _ZERO:
                trumped = (later_threat_hi & beat_hi) != _ZERO
            else:
                trumped = lead_may_be_trumped
            best_is_safe = not (beaten_in_suit or trumped)
        if best_is_safe:
            card_lo = top(lo)
            card_hi = _ZERO
            if card_lo == _ZERO:
                card_hi = lowest(_spare_the_safe_petit(no_threat, hi & _TRUMPS_HI))
            takes_over = (card_hi & beat_hi) != _ZERO  # then it must be safe
            if (card_lo | card_hi) != _ZERO and (
                not takes_over or (card_hi & safe_trumps) != _ZERO
            ):
                return card_lo, card_hi
    else:
        # win_cheaply: the cheapest of _safe_winners
        safe_lo = _ZERO
        if last:
            safe_lo = lo & beat_lo
        elif not lead_may_be_trumped:
            safe_lo = lo & beat_lo & _above_or_all(top(later_lo & lead_lo))
        card_lo = lowest(safe_lo)
        if card_lo != _ZERO:
            return card_lo, _ZERO
        safe_hi = hi & beat_hi & safe_trumps
        card_hi = lowest(_spare_the_safe_petit(no_threat, safe_hi))
        if card_hi != _ZERO:
            return _ZERO, card_hi
    return _give_least(lo, hi, ally_wins)


@word_function
def _give_least(lo, hi, ally_wins):
    lowest_lo = lowest(lo)
    middle = lowest(hi & _MIDDLE_TRUMPS_HI)
    has_middle = middle != _ZERO
    from_hi = (lowest_lo & _LOW_LO) == _ZERO and (has_middle or lowest_lo == _ZERO)
    bouts = hi & _TWENTY_ONE_AND_PETIT_HI
    bout = bouts & ~(bouts >> _TWENTY_ONE_TO_PETIT)  # the 21 held hides the Petit
    bout_or_none = from_hi and not has_middle
    card_lo = _ZERO
    card_hi = _ZERO
    if from_hi:
        card_hi = middle
        if bout_or_none:
            card_hi |= bout
    else:
        card_lo = lowest_lo
    costly = (card_lo & _FACES_LO) != _ZERO or bout_or_none
    only_the_excuse = (card_lo | card_hi) == _ZERO
    has_excuse = (hi & _EXCUSE_HI) != _ZERO
    if has_excuse and (only_the_excuse or (not ally_wins and costly)):
        return _ZERO, _EXCUSE_HI
    return card_lo, card_hi


@word_function
def _lead(
    players,
    lo,
    hi,
    mine,
    is_taker,
    unseen_lo,
    opponents_lo,
    threat_hi,
    opponents_void,
    taker_void,
    others_hi,
    taker_sure_hi,
    side_swept,
):
    """draw_trumps, cash_masters, force_the_taker, hunt_the_petit, lead_low (after
    excuse_before_the_end)."""
    trumps = hi & _TRUMPS_HI
    n_trumps = popcount(trumps)
    no_threat = threat_hi == _ZERO
    # draw_trumps
    threats = popcount(threat_hi)
    if is_taker and n_trumps >= threats and threats > 0:
        highest = top(trumps)
        if highest > threat_hi:
            return _ZERO, highest
        low = lowest(trumps & ~_PETIT_HI)
        if low != _ZERO:
            return _ZERO, low
    # cash_masters: the highest of the masters that pass
    best = _ZERO
    for s in range(4):
        suit = _SUIT_LO[s]
        highest = top(lo & suit)
        if highest > (opponents_lo & suit):
            enough_out = popcount(unseen_lo & suit) >= 2 * (players - 1)
            no_void = (opponents_void & (1 << s)) == 0
            if (no_threat or (enough_out and no_void)) and highest > best:
                best = highest
    if best != _ZERO:
        return best, _ZERO
    # force_the_taker: the first suit the taker is void in with a low card to lead
    if not mine and (taker_void & NO_TRUMP_BIT) == 0:
        for s in range(4):
            if (taker_void & np.uint8(1 << s)) != 0:
                low = lowest(lo & _SUIT_LO[s] & _LOW_LO)
                if low != _ZERO:
                    return low, _ZERO
    # hunt_the_petit
    if not mine and (threat_hi & _PETIT_HI) != _ZERO and n_trumps >= _HUNTING_TRUMPS[players]:
        taker_others = popcount(taker_sure_hi & _TRUMPS_HI & ~_PETIT_HI)
        defence_most = n_trumps + popcount(others_hi & _TRUMPS_HI & ~taker_sure_hi)
        if defence_most > taker_others:
            highest = top(trumps)
            if highest != _ZERO:
                return _ZERO, highest
    # lead_low: the taker's side from its shortest suit, the defence from its longest
    sign = 1 if mine else -1
    best_key = 31
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
    last_hi = hi
    if side_swept and (hi & ~_EXCUSE_HI) != _ZERO:
        last_hi = hi & ~_EXCUSE_HI
    if (lo | spare_hi) != _ZERO:
        return _cheapest(lo, spare_hi)
    return _cheapest(lo, last_hi)


def choose(turn: Turn) -> Candidate:
    """The greedy's card in every deal of ``turn`` (as :class:`greedy.GreedyPolicy`)."""
    table = turn.table
    public = table.public
    n_deals = table.n_deals
    out_lo = np.empty(n_deals, np.uint64)
    out_hi = np.empty(n_deals, np.uint64)
    # Row-major (n, N) arrays only, so that the kernel has one compiled version (the engine's
    # are row-major: then nothing is copied).
    c = np.ascontiguousarray
    _choose_all(
        out_lo,
        out_hi,
        turn.position,
        table.players,
        table.trick,
        table.n_tricks,
        turn.legal_lo,
        turn.legal_hi,
        c(table.hands_lo),
        c(table.hands_hi),
        c(table.seat),
        c(table.on_taker_side),
        c(table.is_taker),
        c(table.is_partner),
        table.revealed,
        table.played_lo,
        table.played_hi,
        table.ecart_lo,
        table.ecart_hi,
        c(public.may_hold_lo),
        c(public.may_hold_hi),
        c(public.void),
        public.taker_void,
        c(public.holds_hi),
        public.taker,
        public.ecart_shown_hi,
        table.lead_suit,
        table.lead_lo,
        table.lead_bit,
        table.beat_lo,
        table.beat_hi,
        table.best_position,
        table.best_on_taker_side,
        table.taker_tricks,
        table.defence_tricks,
        c(table.winners),
    )
    return out_lo, out_hi
