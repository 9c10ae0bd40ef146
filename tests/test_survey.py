"""The survey of a staged analysis (analyzer/advice/survey.py): a first round of every contract,
and a second only where the first leaves the choice open, of the contracts still in it.

As in test_plan.py, the greedy stands in for a table that searches, so that these run fast."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from greedy_table import GREEDY, GREEDY_OPTIONS

from tarot_advisor.analyzer.advice import survey as survey_module
from tarot_advisor.analyzer.advice.action_values import AuctionResult, settled, with_gaps
from tarot_advisor.analyzer.advice.advisor import analyse_hand
from tarot_advisor.analyzer.advice.auction import bidder
from tarot_advisor.analyzer.advice.hand import call_candidates, check_hand
from tarot_advisor.analyzer.advice.hand_samples import (
    Bidding,
    Choice,
    ChunkOutcomes,
    ContractSamples,
    Sides,
    chunk,
)
from tarot_advisor.analyzer.advice.paired import pair_of
from tarot_advisor.analyzer.advice.plan import STAGED_CHUNK, SURVEY_ROUND, SURVEY_SAMPLES, Stages
from tarot_advisor.analyzer.advice.runs import Progress, Run
from tarot_advisor.analyzer.advice.survey import (
    SCREEN_GAP,
    Surveyed,
    best_of,
    call_gaps,
    live_calls,
    open_pairs,
    survey,
)
from tarot_advisor.analyzer.cards import parse_card, parse_hand
from tarot_advisor.analyzer.game import BIDS, Contract
from tarot_advisor.analyzer.parallel import FORK
from tarot_advisor.analyzer.stats import Estimate, paired_gap
from tarot_advisor.cli.advise import main as advise


def test_a_paired_gap_is_counted_on_the_samples_both_were_played_on() -> None:
    # Differences 10, 30, 10, 30: mean 20, SD 11.55, SE 5.77: 3.46 SE apart.
    gap = paired_gap(np.array([110, 130, 60, 80]), np.array([100, 100, 50, 50]))
    assert gap.mean == 20 and gap.z == pytest.approx(3.46, abs=0.01)
    assert paired_gap(np.array([5, 5]), np.array([1, 1])).z == math.inf  # 4 on every deal
    assert paired_gap(np.array([1, 2]), np.array([1, 2])).z == 0.0  # the same scores
    # A choice played on fewer samples is compared on those: the first two here.
    assert paired_gap(np.array([3, 5]), np.array([1, 2, 900])).mean == 2.5


def test_a_choice_is_settled_two_se_apart_or_known_within_ten_points_times_the_stakes() -> None:
    assert settled(Estimate(-30.0, 10.0), "garde", "prise")  # 3 SE apart
    # Level within ± 1.96 × 7.75 = ± 15.2: known well enough for Garde's stakes (± 20)…
    level = paired_gap(np.tile([30, -30], 8), np.zeros(16))
    assert level.mean == 0 and settled(level, "garde", "prise")
    # …but not between passing and a Prise (± 10), nor 1.9 SE apart.
    assert not settled(level, "prise", "pass")
    assert not settled(Estimate(-19.0, 11.0), "garde", "prise")  # ± 21.6, 1.7 SE


def _auction(scores: dict[str, list[int]]) -> tuple[AuctionResult, dict[str, np.ndarray]]:
    arrays = {action: np.array(s) for action, s in scores.items()}
    values = {action: Estimate.of(s) for action, s in arrays.items()}
    result = AuctionResult(None, "calibrated", tuple(BIDS), values, None)
    return with_gaps(result, arrays), arrays


def test_the_advice_is_settled_when_it_leads_every_other_legal_action_by_two_se() -> None:
    clear, scores = _auction(
        {
            "pass": [0, 0, -20, 0],
            "prise": [60, 70, 55, 65],
            "garde": [120, 140, 110, 130],
            "garde_sans": [-100, -80, -150, -90],
            "garde_contre": [-300, -250, -350, -280],
        }
    )
    assert clear.recommendation == "garde" and clear.open == ()
    # Garde Sans as good as Garde on average, but far less sure: not settled.
    close, scores = _auction(
        {**{a: s.tolist() for a, s in scores.items()}, "garde_sans": [100, 200, 40, 190]}
    )
    assert close.recommendation == "garde_sans" and "garde" in close.open


def _samples(scores: list[int]) -> ContractSamples:
    score = np.array(scores)
    no = np.zeros(len(score), bool)
    return ContractSamples(score > 0, score, no, no, np.zeros(len(score), np.int64))


def test_a_call_clearly_worse_than_the_best_is_dropped() -> None:
    kings = [parse_card(c) for c in ("R♦", "R♣", "R♥")]
    scores = {  # each call's best contract (Garde) on the same four deals
        kings[0]: [200, 240, 180, 220],
        kings[1]: [190, 250, 170, 230],  # 5 behind, by 12 on some deals: still in
        kings[2]: [40, 60, 20, 80],  # 160 behind every deal alike: dropped
    }
    by_choice = {}
    for king, garde in scores.items():
        for contract in Contract:
            shift = 0 if contract is Contract.GARDE else -500
            by_choice[Choice(contract, king)] = _samples([s + shift for s in garde])
    gaps = call_gaps(by_choice, tuple(kings), kings[0])
    assert live_calls(gaps, kings[0]) == (kings[0], kings[1])


def test_a_call_dropped_after_the_first_round_is_compared_on_that_rounds_deals() -> None:
    # R♦ was played on four deals, then on four more; R♣ was dropped after the first four. On
    # those, R♣ trails by 5 (by 12 on some deals): close to R♦, whatever R♦ scored after.
    diamonds, clubs = parse_card("R♦"), parse_card("R♣")
    scores = {diamonds: [200, 240, 180, 220, 900, 900, 900, 900], clubs: [190, 250, 170, 230]}
    by_choice = {
        Choice(contract, king): _samples(garde if contract is Contract.GARDE else [-500] * 4)
        for king, garde in scores.items()
        for contract in Contract
    }
    gaps = call_gaps(by_choice, (diamonds, clubs), diamonds)
    assert live_calls(gaps, diamonds) == (diamonds, clubs)


@pytest.mark.slow
def test_the_calls_as_good_as_the_chosen_one_are_said(greedy_searches) -> None:
    # The survey calls R♣ but cannot tell it from R♠ in all its rounds (R♥ and R♦, its own
    # kings, were screened out): the call's line and the JSON say so, with R♠'s paired gap.
    hand = "21 20 15 5 Excuse 5♠ R♥ D♥ 9♥ 3♥ R♦ 10♦ 3♦ 9♣ 8♣"
    options = [*GREEDY_OPTIONS, "--players", "5", "--seed", "5"]
    shown = CliRunner().invoke(advise, [*options, hand]).output
    assert "Call: R♣   [best E[score] by call: R♠ " in shown
    assert " vs best), R♣ " in shown
    assert "; R♠ still open at the budget; left out, far behind for the greedy table: " in shown
    document = json.loads(CliRunner().invoke(advise, [*options, "--json", hand]).stdout)
    assert (document["called"], document["calls_close"]) == ("R♣", ["R♠"])
    assert document["calls_open"] == ["R♠"]
    calls = document["calls"]
    assert calls["R♣"]["versus_best"] == 0 and calls["R♣"]["versus_best_se"] == 0
    assert -2 < calls["R♠"]["versus_best"] / calls["R♠"]["versus_best_se"] < 0


def test_a_clear_hand_is_surveyed_in_one_round(greedy_searches) -> None:
    analysis = analyse_hand(
        parse_hand("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"), seed=5, **GREEDY
    )
    assert analysis.recommendation == "garde"
    assert analysis.samples == SURVEY_ROUND
    assert analysis.contracts[Contract.GARDE_SANS].expected_score.n == SURVEY_ROUND


def test_an_open_choice_is_raced_a_call_clearly_worse_dropped_after_the_first_round(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On these deals, calling R♠ (a king of one's own: playing alone) is clearly worse than
    # calling R♦ after the first round; R♥, R♦ and R♣ it cannot tell apart. The next rounds play
    # those three only, each until its choice against the best is settled or the budget runs
    # out. (No call screened out before: the greedy's screen would leave R♠ out at once.)
    monkeypatch.setattr(survey_module, "SCREEN_GAP", math.inf)
    hand = check_hand(parse_hand("21 18 15 9 4 1 Excuse R♥ D♥ 8♥ R♠ 3♠ C♦ 6♦ 2♣", 5), 5)
    calls = tuple(call_candidates(hand))
    run = Run(
        common=dict(hand=hand, players=5, position=None, bidding=Bidding(bidder("calibrated"))),
        kwargs=dict(seed=4, chunk_size=STAGED_CHUNK, jobs=1, backend=FORK),
        samples=SURVEY_ROUND,
    )
    sides = Sides("greedy", "greedy")
    stages = Stages(SURVEY_ROUND, STAGED_CHUNK, staged=True)
    surveyed = survey(
        run, calls, Progress(None, stages), staged=True, keep_records=False, sides=sides
    )
    one_round = ChunkOutcomes.merge(run.map(chunk, calls=calls, keep_records=False, sides=sides))
    by_choice = surveyed.outcomes.samples
    played = {  # each call's best contract's samples: what its choice rests on
        card: len(by_choice[Choice(best_of(by_choice, card)[0], card)].score) for card in calls
    }
    assert played[parse_card("R♠")] == SURVEY_ROUND
    # Under a call other than the chosen one, a later round plays its best contract's pair only.
    for card in set(calls) - {surveyed.called}:
        best = best_of(by_choice, card)[0]
        other = next(c for c in Contract if c not in pair_of(best))
        assert len(by_choice[Choice(other, card)].score) == SURVEY_ROUND
    assert surveyed.ends == tuple(SURVEY_ROUND * np.arange(1, len(surveyed.ends) + 1))
    assert all(count in surveyed.ends for count in played.values())  # whole rounds
    assert max(played.values()) == surveyed.run.samples == surveyed.ends[-1] > SURVEY_ROUND
    assert played[surveyed.called] == surveyed.ends[-1]
    # The survey stopped when every call left was settled, or at the budget, saying which not.
    assert set(surveyed.unsettled) <= {c for c, n in played.items() if n == surveyed.ends[-1]}
    assert not surveyed.unsettled or surveyed.ends[-1] == SURVEY_SAMPLES
    assert len(surveyed.outcomes.auction.defended) == surveyed.ends[-1]
    # The first round's samples are the first of the survey's: the same chunks, the same streams.
    for key, first in one_round.samples.items():
        assert np.array_equal(surveyed.outcomes.samples[key].score[:SURVEY_ROUND], first.score)


def test_five_players_survey_no_call_the_greedy_puts_far_behind(greedy_searches) -> None:
    # Calling R♥ or R♦, kings of one's own, means playing alone: the greedy table puts each
    # more than 150 points behind calling R♣, on 512 deals of the screen's own, and the survey
    # plays only R♠ and R♣. The screen's gaps are in the JSON, apart from the surveyed scores.
    hand = parse_hand("21 20 15 5 Excuse 5♠ R♥ D♥ 9♥ 3♥ R♦ 10♦ 3♦ 9♣ 8♣", 5)
    analysis = analyse_hand(hand, 5, seed=5, **GREEDY)
    screened = {parse_card("R♥"), parse_card("R♦")}
    assert set(analysis.screened_calls) == screened
    assert all(gap >= SCREEN_GAP for gap in analysis.screened_calls.values())
    assert set(analysis.call_scores) == {parse_card("R♠"), parse_card("R♣")}
    assert analysis.called in analysis.call_scores
    document = analysis.to_dict()
    assert set(document["calls_screened"]) == {"R♥", "R♦"}
    assert set(document["call_scores"]) == {"R♠", "R♣"}


def test_a_call_is_screened_out_only_when_far_behind_and_surely_so(greedy_searches) -> None:
    # The same hand with the bar out of reach, in points or in standard errors: every call is
    # surveyed.
    hand = parse_hand("21 20 15 5 Excuse 5♠ R♥ D♥ 9♥ 3♥ R♦ 10♦ 3♦ 9♣ 8♣", 5)
    for bar in ("SCREEN_GAP", "SCREEN_Z"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(survey_module, bar, math.inf)
            analysis = analyse_hand(hand, 5, seed=5, **GREEDY)
        assert analysis.screened_calls == {}
        assert len(analysis.call_scores) == 4


def test_the_survey_leaves_the_poignee_to_the_focus(greedy_searches) -> None:
    # Ten trumps: a poignée in every deal. The survey compares the contracts with it hidden and
    # plays no sample again shown; the focus shows it for the advised contract's pair, whose two
    # contracts alone get a poignée advice.
    hand = parse_hand("21 20 18 15 13 11 9 5 3 1 R♥ D♥ 7♥ R♠ 4♠ 2♦ V♣ 8♣")
    analysis = analyse_hand(hand, seed=5, **GREEDY)
    assert analysis.focus is not None
    assert set(analysis.poignees) == set(analysis.focus.contracts)
    advised = analysis.poignees[Contract(analysis.recommendation)]
    assert advised == analysis.poignee and advised.eligible and advised.expected_gain.n >= 128


def _surveyed(auction: AuctionResult, taker: dict[Contract, list[int]]) -> Surveyed:
    """A 4-player survey's first round: ``auction``, and the contracts' scores as taker."""
    samples = {Choice(c, None): _samples(s) for c, s in taker.items()}
    outcomes = ChunkOutcomes(samples, [], None, (0, 0))  # type: ignore[arg-type]
    return Surveyed(outcomes, None, None, {}, auction, {}, None, (4,))  # type: ignore[arg-type]


def test_the_second_round_plays_only_the_pairs_still_in_the_choice() -> None:
    taker = {
        Contract.PRISE: [30, 50, -40, 60],
        Contract.GARDE: [60, 100, -80, 120],
        Contract.GARDE_SANS: [-200, -150, -250, -100],
        Contract.GARDE_CONTRE: [-400, -300, -500, -200],
    }
    # Garde advised; passing and Prise within reach of it, Garde Sans and Garde Contre far
    # behind on every deal: the next round plays Prise and Garde (and the auction) only.
    actions = {"pass": [20, 0, 10, -10], **{c.value: s for c, s in taker.items()}}
    auction, _ = _auction(actions)
    assert auction.recommendation == "garde" and auction.open == ("pass", "prise")
    assert open_pairs(_surveyed(auction, taker)) == (Contract.PRISE,)
    # Passing advised, Garde within 2 SE of it: the same pair (the focus measures Garde).
    auction, _ = _auction({**actions, "pass": [40, 120, 30, 50]})
    assert auction.recommendation == "pass"
    assert open_pairs(_surveyed(auction, taker)) == (Contract.PRISE,)
    # Garde Sans ahead of Garde on average, but far less sure: both pairs.
    auction, _ = _auction({**actions, "garde_sans": [300, -100, 40, 190]})
    assert auction.recommendation == "garde_sans"
    assert open_pairs(_surveyed(auction, taker)) == (Contract.PRISE, Contract.GARDE_SANS)


def test_a_pair_left_out_keeps_its_first_rounds_numbers_and_says_so(greedy_searches) -> None:
    # Passing and Prise/Garde are close after 32 samples; Garde Sans and Garde Contre are far
    # behind: they rest on the first round's 32 samples, the others on 64.
    hand = parse_hand("19 15 14 6 4 3 1 V♠ 6♠ 4♠ 1♠ 4♥ R♦ V♦ 4♦ R♣ C♣ 4♣")
    analysis = analyse_hand(hand, seed=2, **GREEDY)
    assert analysis.samples == SURVEY_SAMPLES and analysis.focus is not None
    assert analysis.focus.contracts == (Contract.PRISE, Contract.GARDE)
    assert analysis.contracts[Contract.GARDE_SANS].samples == SURVEY_ROUND
    assert analysis.contracts[Contract.GARDE_CONTRE].samples == SURVEY_ROUND
    assert analysis.samples_text.startswith(
        f"{SURVEY_SAMPLES} samples of every contract (32 of Garde Sans and Garde Contre), "
    )


def test_a_focus_on_a_pair_left_out_rests_on_its_first_round(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Were the second round to leave out the pair the focus then measures, the focus would
    # size itself and fit its control on that pair's first-round samples, and the auction pair
    # them with the first-round deals' outcomes.
    monkeypatch.setattr(survey_module, "open_pairs", lambda *_: (Contract.GARDE_SANS,))
    hand = parse_hand("19 15 14 6 4 3 1 V♠ 6♠ 4♠ 1♠ 4♥ R♦ V♦ 4♦ R♣ C♣ 4♣")
    analysis = analyse_hand(hand, seed=1, **GREEDY)
    assert analysis.focus is not None
    assert analysis.focus.contracts == (Contract.PRISE, Contract.GARDE)
    assert analysis.contracts[Contract.GARDE_SANS].samples == SURVEY_SAMPLES
    assert analysis.samples_text.startswith(f"{SURVEY_SAMPLES} samples of every contract, ")
    assert set(analysis.auction.values) == set(BIDS)
