"""The lookahead player inside the engine: every card it plays is legal for the referee, for 3,
4 and 5 players and every kind of contract; the same seed gives the same play."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from policy_helpers import end_position, first_choice

from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.game import CONTRACTS, Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.scoring import per_defender_as_played, records, score
from tarot_advisor.analyzer.playout.table import Turn
from tarot_advisor.analyzer.rulebook.record import replay
from tarot_advisor.analyzer.search.lookahead import (
    LookaheadPolicy,
    best_candidates,
    contenders,
    distinct_cards,
    lowest_equivalent,
)
from tarot_advisor.analyzer.search.midgame import Replay, replay_play
from tarot_advisor.analyzer.search.worlds import card_set
from tarot_advisor.reports.duel import choose_takers, playing

KINGS = parse_cards("R♠ R♥ R♦ R♣")


def lookahead_play(deals, taker, contract, seed, **options):
    """Both sides played by the lookahead (3 worlds a decision: enough for a test)."""
    return play(
        deals,
        taker,
        contract,
        LookaheadPolicy(worlds=3, side="taker"),
        LookaheadPolicy(worlds=3, side="defence"),
        rng=np.random.default_rng(seed),
        **options,
    )


@pytest.mark.parametrize(
    ("players", "contract"),
    [
        (4, Contract.GARDE),
        (3, Contract.GARDE_SANS),
        (5, Contract.PRISE),
        (4, Contract.GARDE_CONTRE),
    ],
)
def test_every_card_of_the_lookahead_is_legal_and_scored_as_the_referee_scores(players, contract):
    deals = deal(np.random.default_rng(players), 6, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    playout = lookahead_play(deals, taker, contract, seed=1, called=called)
    scores = score(playout)
    for record in records(playout, scores):
        expected = record.pop("result")
        assert replay(record).as_dict()["scores"] == expected["scores"]


@pytest.mark.parametrize("players", [4, 5])
def test_deals_under_different_contracts_in_one_run_are_searched_each_under_its_own(players):
    # Garde Contre, Garde Sans, Prise and Garde side by side: each search knows, deal by deal,
    # whether the chien was shown and what the écart may hold (with 5 players its worlds are
    # replayed under each deal's contract).
    deals = deal(np.random.default_rng(players), 8, players, reject_petit_sec=True)
    taker, called = choose_takers(deals)
    codes = np.arange(8, dtype=np.int8) % 4
    playout = lookahead_play(deals, taker, codes, seed=2, called=called)
    for code in range(4):
        part = playout.take(np.flatnonzero(codes == code))
        assert part.contract is CONTRACTS[code]
        for record in records(part, score(part)):
            expected = record.pop("result")
            assert replay(record).as_dict()["scores"] == expected["scores"]


class CheckedLookahead(LookaheadPolicy):
    """The lookahead, each of whose searches also replays every world from the first card
    (midgame.replay_play: the deal rebuilt from the world, the cards so far played again)
    from the same random state, and checks that the playouts set up from the shadow (the
    public state kept card by card, midgame.Shadow) end the same: the same tricks led and
    won, points, bouts, Petit, chelem, poignées and partner, and the same draws from the
    generator. It counts the searches by what the worlds had to decide."""

    def __init__(self, side: str) -> None:
        super().__init__(worlds=3, side=side)
        self.seen = {"before the call": 0, "after the call": 0, "excuse before": 0, "alone": 0}

    def observe(self, turn: Turn) -> None:
        table = turn.table
        if table is not self._table:
            self.cards, self.seats = [], []
        else:
            self.cards.append((table.played_lo ^ self._seen_lo, table.played_hi ^ self._seen_hi))
            self.seats.append(self.last_seat)
        super().observe(turn)
        self.last_seat = table.seat[turn.position].copy()

    def _play_out(self, table, rows, worlds, candidate, rng):
        again = copy.deepcopy(rng)
        playout = super()._play_out(table, rows, worlds, candidate, rng)
        replayed = replay_play(
            table.contracts[rows], self._replay(table, rows, worlds), candidate, again, self.rollout
        )
        for name in ("leaders", "taker_points2", "bouts", "petit_au_bout", "chelem", "partner"):
            assert np.array_equal(getattr(playout, name), getattr(replayed, name)), name
        assert np.array_equal(playout.poignee_bonus, replayed.poignee_bonus)
        assert rng.bit_generator.state == again.bit_generator.state
        self._count(table, rows, playout)
        return playout

    def _count(self, table, rows, playout) -> None:
        if table.players != 5:
            return
        hidden = ~table.revealed[rows]
        self.seen["before the call"] += hidden.sum()
        self.seen["after the call"] += (~hidden).sum()
        excuse = (table.played_hi[rows] & bb.EXCUSE_HI) != 0
        self.seen["excuse before"] += (hidden & excuse).sum()
        self.seen["alone"] += (hidden & (playout.partner < 0)).sum()

    def _replay(self, table, rows, worlds) -> Replay:
        """The deals ``rows`` as the engine replays them in their worlds: each seat's hand is
        what the world gives it now plus what it played."""
        n, lo, hi = table.players, *worlds
        played_lo = np.zeros((len(rows), n), np.uint64)
        played_hi = np.zeros((len(rows), n), np.uint64)
        for (card_lo, card_hi), seat in zip(self.cards, self.seats, strict=True):
            for s in range(n):
                played_lo[:, s] |= bb.keep(seat[rows] == s, card_lo[rows])
                played_hi[:, s] |= bb.keep(seat[rows] == s, card_hi[rows])
        prefix = np.zeros((2, len(self.cards), len(rows)), np.uint64)
        for step, card in enumerate(self.cards):
            prefix[:, step] = card[0][rows], card[1][rows]
        called = None
        if n == 5:
            called = bb.card_ids(table.called_lo[rows], table.called_hi[rows]).astype(np.int64)
        return Replay(
            hands_lo=lo[:, :n] | played_lo,
            hands_hi=hi[:, :n] | played_hi,
            aside_lo=lo[:, n].copy(),
            aside_hi=hi[:, n].copy(),
            chien_lo=table.public.chien_lo[rows],
            chien_hi=table.public.chien_hi[rows],
            taker=table.taker_seat[rows],
            called=called,
            shown_hi=np.bitwise_or.reduce(table.shown_by_now()[:, rows], axis=0),
            prefix=(prefix[0], prefix[1]),
            announce_chelem=table.announced_chelem[rows],
        )


@pytest.mark.parametrize(
    ("players", "contract", "announced"),
    [
        (4, Contract.GARDE, False),
        pytest.param(4, Contract.PRISE, True, marks=pytest.mark.slow),
        pytest.param(4, Contract.GARDE_CONTRE, False, marks=pytest.mark.slow),
        pytest.param(3, Contract.GARDE_SANS, False, marks=pytest.mark.slow),
        (3, Contract.GARDE, True),
        pytest.param(5, Contract.PRISE, False, marks=pytest.mark.slow),
        (5, Contract.GARDE, True),
        pytest.param(5, Contract.GARDE_SANS, False, marks=pytest.mark.slow),
        (5, Contract.GARDE_CONTRE, False),
    ],
)
def test_worlds_set_up_at_the_current_card_play_as_worlds_replayed_from_the_first(
    players, contract, announced
):
    """A search sets up its worlds from the public state kept card by card (midgame.Shadow);
    each world replayed from the first card must play the same, card for card: same chien
    seen, same écart, same tricks won, same poignées — in the first trick, only those shown so
    far. With 5 players each world's partner is the holder of the called card it deals: the
    tricks won before the card is played, and the Excuse played then, go to the sides it makes;
    the taker plays alone when he holds it or it is out of play."""
    rng = np.random.default_rng(players + 10 * announced)
    # Seat 1, a defender, holds the trumps 1 to 13: a poignée, shown in the first trick.
    trumps = parse_cards(" ".join(str(rank) for rank in range(1, 14)))
    deals = deal(rng, 24, players, known_hands={1: trumps}, reject_petit_sec=True)
    taker = np.where(np.arange(24) % players == 1, 0, np.arange(24) % players)
    called = None
    if players == 5:
        # Every fourth deal, the taker calls a king of his own; every fourth, one of the chien.
        _, called = choose_takers(deals)
        for row in range(24):
            hand, chien = deals.hands[row, taker[row]], deals.chien[row]
            own = [card for card in KINGS if card in hand]
            aside = [card for card in KINGS if card in chien]
            if row % 4 == 1 and own:
                called[row] = own[0]
            elif row % 4 == 2 and aside:
                called[row] = aside[0]
    policies = CheckedLookahead("taker"), CheckedLookahead("defence")
    playout = play(
        deals,
        taker,
        contract,
        *policies,
        rng=np.random.default_rng(5),
        called=called,
        announce_chelem=announced,
    )
    assert playout.shown_hi.any()
    if players == 5:
        seen = {case: sum(policy.seen[case] for policy in policies) for case in policies[0].seen}
        assert all(seen.values()), seen


def test_same_seed_same_play():
    deals = deal(np.random.default_rng(7), 4, 4, reject_petit_sec=True)
    taker, _ = choose_takers(deals)

    def plays():
        policy = LookaheadPolicy(worlds=3)
        out = play(deals, taker, Contract.GARDE, policy, rng=np.random.default_rng(3))
        return out.plays

    assert (plays() == plays()).all()


def test_a_side_only_lookahead_plays_the_greedy_for_the_other_side():
    deals = deal(np.random.default_rng(8), 5, 4, reject_petit_sec=True)
    taker, _ = choose_takers(deals)
    greedy = GreedyPolicy()
    rng = np.random.default_rng(0)
    both_greedy = play(deals, taker, Contract.GARDE, greedy, greedy, rng=rng)
    lookahead = playing(LookaheadPolicy(worlds=3), "taker")
    assert lookahead.side == "taker"
    # As the defence's policy, a taker-side lookahead never searches: the greedy's play.
    defence_only = play(deals, taker, Contract.GARDE, greedy, lookahead, rng=rng)
    assert (defence_only.plays == both_greedy.plays).all()


def test_cards_that_play_alike_are_searched_once():
    # 14 and 16 went in earlier tricks: 12, 13 and 15 play alike, and so do 2♣, 3♣, 5♣ and 7♣
    # (4♣ and 6♣ gone). The bouts, the Excuse and each honour stand alone.
    legal = _set("2♣ 3♣ 5♣ 7♣ V♣ C♣ 12 13 15 1 21 Excuse")
    gone = _set("4♣ 6♣ 14 16 20")
    assert _cards(*distinct_cards(*legal, *gone)) == _cards(*_set("2♣ V♣ C♣ 1 12 21 Excuse"))
    assert _cards(*lowest_equivalent(_set("15"), *legal, *gone)) == _cards(*_set("12"))
    assert _cards(*lowest_equivalent(_set("C♣"), *legal, *gone)) == _cards(*_set("C♣"))


def test_a_card_in_the_current_trick_keeps_its_neighbours_apart():
    # 9♣ lies in the trick being played (not gone): 10♣ beats it, 8♣ does not.
    legal = _set("10♣ 8♣")
    gone = _set("")
    assert _cards(*distinct_cards(*legal, *gone)) == _cards(*legal)


def test_the_greedy_card_is_left_only_on_the_evidence():
    # Four worlds; scores for the player's side. The greedy's card (column 0) scores 0 in each.
    # A is better on average (+5) but loses in half the worlds; B gains +10 in every world.
    greedy, a, b = [0, 0, 0, 0], [30, -20, 30, -20], [10, 10, 10, 10]

    def best(*cards: list[int], margin: float) -> int:
        per_world = np.array([cards], np.float64)
        valid = np.ones((1, len(cards)), bool)
        is_greedy = np.arange(len(cards))[None, :] == 0
        return int(best_candidates(per_world, valid, is_greedy, margin)[0])

    assert best(greedy, a, margin=0) == 1  # the best mean, however noisy
    assert best(greedy, a, margin=1) == 0  # +5 ± 14.4: not enough to leave the greedy
    assert best(greedy, a, b, margin=1) == 2  # a sure +10 is taken whatever the margin
    assert best(greedy, a, b, margin=100) == 2
    assert best([5, 5, 5, 5], [5, 5, 5, 5], margin=1) == 0  # a tie: the greedy's card


def test_a_card_behind_the_greedys_in_the_first_worlds_is_not_played_in_the_others():
    # The first four worlds; scores for the player's side. The greedy's card (column 0) scores 0
    # in each. A card stays in contention unless behind by half a standard error or more.
    columns = {
        "greedy": [0, 0, 0, 0],
        "behind in every world": [-10, -10, -10, -10],
        "never better": [0, 0, 0, 0],
        "-5 ± 8.7": [-20, 10, -20, 10],
        "+5 ± 14.4": [30, -20, 30, -20],
        "-1 ± 6.4": [-12, 10, -12, 10],
        "not legal": [50, 50, 50, 50],
    }
    per_world = np.array([list(columns.values())], np.float64)
    valid = np.array([[True] * 6 + [False]])
    is_greedy = np.arange(7)[None, :] == 0
    kept = contenders(per_world, valid, is_greedy, 0.5)[0]
    assert [name for name, k in zip(columns, kept, strict=True) if k] == [
        "greedy",
        "+5 ± 14.4",
        "-1 ± 6.4",
    ]


def _set(text: str) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = card_set(parse_cards(text)) if text else (0, 0)
    return np.array([lo], np.uint64), np.array([hi], np.uint64)


def _cards(lo: np.ndarray, hi: np.ndarray) -> set[int]:
    return set(bb.to_cards(int(lo[0]), int(hi[0])))


# --- exact end positions: the plainly right card ------------------------------------------------


def lookahead_choice(data: dict, side: str, worlds: int = 16, runs: int = 6) -> set[str]:
    """The cards a ``side`` lookahead plays at the position of the partial record ``data``,
    continued in ``runs`` consistent worlds (each decision searches its own ``worlds``)."""
    return first_choice(data, LookaheadPolicy(worlds=worlds, side=side), runs)


@pytest.mark.parametrize(
    ("players", "kept", "called", "seed"),
    [
        (3, {0: "21 1", 1: "5 3♦", 2: "4♦ 2♦"}, None, 11),
        (5, {0: "21 1", 1: "5 3♦", 2: "4♦ 2♦", 3: "7♠ 6♠", 4: "R♦ 9♠"}, "R♦", 1),
    ],
    ids=["3-players", "5-players"],
)
def test_the_taker_draws_the_last_trump_with_the_21_and_takes_the_petit_au_bout(
    players, kept, called, seed
):
    # Two tricks to go, the taker to lead with the 21 and the Petit; one defender has the 5.
    # The 21 first draws the 5 and the Petit wins the last trick (au bout, 10 × 4); the Petit
    # first falls to the 5 (a bout lost, and the bonus to the defence).
    data = end_position(players, "garde_sans", 0, 0, kept, seed=seed, called=called)
    assert lookahead_choice(data, "taker") == {"21"}


def test_a_defender_plays_the_excuse_before_the_last_trick():
    # Two tricks to go; seat 0 defends with the Excuse and the 2♠, the taker holds the 21 and
    # the 20 and wins both tricks. The Excuse kept to the last trick would go to him (rules.md
    # §5): played now, the defence keeps it.
    data = end_position(
        4, "garde_sans", 1, 0, {0: "Excuse 2♠", 1: "21 20", 2: "4♦ 2♦", 3: "7♥ 6♥"}, seed=3
    )
    assert lookahead_choice(data, "defence") == {"Excuse"}


def test_a_defender_with_three_players_cashes_its_king_first():
    # No trumps left. Seat 0 defends with the R♥ and the 2♣; the taker holds the R♣ and the D♦.
    # The 2♣ first: the taker wins it with the R♣ and leads the D♦, and seat 0, void in
    # diamonds, throws the R♥ away to the taker's trick. The R♥ first wins it.
    data = end_position(3, "garde_sans", 1, 0, {0: "R♥ 2♣", 1: "R♣ D♦", 2: "5♥ 3♣"}, seed=4)
    assert lookahead_choice(data, "defence", worlds=64) == {"R♥"}


@pytest.mark.slow  # a duel; tests/test_lookahead_ends.py pins the same in the fast tier
def test_the_lookahead_taker_beats_the_greedy_on_the_same_deals():
    # A paired duel: 300 four-player Garde deals, the taker the seat with the highest count,
    # played once by the greedy and once by the lookahead taker (8 worlds), the greedy
    # defending both times, the same random stream. Measured (seed 2): +17.6 ± 3.1 per
    # defender; a lookahead that plays its worst card loses about 79 ± 4. The gain must be
    # positive by more than 2 standard errors.
    n = 300
    deals = deal(np.random.default_rng(2), n, 4, reject_petit_sec=True)
    taker, _ = choose_takers(deals)
    greedy = GreedyPolicy()

    def taker_score(policy) -> np.ndarray:
        playout = play(deals, taker, Contract.GARDE, policy, greedy, rng=np.random.default_rng(1))
        return per_defender_as_played(playout)

    gain = taker_score(LookaheadPolicy(worlds=8, side="taker")) - taker_score(greedy)
    se = gain.std(ddof=1) / np.sqrt(n)
    assert gain.mean() > 2 * se, f"{gain.mean():+.1f} ± {se:.1f}"
