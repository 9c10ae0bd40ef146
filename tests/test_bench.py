"""tarot-report bench runs and names every figure (speed itself is not a test's business)."""

import json
import sys

import numpy as np
from click.testing import CliRunner

from tarot_advisor.analyzer.advice.heuristic import point_count
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.playout.deal import petit_sec
from tarot_advisor.cli.report import main
from tarot_advisor.reports import bench

SMALL = [
    *("bench", "--deals", "2000", "--playouts", "300", "--hands", "2"),
    *("--searched-deals", "3", "--jobs", "1", "--quiet"),
]
FIGURES = (
    "deals_per_second",
    "deals_per_second_one_core",
    "playouts_per_second",
    "playouts_per_second_one_core",
    "advise_seconds",
    "advise_seconds_greedy",
    "ecart_seconds",
    "ecart_seconds_greedy",
    "advise_seconds_10000",
    "advise_seconds_50000",
    "advise_seconds_random_3p",
    "advise_seconds_random_4p",
    "advise_seconds_random_5p",
    "lookahead_decisions_per_cpu_second",
)


def quick_advise(monkeypatch):
    """Stands a do-nothing Python run in for tarot-advise, so that the test stays short."""
    monkeypatch.setattr(bench, "advise_command", lambda *_args: [sys.executable, "-c", ""])


def test_json_has_every_figure_and_the_number_of_workers(monkeypatch):
    quick_advise(monkeypatch)
    result = CliRunner().invoke(main, [*SMALL, "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"jobs", "notes", *FIGURES}
    assert figures["jobs"] == 1 and figures["notes"] == {}
    assert all(figures[name] > 0 for name in FIGURES)


def test_human_output_is_one_line_per_figure(monkeypatch):
    quick_advise(monkeypatch)
    result = CliRunner().invoke(main, SMALL)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["jobs", *FIGURES]
    seconds = [line for line in lines if "_seconds" in line.split()[0]]
    assert len(seconds) == 9 and all(line.endswith(" s") for line in seconds)
    assert not lines[-1].endswith(" s")  # decisions per CPU-second: a number


def test_without_the_advisor_its_figures_are_null_with_a_note(monkeypatch):
    monkeypatch.setattr(bench, "ADVISE_SCRIPT", "tarot-no-such-advisor")
    only = ["--only", "playouts_per_second", "--only", "advise_seconds"]
    # No other measurement: --deals, --hands, --searched-deals would not act, and are refused.
    small = ["bench", "--playouts", "300", "--jobs", "1", "--quiet"]
    result = CliRunner().invoke(main, [*small, *only, "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"jobs", "notes", "playouts_per_second", "advise_seconds"}
    assert figures["advise_seconds"] is None
    assert "not installed" in figures["notes"]["advise_seconds"]


def test_an_unknown_measurement_is_one_sentence_and_exit_code_2():
    result = CliRunner().invoke(main, [*SMALL, "--only", "warp_speed"])
    assert result.exit_code == 2
    assert "warp_speed" in result.stderr and len(result.stderr.splitlines()) == 1


def test_an_option_no_measurement_uses_is_refused():
    only = ["--only", "advise_seconds", "--hands", "3", "--quiet"]
    result = CliRunner().invoke(main, ["bench", *only])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: --hands cannot act without a advise_seconds_random measurement in --only: "
        "leave it out"
    )


def test_the_random_hands_are_bidding_hands_of_the_player_count_the_same_for_a_seed():
    hands = bench.random_hands(5, 4, seed=7)
    assert hands == bench.random_hands(5, 4, seed=7) and len(set(hands)) == 4
    for hand in hands:
        cards = parse_hand(hand, players=5)
        assert point_count(cards).points >= bench.HAND_MIN_POINTS
    assert bench.advise_command(None, hands[0], 5)[-4:] == [hands[0], "--players", "5", "--quiet"]


def test_the_lookahead_measurement_counts_only_the_defences_searched_decisions():
    defence = bench._lookahead_defence(6, seed=3)
    # Three defenders, 17 of their 18 cards chosen (the last is forced), fewer where one card
    # is legal or every legal card plays alike.
    assert 0 < defence.decisions <= 6 * 3 * 17


def test_a_count_that_would_take_more_than_a_week_is_refused_before_any_work():
    # One tarot-advise run a hand, at least a second each, per measurement asked for.
    only = ["--only", "advise_seconds_random_4p", "--hands", "1000000", "--quiet"]
    result = CliRunner().invoke(main, ["bench", *only])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --hands 1,000,000 would take at least 11.6 days")
    every = ["--hands", "1000000", "--quiet"]
    result = CliRunner().invoke(main, ["bench", *every])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --hands 1,000,000 would take at least 34.7 days")


def test_a_petit_sec_hand_which_the_advisor_refuses_is_never_timed(monkeypatch):
    monkeypatch.setattr(bench, "HAND_MIN_POINTS", 0)  # every hand, then; about 1 in 1,500 is sec
    hands = np.array([parse_hand(h) for h in bench.random_hands(4, 15_000, seed=1)])
    assert not petit_sec(hands).any()


def test_a_first_advice_for_a_number_of_players_runs_once_untimed_before_the_timed_run(
    monkeypatch,
):
    # A first run compiles the engine, up to a minute: that is not the advice's speed.
    runs: list[list[str]] = []
    monkeypatch.setattr(bench, "advise_command", lambda *args: list(map(str, args)))
    monkeypatch.setattr(bench, "_advise", runs.append)
    monkeypatch.setattr(bench, "kept_for", lambda players: players != 5)
    bench.advise_seconds(None, "hand", 4)
    assert len(runs) == 1
    bench.advise_seconds(None, "hand", 5)
    assert runs[1:] == [["None", "hand", "5"]] * 2


def test_the_bench_names_the_numbers_of_players_its_measurements_play():
    assert bench.players_played(tuple(bench.MEASUREMENTS)) == (3, 4, 5)
    assert bench.players_played(("deals_per_second", "advise_seconds_random_5p")) == (5,)
    assert bench.players_played(("deals_per_second_one_core",)) == ()
