"""The vectorised dealer: N random deals, or N completions of known cards, as one array.

A deal is stored as one row of 78 card ids: seat ``s``'s hand in columns ``[s*h, (s+1)*h)``, the
chien in the last ``c`` columns (``h``, ``c`` from :mod:`.game`). Seats are numbered in the order
of play: seat 0 is position 1 (speaks first, leads the first trick), seat ``n-1`` is the dealer.
Within a hand the cards come in no particular order.

How the shuffle works, and why it is exactly uniform
----------------------------------------------------
Only the *partition* of the unseen cards into the free slots of each hand and of the chien
matters, not the order inside a hand. Every unseen card ``j`` (``j`` = its index among the unseen
cards, < 256) gets the 32-bit key ``(U_j << 8) | j`` with ``U_j`` a uniform 24-bit integer, all
independent; each row of keys is sorted and the low byte of the sorted keys gives the cards in
slot order. Measured on 1M four-player deals, one core: ``Generator.permuted`` of uint8 rows
1.45 s; these keys 0.3–0.4 s (random words 0.07 s, NumPy's SIMD sort of uint32 rows 0.1 s).

The card index in the low byte only breaks ties between equal ``U``. A tie *inside* a group (hand
or chien) changes nothing; a tie *across* a group boundary would favour low indices, so such
rows are drawn again (about 2 rows in 10,000). Conditional on "no tie across a boundary", the
event "group ``g`` receives exactly the set ``A_g`` for every ``g``" is the event "every ``U`` in
``A_g`` is strictly below every ``U`` in ``A_{g+1}``", whose probability depends only on the
group sizes because the ``U_j`` are i.i.d. — so every partition with the right sizes is equally
likely. Rejecting and redrawing whole rows keeps that conditional law.

Rejecting petit-sec deals (rules.md §2) is plain rejection sampling: accepted deals are
i.i.d. draws from the uniform law on the deals without petit sec.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import EXCUSE, IS_TRUMP, N_CARDS, PETIT, format_card
from ..game import chien_size, hand_size
from . import bitboard as bb
from .keys import draw_keys

_BLOCK = 1 << 15
"""Rows shuffled at a time: keeps the keys (``_BLOCK * 78 * 4`` bytes) in cache."""
_LOW_BYTE = np.uint32(0xFF)
_HIGH_BITS = np.uint32(0xFFFFFF00)
_MAX_REJECTION_ROUNDS = 200
_HOPELESS_ROWS = 10_000
"""A rejection round this large with no deal accepted means the known cards force petit sec."""


class DealError(ValueError):
    """Known cards that cannot be part of one deal (repeated, too many, unknown seat…)."""


class PetitSecError(DealError):
    """A known hand holds petit sec (the Petit as its only trump, no Excuse): the deal is void."""


@dataclass(frozen=True)
class Deals:
    """N deals for ``players`` players.

    ``cards``: (N, 78) uint8 card ids; seat ``s``'s hand is columns ``[s*h, (s+1)*h)``, the chien
    the last ``c`` columns. ``keys``: (N,) uint64 each deal's key (:mod:`.keys`), shared by its
    copies (:meth:`rows`), or ``None``: keyed by row when played.
    """

    players: int
    cards: np.ndarray
    keys: np.ndarray | None = None

    def rows(self, rows: np.ndarray) -> Deals:
        """The deals ``rows`` ((R,) int64, repeats allowed), each with its key: copies of a deal
        played as alternatives draw alike wherever their players know the same."""
        keys = None if self.keys is None else self.keys[rows]
        return Deals(self.players, self.cards[rows], keys)

    @property
    def hand_size(self) -> int:
        return hand_size(self.players)

    @property
    def chien_size(self) -> int:
        return chien_size(self.players)

    @property
    def hands(self) -> np.ndarray:
        """(N, n, h) uint8 view of the hands."""
        n, h = self.players, self.hand_size
        return self.cards[:, : n * h].reshape(len(self), n, h)

    @property
    def chien(self) -> np.ndarray:
        """(N, c) uint8 view of the chien."""
        return self.cards[:, N_CARDS - self.chien_size :]

    def __len__(self) -> int:
        return self.cards.shape[0]

    def sets(self) -> tuple[np.ndarray, ...]:
        """The hands as (n, N) uint64 pairs by seat, then the chien as an (N,) pair: new
        arrays (:meth:`DealSets.sets`)."""
        hands_lo, hands_hi = bb.from_cards(self.hands.transpose(1, 0, 2))
        return (hands_lo, hands_hi, *bb.from_cards(self.chien))


@dataclass(frozen=True)
class DealSets:
    """N deals as card sets, the form the engine plays them in: for deals made of sets
    already (the worlds of a search), without a round trip through card ids.

    ``hands_lo``/``hands_hi`` (n, N) uint64 by seat; ``chien_lo``/``chien_hi`` (N,) uint64;
    ``keys`` as :attr:`Deals.keys`.
    """

    players: int
    hands_lo: np.ndarray
    hands_hi: np.ndarray
    chien_lo: np.ndarray
    chien_hi: np.ndarray
    keys: np.ndarray | None = None

    def __len__(self) -> int:
        return self.chien_lo.shape[0]

    def sets(self) -> tuple[np.ndarray, ...]:
        """Copies of the hands and the chien (the engine plays the hands' cards away)."""
        return self.hands_lo.copy(), self.hands_hi.copy(), self.chien_lo, self.chien_hi


# petit_sec counts on it: the trumps and the Excuse are the cards from the Petit up.
_FROM_THE_PETIT = IS_TRUMP | (np.arange(N_CARDS) == EXCUSE)
assert (np.flatnonzero(_FROM_THE_PETIT) == np.arange(PETIT, N_CARDS)).all()


def petit_sec(hands: np.ndarray) -> np.ndarray:
    """Which hands are petit sec: the Petit is their only trump and they lack the Excuse.

    ``hands``: (..., h) uint8 card ids → (...) bool.
    """
    # The Petit is the lowest trump, and only trumps and the Excuse are above it: weighing 1 for
    # the Petit and 2 for every card above, a hand is petit sec when its weights sum to 1. Two
    # comparisons, not a table lookup (a gather through uint8 ids is several times slower), and
    # the sum over the cards made with the cards first (a reduction along a hand's short last
    # axis is slow).
    weights = (hands >= PETIT).view(np.uint8) + (hands > PETIT).view(np.uint8)
    return np.add.reduce(np.ascontiguousarray(np.moveaxis(weights, -1, 0)), axis=0) == 1


def _slot_order(rng: np.random.Generator, rows: int, m: int, cuts: np.ndarray) -> np.ndarray:
    """(rows, m) uint32 sorted keys: ``m`` items split uniformly into the groups of ``cuts``.

    ``cuts``: the positions where a new group starts (1…m-1). The low byte of ``keys[r, i]`` is
    the item in slot ``i`` of row ``r``. See the module docstring for why this is uniform.
    """
    items = np.arange(m, dtype=np.uint32)
    keys = _random_keys(rng, rows, m)
    keys &= _HIGH_BITS
    keys |= items
    keys.sort(axis=1)
    tied = _ties_across(keys, cuts)
    if tied.any():
        redo = np.flatnonzero(tied)
        keys[redo] = _slot_order(rng, redo.size, m, cuts)
    return keys


def _random_keys(rng: np.random.Generator, rows: int, m: int) -> np.ndarray:
    """(rows, m) uint32 uniform random bits (drawn as uint64 words: the fastest generator call)."""
    total = rows * m
    words = rng.integers(0, 2**64, size=(total + 1) // 2, dtype=np.uint64)
    return words.view(np.uint32)[:total].reshape(rows, m)


def _ties_across(keys: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """(rows,) bool: sorted ``keys`` whose random parts are equal on both sides of some cut."""
    if cuts.size == 0:
        return np.zeros(keys.shape[0], bool)
    return (((keys[:, cuts - 1] ^ keys[:, cuts]) & ~_LOW_BYTE) == 0).any(axis=1)


@dataclass(frozen=True)
class _Layout:
    """Where the known cards go and which slots remain for the unseen ones."""

    known_columns: np.ndarray  # (k,) int: columns of the known cards
    known_cards: np.ndarray  # (k,) uint8
    free_runs: tuple[tuple[int, int, int], ...]  # (first column, end column, first slot)
    unseen: np.ndarray  # (m,) uint8: the cards not known, increasing
    cuts: np.ndarray  # (g,) int: indices in free_columns where a new group starts
    known_full_hands: tuple[tuple[int, tuple[int, ...]], ...]


def _check_cards(cards: Sequence[int], where: str) -> list[int]:
    result = []
    for card in cards:
        value = int(card)
        if not 0 <= value < N_CARDS:
            raise DealError(f"{card!r} in {where} is not a card id (0…77)")
        result.append(value)
    return result


def _layout(
    players: int,
    known_hands: Mapping[int, Sequence[int]] | None,
    known_chien: Sequence[int] | None,
) -> _Layout:
    h, c = hand_size(players), chien_size(players)
    groups: list[tuple[int, int, list[int]]] = []  # (first column, size, known cards)
    known_hands = dict(known_hands or {})
    for seat in known_hands:
        if not (isinstance(seat, int | np.integer) and 0 <= seat < players):
            raise DealError(
                f"seat {seat!r} does not exist with {players} players (seats 0…{players - 1})"
            )
    for seat in range(players):
        cards = _check_cards(known_hands.get(seat, ()), f"seat {seat}'s hand")
        if len(cards) > h:
            raise DealError(f"seat {seat} is given {len(cards)} cards but a hand has {h}")
        groups.append((seat * h, h, cards))
    chien = _check_cards(known_chien or (), "the chien")
    if len(chien) > c:
        raise DealError(f"the chien is given {len(chien)} cards but it has {c}")
    groups.append((players * h, c, chien))

    seen: dict[int, str] = {}
    known_columns, known_cards, free_columns, cuts = [], [], [], []
    for index, (first, size, cards) in enumerate(groups):
        where = "the chien" if index == players else f"seat {index}"
        for card in cards:
            if card in seen:
                raise DealError(f"{format_card(card)} is given twice ({seen[card]} and {where})")
            seen[card] = where
        known_columns.extend(range(first, first + len(cards)))
        known_cards.extend(cards)
        if free_columns and len(cards) < size:
            cuts.append(len(free_columns))
        free_columns.extend(range(first + len(cards), first + size))
    free_runs: list[tuple[int, int, int]] = []
    for slot, column in enumerate(free_columns):
        if free_runs and free_runs[-1][1] == column:
            first, _, run_slot = free_runs[-1]
            free_runs[-1] = (first, column + 1, run_slot)
        else:
            free_runs.append((column, column + 1, slot))
    unseen = np.setdiff1d(np.arange(N_CARDS), known_cards).astype(np.uint8)
    full = tuple(
        (seat, tuple(cards))
        for seat, (_, _, cards) in enumerate(groups[:players])
        if len(cards) == h
    )
    return _Layout(
        known_columns=np.array(known_columns, dtype=np.intp),
        known_cards=np.array(known_cards, dtype=np.uint8),
        free_runs=tuple(free_runs),
        unseen=unseen,
        cuts=np.unique(np.array(cuts, dtype=np.intp)),
        known_full_hands=full,
    )


def _draw(rng: np.random.Generator, rows: int, layout: _Layout) -> np.ndarray:
    """(rows, 78) uint8: uniform completions of the layout's known cards."""
    m = layout.unseen.size
    cards = np.empty((rows, N_CARDS), np.uint8)
    if m < N_CARDS:
        cards[:, layout.known_columns] = layout.known_cards
    # Block by block so that the keys stay in cache.
    for start in range(0, rows, _BLOCK):
        block = cards[start : start + _BLOCK]
        if m == N_CARDS:
            # Nothing known: the item is the card, the slot is the column.
            block[:] = _slot_order(rng, block.shape[0], m, layout.cuts)
            continue
        if m == 0:
            continue
        keys = _slot_order(rng, block.shape[0], m, layout.cuts)
        dealt = layout.unseen.take(keys & _LOW_BYTE)
        for first, last, slot in layout.free_runs:
            block[:, first:last] = dealt[:, slot : slot + last - first]
    return cards


def deal(
    rng: np.random.Generator,
    n_deals: int,
    players: int = 4,
    *,
    known_hands: Mapping[int, Sequence[int]] | None = None,
    known_chien: Sequence[int] | None = None,
    reject_petit_sec: bool = False,
) -> Deals:
    """``n_deals`` uniformly random deals, or completions of the known cards.

    ``known_hands`` maps a seat (0…n-1) to cards it holds (a whole hand or part of it);
    ``known_chien`` lists cards of the chien. Known cards keep their places at the start of their
    hand or chien; only the unseen cards are shuffled into the free slots.

    With ``reject_petit_sec`` the deals where some hand is petit sec (rules.md §2) are dropped and
    more are drawn until ``n_deals`` are accepted: the result is uniform over the deals without
    petit sec. A known whole hand that is petit sec raises :class:`PetitSecError`.

    Raises :class:`DealError` for repeated or unknown cards, too many cards for a hand or the
    chien, or a seat that does not exist.
    """
    h = hand_size(players)
    if n_deals < 0:
        raise DealError(f"cannot deal {n_deals} deals")
    layout = _layout(players, known_hands, known_chien)
    if not reject_petit_sec:
        return Deals(players, _draw(rng, n_deals, layout), draw_keys(rng, n_deals))

    for seat, cards in layout.known_full_hands:
        if petit_sec(np.array(cards, dtype=np.uint8)):
            raise PetitSecError(f"seat {seat}'s hand is petit sec: the deal is void (rules.md §2)")
    accepted: list[np.ndarray] = []
    missing, rate = n_deals, 1.0
    for _ in range(_MAX_REJECTION_ROUNDS):
        if missing <= 0:
            break
        # Ask for a little more than the expected need so one or two rounds usually suffice.
        rows = int(missing / max(rate, 0.01) * 1.02) + 16
        cards = _draw(rng, rows, layout)
        keep = ~petit_sec(cards[:, : players * h].reshape(rows, players, h)).any(axis=1)
        if not keep.any() and rows >= _HOPELESS_ROWS:
            break
        rate = max(float(keep.mean()), 1.0 / rows)
        good = cards[keep][:missing]
        accepted.append(good)
        missing -= good.shape[0]
    if missing > 0:
        raise DealError("the known cards leave (almost) no deal without petit sec")
    cards = np.concatenate(accepted) if len(accepted) != 1 else accepted[0]
    return Deals(players, cards, draw_keys(rng, n_deals))


def complete(
    rng: np.random.Generator,
    hands: np.ndarray,
    seat_of_hand: np.ndarray | int,
    players: int = 4,
    *,
    reject_petit_sec: bool = True,
) -> Deals:
    """One uniformly random completion per row of a known whole hand, each at its own seat.

    ``hands``: (N, h) uint8 card ids, one known hand per row (rows may differ);
    ``seat_of_hand``: (N,) int or one int, the seat (0…n-1) holding that row's hand. The
    ``78 - h`` unseen cards of each row are split uniformly between the other hands and the
    chien, by the same keys as :func:`deal` (the module docstring says why that is uniform):
    they are dealt into the slots "seats 1…n-1, then the chien" as if the hand sat at seat 0,
    then seat 0's block and the hand's seat's block are swapped — a fixed relabelling of the
    other hands, which keeps every partition equally likely.

    With ``reject_petit_sec`` a row where another hand is petit sec is drawn again on its own
    (rejection row by row: each accepted row is uniform over the completions without petit
    sec); a known hand that is petit sec raises :class:`PetitSecError`.
    """
    h, c = hand_size(players), chien_size(players)
    hands = np.asarray(hands, np.uint8)
    n_rows = hands.shape[0]
    if hands.ndim != 2 or hands.shape[1] != h:
        raise DealError(f"a {players}-player hand has {h} cards, not shape {hands.shape[1:]}")
    seats = np.broadcast_to(np.asarray(seat_of_hand, np.int64), (n_rows,))
    if n_rows and not ((seats >= 0) & (seats < players)).all():
        raise DealError(f"a seat does not exist with {players} players (seats 0…{players - 1})")
    held = np.zeros((n_rows, N_CARDS), bool)
    held[np.arange(n_rows)[:, None], hands] = True
    if n_rows and not (held.sum(axis=1) == h).all():
        raise DealError("a known hand holds a card twice")
    if reject_petit_sec and petit_sec(hands).any():
        row = int(np.flatnonzero(petit_sec(hands))[0])
        raise PetitSecError(f"the hand of row {row} is petit sec: the deal is void (rules.md §2)")
    m = N_CARDS - h
    unseen = np.nonzero(~held)[1].reshape(n_rows, m).astype(np.uint8)  # increasing per row
    cuts = np.arange(h, m - c + 1, h, dtype=np.intp)  # a new hand, then the chien, starts here

    def draw(rows: np.ndarray) -> np.ndarray:
        keys = _slot_order(rng, rows.size, m, cuts)
        dealt = np.take_along_axis(unseen[rows], (keys & _LOW_BYTE).astype(np.intp), axis=1)
        return np.concatenate([hands[rows], dealt], axis=1)

    cards = draw(np.arange(n_rows))
    for _ in range(_MAX_REJECTION_ROUNDS if reject_petit_sec else 0):
        others = cards[:, h : players * h].reshape(n_rows, players - 1, h)
        void = np.flatnonzero(petit_sec(others).any(axis=1))
        if void.size == 0:
            break
        cards[void] = draw(void)
    else:
        if reject_petit_sec:
            raise DealError("the known hands leave (almost) no deal without petit sec")
    # Swap seat 0's block with the hand's seat's block.
    columns = np.tile(np.arange(N_CARDS), (n_rows, 1))
    block = seats[:, None] * h + np.arange(h)[None, :]
    rows = np.arange(n_rows)[:, None]
    columns[rows, block] = np.arange(h)[None, :]
    columns[:, :h] = block
    return Deals(players, np.take_along_axis(cards, columns, axis=1), draw_keys(rng, n_rows))
