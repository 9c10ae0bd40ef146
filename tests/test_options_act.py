"""Every option acts or is refused in one sentence: the policies play E[pass] and the écart,
options that cannot act with the others given are named, and the smaller gaps a new user met
(the hand on stdin, "garde sans", "1 deal", seats and positions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from greedy_table import GREEDY, GREEDY_OPTIONS, GREEDY_SIDES

from tarot_advisor.analyzer.advice import paired
from tarot_advisor.analyzer.advice.advisor import analyse_hand
from tarot_advisor.analyzer.advice.bids import parse_bids
from tarot_advisor.analyzer.advice.ecart_advice import analyse_ecart
from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.cards import parse_cards, parse_hand
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.policies import policy_named
from tarot_advisor.cli.advise import main as advise
from tarot_advisor.cli.play import main as play
from tarot_advisor.cli.replay import main as replay
from tarot_advisor.cli.report import main as report

ROOT = Path(__file__).parent.parent
HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
CHIEN = "2♦ 6♣ 7♠ C♠ 5 10"


def one_sentence(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr


# --- E[pass] and the écart are played by --taker and --defence -------------------------------


def test_the_deal_you_defend_after_passing_is_played_by_the_given_policies(monkeypatch) -> None:
    # The deal the user defends is played in the same engine runs as the contracts
    # (paired.play_pairs): every one of them by the policies asked for.
    played = []
    engine_play = paired.play

    def spy(deals, takers, contract, policy, defence_policy=None, **options):
        played.append((type(policy).__name__, type(defence_policy).__name__))
        return engine_play(deals, takers, contract, policy, defence_policy, **options)

    monkeypatch.setattr(paired, "play", spy)
    cards = parse_hand(HAND, 4)
    analyse_hand(cards, 4, samples=40, seed=3, taker_policy="greedy", defence_policy="random")
    random_name = type(policy_named("random")).__name__
    assert played and set(played) == {(GreedyPolicy.__name__, random_name)}


def test_e_pass_changes_with_the_defence_that_plays_it() -> None:
    cards = parse_hand(HAND, 4)
    greedy = analyse_hand(cards, 4, samples=200, seed=3, sensitivity=(), **GREEDY)
    weak = analyse_hand(
        cards,
        4,
        samples=200,
        seed=3,
        defence_policy="random",
        sensitivity=(),
        taker_policy="greedy",
    )
    # The same deals; only who plays the user's side in defence differs.
    assert greedy.auction.expected_pass.mean != weak.auction.expected_pass.mean


def test_the_ecart_advice_is_played_by_the_given_policies_and_names_them() -> None:
    hand, chien = parse_hand(HAND, 4), parse_cards(CHIEN)
    default = analyse_ecart(hand, chien, 4, samples=60, seed=2, sides=GREEDY_SIDES)
    weak = analyse_ecart(hand, chien, 4, samples=60, seed=2, sides=Sides("greedy", "random"))
    assert default.to_dict()["policies"] == {"taker": "greedy", "defence": "greedy"}
    assert weak.to_dict()["policies"] == {"taker": "greedy", "defence": "random"}
    # Against a random defence the taker scores more with the engine's écart.
    assert weak.engine.expected_score.mean > default.engine.expected_score.mean
    result = CliRunner().invoke(
        advise,
        [HAND, "--chien", CHIEN, "--samples", "20", "--taker", "greedy", "--defence", "random"],
    )
    assert "Played by: greedy for the taker's side, random for the defence." in result.stdout


# --- options that cannot act are refused -----------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--contract", "prise"], "--contract describes the contract taken"),
        (["--called", "R♥"], "--called describes the card called"),
        (["--timings"], "--timings adds the seconds to the JSON: give it with --json"),
        (["--chien", CHIEN, "--bids", "pass"], "--bids describes the auction before your bid"),
        (["--chien", CHIEN, "--others", "seed"], "--others describes the auction"),
        (["--chien", CHIEN, "--dump-deals", "d.jsonl"], "--dump-deals writes the bid's playouts"),
        (["--chien", CHIEN, "--called", "R♥"], "a card is called only with 5 players, not 4"),
    ],
)
def test_an_option_that_cannot_act_is_refused(arguments: list[str], message: str) -> None:
    assert message in one_sentence(CliRunner().invoke(advise, [HAND, *arguments]))


@pytest.mark.parametrize(
    ("command", "arguments"),
    [
        (play, [str(ROOT / "data" / "positions" / "garde-4p-trick-10.json")]),
        (report, ["check-engine", "--deals", "2"]),
        (report, ["ecart-ideas", "--hands", "2"]),
    ],
)
def test_timings_without_json_is_refused_everywhere(command, arguments: list[str]) -> None:
    error = one_sentence(CliRunner().invoke(command, [*arguments, "--timings"]))
    assert error == "Error: --timings adds the seconds to the JSON: give it with --json\n"


# --- the smaller gaps ------------------------------------------------------------------------


def test_the_hand_is_read_from_stdin_with_a_dash() -> None:
    result = CliRunner().invoke(
        advise, ["-", "--samples", "10", *GREEDY_OPTIONS, "--json"], input=HAND + "\n"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hand"][:3] == ["21", "19", "12"]


def test_garde_sans_and_garde_contre_are_read_as_a_player_says_them() -> None:
    assert parse_bids("pass garde sans", 4) == parse_bids("pass garde_sans", 4) == (0, 3)
    assert parse_bids("Garde Contre", 4) == (4,)
    assert parse_bids(["pass", "garde"], 4) == (0, 2)


def test_one_deal_is_a_deal() -> None:
    result = CliRunner().invoke(report, ["check-engine", "--deals", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1 4-player deal played by the engine")


def test_seats_are_said_to_be_the_records_where_a_user_meets_them() -> None:
    deals = ROOT / "data" / "deals" / "garde-4p.json"
    assert (
        "4 players (seats 0–3, as in the record)" in CliRunner().invoke(replay, [str(deals)]).stdout
    )
    position = ROOT / "data" / "positions" / "garde-4p-trick-10.json"
    shown = CliRunner().invoke(play, [str(position), "--samples", "4"]).stdout
    assert "Seats count 0–3 as in the record; seat" in shown
    assert "(position 1 in tarot-advise --position)" in shown


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["bench", "--only", "advise_seconds", "--deals", "5"], "--deals cannot act without a"),
        (["bench", "--only", "deals_per_second", "--playouts", "5"], "--playouts cannot act"),
        (["bench", "--only", "deals_per_second_one_core", "--jobs", "2"],
         "--jobs cannot act without deals_per_second or playouts_per_second in --only"),
        (["pointcount", "--study", "s", "--hands", "5", "--out", "o"], "--hands cannot act with"),
        (["pointcount", "--study", "s", "--resume", "--out", "o"], "--resume cannot act with"),
        (["thresholds", "--backend", "dask", "--scheduler", "tcp://x:1", "--jobs", "2", "--out",
          "o"], "--jobs cannot act with --scheduler"),
        (["duel", "--policy", "greedy", "--against", "greedy", "--contract", "garde_sans",
          "--ecart", "short-suits"], "--ecart cannot act in a Garde Sans, where nobody makes an"),
        (["duel", "--policy", "greedy", "--against", "simple", "--contract", "garde_contre",
          "--against-ecart", "greedy"], "--against-ecart cannot act in a Garde Contre"),
        (["duel", "--policy", "greedy", "--against", "simple", "--taker", "simple"],
         "--taker simple is B (--against), which it is by default: leave it out"),
        (["duel", "--policy", "greedy", "--against", "simple", "--defence", "simple"],
         "--defence simple is B (--against)"),
    ],
)  # fmt: skip
def test_a_report_option_that_cannot_act_is_refused(arguments: list[str], message: str) -> None:
    assert message in one_sentence(CliRunner().invoke(report, arguments))
