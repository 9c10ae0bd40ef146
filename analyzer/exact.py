"""Exact probabilities for a uniformly shuffled pack (hypergeometric laws over the 78 cards).

A hand of ``h`` cards (or the chien of ``c``) is a uniform sample without replacement of the 78
cards, so the number of cards it holds from a class of ``K`` cards follows the hypergeometric
law ``P(k) = C(K, k) C(78-K, h-k) / C(78, h)``. Laws that involve several classes at once (suit
lengths) or several hands at once (someone holds a poignée) enumerate the multivariate
hypergeometric law. Everything is computed with exact integers and converted to float at the end.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from functools import cache
from math import comb

from .cards import N_CARDS
from .game import chien_size, hand_size, poignee_thresholds

BOUTS = 3
KINGS = 4
TRUMPS = 21
TRUMPS_AND_EXCUSE = 22
SUIT_CARDS = 14


def hypergeometric(successes: int, draws: int, population: int = N_CARDS) -> list[float]:
    """``P(k)`` for ``k = 0…min(successes, draws)``: ``k`` of the ``successes`` marked cards among
    ``draws`` cards drawn without replacement from ``population``."""
    total = comb(population, draws)
    return [
        comb(successes, k) * comb(population - successes, draws - k) / total
        for k in range(min(successes, draws) + 1)
    ]


def bouts_in_hand(players: int) -> list[float]:
    """``P(k bouts in one given hand)``, k = 0…3."""
    return hypergeometric(BOUTS, hand_size(players))


def bouts_in_chien(players: int) -> list[float]:
    """``P(k bouts in the chien)``, k = 0…min(3, c)."""
    return hypergeometric(BOUTS, chien_size(players))


def kings_in_hand(players: int) -> list[float]:
    """``P(k kings in one given hand)``, k = 0…4."""
    return hypergeometric(KINGS, hand_size(players))


def trumps_in_hand(players: int) -> list[float]:
    """``P(k of the 21 trumps in one given hand)`` (the Excuse not counted), k = 0…min(21, h)."""
    return hypergeometric(TRUMPS, hand_size(players))


def trumps_and_excuse_in_hand(players: int) -> list[float]:
    """``P(k of the 21 trumps and the Excuse in one given hand)`` — what a poignée counts."""
    return hypergeometric(TRUMPS_AND_EXCUSE, hand_size(players))


def at_least(pmf: list[float], k: int) -> float:
    """``P(X ≥ k)`` from a probability mass function indexed 0, 1, 2…"""
    return sum(pmf[k:])


def poignees_in_hand(players: int) -> tuple[float, float, float]:
    """Probabilities that one given hand can show at least a simple, double, triple poignée
    (trumps + Excuse ≥ the threshold; rules.md §7)."""
    pmf = trumps_and_excuse_in_hand(players)
    simple, double, triple = (at_least(pmf, t) for t in poignee_thresholds(players))
    return simple, double, triple


def void_in_given_suit(players: int) -> float:
    """Probability that one given hand holds no card of one given suit."""
    return hypergeometric(SUIT_CARDS, hand_size(players))[0]


def suit_length_in_hand(players: int) -> list[float]:
    """``P(a given hand holds k cards of a given suit)``, k = 0…14."""
    return hypergeometric(SUIT_CARDS, hand_size(players))


def petit_sec_in_hand(players: int) -> float:
    """Probability that one given hand is petit sec: the Petit, no other trump, no Excuse.

    The other ``h - 1`` cards all come from the 56 suited cards.
    """
    h = hand_size(players)
    return comb(N_CARDS - TRUMPS_AND_EXCUSE, h - 1) / comb(N_CARDS, h)


def petit_sec_in_deal(players: int) -> float:
    """Probability that some hand is petit sec. Only one hand holds the Petit, so the events of
    the ``n`` hands are disjoint and their probabilities add."""
    return players * petit_sec_in_hand(players)


@cache
def _suit_counts(players: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every (♠, ♥, ♦, ♣) length vector of one hand with its number of hands (out of C(78, h))."""
    h = hand_size(players)
    rows = []
    for lengths in itertools.product(range(SUIT_CARDS + 1), repeat=4):
        rest = h - sum(lengths)
        if not 0 <= rest <= TRUMPS_AND_EXCUSE:
            continue
        ways = comb(TRUMPS_AND_EXCUSE, rest)
        for length in lengths:
            ways *= comb(SUIT_CARDS, length)
        rows.append((lengths, ways))
    return tuple(rows)


def voids_in_hand(players: int) -> list[float]:
    """``P(a given hand has k void suits)``, k = 0…4."""
    return _by_suit_feature(players, lambda lengths: sum(n == 0 for n in lengths), 4)


def singletons_in_hand(players: int) -> list[float]:
    """``P(a given hand has k singleton suits)``, k = 0…4."""
    return _by_suit_feature(players, lambda lengths: sum(n == 1 for n in lengths), 4)


def longest_suit_in_hand(players: int) -> list[float]:
    """``P(the longest suit of a given hand has k cards)``, k = 0…14."""
    return _by_suit_feature(players, max, SUIT_CARDS)


def _by_suit_feature(
    players: int, feature: Callable[[tuple[int, ...]], int], largest: int
) -> list[float]:
    ways = [0] * (largest + 1)
    for lengths, count in _suit_counts(players):
        ways[feature(lengths)] += count
    total = comb(N_CARDS, hand_size(players))
    return [w / total for w in ways]


def most_trumps_and_excuse_in_deal(players: int) -> list[float]:
    """``P(the hand with the most trumps + Excuse holds exactly k)``, k = 0…22.

    Enumerates how the 22 trumps and Excuse split between the ``n`` hands and the chien
    (multivariate hypergeometric law over the groups of the deal).
    """
    n, h, c = players, hand_size(players), chien_size(players)
    ways_by_most = [0] * (TRUMPS_AND_EXCUSE + 1)
    for in_chien in range(min(c, TRUMPS_AND_EXCUSE) + 1):
        for split in _compositions(TRUMPS_AND_EXCUSE - in_chien, n, h):
            ways = comb(c, in_chien)
            for k in split:
                ways *= comb(h, k)
            ways_by_most[max(split)] += ways
    total = comb(N_CARDS, TRUMPS_AND_EXCUSE)
    return [w / total for w in ways_by_most]


def _compositions(total: int, parts: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` integers in 0…``largest`` that sum to ``total``."""
    if parts == 1:
        if total <= largest:
            yield (total,)
        return
    for first in range(min(total, largest) + 1):
        for rest in _compositions(total - first, parts - 1, largest):
            yield (first, *rest)


def poignees_in_deal(players: int) -> tuple[float, float, float]:
    """Probabilities that at least one hand of the deal can show a simple, double, triple
    poignée."""
    pmf = most_trumps_and_excuse_in_deal(players)
    simple, double, triple = (at_least(pmf, t) for t in poignee_thresholds(players))
    return simple, double, triple
