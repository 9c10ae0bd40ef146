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
from typing import TYPE_CHECKING

import numpy as np

from . import bitboard as bb
from .bitboard import ZERO
from .vector_rules import NO_SUIT, TRUMP_LEAD

if TYPE_CHECKING:
    from .table import Table, Turn

NO_TRUMP_BIT = np.uint8(1 << TRUMP_LEAD)
"""The bit of :attr:`PublicKnowledge.void` that says "holds no trump"."""
_LEAD_BIT = np.array([1, 2, 4, 8, 1 << TRUMP_LEAD, 0], np.uint8)  # by lead suit: 0–3, 4, −1


class PublicKnowledge:
    """What all players know of N deals, kept up to date card by card by :meth:`observe`.

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

    def observe(self, table: Table, card_lo: np.ndarray, card_hi: np.ndarray) -> None:
        """The player to act in ``table`` plays ``card`` (before the table lays it down): a
        poignée is shown with its holder's first card, and what the card proves about the hand
        it came from. (That a card played is held by nobody any more is the table's
        ``played_lo/hi``: :func:`of` takes it from there.)"""
        k = table.position
        if table.trick == 0 and table.any_shown:
            shown = table.shown_at(k)
            deals = np.arange(table.n_deals)
            self.holds_hi[table.seat[k], deals] |= shown
            self.may_hold_hi &= ~shown
            self.may_hold_hi[k] |= shown
        if k == 0:
            return  # a lead proves nothing
        is_trump = (card_hi & bb.TRUMPS_HI) != ZERO
        followed = ((card_lo & table.lead_lo) | (card_hi & table.lead_hi)) != ZERO
        off_suit = (table.lead_suit != NO_SUIT) & (card_hi != bb.EXCUSE_HI) & ~followed
        # Not following shows a void (in a suit: none of its cards, table.lead_lo); not trumping
        # either, no trumps.
        no_trumps = off_suit & ~is_trump
        void_bits = bb.keep(off_suit, table.lead_bit) | bb.keep(no_trumps, NO_TRUMP_BIT)
        self.void[k] |= void_bits
        self.taker_void |= bb.keep(table.is_taker[k], void_bits)
        self.may_hold_lo[k] &= ~bb.keep(off_suit, table.lead_lo)
        # A trump that does not beat the trick's best card is under a trump already down: the
        # player holds none above it (it would have had to overtrump).
        undertrump = is_trump & ((card_hi & table.beat_hi) == ZERO)
        ruled_out = bb.keep(undertrump, table.beat_hi) | bb.keep(no_trumps, bb.TRUMPS_HI)
        self.may_hold_hi[k] &= ~ruled_out


def lead_bit(lead_suit: np.ndarray) -> np.ndarray:
    """(N,) uint8 the :attr:`PublicKnowledge.void` bit of the suit led (0 while none is)."""
    return _LEAD_BIT[lead_suit]


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

    @property
    def taker_holds_hi(self) -> np.ndarray:
        """(N,) the unseen trumps (and Excuse) the taker surely holds."""
        n_deals = len(self.unseen_hi)
        taker = self.public.taker * n_deals + np.arange(n_deals)
        return self.public.holds_hi.take(taker) & self.unseen_hi

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
        return np.take_along_axis(self.public.holds_lo, self.seat, axis=0) & self.unseen_lo

    @cached_property
    def holds_hi(self) -> np.ndarray:
        return np.take_along_axis(self.public.holds_hi, self.seat, axis=0) & self.unseen_hi

    @cached_property
    def _opponents_public(self) -> tuple[np.ndarray, np.ndarray]:
        """(n, N) the cards each player not known to be an ally may hold as everyone knows
        (none for the allies, this player included)."""
        return bb.keep_pair(~self.ally, self.public.may_hold_lo, self.public.may_hold_hi)

    def opponents_may_hold(self, rows: slice = slice(None)) -> tuple[np.ndarray, np.ndarray]:
        """(N,) the cards that a player not known to be an ally may hold, among the positions
        ``rows`` (default: all)."""
        # Less this player's own cards once the rows are merged: cheaper than row by row.
        lo, hi = self._opponents_public
        lo = np.bitwise_or.reduce(lo[rows], axis=0)
        hi = np.bitwise_or.reduce(hi[rows], axis=0)
        lo &= self.unseen_lo
        hi &= self.unseen_hi
        return lo, hi


def of(turn: Turn) -> PlayerKnowledge:
    """What the player of ``turn`` knows."""
    table = turn.table
    public = table.public
    k = turn.position
    own_lo, own_hi = bb.keep_pair(turn.is_taker, table.ecart_lo, table.ecart_hi)
    # The cards seen, then flipped: every one of them is in ALL_LO or ALL_HI.
    unseen_lo = own_lo
    unseen_lo |= turn.hand_lo
    unseen_lo |= table.played_lo
    unseen_lo ^= bb.ALL_LO
    unseen_hi = own_hi
    unseen_hi |= turn.hand_hi
    unseen_hi |= table.played_hi
    unseen_hi |= public.ecart_shown_hi
    unseen_hi ^= bb.ALL_HI
    ally = table.on_taker_side == table.on_taker_side[k]
    if table.players == 5:
        ally &= table.knows_sides(k)
        ally[k] = True
    return PlayerKnowledge(
        position=k,
        unseen_lo=unseen_lo,
        unseen_hi=unseen_hi,
        ally=ally,
        public=public,
        seat=table.seat,
    )
