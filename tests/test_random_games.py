"""Random legal deals refereed card by card: the count and the score always balance, and a deal
replays identically from its record. Seeded, a few hundred deals per player count."""

from __future__ import annotations

import random

import pytest

from tarot_advisor.analyzer.cards import EXCUSE
from tarot_advisor.analyzer.game import hand_size
from tarot_advisor.analyzer.rulebook.record import (
    dumps_records,
    load_records,
    record_of_game,
    replay,
)
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.analyzer.rulebook.rules import contract_result, points_needed

GAMES = 300


@pytest.fixture(scope="module")
def games() -> dict[int, list[Game]]:
    from conftest import play_random_game

    rng = random.Random(20261130)
    return {
        players: [play_random_game(rng, players) for _ in range(GAMES)] for players in (3, 4, 5)
    }


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_deal_counts_91_points_and_3_bouts(games: dict, players: int) -> None:
    for game in games[players]:
        outcome = game.outcome()
        assert outcome.taker_points + outcome.defence_points == 91
        assert outcome.bouts <= 3
        assert len(game.tricks) == hand_size(players)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_score_sums_to_zero(games: dict, players: int) -> None:
    for game in games[players]:
        assert sum(game.outcome().scores) == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_outcome_follows_the_count(games: dict, players: int) -> None:
    for game in games[players]:
        outcome = game.outcome()
        assert outcome.needed == points_needed(outcome.bouts)
        assert (outcome.made, outcome.difference) == contract_result(
            outcome.taker_points, outcome.bouts
        )
        if players == 4:  # an even number of odd half-point cards: always whole
            assert float(outcome.taker_points).is_integer()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_deal_replays_identically_from_its_record(games: dict, players: int) -> None:
    records = [record_of_game(game) for game in games[players]]
    for game, record in zip(games[players], load_records(dumps_records(records)), strict=True):
        assert replay(record) == game.outcome()
        assert record["result"] == game.outcome().as_dict()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_ecart_may_be_left_out_of_the_record(games: dict, players: int) -> None:
    for game in games[players]:
        if game.discard is not None:
            record = record_of_game(game, with_result=False)
            record.pop("discard")
            assert replay(record) == game.outcome()


def test_the_random_deals_reach_the_rare_rules(games: dict) -> None:
    """Guards the property tests above against a generator that never tries the rare cases."""
    outcomes = [game.outcome() for deals in games.values() for game in deals]
    assert any(o.petit_au_bout for o in outcomes)
    assert any(o.poignee_bonus for o in outcomes)
    assert any(o.chelem_announced for o in outcomes)
    assert any(not float(o.taker_points).is_integer() for o in outcomes)
    assert any(o.players == 5 and o.partner is None for o in outcomes)
    assert any(o.players == 5 and o.partner is not None for o in outcomes)
    assert any(EXCUSE in g.tricks[-1].cards for deals in games.values() for g in deals)
