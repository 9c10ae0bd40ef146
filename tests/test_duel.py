"""tarot-report duel: a duplicate match on the same deals, its gains, its dump, its errors."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tarot_advisor.analyzer.advice.heuristic import point_count
from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.record import load_records, replay
from tarot_advisor.cli.report import main
from tarot_advisor.reports import duel as duel_report
from tarot_advisor.reports.duel import DuelError, choose_takers, run_duel


def test_greedy_beats_simple_by_more_than_three_se_as_taker_and_in_defence():
    result = run_duel("greedy", "simple", players=4, contract=Contract.GARDE, deals=4000, seed=78)
    assert result.taker_gain.mean > 3 * result.taker_gain.se
    assert result.defence_gain.mean > 3 * result.defence_gain.se


def test_the_void_seeking_ecart_beats_the_one_before_with_the_same_deals_and_card_play():
    result = run_duel(
        "greedy", "greedy", deals=2000, seed=78, ecart_a="greedy", ecart_b="short-suits"
    )
    assert result.taker_gain.mean > 3 * result.taker_gain.se
    # The same card play on both sides: the defences are the same, so they gain nothing.
    assert (result.defence_gain.mean, result.defence_gain.se) == (0.0, 0.0)
    assert result.to_dict()["ecart_b"] == "short-suits"


def test_a_policy_against_itself_gains_exactly_nothing_on_the_same_deals():
    result = run_duel("greedy", "greedy", players=3, contract=Contract.PRISE, deals=300, seed=5)
    assert (result.taker_gain.mean, result.taker_gain.se) == (0.0, 0.0)
    assert (result.defence_gain.mean, result.defence_gain.se) == (0.0, 0.0)


@pytest.mark.slow
def test_the_numbers_depend_on_the_seed_not_on_the_workers(monkeypatch):
    monkeypatch.setattr(duel_report, "CHUNK_SIZE", 150)
    kwargs = dict(players=4, contract=Contract.GARDE, deals=400, seed=9)
    one = run_duel("random", "simple", jobs=1, **kwargs)
    two = run_duel("random", "simple", jobs=2, **kwargs)
    assert one.to_dict() == two.to_dict()
    other = run_duel("random", "simple", jobs=1, **{**kwargs, "seed": 10})
    assert other.taker_gain != one.taker_gain


def test_the_taker_is_the_seat_with_the_highest_point_count():
    # rules.md §11: this hand counts 60 (Garde); the other seats get random cards.
    garde = parse_cards("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")
    assert point_count(garde).points == 60
    deals = deal(np.random.default_rng(3), 200, 4, known_hands={2: garde})
    taker, called = choose_takers(deals)
    assert called is None
    for row in range(len(deals)):
        counts = [point_count(hand).points for hand in deals.hands[row]]
        assert taker[row] == int(np.argmax(counts))  # the first seat on a tie
    assert np.mean(taker == 2) > 0.9


def test_five_players_the_taker_calls_the_king_of_its_longest_suit_it_lacks():
    deals = deal(np.random.default_rng(4), 50, 5, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    hands = deals.hands[np.arange(50), taker]
    assert np.array_equal(called, longest_suit_call(hands))


def test_the_dump_holds_three_playouts_per_deal_that_the_referee_scores_alike(tmp_path):
    dump = tmp_path / "duel.jsonl"
    result = CliRunner().invoke(
        main,
        ["duel", "--policy", "greedy", "--against", "random", "--players", "5",
         "--contract", "garde", "--deals", "40", "--seed", "2", "--jobs", "1", "--json",
         "--dump-deals", str(dump)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    records = load_records(dump.read_text(encoding="utf-8"))
    assert len(records) == 3 * 40
    for record in records:
        outcome = replay(record).as_dict()
        assert {k: outcome[k] for k in record["result"] if k != "valid"} == {
            k: v for k, v in record["result"].items() if k != "valid"
        }
    # The three playouts of a deal are played on the same cards, by the same taker.
    for first in range(0, len(records), 3):
        same_deal = records[first : first + 3]
        assert len({r["taker"] for r in same_deal}) == 1
        assert len({r["called"] for r in same_deal}) == 1
        assert len({tuple(r["chien"]) for r in same_deal}) == 1
    # The gains are the differences of the dumped scores: (A takes − B takes), (B − A defends).
    taker_scores = np.array([r["result"]["scores"][r["taker"]] for r in records]).reshape(-1, 3)
    assert summary["taker_gain"]["mean"] == pytest.approx(
        np.mean(taker_scores[:, 0] - taker_scores[:, 1])
    )
    assert summary["defence_gain"]["mean"] == pytest.approx(
        np.mean(taker_scores[:, 1] - taker_scores[:, 2])
    )
    assert set(summary) == {"deals", "a", "b", "players", "contract", "seed", "taker",
                            "defence", "ecart_a", "ecart_b", "taker_gain",
                            "defence_gain"}  # fmt: skip
    assert set(summary["taker_gain"]) == {"mean", "se"}


def test_the_human_output_gives_intervals_and_a_verdict():
    result = CliRunner().invoke(
        main, ["duel", "--a", "simple", "--b", "greedy", "--deals", "500", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "±" in result.output and "seed 78" in result.output
    assert "greedy beats simple" in result.output and "SE" in result.output


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (["--policy", "greedy", "--against", "clever"], "clever"),
        (["--policy", "greedy", "--against", "simple", "--contract", "grande"], "grande"),
        (["--policy", "greedy", "--against", "simple", "--players", "6"], "6"),
        (["--policy", "greedy", "--against", "simple", "--deals", "1"], "1"),
        (
            [
                "--policy",
                "greedy",
                "--against",
                "simple",
                "--dump-deals",
                "/no/such/folder/d.jsonl",
            ],
            "/no/",
        ),
    ],
)
def test_bad_input_is_one_sentence_on_stderr_and_exit_code_2(arguments, named):
    result = CliRunner().invoke(main, ["duel", "--deals", "10", "--quiet", *arguments])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert named in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_the_library_refuses_unknown_policies_and_too_few_deals():
    with pytest.raises(DuelError, match="'clever' is not a policy"):
        run_duel("clever", "greedy", deals=10)
    with pytest.raises(DuelError, match="'clever' is not an écart policy"):
        run_duel("greedy", "greedy", deals=10, ecart_b="clever")
    with pytest.raises(DuelError, match="at least 2 deals"):
        run_duel("greedy", "simple", deals=1)


def test_the_reference_taker_and_defence_can_be_chosen():
    # By default both gains are measured against B; naming B again changes nothing, and naming
    # another policy measures the gain against it instead (greedy's taker gain over simple is
    # larger against the weak simple defence than against the greedy's).
    usual = run_duel("greedy", "simple", deals=300, seed=4)
    same = run_duel("greedy", "simple", deals=300, seed=4, taker="simple", defence="simple")
    assert (same.taker_gain, same.defence_gain) == (usual.taker_gain, usual.defence_gain)
    against_greedy = run_duel("greedy", "simple", deals=300, seed=4, defence="greedy")
    assert against_greedy.defence_gain == usual.defence_gain
    assert against_greedy.taker_gain != usual.taker_gain
    assert against_greedy.to_dict()["defence"] == "greedy"
    with pytest.raises(DuelError, match="not a policy"):
        run_duel("greedy", "simple", deals=10, taker="clever")
