"""One hand's analysis as a picture (``tarot-advise --plot``): P(make) and E[score] per contract
with their 95% intervals, the pass line, and where the hand's point counts fall among the bids.

An HTML variant wraps the same picture and the text table in one self-contained page.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.advice.calibrated import shipped_table
from tarot_advisor.analyzer.advice.heuristic import (
    GARDE_CONTRE_FROM,
    GARDE_FROM,
    GARDE_SANS_FROM,
    PRISE_FROM,
)
from tarot_advisor.analyzer.cards import format_card, format_cards
from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.stats import Z95
from tarot_advisor.reports.charts import BID_COLOURS, BID_LABELS
from tarot_advisor.reports.html import HtmlReport, png_bytes

PASS_COLOUR = "#7b3294"
"""The pass line: a colour no contract has."""
BAREME_LINES = {
    "prise": PRISE_FROM,
    "garde": GARDE_FROM,
    "garde_sans": GARDE_SANS_FROM,
    "garde_contre": GARDE_CONTRE_FROM,
}
"""The barème's lowest count for each bid (rules.md §11)."""


def advice_figure(analysis: Analysis) -> Figure:
    """The picture of ``analysis``: two panels of one row per contract (P(make), E[score]) and
    a strip of the point counts' bid bands."""
    figure = Figure(figsize=(10, 6.2), layout="constrained")
    grid = figure.add_gridspec(2, 2, height_ratios=(3.2, 1.3))
    p_axes, e_axes = figure.add_subplot(grid[0, 0]), figure.add_subplot(grid[0, 1])
    _p_make_panel(p_axes, analysis)
    _score_panel(e_axes, analysis)
    _count_strip(figure.add_subplot(grid[1, :]), analysis)
    where = (
        f"position {analysis.position}"
        if analysis.position is not None
        else f"averaged over positions 1–{analysis.players}"
    )
    advice = BID_LABELS[analysis.recommendation]
    if analysis.called is not None:
        where += f", calling {format_card(analysis.called)}"
    figure.suptitle(
        f"{format_cards(analysis.hand)}\n{analysis.players} players, {where} · "
        f"{analysis.samples_text}, seed {analysis.seed} · "
        f"advice: {advice}",
        fontsize=10.5,
    )
    return figure


def _rows(analysis: Analysis) -> tuple[list, np.ndarray]:
    """The contracts top to bottom (Prise first) and their y positions."""
    contracts = list(analysis.contracts)
    return contracts, np.arange(len(contracts))[::-1].astype(float)


def _tick_labels(axes: Axes, analysis: Analysis, y: np.ndarray, contracts: list) -> None:
    legal = analysis.auction.legal_actions if analysis.auction else tuple(BIDS)
    labels = []
    for contract in contracts:
        label = contract.label
        if contract.value == analysis.recommendation:
            label += " ◀"
        if contract.value not in legal:
            label += "\n(cannot be bid)"
        labels.append(label)
    axes.set_yticks(y, labels)
    for tick, contract in zip(axes.get_yticklabels(), contracts, strict=True):
        if contract.value == analysis.recommendation:
            tick.set_fontweight("bold")


def _p_make_panel(axes: Axes, analysis: Analysis) -> None:
    contracts, y = _rows(analysis)
    for yi, contract in zip(y, contracts, strict=True):
        estimate = analysis.contracts[contract].p_make
        low, high = estimate.wilson() if estimate.n else (estimate.mean, estimate.mean)
        share = 100 * estimate.mean
        axes.barh(yi, share, color=BID_COLOURS[contract.value], alpha=0.85, height=0.6)
        axes.errorbar(
            share,
            yi,
            xerr=[[share - 100 * low], [100 * high - share]],
            color="black",
            capsize=4,
            lw=1,
        )
        # The label goes inside a long bar, after a short one: never on the error bar.
        inside = 100 * low > 30
        axes.text(
            100 * low - 2 if inside else 100 * high + 2,
            yi,
            f"{share:.1f}%",
            ha="right" if inside else "left",
            va="center",
            fontsize=9,
            color="white" if inside else "black",
        )
    axes.axvline(50, color="#aaaaaa", ls=":", lw=1)
    _tick_labels(axes, analysis, y, contracts)
    axes.set_xlim(0, 100)
    axes.set_xlabel("chance of making the contract (%)")
    axes.set_title("P(make), 95% interval", fontsize=10)
    axes.grid(axis="x", alpha=0.3)


def _score_panel(axes: Axes, analysis: Analysis) -> None:
    contracts, y = _rows(analysis)
    means = np.array([analysis.contracts[c].expected_score.mean for c in contracts])
    halves = np.array([Z95 * analysis.contracts[c].expected_score.se for c in contracts])
    halves = np.nan_to_num(halves)
    colours = [BID_COLOURS[c.value] for c in contracts]
    axes.barh(y, means, color=colours, alpha=0.85, height=0.6)
    axes.errorbar(means, y, xerr=halves, fmt="none", color="black", capsize=4, lw=1)
    auction = analysis.auction
    if auction is not None:
        pass_value = auction.expected_pass
        half = Z95 * pass_value.se if math.isfinite(pass_value.se) else 0.0
        axes.axvspan(pass_value.mean - half, pass_value.mean + half, color=PASS_COLOUR, alpha=0.2)
        axes.axvline(
            pass_value.mean,
            color=PASS_COLOUR,
            lw=1.5,
            ls="--",
            label=f"pass: {pass_value.mean:+.1f} (someone else takes, you defend)",
        )
        bid = [
            (yi, auction.values[c.value].mean)
            for yi, c in zip(y, contracts, strict=True)
            if c.value in auction.legal_actions
        ]
        if bid:
            axes.plot(
                [v for _, v in bid],
                [yi for yi, _ in bid],
                "D",
                color="black",
                ms=5,
                mfc="white",
                label="bidding it (overcalls counted)",
            )
    low = min(0.0, float((means - halves).min()))
    high = max(0.0, float((means + halves).max()))
    pad = 0.22 * (high - low or 1.0)
    axes.set_xlim(low - (pad if low < 0 else 0.05 * pad), high + pad)
    for yi, mean, half in zip(y, means, halves, strict=True):
        right = mean >= 0
        axes.text(
            mean + (half if right else -half) + (0.02 if right else -0.02) * pad * 4,
            yi,
            f"{mean:+.0f}",
            ha="left" if right else "right",
            va="center",
            fontsize=9,
        )
    axes.axvline(0, color="#aaaaaa", lw=0.8)
    axes.set_yticks(y, [""] * len(y))
    axes.set_xlabel("taker's expected score (points per deal)")
    axes.set_title("E[score], 95% interval", fontsize=10)
    axes.grid(axis="x", alpha=0.3)
    if auction is not None:
        # Below the axis title, where no bar can be: the legend never hides a contract.
        axes.legend(frameon=False, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16))


def _bands(lines: dict[str, int | None], top: float) -> list[tuple[str, float, float]]:
    """(bid, low, high) of every bid a count can reach, pass first."""
    edges = [("pass", 0.0)] + [(bid, float(v)) for bid, v in lines.items() if v is not None]
    edges.sort(key=lambda edge: edge[1])
    return [
        (bid, low, edges[i + 1][1] if i + 1 < len(edges) else top)
        for i, (bid, low) in enumerate(edges)
    ]


def _count_strip(axes: Axes, analysis: Analysis) -> None:
    """Two rows of bid bands, the barème's and the calibrated count's, each with the hand's
    count marked."""
    count, calibrated = analysis.point_count, analysis.calibrated
    table = shipped_table(analysis.players)
    rows = (
        ("barème", BAREME_LINES, count.points, count.points_with_distribution, 1.0),
        (
            f"calibrated\n({analysis.players} players)",
            table.thresholds,
            calibrated.points,
            None,
            0.0,
        ),
    )
    top = max(110.0, count.points_with_distribution + 10.0, calibrated.points + 10.0)
    for _, lines, points, with_distribution, yi in rows:
        for bid, low, high in _bands(dict(lines), top):
            axes.broken_barh(
                [(low, high - low)], (yi - 0.32, 0.64), color=BID_COLOURS[bid], alpha=0.35, lw=0
            )
            if high - low >= 6:
                axes.text(
                    (low + high) / 2,
                    yi + 0.2,
                    BID_LABELS[bid],
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="#333333",
                )
        axes.plot([points], [yi - 0.1], "v", color="black", ms=9)
        axes.text(
            points, yi - 0.33, f"{points}", ha="center", va="top", fontsize=8, fontweight="bold"
        )
        if with_distribution is not None and with_distribution != points:
            axes.plot([with_distribution], [yi - 0.1], "v", color="black", ms=9, mfc="white")
            axes.text(
                with_distribution + 1.5,
                yi - 0.1,
                f"{with_distribution} with voids and singletons",
                ha="left",
                va="center",
                fontsize=7,
            )
    axes.set_yticks([row[4] for row in rows], [row[0] for row in rows])
    axes.set_ylim(-0.55, 1.5)
    axes.set_xlim(0, top)
    axes.set_xlabel("point count (points); the marker is this hand's")
    axes.set_title("The point count's bid", fontsize=10)


def advice_html(analysis: Analysis, text: str) -> str:
    """A self-contained page: the picture and the text table ``text`` (what the command
    prints) below it."""
    report = HtmlReport(f"Tarot hand analysis: {format_cards(analysis.hand)}")
    report.figure(
        png_bytes(advice_figure(analysis)),
        "P(make) and E[score] per contract, with the pass line and the point count's bid.",
    )
    report.preformatted(text)
    return report.render()
