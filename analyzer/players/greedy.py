"""The engine's greedy card-play policy: the habits of competent players, as array operations.

Each habit is a small function that returns, per deal, a candidate card (a pair of one-bit
``uint64`` masks, zero where the habit does not apply; ``None`` when it applies nowhere).
:meth:`GreedyPolicy.choose` takes the
first habit that applies, in the order a player would think of them. Every habit decides from
what its player may know (:class:`Knowledge`): their own hand, the cards played, the écart (the
taker's own), the trumps shown in poignées, the voids others have shown, and who is on which
side (with 5 players, known to the others only once the called card appears).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..playout import bitboard as bb
from ..playout import compiled, knowledge
from ..playout.bitboard import ZERO
from ..playout.knowledge import NO_TRUMP_BIT, PlayerKnowledge
from ..playout.table import Candidate, Table, Turn
from ..playout.vector_rules import NO_SUIT, TRUMP_LEAD
from .policy import cheapest, either

HUNTING_TRUMPS = {3: 7, 4: 5, 5: 4}
"""Trumps a defender needs in hand to lead them to hunt the Petit."""
_TWENTY_ONE_TO_PETIT = bb.U64(20)
"""Shifting ``hi`` down by this many bits brings the 21's bit onto the Petit's."""


@dataclass
class Reading:
    """The greedy's reading of the position, per deal ((N,) arrays; card sets as uint64 pairs),
    from what its player knows (:mod:`knowledge`), and the judgements on the trick several habits
    share (computed once, when first asked for)."""

    turn: Turn
    known: PlayerKnowledge
    threat_hi: np.ndarray  # the trumps an opponent may hold
    opponents_lo: np.ndarray  # the suited cards an opponent may hold
    later_lo: np.ndarray  # the cards a player after me in this trick, not a known ally, may hold
    later_hi: np.ndarray
    on_taker_side: np.ndarray  # bool

    @property
    def unseen_lo(self) -> np.ndarray:
        return self.known.unseen_lo

    @property
    def unseen_hi(self) -> np.ndarray:
        return self.known.unseen_hi

    @property
    def last(self) -> bool:
        """Nobody plays after me in this trick (every deal alike)."""
        return self.turn.position == self.turn.table.players - 1

    @cached_property
    def _later_opponent(self) -> np.ndarray:
        """(n − 1 − position, N) bool: the players after me in this trick not known allies."""
        return ~self.known.ally[self.turn.position + 1 :]

    @cached_property
    def later_opponents(self) -> np.ndarray:
        """(N,) int8 the players after me in this trick not known allies."""
        return self._later_opponent.sum(axis=0, dtype=np.int8)

    @cached_property
    def later_void_in_lead(self) -> np.ndarray:
        """(N,) bool: one of them has shown a void in the suit led."""
        table = self.turn.table
        void = table.public.void[self.turn.position + 1 :] & table.lead_bit
        return (self._later_opponent & (void != 0)).any(axis=0)

    @cached_property
    def later_threat_hi(self) -> np.ndarray:
        """(N,) the trumps a later opponent in this trick may hold."""
        return self.later_hi & bb.TRUMPS_HI

    @cached_property
    def no_threat(self) -> np.ndarray:
        """(N,) bool: no opponent may hold a trump."""
        return self.threat_hi == ZERO

    @property
    def later_may_trump(self) -> np.ndarray:
        """(N,) bool: a later opponent may hold a trump."""
        return self.later_threat_hi != ZERO

    @cached_property
    def side_swept(self) -> np.ndarray:
        """(N,) bool: my side has won every trick so far."""
        return self.turn.table.side_swept(self.turn.position)

    @cached_property
    def ally_wins(self) -> np.ndarray:
        """(N,) bool: the card winning the trick so far is a known ally's."""
        return self.turn.table.best_is_known_ally(self.turn.position)

    @cached_property
    def safe_winners(self) -> Candidate:
        """The legal cards that win the trick and that no later opponent can beat (as sets)."""
        return _safe_winners(self.turn, self)

    @cached_property
    def best_is_safe(self) -> np.ndarray:
        """(N,) bool: no later opponent can beat the card now winning the trick."""
        return _best_is_safe(self.turn, self)

    @cached_property
    def lead_may_be_trumped(self) -> np.ndarray:
        """(N,) bool: a later opponent may trump a card of the suit led."""
        return _suit_may_be_trumped(self, self.turn.table.lead_lo)


def reading(turn: Turn) -> Reading:
    """Read the position of ``turn`` from what its player knows."""
    k = turn.position
    known = knowledge.of(turn)
    opponents_lo, opponents_hi = known.opponents_may_hold()
    # The leader's later players are all the others.
    later_lo, later_hi = (
        (opponents_lo, opponents_hi) if k == 0 else known.opponents_may_hold(slice(k + 1, None))
    )
    return Reading(
        turn=turn,
        known=known,
        threat_hi=opponents_hi & bb.TRUMPS_HI,
        opponents_lo=opponents_lo,
        later_lo=later_lo,
        later_hi=later_hi,
        on_taker_side=turn.on_taker_side,
    )


def _none(n_deals: int) -> Candidate:
    return np.zeros(n_deals, bb.U64), np.zeros(n_deals, bb.U64)


def _no_cards(turn: Turn) -> np.ndarray:
    """(N,) uint64 empty sets (np.zeros_like costs four times as much on small arrays)."""
    return np.zeros(turn.table.n_deals, bb.U64)


def _suit_may_be_trumped(know: Reading, suit_lo: np.ndarray) -> np.ndarray:
    """(N,) bool: a later opponent may trump a card of the suit ``suit_lo`` (the suit's bits):
    one may hold a trump and has shown a void in it, or so few of its cards are unseen that one
    is likely void."""
    if know.last:
        return np.zeros(len(suit_lo), bool)
    unseen_in_suit = bb.popcount8(know.unseen_lo & suit_lo)
    likely_void = know.later_void_in_lead | (unseen_in_suit < 2 * know.later_opponents)
    return (know.later_opponents > 0) & know.later_may_trump & likely_void


def _safe_winners(turn: Turn, know: Reading) -> Candidate:
    table = turn.table
    win_lo = turn.legal_lo & table.beat_lo
    win_hi = turn.legal_hi & table.beat_hi
    if know.last:
        return win_lo, win_hi & bb.TRUMPS_HI
    # Above an empty set is everything: with no trump (or none of the suit) after, all are safe.
    safe_hi = bb.above_or_all(bb.top(know.later_threat_hi))
    top_later = bb.top(know.later_lo & table.lead_lo)
    safe_lo = bb.keep(~know.lead_may_be_trumped, bb.above_or_all(top_later))
    return win_lo & safe_lo, win_hi & safe_hi & bb.TRUMPS_HI


def _best_is_safe(turn: Turn, know: Reading) -> np.ndarray:
    table = turn.table
    if know.last:
        return np.ones(table.n_deals, bool)
    beaten_in_suit = (know.later_lo & table.beat_lo) != ZERO
    trump_led = table.lead_suit == TRUMP_LEAD
    trump_over = (know.later_threat_hi & table.beat_hi) != ZERO
    trumped = bb.select(trump_led | (table.beat_lo == ZERO), trump_over, know.lead_may_be_trumped)
    return (know.later_opponents == 0) | ~(beaten_in_suit | trumped)


# --- habits -----------------------------------------------------------------------------------


def excuse_before_the_end(turn: Turn, know: Reading) -> Candidate:
    """Never keep the Excuse for the last trick outside a chelem: it would change sides. Play it
    by the second-to-last trick, unless one's side has won every trick (then it wins the last)."""
    table = turn.table
    if table.trick < table.n_tricks - 2:
        return None
    play_it = ~know.side_swept
    return _no_cards(turn), bb.keep(play_it, turn.legal_hi & bb.EXCUSE_HI)


def feed_a_sure_partner(turn: Turn, know: Reading) -> Candidate:
    """Give points to a partner sure to win the trick: the most valuable suited card; when only
    trumps may be played, the cheapest — the Petit first, which is thus saved."""
    table = turn.table
    ally_wins = know.ally_wins
    if not bb.anywhere(ally_wins):
        return None
    sure = ally_wins & know.best_is_safe
    card_lo = bb.top(turn.legal_lo)
    card_hi = bb.lowest(_spare_the_safe_petit(know, turn.legal_hi & bb.TRUMPS_HI))
    card_lo, card_hi = either(card_lo, card_hi)
    # A trump that must go over the partner's card takes the trick itself: then it must be safe.
    takes_over = (card_hi & table.beat_hi) != ZERO
    if bb.anywhere(takes_over):
        _, safe_hi = know.safe_winners
        sure &= ~takes_over | ((card_hi & safe_hi) != ZERO)
    return bb.keep_pair(sure, card_lo, card_hi)


def _spare_the_safe_petit(know: Reading, trumps_hi: np.ndarray) -> np.ndarray:
    """Petit au bout: once no opponent can have a trump, the Petit cannot be lost, so it is kept
    for the last trick (10 × the multiplier) while other trumps will do. (Until then it is
    played whenever it wins, the only way to save it.)"""
    spare = know.no_threat & ((trumps_hi & ~bb.PETIT_HI) != ZERO)
    return trumps_hi & ~spare.astype(bb.U64)  # the Petit is bit 0: 1 where it is spared


def win_cheaply(turn: Turn, know: Reading) -> Candidate:
    """Win the trick with the cheapest card that no later opponent can beat — the Petit when it
    is safe, which is how it is protected (but see :func:`_spare_the_safe_petit`); never when
    the trick is already one's side's."""
    ally_wins = know.ally_wins
    safe_lo, safe_hi = know.safe_winners
    card_lo, card_hi = either(bb.lowest(safe_lo), bb.lowest(_spare_the_safe_petit(know, safe_hi)))
    return bb.keep_pair(~ally_wins, card_lo, card_hi)


def give_least(turn: Turn, know: Reading) -> Candidate:
    """Losing the trick: give the fewest points. The Excuse saves a face card, the Petit or the
    21 from falling to the opponents; the Petit is played only when nothing else is legal."""
    lo, hi = turn.legal_lo, turn.legal_hi
    # policy.cheapest's order, the Excuse and the Petit aside (and the Petit only when nothing
    # else is legal): a low suited card, else a middle trump, else a face, else the 21, else the
    # Petit — the higher of those two bouts.
    lowest_lo = bb.lowest(lo)
    middle = bb.lowest(hi & bb.MIDDLE_TRUMPS_HI)
    has_middle = middle != ZERO
    from_hi = ((lowest_lo & bb.LOW_LO) == ZERO) & (has_middle | (lowest_lo == ZERO))
    bouts = hi & (bb.PETIT_HI | bb.TWENTY_ONE_HI)
    bout = bouts & ~(bouts >> _TWENTY_ONE_TO_PETIT)  # the 21 held hides the Petit
    bout_or_none = from_hi & ~has_middle  # a bout, or nothing but the Excuse
    card_lo = bb.keep(~from_hi, lowest_lo)
    card_hi = bb.keep(from_hi, middle) | bb.keep(bout_or_none, bout)
    # The Excuse instead of a face card or a bout (a bout is the card only when nothing else but
    # the Excuse is legal) while the trick is not one's side's, and when it is the only card.
    costly = ((card_lo & bb.FACES_LO) != ZERO) | bout_or_none
    only_the_excuse = (card_lo | card_hi) == ZERO
    has_excuse = (hi & bb.EXCUSE_HI) != ZERO
    use_excuse = has_excuse & (only_the_excuse | (~know.ally_wins & costly))
    card_lo, card_hi = bb.keep_pair(~use_excuse, card_lo, card_hi)
    card_hi |= bb.keep(use_excuse, bb.EXCUSE_HI)
    return card_lo, card_hi


def draw_trumps(turn: Turn, know: Reading) -> Candidate:
    """As taker, long in trumps: lead them, the master trump when one holds it, else a low one
    (never the Petit), so the defence's trumps fall and one's long suits and kings pass."""
    trumps = turn.legal_hi & bb.TRUMPS_HI
    threats = bb.popcount8(know.threat_hi)
    long_in_trumps = turn.is_taker & (bb.popcount8(trumps) >= threats) & (threats > 0)
    top = bb.top(trumps)
    is_master = top > know.threat_hi  # one bit above every trump an opponent may hold
    low = bb.lowest(trumps & ~bb.PETIT_HI)
    card = bb.select(is_master, top, low)
    return _no_cards(turn), bb.keep(long_in_trumps, card)


def cash_masters(turn: Turn, know: Reading) -> Candidate:
    """Cash a master card (no opponent may hold a higher one of its suit) when it will pass: no
    opponent can have a trump left, or none has shown a void there and enough of the suit is out
    for everyone to follow."""
    table = turn.table
    opponent = ~know.known.ally
    opponents_void = np.bitwise_or.reduce(bb.keep(opponent, table.public.void), axis=0)
    # (4, N) suit by suit: each suit's highest card, whether it is master (its one bit above
    # every card of the suit an opponent may hold) and will pass.
    top = bb.top(turn.legal_lo & bb.SUIT_LO_COLUMN)
    master = top > (know.opponents_lo & bb.SUIT_LO_COLUMN)
    enough_out = bb.popcount8(know.unseen_lo & bb.SUIT_LO_COLUMN) >= 2 * (table.players - 1)
    no_void = (opponents_void & _SUIT_VOID_BITS) == 0
    passes = know.no_threat | (enough_out & no_void)
    best = np.max(bb.keep(master & passes, top), axis=0)  # the highest of the masters that pass
    return best, _no_cards(turn)


def force_the_taker(turn: Turn, know: Reading) -> Candidate:
    """In defence, lead a suit the taker has shown a void in, with a low card: the taker must
    spend a trump on it."""
    table = turn.table
    taker_void = table.public.taker_void
    taker_has_trumps = (taker_void & NO_TRUMP_BIT) == 0
    defending = ~know.on_taker_side
    # (4, N) suit by suit: the lowest card of each suit the taker is void in; the first suit's.
    low = bb.keep((taker_void & _SUIT_VOID_BITS) != 0, bb.lowest(turn.legal_lo & _LOW_COLUMN))
    card = _first_suit(low, low == ZERO, table)
    return bb.keep(defending & taker_has_trumps, card), _no_cards(turn)


def hunt_the_petit(turn: Turn, know: Reading) -> Candidate:
    """In defence, long in trumps while an opponent may hold the Petit: lead high trumps, so
    that the taker's trumps run out and the Petit falls — but only while the defence can hold
    more trumps than the taker is known to hold besides the Petit (its poignée, the shown
    chien): else the hunt cannot succeed and only spends the defence's trumps. (Knowing that
    the taker holds the Petit is no reason to hunt it without the trumps to do so: measured,
    that reflex costs the defence several points a deal.)"""
    table = turn.table
    known = know.known
    petit_out = (know.threat_hi & bb.PETIT_HI) != ZERO
    trumps = turn.legal_hi & bb.TRUMPS_HI
    long_enough = bb.popcount8(trumps) >= HUNTING_TRUMPS[table.players]
    taker_sure_hi = known.taker_holds_hi
    others_hi = np.bitwise_or.reduce(bb.keep(~table.is_taker, known.may_hold_hi), axis=0)
    taker_others = bb.popcount8(taker_sure_hi & bb.TRUMPS_HI & ~bb.PETIT_HI)
    defence_most = bb.popcount8(trumps) + bb.popcount8(others_hi & bb.TRUMPS_HI & ~taker_sure_hi)
    can_force = defence_most > taker_others
    hunt = ~know.on_taker_side & petit_out & long_enough & can_force
    return _no_cards(turn), bb.keep(hunt, bb.top(trumps))


_LOW_COLUMN = bb.SUIT_LO_COLUMN & bb.LOW_LO
"""(4, 1) uint64 the low cards (1 to 10) of each suit."""
_SUIT_VOID_BITS = (1 << np.arange(4, dtype=np.uint8))[:, None]
"""(4, 1) uint8 each suit's bit in :attr:`knowledge.PublicKnowledge.void`."""
_NO_SUIT_KEY = np.int8(31)
"""The key of a suit with no low card to lead: above every suit's (lengths are below 31)."""
_SUIT_INDEX = np.arange(4, dtype=np.int8)[:, None]
"""(4, 1) int8 each suit's index."""


def _first_suit(cards: np.ndarray, key: np.ndarray, table: Table) -> np.ndarray:
    """(N,) the card of ``cards`` ((4, N) suit by suit) of least ``key`` ((4, N) int8 within
    ±31, or bool), the first suit of equals."""
    # The key times 4 plus the suit, so that an elementwise minimum over the suits (fast, unlike
    # argmin across rows) names the suit.
    packed = key.astype(np.int8) << 2
    packed |= _SUIT_INDEX
    suit = (np.minimum.reduce(packed, axis=0) & 3).astype(np.intp)
    return cards.take(suit * table.n_deals + table.columns)


def lead_low(turn: Turn, know: Reading) -> Candidate:
    """Otherwise lead a low card: the taker from his shortest suit (to make a void he can trump
    later), the defence from its longest (likely the taker's short one). With no low suited
    card, the cheapest card, the Petit and the Excuse last — the Excuse after the Petit while
    one's side has won every trick, for it then wins the last one (chelem)."""
    lo = turn.legal_lo
    table = turn.table
    # Shortest suit for the taker's side, longest for the defence: minimise ±length, the first
    # suit of equals; (4, N) suit by suit.
    sign = bb.select(know.on_taker_side, np.int8(1), np.int8(-1))
    low = bb.lowest(lo & _LOW_COLUMN)
    key = bb.select(low != ZERO, sign * bb.popcount8(lo & bb.SUIT_LO_COLUMN), _NO_SUIT_KEY)
    card_lo = _first_suit(low, key, table)
    card_hi = _no_cards(turn)
    no_low = card_lo == ZERO
    if bb.anywhere(no_low):
        hi = turn.legal_hi
        spare_hi = hi & ~bb.PETIT_HI & ~bb.EXCUSE_HI
        keep_excuse = know.side_swept & ((hi & ~bb.EXCUSE_HI) != ZERO)
        last_hi = bb.select(keep_excuse, hi & ~bb.EXCUSE_HI, hi)
        fallback_lo, fallback_hi = cheapest(
            lo, bb.select((lo | spare_hi) != ZERO, spare_hi, last_hi)
        )
        fallback_lo, card_hi = bb.keep_pair(no_low, fallback_lo, fallback_hi)
        card_lo = card_lo | fallback_lo  # card_lo is empty there
    return card_lo, card_hi


LEADING_HABITS = (
    excuse_before_the_end,
    draw_trumps,
    cash_masters,
    force_the_taker,
    hunt_the_petit,
    lead_low,
)
FOLLOWING_HABITS = (excuse_before_the_end, feed_a_sure_partner, win_cheaply, give_least)


class GreedyPolicy:
    """Plays, for every deal, the card of the first habit that applies (see the lists above);
    through the compiled twin of these habits once the process uses it (:mod:`compiled`)."""

    name = "greedy"

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        twins = compiled.twins()
        if twins is not None:
            return twins.greedy.choose(turn)
        start = time.perf_counter()
        card = self._choose_with_arrays(turn)
        compiled.spent(time.perf_counter() - start)
        return card

    def _choose_with_arrays(self, turn: Turn) -> Candidate:
        know = reading(turn)
        if turn.position == 0:
            return self._first(turn, know, LEADING_HABITS)
        leading = turn.table.lead_suit == NO_SUIT  # after an Excuse led
        if bb.everywhere(leading):
            return self._first(turn, know, LEADING_HABITS)
        follow = self._first(turn, know, FOLLOWING_HABITS)
        if not bb.anywhere(leading):
            return follow
        lead = self._first(turn, know, LEADING_HABITS)
        return bb.select(leading, lead[0], follow[0]), bb.select(leading, lead[1], follow[1])

    @staticmethod
    def _first(turn: Turn, know: Reading, habits) -> Candidate:
        chosen = None
        for habit in habits:
            if chosen is None:
                chosen = habit(turn, know)
                continue
            chosen_lo, chosen_hi = chosen
            undecided = (chosen_lo | chosen_hi) == ZERO
            if not bb.anywhere(undecided):
                break
            candidate = habit(turn, know)
            if candidate is not None:
                # Where undecided, chosen is empty: adding the candidate is choosing it.
                card_lo, card_hi = bb.keep_pair(undecided, *candidate)
                chosen = chosen_lo | card_lo, chosen_hi | card_hi
        return chosen if chosen is not None else _none(turn.table.n_deals)
