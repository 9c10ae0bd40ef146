"""What a deal shows, before the lookahead plays it, of how it will go: the control's covariates.

The focus steadies the lookahead's numbers by quantities of the same deal whose means are
measured for almost nothing on many fresh deals (:mod:`control`). The greedy's outcome on the
deal is the first of them; the cards themselves say more of what the greedy misses: what the
chien holds, how the defence's trumps and bouts lie. Measured on 1,500 four-player Garde deals
each (a one-off experiment: β fitted on 300 and tested on the rest), the share of the
lookahead's score variance that these covariates explain, against the greedy's score alone:
0.22 against 0.09 (the README hand, made 94%), 0.31 against 0.19 (made 88%), 0.39 against 0.29
(made 63%), 0.48 against 0.35 (a hand to pass, made 47%); the lookahead against itself on the
same deals, the most any covariate of the deal can explain, 0.37–0.59. Three players (Garde
Sans, made 83%): 0.08 against 0.02; five players (Garde Contre): 0.20 against 0.13.
"""

from __future__ import annotations

import numpy as np

from ..cards import IS_BOUT, IS_TRUMP, POINTS2
from ..playout.deal import Deals
from ..playout.engine import Playout
from ..playout.scoring import Scores

NAMES = (
    "the greedy's score",
    "the greedy made it",
    "the greedy's margin",
    "the chien's points",
    "the chien's bouts",
    "the chien's trumps",
    "a defender's most trumps",
    "a defender's second most trumps",
    "the defence's bouts",
)
"""The covariates, in the columns' order."""
SCORE, MADE = 0, 1
"""The columns of the greedy's own score and whether it made the contract: the control of a
focus too short to fit them all (:func:`control.fit`)."""


def covariates(deals: Deals, playout: Playout, scores: Scores) -> np.ndarray:
    """(N, :data:`NAMES`) float64: each deal's covariates, from ``deals`` (the cards, the
    user's hand at the taker's seat), its greedy ``playout`` (the taker and partner) and its
    ``scores`` under a contract of the pair played."""
    n = len(deals)
    hands = deals.hands.astype(np.intp)  # (N, players, h)
    rows = np.arange(n)
    defends = np.ones((n, deals.players), bool)
    defends[rows, playout.taker] = False
    partnered = playout.partner >= 0
    defends[rows[partnered], playout.partner[partnered]] = False
    trumps = np.where(defends, IS_TRUMP[hands].sum(axis=2), -1)  # the taker's side: −1
    most = np.sort(trumps, axis=1)[:, ::-1]
    chien = deals.chien.astype(np.intp)
    return np.column_stack(
        [
            scores.taker_score,
            scores.made,
            scores.taker_points - scores.needed,
            POINTS2[chien].sum(axis=1) / 2,
            IS_BOUT[chien].sum(axis=1),
            IS_TRUMP[chien].sum(axis=1),
            most[:, 0],
            most[:, 1],
            (IS_BOUT[hands].sum(axis=2) * defends).sum(axis=1),
        ]
    ).astype(np.float64)
