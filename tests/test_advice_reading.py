"""The lines under tarot-advise's table say nothing the table contradicts: a pair's two
contracts are made on the same deals, so neither is "safer"; a Prise advised where the table
doubles Garde's score says why."""

from __future__ import annotations

from types import SimpleNamespace

from tarot_advisor.analyzer.advice.advisor import _safest
from tarot_advisor.analyzer.advice.analysis import ContractResult
from tarot_advisor.analyzer.game import BIDS, Contract
from tarot_advisor.analyzer.stats import Estimate
from tarot_advisor.cli.advise_reading import reading_lines


def _contracts(**made_and_score: tuple[float, float]) -> dict[Contract, ContractResult]:
    return {
        Contract(name): ContractResult(
            Contract(name), Estimate(made, 0.01), Estimate(score, 5.0), 0.0, 0.0
        )
        for name, (made, score) in made_and_score.items()
    }


TABLE = _contracts(
    prise=(0.605, 30.2), garde=(0.605, 60.6), garde_sans=(0.125, -310.9),
    garde_contre=(0.031, -680.3),
)  # fmt: skip


def test_garde_is_not_safer_than_a_prise_made_on_the_same_deals():
    assert _safest(TABLE, "prise", BIDS) is None
    assert _safest(TABLE, "garde", BIDS) is None


def test_garde_is_safer_than_a_garde_sans_made_less_often():
    table = _contracts(
        prise=(0.93, 80.0), garde=(0.93, 160.0), garde_sans=(0.71, 123.1),
        garde_contre=(0.71, 180.0),
    )  # fmt: skip
    assert _safest(table, "garde_contre", BIDS) == "garde"
    assert _safest(table, "pass", BIDS) == "garde"


def test_a_bid_that_can_no_longer_be_made_is_never_the_safest():
    # After a Garde heard, only Pass, Garde Sans and Garde Contre are left.
    assert _safest(TABLE, "pass", ("pass", "garde_sans", "garde_contre")) is None


def _advised(recommendation: str, prise: Estimate, garde: Estimate) -> SimpleNamespace:
    return SimpleNamespace(
        contracts=TABLE,
        recommendation=recommendation,
        players=4,
        safest=_safest(TABLE, recommendation, BIDS),
        sides=SimpleNamespace(taker="lookahead", defence="lookahead"),
        auction=SimpleNamespace(values={"prise": prise, "garde": garde}, legal_actions=BIDS),
        judged=Contract(recommendation) if recommendation != "pass" else Contract.GARDE,
    )


def test_a_prise_the_auction_puts_just_ahead_of_garde_is_called_too_close_to_call():
    lines = reading_lines(_advised("prise", Estimate(31.7, 12.6), Estimate(25.1, 26.6)))
    assert not any(line.startswith(("Why Garde beats Prise", "Safest")) for line in lines)
    assert (
        "Why Prise rather than Garde, though the table doubles Garde's E[score]: the advice "
        "comes from the auction's values (overcalls counted), where Prise is ahead by 6.6 — "
        "too close to call: Garde is as sound a bid."
    ) in lines


def test_a_prise_far_ahead_in_the_auction_is_not_called_close():
    lines = reading_lines(_advised("prise", Estimate(31.7, 5.0), Estimate(-40.0, 10.0)))
    assert any(line.endswith("Prise is ahead by 71.7.") for line in lines)


def test_a_garde_advised_is_explained_by_the_double_stakes():
    lines = reading_lines(_advised("garde", Estimate(31.7, 12.6), Estimate(60.0, 26.6)))
    assert any(line.startswith("Why Garde beats Prise: the same play") for line in lines)


def test_after_a_prise_heard_garde_against_prise_is_no_longer_explained():
    # Only a Garde or higher may follow a Prise: the double stakes explain no choice left.
    analysis = _advised("garde", Estimate(31.7, 12.6), Estimate(60.0, 26.6))
    analysis.auction.legal_actions = ("pass", "garde", "garde_sans", "garde_contre")
    assert not any(line.startswith("Why Garde beats Prise") for line in reading_lines(analysis))


def test_a_prise_advised_where_the_table_puts_it_below_zero_needs_no_why():
    # Garde then doubles a loss: the table itself says why not Garde.
    losing = _contracts(
        prise=(0.45, -0.6), garde=(0.45, -1.2), garde_sans=(0.1, -300.0),
        garde_contre=(0.02, -700.0),
    )  # fmt: skip
    advised = _advised("prise", Estimate(19.5, 4.8), Estimate(10.3, 6.5))
    advised.contracts = losing
    assert not any(line.startswith("Why") for line in reading_lines(advised))


def test_after_a_garde_heard_nothing_is_said_of_prise_and_garde():
    advised = _advised("pass", Estimate(31.7, 12.6), Estimate(60.0, 26.6))
    advised.auction.legal_actions = ("pass", "garde_sans", "garde_contre")
    advised.judged = Contract.GARDE_SANS  # the best the user may still bid
    advised.safest = _safest(TABLE, "pass", advised.auction.legal_actions)
    lines = reading_lines(advised)
    assert not any(line.startswith(("Why", "Safest")) for line in lines)
