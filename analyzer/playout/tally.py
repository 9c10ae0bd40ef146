"""What the tricks of N deals leave behind as they close (:class:`Tally`): the engine's record of
who won which cards, by the Excuse's rules (:mod:`vector_rules`). :func:`close_trick` is the one
statement of a trick's closing, deal by deal (a per-deal kernel, :func:`.words.kernel`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..game import hand_size
from . import bitboard as bb
from .bitboard import U64
from .vector_rules import card_owners, excuse_changes_side, excuse_exchange, last_trick_winner
from .words import entry_point, kernel, quiet_wrap

if TYPE_CHECKING:
    from .table import Candidate, Table

_ZERO = bb.U64(0)
_EXCUSE_HI = bb.EXCUSE_HI
_PETIT_HI = bb.PETIT_HI


class Tally:
    """What the tricks leave behind, as they close: the cards the taker's side won, the Excuse's
    exchanges, where the Petit fell, and every card played; and the cards out of play that
    count for the taker's side (``aside``: the écart, or the chien in Garde Sans)."""

    def __init__(self, players: int, n_deals: int, keep_plays: bool = True) -> None:
        n_tricks = hand_size(players)
        self.won_lo = np.zeros(n_deals, U64)
        self.won_hi = np.zeros(n_deals, U64)
        self.aside_lo = np.zeros(n_deals, U64)
        self.aside_hi = np.zeros(n_deals, U64)
        self.exchange2 = np.zeros(n_deals, np.int64)  # half points moved to the taker's side
        self.petit_trick_side = np.zeros((n_tricks, n_deals), np.int8)  # ±1 winner of the Petit
        self.won_by_excuse = np.zeros(n_deals, bool)
        self.leaders = np.zeros((n_tricks, n_deals), np.int64)  # (T, N): a trick's is one row
        # Every card played, in order, as a one-bit pair: (T·n, N) uint64 (or None).
        self.played_lo = np.zeros((n_tricks * players, n_deals), U64) if keep_plays else None
        self.played_hi = np.zeros((n_tricks * players, n_deals), U64) if keep_plays else None

    def record(self, index: int, card: Candidate) -> None:
        """The ``index``-th card of the deal (counted from 0) is ``card`` (unless the cards are
        not recorded: :func:`start`, :meth:`InPlay.take`)."""
        if self.played_lo is not None:
            self.played_lo[index], self.played_hi[index] = card

    def arrays(self) -> TallyArrays:
        """The arrays the kernels update (:class:`TallyArrays`)."""
        played_lo, played_hi = self.played_lo, self.played_hi
        if played_lo is None:
            played_lo = played_hi = _NOTHING_PLAYED
        return TallyArrays(
            self.won_lo,
            self.won_hi,
            self.exchange2,
            self.petit_trick_side,
            self.won_by_excuse,
            self.leaders,
            played_lo,
            played_hi,
        )

    def close_trick(self, table: Table, last: bool) -> np.ndarray:
        """Give the complete trick of every deal to its winner's side (:func:`close_trick`) and
        return the winner's position (N,) int64."""
        winners = np.empty(table.n_deals, np.int64)
        with quiet_wrap():
            close_all(table.trick, last, table.arrays(), self.arrays(), winners)
        return winners


class TallyArrays(NamedTuple):
    """A :class:`Tally`'s arrays as the kernels take them (see there): ``won_lo``/``_hi`` (N,)
    uint64, ``exchange2`` (N,) int64, ``petit_trick_side`` (T, N) int8, ``won_by_excuse`` (N,)
    bool, ``leaders`` (T, N) int64, ``played_lo``/``_hi`` (T·n, N) uint64, or (0, 0) when the
    cards are not recorded."""

    won_lo: np.ndarray
    won_hi: np.ndarray
    exchange2: np.ndarray
    petit_trick_side: np.ndarray
    won_by_excuse: np.ndarray
    leaders: np.ndarray
    played_lo: np.ndarray
    played_hi: np.ndarray


_NOTHING_PLAYED = np.zeros((0, 0), U64)


@kernel
def close_trick(d, trick, last, t, tally):
    """Give deal ``d``'s complete trick ``trick`` (``last``: the deal's last) to the side that
    won it and return the winner's position: the best card's player, but the Excuse's in the
    last trick of a side that took every other (it wins it); the Excuse stays with its side
    (which gives a half-point card for it) but in the last trick outside a chelem; where the
    Petit fell; the trick counted for the winner's side. ``t``: the table's arrays
    (:class:`.table.TableArrays`), ``tally``: :class:`TallyArrays`, updated in place."""
    winner = t.best_position[d]
    winner_taker = t.best_on_taker_side[d]
    excuse_taker = t.excuse_on_taker_side[d]
    n_tricks = t.winners.shape[0]
    if last and n_tricks > 1:
        swept = (t.defence_tricks[d] if excuse_taker else t.taker_tricks[d]) == 0
        winner = last_trick_winner(winner, t.excuse_position[d], swept)
        tally.won_by_excuse[d] = winner != t.best_position[d]
        if tally.won_by_excuse[d]:
            winner_taker = excuse_taker
    chelem = (t.defence_tricks[d] if winner_taker else t.taker_tricks[d]) == 0
    changes_side = excuse_changes_side(last, chelem)
    trick_hi = t.trick_hi[d]
    won_lo, won_hi = card_owners(t.trick_lo[d], trick_hi, winner_taker, excuse_taker, changes_side)
    tally.won_lo[d] |= won_lo
    tally.won_hi[d] |= won_hi
    tally.exchange2[d] += excuse_exchange(trick_hi, winner_taker, excuse_taker, changes_side)
    side = 0
    if (trick_hi & _PETIT_HI) != _ZERO:
        side = 1 if winner_taker else -1
    tally.petit_trick_side[trick, d] = side
    t.winners[trick, d] = t.seat[winner, d]
    if winner_taker:
        t.taker_tricks[d] += 1
    else:
        t.defence_tricks[d] += 1
    return winner


@entry_point
def close_all(trick, last, t, tally, winners):
    """:func:`close_trick` of every deal, the winners' positions into ``winners`` (N,) int64."""
    for d in range(winners.shape[0]):
        winners[d] = close_trick(d, trick, last, t, tally)
