"""The state of N deals being played, and what one decision sees of it.

:class:`Table` holds N deals in lockstep (every deal at the same trick and position in it);
:class:`Turn` is one decision; the protocols say what a card-play, écart or poignée policy is.
Policies import this module, never the engine that drives them.

The table plays its deals in lockstep through the per-deal kernels of :mod:`trick` (the rules of
:mod:`vector_rules`), one call per card for all its deals.
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
from .bitboard import U64, ZERO
from .keys import mix, row_keys
from .knowledge import PublicKnowledge
from .trick import lay_down_all, legal_all, new_tricks, turn_all
from .words import quiet_wrap

Candidate = tuple[np.ndarray, np.ndarray]
"""A card per deal as a pair of one-bit (N,) uint64 masks (zero where there is none)."""

_State = TypeVar("_State")


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
    announced_chelem: np.ndarray  # (N,) bool the taker announced a chelem (and led trick 1)
    trick: int = 0
    position: int = 0
    keys: np.ndarray | None = None  # (N,) uint64 each deal's key (:mod:`.keys`); None: by row
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
        if self.keys is None:
            self.keys = row_keys(n_deals)
        for name in _SIDES:  # the kernels turn the rows in place: one layout, row-major
            setattr(self, name, np.ascontiguousarray(getattr(self, name)))
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
        for name, dtype in _TRICK_STATE.items():
            setattr(self, name, np.empty(n_deals, dtype))
        with quiet_wrap():
            new_tricks(self.arrays())

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

    def turn_to(self, leader_position: np.ndarray) -> None:
        """Start the next trick with the player now at ``leader_position`` (N,) int64 as row
        0 (:func:`turn`)."""
        with quiet_wrap():
            turn_all(np.asarray(leader_position, np.int64), self.arrays(), self.public.arrays())
        self.position = 0

    def decision_keys(self, rows: np.ndarray) -> np.ndarray:
        """(R,) uint64: the key of the decision now due in the deals ``rows`` ((R,) int64): the
        deal's key, the card about to be played and the seat playing it (:mod:`.keys`)."""
        card = self.trick * self.players + self.position
        return mix(self.keys[rows], card, self.seat[self.position, rows])

    def at_step(self, step: int) -> None:
        """The trick and the position in it as the card ``step`` (counted from 0), just played,
        left them: the next player's, or 0 once a trick but the last is complete (led next)."""
        self.trick, position = divmod(step, self.players)
        led = position == self.players - 1 and self.trick < self.n_tricks - 1
        self.position = 0 if led else position + 1

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
        uint64 sets (:func:`legal_cards`)."""
        legal_lo = np.empty(self.n_deals, U64)
        legal_hi = np.empty(self.n_deals, U64)
        with quiet_wrap():
            legal_all(self.position, self.trick, self.arrays(), legal_lo, legal_hi)
        return legal_lo, legal_hi

    def play(self, card_lo: np.ndarray, card_hi: np.ndarray) -> None:
        """The player to act plays one card in every deal: exactly one bit set in
        ``card_lo | card_hi`` ((N,) uint64); :func:`lay_down`."""
        with quiet_wrap():
            lay_down_all(
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
    ``shown_hi`` (n, N) uint64 by seat, then (N,) arrays, read only; then those the kernels
    update in place: ``seat`` (n, N) int64, ``on_taker_side``, ``is_taker``, ``is_partner``
    (n, N) bool and ``hands_lo``/``_hi`` (n, N) uint64, rows by position (:func:`turn` turns
    them), ``winners`` (T, N) int64, and (N,) arrays."""

    shown_hi: np.ndarray
    called_lo: np.ndarray
    called_hi: np.ndarray
    ecart_lo: np.ndarray
    ecart_hi: np.ndarray
    taker_seat: np.ndarray
    partner_seat: np.ndarray
    seat: np.ndarray
    on_taker_side: np.ndarray
    is_taker: np.ndarray
    is_partner: np.ndarray
    winners: np.ndarray
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


_READ_ONLY = operator.attrgetter(*TableArrays._fields[:7])
_UPDATED = operator.attrgetter(*TableArrays._fields[7:])
_SIDES = ("seat", "on_taker_side", "is_taker", "is_partner")
"""The (n, N) arrays :func:`turn` turns (with the hands) or recomputes, in place."""
_TRICK_STATE = {
    "trick_lo": U64,
    "trick_hi": U64,
    "lead_suit": np.int64,
    "lead_lo": U64,
    "lead_hi": U64,
    "lead_bit": np.uint8,
    "beat_lo": U64,
    "beat_hi": U64,
    "best_position": np.int64,
    "best_on_taker_side": bool,
    "excuse_position": np.int64,
    "excuse_on_taker_side": bool,
}
"""The (N,) arrays of the trick in progress, by dtype (:func:`new_trick` sets them)."""


PER_TRICK = ("winners", "leaders", "petit_trick_side")
"""The (T, N) arrays of a table or tally with a row per trick (the rest: (N,) or (n, N))."""


def take_deals(
    state: _State, rows: np.ndarray, drop: tuple[str, ...] = (), begun: int | None = None
) -> _State:
    """A copy of ``state`` — a :class:`Table`, its :class:`PublicKnowledge`, or any object whose
    arrays all have the deals along their last axis — holding the deals ``rows`` ((R,) int64,
    repeats allowed) in that order; the arrays named in ``drop`` are left out (None). With
    ``begun``, the :data:`PER_TRICK` arrays hold only the first ``begun`` tricks' rows, the
    others unset: for a copy played on to the end, which writes them before any is read."""
    taken = copy.copy(state)
    for name, value in vars(state).items():
        if name in drop:
            setattr(taken, name, None)
        elif isinstance(value, np.ndarray):
            first = begun if begun is not None and name in PER_TRICK else None
            setattr(taken, name, _taken(value, rows, first))
        elif isinstance(value, PublicKnowledge):
            setattr(taken, name, take_deals(value, rows))
    return taken


def _taken(value: np.ndarray, rows: np.ndarray, first: int | None) -> np.ndarray:
    """``value`` ((…, N)) at the deals ``rows``; with ``first``, only the first ``first`` rows of
    its first axis, the others unset. One take along the last axis, unchecked (the rows are the
    state's deals): a take per row costs a call each (a deal's search takes some 50 small states
    a card), and a checked take twice the time."""
    if first is None:
        return value.take(rows, axis=-1, mode="clip")
    taken = np.empty((*value.shape[:-1], len(rows)), value.dtype)
    value[:first].take(rows, axis=-1, mode="clip", out=taken[:first])
    return taken


@functools.lru_cache(maxsize=4)
def _columns(n_deals: int) -> np.ndarray:
    columns = np.arange(n_deals)
    columns.flags.writeable = False
    return columns


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
    some or all: :attr:`Turn.deals`).

    A policy may also play deals out by itself, faster: ``play_out(table, tally, step, end)``
    plays every seat of every deal of ``table`` from card ``step`` to card ``end`` (counted from
    0), recording in ``tally`` (a :class:`.tally.Tally`), to the cards ``choose`` would give at
    every card, drawing nothing. Such a policy declares ``plays_out``, the name of that play:
    the engine asks the taker's side's policy to play out both sides when the defence's declares
    the same name (two policies that declare one name must play alike), and then sets the
    table's trick and position as the cards left them (:meth:`Table.at_step`)."""

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
