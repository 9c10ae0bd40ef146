"""Every rule of the vectorised engine (:mod:`vector_rules`: the trick's rules as per-deal kernels,
the rest as array operations) against its scalar twin of the referee (:mod:`rules`): the same
answers on every case of ``tests/vectors`` and on random positions.

Legality is compared as *equal legal sets*, not as "the card chosen was legal": an engine that
is too strict plays only legal cards, so no outcome check can see it, but it changes the play.
Checked on 100,000 random positions per player count, and at every decision of random and greedy
playouts (the sets the engine's :class:`table.Turn` offers, built by the engine's own state).

Mutations these tests catch (each tried on a copy of the code, each failing here while every
engine-against-referee outcome test stayed green before this module existed):
- the engine never leads the Excuse (``legal_plays`` drops it from a free lead):
  ``test_legal_sets_equal_on_random_positions`` and ``test_engine_offers_the_referees_legal_sets``;
- the Excuse dropped from the legal set when a trump is forced: the same two tests;
- overtrumping not required (the trumps that beat the trick ignored): the same two tests;
- the table handing ``legal_plays`` a wrong trick state (every trump counted as an overtrump):
  ``test_engine_offers_the_referees_legal_sets``;
- the 5-player first lead allowed in the called suit: ``test_first_lead_sets_equal``;
- a lost contract scored 25 + (negative difference), the half point given to the loser, or the
  Petit au bout not multiplied: the scoring tests below.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import EXCUSE, IS_TRUMP, N_CARDS, SUIT, parse_cards
from tarot_advisor.analyzer.game import Contract, hand_size, poignee_thresholds
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.players.policy import RandomPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout import vector_rules as vr
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.rulebook import rules
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call

VECTORS = Path(__file__).parent / "vectors"
POSITIONS = 100_000


def as_set(cards) -> tuple[np.ndarray, np.ndarray]:
    """One set as a (1,) uint64 pair."""
    ids = np.zeros((1, N_CARDS), bool)
    ids[0, list(cards)] = True
    return sets_of(ids)


_CARD_LO, _CARD_HI = bb.from_cards(np.arange(N_CARDS)[:, None])  # (78,) one-bit pairs


def sets_of(members: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N,) uint64 pairs from (N, 78) bool membership."""
    lo = np.bitwise_or.reduce(np.where(members, _CARD_LO, bb.ZERO), axis=1)
    hi = np.bitwise_or.reduce(np.where(members, _CARD_HI, bb.ZERO), axis=1)
    return lo, hi


def legal_sets(
    hand_lo: np.ndarray, hand_hi: np.ndarray, lead_suit: np.ndarray, beat_hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The engine's per-deal :func:`vr.legal_plays`, row by row: (N,) uint64 pairs."""
    legal_lo, legal_hi = np.empty_like(hand_lo), np.empty_like(hand_hi)
    for row, suit in enumerate(lead_suit.tolist()):
        legal_lo[row], legal_hi[row] = vr.legal_plays(
            hand_lo[row], hand_hi[row], suit, bb.SUIT_OR_NONE_LO[suit], beat_hi[row]
        )
    return legal_lo, legal_hi


def cards_in(lo: int, hi: int) -> list[int]:
    return sorted(bb.to_cards(int(lo), int(hi)))


def fold_trick(trick: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The trick state the engine keeps, (N,) int64 suit led and (N,) uint64 trumps that would
    beat the best one, for the first ``length`` (N,) cards of ``trick`` (k, N) uint8, read off
    the referee's own statements (:func:`rules.led_suit`, :func:`rules.highest_trump`)."""
    lead_suit = np.full(len(length), vr.NO_SUIT, np.int64)
    beat_hi = np.empty(len(length), bb.U64)
    for row, (cards, n) in enumerate(zip(trick.T.tolist(), length.tolist(), strict=True)):
        suit = rules.led_suit(cards[:n])
        lead_suit[row] = vr.NO_SUIT if suit is None else suit
        beat_hi[row] = _TRUMPS_ABOVE[rules.highest_trump(cards[:n])]
    return lead_suit, beat_hi


_TRUMPS = [card for card in range(N_CARDS) if IS_TRUMP[card]]
_TRUMPS_ABOVE = {
    top: as_set([t for t in _TRUMPS if top is None or t > top])[1][0] for top in [None, *_TRUMPS]
}


def random_positions(players: int, n: int, seed: int):
    """``n`` random hands and tricks in progress, biased toward the cases the rules single out:
    voids (a suit removed from the hand), no trumps or only low ones, the Excuse led or held.
    Returns the hands (N, 78) bool and each trick's cards (k, N) uint8 with its length (N,)."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, N_CARDS))
    suits = np.asarray(SUIT)
    void_suit = rng.integers(0, 5, n)  # 0–3 a suit, 4 trumps
    has_void = rng.random(n) < 0.6
    excluded = has_void[:, None] & (suits[None, :] == void_suit[:, None])
    low_trumps = rng.random(n) < 0.2
    cap = rng.integers(1, 22, n)
    trump_rank = np.where(np.asarray(IS_TRUMP), np.arange(N_CARDS) - 55, 0)
    excluded |= low_trumps[:, None] & (trump_rank[None, :] > cap[:, None])
    keys = keys + excluded  # excluded cards sort last: the hand takes them only if it must
    size = rng.integers(1, hand_size(players) + 1, n)
    order = np.argsort(keys, axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(N_CARDS)[None, :], axis=1)
    hands = rank < size[:, None]
    # The trick: cards out of the hand, in random order, the Excuse first now and then.
    length = rng.integers(0, players, n)
    trick_keys = rng.random((n, N_CARDS)) + 2 * hands
    lead_excuse = (rng.random(n) < 0.1) & ~hands[:, EXCUSE]
    trick_keys[:, EXCUSE] = np.where(lead_excuse, -1.0, trick_keys[:, EXCUSE])
    trick = np.argsort(trick_keys, axis=1)[:, : players - 1].T.astype(np.uint8)
    return hands, trick, length


@pytest.mark.parametrize("players", [3, 4, 5])
def test_legal_sets_equal_on_random_positions(players: int) -> None:
    hands, trick, length = random_positions(players, POSITIONS, seed=players)
    hand_lo, hand_hi = sets_of(hands)
    lead_suit, beat_hi = fold_trick(trick, length)
    legal_lo, legal_hi = legal_sets(hand_lo, hand_hi, lead_suit, beat_hi)
    mismatches = []
    for row in range(POSITIONS):
        hand = np.flatnonzero(hands[row]).tolist()
        down = trick[: length[row], row].tolist()
        expected = rules.legal_plays(hand, down)
        if cards_in(legal_lo[row], legal_hi[row]) != expected:
            mismatches.append((hand, down, expected))
    assert mismatches == [], mismatches[:3]


@pytest.mark.parametrize(
    "case", json.loads((VECTORS / "legal_moves.json").read_text("utf-8"))["cases"]
)
def test_legal_moves_vectors(case: dict) -> None:
    """tests/vectors/legal_moves.json, through the engine's twin."""
    hand, trick = parse_cards(case["hand"]), parse_cards(case["trick"])
    hand_lo, hand_hi = as_set(hand)
    lead_suit, beat_hi = fold_trick(
        np.array(trick, np.uint8).reshape(-1, 1), np.array([len(trick)])
    )
    legal_lo, legal_hi = legal_sets(hand_lo, hand_hi, lead_suit, beat_hi)
    assert cards_in(legal_lo[0], legal_hi[0]) == sorted(parse_cards(case["legal"]))


def test_first_lead_sets_equal() -> None:
    """Five players, the first lead: no card of the called suit but the called card itself."""
    rng = random.Random(5)
    for _ in range(20_000):
        hand = rng.sample(range(N_CARDS), rng.randint(1, 15))
        called = 14 * rng.randrange(4) + rng.choice([13, 13, 13, 12])
        hand_lo, hand_hi = as_set(hand)
        called_lo, _ = as_set([called])
        lo, hi = vr.first_lead_plays(hand_lo[0], hand_hi[0], called_lo[0])
        assert cards_in(lo, hi) == rules.first_lead_plays(hand, called), (hand, called)


def test_first_lead_called_suit_only_when_nothing_else() -> None:
    hand = parse_cards("3♥ 7♥ D♥")
    called = parse_cards("R♥")[0]
    called_lo = as_set([called])[0][0]
    hand_lo, hand_hi = as_set(hand)
    lo, hi = vr.first_lead_plays(hand_lo[0], hand_hi[0], called_lo)
    assert cards_in(lo, hi) == sorted(hand)
    hand_lo, hand_hi = as_set([*hand, 5])
    lo, hi = vr.first_lead_plays(hand_lo[0], hand_hi[0], called_lo)
    assert cards_in(lo, hi) == [5]


class RecordingPolicy:
    """Plays like ``inner`` and records, at every decision, the hand, the trick so far and the
    legal set the engine offered, for the deals in ``watch``."""

    def __init__(self, inner, watch: int) -> None:
        self.inner, self.watch = inner, watch
        self.name = inner.name
        self.trick: list[list[int]] = [[] for _ in range(watch)]
        self.seen: list[tuple[list[int], list[int], list[int], bool]] = []

    def choose(self, turn, rng):
        table = turn.table
        if turn.position == 0:
            self.trick = [[] for _ in range(self.watch)]
        card_lo, card_hi = self.inner.choose(turn, rng)
        first_lead = table.players == 5 and table.trick == 0 and turn.position == 0
        for row in range(self.watch):
            hand = cards_in(turn.hand_lo[row], turn.hand_hi[row])
            offered = cards_in(turn.legal_lo[row], turn.legal_hi[row])
            called = cards_in(table.called_lo[row], 0)[0] if first_lead else -1
            self.seen.append((hand, list(self.trick[row]), offered, called))
            self.trick[row].append(cards_in(card_lo[row], card_hi[row])[0])
        return card_lo, card_hi


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", [RandomPolicy(), GreedyPolicy()], ids=lambda p: p.name)
def test_engine_offers_the_referees_legal_sets(players: int, policy) -> None:
    """At every decision of real playouts (every card but the last trick's, each player's
    last card, which the engine plays unasked), the legal set the engine's table computes from
    its own state is the referee's, from the hand and the trick's cards in order."""
    rng = np.random.default_rng(40 + players)
    n_deals = 300
    deals = deal(rng, n_deals, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n_deals)
    options = {}
    if players == 5:
        options["called"] = longest_suit_call(deals.hands[np.arange(n_deals), taker])
    recorder = RecordingPolicy(policy, watch=n_deals)
    for contract in (Contract.GARDE, Contract.GARDE_CONTRE):
        play(deals, taker, contract, recorder, rng=rng, **options)
    assert len(recorder.seen) == 2 * n_deals * players * (hand_size(players) - 1)
    for hand, trick, offered, called in recorder.seen:
        if called >= 0:
            expected = rules.first_lead_plays(hand, called)
        else:
            expected = rules.legal_plays(hand, trick)
        assert offered == expected, (hand, trick, called)


# --- §5 The Excuse after the trick -------------------------------------------------------------


@pytest.mark.parametrize("last", [False, True])
def test_excuse_rules_equal_on_random_last_tricks(last: bool) -> None:
    rng = random.Random(int(last))
    for _ in range(5_000):
        players = rng.choice([3, 4, 5])
        trick = rng.sample(range(N_CARDS), players)
        if rng.random() < 0.7 and EXCUSE not in trick:
            trick[rng.randrange(players)] = EXCUSE
        if all(c == EXCUSE for c in trick):
            continue
        sides = [rng.choice([rules.TAKER, rules.DEFENCE]) for _ in trick]
        earlier = [rng.choice([rules.TAKER, rules.DEFENCE]) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:
            earlier = [sides[trick.index(EXCUSE)] if EXCUSE in trick else sides[0]] * len(earlier)
        winner = (
            rules.last_trick_winner(trick, sides, earlier) if last else rules.trick_winner(trick)
        )
        chelem = all(side == sides[winner] for side in earlier)
        changes = rules.excuse_changes_side(last, chelem)
        owners = rules.card_owners(trick, sides, winner, changes)
        receiver = rules.excuse_exchange(trick, sides, winner, changes)

        best = rules.trick_winner(trick)  # the engine's own: test_engine_vs_referee
        excuse_at = trick.index(EXCUSE) if EXCUSE in trick else -1
        excuse_taker = EXCUSE in trick and sides[trick.index(EXCUSE)] == rules.TAKER
        swept = EXCUSE in trick and all(s == sides[trick.index(EXCUSE)] for s in earlier)
        got_winner = vr.last_trick_winner(best, excuse_at, swept) if last else best
        assert got_winner == winner, (trick, sides, earlier)
        winner_taker = sides[winner] == rules.TAKER
        got_changes = vr.excuse_changes_side(last, chelem)
        assert got_changes == changes
        trick_lo, trick_hi = as_set(trick)
        taker_lo, taker_hi = vr.card_owners(
            trick_lo[0], trick_hi[0], winner_taker, excuse_taker, got_changes
        )
        expected = sorted(c for c, o in zip(trick, owners, strict=True) if o == rules.TAKER)
        assert cards_in(taker_lo, taker_hi) == expected
        exchange = vr.excuse_exchange(trick_hi[0], winner_taker, excuse_taker, got_changes)
        assert exchange == {rules.TAKER: 1, rules.DEFENCE: -1, None: 0}[receiver]


def test_petit_au_bout_equal_on_random_endings() -> None:
    rng = random.Random(3)
    petit = rules.PETIT
    side_code = {rules.TAKER: 1, rules.DEFENCE: -1, None: 0}
    for _ in range(5_000):
        where = rng.choice([-1, -2, -3])
        tricks = [[10 + k] for k in range(3)]
        tricks[where] = [petit]
        sides = [rng.choice([rules.TAKER, rules.DEFENCE]) for _ in tricks]
        excuse_won_last = rng.random() < 0.5
        expected = rules.petit_au_bout(tricks, sides, excuse_won_last)
        petit_side = np.array(
            [[side_code[s] if petit in t else 0] for t, s in zip(tricks, sides, strict=True)],
            np.int8,
        )
        got = vr.petit_au_bout(petit_side, np.array([excuse_won_last]))
        assert int(got[0]) == side_code[expected]


# --- §3 The écart, §2 petit sec, §7 poignée ------------------------------------------------------


def test_check_discard_equal_on_random_ecarts() -> None:
    rng = random.Random(8)
    for _ in range(20_000):
        players = rng.choice([3, 4, 5])
        size = 3 if players == 5 else 6
        pool = rng.sample(range(N_CARDS), hand_size(players) + size)
        if rng.random() < 0.3:  # trump-heavy pools, where trumps may be forced
            pool = sorted(set(pool) | set(range(56, 56 + rng.randint(10, 21))))
        ecart = rng.sample(pool, size) if rng.random() < 0.9 else rng.sample(range(N_CARDS), size)
        try:
            rules.check_discard(pool, ecart, players)
            legal = True
        except rules.IllegalDiscard:
            legal = False
        got = vr.check_discard(*as_set(pool), *as_set(ecart), size)
        assert bool(got[0]) == legal, (pool, ecart)


def test_petit_sec_equal() -> None:
    for hand in ("1 R♠ 3♥", "1 Excuse 3♥", "1 2 3♥", "R♠ 3♥"):
        cards = parse_cards(hand)
        assert bool(vr.is_petit_sec(as_set(cards)[1])[0]) == rules.is_petit_sec(cards), hand


@pytest.mark.parametrize("players", [3, 4, 5])
def test_poignee_bonus_equal(players: int) -> None:
    rng = random.Random(players)
    trumps = list(range(56, 77))
    for _ in range(2_000):
        shown = rng.sample([*trumps, EXCUSE], rng.randint(poignee_thresholds(players)[0], 22))
        hand = sorted(set(shown) | ({EXCUSE} if rng.random() < 0.5 else set()))
        if EXCUSE in shown and any(t not in shown for t in hand if IS_TRUMP[t]):
            continue
        expected = rules.poignee_bonus(shown, hand, players)
        assert int(vr.poignee_bonus(as_set(shown)[1], players)[0]) == expected


# --- §6, §8 Counting and score -------------------------------------------------------------------


def test_contract_result_equal_on_every_count() -> None:
    points2 = np.repeat(np.arange(183), 4)
    bouts = np.tile(np.arange(4), 183)
    made, difference = vr.contract_result(points2, bouts)
    for p2, b, m, d in zip(points2, bouts, made, difference, strict=True):
        assert (bool(m), int(d)) == rules.contract_result(p2 / 2, int(b)), (p2 / 2, b)
    assert (vr.points_needed(np.arange(4)) == [rules.points_needed(b) for b in range(4)]).all()


def test_chelem_bonus_equal() -> None:
    for chelem, side in ((1, rules.TAKER), (-1, rules.DEFENCE), (0, None)):
        for announced in (False, True):
            got = vr.chelem_bonus(np.array([chelem], np.int8), announced)
            assert int(got[0]) == rules.chelem_bonus(side, announced)


SCORING = json.loads((VECTORS / "scoring.json").read_text("utf-8"))
CHELEM_LABELS = {
    "announced_made": (1, True),
    "announced_failed": (0, True),
    "made": (1, False),
    "unannounced_made": (1, False),
    "defence": (-1, False),
}


@pytest.mark.parametrize("case", SCORING["cases"], ids=lambda c: f"{c['players']}p-{c['contract']}")
def test_scoring_vectors(case: dict) -> None:
    """tests/vectors/scoring.json, through the engine's twins."""
    chelem, announced = CHELEM_LABELS.get(case.get("chelem"), (0, False))
    made, difference = vr.contract_result(
        np.array([round(2 * case["points"])]), np.array([case["bouts"]])
    )
    petit = {"taker": 1, "defence": -1, None: 0}[case.get("petit_au_bout")]
    per_defender = vr.per_defender_score(
        Contract.parse(case["contract"]).multiplier,
        made,
        difference,
        np.array([petit], np.int8),
        np.array([sum(case.get("poignees", []))]),
        vr.chelem_bonus(np.array([chelem], np.int8), announced),
    )
    assert int(per_defender[0]) == case["per_defender"]
    partner = np.array([1 if case.get("partner") else -1])
    scores = vr.seat_scores(case["players"], np.array([0]), per_defender, partner)[0].tolist()
    if "taker" in case:
        assert scores[0] == case["taker"]
    if "seats" in case:
        assert scores == case["seats"]


def test_scores_equal_on_random_outcomes() -> None:
    rng = random.Random(21)
    n = 5_000
    rows = []
    for _ in range(n):
        players = rng.choice([3, 4, 5])
        taker = rng.randrange(players)
        partner = rng.choice([None, *range(players)]) if players == 5 else None
        rows.append(
            (
                players,
                rng.choice(list(Contract)),
                rng.randint(0, 182) / 2,
                rng.randint(0, 3),
                rng.choice([rules.TAKER, rules.DEFENCE, None]),
                rng.choice([0, 20, 30, 40, 50, 60]),
                rng.choice([-200, 0, 200, 400]),
                taker,
                partner,
            )
        )
    for players, contract, points, bouts, petit, poignee, chelem, taker, partner in rows:
        expected = rules.per_defender_score(contract, points, bouts, petit, poignee, chelem)
        made, difference = vr.contract_result(np.array([round(2 * points)]), np.array([bouts]))
        got = vr.per_defender_score(
            contract.multiplier,
            made,
            difference,
            np.array([{rules.TAKER: 1, rules.DEFENCE: -1, None: 0}[petit]], np.int8),
            np.array([poignee]),
            np.array([chelem]),
        )
        assert int(got[0]) == expected
        seats = vr.seat_scores(
            players, np.array([taker]), got, np.array([-1 if partner is None else partner])
        )
        assert seats[0].tolist() == rules.seat_scores(players, taker, expected, partner)
