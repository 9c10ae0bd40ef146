"""What each player knows (rules.md §12), for N deals at once, kept up to date card by card.

Everything a fair policy may use, and nothing else:

- what every player at the table knows, :class:`PublicKnowledge` (one per table): the cards
  played and by whom (the table's), how many cards each still holds, the chien in Prise and
  Garde and where it went, the trumps shown from the écart, the poignées (the table's, public
  from their holder's first card), the partner once the called card is played (the table's),
  and the certain inferences from play — a void in a suit, no trumps, no trump above the best one
  in the trick after an undertrump;
- what the player to act adds to it, :class:`PlayerKnowledge`: the own hand, the own écart
  (taker), being the partner (5 players, the called card's holder); and what follows for every
  other player: the cards it may hold, the cards it surely holds, and whether it is a known ally.

Card sets are ``uint64`` pairs ``*_lo``/``*_hi`` (:mod:`bitboard`). Per-player arrays are (n, N)
with rows by position in the current trick, like the table's, and turn with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import bitboard as bb
from .bitboard import ZERO
from .vector_rules import NO_SUIT, TRUMP_LEAD
from .words import entry_point, kernel, quiet_wrap

if TYPE_CHECKING:
    from .table import Turn

NO_TRUMP_BIT = np.uint8(1 << TRUMP_LEAD)
"""The bit of :attr:`PublicKnowledge.void` that says "holds no trump"."""
_ZERO = bb.U64(0)
_ALL_LO = bb.ALL_LO
_ALL_HI = bb.ALL_HI
_TRUMPS_HI = bb.TRUMPS_HI
_EXCUSE_HI = bb.EXCUSE_HI


class PublicKnowledge:
    """What all players know of N deals, kept up to date card by card by :func:`observe`.

    ``may_hold_lo/hi`` (n, N): the cards each player may hold (or may have played), as far as
    everyone knows — not the shown chien's unless the taker, not the trumps shown from the écart,
    not another's poignée, nothing of a shown void, no trump ruled out by play. ``holds_lo/hi``
    (n, N): the cards each player surely holds (or has played) — the taker the shown chien's kings,
    bouts and trumps that could not go to the écart (rules.md §3), a poignée's trumps once shown.
    ``void`` (n, N) uint8: shown voids, bits 0–3 the suits and :data:`NO_TRUMP_BIT`;
    ``taker_void`` (N,) the taker's; ``chien_lo/hi`` and ``ecart_shown_hi`` (N,) as given. Rows
    by position, turning with the table's — but those of ``holds``, by seat (they change seldom,
    and are seldom read).
    """

    PER_PLAYER = ("may_hold_lo", "may_hold_hi", "void")
    """The (n, N) arrays, which turn with the table's rows."""

    def __init__(
        self,
        is_taker: np.ndarray,
        chien_lo: np.ndarray,
        chien_hi: np.ndarray,
        ecart_shown_hi: np.ndarray,
    ) -> None:
        """``is_taker`` (n, N) bool by row; ``chien_lo/hi`` (N,) the chien as shown in Prise and
        Garde (0 in Garde Sans and Garde Contre, where nobody sees it); ``ecart_shown_hi`` (N,)
        the trumps the taker had to put in the écart (shown to all)."""
        others = ~is_taker
        self.chien_lo, self.chien_hi = chien_lo, chien_hi
        self.ecart_shown_hi = ecart_shown_hi
        self.may_hold_lo = bb.ALL_LO & ~bb.keep(others, chien_lo)
        self.may_hold_hi = bb.ALL_HI & ~bb.keep(others, chien_hi) & ~ecart_shown_hi
        # Kings and bouts never go to the écart; trumps do only when shown.
        self.holds_lo = bb.keep(is_taker, chien_lo & bb.KINGS_LO)
        self.holds_hi = bb.keep(is_taker, chien_hi & ~ecart_shown_hi)
        self.taker = is_taker.argmax(axis=0)  # (N,) the taker's seat
        self.void = np.zeros(is_taker.shape, np.uint8)
        self.taker_void = np.zeros(is_taker.shape[1], np.uint8)

    def arrays(self) -> KnowledgeArrays:
        """The arrays the kernels read and update (:class:`KnowledgeArrays`)."""
        c = np.ascontiguousarray  # row-major, so that a kernel has one compiled version
        return KnowledgeArrays(
            may_hold_lo=self.may_hold_lo,
            may_hold_hi=self.may_hold_hi,
            holds_hi=self.holds_hi,
            void=self.void,
            taker_void=self.taker_void,
            taker=self.taker,
            ecart_shown_hi=c(self.ecart_shown_hi),
        )


class KnowledgeArrays(NamedTuple):
    """The :class:`PublicKnowledge` arrays a kernel reads and updates in place, by name (see
    there): ``may_hold_lo``/``_hi`` (n, N) uint64 and ``void`` (n, N) uint8 by position;
    ``holds_hi`` (n, N) uint64 by seat; ``taker_void`` (N,) uint8; ``taker`` (N,) int64 the
    taker's seat; ``ecart_shown_hi`` (N,) uint64."""

    may_hold_lo: np.ndarray
    may_hold_hi: np.ndarray
    holds_hi: np.ndarray
    void: np.ndarray
    taker_void: np.ndarray
    taker: np.ndarray
    ecart_shown_hi: np.ndarray


@kernel
def observe(k, d, lo, hi, t, public, first_trick_shown):
    """The player at position ``k`` plays the card ``lo``/``hi`` (uint64 words) in deal ``d``,
    before the table lays it down: what everyone learns (rules.md §12). ``t``: the table's
    arrays (:class:`table.TableArrays`), ``public`` its :class:`KnowledgeArrays`, updated in
    place; ``first_trick_shown``: the first trick, and some deal shows a poignée.

    A poignée is shown with its holder's first card: its trumps are that player's, nobody
    else's. A lead proves nothing. Not following shows a void (in a suit: none of its cards);
    not trumping either, no trumps. A trump that does not beat the trick's best card is under a
    trump already down: the player holds none above it (it would have had to overtrump). That a
    card played is held by nobody any more is the table's ``played_lo/hi`` (:func:`unseen`)."""
    if first_trick_shown:
        seat = t.seat[k, d]
        shown = t.shown_hi[seat, d]
        public.holds_hi[seat, d] |= shown
        for r in range(public.may_hold_hi.shape[0]):
            public.may_hold_hi[r, d] &= ~shown
        public.may_hold_hi[k, d] |= shown
    if k == 0:
        return
    is_trump = (hi & _TRUMPS_HI) != _ZERO
    followed = ((lo & t.lead_lo[d]) | (hi & t.lead_hi[d])) != _ZERO
    if t.lead_suit[d] != NO_SUIT and hi != _EXCUSE_HI and not followed:
        bits = t.lead_bit[d]
        if not is_trump:
            bits |= NO_TRUMP_BIT
            public.may_hold_hi[k, d] &= ~_TRUMPS_HI
        public.void[k, d] |= bits
        if t.is_taker[k, d]:
            public.taker_void[d] |= bits
        public.may_hold_lo[k, d] &= ~t.lead_lo[d]
    if is_trump and (hi & t.beat_hi[d]) == _ZERO:
        public.may_hold_hi[k, d] &= ~t.beat_hi[d]


@kernel
def knows_sides(k, d, t):
    """Whether the player at position ``k`` knows every player's side in deal ``d``: always,
    but with 5 players before the called card appears, when only the partner knows."""
    # Bitwise, not `or`: no branch to mispredict in the greedy's loop over the players (read).
    return (t.seat.shape[0] != 5) | t.revealed[d] | t.is_partner[k, d]


@kernel
def known_ally(k, r, d, t):
    """The player at position ``r`` is on the side of the one at ``k`` in deal ``d``, and the
    latter knows it (itself included)."""
    same_side = t.on_taker_side[r, d] == t.on_taker_side[k, d]
    return (r == k) | (knows_sides(k, d, t) & same_side)  # bitwise: no branch (knows_sides)


@kernel
def unseen(k, d, t, public):
    """(lo, hi) the cards the player at position ``k`` has not seen in deal ``d``: not played,
    not in its hand, not in its own écart (the taker's), not trumps shown from the écart."""
    own_lo = _ZERO
    own_hi = _ZERO
    if t.is_taker[k, d]:
        own_lo = t.ecart_lo[d]
        own_hi = t.ecart_hi[d]
    unseen_lo = _ALL_LO & ~(own_lo | t.hands_lo[k, d] | t.played_lo[d])
    seen_hi = own_hi | t.hands_hi[k, d] | t.played_hi[d] | public.ecart_shown_hi[d]
    return unseen_lo, _ALL_HI & ~seen_hi


@entry_point
def _view(k, t, public, unseen_lo, unseen_hi, ally):
    """:func:`unseen` and :func:`known_ally` of the player at ``k`` in every deal, into (N,)
    uint64 ``unseen_lo``/``_hi`` and (n, N) bool ``ally``."""
    for d in range(unseen_lo.shape[0]):
        unseen_lo[d], unseen_hi[d] = unseen(k, d, t, public)
        for r in range(ally.shape[0]):
            ally[r, d] = known_ally(k, r, d, t)


@dataclass
class PlayerKnowledge:
    """What the player to act knows (:func:`of`), per deal: (N,) arrays, (n, N) per position.

    ``unseen``: the cards it has not seen (not played, not in its hand, not in its own écart,
    not trumps shown from the écart). ``may_hold`` (n, N): the cards each other player may hold
    as far as it knows (:class:`PublicKnowledge`, less its own cards); its own row is empty.
    ``holds`` (n, N): the unseen cards each player surely holds, as everyone knows. Both are
    computed when first asked for, from the public knowledge as it is during the decision.
    ``ally`` (n, N) bool: known to be on its side (itself included).
    """

    position: int
    unseen_lo: np.ndarray
    unseen_hi: np.ndarray
    ally: np.ndarray
    public: PublicKnowledge
    seat: np.ndarray  # (n, N) the seat at each position

    @cached_property
    def may_hold_lo(self) -> np.ndarray:
        may = self.public.may_hold_lo & self.unseen_lo
        may[self.position] = ZERO
        return may

    @cached_property
    def may_hold_hi(self) -> np.ndarray:
        may = self.public.may_hold_hi & self.unseen_hi
        may[self.position] = ZERO
        return may

    @cached_property
    def holds_lo(self) -> np.ndarray:
        return self.public.holds_lo.take(self._by_position) & self.unseen_lo

    @cached_property
    def holds_hi(self) -> np.ndarray:
        return self.public.holds_hi.take(self._by_position) & self.unseen_hi

    @cached_property
    def _by_position(self) -> np.ndarray:
        """(n, N) int64 the flat index of each position's row of an (n, N) array by seat."""
        return self.seat * self.seat.shape[1] + np.arange(self.seat.shape[1])


def of(turn: Turn) -> PlayerKnowledge:
    """What the player of ``turn`` knows, in every deal of its table."""
    table = turn.table
    n_deals = table.n_deals
    unseen_lo = np.empty(n_deals, bb.U64)
    unseen_hi = np.empty(n_deals, bb.U64)
    ally = np.empty((table.players, n_deals), bool)
    with quiet_wrap():
        _view(turn.position, table.arrays(), table.public.arrays(), unseen_lo, unseen_hi, ally)
    return PlayerKnowledge(
        position=turn.position,
        unseen_lo=unseen_lo,
        unseen_hi=unseen_hi,
        ally=ally,
        public=table.public,
        seat=table.seat,
    )
