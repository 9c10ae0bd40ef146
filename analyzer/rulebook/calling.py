"""The 5-player call: which card the taker calls (rules.md §3)."""

from __future__ import annotations

import numpy as np

from ..cards import SUIT, suited


def callable_rank(hand: np.ndarray) -> np.ndarray:
    """(N,) int64 the rank the taker must call: the king (14), or with all four kings the dame,
    and so on. ``hand``: (N, k) uint8 card ids of the taker's hand as dealt."""
    rank = np.full(len(hand), 14, np.int64)
    settled = np.zeros(len(hand), bool)
    for candidate in range(14, 10, -1):
        cards = np.array([suited(s, candidate) for s in range(4)])
        holds_all = np.isin(hand, cards).sum(axis=1) == 4
        rank = np.where(~settled, candidate, rank)
        settled |= ~holds_all
    return rank


def longest_suit_call(hand: np.ndarray) -> np.ndarray:
    """(N,) int64 a sensible call for each hand: the card of the rank to call in the taker's
    longest suit among those where the taker lacks it (the partner's king then guards length);
    ``hand``: (N, k) uint8."""
    rank = callable_rank(hand)
    lengths = np.stack([(SUIT[hand] == s).sum(axis=1) for s in range(4)], axis=1)
    candidates = np.stack([14 * s + rank - 1 for s in range(4)], axis=1)
    lacks = ~(hand[:, None, :] == candidates[:, :, None]).any(axis=2)
    suit = np.where(lacks, lengths, -1).argmax(axis=1)
    return candidates[np.arange(len(hand)), suit]
