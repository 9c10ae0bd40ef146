"""The staged analysis (analyzer/advice/plan.py): a survey of every contract chooses the advice,
then a focus of fresh samples measures the advised contract as precisely as the plan asks.

The lookahead makes these tests slow, so most of them let the greedy stand in for a table that
searches (``hand_samples.SEARCHING``): the plan is the same whoever plays the cards."""

from __future__ import annotations

import numpy as np
import pytest
from greedy_table import GREEDY

from tarot_advisor.analyzer.advice import chelem, control, hand_samples
from tarot_advisor.analyzer.advice.advisor import FOCUS_FIRST_CHUNK, analyse_hand
from tarot_advisor.analyzer.advice.auction import bidder
from tarot_advisor.analyzer.advice.hand_samples import (
    Bidding,
    Choice,
    ChunkOutcomes,
    Sides,
    focus_chunk,
)
from tarot_advisor.analyzer.advice.plan import (
    P_MAKE_HALF_WIDTH,
    POIGNEE_SAMPLES,
    SCORE_HALF_WIDTH,
    SURVEY_SAMPLES,
    focus_chunks,
    focus_samples,
)
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.parallel import map_chunks
from tarot_advisor.analyzer.stats import Z95

EXAMPLE = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"


STAND_IN_CONTROL = Sides("greedy", "simple")
"""The control table while the greedy stands in for the searching one: another table, so that
the focus's E[score] is steadied by scores that are correlated with its own, not equal."""


@pytest.fixture
def greedy_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The greedy stands in for a searching table: the default analysis is then staged."""
    monkeypatch.setattr(hand_samples, "SEARCHING", frozenset({"greedy"}))
    monkeypatch.setattr(control, "CONTROL_TABLE", STAND_IN_CONTROL)


def test_a_survey_made_every_time_still_asks_for_samples() -> None:
    # 64 makes of 64 at a constant score: P(make) is taken at (64 + 2) / (64 + 4), whose
    # variance 0.0285 asks for 0.0285 × (1.96 / 0.035)² = 89.5 samples, × 1.5 = 135: fewer
    # than the fewest a focus plays.
    assert focus_samples(np.ones(64, bool), 0.0, Contract.GARDE) == 384


def test_p_make_asks_for_samples_by_its_variance_and_what_the_control_leaves() -> None:
    # 56 makes of 64: (56 + 2) / 68 = 0.853, variance 0.125 × (1.96 / 0.035)² × 1.5 = 590, in
    # chunks of 32: 608; a control that leaves two thirds of it, 393: 416.
    made = np.array([True] * 56 + [False] * 8)
    assert focus_samples(made, 0.0, Contract.GARDE) == 608
    assert focus_samples(made, 0.0, Contract.GARDE, made_ratio=2 / 3) == 416


def test_the_score_spread_asks_for_samples_by_the_contract_multiplier() -> None:
    # Made every time, the score's variance 10,159: a Garde's ± 12 needs
    # 10,159 × (1.96 / 12)² = 271 samples, × 1.5 = 407, in chunks of 32: 416.
    made = np.ones(64, bool)
    spread = 10_159.0
    assert focus_samples(made, spread, Contract.GARDE) == 416
    # A Garde Sans (± 24) needs a quarter of it: 102, below the fewest a focus plays.
    assert focus_samples(made, spread, Contract.GARDE_SANS) == 384
    # P(make) one half: 0.25 × (1.96 / 0.035)² × 1.5 = 1,176 → 1,184, above the score's.
    assert focus_samples(np.tile([True, False], 32), spread, Contract.GARDE) == 1184


def test_the_focus_plays_at_least_384_and_at_most_4000_samples() -> None:
    made = np.ones(64, bool)
    assert focus_samples(made, 0.0, Contract.PRISE) == 384
    assert focus_samples(made, 1e8, Contract.PRISE) == 4000


def test_the_focus_comes_in_two_halves() -> None:
    # One per core of a laptop: a search is cheaper a deal in large runs than in small ones.
    assert focus_chunks(352) == (176, 176)
    assert focus_chunks(97) == (49, 48)
    assert focus_chunks(1) == (1,)


def test_the_default_for_a_searching_table_is_a_survey_then_a_focus(greedy_searches) -> None:
    analysis = analyse_hand(parse_hand(EXAMPLE), seed=5, **GREEDY)
    assert analysis.samples == SURVEY_SAMPLES and analysis.focus is not None
    assert analysis.recommendation == "garde"
    assert analysis.focus.contracts == (Contract.PRISE, Contract.GARDE)
    samples = {c: r.samples for c, r in analysis.contracts.items()}
    assert samples == {
        Contract.PRISE: analysis.focus.samples,
        Contract.GARDE: analysis.focus.samples,
        Contract.GARDE_SANS: SURVEY_SAMPLES,
        Contract.GARDE_CONTRE: SURVEY_SAMPLES,
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
    assert text["contracts"]["garde_sans"]["samples"] == SURVEY_SAMPLES


def test_the_focus_is_a_fixed_number_of_samples_the_survey_never_drew(
    greedy_searches, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Why the focus's numbers are unbiased: given its size, which the survey chose, they are
    # the mean of that many samples from streams of their own (chunks numbered from 2**30),
    # exactly what a run of that size on those streams alone gives (its first 32 samples a
    # chunk played again announced, as the focus plays the chelem's, and its first 128 shown).
    # P(make) and E[score] are steadied by the control table's on the same deals and on 16
    # times as many fresh ones (chunks from 2**31): mean(L − β·G) + β·mean(G fresh), here with
    # β = 0.5.
    monkeypatch.setattr(control, "coefficient", lambda score, greedy: 0.5)
    hand = tuple(parse_hand(EXAMPLE))
    analysis = analyse_hand(hand, seed=5, jobs=2, **GREEDY)
    assert analysis.focus is not None
    n = analysis.focus.samples
    where = dict(
        seed=5,
        hand=hand,
        players=4,
        position=None,
        choice=Choice(Contract.GARDE, None),
        bidding=Bidding(bidder("calibrated")),
    )
    focus = dict(chunk_size=focus_chunks(n), first_chunk=FOCUS_FIRST_CHUNK)
    parts = map_chunks(
        focus_chunk,
        n,
        **focus,
        **where,
        keep_records=False,
        sides=Sides("greedy", "greedy"),
        announced=32,
        poignee=128,
    )
    garde = ChunkOutcomes.merge_samples([samples for samples, _, _ in parts])[where["choice"]]
    control_play = dict(sides=STAND_IN_CONTROL, **where)
    paired = map_chunks(hand_samples.replayed_chunk, n, **focus, **control_play)
    fresh = map_chunks(
        hand_samples.replayed_chunk,
        16 * n,
        chunk_size=STAND_IN_CONTROL.chunk,
        first_chunk=control.FRESH_FIRST_CHUNK,
        **control_play,
    )
    result = analysis.contracts[Contract.GARDE]
    for index, (mine, shown) in enumerate(
        [(garde.made, result.p_make), (garde.score, result.expected_score)]
    ):
        greedy = np.concatenate([part[Contract.GARDE][index] for part in paired])
        greedy_fresh = np.concatenate([part[Contract.GARDE][index] for part in fresh])
        steadied = np.mean(mine - 0.5 * greedy) + 0.5 * np.mean(greedy_fresh)
        assert shown.mean == pytest.approx(steadied)


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


def test_the_focus_plays_the_chelem_announced_on_its_first_64_samples(greedy_searches) -> None:
    # Nowhere near a chelem: announcing it loses about 600, which 64 samples settle.
    analysis = analyse_hand(parse_hand(EXAMPLE), seed=5, **GREEDY)
    assert analysis.focus is not None and analysis.focus.samples > 64
    chelem = analysis.chelem
    assert chelem.expected_gain.n == 64
    assert chelem.expected_gain.mean < -500 and not chelem.recommended


def test_the_focus_shows_the_poignee_on_its_first_256_samples_only(greedy_searches) -> None:
    # Ten trumps: a simple poignée in every deal. The focus's other samples are played once.
    hand = parse_hand("21 20 18 15 13 11 9 5 3 1 R♥ D♥ 7♥ R♠ 4♠ 2♦ V♣ 8♣")
    analysis = analyse_hand(hand, seed=5, **GREEDY)
    assert analysis.focus is not None and analysis.focus.samples > POIGNEE_SAMPLES == 256
    poignee = analysis.poignee
    assert poignee.eligible and poignee.p_eligible == 1.0
    assert poignee.expected_gain.n == poignee.bonus.n == 256
    assert poignee.bonus.mean > 0  # Garde Sans or Contre made nearly always: the bonus is won


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
    # The survey's 2 chunks, the focus's 2, then the chelem's 2 again; the bar ends full.
    assert seen == [(1, 2), (2, 2), (3, 4), (4, 4), (5, 6), (6, 6), (6, 6)]
