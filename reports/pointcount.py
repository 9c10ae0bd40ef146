"""``tarot-report pointcount``: the calibrated point count of one number of players, as a report
folder.

The folder holds ``study/`` (a thresholds study, or none when an existing study folder is
reused), ``pointcount-<players>.json`` (the fitted table, ready to ship in
``analyzer/advice/tables/``), ``held_out.csv`` (agreement and regret per method, cross-validated),
``summary.json``, the printable ``card.png`` and ``report.html``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from tarot_advisor.analyzer.advice import calibrated
from tarot_advisor.analyzer.advice.calibrated import CountTable, item_labels, table_name
from tarot_advisor.analyzer.advice.heuristic import (
    GARDE_CONTRE_FROM,
    GARDE_FROM,
    GARDE_SANS_FROM,
    PRISE_FROM,
)
from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.studies.study import StudyParameters
from tarot_advisor.reports import pointcount_card
from tarot_advisor.reports.files import write_bytes, write_text
from tarot_advisor.reports.formatting import play_text
from tarot_advisor.reports.html import HtmlReport, json_safe, png_bytes
from tarot_advisor.reports.pointcount_fit import (
    FOLDS,
    METHOD_LABELS,
    SeedLines,
    StudyHands,
    fit_seed_lines,
    fit_table,
    held_out_bids,
    held_out_table,
    study_hands,
)
from tarot_advisor.reports.thresholds_folder import (
    HANDS_FILE,
    RUN_FILE,
    StudyFolderError,
    read_run,
    run_parameters,
)

SEED_LINES = SeedLines(PRISE_FROM, GARDE_FROM, GARDE_SANS_FROM, GARDE_CONTRE_FROM)


class PointCountError(ValueError):
    """A study folder the point count cannot be fitted on."""


@dataclass(frozen=True)
class Study:
    """A finished thresholds study, read from its public outputs."""

    folder: Path
    parameters: StudyParameters
    code: str
    seconds: float
    frame: pd.DataFrame


LEGACY_PLAY = {"taker": "greedy", "defence": "greedy"}
"""The play of a study stored before the play was part of its parameters: the greedy's."""
FIT_COLUMNS = (
    "hand_id",
    "hand",
    "points",
    "points_with_distribution",
    *(f"expected_score_{c}" for c in BIDS[1:]),
    "best_contract",
)
"""The columns of ``hands.csv`` the fit reads."""


def read_study(folder: Path) -> Study:
    """The finished study in ``folder`` (its ``run.json`` and ``hands.csv``); raises
    :class:`PointCountError`, in one sentence, when either is missing or unusable."""
    for name in (RUN_FILE, HANDS_FILE):
        if not (folder / name).exists():
            raise PointCountError(
                f"{folder} holds no finished thresholds study ({name} is missing)"
            )
    try:
        run = read_run(folder) or {}
        parameters = run_parameters(folder / RUN_FILE, {**LEGACY_PLAY, **run})
    except StudyFolderError as error:
        raise PointCountError(str(error)) from None
    if parameters.min_points:
        raise PointCountError(
            f"the study in {folder} holds only hands of {parameters.min_points} points or more: "
            "a point count is fitted on uniform hands (a study without --min-points)"
        )
    frame = _read_hands(folder / HANDS_FILE)
    if len(frame) != parameters.hands:
        raise PointCountError(
            f"{folder / HANDS_FILE} holds {len(frame)} hands, not {parameters.hands}"
        )
    return Study(
        folder, parameters, str(run.get("code")), float(run.get("compute_seconds", 0)), frame
    )


def _read_hands(path: Path) -> pd.DataFrame:
    """The table of a study's ``hands.csv`` at ``path``, with the columns the fit reads."""
    try:
        frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    except pd.errors.EmptyDataError:
        raise PointCountError(f"{path} is empty: it holds no study's hands") from None
    except (UnicodeDecodeError, pd.errors.ParserError) as error:
        raise PointCountError(f"{path.parent} holds an unreadable study ({error})") from None
    except OSError as error:
        raise PointCountError(f"cannot read {path}: {error.strerror or error}") from None
    missing = [name for name in FIT_COLUMNS if name not in frame.columns]
    if missing:
        raise PointCountError(
            f"{path} is not a study's hands.csv: it lacks the column(s) {', '.join(missing)}"
        )
    return frame


MIN_HANDS = 10 * FOLDS
"""The fewest hands a point count is fitted on: each fold of the cross-validation holds out at
least 10 hands (below, the held-out figures are noise and the fit may find no move at all)."""
MIN_BIDDING_HANDS = FOLDS
"""The fewest hands whose best bid is not a pass, one a fold: the bid lines are fitted on
those."""


def too_small(study: Study) -> str | None:
    """The sentence that says why ``study`` is too small to fit a point count on, or None."""
    hands = len(study.frame)
    bidding = int((study.frame["best_contract"] != "pass").sum())
    if hands >= MIN_HANDS and bidding >= MIN_BIDDING_HANDS:
        return None
    return (
        f"Too few hands to fit a point count: {hands:,} hands, {bidding:,} of them worth a bid, "
        f"where the fit needs at least {MIN_HANDS:,} hands and {MIN_BIDDING_HANDS} worth a bid: "
        "study more hands (--hands); no table, card or report is written."
    )


def fit_code_version() -> str:
    """A digest of the fitting code and the count's items, for the table's provenance."""
    digest = hashlib.sha256()
    for path in (Path(__file__).parent / "pointcount_fit.py", Path(calibrated.__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def provenance(study: Study, held_out: pd.DataFrame) -> dict:
    """What a shipped table records of where it comes from (no timings: the same run gives
    the same table, byte for byte)."""
    p = study.parameters
    return {
        "seed": p.seed,
        "hands": p.hands,
        "samples": p.samples,
        "chunk_hands": p.chunk_hands,
        "taker": p.taker,
        "defence": p.defence,
        "study_code_version": study.code,
        "fit_code_version": fit_code_version(),
        "command": (
            f"tarot-report pointcount --players {p.players} --hands {p.hands} "
            f"--samples {p.samples} --seed {p.seed} --chunk-hands {p.chunk_hands} "
            f"--taker {p.taker} --defence {p.defence}"
        ),
        "held_out": {
            row.method: {
                "agreement": round(row.agreement, 4),
                "regret": round(row.regret, 3),
                "regret_se": round(row.regret_se, 3),
            }
            for row in held_out.itertuples()
        },
        "folds": FOLDS,
    }


@dataclass(frozen=True)
class PointCountResult:
    table: CountTable
    seed_lines: SeedLines
    held_out: pd.DataFrame
    hands: StudyHands


def fit_study(study: Study) -> PointCountResult:
    """Cross-validate every method, then fit the shipped count on all the hands."""
    try:
        hands = study_hands(study.frame, study.parameters.players)
    except (ValueError, TypeError) as error:  # a card, a count or a score that is none
        raise PointCountError(
            f"{study.folder / HANDS_FILE} holds a value no study writes ({error})"
        ) from None
    held_out = held_out_table(hands, held_out_bids(hands))
    table = fit_table(hands, provenance(study, held_out))
    return PointCountResult(table, fit_seed_lines(hands), held_out, hands)


def table_text(table: CountTable) -> str:
    """The shipped JSON of a table (stable key order, one trailing newline)."""
    return json.dumps(table.to_dict(), indent=1) + "\n"


def _held_out_for_reader(held_out: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "method": [METHOD_LABELS[m] for m in held_out["method"]],
            "agreement": [
                f"{100 * a:.1f} % ± {100 * s:.1f}"
                for a, s in zip(held_out["agreement"], held_out["agreement_se"], strict=True)
            ],
            "regret per hand": [
                f"{r:.2f} ± {s:.2f}"
                for r, s in zip(held_out["regret"], held_out["regret_se"], strict=True)
            ],
        }
    )


def _lines_table(seed_refitted: SeedLines, table: CountTable) -> pd.DataFrame:
    def show(line: int | None) -> str:
        return "never" if line is None else str(line)

    return pd.DataFrame(
        {
            "bid": [pointcount_card.LABELS[b] for b in BIDS[1:]],
            "seed count": [show(getattr(SEED_LINES, b)) for b in BIDS[1:]],
            "seed count, refitted": [show(getattr(seed_refitted, b)) for b in BIDS[1:]],
            "calibrated count": [show(table.thresholds[b]) for b in BIDS[1:]],
        }
    )


def write_report(out: Path, study: Study, result: PointCountResult) -> dict:
    """Write the table, ``held_out.csv``, ``summary.json``, ``card.png`` and ``report.html``
    into ``out``; returns the summary."""
    players = study.parameters.players
    out.mkdir(parents=True, exist_ok=True)
    write_text(out / table_name(players), table_text(result.table))
    write_text(out / "held_out.csv", result.held_out.to_csv(index=False, float_format="%.6g"))
    by_method = result.held_out.set_index("method")
    summary = {
        "players": players,
        "study": str(study.folder),
        "study_compute_seconds": study.seconds,
        "table": result.table.to_dict(),
        "seed_refitted_lines": vars(result.seed_lines),
        "held_out": json.loads(result.held_out.to_json(orient="records")),
        "regret_ratio": float(
            by_method.loc["calibrated", "regret"] / by_method.loc["seed", "regret"]
        ),
    }
    write_text(out / "summary.json", json.dumps(json_safe(summary), indent=1) + "\n")
    examples = pointcount_card.worked_examples(result.hands, result.table)
    card = png_bytes(pointcount_card.card(result.table, result.held_out, examples), dpi=120)
    write_bytes(out / "card.png", card)

    p = study.parameters
    report = HtmlReport(f"A calibrated point count for {players} players")
    report.paragraph(
        f"Fitted on {p.hands:,} random hands for {players} players, each analysed on "
        f"{p.samples:,} random deals played by {play_text(p.sides)} (thresholds study, seed "
        f"{p.seed}). A count's regret on a "
        "hand is the best expected score (pass = 0) minus the expected score of the bid it "
        f"makes. Held-out figures: {FOLDS}-fold cross-validation, each hand bid on by the count "
        "fitted without it; ± is one standard error over hands."
    )
    report.heading("The card")
    report.figure(card, f"The calibrated count for {players} players, ready to print.")
    labels = item_labels(players)
    report.table(
        pd.DataFrame(
            {
                "item": [labels[name] for name, w in result.table.weights.items() if w],
                "points": [w for w in result.table.weights.values() if w],
            }
        ),
        caption="The card's items (the items fitted to 0 left out).",
    )
    report.heading("What each count costs, on held-out hands")
    report.table(_held_out_for_reader(result.held_out))
    report.heading("The bid lines")
    report.table(_lines_table(result.seed_lines, result.table))
    report.paragraph(
        "Garde doubles every term of the score that Prise earns (the chelem's bonus aside) and "
        "both are played alike, so where Prise beats passing in expectation, Garde beats it "
        "more: a fitted Prise band is usually empty. The seed count's refitted lines read Prise "
        "and Garde on its points, Garde Sans and Garde Contre on its points with distribution; "
        "the calibrated count counts every item toward every bid.",
        css_class="note",
    )
    report.heading("Provenance")
    report.paragraph(json.dumps(dict(result.table.provenance)), css_class="note")
    report.write(out / "report.html")
    return summary
