"""The calibrated point count: small whole points per item, fitted by simulation (issue 12).

The seed's barème (:mod:`heuristic`, rules.md §11) has one set of points and one set of bid
lines for every table. The calibrated count keeps the barème's spirit — one number a player
adds up in the head, four lines — but its items' points and its lines are fitted, per number of
players, to the simulation's best bid (``tarot-report pointcount``). The fitted tables ship in
this package (``tables/pointcount-<players>.json``) with their provenance.

Unlike the barème, every item counts toward every bid (voids and singletons included), so a
hand has one calibrated count.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

import numpy as np

from ..cards import EXCUSE, N_CARDS, PETIT, TWENTY_ONE, trumps_and_excuse
from ..game import BIDS, check_players

ITEMS = (
    "21",
    "excuse",
    "petit",
    "petit_guarded",
    "trump",
    "long_trump",
    "major",
    "king",
    "queen",
    "cavalier",
    "valet",
    "king_queen",
    "guarded_queen",
    "long_suit",
    "void",
    "singleton",
    "doubleton",
)
"""The items of the calibrated count, in the order of its card."""

PETIT_GUARD = {3: 6, 4: 5, 5: 4}
"""Other trumps (the Excuse included) that make the Petit guarded, by players: about one more
than an average hand holds."""
LONG_TRUMP_FROM = {3: 9, 4: 7, 5: 6}
"""The trump (by count, the Excuse left out) from which each more trump is a long trump: about
two more than an average hand holds."""


def item_labels(players: int) -> dict[str, str]:
    """What each item means, in words a player reads on the card."""
    return {
        "21": "the 21",
        "excuse": "the Excuse",
        "petit": "the Petit",
        "petit_guarded": f"the Petit with {PETIT_GUARD[players]}+ other trumps (Excuse incl.)",
        "trump": "each trump (1 to 21)",
        "long_trump": f"each trump from the {LONG_TRUMP_FROM[players]}th on",
        "major": "each trump 16 to 20",
        "king": "each king",
        "queen": "each queen",
        "cavalier": "each cavalier",
        "valet": "each valet",
        "king_queen": "each suit with king and queen",
        "guarded_queen": "each queen without its king, 3+ cards in the suit",
        "long_suit": "each suit card beyond the 4th of its suit",
        "void": "each void suit",
        "singleton": "each singleton suit",
        "doubleton": "each doubleton suit",
    }


def item_counts(hands: np.ndarray, players: int) -> np.ndarray:
    """How many times each item of :data:`ITEMS` is in each hand.

    ``hands``: (N, h) uint8 card ids, each row distinct cards. Returns (N, len(ITEMS)) int16.
    """
    n = hands.shape[0]
    held = np.zeros((n, N_CARDS), bool)
    held[np.arange(n)[:, None], hands] = True
    trumps = held[:, PETIT : TWENTY_ONE + 1].sum(axis=1)
    other_trumps = trumps_and_excuse(hands) - 1
    suits = held[:, :56].reshape(n, 4, 14)
    lengths = suits.sum(axis=2)
    king, queen = suits[:, :, 13], suits[:, :, 12]
    columns = {
        "21": held[:, TWENTY_ONE],
        "excuse": held[:, EXCUSE],
        "petit": held[:, PETIT],
        "petit_guarded": held[:, PETIT] & (other_trumps >= PETIT_GUARD[players]),
        "trump": trumps,
        "long_trump": np.maximum(trumps - LONG_TRUMP_FROM[players] + 1, 0),
        "major": held[:, PETIT + 15 : TWENTY_ONE].sum(axis=1),
        "king": king.sum(axis=1),
        "queen": queen.sum(axis=1),
        "cavalier": suits[:, :, 11].sum(axis=1),
        "valet": suits[:, :, 10].sum(axis=1),
        "king_queen": (king & queen).sum(axis=1),
        "guarded_queen": (queen & ~king & (lengths >= 3)).sum(axis=1),
        "long_suit": np.maximum(lengths - 4, 0).sum(axis=1),
        "void": (lengths == 0).sum(axis=1),
        "singleton": (lengths == 1).sum(axis=1),
        "doubleton": (lengths == 2).sum(axis=1),
    }
    return np.stack([columns[name] for name in ITEMS], axis=1).astype(np.int16)


@dataclass(frozen=True)
class CountTable:
    """A calibrated count for one number of players: points per item and the bid lines.

    ``thresholds`` maps each bid but pass to the lowest count that bids it (ascending; equal
    lines leave a bid out, ``None`` never bids it).
    """

    players: int
    weights: Mapping[str, int]
    thresholds: Mapping[str, int | None]
    provenance: Mapping[str, object]

    def points(self, counts: np.ndarray) -> np.ndarray:
        """(N,) int32 counts for the (N, len(ITEMS)) item counts of :func:`item_counts`."""
        weights = np.array([self.weights[name] for name in ITEMS], np.int32)
        return counts.astype(np.int32) @ weights

    def bids(self, points: np.ndarray) -> np.ndarray:
        """(N,) int8 bid indices into :data:`~.game.BIDS` for (N,) counts."""
        bids = np.zeros(points.shape, np.int8)
        for index, name in enumerate(BIDS[1:], start=1):
            line = self.thresholds[name]
            if line is not None:
                bids[points >= line] = index
        return bids

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "weights": dict(self.weights),
            "thresholds": dict(self.thresholds),
            "provenance": dict(self.provenance),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> CountTable:
        weights = {name: int(data["weights"][name]) for name in ITEMS}
        thresholds = {name: data["thresholds"][name] for name in BIDS[1:]}
        return cls(
            players=int(data["players"]),
            weights=MappingProxyType(weights),
            thresholds=MappingProxyType(thresholds),
            provenance=MappingProxyType(dict(data.get("provenance", {}))),
        )


def table_name(players: int) -> str:
    return f"pointcount-{players}.json"


@cache
def shipped_table(players: int) -> CountTable:
    """The calibrated table shipped with the package for ``players`` players."""
    check_players(players)
    text = resources.files(__package__).joinpath("tables", table_name(players)).read_text("utf-8")
    return CountTable.from_dict(json.loads(text))


@dataclass(frozen=True)
class CalibratedCount:
    """A hand's calibrated count: ``points``, the ``bid`` (one of :data:`~.game.BIDS`) and
    ``breakdown``, each item's points (items absent from the hand left out)."""

    points: int
    bid: str
    breakdown: Mapping[str, int]


def calibrated_count(
    hand: Iterable[int], players: int, table: CountTable | None = None
) -> CalibratedCount:
    """The calibrated count of one hand (card ids) for ``players`` players; ``table`` defaults
    to the shipped one."""
    table = table or shipped_table(players)
    counts = item_counts(np.array([sorted(int(c) for c in hand)], np.uint8), players)[0]
    points = int(table.points(counts[None, :])[0])
    breakdown = {
        name: int(count) * table.weights[name]
        for name, count in zip(ITEMS, counts, strict=True)
        if count and table.weights[name]
    }
    bid = BIDS[int(table.bids(np.array([points]))[0])]
    return CalibratedCount(points, bid, MappingProxyType(breakdown))
