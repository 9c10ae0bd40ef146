"""What the tricks of N deals leave behind as they close (:class:`Tally`): the engine's record of
who won which cards, by the Excuse's rules (:mod:`vector_rules`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..game import hand_size
from . import bitboard as bb
from . import vector_rules
from .bitboard import U64, ZERO

if TYPE_CHECKING:
    from .table import Candidate, Table


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

    def close_trick(self, table: Table, last: bool) -> np.ndarray:
        """Give the complete trick to its winner's side and return the winner's position (N,)."""
        winner = table.best_position
        winner_taker = table.best_on_taker_side
        excuse_taker = table.excuse_on_taker_side
        if last and table.n_tricks > 1:
            swept = bb.select(excuse_taker, table.defence_tricks == 0, table.taker_tricks == 0)
            winner = vector_rules.last_trick_winner(winner, table.excuse_position, swept)
            self.won_by_excuse = winner != table.best_position
            winner_taker = bb.select(self.won_by_excuse, excuse_taker, winner_taker)
        chelem = bb.select(winner_taker, table.defence_tricks == 0, table.taker_tricks == 0)
        changes_side = vector_rules.excuse_changes_side(last, chelem)
        won_lo, won_hi = vector_rules.card_owners(
            table.trick_lo, table.trick_hi, winner_taker, excuse_taker, changes_side
        )
        self.won_lo |= won_lo
        self.won_hi |= won_hi
        self.exchange2 += vector_rules.excuse_exchange(
            table.trick_hi, winner_taker, excuse_taker, changes_side
        )
        has_petit = (table.trick_hi & bb.PETIT_HI) != ZERO
        self.petit_trick_side[table.trick] = bb.select(has_petit, bb.select(winner_taker, 1, -1), 0)
        table.won_by(winner, winner_taker)
        return winner
