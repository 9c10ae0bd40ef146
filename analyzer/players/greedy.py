"""The engine's greedy card-play policy: the habits of competent players (:mod:`habits`).

:class:`GreedyPolicy` asks, for each deal of a turn, the reading of the position and the first
habit that applies; it is one call per decision into a per-deal kernel
(:func:`~..playout.words.kernel`), compiled by numba when it can be.
"""

from __future__ import annotations

import numpy as np

from ..playout.bitboard import U64
from ..playout.table import Candidate, Turn
from ..playout.vector_rules import NO_SUIT
from ..playout.words import kernel, quiet_wrap
from .habits import follow, lead, read


class GreedyPolicy:
    """Plays, for every deal, the card of the first habit that applies (:func:`habits.lead`,
    :func:`habits.follow`)."""

    name = "greedy"

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        table = turn.table
        out_lo = np.empty(len(turn.legal_lo), U64)
        out_hi = np.empty(len(turn.legal_lo), U64)
        with quiet_wrap():
            _choose_all(
                turn.position,
                table.trick,
                table.n_tricks,
                turn.rows,
                turn.legal_lo,
                turn.legal_hi,
                table.arrays(),
                table.public.arrays(),
                out_lo,
                out_hi,
            )
        return out_lo, out_hi


@kernel
def _choose_all(k, trick, n_tricks, rows, legal_lo, legal_hi, t, public, out_lo, out_hi):
    """The greedy's card for the player at position ``k`` in the deals ``rows`` ((M,) int64)
    of a table (``t``, ``public``: its arrays) at trick ``trick`` of ``n_tricks``: their legal
    cards ``legal_lo``/``_hi`` (M,) uint64 in, their cards ``out_lo``/``_hi`` (M,) out."""
    for i in range(rows.shape[0]):
        d = rows[i]
        reading = read(k, d, trick, n_tricks, legal_lo[i], legal_hi[i], t, public)
        if k == 0 or t.lead_suit[d] == NO_SUIT:  # leading, or after an Excuse led
            out_lo[i], out_hi[i] = lead(reading)
        else:
            out_lo[i], out_hi[i] = follow(reading)
