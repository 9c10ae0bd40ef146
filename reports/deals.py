"""Deal statistics: what random deals look like, measured and set beside the exact laws.

Deals are dealt uniformly *without* rejecting petit sec (the study measures it). For one hand
(seat 0), the chien and the deal as a whole, each chunk of deals returns summed counts
(histograms), so merging chunks is exact and a given seed gives the same numbers whatever the
number of workers. Every figure comes with its standard error ``sqrt(p (1 - p) / N)`` and, when
the exact probability is known (:mod:`tarot_advisor.analyzer.exact`), with the z-score
``(simulated - exact) / sqrt(exact (1 - exact) / N)``.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.analyzer import exact
from tarot_advisor.analyzer.advice.heuristic import (
    GARDE_CONTRE_FROM,
    GARDE_FROM,
    GARDE_SANS_FROM,
    PRISE_FROM,
    heuristic_bids,
    point_counts,
)
from tarot_advisor.analyzer.cards import IS_BOUT, IS_KING, IS_TRUMP, SUIT, trumps_and_excuse
from tarot_advisor.analyzer.game import (
    BIDS,
    POIGNEE_NAMES,
    chien_size,
    hand_size,
    poignee_thresholds,
)
from tarot_advisor.analyzer.parallel import DEFAULT_SEED, map_chunks
from tarot_advisor.analyzer.playout.deal import deal, petit_sec
from tarot_advisor.reports import charts
from tarot_advisor.reports.charts import BID_LABELS
from tarot_advisor.reports.files import write_bytes, write_text
from tarot_advisor.reports.formatting import percent, percent_error, signed
from tarot_advisor.reports.html import HtmlReport, json_safe, png_bytes

CHUNK_SIZE = 50_000
"""Deals per chunk. Fixed: the result depends on it, never on the number of workers."""
MAX_POINTS = 256
"""Point counts at or above this are clipped into the last histogram bin (none come near)."""


def _bincount(values: np.ndarray, length: int) -> np.ndarray:
    return np.bincount(values.ravel(), minlength=length).astype(np.int64)


def count_chunk(rng: np.random.Generator, n: int, players: int) -> dict[str, np.ndarray]:
    """Histograms of ``n`` random deals: name → (K,) int64 counts of the values 0…K-1."""
    deals = deal(rng, n, players)
    hand = deals.hands[:, 0]
    h = hand_size(players)
    suit_lengths = np.stack([(SUIT[hand] == s).sum(axis=1) for s in range(4)], axis=1)
    trumps_excuse = trumps_and_excuse(deals.hands)  # (n, players)
    points, with_distribution = point_counts(hand)
    return {
        "trumps_in_hand": _bincount(IS_TRUMP[hand].sum(axis=1), min(21, h) + 1),
        "trumps_and_excuse_in_hand": _bincount(trumps_excuse[:, 0], min(22, h) + 1),
        "bouts_in_hand": _bincount(IS_BOUT[hand].sum(axis=1), 4),
        "bouts_in_chien": _bincount(
            IS_BOUT[deals.chien].sum(axis=1), min(3, chien_size(players)) + 1
        ),
        "kings_in_hand": _bincount(IS_KING[hand].sum(axis=1), 5),
        "suit_length_in_hand": _bincount(suit_lengths[:, 0], 15),
        "voids_in_hand": _bincount((suit_lengths == 0).sum(axis=1), 5),
        "singletons_in_hand": _bincount((suit_lengths == 1).sum(axis=1), 5),
        "longest_suit_in_hand": _bincount(suit_lengths.max(axis=1), 15),
        "petit_sec_in_hand": _bincount(petit_sec(hand).astype(np.intp), 2),
        "petit_sec_in_deal": _bincount(petit_sec(deals.hands).any(axis=1).astype(np.intp), 2),
        "most_trumps_and_excuse_in_deal": _bincount(trumps_excuse.max(axis=1), 23),
        "points": _bincount(np.minimum(points, MAX_POINTS - 1), MAX_POINTS),
        "points_with_distribution": _bincount(
            np.minimum(with_distribution, MAX_POINTS - 1), MAX_POINTS
        ),
        "heuristic_bid": _bincount(heuristic_bids(points, with_distribution), len(BIDS)),
    }


@dataclass(frozen=True)
class DealStudy:
    """Summed histograms of a deal study (see :func:`count_chunk` for the names)."""

    players: int
    deals: int
    seed: int
    seconds: float
    counts: dict[str, np.ndarray]

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else math.inf


def run_deal_study(
    players: int,
    n_deals: int,
    *,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    backend: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> DealStudy:
    """Deal ``n_deals`` random deals on ``jobs`` workers and sum their histograms."""
    start = time.perf_counter()
    chunks = map_chunks(
        count_chunk,
        n_deals,
        seed=seed,
        chunk_size=CHUNK_SIZE,
        jobs=jobs,
        backend=backend,
        on_done=on_done,
        players=players,
    )
    counts = {name: sum(chunk[name] for chunk in chunks) for name in chunks[0]} if chunks else {}
    return DealStudy(players, n_deals, seed, time.perf_counter() - start, counts)


def _row(name: str, count: int, n: int, exact_p: float | None) -> dict[str, object]:
    p = count / n if n else math.nan
    stderr = math.sqrt(p * (1 - p) / n) if n else math.nan
    z = None
    if exact_p is not None and 0 < exact_p < 1 and n:
        z = (p - exact_p) / math.sqrt(exact_p * (1 - exact_p) / n)
    return {"name": name, "count": int(count), "simulated": p, "stderr": stderr,
            "exact": exact_p, "z": z}  # fmt: skip


def _distribution_rows(
    name: str, counts: np.ndarray, n: int, law: list[float] | None
) -> list[dict[str, object]]:
    rows = []
    for k in range(len(counts)):
        exact_p = law[k] if law is not None and k < len(law) else None
        rows.append(_row(f"{name}={k}", counts[k], n, exact_p))
    return rows


def statistics(study: DealStudy) -> pd.DataFrame:
    """One row per statistic: ``name``, ``count``, ``simulated``, ``stderr``, ``exact``
    (None when unknown) and ``z``."""
    players, n, c = study.players, study.deals, study.counts
    rows: list[dict[str, object]] = []
    laws = {
        "bouts_in_hand": exact.bouts_in_hand(players),
        "bouts_in_chien": exact.bouts_in_chien(players),
        "kings_in_hand": exact.kings_in_hand(players),
        "trumps_in_hand": exact.trumps_in_hand(players),
        "trumps_and_excuse_in_hand": exact.trumps_and_excuse_in_hand(players),
        "suit_length_in_hand": exact.suit_length_in_hand(players),
        "voids_in_hand": exact.voids_in_hand(players),
        "singletons_in_hand": exact.singletons_in_hand(players),
        "longest_suit_in_hand": exact.longest_suit_in_hand(players),
    }
    for name, law in laws.items():
        rows += _distribution_rows(name, c[name], n, law)

    in_hand, in_deal = exact.poignees_in_hand(players), exact.poignees_in_deal(players)
    hand_counts, deal_counts = c["trumps_and_excuse_in_hand"], c["most_trumps_and_excuse_in_deal"]
    for kind, threshold, p_hand, p_deal in zip(
        POIGNEE_NAMES, poignee_thresholds(players), in_hand, in_deal, strict=True
    ):
        rows.append(_row(f"poignee_{kind}_in_hand", hand_counts[threshold:].sum(), n, p_hand))
        rows.append(_row(f"poignee_{kind}_in_deal", deal_counts[threshold:].sum(), n, p_deal))
    rows.append(_row("void_in_given_suit", c["suit_length_in_hand"][0], n,
                     exact.void_in_given_suit(players)))  # fmt: skip
    rows.append(_row("petit_sec_in_hand", c["petit_sec_in_hand"][1], n,
                     exact.petit_sec_in_hand(players)))  # fmt: skip
    rows.append(_row("petit_sec_in_deal", c["petit_sec_in_deal"][1], n,
                     exact.petit_sec_in_deal(players)))  # fmt: skip
    for index, bid in enumerate(BIDS):
        rows.append(_row(f"heuristic_bid={bid}", c["heuristic_bid"][index], n, None))
    return pd.DataFrame(rows)


def bid_bands() -> list[tuple[str, float, float]]:
    """``(bid, low, high)`` of each bid of the barème (:data:`~.game.BIDS`), as point ranges
    ``low ≤ p < high``."""
    edges = [0, PRISE_FROM, GARDE_FROM, GARDE_SANS_FROM, GARDE_CONTRE_FROM, math.inf]
    return [(bid, edges[i], edges[i + 1]) for i, bid in enumerate(BIDS)]


def point_count_table(study: DealStudy) -> pd.DataFrame:
    """Share of hands (seat 0) with each point count, without and with distribution points."""
    n = study.deals
    points, with_distribution = study.counts["points"], study.counts["points_with_distribution"]
    top = int(np.flatnonzero(with_distribution).max(initial=0)) + 1
    return pd.DataFrame(
        {
            "points": np.arange(top),
            "hands": points[:top],
            "share": points[:top] / n,
            "hands_with_distribution": with_distribution[:top],
            "share_with_distribution": with_distribution[:top] / n,
        }
    )


def _distribution_table(stats: pd.DataFrame, name: str) -> pd.DataFrame:
    rows = stats[stats["name"].str.startswith(f"{name}=")].copy()
    rows["value"] = rows["name"].str.split("=").str[1].astype(int)
    rows["exact"] = rows["exact"].astype(float)
    return rows


def _player_table(stats: pd.DataFrame, name: str, header: str) -> pd.DataFrame:
    """The rows of one distribution, for a reader: the value (under ``header``), then the
    simulated share, its standard error, the exact probability and z."""
    rows = _distribution_table(stats, name)
    return _format(rows.assign(name=rows["value"]), header)


def _plain_names(players: int) -> dict[str, str]:
    """The report's names of the single statistics, as a player says them."""
    names = {f"heuristic_bid={bid}": BID_LABELS[bid] for bid in BIDS}
    kinds = zip(POIGNEE_NAMES, poignee_thresholds(players), strict=True)
    for kind, threshold in kinds:
        poignee = f"{kind} poignée ({threshold}+ trumps, Excuse included)"
        names[f"poignee_{kind}_in_hand"] = f"{poignee} in one hand"
        names[f"poignee_{kind}_in_deal"] = f"{poignee} in some hand"
    names |= {
        "void_in_given_suit": "one hand void in a given suit (say ♠)",
        "petit_sec_in_hand": "petit sec in one hand",
        "petit_sec_in_deal": "petit sec in some hand (the deal is void)",
    }
    return names


def _format(rows: pd.DataFrame, header: str, names: dict[str, str] | None = None) -> pd.DataFrame:
    """Statistics rows as a reader's table: percentages (odds when tiny), plain headers."""
    labels = rows["name"].astype(str)
    if names is not None:
        labels = labels.map(lambda name: names.get(name, name))
    return pd.DataFrame(
        {
            header: labels.to_numpy(),
            "simulated share": [percent(x) for x in rows["simulated"]],
            "± standard error": [percent_error(x) for x in rows["stderr"]],
            "exact probability": [percent(x) for x in rows["exact"]],
            "z (standard errors from exact)": [signed(z) for z in rows["z"]],
        }
    )


def figures(study: DealStudy, stats: pd.DataFrame) -> dict[str, tuple[Figure, str]]:
    """The report's charts: file stem → (Figure, the sentence that says what it shows)."""
    n = study.deals
    trumps = _distribution_table(stats, "trumps_in_hand")
    bouts = _distribution_table(stats, "bouts_in_hand")
    chien = _distribution_table(stats, "bouts_in_chien")
    longest = _distribution_table(stats, "longest_suit_in_hand")
    bids = stats[stats["name"].str.startswith("heuristic_bid=")].assign(
        bid=[BID_LABELS[bid] for bid in BIDS]
    )
    players = study.players
    of = f"{players} players, {hand_size(players)} cards a hand"
    return {
        "trumps_in_hand": (
            charts.simulated_vs_exact(
                trumps, f"Trumps in one hand ({of})", "trumps in the hand (the Excuse not counted)"
            ),
            "How many of the 21 trumps one hand holds: the bars are the simulated deals, the dots "
            "the exact probabilities; they should agree within the error bars.",
        ),
        "point_count": (
            charts.point_count_chart(
                study.counts["points"] / n,
                study.counts["points_with_distribution"] / n,
                bid_bands(),
                f"The barème's point count of one hand ({of})",
            ),
            "The barème's point count of one hand; the shaded bands are the bids it suggests "
            "(voids and singletons, the red line, count only toward Garde Sans and Garde Contre).",
        ),
        "heuristic_bids": (
            charts.shares_chart(bids, f"Bid the barème suggests ({of})", "bid"),
            "How often the point count tells one hand to pass or to bid each contract.",
        ),
        "bouts_in_hand": (
            charts.simulated_vs_exact(
                bouts, f"Bouts in one hand ({of})", "bouts in the hand (Petit, 21, Excuse)"
            ),
            "How many of the three bouts (Petit, 21, Excuse) one hand holds, simulated and exact.",
        ),
        "bouts_in_chien": (
            charts.simulated_vs_exact(
                chien,
                f"Bouts in the chien ({players} players, a chien of {chien_size(players)})",
                "bouts in the chien",
            ),
            "How many bouts lie in the chien, simulated and exact.",
        ),
        "longest_suit": (
            charts.simulated_vs_exact(
                longest, f"Longest suit of one hand ({of})", "cards in the longest plain suit"
            ),
            "The length of one hand's longest plain suit, simulated and exact.",
        ),
    }


_SECTIONS = (
    ("Trumps in one hand", ("trumps_in_hand",), ("trumps_in_hand",)),
    ("The point count", ("point_count", "heuristic_bids"), ()),
    ("Bouts", ("bouts_in_hand", "bouts_in_chien"), ("bouts_in_hand", "bouts_in_chien")),
    ("Kings in one hand", (), ("kings_in_hand",)),
    (
        "Suits of one hand",
        ("longest_suit",),
        ("longest_suit_in_hand", "voids_in_hand", "singletons_in_hand"),
    ),
)
"""The report's sections: title, charts (file stems), distribution tables."""
_TABLE_HEADERS = {
    "trumps_in_hand": "trumps",
    "bouts_in_hand": "bouts in the hand",
    "bouts_in_chien": "bouts in the chien",
    "kings_in_hand": "kings",
    "longest_suit_in_hand": "cards in the longest suit",
    "voids_in_hand": "void suits",
    "singletons_in_hand": "singleton suits",
}
"""The first column's header of each distribution's table."""


def write_deal_report(
    study: DealStudy, out: Path, stats: pd.DataFrame | None = None
) -> dict[str, object]:
    """Write report.html, the charts as PNG, the CSV tables and summary.json into ``out``.

    ``stats``: :func:`statistics` of the study, when already computed. Returns the summary
    (what summary.json holds).
    """
    out.mkdir(parents=True, exist_ok=True)
    if stats is None:
        stats = statistics(study)
    write_text(out / "stats.csv", stats.to_csv(index=False))
    write_text(out / "point_counts.csv", point_count_table(study).to_csv(index=False))
    summary = {
        "players": study.players,
        "deals": study.deals,
        "seed": study.seed,
        "seconds": study.seconds,
        "deals_per_second": study.deals_per_second,
        "stats": [
            {"name": r.name, "simulated": r.simulated, "exact": r.exact, "stderr": r.stderr}
            for r in stats[["name", "simulated", "exact", "stderr"]].itertuples(index=False)
        ],
    }
    write_text(out / "summary.json", json.dumps(json_safe(summary), indent=1) + "\n")

    report = HtmlReport(f"What {study.players}-player deals look like")
    report.paragraph(
        f"{study.deals:,} random deals for {study.players} players (seed {study.seed}), each "
        f"hand of {hand_size(study.players)} cards and a chien of {chien_size(study.players)}. "
        "'One hand' is the hand of the player who speaks first; any other seat behaves the same."
    )
    report.paragraph(
        "Each figure is a share of deals with its standard error (± s.e.); where the exact "
        "probability is known, z says how many standard errors the simulation lies from it "
        "(|z| below 3 is the normal wobble of chance).",
        css_class="note",
    )
    charts_by_stem = figures(study, stats)
    for stem, (figure, _) in charts_by_stem.items():
        write_bytes(out / f"{stem}.png", png_bytes(figure))
    for title, stems, table_names in _SECTIONS:
        report.heading(title)
        for stem in stems:
            figure, caption = charts_by_stem[stem]
            report.figure((out / f"{stem}.png").read_bytes(), caption)
        for name in table_names:
            report.table(_player_table(stats, name, _TABLE_HEADERS[name]))
    names = _plain_names(study.players)
    report.heading("Bids the barème suggests")
    report.table(_format(stats[stats["name"].str.startswith("heuristic_bid=")], "bid", names))
    report.heading("Poignées, petit sec and voids")
    report.table(
        _format(stats[~stats["name"].str.contains("=")], "what", names),
        "'One hand' is one given hand; 'some hand' is any hand of the deal. A poignée counts "
        "the trumps and the Excuse; petit sec is the Petit as the only trump without the Excuse "
        "(the deal is then void). Probabilities below 1 in 10,000 are given as odds.",
    )
    report.write(out / "report.html")
    return summary


def largest_z(stats: pd.DataFrame) -> tuple[str, float] | None:
    """The statistic farthest from its exact value, in standard errors, or None."""
    z = pd.to_numeric(stats["z"], errors="coerce").abs()
    if z.notna().sum() == 0:
        return None
    index = z.idxmax()
    return str(stats.loc[index, "name"]), float(stats.loc[index, "z"])
