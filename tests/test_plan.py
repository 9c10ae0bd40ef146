"""The staged analysis (analyzer/advice/plan.py): a survey of every contract chooses the advice,
then a focus of fresh samples measures the advised contract as precisely as the plan asks.

The lookahead makes these tests slow, so most of them let the greedy stand in for a table that
searches (``hand_samples.SEARCHING``): the plan is the same whoever plays the cards."""

from __future__ import annotations

import numpy as np
import pytest
from greedy_table import GREEDY, STAND_IN_CONTROL

from tarot_advisor.analyzer.advice import advisor, chelem, control, hand_samples
from tarot_advisor.analyzer.advice.advisor import FOCUS_FIRST_CHUNK, analyse_hand
from tarot_advisor.analyzer.advice.auction import bidder
from tarot_advisor.analyzer.advice.hand_samples import (
    Bidding,
    Choice,
    Sides,
    focus_chunk,
)
from tarot_advisor.analyzer.advice.plan import (
    P_MAKE_HALF_WIDTH,
    POIGNEE_SAMPLES,
    SCORE_HALF_WIDTH,
    SURVEY_ROUND,
    first_round,
    half_size,
    margin,
    needed,
    second_round,
    unseen_allowance,
)
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.parallel import map_chunks
from tarot_advisor.analyzer.stats import Z95

EXAMPLE = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
POIGNEE_HAND = "21 20 18 15 13 11 9 5 3 1 R♥ D♥ 7♥ R♠ 4♠ 2♦ V♣ 8♣"


def test_samples_made_every_time_still_ask_for_some() -> None:
    # 64 makes of 64 at a constant score: P(make) is taken at (64 + 2) / (64 + 4), whose
    # variance 0.0285 asks for 0.0285 × (1.96 / 0.035)² = 89.5 samples.
    assert needed(np.ones(64, bool), 0.0, Contract.GARDE) == pytest.approx(89.5, abs=0.1)


def test_p_make_asks_for_samples_by_its_variance_and_what_the_control_leaves() -> None:
    # 56 makes of 64: (56 + 2) / 68 = 0.853, variance 0.125 × (1.96 / 0.035)² = 393; a control
    # that leaves two thirds of it, 262.
    made = np.array([True] * 56 + [False] * 8)
    assert needed(made, 0.0, Contract.GARDE) == pytest.approx(393.4, abs=0.1)
    assert needed(made, 0.0, Contract.GARDE, made_ratio=2 / 3) == pytest.approx(262.2, abs=0.1)


def test_the_score_spread_asks_for_samples_by_the_contract_multiplier() -> None:
    # Made every time, the score's variance 10,159: a Garde's ± 12 needs
    # 10,159 × (1.96 / 12)² = 271 samples, a Garde Sans's ± 24 a quarter of it.
    made = np.ones(64, bool)
    assert needed(made, 10_159.0, Contract.GARDE) == pytest.approx(271.0, abs=0.1)
    assert needed(made, 10_159.0, Contract.GARDE_SANS) == pytest.approx(89.5, abs=0.1)  # P's
    # Made one time in two, P(make) asks for 0.25 × (1.96 / 0.035)² = 784, more than the score.
    one_in_two = np.tile([True, False], 32)
    assert needed(one_in_two, 10_159.0, Contract.GARDE) == pytest.approx(784, abs=0.1)


def test_the_first_round_plays_half_the_survey_asks_in_two_halves_of_at_least_128() -> None:
    assert first_round(89.5) == (128, 128)  # the fewest
    assert first_round(1000.0) == (256, 256)  # 500, in whole chunks of 32: 512
    assert first_round(1e6) == (1984, 1984)  # the most, less the second round's 16 a half


def test_a_half_plays_on_to_half_what_the_other_half_asks() -> None:
    # 1,000 samples needed (with the margin): 500 a half, of which the first round played 128.
    assert half_size(128, 1000.0) == 500
    assert half_size(128, 10.0) == 144  # 16 more whatever the first round showed
    assert half_size(1984, 1e6) == 2000  # 4,000 in all at most


def test_the_second_round_splits_the_larger_half_so_that_both_cores_end_together() -> None:
    # Halves 11 apart, less than a chunk's own cost (20 samples' worth): one chunk each.
    assert second_round((193, 182)) == ((0, 193), (1, 182))
    # 16 and 143: the 143 in two around the 16. One core plays 89 (20 + 89 = 109), the other
    # 16 then 54 (20 + 16 + 20 + 54 = 110), against 163 for the 143 in one chunk.
    assert second_round((16, 143)) == ((1, 89), (0, 16), (1, 54))
    # The poignée shown again on 128 of them: 43 a chunk of three, which the 16 cannot hold.
    assert second_round((16, 143), (128, 0)) == ((0, 16), (1, 143))
    # 90 and 224, 128 shown: 181 + 43 shown on one core, 90 + 43 then 43 + 43 on the other.
    assert second_round((90, 224), (128, 0)) == ((1, 181), (0, 90), (1, 43))


def test_the_margin_grows_with_the_doubt_on_the_spread() -> None:
    # Made one time in two over 200 samples: the variance is known within √((1 − 1)/200) ≈ 0,
    # and the least margin, 1.15, stands. Made 94 times in 100, twice over: a dozen failures set
    # the variance, within √((14.9 − 1)/200) = 0.26 of itself, and the margin is 1 + 2.5 × 0.26.
    assert margin(np.tile([0.0, 1.0], 100)) == pytest.approx(1.15)
    rare = np.tile(np.repeat([1.0, 0.0], [94, 6]), 2)
    kurtosis = (1 - 6 * 0.06 * 0.94) / (0.06 * 0.94) + 3
    assert margin(rare) == pytest.approx(1 + 2.5 * np.sqrt((kurtosis - 197 / 199) / 200))
    assert margin(rare) == pytest.approx(1.66, abs=0.01)
    assert margin(np.full(50, 7.0)) == 1.15  # no spread at all
    # A score with such failures asks for its P(make)'s and its score's samples each with its own.
    made = rare.astype(bool)
    assert needed(made, 10_159.0, Contract.GARDE, margins=(1.5, 2.0)) == pytest.approx(542, abs=1)


def test_a_failure_seen_once_is_allowed_for_as_if_seen_three_times() -> None:
    # 191 Gardes Contre made at the same score and one failure 2,000 below: the spread seen,
    # about 2,000² / 192 = 20,833, is one failure's; with two more failures as far below (and
    # two more makes), about 3 × 2,000² / 195 = 61,000. The allowance is the difference.
    made = np.ones(192, bool)
    made[0] = False
    residuals = np.where(made, 0.0, -2000.0)
    seen = np.var(residuals, ddof=1)
    assert seen == pytest.approx(20_833, abs=1)
    assert seen + unseen_allowance(residuals, made) == pytest.approx(61_006, abs=1)
    # Made one time in two, two more of each change nothing worth adding.
    one_in_two = np.tile([True, False], 96)
    assert unseen_allowance(np.where(one_in_two, 100.0, -100.0), one_in_two) == 0.0
    # Nothing failed: nothing is known of a failure's score, and nothing is added for it.
    assert unseen_allowance(np.zeros(64), np.ones(64, bool)) == 0.0


def test_the_default_for_a_searching_table_is_a_survey_then_a_focus(greedy_searches) -> None:
    analysis = analyse_hand(parse_hand(EXAMPLE), seed=5, **GREEDY)
    # Garde far ahead of every other action: the survey's first round settles it.
    assert analysis.samples == SURVEY_ROUND and analysis.focus is not None
    assert analysis.recommendation == "garde"
    assert analysis.focus.contracts == (Contract.PRISE, Contract.GARDE)
    samples = {c: r.samples for c, r in analysis.contracts.items()}
    assert samples == {
        Contract.PRISE: analysis.focus.samples,
        Contract.GARDE: analysis.focus.samples,
        Contract.GARDE_SANS: SURVEY_ROUND,
        Contract.GARDE_CONTRE: SURVEY_ROUND,
    }
    # The advised contract within the plan's targets: ± 3.5 points of P(make), ± 12 (Garde).
    garde = analysis.contracts[Contract.GARDE]
    assert Z95 * garde.p_make.se <= P_MAKE_HALF_WIDTH
    assert Z95 * garde.expected_score.se <= SCORE_HALF_WIDTH * Contract.GARDE.multiplier
    text = analysis.to_dict()
    assert text["focus"] == {
        "samples": analysis.focus.samples,
        "contracts": ["prise", "garde"],
        "controls": 16 * analysis.focus.samples,
    }
    assert text["contracts"]["garde_sans"]["samples"] == SURVEY_ROUND


def test_each_half_of_the_focus_is_a_fixed_number_of_samples_of_its_own_streams(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Why the focus's numbers are unbiased: a half's size, which the survey and the other
    # half's first round chose, leans on none of its own samples, drawn from streams of its own
    # (chunks numbered from 2**30: the first round's two halves, then the second's chunks). Its
    # mean is that of a run of that size on those streams alone (the first round's first 16
    # samples a chunk played again announced, as the focus plays the chelem's, and its first
    # 64 shown), and the focus's is the mean of its two halves' means. P(make) and E[score]
    # are steadied by the control table's on the same deals and on 16 times as many fresh ones
    # (chunks from 2**31): mean(L − β·G) + β·mean(G fresh), here with β = 0.5.
    real_fit = control.fit

    def half_of_the_lone(values, covariates, lone=0, *_, **__):  # β = 0.5 on the greedy's outcome
        fitted = real_fit(values, covariates, lone)
        beta = np.zeros_like(fitted.beta)
        if lone is not None:
            beta[lone] = 0.5
        return fitted._replace(beta=beta)

    monkeypatch.setattr(control, "fit", half_of_the_lone)
    monkeypatch.setattr(control, "made_fit", half_of_the_lone)
    hand = tuple(parse_hand(EXAMPLE))
    analysis = analyse_hand(hand, seed=5, jobs=2, **GREEDY)
    assert analysis.focus is not None
    n, chunks, halves = analysis.focus.samples, analysis.focus.chunks, analysis.focus.halves
    assert halves[:2] == (0, 1) and sum(chunks) == n
    assert len(chunks) == len(halves) and len(chunks) in (4, 5) and set(halves[2:]) == {0, 1}
    where = dict(
        seed=5,
        hand=hand,
        players=4,
        position=None,
        choice=Choice(Contract.GARDE, None),
        bidding=Bidding(bidder("calibrated")),
    )
    rounds = [  # the chunks' sizes, the first one's stream, chelem and poignée samples a chunk
        (chunks[:2], FOCUS_FIRST_CHUNK, 16, 64),
        (chunks[2:], FOCUS_FIRST_CHUNK + 2, 0, 0),
    ]
    played, paired = [], []
    control_play = dict(sides=STAND_IN_CONTROL, **where)
    for sizes, first, announced, poignee in rounds:
        streams = dict(chunk_size=sizes, first_chunk=first)
        played += map_chunks(
            focus_chunk,
            sum(sizes),
            **streams,
            **where,
            keep_records=False,
            sides=Sides("greedy", "greedy"),
            announced=announced,
            poignee=poignee,
        )
        paired += map_chunks(hand_samples.replayed_chunk, sum(sizes), **streams, **control_play)
    fresh = map_chunks(
        hand_samples.replayed_chunk,
        16 * n,
        chunk_size=STAND_IN_CONTROL.chunk,
        first_chunk=control.FRESH_FIRST_CHUNK,
        **control_play,
    )
    result = analysis.contracts[Contract.GARDE]
    for index, shown in enumerate([result.p_make, result.expected_score]):
        residuals = [[], []]  # by half
        for k, ((samples, _, _), greedy) in enumerate(zip(played, paired, strict=True)):
            mine = samples[where["choice"]]
            own = np.asarray([mine.made, mine.score][index], float)
            residuals[analysis.focus.halves[k]].append(own - 0.5 * greedy[Contract.GARDE][index])
        halves = [np.mean(np.concatenate(half)) for half in residuals]
        greedy_fresh = np.concatenate([part[Contract.GARDE][index] for part in fresh])
        assert shown.mean == pytest.approx(np.mean(halves) + 0.5 * np.mean(greedy_fresh))


@pytest.mark.slow
def test_the_focus_estimates_average_to_the_tables_own_numbers(greedy_searches) -> None:
    # 16 staged analyses (seeds 0…15) against one of 30,000 samples: the focus's E[score] of
    # Garde averages to it within 4 standard errors of that average.
    hand = parse_hand(EXAMPLE)
    truth = analyse_hand(hand, samples=30_000, seed=99, **GREEDY).contracts[Contract.GARDE]
    runs = [analyse_hand(hand, seed=seed, **GREEDY) for seed in range(16)]
    estimates = np.array([r.contracts[Contract.GARDE].expected_score.mean for r in runs])
    se = np.hypot(estimates.std(ddof=1) / np.sqrt(len(estimates)), truth.expected_score.se)
    assert abs(estimates.mean() - truth.expected_score.mean) < 4 * se


def test_the_same_seed_gives_the_same_staged_numbers_whatever_the_jobs(greedy_searches) -> None:
    hand = parse_hand(EXAMPLE)
    one = analyse_hand(hand, seed=8, jobs=1, **GREEDY).to_dict()
    two = analyse_hand(hand, seed=8, jobs=2, **GREEDY).to_dict()
    assert one == two


def test_the_focus_plays_the_chelem_announced_on_its_first_32_samples(greedy_searches) -> None:
    # Nowhere near a chelem: announcing it loses about 600, which 32 samples settle.
    analysis = analyse_hand(parse_hand(EXAMPLE), seed=5, **GREEDY)
    assert analysis.focus is not None and analysis.focus.samples > 64
    chelem = analysis.chelem
    assert chelem.expected_gain.n == 32
    assert chelem.expected_gain.mean < -500 and not chelem.recommended


def test_the_focus_shows_the_poignee_on_its_first_128_samples_when_they_settle_it(
    greedy_searches,
) -> None:
    # Ten trumps: a simple poignée in every deal. The bonus is won nearly always (Garde Sans or
    # Contre made nearly always), which 128 samples settle; the focus's others are played once.
    hand = parse_hand(POIGNEE_HAND)
    analysis = analyse_hand(hand, seed=5, **GREEDY)
    assert analysis.focus is not None and analysis.focus.samples > POIGNEE_SAMPLES == 256
    poignee = analysis.poignee
    assert poignee.eligible and poignee.p_eligible == 1.0
    assert poignee.expected_gain.n == poignee.bonus.n == 128
    assert poignee.bonus.mean > 0 and poignee.expected_gain.z > 2


def test_a_poignee_the_first_round_leaves_open_is_shown_in_the_second_too(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No verdict settled (a threshold never reached): each of the second round's two or three
    # chunks shows it on its first 64 or 43 samples too (all of a smaller chunk), 128 more at
    # most.
    monkeypatch.setattr(advisor, "SETTLED_Z", np.inf)
    analysis = analyse_hand(parse_hand(POIGNEE_HAND), seed=5, **GREEDY)
    assert analysis.focus is not None
    second = analysis.focus.chunks[2:]
    share = -(-128 // len(second))
    assert analysis.poignee.expected_gain.n == 128 + sum(min(share, size) for size in second)


def test_a_chelem_its_first_32_samples_leave_unsettled_is_announced_in_the_second_round_too(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A verdict that 32 samples never settle but 96 do: the second round's two or three chunks
    # announce 32 or 22 each, and no chunk of the focus is replayed announced.
    monkeypatch.setattr(chelem.Announced, "settled", lambda announced, _: len(announced.rows) > 32)
    seen: list[tuple[int, int]] = []
    analysis = analyse_hand(
        parse_hand(EXAMPLE),
        seed=5,
        on_done=lambda done, total: seen.append((done, total)),
        **GREEDY,
    )
    assert analysis.focus is not None
    second = analysis.focus.chunks[2:]
    share = -(-64 // len(second))
    assert min(second) >= share
    assert analysis.chelem.expected_gain.n == 32 + share * len(second)
    assert analysis.chelem.expected_gain.mean < -500 and not analysis.chelem.recommended
    # The survey's 2 chunks, the focus's 2 then the second round's, and nothing more; the bar
    # ends full.
    end = 4 + len(second)
    assert seen == [(1, 2), (2, 2), (3, 4), (4, 4)] + [(k, end) for k in range(5, end + 1)] + [
        (end, end)
    ]


def test_a_chelem_the_first_samples_leave_unsettled_is_played_on_every_focus_sample(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chelem, "CHELEM_SETTLED", np.inf)
    seen: list[tuple[int, int]] = []
    analysis = analyse_hand(
        parse_hand(EXAMPLE),
        seed=5,
        on_done=lambda done, total: seen.append((done, total)),
        **GREEDY,
    )
    assert analysis.focus is not None
    assert analysis.chelem.expected_gain.n == analysis.focus.samples
    # The survey's 2 chunks, the focus's 2 then the second round's, then the chelem's on each
    # of them again; the bar ends full.
    later = len(analysis.focus.chunks) - 2
    survey, first = [(1, 2), (2, 2)], [(3, 4), (4, 4)]
    second = [(k, 4 + later) for k in range(5, 5 + later)]
    end = 6 + 2 * later
    assert seen == survey + first + second + [(k, end) for k in range(5 + later, end + 1)] + [
        (end, end)
    ]


def test_advised_to_pass_the_focus_measures_a_contract_still_biddable(greedy_searches) -> None:
    # Garde and Garde Sans heard: the user may only pass or bid Garde Contre. A weak hand passes,
    # and the focus measures the pair it could still bid, not Prise and Garde.
    hand = parse_hand("6♣ 6♦ 3 1♦ 2♦ 9♦ 9♣ 1 2♣ 6♠ 5♥ 8♣ 4♦ 11 7♠ 15 7♥ V♣ R♣ 5♦ 8♠ 9♥ 9♠ 7♦", 3)
    analysis = analyse_hand(hand, 3, bids=("garde", "garde_sans"), seed=7, **GREEDY)
    assert analysis.recommendation == "pass"
    assert analysis.focus.contracts == (Contract.GARDE_SANS, Contract.GARDE_CONTRE)
