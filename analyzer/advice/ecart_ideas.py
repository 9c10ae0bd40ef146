"""Legal écarts from named ideas, for one taker's hand and chien (rules.md §3).

Each idea is an order of preference over the cards the écart may hold (no king, no bout); the
écart is its first cards, trumps only when the rules force them (too few other cards), the
lowest first unless the idea says otherwise. Ideas that lead to the same écart are merged
under all their names. When the ideas give fewer than :data:`MIN_ALTERNATIVES` different
écarts, the engine's own is varied one card at a time ("engine, keeping X for Y").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import IS_BOUT, IS_KING, IS_TRUMP, POINTS2, RANK, SUIT, SUIT_SYMBOLS, format_card
from ..playout import bitboard as bb
from ..playout.ecart import GreedyEcart

MIN_ALTERNATIVES = 10
"""Écarts besides the engine's own, when the hand allows that many."""

Key = Callable[[int], tuple]


@dataclass(frozen=True)
class Candidate:
    """One écart (card ids, sorted) and the ideas that lead to it, the engine's first."""

    cards: tuple[int, ...]
    ideas: tuple[str, ...]


class _Pool:
    """The taker's cards after taking the chien, and what the ideas ask of them."""

    def __init__(self, cards: Sequence[int], size: int) -> None:
        self.cards = [int(c) for c in cards]
        self.size = size
        self.plain = [c for c in self.cards if SUIT[c] < 4 and not IS_KING[c]]
        self.trumps = sorted(
            (c for c in self.cards if IS_TRUMP[c] and not IS_BOUT[c]), key=RANK.__getitem__
        )
        self.length = [sum(1 for c in self.cards if SUIT[c] == s) for s in range(4)]
        self.king = [any(IS_KING[c] and SUIT[c] == s for c in self.cards) for s in range(4)]

    @property
    def forced(self) -> int:
        """Trumps the écart must hold: the rules allow them only for want of other cards."""
        return max(0, self.size - len(self.plain))

    def ecart(self, key: Key, trumps: Sequence[int] | None = None) -> tuple[int, ...]:
        """The écart of the plain cards by ``key`` (lowest first), then forced trumps."""
        plain = sorted(self.plain, key=key)[: self.size]
        return tuple(sorted([*plain, *(trumps or self.trumps)[: self.forced]]))

    def guards(self, card: int) -> bool:
        """Whether ``card`` is one of the cards a king or dame in its suit needs beside it."""
        suit = SUIT[card]
        honours = [c for c in self.cards if SUIT[c] == suit and RANK[c] >= 13]
        if not honours:
            return False
        lower = sorted(
            (c for c in self.cards if SUIT[c] == suit and RANK[c] < 13), key=RANK.__getitem__
        )
        return card in lower[: 3 - len(honours)] or RANK[card] >= 13


def _short_first(pool: _Pool) -> Key:
    """Suits without a king first, short before long; the valuable cards first within."""
    return lambda c: (pool.king[SUIT[c]], pool.length[SUIT[c]], -POINTS2[c], -RANK[c])


def _ideas(pool: _Pool) -> list[tuple[str, tuple[int, ...]]]:
    base = _short_first(pool)
    ideas: list[tuple[str, tuple[int, ...]]] = []
    voidable = [s for s in range(4) if not pool.king[s] and 0 < pool.length[s] <= pool.size]
    for suit in voidable:
        name = f"void {SUIT_SYMBOLS[suit]}"
        ideas.append((name, pool.ecart(lambda c, s=suit: (SUIT[c] != s, *base(c)))))
    for i, first in enumerate(voidable):
        for second in voidable[i + 1 :]:
            if pool.length[first] + pool.length[second] <= pool.size:
                name = f"void {SUIT_SYMBOLS[first]} and {SUIT_SYMBOLS[second]}"
                pair = (first, second)
                ideas.append((name, pool.ecart(lambda c, p=pair: (SUIT[c] not in p, *base(c)))))
    ideas += [
        ("save points (honours first)", pool.ecart(lambda c: (-POINTS2[c], *base(c)))),
        ("small cards of short suits", pool.ecart(lambda c: (POINTS2[c] > 1, *base(c)))),
        ("keep guarded honours", pool.ecart(lambda c: (pool.guards(c), *base(c)))),
        (
            "keep length",
            pool.ecart(lambda c: (pool.length[SUIT[c]] >= max(pool.length), *base(c))),
        ),
        (
            "shorten the longest suit",
            pool.ecart(lambda c: (-pool.length[SUIT[c]], POINTS2[c], RANK[c])),
        ),
        (
            "keep a king's guards",
            pool.ecart(lambda c: (pool.king[SUIT[c]] and pool.length[SUIT[c]] <= 4, *base(c))),
        ),
    ]
    if pool.forced:
        middle = sorted(pool.trumps, key=lambda c: abs(RANK[c] - 11))
        ideas.append(("forced trumps: middle ones, keep the small", pool.ecart(base, middle)))
        high = sorted(pool.trumps, key=lambda c: -RANK[c])
        ideas.append(("forced trumps: the highest", pool.ecart(base, high)))
    return ideas


def engine_ecart(cards: Sequence[int], size: int) -> tuple[int, ...]:
    """The écart :class:`ecart.GreedyEcart` makes from ``cards`` (hand and chien)."""
    lo, hi = bb.from_cards(np.array([list(cards)], np.uint8))
    ecart_lo, ecart_hi = GreedyEcart().choose(lo, hi, size)
    return tuple(sorted(bb.to_cards(int(ecart_lo[0]), int(ecart_hi[0]))))


def candidates(cards: Sequence[int], size: int) -> list[Candidate]:
    """The engine's écart first, then the named ideas' (merged when equal), then one-card
    variations of the engine's until :data:`MIN_ALTERNATIVES` alternatives (if that many
    legal écarts exist). ``cards``: the taker's hand and the chien; ``size``: the écart's."""
    pool = _Pool(cards, size)
    engine = engine_ecart(cards, size)
    names: dict[tuple[int, ...], list[str]] = {engine: ["engine"]}
    for name, ecart in _ideas(pool):
        names.setdefault(ecart, []).append(name)
    order = sorted(pool.plain, key=_short_first(pool)) + pool.trumps
    swaps = (
        (out, replacement)
        for replacement in order
        for out in sorted(engine, key=order.index, reverse=True)
        if replacement not in engine
    )
    for out, replacement in swaps:
        if len(names) > MIN_ALTERNATIVES:
            break
        ecart = tuple(sorted([*(c for c in engine if c != out), replacement]))
        if _legal(pool, ecart) and ecart not in names:
            names[ecart] = [f"engine, keeping {format_card(out)} for {format_card(replacement)}"]
    return [Candidate(ecart, tuple(ideas)) for ecart, ideas in names.items()]


def _legal(pool: _Pool, ecart: tuple[int, ...]) -> bool:
    trumps = sum(1 for c in ecart if IS_TRUMP[c])
    return trumps <= pool.forced and not any(IS_KING[c] or IS_BOUT[c] for c in ecart)
