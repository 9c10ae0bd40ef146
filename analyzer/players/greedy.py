"""The engine's greedy card-play policy: the habits of competent players (:mod:`habits`).

:class:`GreedyPolicy` asks, for each deal of a turn, the reading of the position and the first
habit that applies (:func:`choose`); it is one call per decision into a per-deal kernel
(:func:`~..playout.words.kernel`), compiled by numba when it can be. When the greedy plays every
seat (the lookahead's rollouts, greedy-only playouts), the engine has it play each deal to the
end in one compiled loop instead (:meth:`GreedyPolicy.play_out`, :func:`play_out`): the same
kernels, card by card, without a round of array operations per card. The greedy draws nothing
from ``rng``: both ways play the same cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..playout.bitboard import U64
from ..playout.table import Candidate, Table, Turn
from ..playout.tally import close_trick
from ..playout.trick import lay_down, legal_cards, turn
from ..playout.vector_rules import NO_SUIT
from ..playout.words import entry_point, kernel, popcount, quiet_wrap
from .habits import follow, lead, read

if TYPE_CHECKING:
    from ..playout.tally import Tally


class GreedyPolicy:
    """Plays, for every deal, the card of the first habit that applies (:func:`habits.lead`,
    :func:`habits.follow`)."""

    name = "greedy"
    plays_out = "greedy"  # every instance plays alike: the engine may ask one for both sides

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        table = turn.table
        out_lo = np.empty(len(turn.legal_lo), U64)
        out_hi = np.empty(len(turn.legal_lo), U64)
        with quiet_wrap():
            _choose_all(
                turn.position,
                table.trick,
                turn.rows,
                turn.legal_lo,
                turn.legal_hi,
                table.arrays(),
                table.public.arrays(),
                out_lo,
                out_hi,
            )
        return out_lo, out_hi

    def play_out(self, table: Table, tally: Tally, step: int, end: int) -> None:
        """Play every seat of every deal of ``table`` from card ``step`` (counted from 0; the
        table at that card) to card ``end``, recording in ``tally`` (:func:`play_out`). The
        engine keeps its own count of the cards and the table's trick and position."""
        with quiet_wrap():
            play_out(
                step,
                end,
                table.any_shown,
                table.arrays(),
                table.public.arrays(),
                tally.arrays(),
                (0,) * table.players,
            )


@kernel
def choose(k, d, trick, legal_lo, legal_hi, t, public):
    """(lo, hi) the greedy's card for the player at position ``k`` in deal ``d`` at trick
    ``trick``, from its legal cards ``legal_lo``/``_hi``; ``t`` and ``public``: the table's
    arrays."""
    n_tricks = t.winners.shape[0]
    # A reading for each: inlined twice, each keeps only what its habits read.
    if k == 0 or t.lead_suit[d] == NO_SUIT:  # leading, or after an Excuse led
        return lead(read(k, d, trick, n_tricks, legal_lo, legal_hi, t, public))
    return follow(read(k, d, trick, n_tricks, legal_lo, legal_hi, t, public))


@entry_point
def _choose_all(k, trick, rows, legal_lo, legal_hi, t, public, out_lo, out_hi):
    """:func:`choose` in the deals ``rows`` ((M,) int64) of a table: their legal cards
    ``legal_lo``/``_hi`` (M,) uint64 in, their cards ``out_lo``/``_hi`` (M,) out. Compiled
    once for every number of players, unlike :func:`play_out`: a decision at the table is a
    small part of any game's time (the searches and the playouts are the rest), and each
    number of players compiled apart cost the tests' first run about 25 s of CPU more each."""
    for i in range(rows.shape[0]):
        out_lo[i], out_hi[i] = choose(k, rows[i], trick, legal_lo[i], legal_hi[i], t, public)


@entry_point
def play_out(step, end, any_shown, t, public, tally, seats):
    """Every deal of a table played by the greedy at every seat, deal after deal, from card
    ``step`` to card ``end`` (counted from 0): as the engine's loop plays them (``engine.play_on``)
    — the trick's leader noted, the legal cards (:func:`.trick.legal_cards`), the greedy's
    choice where more than one is legal (every habit plays a legal card: a single one, as in
    the last trick, is played unread), the card recorded (when the tally keeps them) and laid
    down (:func:`.trick.lay_down`; ``any_shown``: some deal shows a poignée), and a complete
    trick closed (:func:`.tally.close_trick`) and the next one led by its winner
    (:func:`.trick.turn`). ``t``, ``public``, ``tally``: the table's and the tally's
    arrays, updated in place. ``seats``: a tuple of as many zeros as there are players.

    ``seats`` makes the number of players part of the compiled signature (a tuple's length is
    its type's): compiled for each number, under the test below the compiler knows the table's
    number of rows too, unrolls the loops over the players and decides the five-player rules'
    tests once. Measured (20,000 Garde deals from the first card): without it, the masks of
    :func:`habits.read`'s loop cost 10% more ns a card with 3 and 4 players; with both, 3 and
    4 players take the time they took with the branches, 5 players 16% less. Each number of
    players compiles once (about 6 s more than one version for all)."""
    if t.seat.shape[0] == len(seats):
        _play_deals(step, end, any_shown, t, public, tally)


@kernel
def _play_deals(step, end, any_shown, t, public, tally):
    """:func:`play_out`'s loop, deal after deal."""
    players = t.seat.shape[0]
    n_tricks = t.winners.shape[0]
    keep_plays = tally.played_lo.shape[0] > 0
    for d in range(t.seat.shape[1]):
        trick, k = step // players, step % players  # then counted on, not divided per card
        for s in range(step, end):
            if k == players:
                trick, k = trick + 1, 0
            if k == 0:
                tally.leaders[trick, d] = t.seat[0, d]
            lo, hi = legal_cards(k, d, trick, t)
            if popcount(lo) + popcount(hi) > 1:  # a single legal card (the last trick) is played
                lo, hi = choose(k, d, trick, lo, hi, t, public)
            if keep_plays:
                tally.played_lo[s, d] = lo
                tally.played_hi[s, d] = hi
            lay_down(k, d, lo, hi, trick == 0 and any_shown, t, public)
            if k == players - 1:
                last = trick == n_tricks - 1
                winner = close_trick(d, trick, last, t, tally)
                if not last:
                    turn(d, winner, t, public)
            k += 1
