"""The advisor: hands whose right bid any player knows, the pairing of contracts, determinism."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from greedy_table import GREEDY, GREEDY_OPTIONS

from tarot_advisor.analyzer.advice import hand_samples
from tarot_advisor.analyzer.advice.advisor import HandError, analyse_hand
from tarot_advisor.analyzer.advice.paired import play_pair, play_pairs
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout.deal import Deals, complete
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.rulebook.record import load_records, replay
from tarot_advisor.cli.advise import main as advise

EXAMPLE = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
MONSTER = "21 20 19 18 17 16 15 14 13 12 1 Excuse R♥ D♥ R♠ R♦ R♣ D♣"
WORTHLESS = "2 3 5 1♠ 2♠ 3♠ 4♠ 1♥ 2♥ 3♥ 4♥ 5♥ 1♦ 2♦ 3♦ 4♦ 1♣ 2♣"


def test_prise_and_garde_are_played_on_the_same_samples():
    analysis = analyse_hand(parse_hand(EXAMPLE), samples=300, **GREEDY)
    prise, garde = analysis.contracts[Contract.PRISE], analysis.contracts[Contract.GARDE]
    assert prise.p_make == garde.p_make
    assert garde.expected_score.mean == pytest.approx(2 * prise.expected_score.mean, rel=0.25)


def test_a_monster_hand_is_a_near_certain_garde_sans_or_better():
    analysis = analyse_hand(parse_hand(MONSTER), samples=400, **GREEDY)
    assert analysis.recommendation in ("garde_sans", "garde_contre")
    assert analysis.contracts[Contract.GARDE_SANS].p_make.mean > 0.95


def test_a_worthless_hand_passes():
    analysis = analyse_hand(parse_hand(WORTHLESS), samples=400, **GREEDY)
    assert analysis.recommendation == "pass"
    assert analysis.point_count.bid == "pass"
    assert all(r.expected_score.mean < 0 for r in analysis.contracts.values())


def test_the_gains_of_showing_and_announcing_split_into_the_bonus_and_the_rest():
    # Ten trumps with 4 players: a simple poignée, 20 to the side that wins, 3 × 20 for the
    # taker (more in Prise and Garde when the chien brings trumps: a double, 3 × 30).
    hand = parse_hand("21 19 17 15 13 11 9 7 5 1 R♠ D♠ R♥ 8♥ 4♦ 2♦ V♣ 3♣")
    analysis = analyse_hand(hand, samples=300, position=1, **GREEDY)
    for contract, poignee in analysis.poignees.items():
        assert poignee.eligible and poignee.size == "simple"
        parts = poignee.bonus.mean + poignee.information.mean
        assert parts == pytest.approx(poignee.expected_gain.mean)
        most = 60 if not contract.takes_chien else 120
        assert -most <= poignee.bonus.mean <= most
    assert analysis.poignee == analysis.poignees[Contract(analysis.recommendation)]
    chelem = analysis.chelem
    # Never made when announced: −200 instead of nothing, from each of 3 defenders.
    assert chelem.p_chelem == 0 and chelem.bonus.mean == -600
    assert chelem.bonus.mean + chelem.lead.mean == pytest.approx(chelem.expected_gain.mean)


def deals_around_seven_trumps_and_the_excuse(
    n: int, rng: np.random.Generator
) -> tuple[Deals, np.ndarray]:
    """``n`` deals of the unseen cards around a hand with a poignée of ten when the chien
    brings two more trumps, at seat 0, and the takers' seats (0)."""
    hand = parse_hand("21 19 17 15 13 11 9 Excuse R♠ D♠ R♥ 8♥ 4♦ 2♦ V♣ 3♣ 5♣ 6♣")
    taker = np.zeros(n, np.int64)
    return complete(rng, np.tile(np.array(hand, np.uint8), (n, 1)), taker, 4), taker


def test_only_the_deals_where_the_taker_may_show_a_poignee_are_played_again_shown():
    n, rng = 400, np.random.default_rng(4)
    deals, taker = deals_around_seven_trumps_and_the_excuse(n, rng)
    pair = play_pair(deals, taker, Contract.GARDE, GreedyPolicy(), rng=rng, called=None)
    assert pair.rows is not None and 0 < len(pair.rows) < n
    assert pair.showed()[pair.rows].all() and pair.showed().sum() == len(pair.rows)
    hidden = pair.hidden_scores[Contract.GARDE].taker_score
    elsewhere = np.setdiff1d(np.arange(n), pair.rows)
    assert (pair.shown_score(Contract.GARDE)[elsewhere] == hidden[elsewhere]).all()
    garde_sans = play_pair(deals, taker, Contract.GARDE_SANS, GreedyPolicy(), rng=rng, called=None)
    assert garde_sans.rows is None  # the hand as dealt: eight


def test_only_the_first_deals_asked_for_are_played_again_shown():
    deals, taker = deals_around_seven_trumps_and_the_excuse(400, np.random.default_rng(4))
    greedy, rng = GreedyPolicy(), np.random.default_rng
    every = play_pairs(deals, taker, (Contract.PRISE,), greedy, rng=rng(1), called=None).pairs
    first = play_pairs(
        deals, taker, (Contract.PRISE,), greedy, rng=rng(1), called=None, show_first=100
    ).pairs
    rows = every[Contract.PRISE].rows
    assert rows is not None and (rows >= 100).any()
    assert np.array_equal(first[Contract.PRISE].rows, rows[rows < 100])
    hidden = every[Contract.PRISE].hidden_scores[Contract.PRISE].taker_score
    shown = first[Contract.PRISE].shown_score(Contract.PRISE)
    assert np.array_equal(shown[100:], hidden[100:])
    assert np.array_equal(shown[:100], every[Contract.PRISE].shown_score(Contract.PRISE)[:100])


def test_the_shown_replay_shares_the_hidden_play_s_engine_run_and_plays_the_same():
    # The greedy draws nothing at random: the deals played shown in the same run as the hidden
    # ones are played exactly as they would be in a run of their own.
    deals, taker = deals_around_seven_trumps_and_the_excuse(200, np.random.default_rng(8))
    rng = np.random.default_rng(9)
    pair = play_pair(deals, taker, Contract.GARDE, GreedyPolicy(), rng=rng, called=None)
    alone = play(deals, taker, Contract.PRISE, GreedyPolicy(), rng=rng, taker_poignee=False)
    assert np.array_equal(pair.hidden.played_lo, alone.played_lo)
    assert pair.rows is not None and pair.shown is not None
    again = Deals(4, deals.cards[pair.rows])
    shown = play(again, taker[pair.rows], Contract.PRISE, GreedyPolicy(), rng=rng)
    assert np.array_equal(pair.shown.played_hi, shown.played_hi)
    assert np.array_equal(pair.shown.shown_hi, shown.shown_hi)


def test_both_pairs_in_one_engine_run_play_as_each_pair_in_its_own():
    # A contract per deal: Prise (the chien taken, an écart made, a poignée shown where the
    # chien allows one) beside Garde Sans (the chien unseen) in one run, card for card as apart.
    deals, taker = deals_around_seven_trumps_and_the_excuse(150, np.random.default_rng(3))
    firsts = (Contract.PRISE, Contract.GARDE_SANS)
    greedy, rng = GreedyPolicy(), np.random.default_rng
    both = play_pairs(deals, taker, firsts, greedy, rng=rng(1), called=None).pairs
    for first in firsts:
        alone = play_pair(deals, taker, first, greedy, rng=rng(1), called=None)
        assert np.array_equal(both[first].hidden.played_lo, alone.hidden.played_lo)
        assert np.array_equal(both[first].hidden.discard, alone.hidden.discard)
        for contract, scores in alone.hidden_scores.items():
            assert np.array_equal(both[first].hidden_scores[contract].scores, scores.scores)
            assert np.array_equal(both[first].shown_score(contract), alone.shown_score(contract))
    assert both[Contract.PRISE].rows is not None and both[Contract.GARDE_SANS].rows is None


def test_same_seed_same_numbers_whatever_the_jobs():
    one = analyse_hand(parse_hand(EXAMPLE), samples=5200, seed=5, jobs=1, **GREEDY).to_dict()
    two = analyse_hand(parse_hand(EXAMPLE), samples=5200, seed=5, jobs=2, **GREEDY).to_dict()
    assert one == two


def test_a_searching_side_goes_in_smaller_chunks_with_the_same_numbers_whatever_the_jobs(
    monkeypatch,
):
    # The simple defence standing for a searching one: as cheap as the greedy.
    monkeypatch.setattr(hand_samples, "SEARCHING", {"simple"})
    monkeypatch.setattr(hand_samples, "SEARCH_CHUNK", 4)
    seen: list[tuple[int, int]] = []
    runs = [
        analyse_hand(
            parse_hand(EXAMPLE),
            samples=10,
            seed=5,
            jobs=jobs,
            defence_policy="simple",
            on_done=lambda done, total: seen.append((done, total)),
            taker_policy="greedy",
        ).to_dict()
        for jobs in (1, 2)
    ]
    assert runs[0] == runs[1]
    # 10 samples in 3 chunks of 4, every contract, then the chelem announced on the same ones.
    assert seen == [(1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (6, 6), (6, 6)] * 2


def test_the_announced_chelem_is_played_until_its_verdict_is_settled(monkeypatch):
    # Nowhere near a chelem: announcing it loses about 600 whatever the play, which the first
    # 500 samples settle (of 1,000, in chunks of 100), with one worker or two.
    monkeypatch.setattr(hand_samples, "SEARCHING", {"simple"})
    monkeypatch.setattr(hand_samples, "SEARCH_CHUNK", 100)
    seen: list[tuple[int, int]] = []
    runs = [
        analyse_hand(
            parse_hand(EXAMPLE),
            samples=1000,
            seed=5,
            jobs=jobs,
            defence_policy="simple",
            on_done=(lambda done, total: seen.append((done, total))) if jobs == 1 else None,
            taker_policy="greedy",
        )
        for jobs in (1, 2)
    ]
    assert runs[0].to_dict() == runs[1].to_dict()
    chelem = runs[0].chelem
    assert runs[0].samples == 1000 and chelem.samples == 500
    assert chelem.expected_gain.mean < -500 and not chelem.recommended
    assert chelem.expected_gain.n == 500
    # 10 batches played, 5 announced, the bar full
    assert seen == [(done, 20) for done in range(1, 16)] + [(20, 20)]


def test_five_players_call_a_king_and_three_players_work_too():
    five = analyse_hand(
        parse_hand("21 18 15 9 4 1 Excuse R♥ D♥ 8♥ R♠ 3♠ C♦ 6♦ 2♣", 5), 5, samples=200, **GREEDY
    )
    assert five.called in [c for c in range(56) if c % 14 == 13]  # a king
    assert set(five.call_scores) == {13, 27, 41, 55}
    three_hand = parse_hand(
        "21 20 17 14 11 8 5 2 1 Excuse R♥ D♥ 8♥ 4♥ R♠ 3♠ C♦ 6♦ 2♦ 1♦ R♣ 9♣ 7♣ 2♣", 3
    )
    three = analyse_hand(three_hand, 3, samples=200, position=2, **GREEDY)
    assert three.position == 2 and len(three.contracts) == 4


def test_a_petit_sec_hand_is_a_void_deal():
    hand = parse_hand("1 R♠ D♠ C♠ V♠ 10♠ R♥ D♥ C♥ V♥ 10♥ R♦ D♦ C♦ V♦ R♣ D♣ C♣")
    with pytest.raises(HandError, match="petit sec"):
        analyse_hand(hand, samples=10, **GREEDY)


def test_cli_json_has_the_documented_keys_and_dumped_deals_replay(tmp_path):
    dump = tmp_path / "deals.jsonl"
    result = CliRunner().invoke(
        advise,
        [
            EXAMPLE,
            "--samples",
            "40",
            *GREEDY_OPTIONS,
            "--json",
            "--dump-deals",
            str(dump),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert set(document) >= {
        "hand",
        "players",
        "position",
        "samples",
        "seed",
        "heuristic",
        "contracts",
        "poignee",
        "chelem",
        "recommendation",
        "called",
    }
    assert set(document["contracts"]) == {c.value for c in Contract}
    assert set(document["poignee"]) >= {"bonus", "bonus_se", "information", "information_se"}
    assert set(document["chelem"]) >= {"bonus", "bonus_se", "lead", "lead_se"}
    assert document["heuristic"]["points"] == 60 and document["heuristic"]["bid"] == "garde"
    records = load_records(dump.read_text())
    assert len(records) >= 4 * 40
    for record in records[::7]:
        outcome = replay(record).as_dict()
        for key in ("taker_points", "made", "difference", "per_defender", "scores"):
            assert record["result"][key] == outcome[key]


@pytest.mark.parametrize(
    "arguments, message",
    [
        ([EXAMPLE.replace("4♠", "6♠")], "appears twice"),
        ([EXAMPLE.replace(" 4♠", "")], "18 cards, but 17"),
        ([EXAMPLE.replace("4♠", "4x")], "'4x' is not a card"),
        ([""], "empty"),
        ([EXAMPLE, "--players", "5"], "15 cards, but 18"),
        ([EXAMPLE, "--position", "5"], "position goes from 1 to 4"),
    ],
)
def test_bad_hands_get_one_sentence_and_exit_2(arguments, message):
    result = CliRunner().invoke(advise, arguments)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_answer_against_a_weak_defence_is_the_same_deals_played_by_it():
    # The sensitivity line replays the best contract against the simple defence on the same
    # samples: exactly what a whole analysis with --defence simple finds for that contract.
    hand = parse_hand(EXAMPLE)
    usual = analyse_hand(hand, samples=1000, seed=3, **GREEDY)
    weak = analyse_hand(
        hand, samples=1000, seed=3, defence_policy="simple", sensitivity=(), taker_policy="greedy"
    )
    best = Contract(usual.recommendation)
    replayed = usual.sensitivity[hand_samples.Sides("greedy", "simple")]
    assert replayed.contract == best
    assert replayed.expected_score == weak.contracts[best].expected_score
    assert replayed.p_make == weak.contracts[best].p_make
    # The greedy defends far better than the common open-source AI (by ~40 points here).
    assert replayed.expected_score.mean > usual.contracts[best].expected_score.mean + 20
    by_table = usual.to_dict()["sensitivity"]["greedy/simple"]
    assert by_table[best.value]["p_make"] == replayed.p_make.mean
    assert usual.to_dict()["policies"] == {"taker": "greedy", "defence": "greedy"}


def test_an_unknown_policy_is_one_sentence():
    with pytest.raises(HandError, match="'clever' is not a policy"):
        analyse_hand(
            parse_hand(EXAMPLE), samples=100, defence_policy="clever", taker_policy="greedy"
        )
