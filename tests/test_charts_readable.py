"""Every chart a player can read: a title with the player count, axis labels (percent for
shares), no legend entry for a series that is not drawn, no two labels on top of each other,
no powers of ten; and tables in plain words."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from greedy_table import GREEDY
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from tarot_advisor.analyzer.advice.advisor import analyse_hand
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.studies.study import StudyParameters
from tarot_advisor.reports import deals, thresholds_charts
from tarot_advisor.reports.advice_chart import advice_figure
from tarot_advisor.reports.formatting import percent
from tarot_advisor.reports.thresholds import agreement, confusion
from tarot_advisor.reports.thresholds_fit import fit_thresholds
from tarot_advisor.reports.thresholds_folder import assemble, run_study

pytestmark = pytest.mark.slow  # a picture's readability, not a rule, a habit or a limit

POWER_OF_TEN = re.compile(r"\de[-+]?\d")


def _drawn(artist) -> bool:
    """Whether a legend's artist shows anything."""
    if isinstance(artist, BarContainer):
        return any(p.get_height() != 0 and p.get_width() != 0 for p in artist.patches)
    if isinstance(artist, ErrorbarContainer):
        return _drawn(artist.lines[0])
    if isinstance(artist, Line2D):
        x, y = (np.asarray(d, float) for d in artist.get_data())
        return bool(np.isfinite(x).any() and np.isfinite(y).any())
    return True


def assert_readable(figure: Figure, players: int) -> None:
    FigureCanvasAgg(figure)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    axes_list = [axes for axes in figure.axes if axes.get_visible()]
    titles = [axes.get_title() for axes in axes_list]
    titles.append(figure._suptitle.get_text() if figure._suptitle else "")
    assert f"{players} players" in " ".join(titles), titles
    assert all(axes.get_xlabel() for axes in axes_list), "every axis says what it counts"
    labels = [axes.get_ylabel() for axes in axes_list if axes.get_ylabel()]
    assert labels or all(axes.get_yticklabels() for axes in axes_list)
    for label in labels + [axes.get_xlabel() for axes in axes_list]:
        if "share" in label or "chance" in label:
            assert "%" in label, label
    for axes in axes_list:
        handles, names = axes.get_legend_handles_labels()
        if axes.get_legend() is not None:
            for handle, name in zip(handles, names, strict=True):
                assert _drawn(handle), f"the legend names {name!r}, which is not drawn"
    texts = [
        text
        for axes in axes_list
        for text in axes.texts
        if text.get_visible() and text.get_text().strip()
    ]
    for text in texts:
        assert not POWER_OF_TEN.search(text.get_text()), text.get_text()
    boxes = [(t.get_text(), t.get_window_extent(renderer).expanded(0.98, 0.9)) for t in texts]
    for (one, a), (two, b) in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), f"{one!r} and {two!r} overlap"


@pytest.mark.parametrize("players", [4, 5])
def test_the_deal_report_charts_are_readable(players: int) -> None:
    study = deals.run_deal_study(players, 20_000, seed=3)
    for figure, _ in deals.figures(study, deals.statistics(study)).values():
        assert_readable(figure, players)


@pytest.fixture(scope="module")
def study_frame(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    parameters = StudyParameters(
        4, hands=60, samples=16, seed=5, chunk_hands=30, taker="greedy", defence="greedy"
    )
    run_study(folder, parameters, jobs=1)
    return assemble(folder, parameters)


@pytest.mark.parametrize("hands", [60, 2])
def test_the_threshold_charts_are_readable_even_for_a_tiny_study(study_frame, hands) -> None:
    frame = study_frame.head(hands)
    fits = fit_thresholds(frame, seed=5, bootstrap=20)
    for figure in (
        thresholds_charts.p_make_chart(frame, 4),
        thresholds_charts.expected_score_chart(frame, fits, 4),
        thresholds_charts.best_share_chart(frame, 4),
        thresholds_charts.confusion_chart(confusion(frame), agreement(frame), 4),
        thresholds_charts.poignee_chart(frame, 4),
    ):
        assert_readable(figure, 4)


@pytest.mark.parametrize(
    ("players", "hand", "bids"),
    [
        (4, "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠", None),
        (4, "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠", ["pass", "garde"]),
        (5, "21 18 15 9 4 1 Excuse R♥ D♥ 8♥ R♠ 3♠ C♦ 6♦ 2♣", None),
    ],
)
def test_the_advice_picture_is_readable(players, hand, bids) -> None:
    analysis = analyse_hand(parse_hand(hand, players), players, samples=60, bids=bids, **GREEDY)
    assert_readable(advice_figure(analysis), players)


def test_the_deal_report_tables_speak_plain_words(tmp_path) -> None:
    study = deals.run_deal_study(4, 20_000, seed=3)
    deals.write_deal_report(study, tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    tables = "".join(re.findall(r"<table.*?</table>", page, re.S))
    for internal in ("heuristic_bid", "poignee_", "_in_hand", "_in_deal", "petit_sec"):
        assert internal not in tables
    assert not POWER_OF_TEN.search(tables)
    assert "triple poignée (15+ trumps, Excuse included) in one hand" in tables
    assert "1 in 44 million" in tables  # the exact chance of a triple poignée


def test_tiny_probabilities_read_as_odds_never_as_powers_of_ten() -> None:
    assert percent(0.727) == "72.7 %"
    assert percent(6.26e-15) == "1 in 160 trillion"
    assert percent(2.28e-8) == "1 in 44 million"
    assert percent(0.0) == "0 %" and percent(None) == "–"
