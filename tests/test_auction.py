"""The auction: the bids heard condition the deals, the advice is a legal action, and passing
is worth what defending is worth."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from greedy_table import GREEDY, GREEDY_OPTIONS

from tarot_advisor.analyzer.advice.advisor import HandError, analyse_hand
from tarot_advisor.analyzer.advice.auction import PointCountBidder, bidder, sample_auction
from tarot_advisor.analyzer.advice.bids import AuctionError, legal_actions, parse_bids
from tarot_advisor.analyzer.advice.hand_samples import GREEDY_TABLE, Sides
from tarot_advisor.analyzer.advice.heuristic import heuristic_bids, point_counts
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.cli.advise import main as advise

EXAMPLE = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
MONSTER = "21 20 19 18 17 15 13 11 9 7 Excuse R♠ R♥ D♥ C♥ R♦ 5♦ 3♣"
AVERAGE = "12 8 5 3 2 D♠ 7♠ 4♠ 1♠ V♥ 6♥ 2♥ C♦ 10♦ 4♦ 9♣ 8♣ 3♣"


def test_bids_must_rise_and_leave_the_user_a_turn():
    assert parse_bids("pass prise", 4) == (0, 1)
    assert parse_bids("", 4) == ()  # nobody spoke before: the user speaks first
    with pytest.raises(AuctionError, match="',' names no bid"):
        parse_bids(" , ", 4)  # separators alone are a typo, not silence
    assert parse_bids(["pass", "garde_sans"], 4) == (0, 3)
    with pytest.raises(AuctionError, match="cannot follow a Garde"):
        parse_bids("garde prise", 4)
    with pytest.raises(AuctionError, match="at most 3 speak before you"):
        parse_bids("pass pass pass pass", 4)
    with pytest.raises(AuctionError, match="not a bid"):
        parse_bids("pass bof", 4)


def test_bids_are_read_as_a_player_types_them():
    assert parse_bids("Passe, garde sans le chien", 4) == (0, 3)
    assert parse_bids("pass,prise", 4) == (0, 1)
    assert parse_bids("garde contre", 4) == (4,)
    assert parse_bids("petite; GARDE-SANS", 4) == (1, 3)
    assert parse_bids("pass garde sans chien", 4) == (0, 3)
    with pytest.raises(AuctionError, match="'p' may be a pass or a Prise"):
        parse_bids("p", 4)
    with pytest.raises(AuctionError, match="'bof' is not a bid"):
        parse_bids("pass, bof", 4)


def test_after_a_garde_contre_the_only_legal_action_is_pass():
    assert legal_actions(parse_bids("pass garde_contre", 4)) == ("pass",)
    assert legal_actions(parse_bids("prise", 4)) == ("pass", *BIDS[2:])
    hand = parse_hand("9 8 5 3 2 D♠ 7♠ 4♠ V♥ 6♥ 2♥ 10♦ 4♦ 8♣ 3♣", 5)
    analysis = analyse_hand(hand, 5, bids=["garde_contre"], samples=200, **GREEDY)
    assert analysis.auction.legal_actions == ("pass",)
    assert analysis.recommendation == "pass"


def test_after_a_garde_contre_no_poignee_chelem_or_score_sheet_speaks_of_a_contract(
    greedy_searches,
):
    # The staged analysis stops after its survey: there is no contract left to focus on.
    hand = parse_hand(AVERAGE)
    analysis = analyse_hand(hand, bids=["pass", "garde_contre"], seed=3, **GREEDY)
    assert (analysis.judged, analysis.focus, analysis.poignee, analysis.chelem) == (None,) * 4
    assert analysis.sensitivity == {}
    result = CliRunner().invoke(advise, [*GREEDY_OPTIONS, "--bids", "pass garde_contre", AVERAGE])
    assert result.exit_code == 0, result.output
    assert "Advice: PASS — Garde Contre was heard: nothing is left to bid" in result.output
    assert "Poignée: none to show, nothing is left to bid." in result.output
    assert "Score sheet" not in result.output
    document = json.loads(
        CliRunner()
        .invoke(advise, [*GREEDY_OPTIONS, "--json", "--bids", "pass garde_contre", AVERAGE])
        .output
    )
    assert (document["poignee"], document["chelem"], document["focus"]) == (None, None, None)
    # Five players: no king to call when one may not take.
    five = [*GREEDY_OPTIONS, "--players", "5", "--samples", "50", "--bids", "garde_contre"]
    hand = "9 8 5 3 2 D♠ 7♠ 4♠ V♥ 6♥ 2♥ 10♦ 4♦ 8♣ 3♣"
    result = CliRunner().invoke(advise, [*five, hand])
    assert result.exit_code == 0, result.output
    assert "Call:" not in result.output
    document = json.loads(CliRunner().invoke(advise, [*five, "--json", hand]).stdout)
    assert (document["called"], document["call_scores"], document["calls_close"]) == (
        None,
        {},
        [],
    )
    assert document["calls_screened"] == {}


def test_after_a_garde_a_monster_hand_overcalls():
    analysis = analyse_hand(parse_hand(MONSTER), bids=["garde"], samples=300, **GREEDY)
    assert analysis.position == 2
    assert analysis.recommendation in ("garde_sans", "garde_contre")
    values = analysis.auction.values
    assert values[analysis.recommendation].mean > values["pass"].mean


def test_every_kept_deal_makes_the_bids_heard():
    # Without the judgement's noise every earlier hand's own count must give its bid.
    rng = np.random.default_rng(4)
    hand = parse_hand(AVERAGE)
    drawn = sample_auction(rng, 300, hand, 4, (0, 1), PointCountBidder("seed", 0.0))
    hands = drawn.deals.hands
    assert (np.sort(hands[:, 2], axis=1) == np.sort(hand)).all()
    first = heuristic_bids(*point_counts(hands[:, 0]))
    second = heuristic_bids(*point_counts(hands[:, 1]))
    assert (first == 0).all() and (second == 1).all()
    assert 0 < drawn.fitting / drawn.drawn < 1


@pytest.mark.parametrize("seed", range(6))
def test_the_advice_is_always_a_legal_action(seed):
    rng = np.random.default_rng(seed)
    players = int(rng.choice([3, 4, 5]))
    cards = rng.permutation(78)[: {3: 24, 4: 18, 5: 15}[players]]
    heard, highest = [], 0
    for _ in range(int(rng.integers(0, players))):
        bid = int(rng.choice([0, *range(highest + 1, 5)])) if highest < 4 else 0
        heard.append(BIDS[bid])
        highest = max(highest, bid)
    try:
        analysis = analyse_hand(
            cards.tolist(), players, bids=heard, samples=60, seed=seed, **GREEDY
        )
    except HandError as error:  # petit sec, or an auction the model finds impossible
        assert "petit sec" in str(error) or "impossible" in str(error)
        return
    assert analysis.recommendation in legal_actions(parse_bids(heard, players))


def test_expected_pass_agrees_across_seeds():
    one, two = (
        analyse_hand(parse_hand(AVERAGE), bids=["pass"], samples=1500, seed=s, **GREEDY).auction
        for s in (1, 2)
    )
    a, b = one.expected_pass, two.expected_pass
    assert a.mean < 0  # defending a weak hand against a taker costs points
    assert abs(a.mean - b.mean) < 5 * np.hypot(a.se, b.se)


def test_without_bids_passing_is_still_valued():
    auction = analyse_hand(parse_hand(AVERAGE), samples=300, **GREEDY).auction
    assert auction.bids is None and auction.acceptance_rate is None
    assert auction.expected_pass.se > 0
    assert auction.legal_actions == BIDS


def test_cli_bids_json_keys_and_bad_auctions():
    runner = CliRunner()
    result = runner.invoke(
        advise, [EXAMPLE, "--bids", "pass prise", "--samples", "200", *GREEDY_OPTIONS, "--json"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["bids"] == ["pass", "prise"] and document["position"] == 3
    assert document["legal_actions"] == ["pass", "garde", "garde_sans", "garde_contre"]
    for key in ("expected_pass", "expected_pass_se", "acceptance_rate"):
        assert isinstance(document[key], float)
    assert document["recommendation"] in document["legal_actions"]
    assert list(document["actions"]) == document["legal_actions"]  # Prise can no longer be bid
    for bids, message in (
        ("garde prise", "cannot follow a Garde"),
        ("pass pass pass pass", "at most 3"),
    ):
        result = runner.invoke(advise, [EXAMPLE, "--bids", bids])
        assert result.exit_code == 2 and message in result.stderr
        assert result.stderr.count("\n") == 1
    result = runner.invoke(advise, [EXAMPLE, "--bids", "pass", "--position", "3"])
    assert result.exit_code == 2 and "position 2, not 3" in result.stderr


def test_an_impossible_auction_gets_one_sentence_and_exit_2():
    # No other hand counts 56 beside this monster: without noise nobody could have said Garde.
    result = CliRunner().invoke(
        advise,
        [MONSTER, "--bids", "garde", "--others", "seed-exact", "--samples", "500", *GREEDY_OPTIONS],
    )
    assert result.exit_code == 2
    assert "impossible" in result.stderr and result.stderr.count("\n") == 1


def test_whether_the_bids_are_possible_does_not_depend_on_the_samples_asked_for():
    # Fewer than 10 deals in 200,000 fitting is impossible (3 fit for this monster hand after
    # a Garde Sans), whatever the samples and their chunks; 1 in 4,000 is analysed.
    monster = parse_hand("21 20 19 18 17 16 15 14 1 Excuse R♠ D♠ R♥ D♥ R♦ D♦ R♣ D♣")
    for samples in (50, 2000):
        with pytest.raises(HandError, match=r"impossible .*: 3 of 200,000 deals fit"):
            analyse_hand(monster, bids=["pass", "garde_sans"], samples=samples, **GREEDY)
        readme = analyse_hand(
            parse_hand(EXAMPLE), bids=["pass", "garde_sans"], samples=samples, **GREEDY
        )
        assert readme.auction.acceptance_rate < 0.001


def test_a_rare_auction_is_analysed_however_the_samples_are_cut_into_chunks():
    # A Garde Sans over a pass, with the README hand: some 1 deal in 5,000 fits. A chunk of 16
    # samples (the default survey's) draws on before giving up, as one of 200 would.
    hand, heard = parse_hand(EXAMPLE), parse_bids("pass garde_sans", 4)
    for seed in range(4):
        for n in (16, 200):
            drawn = sample_auction(
                np.random.default_rng(seed), n, hand, 4, heard, bidder("calibrated")
            )
            assert 2 <= len(drawn.deals) <= n
            assert drawn.fitting / drawn.drawn < 0.001


def test_a_table_that_searches_draws_on_for_a_rare_auction():
    # After a Garde and a Garde Sans, some 1 deal in 2,500 fits the average hand. A lookahead
    # deal costs some 5,000 draws' worth of CPU, so its table draws 2,000 a sample and keeps most
    # of the 100 asked for; the greedy's, whose deal costs a few draws, 100 a sample, and keeps
    # the few that drawing on for two deals that fit brought.
    hand, heard = parse_hand(AVERAGE), parse_bids("garde garde_sans", 4)

    def kept(sides):
        model = bidder("calibrated")
        rng = np.random.default_rng(0)
        return len(sample_auction(rng, 100, hand, 4, heard, model, sides.draws).deals)

    assert (Sides().draws, GREEDY_TABLE.draws) == (2000, 100)
    assert kept(Sides()) >= 50
    assert kept(GREEDY_TABLE) < 25


# --- the bids heard condition the deals: two independent guards ---------------------------------


def test_the_bids_heard_shift_the_bidders_point_counts():
    # With the judgement's noise (the model the advice uses): behind three passes each earlier
    # hand counts fewer points than a hand dealt at random beside the same one, and a Garde
    # bidder more, each by far more than the error of the means.
    hand = parse_hand(AVERAGE)
    bidder = PointCountBidder("seed")
    free = deal(np.random.default_rng(5), 2000, 4, known_hands={3: hand})
    free_points, _ = point_counts(free.hands[:, 0])

    def points(heard, seat):
        drawn = sample_auction(np.random.default_rng(6), 600, hand, 4, heard, bidder)
        return point_counts(drawn.deals.hands[:, seat])[0]

    def gap(counts):
        se = np.hypot(counts.std() / np.sqrt(len(counts)), free_points.std() / np.sqrt(2000))
        return (counts.mean() - free_points.mean()) / se

    passed = (0, 0, 0)
    assert all(gap(points(passed, seat)) < -5 for seat in range(3))
    assert gap(points((BIDS.index("garde"),), 0)) > 5


def test_only_a_share_of_the_deals_fits_the_bids_heard():
    # Through the advice: the share of drawn deals that fit the bids heard is printed with it.
    # Three passes, or a Garde, are what only some deals give (measured: 0.49 and 0.17).
    hand = parse_hand(AVERAGE)
    passes = analyse_hand(hand, bids=["pass", "pass", "pass"], samples=200, **GREEDY).auction
    garde = analyse_hand(hand, bids=["garde"], samples=200, **GREEDY).auction
    assert 0.3 < passes.acceptance_rate < 0.7
    assert 0.05 < garde.acceptance_rate < 0.3


def test_a_point_count_bid_already_heard_is_a_pass():
    # The README hand counts 60, a Garde; after a Garde heard, following the count is passing.
    options = [*GREEDY_OPTIONS, "--samples", "200", "--bids", "garde", "--json"]
    document = json.loads(CliRunner().invoke(advise, [EXAMPLE, *options]).stdout)
    assert document["heuristic"]["bid"] == "garde"
    assert document["heuristic_agrees"] == (document["recommendation"] == "pass")
    text = CliRunner().invoke(advise, [EXAMPLE, *options[:-1]]).stdout
    assert "the point count says Garde" not in text
    assert "Pass (its Garde can no longer be bid)" in text
