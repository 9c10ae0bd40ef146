"""Fitting point counts to a thresholds study's hands: bid lines, then small whole points.

The study's ``hands.csv`` gives, per hand, the expected score of each contract (pass is 0). A
count and its lines bid on each hand; its *regret* there is the best expected score (pass
included) minus the expected score of the bid it makes. Every fit here maximises the total
expected score of the bids made, i.e. minimises the total regret, over the training hands:

* the lines of a count (:func:`fit_lines`): the best bids non-decreasing in the count, found
  exactly by dynamic programming over the distinct counts;
* the seed's two counts (:func:`fit_seed_lines`): Prise and Garde read on the points without
  distribution, Garde Sans and Garde Contre on the points with, as the barème reads them;
* the items' points (:func:`fit_weights`): coordinate descent on whole points, one point up or
  down on one item at a time, the lines refitted at each step, from the barème-like start and
  from a least-squares start; the better of the two is kept; then the items that bring least
  are dropped while the count loses at most :data:`PRUNE_PER_HAND` points per hand.

Held-out figures come from :data:`FOLDS`-fold cross-validation: each hand's bid is made by the
count fitted without its fold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from tarot_advisor.analyzer.advice.calibrated import ITEMS, CountTable, item_counts
from tarot_advisor.analyzer.advice.heuristic import heuristic_bids
from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import BIDS, Contract, hand_size

FOLDS = 5
MAX_PASSES = 200
"""Coordinate-descent passes at most (each moves one item by one point); a fit stops sooner,
when no move helps."""
PRUNE_PER_HAND = 0.25
"""An item is dropped from the card when the count without it (its other points and lines
refitted) loses at most this many points of expected score per hand on the training hands,
all items dropped together: every item left out is one less to add up at the table."""
START_SCALE = 10
"""The least-squares start is scaled so that its largest item is worth this many points."""
SEED_LIKE_START = {
    "21": 10,
    "excuse": 8,
    "petit": 5,
    "petit_guarded": 3,
    "trump": 2,
    "long_trump": 0,
    "major": 2,
    "king": 6,
    "queen": 3,
    "cavalier": 2,
    "valet": 1,
    "king_queen": 1,
    "guarded_queen": 0,
    "long_suit": 2,
    "void": 3,
    "singleton": 1,
    "doubleton": 0,
}
"""The barème's points carried over to the calibrated items (where it has them)."""
METHODS = ("seed", "seed_refitted", "calibrated", "pass")
METHOD_LABELS = {
    "seed": "seed count",
    "seed_refitted": "seed count, refitted lines",
    "calibrated": "calibrated count",
    "pass": "always pass",
}


@dataclass(frozen=True)
class StudyHands:
    """A study's hands ready for fitting.

    ``counts``: (N, len(ITEMS)) int16 item counts; ``values``: (N, 5) float64 expected score of
    each bid of :data:`BIDS` (pass = 0); ``points``/``with_distribution``: (N,) int64 the seed's
    counts; ``best``: (N,) object the study's best bid; ``folds``: (N,) int64 fold of each hand.
    """

    players: int
    hands: np.ndarray
    counts: np.ndarray
    values: np.ndarray
    points: np.ndarray
    with_distribution: np.ndarray
    best: np.ndarray
    folds: np.ndarray

    def subset(self, keep: np.ndarray) -> StudyHands:
        return StudyHands(
            self.players,
            self.hands[keep],
            self.counts[keep],
            self.values[keep],
            self.points[keep],
            self.with_distribution[keep],
            self.best[keep],
            self.folds[keep],
        )


def study_hands(frame: pd.DataFrame, players: int) -> StudyHands:
    """The arrays of a study's ``hands.csv`` table (see :class:`StudyHands`)."""
    hands = np.array([parse_cards(text) for text in frame["hand"]], np.uint8)
    if hands.shape[1:] != (hand_size(players),):
        raise ValueError(f"the study's hands are not {players}-player hands")
    scores = [frame[f"expected_score_{c.value}"].to_numpy(float) for c in Contract]
    values = np.column_stack([np.zeros(len(frame)), *scores])
    return StudyHands(
        players=players,
        hands=hands,
        counts=item_counts(hands, players),
        values=values,
        points=frame["points"].to_numpy(np.int64),
        with_distribution=frame["points_with_distribution"].to_numpy(np.int64),
        best=frame["best_contract"].to_numpy(object),
        folds=frame["hand_id"].to_numpy(np.int64) % FOLDS,
    )


# --- Lines ------------------------------------------------------------------------------------


def _running_argmax(x: np.ndarray) -> np.ndarray:
    """(K,) int: for each k, the last index j ≤ k where ``x[j]`` is the maximum of ``x[:k+1]``."""
    peak = np.maximum.accumulate(x)
    return np.maximum.accumulate(np.where(x == peak, np.arange(x.size), 0))


def fit_lines(points: np.ndarray, values: np.ndarray) -> tuple[list[int | None], float]:
    """The lines that maximise the total value of bids non-decreasing in ``points``.

    ``points``: (N,) int; ``values``: (N, B) float64, the value of each of B ordered bids on
    each hand. Returns (the B − 1 lines, each the lowest count bidding that bid or higher — a
    midpoint between two counts seen — ``None`` for never; the total value).
    """
    distinct, inverse = np.unique(points, return_inverse=True)
    bands = values.shape[1]
    summed = np.zeros((distinct.size, bands))
    np.add.at(summed, inverse, values)
    # prefix[k, b]: the value of the first k distinct counts all bidding b.
    prefix = np.vstack([np.zeros((1, bands)), np.cumsum(summed, axis=0)])
    best = prefix[:, 0]  # best[k]: the first k counts bid optimally with the bids so far
    starts = []
    for b in range(1, bands):
        gain = best - prefix[:, b]
        starts.append(_running_argmax(gain))
        best = np.maximum.accumulate(gain) + prefix[:, b]
    # Walk back from the end: where each bid's band starts.
    k, cuts = distinct.size, []
    for b in range(bands - 1, 0, -1):
        k = int(starts[b - 1][k])
        cuts.append(k)
    lines: list[int | None] = []
    for k in reversed(cuts):
        if k >= distinct.size:
            lines.append(None)
        elif k == 0:
            lines.append(int(distinct[0]))
        else:
            lines.append(int(distinct[k - 1] + distinct[k] + 1) // 2)
    return lines, float(best[-1])


def bids_of(points: np.ndarray, lines: list[int | None]) -> np.ndarray:
    """(N,) int8 bids (indices of the ordered bids) of (N,) counts under ``lines``."""
    bids = np.zeros(points.shape, np.int8)
    for index, line in enumerate(lines, start=1):
        if line is not None:
            bids[points >= line] = index
    return bids


@dataclass(frozen=True)
class SeedLines:
    """The seed's count with its own lines: Prise and Garde on the points, Garde Sans and Garde
    Contre on the points with distribution (``None``: never)."""

    prise: int | None
    garde: int | None
    garde_sans: int | None
    garde_contre: int | None

    def bids(self, points: np.ndarray, with_distribution: np.ndarray) -> np.ndarray:
        low = bids_of(points, [self.prise, self.garde])
        high = bids_of(with_distribution, [self.garde_sans, self.garde_contre])
        return np.where(high > 0, high + 2, low).astype(np.int8)


def fit_seed_lines(hands: StudyHands) -> SeedLines:
    """The seed count's best lines on ``hands``: for each Garde Sans line, the best Garde
    Contre line above it and the best Prise and Garde lines below it."""
    values, points, high = hands.values, hands.points, hands.with_distribution
    best_total, best = -np.inf, SeedLines(None, None, None, None)
    for line in [*np.unique(high).tolist(), None]:
        above = np.zeros(high.shape, bool) if line is None else high >= line
        low_lines, low_total = fit_lines(points[~above], values[~above, :3])
        high_lines, high_total = [None], 0.0
        if above.any():
            high_lines, high_total = fit_lines(high[above], values[above, 3:])
        total = low_total + high_total
        if total > best_total:
            best_total = total
            best = SeedLines(*low_lines, line, *high_lines)
    return best


# --- Points per item ---------------------------------------------------------------------------


def _least_squares_start(hands: StudyHands) -> np.ndarray:
    """Whole points from a least-squares fit of the best expected score on the items."""
    target = hands.values.max(axis=1)
    design = np.column_stack([hands.counts.astype(float), np.ones(len(target))])
    coefficients = np.linalg.lstsq(design, target, rcond=None)[0][:-1]
    scale = START_SCALE / max(np.abs(coefficients).max(), 1e-9)
    return np.rint(coefficients * scale).astype(np.int64)


def _descend(total, weights: np.ndarray, free: np.ndarray) -> tuple[float, np.ndarray]:
    """Coordinate descent from ``weights``: the best one-point move of a ``free`` item, until
    none raises ``total``."""
    weights, value = weights.copy(), total(weights)
    for _ in range(MAX_PASSES):
        moves = []
        for k in np.flatnonzero(free):
            for step in (1, -1):
                trial = weights.copy()
                trial[k] += step
                moves.append((total(trial), k, step))
        if not moves:  # every item pruned to 0: nothing left to move
            break
        gained, k, step = max(moves, key=lambda move: move[0])
        if gained <= value + 1e-9:
            break
        weights[k] += step
        value = gained
    return value, weights


def _prune(total, weights: np.ndarray, allowance: float) -> tuple[float, np.ndarray]:
    """Drop items (weight 0), cheapest first, while the value lost stays within
    ``allowance``, then let the other items make up for them."""
    best = total(weights)
    while True:
        trials = []
        for k in np.flatnonzero(weights):
            trial = weights.copy()
            trial[k] = 0
            trials.append((total(trial), k))
        if not trials:
            break
        value, k = max(trials, key=lambda t: t[0])
        if best - value > allowance:
            break
        weights = weights.copy()
        weights[k] = 0
    return _descend(total, weights, weights != 0)


def fit_weights(hands: StudyHands) -> tuple[np.ndarray, list[int | None]]:
    """Whole points per item (``(len(ITEMS),) int64``) and the count's lines, fitted on
    ``hands`` (see the module docstring)."""
    counts = hands.counts.astype(np.int64)

    def total(weights: np.ndarray) -> float:
        return fit_lines(counts @ weights, hands.values)[1]

    everything = np.ones(len(ITEMS), bool)
    starts = (np.array([SEED_LIKE_START[i] for i in ITEMS]), _least_squares_start(hands))
    _, weights = max((_descend(total, start, everything) for start in starts), key=lambda r: r[0])
    _, weights = _prune(total, weights, PRUNE_PER_HAND * len(counts))
    return weights, fit_lines(counts @ weights, hands.values)[0]


# --- Held out ----------------------------------------------------------------------------------


def regret(hands: StudyHands, bids: np.ndarray) -> np.ndarray:
    """(N,) float64: the best expected score minus that of the bid made on each hand."""
    chosen = hands.values[np.arange(len(bids)), bids]
    return hands.values.max(axis=1) - chosen


def held_out_bids(hands: StudyHands) -> dict[str, np.ndarray]:
    """Each method's (N,) int8 bids, each hand's made by the count fitted without its fold."""
    bids = {
        "seed": heuristic_bids(hands.points, hands.with_distribution),
        "seed_refitted": np.zeros(len(hands.values), np.int8),
        "calibrated": np.zeros(len(hands.values), np.int8),
        "pass": np.zeros(len(hands.values), np.int8),
    }
    for fold in range(FOLDS):
        test = hands.folds == fold
        if not test.any() or test.all():
            continue
        train, held = hands.subset(~test), hands.subset(test)
        lines = fit_seed_lines(train)
        bids["seed_refitted"][test] = lines.bids(held.points, held.with_distribution)
        weights, count_lines = fit_weights(train)
        bids["calibrated"][test] = bids_of(held.counts.astype(np.int64) @ weights, count_lines)
    return bids


def held_out_table(hands: StudyHands, bids: dict[str, np.ndarray]) -> pd.DataFrame:
    """Per method: agreement with the best bid and regret per hand, each with its SE."""
    rows = []
    n = len(hands.values)
    for method in METHODS:
        agree = np.array(BIDS, object)[bids[method]] == hands.best
        lost = regret(hands, bids[method])
        rows.append(
            {
                "method": method,
                "agreement": float(agree.mean()),
                "agreement_se": float(agree.std(ddof=1) / math.sqrt(n)) if n > 1 else None,
                "regret": float(lost.mean()),
                "regret_se": float(lost.std(ddof=1) / math.sqrt(n)) if n > 1 else None,
            }
        )
    return pd.DataFrame(rows)


def fit_table(hands: StudyHands, provenance: dict) -> CountTable:
    """The calibrated count fitted on all of ``hands``."""
    weights, lines = fit_weights(hands)
    return CountTable.from_dict(
        {
            "players": hands.players,
            "weights": dict(zip(ITEMS, weights.tolist(), strict=True)),
            "thresholds": dict(zip(BIDS[1:], lines, strict=True)),
            "provenance": provenance,
        }
    )
