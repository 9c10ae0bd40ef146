"""The thresholds study's charts, as matplotlib Figures of the per-hand table (``hands.csv``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.analyzer.cards import parse_cards, trumps_and_excuse
from tarot_advisor.analyzer.game import BIDS, hand_size
from tarot_advisor.reports import charts
from tarot_advisor.reports.thresholds_fit import HEURISTIC_THRESHOLDS

BIN_WIDTH = 4
COLOURS, LABELS = charts.BID_COLOURS, charts.BID_LABELS


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


def _band(axes, table: pd.DataFrame, key: str, label: str) -> None:
    axes.plot(table["centre"], table["mean"], "-o", ms=3, color=COLOURS[key], label=label)
    axes.fill_between(table["centre"], table["low"], table["high"], color=COLOURS[key], alpha=0.2)


def _heuristic_lines(axes, names: tuple[str, ...]) -> None:
    for name in names:
        axes.axvline(HEURISTIC_THRESHOLDS[name], color=COLOURS[name], ls=":", lw=1.2)
        axes.text(
            HEURISTIC_THRESHOLDS[name],
            1.0,
            f" {HEURISTIC_THRESHOLDS[name]}",
            fontsize=8,
            transform=axes.get_xaxis_transform(),
            va="bottom",
        )


_PANELS = (
    ("points", ("prise", "garde"), "points (barème, no distribution)"),
    (
        "points_with_distribution",
        ("garde_sans", "garde_contre"),
        "points with voids and singletons",
    ),
)


def p_make_chart(frame: pd.DataFrame) -> Figure:
    figure = Figure(figsize=(10, 4))
    panels = figure.subplots(1, 2, sharey=True)
    for axes, (variable, names, xlabel) in zip(panels, _PANELS, strict=True):
        for name in names:
            table = binned_means(
                frame[variable].to_numpy(float), frame[f"p_make_{name}"].to_numpy(float)
            )
            _band(axes, table, name, LABELS[name])
        _heuristic_lines(axes, names)
        axes.set_xlabel(xlabel)
        axes.grid(alpha=0.3)
        axes.legend(frameon=False, loc="upper left")
    panels[0].set_ylabel("P(make), mean over hands")
    panels[0].set_ylim(-0.02, 1.02)
    return figure


def expected_score_chart(frame: pd.DataFrame, fits: dict) -> Figure:
    figure = Figure(figsize=(10, 4.2))
    panels = figure.subplots(1, 2)
    shown = (("prise", "garde"), ("garde", "garde_sans", "garde_contre"))
    for axes, (variable, fitted, xlabel), names in zip(panels, _PANELS, shown, strict=True):
        x = frame[variable].to_numpy(float)
        for name in names:
            table = binned_means(x, frame[f"expected_score_{name}"].to_numpy(float))
            _band(axes, table, name, LABELS[name])
        axes.axhline(0, color=COLOURS["pass"], lw=1, label="Pass (0)")
        for height, name in zip((0.02, 0.5), fitted, strict=True):
            value = fits[name]["value"]
            if value is not None:
                axes.axvline(value, color=COLOURS[name], ls="--", lw=1.2)
                # Two labels at two heights: Prise's and Garde's lines fall together.
                axes.text(
                    value,
                    height,
                    f" {LABELS[name]} {value:.0f}",
                    rotation=90,
                    fontsize=8,
                    transform=axes.get_xaxis_transform(),
                    color=COLOURS[name],
                )
        _heuristic_lines(axes, fitted)
        axes.set_xlabel(xlabel)
        axes.grid(alpha=0.3)
        axes.legend(frameon=False, loc="upper left", fontsize=8)
    panels[0].set_ylabel("expected score of the taker")
    return figure


def best_share_chart(frame: pd.DataFrame, width: int = 5) -> Figure:
    figure = Figure(figsize=(9, 3.8))
    axes = figure.subplots()
    bins = (frame["points"] // width * width).to_numpy()
    shares = pd.crosstab(bins, frame["best_contract"], normalize="index")
    shares = shares.reindex(columns=list(BIDS), fill_value=0.0)
    bottom = np.zeros(len(shares))
    for bid in BIDS:
        axes.bar(
            shares.index + width / 2,
            shares[bid],
            width=width * 0.9,
            bottom=bottom,
            color=COLOURS[bid],
            label=LABELS[bid],
        )
        bottom += shares[bid].to_numpy()
    _heuristic_lines(axes, ("prise", "garde", "garde_sans", "garde_contre"))
    axes.set_xlabel("points (barème, no distribution)")
    axes.set_ylabel("share of hands")
    axes.legend(frameon=False, fontsize=8, loc="center left", bbox_to_anchor=(1, 0.5))
    return figure


def confusion_chart(table: pd.DataFrame, rate: float) -> Figure:
    figure = Figure(figsize=(6, 4.8))
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
    axes.set_xlabel("simulation's best bid")
    axes.set_ylabel("heuristic bid")
    axes.set_title(f"Agreement: {100 * rate:.1f} % of hands")
    return figure


def poignee_chart(frame: pd.DataFrame, players: int) -> Figure:
    figure = Figure(figsize=(7, 3.8))
    axes = figure.subplots()
    table = binned_means(
        trumps_in_hand(frame).astype(float), frame["poignee_gain"].to_numpy(float), width=1
    )
    axes.bar(
        table["centre"] - 0.5,
        table["mean"],
        color=charts.SIMULATED_COLOUR,
        alpha=0.8,
        yerr=[table["mean"] - table["low"], table["high"] - table["mean"]],
    )
    for centre, high, hands in zip(table["centre"], table["high"], table["hands"], strict=True):
        axes.text(centre - 0.5, high, f"{hands}", ha="center", va="bottom", fontsize=7)
    axes.axhline(0, color="#555555", lw=1)
    axes.set_xlabel(f"trumps and Excuse in the hand ({hand_size(players)} cards)")
    axes.set_ylabel("E[shown] − E[hidden]")
    return figure
