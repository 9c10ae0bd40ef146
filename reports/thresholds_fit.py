"""The fit of the thresholds study: where each contract overtakes the previous choice.

The fitted threshold of a contract is the point count from which its expected score stays above
the previous choice's (pass, i.e. 0, for Prise; Prise for Garde; Garde for Garde Sans; Garde
Sans for Garde Contre): a local linear regression (Gaussian kernel) of the per-hand score
differences against the point count, its last upward crossing of zero inside the range the
data cover. Prise and Garde are read against ``points``, Garde Sans and Garde Contre against
``points_with_distribution`` (the barème counts voids and singletons only toward those). The
95 % interval comes from a bootstrap over hands.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tarot_advisor.analyzer.advice.heuristic import (
    GARDE_CONTRE_FROM,
    GARDE_FROM,
    GARDE_SANS_FROM,
    PRISE_FROM,
)

HEURISTIC_THRESHOLDS = {
    "prise": PRISE_FROM,
    "garde": GARDE_FROM,
    "garde_sans": GARDE_SANS_FROM,
    "garde_contre": GARDE_CONTRE_FROM,
}
FITS = (
    ("prise", None, "points"),
    ("garde", "prise", "points"),
    ("garde_sans", "garde", "points_with_distribution"),
    ("garde_contre", "garde_sans", "points_with_distribution"),
)
"""(contract, the previous choice (None = pass), the point count it is read against)."""
BANDWIDTH = 3.0
"""Standard deviation, in points, of the kernel of the local regression."""
MIN_SUPPORT = 10.0
"""The fit is read only where the kernel weighs at least this many hands."""
GRID_STEP = 0.25
BOOTSTRAP = 400


def score_difference(frame: pd.DataFrame, contract: str, previous: str | None) -> np.ndarray:
    """(N,) float64 per hand: E[score] of ``contract`` minus that of ``previous`` (0 for pass)."""
    base = 0.0 if previous is None else frame[f"expected_score_{previous}"].to_numpy(float)
    return frame[f"expected_score_{contract}"].to_numpy(float) - base


def local_linear(
    x: np.ndarray, y: np.ndarray, grid: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian-kernel local linear regression of ``y`` on ``x`` at the ``grid`` points.

    ``x``, ``y``: (N,); ``grid``: (G,); ``weights``: (B, N) how many times each point counts
    (one row per bootstrap replicate). Returns ``(fit, support)``, both (B, G): the fitted
    values and the kernel weight of the data at each grid point, in hands.
    """
    # Point counts are whole numbers: summing the weights per distinct value first keeps the
    # kernel matrices small (values × grid) whatever the number of hands.
    values, inverse = np.unique(x, return_inverse=True)
    onehot = np.zeros((x.size, values.size))
    onehot[np.arange(x.size), inverse] = 1.0
    count = weights @ onehot  # (B, U)
    total = (weights * y) @ onehot
    dx = values[:, None] - grid[None, :]  # (U, G)
    kernel = np.exp(-0.5 * (dx / BANDWIDTH) ** 2)
    s0 = count @ kernel
    s1 = count @ (kernel * dx)
    s2 = count @ (kernel * dx * dx)
    t0 = total @ kernel
    t1 = total @ (kernel * dx)
    determinant = s0 * s2 - s1 * s1
    with np.errstate(invalid="ignore", divide="ignore"):
        fit = np.where(determinant > 1e-9 * s0 * s0, (s2 * t0 - s1 * t1) / determinant, t0 / s0)
    return fit, s0


def last_upward_crossing(grid: np.ndarray, fit: np.ndarray) -> float | None:
    """The point from which ``fit`` ((G,), NaN outside the data) stays positive up to the end
    of the data, interpolated between grid points; ``None`` if it is never ≤ 0 there, or never
    > 0 at the end (the curves do not cross in the data)."""
    inside = np.flatnonzero(~np.isnan(fit))
    if inside.size < 2:
        return None
    first, last = inside[0], inside[-1]
    span = fit[first : last + 1]
    below = np.flatnonzero(span <= 0)
    if below.size == 0 or below[-1] == span.size - 1:
        return None
    i = first + below[-1]
    f0, f1 = fit[i], fit[i + 1]
    return float(grid[i] + (grid[i + 1] - grid[i]) * (0 - f0) / (f1 - f0))


def fit_thresholds(
    frame: pd.DataFrame, *, seed: int, bootstrap: int = BOOTSTRAP, min_points: int = 0
) -> dict[str, dict[str, float | None]]:
    """``{contract: {"value", "low", "high", "crossed_share"}}`` for Prise … Garde Contre (see
    the module docstring); ``low``/``high`` are the 2.5 % and 97.5 % quantiles of the
    bootstrap replicates that cross, ``crossed_share`` the share of replicates that do.

    ``min_points``: the hands were drawn with at least that many points with distribution.
    Selecting on that count leaves the law of a score given that count as it was, but not
    given ``points``: the fits read against ``points`` are then left out (all null).
    """
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2**31,)))
    n = len(frame)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=bootstrap).astype(np.float64)
    weights = np.vstack([np.ones((1, n)), counts])
    results = {}
    for contract, previous, variable in FITS:
        if min_points and variable != "points_with_distribution":
            results[contract] = {"value": None, "low": None, "high": None, "crossed_share": None}
            continue
        x = frame[variable].to_numpy(float)
        y = score_difference(frame, contract, previous)
        grid = np.arange(x.min(), x.max() + GRID_STEP, GRID_STEP)
        fit, support = local_linear(x, y, grid, weights)
        # Read every replicate on the range the data cover well.
        fit[:, support[0] < MIN_SUPPORT] = np.nan
        value = last_upward_crossing(grid, fit[0])
        replicates = [last_upward_crossing(grid, row) for row in fit[1:]]
        crossed = np.array([r for r in replicates if r is not None])
        low = high = None
        if value is not None and crossed.size:
            low, high = (float(q) for q in np.quantile(crossed, [0.025, 0.975]))
        results[contract] = {
            "value": value,
            "low": low,
            "high": high,
            "crossed_share": crossed.size / bootstrap if bootstrap else None,
        }
    return results
