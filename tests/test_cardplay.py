"""Card-play advice: deals continued from a position are legal and keep what was played; on end
positions where one card is plainly right, that card ranks first; only legal cards are listed."""

from __future__ import annotations

import numpy as np
import pytest
from policy_helpers import end_position, first_choice

from tarot_advisor.analyzer.advice.cardplay import advise_play
from tarot_advisor.analyzer.cards import format_card, parse_cards
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.scoring import records, score
from tarot_advisor.analyzer.rulebook.record import replay
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy
from tarot_advisor.analyzer.search.midgame import continue_play, draw_worlds
from tarot_advisor.analyzer.search.position import read_position


def test_the_21_first_saves_the_petit_au_bout():
    # Two tricks to go; the taker (seat 0) holds the 21 and the Petit, a defender the 5 and no
    # other trump. The 21 first draws the 5; the Petit then wins the last trick (au bout).
    # The Petit first would fall to the 5.
    data = end_position(
        4, "garde_sans", 0, 0, {0: "21 1", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠"}, seed=1
    )
    advice = advise_play(read_position(data), samples=200, seed=3)
    assert [format_card(c.card) for c in advice.cards] == ["21", "1"]
    best, worst = advice.cards
    assert best.expected_score.mean - worst.expected_score.mean > 40  # 10×4 au bout, and more


def test_a_defender_cashes_the_king_before_losing_the_lead():
    # No trumps left. Seat 0 (defending) holds the R♥ and the 2♣; the taker the R♣ and the D♦.
    # Lead the 2♣ and the taker wins it, then leads the D♦: the R♥ falls to the taker.
    data = end_position(
        4, "garde_sans", 1, 0, {0: "R♥ 2♣", 1: "R♣ D♦", 2: "5♥ 4♦", 3: "6♥ 3♣"}, seed=2
    )
    position = read_position(data)
    advice = advise_play(position, samples=200, seed=4)
    assert format_card(advice.cards[0].card) == "R♥"
    assert {format_card(c.card) for c in advice.cards} == {"R♥", "2♣"}


def test_only_legal_cards_are_listed_and_the_greedy_choice_is_one_of_them():
    # Seat 0 leads the 2♥; seat 1, with two hearts and a trump, may play only its hearts.
    data = end_position(
        4, "garde_sans", 2, 0, {0: "2♥ 3♠ 4♠", 1: "R♥ 5♥ 9", 2: "5♠ 6♠ 7♠", 3: "8♠ 9♠ 10♠"}, 5
    )
    data["tricks"].append(["2♥"])
    data["seat"], data["hand"] = 1, ["R♥", "5♥", "9"]
    position = read_position(data)
    assert set(position.legal()) == set(parse_cards("R♥ 5♥"))
    advice = advise_play(position, samples=50, seed=1)
    listed = {c.card for c in advice.cards}
    assert listed == set(position.legal())
    assert advice.greedy_choice in listed


def test_continuations_replay_the_record_then_play_legally_to_the_end():
    data = end_position(
        4, "garde_sans", 0, 0, {0: "21 1 R♠", 1: "5 3♦ 2♦", 2: "4♦ 6♦ 7♦", 3: "7♠ 6♠ 5♠"}, seed=7
    )
    position = read_position(data)
    rng = np.random.default_rng(0)
    worlds = draw_worlds(position, 20, rng)
    run = continue_play(position, worlds, position.legal(), rng)
    done = [card for trick in data["tricks"] for card in trick]
    for record in records(run.playout, score(run.playout)):
        played = [card for trick in record["tricks"] for card in trick]
        assert played[: len(done)] == done
        record.pop("result")
        replay(record)  # raises on any illegal card


@pytest.mark.parametrize("players", [3, 5])
def test_advice_on_three_and_five_players_lists_the_legal_cards(players):
    kept = {
        3: {0: "21 R♠", 1: "5 3♦", 2: "4♦ 2♦"},
        5: {0: "21 R♠", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠", 4: "8♠ 9♠"},
    }[players]
    called = "R♦" if players == 5 else None
    data = end_position(players, "garde_sans", 0, 0, kept, seed=players, called=called)
    position = read_position(data)
    advice = advise_play(position, samples=40, seed=1)
    assert {c.card for c in advice.cards} == set(position.legal())


def test_same_seed_same_advice_whatever_the_jobs():
    data = end_position(
        4, "garde_sans", 0, 0, {0: "21 1 R♠", 1: "5 3♦ 2♦", 2: "4♦ 6♦ 7♦", 3: "7♠ 6♠ 5♠"}, seed=7
    )
    position = read_position(data)
    one = advise_play(position, samples=600, seed=9, jobs=1).to_dict()
    two = advise_play(position, samples=600, seed=9, jobs=2).to_dict()
    assert one == two


def test_the_lookahead_taker_saves_the_petit_au_bout():
    data = end_position(
        4, "garde_sans", 0, 0, {0: "21 1", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠"}, seed=1
    )
    assert first_choice(data, LookaheadPolicy(worlds=8)) == {"21"}


def test_the_lookahead_defender_cashes_its_king():
    data = end_position(
        4, "garde_sans", 1, 0, {0: "R♥ 2♣", 1: "R♣ D♦", 2: "5♥ 4♦", 3: "6♥ 3♣"}, seed=2
    )
    # R♥ first is worth +6.2 on average (2,000 worlds): 64 worlds per decision see it.
    assert first_choice(data, LookaheadPolicy(worlds=64, side="defence")) == {"R♥"}


def test_with_five_players_the_taker_is_not_dealt_the_card_he_called():
    # Seat 1 defends; the called R♦ has not been played, and nothing in the play rules out that
    # the taker holds it (about 1 world in 6 would give it to him). But a taker calls a king he
    # lacks (else he plays alone), so the worlds put it elsewhere, never with the taker.
    data = end_position(
        5,
        "garde_sans",
        0,
        1,
        {0: "21 R♠", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠", 4: "R♦ 9♠"},
        seed=7,
        called="R♦",
    )
    position = read_position(data)
    lo, hi = draw_worlds(position, 400, np.random.default_rng(4))
    (king,) = parse_cards("R♦")
    held = {
        seat
        for w in range(400)
        for seat in range(6)
        if king in bb.to_cards(int(lo[w, seat]), int(hi[w, seat]))
    }
    assert 0 not in held
    assert held - {0}


def test_each_card_is_compared_with_the_best_on_the_same_deals():
    data = end_position(
        4, "garde_sans", 0, 0, {0: "21 1", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠"}, seed=1
    )
    best, other = advise_play(read_position(data), samples=300, seed=3).cards
    assert format_card(best.card) == "21"
    assert (best.versus_best.mean, best.versus_best.se) == (0.0, 0.0)
    gap = other.expected_score.mean - best.expected_score.mean
    assert other.versus_best.mean == pytest.approx(gap) and gap < 0
    assert other.versus_best.mean + 3 * other.versus_best.se < 0  # the Petit first is worse


@pytest.mark.parametrize(("seat", "role"), [(0, "taker"), (1, "defence"), (4, "partner")])
def test_with_five_players_the_holder_of_the_called_card_knows_it_is_the_partner(seat, role):
    kept = {0: "21 R♠", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠", 4: "R♦ 9♠"}
    data = end_position(5, "garde_sans", 0, 1, kept, seed=7, called="R♦")
    data["seat"], data["hand"] = seat, kept[seat].split()
    assert read_position(data).role == role
