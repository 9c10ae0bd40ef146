"""Charts for the reports, as matplotlib Figures (Agg backend; never shown on screen)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.reports.formatting import percent

SIMULATED_COLOUR = "#4c72b0"
EXACT_COLOUR = "#c44e52"
BID_COLOURS = {
    "pass": "#999999",
    "prise": "#4c72b0",
    "garde": "#55a868",
    "garde_sans": "#dd8452",
    "garde_contre": "#c44e52",
}
"""One colour per bid, the same in every chart."""
BID_LABELS = {"pass": "Pass", **{c.value: c.label for c in Contract}}
"""Bid names as a player writes them."""


def percent_axis(axes: Axes, which: str = "y") -> None:
    """Ticks of a share axis read in percent (the data stay shares)."""
    axis = axes.yaxis if which == "y" else axes.xaxis
    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=None))


def _shown_values(table: pd.DataFrame) -> pd.DataFrame:
    """The rows worth a bar: from the first to the last value simulated at least once or
    whose exact probability is at least 1 in 10,000 (a long tail of empty bars says nothing)."""
    exact = table["exact"].fillna(0.0)
    seen = ((table["simulated"] > 0) | (exact >= 1e-4)).to_numpy()
    if not seen.any():
        return table
    first, last = np.flatnonzero(seen)[[0, -1]]
    return table.iloc[first : last + 1]


def simulated_vs_exact(table: pd.DataFrame, title: str, xlabel: str) -> Figure:
    """Bars of simulated frequencies (± 2 standard errors) with the exact law as markers.

    ``table``: one row per value, columns ``value``, ``simulated``, ``stderr`` and ``exact``
    (NaN where unknown).
    """
    table = _shown_values(table)
    figure = Figure(figsize=(7, 3.6), layout="constrained")
    axes = figure.subplots()
    x = table["value"].to_numpy()
    axes.bar(
        x,
        table["simulated"],
        yerr=2 * table["stderr"],
        color=SIMULATED_COLOUR,
        alpha=0.8,
        label="simulated deals (± 2 standard errors)",
    )
    if table["exact"].notna().any():
        axes.plot(x, table["exact"], "o", color=EXACT_COLOUR, label="exact probability")
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("share of deals (%)")
    percent_axis(axes)
    axes.set_xticks(x)
    axes.legend(frameon=False)
    axes.grid(axis="y", alpha=0.3)
    return figure


def point_count_chart(
    points: np.ndarray,
    points_with_distribution: np.ndarray,
    bands: Sequence[tuple[str, float, float]],
    title: str,
) -> Figure:
    """Histogram of point counts with the bid bands shaded.

    ``points``, ``points_with_distribution``: (P,) shares of hands with 0…P-1 points.
    ``bands``: ``(bid, low, high)`` for each bid (a key of :data:`BID_COLOURS`), the band
    covering ``low ≤ points < high``.
    """
    figure = Figure(figsize=(8, 3.8), layout="constrained")
    axes = figure.subplots()
    top = int(max(np.flatnonzero(points_with_distribution).max(initial=0), 90)) + 2
    x = np.arange(top)
    for bid, low, high in bands:
        axes.axvspan(low - 0.5, min(high, top) - 0.5, color=BID_COLOURS[bid], alpha=0.18, lw=0)
        axes.text((low + min(high, top)) / 2 - 0.5, 1.01, BID_LABELS[bid], ha="center",
                  va="bottom", fontsize=8, transform=axes.get_xaxis_transform())  # fmt: skip
    axes.bar(x, points[:top], width=1.0, color=SIMULATED_COLOUR, label="points")
    axes.step(
        x,
        points_with_distribution[:top],
        where="mid",
        color=EXACT_COLOUR,
        lw=1,
        label="points with voids and singletons",
    )
    axes.set_xlim(-0.5, top - 0.5)
    axes.set_title(title, pad=16)
    axes.set_xlabel("point count of the barème (points)")
    axes.set_ylabel("share of hands (%)")
    percent_axis(axes)
    axes.legend(frameon=False, loc="upper left", fontsize=8)
    return figure


def shares_chart(table: pd.DataFrame, title: str, label_column: str) -> Figure:
    """Horizontal bars of shares (± 2 standard errors), one per row of ``table``.

    ``table``: columns ``label_column``, ``simulated`` and ``stderr``.
    """
    figure = Figure(figsize=(7, 0.45 * len(table) + 1.4), layout="constrained")
    axes = figure.subplots()
    y = np.arange(len(table))[::-1]
    axes.barh(y, table["simulated"], xerr=2 * table["stderr"], color=SIMULATED_COLOUR, alpha=0.8)
    axes.set_yticks(y, table[label_column])
    ends = table["simulated"] + 2 * table["stderr"]
    for yi, share, end in zip(y, table["simulated"], ends, strict=True):
        axes.text(end, yi, f"  {percent(share)}", va="center", fontsize=8)
    axes.set_xlabel("share of hands (%)")
    percent_axis(axes, "x")
    axes.set_title(title)
    axes.set_xlim(0, min(1.0, table["simulated"].max() * 1.3 + 0.02))
    return figure
