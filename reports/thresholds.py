"""The bid-threshold study as a report folder: where the barème's lines really lie.

The folder holds ``run.json`` (the parameters, a digest of the analyser's code and the
computing seconds spent so far), ``chunks/NNNNN.csv`` (each chunk's hands, written atomically
as soon as the chunk is done), ``hands.csv`` (the chunks put together), the PNG charts,
``report.html`` and ``summary.json``. A run that stops — Ctrl-C, a lost worker, a full
disk — keeps every chunk already written; resuming computes only the missing chunks, and since
each chunk's numbers depend only on the seed and the study's sizes (:mod:`analyzer.study`), the
final ``hands.csv`` is the same, byte for byte, as an uninterrupted run's.

The fitted threshold of a contract is the point count from which its expected score stays above
the previous choice's (pass, i.e. 0, for Prise; Prise for Garde; Garde for Garde Sans; Garde
Sans for Garde Contre): a local linear regression (Gaussian kernel) of the per-hand score
differences against the point count, its last upward crossing of zero inside the range the
data cover. Prise and Garde are read against ``points``, Garde Sans and Garde Contre against
``points_with_distribution`` (the barème counts voids and singletons only toward those). The
95 % interval comes from a bootstrap over hands.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.analyzer.cards import EXCUSE, IS_TRUMP, parse_cards
from tarot_advisor.analyzer.game import BIDS, Contract, hand_size
from tarot_advisor.analyzer.heuristic import (
    GARDE_CONTRE_FROM,
    GARDE_FROM,
    GARDE_SANS_FROM,
    PRISE_FROM,
)
from tarot_advisor.analyzer.study import StudyParameters, code_version, run_chunks
from tarot_advisor.reports import charts
from tarot_advisor.reports.html import HtmlReport, json_safe, png_bytes

RUN_FILE = "run.json"
CHUNKS = "chunks"
HANDS_FILE = "hands.csv"
FLOAT_FORMAT = "%.6g"
"""Enough digits for means of a few thousand samples; fixed so that files compare byte by byte."""

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
BIN_WIDTH = 4
COLOURS = {
    "pass": "#999999",
    "prise": "#4c72b0",
    "garde": "#55a868",
    "garde_sans": "#dd8452",
    "garde_contre": "#c44e52",
}
LABELS = {"pass": "Pass", **{c.value: c.label for c in Contract}}


class StudyFolderError(ValueError):
    """The output folder cannot take this run (it holds another study, or results without
    ``--resume``)."""


@dataclass(frozen=True)
class RunOutcome:
    """What one call of :func:`run_study` did."""

    computed: int
    """Chunks computed by this call."""
    kept: int
    """Chunks found already done (resumed)."""
    seconds: float
    """Wall-clock seconds this call spent computing."""


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and :func:`os.replace`, so that the
    file is either absent or complete, never half written."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def chunk_path(out: Path, index: int) -> Path:
    return out / CHUNKS / f"{index:05d}.csv"


def _read_run(out: Path) -> dict | None:
    path = out / RUN_FILE
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise StudyFolderError(f"{path} is not a study's run.json ({error})") from None


def _holds_results(out: Path) -> bool:
    """Whether ``out`` holds a report's files (this study's or another's) that a run would
    overwrite."""
    chunks = out / CHUNKS
    files = (RUN_FILE, HANDS_FILE, "summary.json", "report.html")
    return any((out / name).exists() for name in files) or (
        chunks.is_dir() and any(chunks.iterdir())
    )


def prepare_folder(out: Path, parameters: StudyParameters, *, resume: bool) -> None:
    """Check that ``out`` can take this run and record its parameters in ``run.json``.

    Raises :class:`StudyFolderError` when ``out`` holds results and ``resume`` is false, holds
    results but no study to resume, or holds a study with other parameters.
    """
    wanted = parameters.to_dict()
    previous = _read_run(out) if resume else None
    if previous is None and out.exists() and _holds_results(out):
        if resume:
            raise StudyFolderError(
                f"{out} holds results but no {RUN_FILE} of a thresholds study to resume: "
                "choose another folder"
            )
        raise StudyFolderError(
            f"{out} already holds a study's results: add --resume to finish or reuse it, "
            "or choose another folder"
        )
    if previous is not None and previous.get("code") != code_version():
        raise StudyFolderError(
            f"the analyser's code has changed since the study in {out} began, and resuming "
            "would mix the numbers of two versions: run it again in another folder"
        )
    if previous is not None:
        stored = {key: previous.get(key) for key in wanted}
        if stored != wanted:
            differ = ", ".join(
                f"{k} {stored[k]} (asked {wanted[k]})" for k in wanted if stored[k] != wanted[k]
            )
            raise StudyFolderError(
                f"{out} holds a study with other parameters ({differ}): resume it with the "
                "same ones, or choose another folder"
            )
    (out / CHUNKS).mkdir(parents=True, exist_ok=True)
    if previous is None:
        _write_atomically(
            out / RUN_FILE,
            json.dumps({**wanted, "code": code_version(), "compute_seconds": 0.0}) + "\n",
        )


def missing_chunks(out: Path, parameters: StudyParameters) -> list[int]:
    """The chunks whose file is not there yet, in order."""
    return [k for k in range(parameters.n_chunks) if not chunk_path(out, k).exists()]


def run_study(
    out: Path,
    parameters: StudyParameters,
    *,
    resume: bool = False,
    jobs: int = 1,
    backend: str | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Compute the missing chunks of the study in ``out``, each written as soon as it is done.

    ``on_chunk`` receives the number of hands done so far (those resumed included). Whatever
    stops the run (an exception, Ctrl-C), the chunks written stay, and the computing time spent
    is added to ``run.json``.
    """
    out.mkdir(parents=True, exist_ok=True)
    prepare_folder(out, parameters, resume=resume)
    todo = missing_chunks(out, parameters)
    done_hands = parameters.hands - sum(parameters.chunk_hands_of(k) for k in todo)
    if on_chunk is not None:
        on_chunk(done_hands)
    start = time.perf_counter()
    computed = 0
    try:
        for index, frame in run_chunks(parameters, todo, jobs=jobs, backend=backend):
            text = frame.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
            _write_atomically(chunk_path(out, index), text)
            computed += 1
            done_hands += len(frame)
            if on_chunk is not None:
                on_chunk(done_hands)
    finally:
        seconds = time.perf_counter() - start
        if computed:
            run = _read_run(out) or parameters.to_dict()
            run["compute_seconds"] = float(run.get("compute_seconds", 0.0)) + seconds
            _write_atomically(out / RUN_FILE, json.dumps(run) + "\n")
    return RunOutcome(computed, parameters.n_chunks - len(todo), seconds if computed else 0.0)


def assemble(out: Path, parameters: StudyParameters) -> pd.DataFrame:
    """Join the chunk files, in order, into ``hands.csv`` and return its table.

    The file is the chunks' text put end to end (one header), so it depends only on them.
    """
    missing = missing_chunks(out, parameters)
    if missing:
        raise StudyFolderError(
            f"{len(missing)} chunk(s) of {parameters.n_chunks} are missing in {out / CHUNKS}: "
            "run again with --resume"
        )
    parts = []
    for index in range(parameters.n_chunks):
        text = chunk_path(out, index).read_text(encoding="utf-8")
        header, _, body = text.partition("\n")
        if index == 0:
            parts.append(header + "\n")
        parts.append(body)
    _write_atomically(out / HANDS_FILE, "".join(parts))
    return pd.read_csv(out / HANDS_FILE, keep_default_na=False, na_values=[""])


# --- The fit -----------------------------------------------------------------------------------


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


# --- Tables ------------------------------------------------------------------------------------


def trumps_in_hand(frame: pd.DataFrame) -> np.ndarray:
    """(N,) int64: trumps and Excuse in each hand (what a poignée counts)."""
    return np.array(
        [sum(1 for c in parse_cards(hand) if IS_TRUMP[c] or c == EXCUSE) for hand in frame["hand"]]
    )


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
    return pd.DataFrame(rows, columns=["centre", "mean", "low", "high", "hands"])


def confusion(frame: pd.DataFrame) -> pd.DataFrame:
    """Hands counted by heuristic bid (rows) and simulation's best bid (columns)."""
    table = pd.crosstab(frame["heuristic_bid"], frame["best_contract"])
    return table.reindex(index=list(BIDS), columns=list(BIDS), fill_value=0)


def agreement(frame: pd.DataFrame) -> float:
    """Share of hands where the heuristic's bid is the simulation's best."""
    return float((frame["heuristic_bid"] == frame["best_contract"]).mean())


# --- Charts ------------------------------------------------------------------------------------


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


# --- The report --------------------------------------------------------------------------------


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


def _threshold_table(fits: dict) -> pd.DataFrame:
    def show(x: float | None) -> str:
        return "–" if x is None else f"{x:.1f}"

    return pd.DataFrame(
        {
            "contract": [LABELS[name] for name, _, _ in FITS],
            "overtakes": ["Pass" if p is None else LABELS[p] for _, p, _ in FITS],
            "read against": [v for _, _, v in FITS],
            "barème": [HEURISTIC_THRESHOLDS[name] for name, _, _ in FITS],
            "fitted": [show(fits[name]["value"]) for name, _, _ in FITS],
            "95 % interval": [
                "–" if fits[n]["low"] is None else f"{fits[n]['low']:.1f} – {fits[n]['high']:.1f}"
                for n, _, _ in FITS
            ],
        }
    )


def write_report(out: Path, frame: pd.DataFrame, parameters: StudyParameters) -> dict:
    """Fit, chart and write ``summary.json``, the PNG charts and ``report.html`` into ``out``;
    returns the summary."""
    run = _read_run(out) or {}
    seconds = float(run.get("compute_seconds", 0.0))
    fits = fit_thresholds(frame, seed=parameters.seed, min_points=parameters.min_points)
    summary = summarise(frame, parameters, seconds, fits)
    (out / "summary.json").write_text(json.dumps(json_safe(summary), indent=1) + "\n")
    table = confusion(frame)
    rate = summary["agreement"]
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
    charts_by_stem = {
        "p_make": (
            p_make_chart(frame),
            "The chance of making each contract, averaged over the hands of each 4-point bin "
            "(95 % band), against the point count; dotted lines are the barème's thresholds "
            "(Prise and Garde are played alike, so their curves coincide).",
        ),
        "expected_score": (
            expected_score_chart(frame, summary["fitted_thresholds"]),
            "The taker's expected score of each contract by point-count bin (95 % band); dashed "
            "lines mark where the fit finds each contract overtaking the previous one, dotted "
            "lines the barème's thresholds.",
        ),
        "best_share": (
            best_share_chart(frame),
            "For each 5-point bin, the share of hands whose best bid (highest expected score, "
            "pass if none is positive) is each contract.",
        ),
        "confusion": (
            confusion_chart(table, rate),
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
    for stem, (figure, _) in charts_by_stem.items():
        (out / f"{stem}.png").write_bytes(png_bytes(figure))

    report = HtmlReport(f"Where the bid thresholds lie: {players}-player hands")
    report.paragraph(
        f"{parameters.hands:,} random hands for {players} players (petit sec excluded{only}), "
        "each at "
        f"a random position, each analysed on {parameters.samples:,} random deals of the other "
        f"cards (seed {parameters.seed}). Every contract is played on the same deals with the "
        "greedy card-play policy; the score is the taker's total, poignée hidden and chelem not "
        f"announced.{called}"
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
    report.table(_threshold_table(fits))
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
