"""Facts of the game that depend on the number of players or the contract.

rules.md §2 (seats, deal), §3 (contracts), §6 (points needed), §7 (poignées).
"""

from __future__ import annotations

import enum

import numpy as np

PLAYER_COUNTS = (3, 4, 5)

_HAND_SIZE = {3: 24, 4: 18, 5: 15}
_CHIEN_SIZE = {3: 6, 4: 6, 5: 3}
_POIGNEE_THRESHOLDS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
POIGNEE_NAMES = ("simple", "double", "triple")
"""The poignées, smallest first: the order of :func:`poignee_thresholds` and of the bonuses."""
POIGNEE_BONUSES = (20, 30, 40)
"""Simple, double, triple poignée (FFT values; rules.md §9)."""
POINTS_NEEDED = (56, 51, 41, 36)
"""Points the taker needs with 0, 1, 2, 3 bouts."""
POINTS2_NEEDED = tuple(2 * p for p in POINTS_NEEDED)


class Side(enum.IntEnum):
    """The two sides of a deal: the taker (with the 5-player partner) and the defence.

    The vectorised engine keeps a side in int8 arrays as these numbers, 0 meaning no side (no
    Petit au bout, no chelem); the referee and the outcomes use the members; JSON writes
    :attr:`label`.
    """

    TAKER = 1
    DEFENCE = -1

    @property
    def label(self) -> str:
        """``"taker"`` or ``"defence"``, as outcomes and the test vectors write a side."""
        return self.name.lower()

    @classmethod
    def of(cls, value: int | None) -> Side | None:
        """The side numbered ``value`` (+1, −1), or ``None`` for 0 or ``None``."""
        return cls(int(value)) if value else None

    @classmethod
    def from_label(cls, label: str | None) -> Side | None:
        """The side a label names (``"taker"``, ``"defence"``), or ``None`` for ``None``."""
        return None if label is None else cls[label.upper()]


class PlayerCountError(ValueError):
    """A number of players other than 3, 4 or 5."""


def check_players(players: int) -> int:
    """``players`` if it is 3, 4 or 5, else :class:`PlayerCountError`."""
    if players not in PLAYER_COUNTS:
        raise PlayerCountError(f"French Tarot is played by 3, 4 or 5 players, not {players}")
    return players


def hand_size(players: int) -> int:
    """Cards in each hand: 24, 18, 15 for 3, 4, 5 players."""
    return _HAND_SIZE[check_players(players)]


def chien_size(players: int) -> int:
    """Cards in the chien: 6, 6, 3 for 3, 4, 5 players."""
    return _CHIEN_SIZE[check_players(players)]


def poignee_thresholds(players: int) -> tuple[int, int, int]:
    """Trumps to show for a simple, double, triple poignée."""
    return _POIGNEE_THRESHOLDS[check_players(players)]


class Contract(enum.Enum):
    """The four bids, weakest first. ``value`` is the name used in JSON and on the command line."""

    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def multiplier(self) -> int:
        return _MULTIPLIERS[self]

    @property
    def takes_chien(self) -> bool:
        """Prise and Garde: the chien is shown, taken, and an écart made."""
        return self in (Contract.PRISE, Contract.GARDE)

    @property
    def chien_to_taker(self) -> bool:
        """Whether the chien's cards (or the écart) count for the taker."""
        return self is not Contract.GARDE_CONTRE

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def code(self) -> int:
        """The contract's index in :data:`CONTRACTS`: how arrays of deals name it (int8)."""
        return CONTRACTS.index(self)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """A contract from its JSON name, its French name or a common abbreviation."""
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        key = _ALIASES.get(key, key)
        try:
            return cls(key)
        except ValueError:
            names = ", ".join(c.value for c in cls)
            raise ValueError(f"'{text}' is not a contract (one of {names})") from None


_MULTIPLIERS = {
    Contract.PRISE: 1,
    Contract.GARDE: 2,
    Contract.GARDE_SANS: 4,
    Contract.GARDE_CONTRE: 6,
}
_LABELS = {
    Contract.PRISE: "Prise",
    Contract.GARDE: "Garde",
    Contract.GARDE_SANS: "Garde Sans",
    Contract.GARDE_CONTRE: "Garde Contre",
}
_ALIASES = {
    "petite": "prise",
    "p": "prise",
    "g": "garde",
    "gs": "garde_sans",
    "gc": "garde_contre",
    "garde_sans_le_chien": "garde_sans",
    "garde_contre_le_chien": "garde_contre",
}

CONTRACTS = tuple(Contract)
"""The contracts by :attr:`Contract.code`."""
TAKES_CHIEN = np.array([c.takes_chien for c in CONTRACTS])
"""(4,) bool :attr:`Contract.takes_chien` by code."""
CHIEN_TO_TAKER = np.array([c.chien_to_taker for c in CONTRACTS])
"""(4,) bool :attr:`Contract.chien_to_taker` by code."""
MULTIPLIERS = np.array([c.multiplier for c in CONTRACTS])
"""(4,) int64 :attr:`Contract.multiplier` by code."""


def contract_codes(contract: Contract | np.ndarray, n_deals: int) -> np.ndarray:
    """(N,) int8 codes of ``contract``: one for every deal, or already (N,) codes."""
    if isinstance(contract, Contract):
        return np.full(n_deals, contract.code, np.int8)
    return np.asarray(contract, np.int8)


def single_contract(codes: np.ndarray) -> Contract:
    """The contract of deals that all share one (``codes`` (N,) int8, N > 0)."""
    if (codes != codes[0]).any():
        raise ValueError("these deals are played under several contracts")
    return CONTRACTS[int(codes[0])]


BIDS = ("pass", *(c.value for c in Contract))
"""Bid names, weakest first, as printed and in JSON."""


def bid_label(bid: str) -> str:
    """How a bid of :data:`BIDS` reads: ``Pass``, ``Prise``, ``Garde Sans``…"""
    return "Pass" if bid == "pass" else Contract(bid).label


def taker_share(players: int, with_partner: bool) -> int:
    """How many times S the taker receives: 2 (3p), 3 (4p), 2 with a partner or 4 alone (5p)."""
    check_players(players)
    if players == 5:
        return 2 if with_partner else 4
    return players - 1
