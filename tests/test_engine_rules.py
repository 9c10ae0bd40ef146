"""The engine on hand-made deals that reach the rare rules: chelems, the Excuse at the end, the
Petit au bout in trick n−1. Each deal is played by a script through the referee first; the
engine plays the same cards and must reach the referee's score, and the one stated here."""

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import EXCUSE, parse_cards
from tarot_advisor.analyzer.game import Contract, Side
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import Deals
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.scoring import score
from tarot_advisor.analyzer.rulebook.referee import Game

SPADES = "R♠ D♠ C♠ V♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ 1♠"
HEARTS = "R♥ D♥ C♥ V♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ 1♥"
DIAMONDS = "R♦ D♦ C♦ V♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ 1♦"
CLUBS = "R♣ D♣ C♣ V♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ 1♣"


class ScriptedPolicy:
    """Plays given cards: ``plays`` (N, T, n) card ids, each trick from its leader."""

    name = "scripted"

    def __init__(self, plays: np.ndarray) -> None:
        self.plays = plays

    def choose(self, turn, rng):
        cards = self.plays[:, turn.table.trick, turn.position]
        return bb.from_cards(cards[:, None])


def scripted_game(hands, chien, contract, choose) -> Game:
    """Plays a 4-player deal (taker seat 0) through the referee, ``choose(seat, legal)``
    picking each card."""
    game = Game(4, hands, 0, contract, chien=chien)
    while not game.is_over:
        game.play(choose(game.to_play, game.legal_plays()))
    return game


def engine_outcome(game: Game):
    cards = np.array([[c for hand in game.hands for c in hand] + list(game.chien)], np.uint8)
    plays = np.array([[list(t.cards) for t in game.tricks]], np.uint8)
    playout = play(
        Deals(4, cards),
        0,
        game.contract,
        ScriptedPolicy(plays),
        rng=np.random.default_rng(0),
        taker_poignee=False,
        others_poignees=False,
    )
    return score(playout)


def taker_high_defence_low_excuse_last(seat, legal):
    if seat == 0:
        return max(c for c in legal if c != EXCUSE) if legal != [EXCUSE] else EXCUSE
    playable = [c for c in legal if c != EXCUSE]
    return min(playable) if playable else EXCUSE


def test_defender_excuse_in_the_last_trick_of_the_takers_chelem_stays_with_the_defence():
    taker = parse_cards(" ".join(str(n) for n in range(4, 22)))
    defender = parse_cards("Excuse 1 2 3 " + " ".join(SPADES.split()))
    others = parse_cards(HEARTS + " " + CLUBS.split()[0] + " " + CLUBS.split()[1] + " 3♣ 4♣")
    rest = [c for c in range(78) if c not in taker + defender + others]
    third, chien = rest[:18], rest[18:]
    game = scripted_game(
        [taker, defender, others, third], chien, "garde_sans", taker_high_defence_low_excuse_last
    )
    assert game.tricks[-1].cards[1] == EXCUSE
    expected = game.outcome()
    assert expected.chelem == Side.TAKER
    assert expected.taker_points == 87  # 91 less the Excuse, kept by the defence for 0.5 back
    got = engine_outcome(game)
    assert got.taker_points[0] == 87
    assert got.chelem[0] == 1
    assert got.per_defender[0] == expected.per_defender == (25 + 87 - 41) * 4 + 200


def test_excuse_led_last_wins_the_chelem_and_the_petit_counts_au_bout_in_trick_n_minus_1():
    taker = parse_cards("Excuse " + " ".join(str(n) for n in range(1, 18)))
    chien = parse_cards("18 19 20 21 1♠ 2♠")
    rest = [c for c in range(78) if c not in taker + chien]
    hands = [taker, rest[:18], rest[18:36], rest[36:54]]

    def taker_trumps_down_petit_then_excuse(seat, legal):
        if seat == 0:
            trumps = [c for c in legal if c != EXCUSE and c != 56]
            return max(trumps) if trumps else min(legal)  # the Petit (56), then the Excuse
        return min(legal)

    game = scripted_game(hands, chien, "garde_sans", taker_trumps_down_petit_then_excuse)
    assert game.tricks[-1].cards[0] == EXCUSE and 56 in game.tricks[-2].cards
    expected = game.outcome()
    assert (expected.chelem, expected.petit_au_bout) == (Side.TAKER, Side.TAKER)
    got = engine_outcome(game)
    assert got.petit_au_bout[0] == 1 and got.chelem[0] == 1
    assert got.taker_points[0] == 91
    assert got.per_defender[0] == expected.per_defender == (25 + 91 - 36) * 4 + 10 * 4 + 200


class FirstLegalRecorder:
    """Plays the lowest legal card, remembering the legal cards of the very first lead."""

    name = "recorder"

    def __init__(self) -> None:
        self.first_lead: list[int] | None = None

    def choose(self, turn, rng):
        if self.first_lead is None:
            self.first_lead = bb.to_cards(turn.legal_lo[0], turn.legal_hi[0])
        low = turn.legal_lo & -turn.legal_lo
        return low, bb.select(low == 0, turn.legal_hi & -turn.legal_hi, bb.ZERO)


def test_five_players_the_first_lead_avoids_the_called_suit_even_for_a_trump():
    leader = parse_cards("1♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ 2 3 4 5 6")
    called = parse_cards("R♠")[0]
    rest = [c for c in range(78) if c not in leader]
    taker_hand = rest[:15]
    cards = np.array([leader + taker_hand + rest[15:]], np.uint8)
    recorder = FirstLegalRecorder()
    play(
        Deals(5, cards),
        1,
        Contract.GARDE_SANS,
        recorder,
        rng=np.random.default_rng(0),
        called=called,
        taker_poignee=False,
        others_poignees=False,
    )
    assert recorder.first_lead == parse_cards("2 3 4 5 6")


@pytest.mark.slow
def test_the_engine_agrees_with_the_referee_on_every_variant_at_some_scale():
    from tarot_advisor.reports.engine_check import check_engine

    for players in (3, 4, 5):
        result = check_engine(players, 1600, seed=78)
        assert result.mismatches == 0, result.examples[:1]
