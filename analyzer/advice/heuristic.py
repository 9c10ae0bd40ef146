"""The point-count bidding heuristic (N. Chavey's barème; rules.md §11).

The points are fictitious, not card points. "Trumps" in the barème means the 21 trumps *and the
Excuse*: the Excuse counts in the trump length and as an "other trump" for the Petit's bonus
(worked example 1 of rules.md §11 reaches 60 only that way).

:func:`point_count` is the plain, readable reference for one hand; :func:`point_counts` computes
the same numbers for N hands at once with array operations and is tested against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..cards import (
    EXCUSE,
    KING_RANK,
    N_CARDS,
    PETIT,
    RANK,
    SUIT,
    TRUMP,
    TWENTY_ONE,
    trumps_and_excuse,
)
from ..game import BIDS, check_players
from .calibrated import calibrated_count

TWENTY_ONE_POINTS = 10
EXCUSE_POINTS = 8
PETIT_POINTS = {4: 5, 5: 7}
"""Petit bonus by the number of *other* trumps (Excuse included); 0 below 4, 9 from 6 up."""
PETIT_POINTS_MAX = 9
LONG_TRUMPS = 4
"""From this many trumps (Excuse included), each trump is worth :data:`POINTS_PER_TRUMP`."""
POINTS_PER_TRUMP = 2
MAJOR_TRUMP = 16
"""Trumps 16 to 21 are the major trumps."""
MAJOR_POINTS = 2
RUN_POINTS = 1
KING_AND_QUEEN, KING_ALONE, QUEEN_ALONE, CAVALIER, VALET = 10, 6, 3, 2, 1
SUIT_LENGTH_POINTS = {5: 5, 6: 7}
"""Points for a suit of 5 or 6 cards; 7 or more score :data:`LONG_SUIT_MAX`."""
LONG_SUIT_MAX = 9
VOID_POINTS, SINGLETON_POINTS = 6, 3

PRISE_FROM, GARDE_FROM, GARDE_SANS_FROM, GARDE_CONTRE_FROM = 40, 56, 71, 81
"""Lowest points for each bid (rules.md §11); distribution points count only toward the last two."""

COMPONENTS = (
    "21",
    "excuse",
    "petit",
    "trump_length",
    "major_trumps",
    "major_runs",
    "honours",
    "suit_length",
    "distribution",
)
"""The parts of a point count, in the order of the barème."""


@dataclass(frozen=True)
class PointCount:
    """A hand's point count.

    ``points`` leaves out the distribution points (voids, singletons), which count only toward
    Garde Sans and Garde Contre; ``points_with_distribution`` includes them. ``bid`` is one of
    :data:`~.game.BIDS`. ``breakdown`` maps each name of :data:`COMPONENTS` to its points.
    """

    points: int
    points_with_distribution: int
    bid: str
    breakdown: Mapping[str, int]


def petit_points(other_trumps: int) -> int:
    """The Petit's bonus given the number of other trumps held (Excuse included)."""
    if other_trumps >= 6:
        return PETIT_POINTS_MAX
    return PETIT_POINTS.get(other_trumps, 0)


def suit_length_points(length: int) -> int:
    """Points for the length of one suit: 5 cards 5, 6 cards 7, 7 or more 9."""
    if length >= 7:
        return LONG_SUIT_MAX
    return SUIT_LENGTH_POINTS.get(length, 0)


def honour_points(ranks: set[int]) -> int:
    """Points for the honours of one suit, given the ranks held (R=14, D=13, C=12, V=11)."""
    king, queen = KING_RANK in ranks, KING_RANK - 1 in ranks
    points = KING_AND_QUEEN if king and queen else KING_ALONE * king + QUEEN_ALONE * queen
    return points + CAVALIER * (KING_RANK - 2 in ranks) + VALET * (KING_RANK - 3 in ranks)


def bid_for(points: int, points_with_distribution: int) -> str:
    """The bid of the barème: the distribution points count only toward Garde Sans and Contre."""
    if points_with_distribution >= GARDE_CONTRE_FROM:
        return "garde_contre"
    if points_with_distribution >= GARDE_SANS_FROM:
        return "garde_sans"
    if points >= GARDE_FROM:
        return "garde"
    if points >= PRISE_FROM:
        return "prise"
    return "pass"


def point_count(hand: Iterable[int]) -> PointCount:
    """The barème's point count of one hand (card ids) and the bid it suggests."""
    cards = {int(card) for card in hand}
    trump_numbers = sorted(int(RANK[c]) for c in cards if SUIT[c] == TRUMP)
    trumps = int(trumps_and_excuse(list(cards)))  # the barème counts the Excuse as a trump

    majors = {n for n in trump_numbers if n >= MAJOR_TRUMP}
    in_runs = {n for n in majors if n - 1 in majors or n + 1 in majors}

    honours = suit_lengths = distribution = 0
    for suit in range(4):
        ranks = {int(RANK[c]) for c in cards if SUIT[c] == suit}
        honours += honour_points(ranks)
        suit_lengths += suit_length_points(len(ranks))
        if not ranks:
            distribution += VOID_POINTS
        elif len(ranks) == 1:
            distribution += SINGLETON_POINTS

    breakdown = {
        "21": TWENTY_ONE_POINTS * (TWENTY_ONE in cards),
        "excuse": EXCUSE_POINTS * (EXCUSE in cards),
        "petit": petit_points(trumps - 1) if PETIT in cards else 0,
        "trump_length": POINTS_PER_TRUMP * trumps if trumps >= LONG_TRUMPS else 0,
        "major_trumps": MAJOR_POINTS * len(majors),
        "major_runs": RUN_POINTS * len(in_runs),
        "honours": honours,
        "suit_length": suit_lengths,
        "distribution": distribution,
    }
    points = sum(breakdown.values()) - distribution
    with_distribution = points + distribution
    return PointCount(
        points=points,
        points_with_distribution=with_distribution,
        bid=bid_for(points, with_distribution),
        breakdown=MappingProxyType(breakdown),
    )


def bid(hand: Iterable[int], players: int, table: str = "seed") -> str:
    """The bid (one of :data:`~.game.BIDS`) a point count suggests for ``hand`` (card ids).

    ``table="seed"``: the barème of rules.md §11, the same for every table; ``"calibrated"``:
    the count fitted by simulation for ``players`` players (:mod:`calibrated`).
    """
    check_players(players)
    if table == "seed":
        return point_count(hand).bid
    if table == "calibrated":
        return calibrated_count(hand, players).bid
    raise ValueError(f"the point-count table is 'seed' or 'calibrated', not {table!r}")


def _weight(predicate: np.ndarray, value: int) -> np.ndarray:
    return np.where(predicate, value, 0).astype(np.int16)


# Lookup tables, indexed by a count, for the parts that are not linear in the cards.
_PETIT_BY_OTHERS = np.array([petit_points(k) for k in range(22)], np.int16)
_LENGTH_BY_TRUMPS = np.array(
    [POINTS_PER_TRUMP * k if k >= LONG_TRUMPS else 0 for k in range(23)], np.int16
)
_SUIT_LENGTH = np.array([suit_length_points(k) for k in range(15)], np.int16)
_DISTRIBUTION = np.array([VOID_POINTS, SINGLETON_POINTS] + [0] * 13, np.int16)  # by suit length
_HONOUR_CODE_POINTS = np.array(
    [
        honour_points(
            {r for r, bit in zip((14, 13, 12, 11), (8, 4, 2, 1), strict=True) if code & bit}
        )
        for code in range(16)
    ],
    np.int16,
)  # by the 4-bit code R D C V of one suit
_MAJORS = np.arange(MAJOR_TRUMP, 22) + 55  # card ids of trumps 16…21, increasing


def point_counts(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Point counts of N hands at once.

    ``hands``: (N, h) uint8 card ids (each row distinct cards). Returns ``(points,
    points_with_distribution)``, both (N,) int16, equal to :func:`point_count`'s fields.
    """
    n = hands.shape[0]
    held = np.zeros((n, N_CARDS), bool)
    held[np.arange(n)[:, None], hands] = True

    trumps = trumps_and_excuse(hands)
    points = _weight(held[:, TWENTY_ONE], TWENTY_ONE_POINTS)
    points += _weight(held[:, EXCUSE], EXCUSE_POINTS)
    points += np.where(held[:, PETIT], _PETIT_BY_OTHERS[np.maximum(trumps - 1, 0)], 0).astype(
        np.int16
    )
    points += _LENGTH_BY_TRUMPS[trumps]

    majors = held[:, _MAJORS]  # (N, 6), trumps 16…21
    neighbour = np.zeros_like(majors)
    neighbour[:, 1:] |= majors[:, :-1]
    neighbour[:, :-1] |= majors[:, 1:]
    points += MAJOR_POINTS * majors.sum(axis=1, dtype=np.int16)
    points += RUN_POINTS * (majors & neighbour).sum(axis=1, dtype=np.int16)

    suits = held[:, :56].reshape(n, 4, 14)
    honour_code = (
        8 * suits[:, :, 13].astype(np.int8)
        + 4 * suits[:, :, 12]
        + 2 * suits[:, :, 11]
        + suits[:, :, 10]
    )
    lengths = suits.sum(axis=2)
    points += _HONOUR_CODE_POINTS[honour_code].sum(axis=1, dtype=np.int16)
    points += _SUIT_LENGTH[lengths].sum(axis=1, dtype=np.int16)
    with_distribution = points + _DISTRIBUTION[lengths].sum(axis=1, dtype=np.int16)
    return points, with_distribution


def heuristic_bids(points: np.ndarray, points_with_distribution: np.ndarray) -> np.ndarray:
    """Bid indices into :data:`~.game.BIDS` (0 = pass … 4 = garde_contre), (N,) int8, for the
    arrays returned by :func:`point_counts`."""
    bids = np.zeros(points.shape, np.int8)
    bids[points >= PRISE_FROM] = BIDS.index("prise")
    bids[points >= GARDE_FROM] = BIDS.index("garde")
    bids[points_with_distribution >= GARDE_SANS_FROM] = BIDS.index("garde_sans")
    bids[points_with_distribution >= GARDE_CONTRE_FROM] = BIDS.index("garde_contre")
    return bids
