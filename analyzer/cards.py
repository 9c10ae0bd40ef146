"""The 78 cards as small integers, their properties as NumPy lookup tables, and the notation.

Card ids (``int``, 0…77, stored as ``uint8`` in arrays):

* suited cards: ``14 * suit + rank - 1`` with suits ♠ ♥ ♦ ♣ = 0…3 and ranks 1…10, V=11, C=12,
  D=13, R=14 — so within a suit a higher id is a higher card;
* trumps 1…21: ``55 + n`` (56 is the Petit, 76 the 21) — a higher id is a higher trump;
* the Excuse: 77.

The lookup tables are indexed by card id, e.g. ``POINTS2[hand].sum()`` is a hand's doubled points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .game import hand_size

N_CARDS = 78
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
TRUMP = 4
"""Suit code of the 21 trumps in :data:`SUIT`."""
EXCUSE_SUIT = 5
"""Suit code of the Excuse in :data:`SUIT`."""

PETIT = 56
TWENTY_ONE = 76
EXCUSE = 77

SUIT_SYMBOLS = "♠♥♦♣"
SUIT_LETTERS = "SHDC"
RANK_NAMES = {11: "V", 12: "C", 13: "D", 14: "R"}
KING_RANK = 14


def suited(suit: int, rank: int) -> int:
    """Card id of the suited card of ``rank`` (1…14) in ``suit`` (0…3)."""
    return 14 * suit + rank - 1


def trump(number: int) -> int:
    """Card id of trump ``number`` (1…21)."""
    return 55 + number


def _tables() -> dict[str, np.ndarray]:
    suit = np.empty(N_CARDS, np.int8)
    rank = np.empty(N_CARDS, np.int8)
    for card in range(56):
        suit[card], rank[card] = divmod(card, 14)
        rank[card] += 1
    suit[56:77] = TRUMP
    rank[56:77] = np.arange(1, 22)
    suit[EXCUSE], rank[EXCUSE] = EXCUSE_SUIT, 0
    is_bout = np.zeros(N_CARDS, bool)
    is_bout[[PETIT, TWENTY_ONE, EXCUSE]] = True
    points2 = np.ones(N_CARDS, np.int8)
    for face_rank, value in ((14, 9), (13, 7), (12, 5), (11, 3)):
        points2[(suit < 4) & (rank == face_rank)] = value
    points2[is_bout] = 9
    return {"suit": suit, "rank": rank, "is_bout": is_bout, "points2": points2}


_T = _tables()
SUIT: np.ndarray = _T["suit"]
"""(78,) int8: 0…3 for ♠ ♥ ♦ ♣, :data:`TRUMP` (4) for trumps, :data:`EXCUSE_SUIT` (5)."""
RANK: np.ndarray = _T["rank"]
"""(78,) int8: 1…14 in a suit (V=11 … R=14), 1…21 for trumps, 0 for the Excuse."""
POINTS2: np.ndarray = _T["points2"]
"""(78,) int8: card points doubled (bout or king 9, dame 7, cavalier 5, valet 3, other 1)."""
IS_BOUT: np.ndarray = _T["is_bout"]
"""(78,) bool: the Petit, the 21 and the Excuse."""
IS_TRUMP: np.ndarray = SUIT == TRUMP
"""(78,) bool: the 21 trumps (not the Excuse)."""
IS_KING: np.ndarray = (SUIT < 4) & (RANK == KING_RANK)
"""(78,) bool: the four kings."""
IS_TRUMP_OR_EXCUSE: np.ndarray = SUIT >= TRUMP
"""(78,) bool: the 21 trumps and the Excuse, what a poignée counts (:func:`trumps_and_excuse`)."""
for _table in (SUIT, RANK, POINTS2, IS_BOUT, IS_TRUMP, IS_KING, IS_TRUMP_OR_EXCUSE):
    _table.flags.writeable = False

TOTAL_POINTS2 = int(POINTS2.sum())
assert TOTAL_POINTS2 == 182


def trumps_and_excuse(cards: Iterable[int] | np.ndarray) -> np.ndarray:
    """How many trumps and Excuse ``cards`` hold — the length a poignée and the barème count.

    ``cards``: card ids, (..., k); returns (...) int64, the count over the last axis (a 0-d
    array for one hand).
    """
    ids = np.asarray(cards if isinstance(cards, np.ndarray) else list(cards), np.intp)
    return IS_TRUMP_OR_EXCUSE[ids].sum(axis=-1, dtype=np.int64)


class CardError(ValueError):
    """Text that does not name a card, or a set of cards that cannot be a hand."""


_RANK_TOKENS = {"R": 14, "D": 13, "C": 12, "V": 11}
_SUIT_TOKENS = {s: i for i, s in enumerate(SUIT_SYMBOLS)} | {
    s: i for i, s in enumerate(SUIT_LETTERS)
}
_SUIT_TOKENS |= {"♤": 0, "♡": 1, "♢": 2, "♧": 3, "❤": 1}
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\ufeff\u200b\u200c\u200d\u2060"))
"""Characters that change nothing a reader sees: the emoji and text variation selectors (phones
type ``R♥️`` as R, ♥, U+FE0F), the byte-order mark, zero-width spaces and joiners."""
_EXCUSE_TOKENS = {"E", "EX", "EXC", "EXCUSE", "★", "*"}
_ROMAN = re.compile(r"^(X{0,2})(IX|IV|V?I{0,3})$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}


def _roman_value(text: str) -> int | None:
    if not text or not _ROMAN.match(text):
        return None
    total, previous = 0, 0
    for letter in reversed(text):
        value = _ROMAN_VALUES[letter]
        total += -value if value < previous else value
        previous = max(previous, value)
    return total


def _is_number(text: str) -> bool:
    # ASCII only: str.isdigit() accepts '²' and other digits int() refuses; short, since
    # int() refuses more than 4,300 digits.
    return text.isascii() and text.isdigit() and len(text) <= 6


def _shown(token: str) -> str:
    """A token as an error message quotes it: invisible characters escaped, long ones cut."""
    text = token if token.isprintable() else token.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 24 else text[:20] + "…"


def parse_card(token: str) -> int:
    """The card id a token names: ``R♠``, ``Rs``, ``10♥``, ``1c``, ``21``, ``XXI``, ``Excuse``.

    Raises :class:`CardError` naming the token when it is not a card.
    """
    text = token.translate(_INVISIBLE).strip().upper()
    if text in _EXCUSE_TOKENS:
        return EXCUSE
    if _is_number(text):
        number = int(text)
        if 1 <= number <= 21:
            return trump(number)
        raise CardError(f"'{_shown(token)}' is not a card: trumps go from 1 to 21")
    if text == "V":
        # A valet without its suit, or trump 5 in Roman numerals: never guess.
        raise CardError(
            f"'{_shown(token)}' is ambiguous: write V♠ (or Vs…) for a valet, 5 for trump 5"
        )
    roman = _roman_value(text)
    if roman is not None and 1 <= roman <= 21:
        return trump(roman)
    if len(text) >= 2 and text[-1] in _SUIT_TOKENS:
        suit, rank_text = _SUIT_TOKENS[text[-1]], text[:-1]
        if rank_text in _RANK_TOKENS:
            return suited(suit, _RANK_TOKENS[rank_text])
        if _is_number(rank_text) and 1 <= int(rank_text) <= 10:
            return suited(suit, int(rank_text))
    raise CardError(
        f"'{_shown(token)}' is not a card (write e.g. R♠ or Rs, 10♥, 1c, 21 or XXI, Excuse)"
    )


def split_tokens(text: str) -> list[str]:
    """The tokens of a card list: separated by spaces or commas."""
    return [t for t in re.split(r"[\s,;]+", text.translate(_INVISIBLE).strip()) if t]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card ids of a list of cards, in the order given; rejects unknown and repeated cards.

    ``text`` is one string (tokens separated by spaces or commas) or an iterable of tokens.
    """
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    cards: list[int] = []
    for token in tokens:
        card = parse_card(token)
        if card in cards:
            written = "" if _shown(token) == format_card(card) else f" ('{_shown(token)}')"
            raise CardError(f"{format_card(card)} appears twice{written}")
        cards.append(card)
    return cards


def parse_hand(text: str | Iterable[str], players: int = 4) -> list[int]:
    """Card ids of a hand for ``players`` players, sorted; checks the number of cards too."""
    cards = parse_cards(text)
    expected = hand_size(players)
    if not cards:
        raise CardError(f"the hand is empty: give the {expected} cards of a {players}-player hand")
    if len(cards) != expected:
        raise CardError(
            f"a {players}-player hand has {expected} cards, but {len(cards)} were given"
        )
    return sort_cards(cards)


def format_card(card: int) -> str:
    """The notation of a card: ``R♠``, ``10♥``, ``21``, ``Excuse``."""
    card = int(card)
    if not 0 <= card < N_CARDS:
        raise CardError(f"{card} is not a card id (0…77)")
    if card == EXCUSE:
        return "Excuse"
    rank = int(RANK[card])
    if SUIT[card] == TRUMP:
        return str(rank)
    return f"{RANK_NAMES.get(rank, str(rank))}{SUIT_SYMBOLS[SUIT[card]]}"


class Card(int):
    """A card id that prints in the notation (``R♠``, ``21``, ``Excuse``): what the Python API
    gives a notebook. It is an ``int`` in every other way, so NumPy, sets and comparisons take
    it as the id; arithmetic on it gives plain ints. The engine itself works on plain ids."""

    __slots__ = ()

    def __new__(cls, card: int) -> Card:
        value = int.__new__(cls, card)
        if not 0 <= value < N_CARDS:
            raise CardError(f"{value} is not a card id (0…77)")
        return value

    def __repr__(self) -> str:
        return format_card(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        # f"{card:<4}" aligns the notation, as a table wants; the id is int(card).
        return format(format_card(self), spec)


def as_cards(cards: Iterable[int]) -> tuple[Card, ...]:
    """``cards`` (ids) as :class:`Card` values, in the same order."""
    return tuple(Card(c) for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Display order: trumps high to low, the Excuse, then ♠ ♥ ♦ ♣ each high to low."""
    suit = int(SUIT[card])
    if suit == TRUMP:
        return (0, -int(RANK[card]))
    if suit == EXCUSE_SUIT:
        return (1, 0)
    return (2 + suit, -int(RANK[card]))


def sort_cards(cards: Iterable[int]) -> list[int]:
    """Card ids in display order (see :func:`sort_key`)."""
    return sorted((int(c) for c in cards), key=sort_key)


def format_cards(cards: Iterable[int], sort: bool = True) -> str:
    """Cards as text separated by spaces, in display order unless ``sort`` is false."""
    cards = sort_cards(cards) if sort else [int(c) for c in cards]
    return " ".join(format_card(c) for c in cards)
