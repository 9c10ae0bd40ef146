"""The deal-statistics report: its files, its keys, its agreement with the exact laws."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from tarot_advisor.cli.report import main
from tarot_advisor.reports import deals as deals_report
from tarot_advisor.reports.deals import run_deal_study, statistics

REQUIRED_NAMES = (
    [f"bouts_in_hand={k}" for k in range(4)]
    + [f"bouts_in_chien={k}" for k in range(4)]
    + [f"kings_in_hand={k}" for k in range(5)]
    + [f"trumps_in_hand={k}" for k in range(12)]
    + [f"poignee_{kind}_in_hand" for kind in ("simple", "double", "triple")]
    + ["void_in_given_suit", "petit_sec_in_hand"]
    + [f"heuristic_bid={bid}" for bid in ("pass", "prise", "garde", "garde_sans", "garde_contre")]
)


def test_the_report_writes_every_file_with_the_required_keys(tmp_path):
    out = tmp_path / "deals"
    result = CliRunner().invoke(
        main, ["deals", "--players", "4", "--deals", "3000", "--seed", "3", "--jobs", "2",
               "--out", str(out)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "report.html" in result.output and "seed 3" in result.output
    assert "deals/s on 1 worker)" in result.output  # one chunk of 50,000: one worker, not 2
    assert "Largest |z|" in result.output
    for name in ("report.html", "summary.json", "stats.csv", "point_counts.csv",
                 "trumps_in_hand.png", "point_count.png"):  # fmt: skip
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "<figcaption>" in html

    summary = json.loads((out / "summary.json").read_text())
    assert set(summary) == {"players", "deals", "seed", "seconds", "deals_per_second", "stats"}
    assert (summary["players"], summary["deals"], summary["seed"]) == (4, 3000, 3)
    stats = {s["name"]: s for s in summary["stats"]}
    for name in REQUIRED_NAMES:
        assert set(stats[name]) == {"name", "simulated", "exact", "stderr"}, name
    assert stats["heuristic_bid=pass"]["exact"] is None
    assert stats["bouts_in_hand=0"]["exact"] == pytest.approx(0.4498133445501867)
    bids = ("pass", "prise", "garde", "garde_sans", "garde_contre")
    assert sum(stats[f"heuristic_bid={b}"]["simulated"] for b in bids) == pytest.approx(1)


def test_the_same_seed_gives_the_same_numbers_whatever_the_workers(monkeypatch):
    monkeypatch.setattr(deals_report, "CHUNK_SIZE", 4000)
    one = run_deal_study(5, 10_000, seed=11, jobs=1)
    two = run_deal_study(5, 10_000, seed=11, jobs=2)
    assert one.counts.keys() == two.counts.keys()
    for name in one.counts:
        assert np.array_equal(one.counts[name], two.counts[name]), name


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_frequencies_agree_with_the_exact_laws(players):
    study = run_deal_study(players, 150_000, seed=21)
    stats = statistics(study)
    known = stats.dropna(subset=["z"])
    assert len(known) > 60
    worst = known.loc[known["z"].abs().idxmax()]
    assert abs(worst["z"]) <= 5, worst.to_dict()
    # Every frequency sums to one over its values, e.g. bouts in the chien.
    chien = stats[stats["name"].str.startswith("bouts_in_chien=")]
    assert chien["simulated"].sum() == pytest.approx(1)


def test_petit_sec_in_the_deal_is_measured_not_rejected():
    study = run_deal_study(4, 100_000, seed=4)
    stats = statistics(study).set_index("name")
    # About 0.18 % of deals hold a petit sec somewhere: 100,000 deals show some.
    assert stats.loc["petit_sec_in_deal", "count"] > 0
    assert stats.loc["petit_sec_in_deal", "exact"] == pytest.approx(4 * 0.0004610206424295308)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "6"], "--players"),
        (["--deals", "0"], "--deals"),
        (["--jobs", "-3"], "--jobs"),
        (["--seed", "x"], "--seed"),
        ([], "--out"),
    ],
)
def test_bad_arguments_get_one_sentence_and_exit_code_2(tmp_path, arguments, message):
    if "--out" not in arguments and message != "--out":
        arguments = [*arguments, "--out", str(tmp_path / "r")]
    result = CliRunner().invoke(main, ["deals", *arguments])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_an_output_path_that_is_a_file_is_refused(tmp_path):
    target = tmp_path / "report.txt"
    target.write_text("not a folder")
    result = CliRunner().invoke(main, ["deals", "--deals", "10", "--out", str(target)])
    assert result.exit_code == 2
    assert "is a file" in result.output


def test_the_summary_holds_no_nan(tmp_path):
    study = run_deal_study(3, 2000, seed=1)
    summary = deals_report.write_deal_report(study, tmp_path)
    text = (tmp_path / "summary.json").read_text()
    assert "NaN" not in text
    assert all(s["exact"] is None or math.isfinite(s["exact"]) for s in json.loads(text)["stats"])
    assert summary["deals"] == 2000
