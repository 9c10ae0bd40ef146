"""The state of N deals being played, and what one decision sees of it.

:class:`Table` holds N deals in lockstep (every deal at the same trick and position in it);
:class:`Turn` is one decision; the protocols say what a card-play, écart or poignée policy is.
Policies import this module, never the engine that drives them.

The rules of play are applied through :mod:`vector_rules` only.
"""

from __future__ import annotations

import copy
import functools
import operator
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

import numpy as np

from ..game import TAKES_CHIEN
from . import bitboard as bb
from . import vector_rules
from .bitboard import U64, ZERO
from .knowledge import NO_TRUMP_BIT, PublicKnowledge, observe
from .vector_rules import NO_SUIT, TRUMP_LEAD
from .words import above, kernel, popcount, quiet_wrap

Candidate = tuple[np.ndarray, np.ndarray]
"""A card per deal as a pair of one-bit (N,) uint64 masks (zero where there is none)."""

_State = TypeVar("_State")
_ZERO = U64(0)
_ONE = U64(1)
_TRUMPS_HI = bb.TRUMPS_HI
_EXCUSE_HI = bb.EXCUSE_HI
_SUIT_LO = bb.SUIT_LO  # (4,) uint64


@dataclass
class Table:
    """The state of N deals being played, all at the same trick and position in the trick.

    Per-player arrays have shape (n, N) and are indexed by the position in the current trick:
    row 0 is the trick's leader, row k the k-th player after it (:attr:`seat` gives their seats).
    The rows turn at the end of every trick so that the winner, who leads next, is row 0; the
    player to act is then always row :attr:`position`, and those still to play are the rows
    after it — no per-deal gather is needed while a trick is played. Per-deal arrays are (N,).
    Card sets are ``uint64`` pairs ``*_lo``/``*_hi`` (see :mod:`bitboard`).
    """

    players: int
    contracts: np.ndarray  # (N,) int8 each deal's contract (Contract.code)
    n_tricks: int
    seat: np.ndarray  # (n, N) int64 the seat at each position
    hands_lo: np.ndarray  # (n, N) uint64
    hands_hi: np.ndarray
    on_taker_side: np.ndarray  # (n, N) bool: the taker and the partner (is_taker | is_partner)
    is_taker: np.ndarray  # (n, N) bool, exactly one row per deal
    is_partner: np.ndarray  # (n, N) bool (5 players), at most one row per deal
    shown_hi: np.ndarray  # (n, N) uint64 trumps shown in a poignée (public), rows by seat
    called_lo: np.ndarray  # (N,) uint64 the called card (5 players; else 0)
    called_hi: np.ndarray
    ecart_lo: np.ndarray  # (N,) uint64 the écart (known to the taker only)
    ecart_hi: np.ndarray
    public: PublicKnowledge  # what all players know beyond the cards played
    announced_chelem: bool = False  # the taker announced a chelem (and led the first trick)
    trick: int = 0
    position: int = 0
    played_lo: np.ndarray = field(init=False)  # (N,) every card played so far (public)
    played_hi: np.ndarray = field(init=False)
    revealed: np.ndarray = field(init=False)  # (N,) bool the called card has been played
    taker_seat: np.ndarray = field(init=False)  # (N,) int64
    partner_seat: np.ndarray = field(init=False)  # (N,) int64, −1 none
    lead_suit: np.ndarray = field(init=False)  # (N,) int64: −1 none yet, 0–3 suit, 4 trumps
    lead_lo: np.ndarray = field(init=False)  # (N,) uint64 the cards of the suit led
    lead_hi: np.ndarray = field(init=False)  # (N,) uint64 the trumps when trumps were led
    lead_bit: np.ndarray = field(init=False)  # (N,) uint8 the void bit of the suit led
    best_position: np.ndarray = field(init=False)  # (N,) position winning the trick, −1 none
    best_on_taker_side: np.ndarray = field(init=False)  # (N,) bool
    beat_lo: np.ndarray = field(init=False)  # (N,) cards that would beat the trick's best card
    beat_hi: np.ndarray = field(init=False)  # (until its last card, after which none is played)
    trick_lo: np.ndarray = field(init=False)  # (N,) cards in the current trick
    trick_hi: np.ndarray = field(init=False)
    excuse_position: np.ndarray = field(init=False)  # (N,) who played the Excuse here, −1
    excuse_on_taker_side: np.ndarray = field(init=False)  # (N,) bool
    taker_tricks: np.ndarray = field(init=False)  # (N,) tricks won by the taker's side
    defence_tricks: np.ndarray = field(init=False)
    winners: np.ndarray = field(init=False)  # (T, N) int64 the seat that won each trick, −1

    def __post_init__(self) -> None:
        n_deals = self.n_deals
        self.played_lo = np.zeros(n_deals, U64)
        self.played_hi = np.zeros(n_deals, U64)
        self.revealed = np.zeros(n_deals, bool)
        self.taker_seat = (self.seat * self.is_taker).sum(axis=0)
        self.partner_seat = bb.select(
            self.is_partner.any(axis=0), (self.seat * self.is_partner).sum(axis=0), -1
        )
        self.taker_tricks = np.zeros(n_deals, np.int64)
        self.defence_tricks = np.zeros(n_deals, np.int64)
        self.winners = np.full((self.n_tricks, n_deals), -1, np.int64)
        self._new_trick()

    @property
    def n_deals(self) -> int:
        return self.seat.shape[1]

    @property
    def any_shown(self) -> bool:
        """Some player of some deal shows a poignée."""
        return bb.anywhere(self.shown_hi != ZERO)

    @property
    def takes_chien(self) -> np.ndarray:
        """(N,) bool: the deal's contract is Prise or Garde (the chien shown and taken)."""
        return TAKES_CHIEN[self.contracts]

    @property
    def columns(self) -> np.ndarray:
        """(N,) int64 0…N−1, each deal's column (read-only): ``row * N + columns`` are the
        flat indices of one row per deal in an (n, N) array."""
        return _columns(self.n_deals)

    def _new_trick(self) -> None:
        n_deals = self.n_deals
        self.position = 0
        self.lead_suit = np.full(n_deals, NO_SUIT, np.int64)
        self.lead_lo = np.zeros(n_deals, U64)
        self.lead_hi = np.zeros(n_deals, U64)
        self.lead_bit = np.zeros(n_deals, np.uint8)
        self.best_position = np.full(n_deals, -1, np.int64)
        self.best_on_taker_side = np.zeros(n_deals, bool)
        self.beat_lo = np.full(n_deals, bb.ALL_LO, U64)
        self.beat_hi = np.full(n_deals, bb.TRUMPS_HI, U64)
        self.trick_lo = np.zeros(n_deals, U64)
        self.trick_hi = np.zeros(n_deals, U64)
        self.excuse_position = np.full(n_deals, -1, np.int64)
        self.excuse_on_taker_side = np.zeros(n_deals, bool)

    def turn_to(self, leader_position: np.ndarray) -> None:
        """Start the next trick with the player now at ``leader_position`` (N,) as row 0."""
        # Row r takes the row leader_position + r, modulo n: its first flat index is looked up
        # (no integer division), one column per deal.
        flat = _rotations(self.players, self.n_deals).take(leader_position, axis=1)
        flat += self.columns
        for name in _PER_PLAYER:
            setattr(self, name, getattr(self, name).take(flat))
        for name in PublicKnowledge.PER_PLAYER:
            setattr(self.public, name, getattr(self.public, name).take(flat))
        # The sides follow the seats: cheaper to compare than to turn.
        self.is_taker = self.seat == self.taker_seat
        self.is_partner = self.seat == self.partner_seat
        self.on_taker_side = self.is_taker | self.is_partner
        self._new_trick()

    def won_by(self, position: int, winner_taker: np.ndarray) -> None:
        """The trick is complete and the player at ``position`` (N,) has won it, for the taker's
        side where ``winner_taker`` (N,) bool."""
        self.winners[self.trick] = self.seat.take(position * self.n_deals + self.columns)
        self.taker_tricks += winner_taker
        self.defence_tricks += ~winner_taker

    def shown_by_now(self) -> np.ndarray:
        """(n, N) uint64, rows by seat: the trumps shown in poignées as the player to act
        knows them. In the first trick, the players after it have not shown theirs yet."""
        if self.trick > 0:
            return self.shown_hi
        later = np.arange(self.players)[:, None] > self.position  # (n, 1) by position
        waiting = np.zeros(self.seat.shape, bool)
        np.put_along_axis(waiting, self.seat, np.broadcast_to(later, waiting.shape), axis=0)
        return bb.keep(~waiting, self.shown_hi)

    def legal(self) -> Candidate:
        """The cards the player to act may play (rules.md §3, §4), as a (lo, hi) pair of (N,)
        uint64 sets."""
        hand_lo, hand_hi = self.hands_lo[self.position], self.hands_hi[self.position]
        if self.position == 0:
            if self.players == 5 and self.trick == 0:
                return vector_rules.first_lead_plays(hand_lo, hand_hi, self.called_lo)
            # The leader may play anything: legal_plays' answer with no suit led, for less.
            return hand_lo.copy(), hand_hi.copy()
        return vector_rules.legal_plays(
            hand_lo, hand_hi, self.lead_suit, self.beat_hi, suit=(self.lead_lo, self.lead_hi)
        )

    def play(self, card_lo: np.ndarray, card_hi: np.ndarray) -> None:
        """The player to act plays one card in every deal: exactly one bit set in
        ``card_lo | card_hi`` ((N,) uint64)."""
        with quiet_wrap():
            _lay_down(
                self.position,
                card_lo,
                card_hi,
                self.trick == 0 and self.any_shown,
                self.arrays(),
                self.public.arrays(),
            )
        self.position += 1

    def arrays(self) -> TableArrays:
        """The arrays the kernels read and update (:class:`TableArrays`)."""
        # The read-only arrays row-major (a table of some deals may hold others): one compiled
        # version. Taken in two calls: this runs at every card, as often as the kernels.
        read_only = tuple(map(np.ascontiguousarray, _READ_ONLY(self)))
        return TableArrays._make(read_only + _UPDATED(self))


class TableArrays(NamedTuple):
    """A :class:`Table`'s arrays by name, as the kernels take them (see there for each):
    ``seat`` (n, N) int64, ``on_taker_side``, ``is_taker``, ``is_partner`` (n, N) bool,
    ``shown_hi`` (n, N) uint64 by seat, ``winners`` (T, N) int64, then (N,) arrays. The first
    group is read only; :meth:`Table.play` updates the rest in place (and ``hands_lo``/``_hi``,
    (n, N) uint64 by position)."""

    seat: np.ndarray
    on_taker_side: np.ndarray
    is_taker: np.ndarray
    is_partner: np.ndarray
    shown_hi: np.ndarray
    winners: np.ndarray
    called_lo: np.ndarray
    called_hi: np.ndarray
    ecart_lo: np.ndarray
    ecart_hi: np.ndarray
    taker_tricks: np.ndarray
    defence_tricks: np.ndarray
    hands_lo: np.ndarray
    hands_hi: np.ndarray
    played_lo: np.ndarray
    played_hi: np.ndarray
    revealed: np.ndarray
    trick_lo: np.ndarray
    trick_hi: np.ndarray
    lead_suit: np.ndarray
    lead_lo: np.ndarray
    lead_hi: np.ndarray
    lead_bit: np.ndarray
    beat_lo: np.ndarray
    beat_hi: np.ndarray
    best_position: np.ndarray
    best_on_taker_side: np.ndarray
    excuse_position: np.ndarray
    excuse_on_taker_side: np.ndarray


_READ_ONLY = operator.attrgetter(*TableArrays._fields[:12])
_UPDATED = operator.attrgetter(*TableArrays._fields[12:])


@kernel
def _lay_down(k, card_lo, card_hi, first_trick_shown, t, public):
    """The player at position ``k`` plays ``card_lo``/``card_hi`` ((N,) uint64, one bit per
    deal) in every deal: :func:`knowledge.observe` first, then the card leaves the hand and
    joins the trick, which it may lead (the first card but the Excuse sets the suit) and may win
    (the highest trump, else the highest card of the suit led; the Excuse never wins), as
    :func:`rules.trick_winner` says (``tests/test_engine_vs_referee.py``).
    ``t`` and ``public``: :class:`TableArrays` and :class:`KnowledgeArrays`, updated in place."""
    players = t.seat.shape[0]
    for d in range(card_lo.shape[0]):
        lo = card_lo[d]
        hi = card_hi[d]
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


def take_deals(state: _State, rows: np.ndarray, drop: tuple[str, ...] = ()) -> _State:
    """A copy of ``state`` — a :class:`Table`, its :class:`PublicKnowledge`, or any object whose
    arrays all have the deals along their last axis — holding the deals ``rows`` ((R,) int64,
    repeats allowed) in that order; the arrays named in ``drop`` are left out (None)."""
    taken = copy.copy(state)
    for name, value in vars(state).items():
        if name in drop:
            setattr(taken, name, None)
        elif isinstance(value, np.ndarray):
            # take keeps the rows contiguous (indexing the last axis would lay them by column)
            setattr(taken, name, value.take(rows, axis=-1))
        elif isinstance(value, PublicKnowledge):
            setattr(taken, name, take_deals(value, rows))
    return taken


@functools.lru_cache(maxsize=4)
def _columns(n_deals: int) -> np.ndarray:
    columns = np.arange(n_deals)
    columns.flags.writeable = False
    return columns


@functools.lru_cache(maxsize=8)
def _rotations(players: int, n_deals: int) -> np.ndarray:
    """(n, n) int64: at [r, leader], the first flat index, in an (n, N) array, of the row that
    becomes row r when the player at ``leader`` leads — ``(leader + r) % n`` times N."""
    rows = np.arange(players)
    rotations = (rows[:, None] + rows[None, :]) % players * n_deals
    rotations.flags.writeable = False
    return rotations


_PER_PLAYER = ("seat", "hands_lo", "hands_hi")
"""The (n, N) arrays that turn with the rows (the sides follow from the seats)."""


@dataclass(frozen=True)
class Turn:
    """What one decision sees: the table, the position to play, and the deals asked about with
    their legal cards. ``deals``: (M,) int64 the table's deals the policy answers for, in that
    order (None: every deal); the per-deal arrays of the turn are theirs, (M,)."""

    table: Table
    position: int  # the player's position in the trick (its row in the table's arrays)
    legal_lo: np.ndarray  # (M,) uint64 the cards the rules allow
    legal_hi: np.ndarray
    deals: np.ndarray | None = None

    @property
    def rows(self) -> np.ndarray:
        """(M,) int64 the table's deals asked about."""
        return self.table.columns if self.deals is None else self.deals

    def of(self, per_deal: np.ndarray) -> np.ndarray:
        """The deals asked about of a table's array with the deals along its last axis."""
        return per_deal if self.deals is None else per_deal[..., self.deals]

    def some(self, deals: np.ndarray) -> Turn:
        """The same decision asked about some of its deals only (``deals``: (K,) int64 indices
        into this turn's)."""
        rows = self.rows[deals]
        rows.flags.writeable = False  # as the table's columns: the kernels take one kind of rows
        return Turn(self.table, self.position, self.legal_lo[deals], self.legal_hi[deals], rows)

    @property
    def hand_lo(self) -> np.ndarray:
        """(M,) uint64 the player's hand."""
        return self.of(self.table.hands_lo[self.position])

    @property
    def hand_hi(self) -> np.ndarray:
        return self.of(self.table.hands_hi[self.position])

    @property
    def on_taker_side(self) -> np.ndarray:
        """(M,) bool: the player is the taker or the partner."""
        return self.of(self.table.on_taker_side[self.position])

    @property
    def is_taker(self) -> np.ndarray:
        return self.of(self.table.is_taker[self.position])


class Policy(Protocol):
    """Chooses one legal card per deal asked about: ``choose`` returns a one-bit (lo, hi) pair
    of (M,) uint64 taken from ``turn.legal_lo``/``legal_hi``, deciding only from what the player
    may know (rules.md §12). The engine asks a policy at every turn, about its side's deals (none,
    some or all: :attr:`Turn.deals`)."""

    name: str

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate: ...


class EcartPolicy(Protocol):
    """Chooses the écart for Prise and Garde: ``count`` cards of each taker's hand + chien
    ((N,) uint64 pairs), a legal écart (:func:`vector_rules.check_discard`)."""

    def choose(self, hand_lo: np.ndarray, hand_hi: np.ndarray, count: int) -> Candidate: ...


class PoigneePolicy(Protocol):
    """Chooses the trumps a player shows when showing a poignée: ``choose`` returns (N,) uint64
    sets of trumps (and the Excuse) from each ``hand_hi``, none where the hand allows none."""

    def choose(self, hand_hi: np.ndarray, players: int) -> np.ndarray: ...
