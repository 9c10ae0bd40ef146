"""The thresholds study's charts, as matplotlib Figures of the per-hand table (``hands.csv``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from tarot_advisor.analyzer.cards import parse_cards, trumps_and_excuse
from tarot_advisor.analyzer.game import BIDS, hand_size
from tarot_advisor.reports import charts
from tarot_advisor.reports.thresholds_fit import HEURISTIC_THRESHOLDS

BIN_WIDTH = 4
COLOURS, LABELS = charts.BID_COLOURS, charts.BID_LABELS
LABEL_BOX = {"facecolor": "white", "alpha": 0.7, "edgecolor": "none", "pad": 1}
"""Behind a label drawn over curves: they stay readable."""


def trumps_in_hand(frame: pd.DataFrame) -> np.ndarray:
    """(N,) int64: trumps and Excuse in each hand (what a poignée counts)."""
    return np.array([trumps_and_excuse(parse_cards(hand)) for hand in frame["hand"]], np.int64)


def binned_means(x: np.ndarray, y: np.ndarray, width: int = BIN_WIDTH) -> pd.DataFrame:
    """Mean of ``y`` in bins of ``x`` of ``width`` points: ``centre``, ``mean``, ``low``,
    ``high`` (95 % interval, 1.96 standard errors), ``hands``; bins of fewer than 3 hands are
    left out."""
    keep = ~np.isnan(y)
    x, y = x[keep], y[keep]
    bins = np.floor(x / width).astype(np.int64)
    rows = []
    for b in np.unique(bins):
        values = y[bins == b]
        if values.size < 3:
            continue
        half = 1.96 * values.std(ddof=1) / math.sqrt(values.size)
        mean = float(values.mean())
        rows.append(
            {
                "centre": (b + 0.5) * width,
                "mean": mean,
                "low": mean - half,
                "high": mean + half,
                "hands": int(values.size),
            }
        )
    # Typed even when empty: a study too small to fill one bin still draws (empty) charts.
    columns = {"centre": float, "mean": float, "low": float, "high": float, "hands": np.int64}
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def _band(axes: Axes, table: pd.DataFrame, key: str, label: str, scale: float = 1.0) -> None:
    axes.plot(table["centre"], scale * table["mean"], "-o", ms=3, color=COLOURS[key], label=label)
    axes.fill_between(
        table["centre"], scale * table["low"], scale * table["high"], color=COLOURS[key], alpha=0.2
    )


def _heuristic_lines(axes: Axes, names: tuple[str, ...]) -> None:
    """The barème's lines, dotted, each named along its line from the top (upright names
    would run into each other where two lines are close)."""
    for name in names:
        value = HEURISTIC_THRESHOLDS[name]
        axes.axvline(value, color=COLOURS[name], ls=":", lw=1.2)
        axes.text(
            value,
            0.98,
            f"barème {LABELS[name]} {value}",
            rotation=90,
            fontsize=7,
            ha="right",
            va="top",
            color=COLOURS[name],
            transform=axes.get_xaxis_transform(),
            bbox=LABEL_BOX,
        )


def _widen_to_lines(axes: Axes, names: tuple[str, ...]) -> None:
    """The x range stretched to show the barème's lines, even beyond the hands studied."""
    low, high = axes.get_xlim()
    lines = [HEURISTIC_THRESHOLDS[name] for name in names]
    axes.set_xlim(min(low, min(lines) - 3), max(high, max(lines) + 3))


def _too_few(axes: Axes, tables: list[pd.DataFrame]) -> bool:
    """Says so in the axes when no bin holds enough hands to draw; True then."""
    if any(len(table) for table in tables):
        return False
    axes.text(
        0.5,
        0.5,
        "too few hands to draw\n(at least 3 in a bin of 4 points)",
        ha="center",
        va="center",
        transform=axes.transAxes,
        color="#555555",
    )
    return True


def _of(players: int, hands: int) -> str:
    return f"{players} players, {hands:,} hands"


_PANELS = (
    ("points", ("prise", "garde"), "points of the barème, without distribution"),
    (
        "points_with_distribution",
        ("garde_sans", "garde_contre"),
        "points of the barème with voids and singletons",
    ),
)


def p_make_chart(frame: pd.DataFrame, players: int) -> Figure:
    """P(make) by point-count bin. Prise and Garde are played alike, so their chances are one
    curve."""
    figure = Figure(figsize=(10, 4.2), layout="constrained")
    panels = figure.subplots(1, 2, sharey=True)
    for axes, (variable, names, xlabel) in zip(panels, _PANELS, strict=True):
        x = frame[variable].to_numpy(float)
        tables = [binned_means(x, frame[f"p_make_{name}"].to_numpy(float)) for name in names]
        if names == ("prise", "garde"):
            _band(axes, tables[1], "garde", "Prise and Garde (played alike)", 100)
        else:
            for name, table in zip(names, tables, strict=True):
                _band(axes, table, name, LABELS[name], 100)
        empty = _too_few(axes, tables)
        _heuristic_lines(axes, names)
        _widen_to_lines(axes, names)
        axes.set_xlabel(xlabel)
        axes.grid(alpha=0.3)
        if not empty:
            axes.legend(frameon=False, loc="upper left", fontsize=8)
    panels[0].set_ylabel("chance of making the contract (%)")
    panels[0].set_ylim(-2, 102)
    figure.suptitle(
        f"Chance of making each contract, by point count ({_of(players, len(frame))}; "
        "dotted: the barème's lines)",
        fontsize=11,
    )
    return figure


def expected_score_chart(frame: pd.DataFrame, fits: dict, players: int) -> Figure:
    figure = Figure(figsize=(10, 4.4), layout="constrained")
    panels = figure.subplots(1, 2)
    shown = (("prise", "garde"), ("garde", "garde_sans", "garde_contre"))
    for axes, (variable, fitted, xlabel), names in zip(panels, _PANELS, shown, strict=True):
        x = frame[variable].to_numpy(float)
        tables = [binned_means(x, frame[f"expected_score_{n}"].to_numpy(float)) for n in names]
        for name, table in zip(names, tables, strict=True):
            _band(axes, table, name, LABELS[name])
        empty = _too_few(axes, tables)
        axes.axhline(0, color=COLOURS["pass"], lw=1, label="Pass (0)")
        for height, name in zip((0.02, 0.5), fitted, strict=True):
            value = fits[name]["value"]
            if value is not None:
                axes.axvline(value, color=COLOURS[name], ls="--", lw=1.2)
                # Two labels at two heights: Prise's and Garde's lines fall together.
                axes.text(
                    value,
                    height,
                    f" fitted {LABELS[name]} {value:.0f}",
                    rotation=90,
                    fontsize=8,
                    transform=axes.get_xaxis_transform(),
                    color=COLOURS[name],
                    bbox=LABEL_BOX,
                )
        _heuristic_lines(axes, fitted)
        _widen_to_lines(axes, fitted)
        axes.set_xlabel(xlabel)
        axes.grid(alpha=0.3)
        if not empty:
            axes.legend(frameon=False, loc="upper left", fontsize=8)
    panels[0].set_ylabel("taker's expected score (points per deal)")
    figure.suptitle(
        f"The taker's expected score, by point count ({_of(players, len(frame))}; dashed: "
        "fitted lines, dotted: the barème's)",
        fontsize=11,
    )
    return figure


def best_share_chart(frame: pd.DataFrame, players: int, width: int = 5) -> Figure:
    figure = Figure(figsize=(9, 4), layout="constrained")
    axes = figure.subplots()
    bins = (frame["points"] // width * width).to_numpy()
    shares = pd.crosstab(bins, frame["best_contract"], normalize="index")
    shares = shares.reindex(columns=list(BIDS), fill_value=0.0)
    bottom = np.zeros(len(shares))
    for bid in BIDS:
        if not shares[bid].any():
            continue  # never the best bid: no bar, so no name in the legend
        axes.bar(
            shares.index + width / 2,
            100 * shares[bid],
            width=width * 0.9,
            bottom=bottom,
            color=COLOURS[bid],
            label=LABELS[bid],
        )
        bottom += 100 * shares[bid].to_numpy()
    _too_few(axes, [shares])
    names = ("prise", "garde", "garde_sans", "garde_contre")
    _heuristic_lines(axes, names)
    _widen_to_lines(axes, names)
    axes.set_xlabel("points of the barème, without distribution")
    axes.set_ylabel("share of the bin's hands (%)")
    axes.set_title(
        f"The best bid by point count ({_of(players, len(frame))}, bins of {width} points; "
        "dotted: the barème's lines)",
        fontsize=11,
    )
    if len(shares):
        axes.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1, 0.5))
    return figure


def confusion_chart(table: pd.DataFrame, rate: float, players: int) -> Figure:
    figure = Figure(figsize=(6, 5), layout="constrained")
    axes = figure.subplots()
    values = table.to_numpy()
    axes.imshow(values, cmap="Blues")
    top = values.max() if values.size else 0
    for (i, j), count in np.ndenumerate(values):
        colour = "white" if count > top / 2 else "black"
        axes.text(j, i, str(count), ha="center", va="center", color=colour, fontsize=9)
    labels = [LABELS[b] for b in BIDS]
    axes.set_xticks(range(len(BIDS)), labels, rotation=30, ha="right")
    axes.set_yticks(range(len(BIDS)), labels)
    axes.set_xlabel("the simulation's best bid")
    axes.set_ylabel("the barème's bid")
    axes.set_title(
        f"Hands by bid ({_of(players, int(values.sum()))}): the barème agrees on "
        f"{100 * rate:.1f} %",
        fontsize=11,
    )
    return figure


def poignee_chart(frame: pd.DataFrame, players: int) -> Figure:
    figure = Figure(figsize=(7, 4), layout="constrained")
    axes = figure.subplots()
    table = binned_means(
        trumps_in_hand(frame).astype(float), frame["poignee_gain"].to_numpy(float), width=1
    )
    centres = table["centre"] - 0.5
    axes.bar(
        centres,
        table["mean"],
        color=charts.SIMULATED_COLOUR,
        alpha=0.8,
        yerr=[table["mean"] - table["low"], table["high"] - table["mean"]],
        capsize=3,
        label="mean gain (95% interval)",
    )
    for centre, high, hands in zip(centres, table["high"], table["hands"], strict=True):
        axes.text(centre, high, f"{hands} hands", ha="center", va="bottom", fontsize=7)
    if not _too_few(axes, [table]):
        axes.set_xticks(centres.astype(int))
    axes.axhline(0, color="#555555", lw=1)
    axes.set_xlabel(
        f"trumps and Excuse in the hand before the chien ({hand_size(players)} cards a hand)"
    )
    axes.set_ylabel("gain from showing (points per deal)")
    axes.set_title(
        f"What showing the poignée is worth ({players} players, "
        f"{int(table['hands'].sum()):,} hands that could show one)",
        fontsize=11,
        pad=12,
    )
    return figure
