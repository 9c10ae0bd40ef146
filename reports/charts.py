"""Charts for the reports, as matplotlib Figures (Agg backend; never shown on screen)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.analyzer.game import Contract

SIMULATED_COLOUR = "#4c72b0"
EXACT_COLOUR = "#c44e52"
BAND_COLOURS = ("#dddddd", "#c6dbef", "#9ecae1", "#6baed6", "#3182bd")
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


def simulated_vs_exact(table: pd.DataFrame, title: str, xlabel: str) -> Figure:
    """Bars of simulated frequencies (± 2 standard errors) with the exact law as markers.

    ``table``: one row per value, columns ``value``, ``simulated``, ``stderr`` and ``exact``
    (NaN where unknown).
    """
    figure = Figure(figsize=(7, 3.6))
    axes = figure.subplots()
    x = table["value"].to_numpy()
    axes.bar(
        x,
        table["simulated"],
        yerr=2 * table["stderr"],
        color=SIMULATED_COLOUR,
        alpha=0.8,
        label="simulated (± 2 s.e.)",
    )
    if table["exact"].notna().any():
        axes.plot(x, table["exact"], "o", color=EXACT_COLOUR, label="exact")
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("share of deals")
    axes.set_xticks(x)
    axes.legend(frameon=False)
    axes.grid(axis="y", alpha=0.3)
    return figure


def point_count_chart(
    points: np.ndarray,
    points_with_distribution: np.ndarray,
    bands: Sequence[tuple[str, float, float]],
) -> Figure:
    """Histogram of point counts with the bid bands shaded.

    ``points``, ``points_with_distribution``: (P,) shares of hands with 0…P-1 points.
    ``bands``: ``(label, low, high)`` for each bid, the band covering ``low ≤ points < high``.
    """
    figure = Figure(figsize=(8, 3.8))
    axes = figure.subplots()
    top = int(max(np.flatnonzero(points_with_distribution).max(initial=0), 90)) + 2
    x = np.arange(top)
    for (label, low, high), colour in zip(bands, BAND_COLOURS, strict=False):
        axes.axvspan(low - 0.5, min(high, top) - 0.5, color=colour, alpha=0.6, lw=0)
        axes.text((low + min(high, top)) / 2, 1.0, label, transform=axes.get_xaxis_transform(),
                  ha="center", va="bottom", fontsize=8)  # fmt: skip
    axes.bar(x, points[:top], width=1.0, color=SIMULATED_COLOUR, label="points")
    axes.step(
        x,
        points_with_distribution[:top],
        where="mid",
        color=EXACT_COLOUR,
        lw=1,
        label="with voids and singletons",
    )
    axes.set_xlim(-0.5, top - 0.5)
    axes.set_xlabel("point count (barème)")
    axes.set_ylabel("share of hands")
    axes.legend(frameon=False, loc="upper right")
    return figure


def shares_chart(table: pd.DataFrame, title: str, label_column: str) -> Figure:
    """Horizontal bars of shares (± 2 standard errors), one per row of ``table``.

    ``table``: columns ``label_column``, ``simulated`` and ``stderr``.
    """
    figure = Figure(figsize=(7, 0.45 * len(table) + 1.2))
    axes = figure.subplots()
    y = np.arange(len(table))[::-1]
    axes.barh(y, table["simulated"], xerr=2 * table["stderr"], color=SIMULATED_COLOUR, alpha=0.8)
    axes.set_yticks(y, table[label_column])
    for yi, share in zip(y, table["simulated"], strict=True):
        axes.text(share, yi, f"  {100 * share:.3g} %", va="center", fontsize=8)
    axes.set_xlabel("share of hands")
    axes.set_title(title)
    axes.set_xlim(0, min(1.0, table["simulated"].max() * 1.25 + 0.02))
    return figure
