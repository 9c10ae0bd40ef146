"""The printable card of a calibrated point count: its items, its bid bands, two worked
examples and what each count costs (a matplotlib Figure)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.analyzer.advice.calibrated import CountTable, calibrated_count, item_labels
from tarot_advisor.analyzer.cards import format_cards
from tarot_advisor.analyzer.game import BIDS, Contract
from tarot_advisor.reports.pointcount_fit import METHOD_LABELS, METHODS, StudyHands

LABELS = {"pass": "Pass", **{c.value: c.label for c in Contract}}
SHORT = {
    "21": "21",
    "excuse": "Excuse",
    "petit": "Petit",
    "petit_guarded": "Petit guarded",
    "trump": "trumps",
    "long_trump": "long trumps",
    "major": "16–20",
    "king": "kings",
    "queen": "queens",
    "cavalier": "cavaliers",
    "valet": "valets",
    "king_queen": "R+D",
    "guarded_queen": "guarded D",
    "long_suit": "long suit cards",
    "void": "voids",
    "singleton": "singletons",
    "doubleton": "doubletons",
}
"""Short names of the items, for the worked examples."""
METHOD_COLOURS = {
    "seed": "#c44e52",
    "seed_refitted": "#dd8452",
    "calibrated": "#55a868",
    "pass": "#999999",
}


@dataclass(frozen=True)
class Example:
    """A worked example: the hand (card ids), its count, bid and the best bid."""

    hand: tuple[int, ...]
    points: int
    bid: str
    best: str
    breakdown: dict[str, int]


def worked_examples(hands: StudyHands, table: CountTable) -> list[Example]:
    """Two hands of the study the count bids on as the simulation does: a bid a few points
    over the lowest line, and a pass a few points under it."""
    points = table.points(hands.counts)
    bids = np.array(BIDS, object)[table.bids(points)]
    agree = bids == hands.best
    lowest = min((line for line in table.thresholds.values() if line is not None), default=None)
    examples = []
    if lowest is None:
        return examples
    for wanted, bidding in ((lowest + 4, True), (lowest - 3, False)):
        pool = np.flatnonzero(agree & ((bids != "pass") == bidding))
        if pool.size == 0:
            continue
        index = int(pool[np.argmin(np.abs(points[pool] - wanted))])
        hand = tuple(int(c) for c in hands.hands[index])
        count = calibrated_count(hand, table.players, table)
        examples.append(
            Example(hand, count.points, count.bid, str(hands.best[index]), dict(count.breakdown))
        )
    return examples


def _bands(table: CountTable) -> list[str]:
    """One line per bid the count can make: its range of points."""
    lines = [table.thresholds[b] for b in BIDS[1:]]
    edges = [None, *lines, None]
    rows = []
    for index, bid in enumerate(BIDS):
        low, high = edges[index], next((x for x in edges[index + 1 :] if x is not None), None)
        if (index and low is None) or (low is not None and high is not None and high <= low):
            rows.append(f"{LABELS[bid]:<13}never")
            continue
        if low is None:
            text = f"under {high}" if high is not None else "always"
        elif high is None:
            text = f"{low} and over"
        else:
            text = f"{low} to {high - 1}"
        rows.append(f"{LABELS[bid]:<13}{text}")
    return rows


def card(table: CountTable, held_out: pd.DataFrame, examples: list[Example]) -> Figure:
    """The card: items and points (left), bid bands, worked examples, regret by method."""
    players = table.players
    figure = Figure(figsize=(11.0, 7.4))
    figure.text(
        0.02,
        0.97,
        f"Calibrated point count — {players} players",
        fontsize=16,
        weight="bold",
        va="top",
    )
    labels = item_labels(players)
    items = [(labels[name], points) for name, points in table.weights.items() if points]
    rows = [f"{label:<52}{points:+d}" for label, points in items]
    figure.text(0.02, 0.90, "Add up", fontsize=11, weight="bold", va="top")
    figure.text(0.02, 0.865, "\n".join(rows), family="monospace", fontsize=9, va="top")
    figure.text(0.02, 0.40, "Then bid", fontsize=11, weight="bold", va="top")
    figure.text(0.02, 0.365, "\n".join(_bands(table)), family="monospace", fontsize=10, va="top")
    figure.text(
        0.02,
        0.12,
        "Every item counts toward every bid.\n"
        f"Fitted by simulation: {table.provenance.get('hands', '?'):,} hands × "
        f"{table.provenance.get('samples', '?'):,} deals, seed {table.provenance.get('seed')}.",
        fontsize=8,
        color="#555555",
        va="top",
    )
    y = 0.90
    for number, example in enumerate(examples, start=1):
        hand = "\n".join(textwrap.wrap(format_cards(example.hand), 52))
        sum_text = ""
        for name, points in example.breakdown.items():
            weight = abs(table.weights[name])
            times = abs(points) // weight
            term = f"{SHORT[name]} {times}×{weight}" if times > 1 else f"{SHORT[name]} {weight}"
            sign = "− " if points < 0 else ("+ " if sum_text else "")
            sum_text += (" " if sum_text else "") + sign + term
        figure.text(0.50, y, f"Example {number}", fontsize=11, weight="bold", va="top")
        body = (
            f"{hand}\n"
            + "\n".join(textwrap.wrap(sum_text, 60))
            + f"\n= {example.points} → {LABELS[example.bid]}"
            + f"   (the simulation's best bid: {LABELS[example.best]})"
        )
        figure.text(0.50, y - 0.035, body, family="monospace", fontsize=8, va="top")
        y -= 0.25
    axes = figure.add_axes((0.56, 0.08, 0.40, 0.30))
    rows = held_out.set_index("method").loc[list(METHODS)]
    positions = np.arange(len(rows))
    axes.barh(
        positions,
        rows["regret"],
        xerr=rows["regret_se"],
        color=[METHOD_COLOURS[m] for m in rows.index],
    )
    # Each label after its error bar, never on it.
    ends = rows["regret"] + rows["regret_se"]
    for position, value, end in zip(positions, rows["regret"], ends, strict=True):
        axes.text(end, position, f"  {value:.1f}", va="center", fontsize=9)
    axes.set_yticks(positions, [METHOD_LABELS[m] for m in rows.index])
    axes.invert_yaxis()
    axes.set_xlabel("points lost per hand vs the simulation's best bid (held out, ± 1 SE)")
    axes.set_xlim(0, float(ends.max()) * 1.3)
    axes.set_title("Points lost per hand against the best bid", fontsize=10)
    axes.grid(axis="x", alpha=0.3)
    return figure
