"""The consistent-world sampler: every world fits, and every world that fits is equally likely
(checked against the exact enumeration of small end positions). Its kernels draw the same worlds
compiled or not."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import parse_cards
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout import words
from tarot_advisor.analyzer.search.worlds import Constraints, NoWorldError, card_set, check, sample


def constraints(may: list[str], must: list[str], count: list[int]) -> Constraints:
    """One deal's constraints from card lists written in the notation."""
    may_sets = [card_set(parse_cards(text)) if text else (0, 0) for text in may]
    must_sets = [card_set(parse_cards(text)) if text else (0, 0) for text in must]
    return Constraints(
        np.array([[lo for lo, _ in may_sets]], np.uint64),
        np.array([[hi for _, hi in may_sets]], np.uint64),
        np.array([[lo for lo, _ in must_sets]], np.uint64),
        np.array([[hi for _, hi in must_sets]], np.uint64),
        np.array([count], np.int64),
    )


def enumerate_worlds(c: Constraints) -> list[tuple[tuple[int, ...], ...]]:
    """Every world of deal 0, by brute force: each hidden card in turn to each holder that may
    hold it and has room left."""
    h = c.holders
    may = [set(bb.to_cards(c.may_lo[0, p], c.may_hi[0, p])) for p in range(h)]
    must = [set(bb.to_cards(c.must_lo[0, p], c.must_hi[0, p])) for p in range(h)]
    cards = sorted(set().union(*may) - set().union(*must))
    worlds = []

    def place(index: int, hands: list[set[int]]) -> None:
        if index == len(cards):
            if all(len(hands[p]) == c.count[0, p] for p in range(h)):
                worlds.append(tuple(tuple(sorted(hand)) for hand in hands))
            return
        for p in range(h):
            if cards[index] in may[p] and len(hands[p]) < c.count[0, p]:
                hands[p].add(cards[index])
                place(index + 1, hands)
                hands[p].discard(cards[index])

    place(0, [set(m) for m in must])
    return worlds


def drawn(lo: np.ndarray, hi: np.ndarray) -> list[tuple[tuple[int, ...], ...]]:
    return [
        tuple(tuple(sorted(bb.to_cards(lo[0, k, p], hi[0, k, p]))) for p in range(lo.shape[2]))
        for k in range(lo.shape[1])
    ]


def chi_square_is_uniform(worlds: list, draws: list) -> None:
    """Pearson's statistic against the uniform law on ``worlds``, within 5 σ of its mean (a
    chi-square with m − 1 degrees of freedom has mean m − 1 and variance 2(m − 1))."""
    counts = Counter(draws)
    assert set(counts) <= set(worlds), "a drawn world does not fit the constraints"
    expected = len(draws) / len(worlds)
    statistic = sum((counts[w] - expected) ** 2 / expected for w in worlds)
    dof = len(worlds) - 1
    assert statistic < dof + 5 * np.sqrt(2 * dof), (statistic, dof)


# An end position of a 4-player Garde, three tricks to go, seen by seat 0 (holder 0, its own
# hand). Seat 1 has shown no ♥ and no trumps; seat 3 undertrumped the 15 (no trump above it);
# seat 2 showed the 20 in a poignée; the écart (holder 4) holds no king, bout or trump.
END_POSITION = constraints(
    may=[
        "R♥ 10♣ 4♦",
        "R♠ 3♠ V♦ 8♦ 2♣",
        "R♠ 3♠ D♥ 7♥ V♦ 8♦ 2♣ 20 18 12 4 Excuse",
        "R♠ 3♠ D♥ 7♥ V♦ 8♦ 2♣ 12 4 Excuse",
        "3♠ 7♥ 8♦ 2♣ D♥ V♦ 6♣ 5♣ 4♣",
    ],
    must=["R♥ 10♣ 4♦", "", "20", "", ""],
    count=[3, 3, 3, 3, 6],
)


@pytest.mark.slow
def test_every_world_of_an_end_position_is_equally_likely():
    worlds = enumerate_worlds(END_POSITION)
    assert len(worlds) > 20
    lo, hi = sample(END_POSITION, 40_000, np.random.default_rng(10))
    chi_square_is_uniform(worlds, drawn(lo, hi))


@pytest.mark.slow
def test_uniform_when_one_holder_must_take_what_others_cannot():
    # Only holder 1 may hold trumps: the 21 and the 7 are certainly there, the rest is free.
    c = constraints(
        may=["", "21 7 R♣ D♣ 4♥ 3♥", "R♣ D♣ 4♥ 3♥", "R♣ D♣ 4♥ 3♥"],
        must=["", "", "", ""],
        count=[0, 3, 2, 1],
    )
    worlds = enumerate_worlds(c)
    lo, hi = sample(c, 20_000, np.random.default_rng(11))
    chi_square_is_uniform(worlds, drawn(lo, hi))
    assert all({56 + 21 - 1, 56 + 7 - 1} <= set(world[1]) for world in drawn(lo, hi))


@pytest.mark.slow
def test_an_acceptance_test_keeps_the_law_uniform_on_what_it_accepts():
    def no_king_of_spades_for_holder_3(lo, hi, d):
        return (lo[:, 3] & np.uint64(card_set(parse_cards("R♠"))[0])) == 0

    (king,) = parse_cards("R♠")
    worlds = [w for w in enumerate_worlds(END_POSITION) if king not in w[3]]
    lo, hi = sample(
        END_POSITION, 30_000, np.random.default_rng(12), accept=no_king_of_spades_for_holder_3
    )
    chi_square_is_uniform(worlds, drawn(lo, hi))


@pytest.mark.slow
def test_uniform_when_holders_may_take_the_same_cards():
    # Holders 1 and 2 may take the same cards (counted as one, then shared out), 3 and 4 too,
    # holder 5 fewer.
    same, fewer = "R♠ 3♠ D♥ 7♥ V♦ 8♦ 21 5 Excuse", "3♠ 7♥ 8♦"
    c = constraints(
        may=["2♣", same, same, "D♥ 7♥ 3♠ 21", "D♥ 7♥ 3♠ 21", fewer],
        must=["2♣", "", "", "", "", ""],
        count=[1, 2, 3, 1, 1, 2],
    )
    worlds = enumerate_worlds(c)
    assert len(worlds) > 50
    lo, hi = sample(c, 30_000, np.random.default_rng(13))
    chi_square_is_uniform(worlds, drawn(lo, hi))


def test_same_seed_same_worlds():
    first = sample(END_POSITION, 50, np.random.default_rng(3))
    second = sample(END_POSITION, 50, np.random.default_rng(3))
    assert all((a == b).all() for a, b in zip(first, second, strict=True))


def test_counts_that_no_deal_can_meet_are_refused():
    # Two hidden cards, but the holders have room for three.
    with pytest.raises(NoWorldError, match="hidden"):
        check(constraints(may=["", "R♠ 3♠", "R♠ 3♠"], must=["", "", ""], count=[0, 2, 1]))
    # Holder 2 must take two cards, but may hold only one of them.
    with pytest.raises(NoWorldError, match="fits"):
        check(constraints(may=["", "R♠ 3♠", "3♠"], must=["", "", ""], count=[0, 0, 2]))


def test_many_deals_at_once_each_keep_their_own_constraints():
    other = constraints(
        may=["", "R♠ 3♠ D♥", "R♠ 3♠ D♥", "", ""], must=["", "", "D♥", "", ""], count=[0, 1, 2, 0, 0]
    )
    both = Constraints(
        *(
            np.concatenate([getattr(END_POSITION, name), getattr(other, name)])
            for name in ("may_lo", "may_hi", "must_lo", "must_hi", "count")
        )
    )
    lo, hi = sample(both, 2000, np.random.default_rng(4))
    assert set(drawn(lo[:1], hi[:1])) <= set(enumerate_worlds(END_POSITION))
    assert set(drawn(lo[1:], hi[1:])) == set(enumerate_worlds(other))


def test_a_deal_with_no_world_leaves_the_generator_as_it_was():
    # The lookahead draws again from the same generator when its likely worlds are refused.
    rng = np.random.default_rng(5)
    with pytest.raises(NoWorldError, match="fits"):
        sample(constraints(may=["", "R♠ 3♠", "3♠"], must=["", "", ""], count=[0, 0, 2]), 4, rng)
    assert rng.random() == np.random.default_rng(5).random()


def test_a_refusal_keeps_the_draws_of_the_deals_drawn_before():
    # Deal 0 (one holder with room, one free card) is drawn before deal 1 (two holders with
    # room; holder 2 must take two cards but may hold only 3♠): its four draws stay drawn.
    fits = constraints(may=["", "R♠", ""], must=["", "", ""], count=[0, 1, 0])
    refused = constraints(may=["", "R♠ 3♠ D♥", "3♠"], must=["", "", ""], count=[0, 1, 2])
    both = Constraints(
        *(
            np.concatenate([getattr(fits, name), getattr(refused, name)])
            for name in ("may_lo", "may_hi", "must_lo", "must_hi", "count")
        )
    )
    rng = np.random.default_rng(5)
    with pytest.raises(NoWorldError, match="fits"):
        sample(both, 4, rng)
    assert rng.random() == np.random.default_rng(5).random(5)[4]


SAME_CARDS = constraints(
    may=["2♣", "R♠ 3♠ D♥ 7♥ 21", "R♠ 3♠ D♥ 7♥ 21", "D♥ 7♥ 3♠"],
    must=["2♣", "", "", ""],
    count=[1, 2, 2, 1],
)


def worlds_digest() -> str:
    """A digest of the worlds drawn for the end position and for holders counted as one."""
    digest = hashlib.sha256()
    for seed, position in enumerate((END_POSITION, SAME_CARDS)):
        for words_ in sample(position, 300, np.random.default_rng(seed)):
            digest.update(words_.tobytes())
    return digest.hexdigest()


@pytest.mark.skipif(not words.compiled(), reason="the kernels are not compiled here")
def test_the_kernels_draw_the_same_worlds_run_as_python():
    code = (
        "import sys; sys.path[:0] = sys.argv[1:]; import test_worlds as t; print(t.worlds_digest())"
    )
    uncompiled = subprocess.run(
        [sys.executable, "-W", "error", "-c", code, os.path.dirname(__file__)],
        env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
        capture_output=True,
        text=True,
        check=True,
    )
    assert uncompiled.stdout.strip() == worlds_digest()
