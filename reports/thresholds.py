"""The bid-threshold study as a report folder: where the barème's lines really lie.

The study's hands are computed and kept by :mod:`.thresholds_folder`, fitted by
:mod:`.thresholds_fit` and charted by :mod:`.thresholds_charts`; this module writes
``summary.json`` and ``report.html``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.studies.study import StudyParameters, code_version
from tarot_advisor.reports.files import write_bytes, write_text
from tarot_advisor.reports.formatting import play_text
from tarot_advisor.reports.html import HtmlReport, json_safe, png_bytes
from tarot_advisor.reports.thresholds_charts import (
    LABELS,
    best_share_chart,
    confusion_chart,
    expected_score_chart,
    p_make_chart,
    poignee_chart,
)
from tarot_advisor.reports.thresholds_fit import (
    BANDWIDTH,
    BOOTSTRAP,
    FITS,
    HEURISTIC_THRESHOLDS,
    fit_thresholds,
)
from tarot_advisor.reports.thresholds_folder import read_run


def confusion(frame: pd.DataFrame) -> pd.DataFrame:
    """Hands counted by heuristic bid (rows) and simulation's best bid (columns)."""
    table = pd.crosstab(frame["heuristic_bid"], frame["best_contract"])
    return table.reindex(index=list(BIDS), columns=list(BIDS), fill_value=0)


def agreement(frame: pd.DataFrame) -> float:
    """Share of hands where the heuristic's bid is the simulation's best."""
    return float((frame["heuristic_bid"] == frame["best_contract"]).mean())


def summarise(frame: pd.DataFrame, parameters: StudyParameters, seconds: float, fits: dict) -> dict:
    """What ``summary.json`` holds."""
    samples = parameters.hands * parameters.samples
    return {
        "players": parameters.players,
        "hands": parameters.hands,
        "samples": parameters.samples,
        "seed": parameters.seed,
        "chunk_hands": parameters.chunk_hands,
        "min_points": parameters.min_points,
        "taker": parameters.taker,
        "defence": parameters.defence,
        "code_version": code_version(),
        "seconds": seconds,
        "hand_samples_per_second": samples / seconds if seconds > 0 else None,
        "agreement": agreement(frame),
        "heuristic_thresholds": dict(HEURISTIC_THRESHOLDS),
        "fitted_thresholds": {
            k: {key: v[key] for key in ("value", "low", "high")} for k, v in fits.items()
        },
        "fit": {
            "method": "Gaussian-kernel local linear regression of per-hand E[score] "
            "differences, last upward crossing of zero; bootstrap over hands",
            "bandwidth_points": BANDWIDTH,
            "bootstrap": BOOTSTRAP,
            "variables": {name: variable for name, _, variable in FITS},
            "crossed_share": {k: v["crossed_share"] for k, v in fits.items()},
        },
        "best_contract_shares": frame["best_contract"]
        .value_counts(normalize=True)
        .reindex(list(BIDS), fill_value=0.0)
        .to_dict(),
    }


def _confusion_table(table: pd.DataFrame) -> pd.DataFrame:
    """The confusion matrix for a reader: labelled rows (heuristic) and columns (best)."""
    shown = table.rename(index=LABELS, columns=LABELS).rename_axis(index=None, columns=None)
    return shown.reset_index().rename(columns={"index": "barème \\ simulation"})


VARIABLE_WORDS = {
    "points": "points without distribution",
    "points_with_distribution": "points with voids and singletons",
}


def left_out(name: str, min_points: int) -> bool:
    """Whether the fit of ``name`` is left out on purpose: a study of strong hands only
    (``min_points``) fits only the lines read against the points with distribution."""
    variable = {contract: v for contract, _, v in FITS}[name]
    return bool(min_points) and variable != "points_with_distribution"


def unfitted_sentence(fitted: dict, min_points: int) -> str | None:
    """The sentence that says which lines a study was too small to fit, and what to do;
    ``fitted``: ``{contract: {"value": …}}``."""
    unfitted = [
        LABELS[name]
        for name, fit in fitted.items()
        if fit["value"] is None and not left_out(name, min_points)
    ]
    if not unfitted:
        return None
    return (
        f"Too few hands on either side of the line to fit {', '.join(unfitted)}: study more "
        "hands (--hands), or stronger ones (--min-points) for the upper lines."
    )


def _fitted(name: str, fit: dict, min_points: int) -> str:
    if fit["value"] is not None:
        return f"{fit['value']:.1f}"
    return "not fitted (strong hands only)" if left_out(name, min_points) else "too few hands"


def _threshold_table(fits: dict, min_points: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "contract": [LABELS[name] for name, _, _ in FITS],
            "overtakes": ["Pass" if p is None else LABELS[p] for _, p, _ in FITS],
            "read against": [VARIABLE_WORDS[v] for _, _, v in FITS],
            "barème's line": [HEURISTIC_THRESHOLDS[name] for name, _, _ in FITS],
            "fitted line": [_fitted(name, fits[name], min_points) for name, _, _ in FITS],
            "95 % interval": [
                "–" if fits[n]["low"] is None else f"{fits[n]['low']:.1f} – {fits[n]['high']:.1f}"
                for n, _, _ in FITS
            ],
        }
    )


def write_report(out: Path, frame: pd.DataFrame, parameters: StudyParameters) -> dict:
    """Fit, chart and write ``summary.json``, the PNG charts and ``report.html`` into ``out``;
    returns the summary."""
    run = read_run(out) or {}
    seconds = float(run.get("compute_seconds", 0.0))
    fits = fit_thresholds(frame, seed=parameters.seed, min_points=parameters.min_points)
    summary = summarise(frame, parameters, seconds, fits)
    write_text(out / "summary.json", json.dumps(json_safe(summary), indent=1) + "\n")
    table = confusion(frame)
    players = parameters.players
    called = (
        " With 5 players the taker calls the king (or the rank to call) of its longest suit "
        "among those where it lacks that card (calling.longest_suit_call)."
        if players == 5
        else ""
    )
    only = (
        f"; only hands of {parameters.min_points} points with distribution or more, so every "
        "share below is of those hands, and the Prise and Garde thresholds, read against the "
        "points without distribution, are not fitted"
        if parameters.min_points
        else ""
    )
    charts_by_stem = _charts(frame, summary, table, players)
    for stem, (figure, _) in charts_by_stem.items():
        write_bytes(out / f"{stem}.png", png_bytes(figure))

    report = HtmlReport(f"Where the bid thresholds lie: {players}-player hands")
    report.paragraph(
        f"{parameters.hands:,} random hands for {players} players (petit sec excluded{only}), "
        "each at "
        f"a random position, each analysed on {parameters.samples:,} random deals of the other "
        f"cards (seed {parameters.seed}). Every contract is played on the same deals, the cards "
        f"played by {play_text(parameters.sides)}; the score is the taker's total, poignée "
        f"hidden and chelem not announced.{called}"
    )
    report.paragraph(
        "Prise and Garde are read against the barème's points, Garde Sans and Garde Contre "
        "against the points with voids and singletons, as the barème counts distribution only "
        "toward those two. A fitted threshold is where a local linear fit (Gaussian kernel, "
        f"{BANDWIDTH:g} points) of the per-hand difference of expected scores crosses zero for "
        f"good; its 95 % interval comes from {BOOTSTRAP} bootstrap resamples of the hands.",
        css_class="note",
    )
    report.heading("Fitted thresholds")
    report.table(_threshold_table(fits, parameters.min_points))
    sentence = unfitted_sentence(fits, parameters.min_points)
    if sentence is not None:
        report.paragraph(sentence)
    report.paragraph(
        "Prise and Garde are played the same way and Garde doubles every term of the score "
        "but the unannounced chelem's bonus, so in expectation Garde beats Prise exactly where "
        "Prise beats passing: their fitted thresholds agree by construction. The barème's gap "
        "between them prices the risk, which an expected score does not.",
        css_class="note",
    )
    sections = (
        ("Making each contract", "p_make"),
        ("Expected score", "expected_score"),
        ("The best bid", "best_share"),
        ("The barème against the simulation", "confusion"),
        ("The poignée", "poignee"),
    )
    for title, stem in sections:
        report.heading(title)
        figure, caption = charts_by_stem[stem]
        report.figure((out / f"{stem}.png").read_bytes(), caption)
        if stem == "confusion":
            report.table(_confusion_table(table))
    report.write(out / "report.html")
    return summary


def _charts(
    frame: pd.DataFrame, summary: dict, table: pd.DataFrame, players: int
) -> dict[str, tuple[Figure, str]]:
    """The report's charts by file stem, each with its caption."""
    rate = summary["agreement"]
    return {
        "p_make": (
            p_make_chart(frame, players),
            "The chance of making each contract, averaged over the hands of each 4-point bin "
            "(95 % band), against the point count; dotted lines are the barème's thresholds "
            "(Prise and Garde are played alike, so their curves coincide).",
        ),
        "expected_score": (
            expected_score_chart(frame, summary["fitted_thresholds"], players),
            "The taker's expected score of each contract by point-count bin (95 % band); dashed "
            "lines mark where the fit finds each contract overtaking the previous one, dotted "
            "lines the barème's thresholds.",
        ),
        "best_share": (
            best_share_chart(frame, players),
            "For each 5-point bin, the share of hands whose best bid (highest expected score, "
            "pass if none is positive) is each contract.",
        ),
        "confusion": (
            confusion_chart(table, rate, players),
            "How many hands the barème sends to each bid (rows) against the simulation's best "
            "bid (columns); the diagonal is agreement.",
        ),
        "poignee": (
            poignee_chart(frame, players),
            "What showing the poignée is worth under the best contract (expected score shown "
            "minus hidden, 95 % interval, hands counted above each bar), by the trumps and "
            "Excuse the hand holds, over the hands that could show one.",
        ),
    }
