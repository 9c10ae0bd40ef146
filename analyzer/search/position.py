"""A deal being played, as one player sees it: the partial record, checked, and what it proves.

A partial record (design.md) has the keys of a deal record, ``tricks`` holding the tricks so far
(the last one possibly incomplete), plus ``seat`` (the user's seat) and ``hand`` (the cards the
user still holds). ``chien`` is the chien shown in Prise and Garde (it may be left out; in Garde
Sans and Garde Contre nobody sees it, so it must be), ``discard`` the écart, which only the
taker knows (the others may give the trumps shown from it, rules.md §3: left out or empty,
none were shown, unless no deal then fits the record: then which ones is taken as unknown).

:func:`read_position` checks the record card by card and raises :class:`PositionError` (one
sentence) for an impossible state: a card twice, a card played against what its player had
already shown (a revoke), a hand that does not match the counts, or a state no deal can reach.
:func:`constraints` says what the user knows of where the unseen cards are (rules.md §12) as the
sampler's input (:class:`worlds.Constraints`), as the engine's table knows it once the record's
cards are laid on it (:mod:`known`: one statement for positions and the lookahead).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..cards import (
    EXCUSE,
    IS_BOUT,
    IS_KING,
    IS_TRUMP,
    N_CARDS,
    SUIT,
    SUIT_SYMBOLS,
    TRUMP,
    TWENTY_ONE,
    format_card,
    format_cards,
)
from ..game import chien_size, hand_size, poignee_thresholds
from ..playout import bitboard as bb
from ..rulebook.record import Record, RecordError, cards_field, parse_record
from ..rulebook.rules import (
    IllegalCall,
    check_called_card,
    first_lead_plays,
    highest_trump,
    illegal_reason,
    led_suit,
    legal_plays,
    trick_winner,
)
from .known import record_constraints
from .worlds import Constraints, NoWorldError, card_set, check

PARTIAL_KEYS = ("seat", "hand")
DEAL_OVER = "the deal is over: every card has been played"


class PositionError(ValueError):
    """A partial record that is malformed or describes a state no deal can reach."""


NO_DEAL_FITS = (
    "no deal of the unseen cards fits this record (the counts, voids and known cards cannot"
    " all hold)"
)


@dataclass(frozen=True)
class Position:
    """A checked partial record. Seats are 0…n−1 in the order of play; the aside (chien or
    écart) is holder ``n`` in :func:`constraints`.

    ``record``: the deal record so far — its ``tricks`` the tricks played (the last one
    possibly incomplete), its ``chien`` ``None`` unless shown, its ``discard`` the écart for
    the taker (for the others, the trumps shown from it, or ``None``). ``seat`` and ``hand``:
    the user's seat and the cards it holds. ``played[s]``: the cards seat ``s`` has played, in
    order; ``seats[t]``: who played each card of trick ``t``; ``to_play``: the seat to play
    next; ``void[s]``: the suits (0–3, and :data:`cards.TRUMP` for trumps) seat ``s`` has shown
    it lacks; ``cap[s]``: the highest trump it may still hold (after an undertrump);
    ``ecart_trumps_unknown``: a defender's record gave no trump shown from the écart though
    some must have been (:func:`read_position`).
    """

    record: Record
    seat: int
    hand: tuple[int, ...]
    seats: tuple[tuple[int, ...], ...] = field(default=())
    played: tuple[tuple[int, ...], ...] = field(default=())
    to_play: int = 0
    void: tuple[frozenset[int], ...] = field(default=())
    cap: tuple[int, ...] = field(default=())
    ecart_trumps_unknown: bool = False

    @property
    def current(self) -> tuple[int, ...]:
        """The cards of the trick being played (empty when a trick is to be led)."""
        if self.record.tricks and len(self.record.tricks[-1]) < self.record.players:
            return self.record.tricks[-1]
        return ()

    @property
    def cards_played(self) -> int:
        return sum(len(trick) for trick in self.record.tricks)

    @property
    def role(self) -> str:
        """The user's side as the user knows it: ``"taker"``, ``"partner"`` (5 players: the
        holder of the card the taker called, who knows it from the deal) or ``"defence"``."""
        if self.seat == self.record.taker:
            return "taker"
        held = set(self.hand) | set(self.played[self.seat] if self.played else ())
        return (
            "partner"
            if self.record.called is not None and self.record.called in held
            else "defence"
        )

    def legal(self) -> list[int]:
        """The cards the user may play now, sorted by id (the user must be the seat to play)."""
        if self.record.called is not None and self.cards_played == 0:
            return first_lead_plays(self.hand, self.record.called)
        return legal_plays(self.hand, self.current)


def read_position(data: Any) -> Position:
    """A checked :class:`Position` from a partial record (a dict as loaded from JSON)."""
    if not isinstance(data, dict):
        raise PositionError(f"a partial record is a JSON object, not {type(data).__name__}")
    missing = [key for key in PARTIAL_KEYS if key not in data]
    if missing:
        raise PositionError(f"a partial record needs {' and '.join(missing)} (the user's)")
    players = data.get("players")
    # The record reader checks keys and card names; give it what it requires of a whole deal.
    whole = {key: value for key, value in data.items() if key not in PARTIAL_KEYS}
    whole.setdefault("chien", [])
    tricks = whole.get("tricks")
    try:
        if isinstance(players, int) and players in (3, 4, 5) and isinstance(tricks, list):
            # Placeholder tricks of the right shape: the real ones are read below.
            whole["tricks"] = [format_cards(range(players)).split()] * hand_size(players)
        record = parse_record(whole)
        hand = cards_field(data["hand"], "hand")
        played = _tricks(tricks, record.players)
    except RecordError as error:
        raise PositionError(str(error)) from None
    seat = data["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < record.players:
        raise PositionError(f"seat: expected a whole number from 0 to {record.players - 1}")
    chien = record.chien if "chien" in data and data["chien"] is not None else None
    position = Position(
        record=replace(record, chien=chien, tricks=played), seat=seat, hand=tuple(sorted(hand))
    )
    _check_call(position.record)
    _check_aside(position)
    return _walk(position)


def _tricks(value: Any, players: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(f"tricks: expected a list of tricks, got {value!r}")
    if len(value) > hand_size(players):
        raise RecordError(f"tricks: a {players}-player deal has {hand_size(players)} tricks")
    tricks = []
    for number, trick in enumerate(value, 1):
        cards = cards_field(trick, f"tricks, trick {number}")
        last = number == len(value)
        if len(cards) > players or (not last and len(cards) != players) or not cards:
            expected = f"1 to {players}" if last else str(players)
            raise RecordError(
                f"tricks, trick {number}: {expected} cards expected, found {len(cards)}"
            )
        tricks.append(cards)
    return tuple(tricks)


def _check_call(record: Record) -> None:
    """The called card (the record reader checks there is one with five players, and only
    then): one the rules allow a taker to call (whose hand is unknown here, so any king or face
    card)."""
    if record.called is not None:
        try:
            check_called_card(record.called, range(N_CARDS))
        except IllegalCall as error:
            raise PositionError(f"called: {error}") from None


def _check_aside(position: Position) -> None:
    """The chien and the écart: who may know them, their sizes, the écart's rules."""
    size = chien_size(position.record.players)
    contract = position.record.contract
    if position.record.chien is not None and len(position.record.chien) > 0:
        if not contract.takes_chien:
            raise PositionError(f"in a {contract.label} nobody sees the chien: leave `chien` out")
        if len(position.record.chien) != size:
            raise PositionError(f"chien: {size} cards expected, found {len(position.record.chien)}")
    if position.record.discard is not None:
        if not contract.takes_chien:
            raise PositionError(f"a {contract.label} has no écart: leave `discard` out")
        if position.seat != position.record.taker:
            if (
                not all(IS_TRUMP[c] for c in position.record.discard)
                or len(position.record.discard) > size
            ):
                raise PositionError(
                    "discard: only the taker knows the écart; the others may give the trumps"
                    " shown from it"
                )
        elif len(position.record.discard) != size:
            raise PositionError(
                f"discard: {size} cards expected, found {len(position.record.discard)}"
            )
        bad = [c for c in position.record.discard if IS_KING[c] or IS_BOUT[c]]
        if bad:
            raise PositionError(
                f"discard: the écart may hold no king and no bout ({format_cards(bad)})"
            )


def _walk(position: Position) -> Position:
    """Every card in order: checked against what its player had shown, and what it shows."""
    n = position.record.players
    user = position.seat
    full_hand = set(position.hand)
    located: dict[int, str] = {card: "your hand" for card in position.hand}
    for card in position.record.discard or ():
        if card in located:
            raise PositionError(f"{format_card(card)} is both in the écart and in your hand")
        located[card] = "the écart"
    shown_by = {card: seat for seat, cards in position.record.poignees for card in cards}
    chien = set(position.record.chien or ())
    played: list[list[int]] = [[] for _ in range(n)]
    void: list[set[int]] = [set() for _ in range(n)]
    shown_void: dict[tuple[int, int], int] = {}
    cap = [TWENTY_ONE] * n
    cap_trick = [0] * n
    seats_of = _orders(position)
    full_hand |= {
        card
        for trick, order in zip(position.record.tricks, seats_of, strict=True)
        for card, seat in zip(trick, order, strict=True)
        if seat == user
    }
    for t, (trick, order) in enumerate(zip(position.record.tricks, seats_of, strict=True), 1):
        for i, (card, seat) in enumerate(zip(trick, order, strict=True)):
            before = trick[:i]
            where = f"trick {t}, seat {seat} played {format_card(card)}"
            if card in located:
                raise PositionError(f"{where}, but it is already in {located[card]}")
            located[card] = f"trick {t}"
            if card in shown_by and shown_by[card] != seat:
                raise PositionError(f"{where}, but seat {shown_by[card]} showed it in a poignée")
            if card in chien and seat != position.record.taker:
                raise PositionError(f"{where}, but it came from the chien to the taker")
            if seat == user:
                held = full_hand - set(played[user])
                rule = _user_rule(position, held, before, card, t)
                if rule:
                    raise PositionError(f"{where}: {rule}")
            else:
                _check_revoke(where, card, seat, void[seat], shown_void, cap[seat], cap_trick[seat])
            played[seat].append(card)
            suit = led_suit(before)
            if suit is not None and card != EXCUSE:
                if SUIT[card] != suit:
                    for lacking in (suit,) if IS_TRUMP[card] or suit == TRUMP else (suit, TRUMP):
                        if lacking not in void[seat]:
                            void[seat].add(lacking)
                            shown_void[(seat, lacking)] = t
                top = highest_trump(before)
                if IS_TRUMP[card] and top is not None and card < top and top < cap[seat]:
                    cap[seat], cap_trick[seat] = top, t
    if (
        position.record.tricks
        and len(position.record.tricks) == hand_size(n)
        and len(position.record.tricks[-1]) == n
    ):
        raise PositionError(DEAL_OVER)
    expected = hand_size(n) - len(played[user])
    if len(position.hand) != expected:
        raise PositionError(
            f"hand: after playing {len(played[user])} cards you hold {expected},"
            f" but {len(position.hand)} were given"
        )
    to_play = _next_seat(position, seats_of)
    for seat, cards in position.record.poignees:
        _check_poignee(position, seat, cards, played[seat], located)
    checked = Position(
        **{
            **position.__dict__,
            "seats": tuple(seats_of),
            "played": tuple(tuple(p) for p in played),
            "to_play": to_play,
            "void": tuple(frozenset(v) for v in void),
            "cap": tuple(cap),
        }
    )
    try:
        check(constraints(checked, likely=False))
    except NoWorldError:
        # A defender's record may leave out the trumps shown from the écart (or give none):
        # where none shown fits no deal, some were, and which ones is unknown.
        record = checked.record
        if not record.contract.takes_chien or checked.seat == record.taker or record.discard:
            raise PositionError(NO_DEAL_FITS) from None
        checked = replace(checked, ecart_trumps_unknown=True)
        try:
            check(constraints(checked, likely=False))
        except NoWorldError:
            raise PositionError(NO_DEAL_FITS) from None
    return checked


def _orders(position: Position) -> tuple[tuple[int, ...], ...]:
    """Who played each card of each trick: the first is led by the first leader, each next one
    by the winner of the trick before."""
    n, leader, orders = position.record.players, position.record.first_leader, []
    for trick in position.record.tricks:
        order = tuple((leader + i) % n for i in range(len(trick)))
        orders.append(order)
        if len(trick) == n:
            leader = order[trick_winner(trick)]
    return tuple(orders)


def _next_seat(position: Position, orders: Sequence[Sequence[int]]) -> int:
    if not position.record.tricks:
        return position.record.first_leader
    trick, order = position.record.tricks[-1], orders[-1]
    if len(trick) < position.record.players:
        return (order[-1] + 1) % position.record.players
    return order[trick_winner(trick)]


def _user_rule(
    position: Position, held: set[int], before: Sequence[int], card: int, t: int
) -> str | None:
    if position.record.called is not None and t == 1 and not before:
        if card not in first_lead_plays(held, position.record.called):
            return "the first trick may not be led in the called suit, except with the called card"
        return None
    return illegal_reason(held, before, card)


def _check_revoke(
    where: str,
    card: int,
    seat: int,
    void: set[int],
    shown_void: dict[tuple[int, int], int],
    cap: int,
    cap_trick: int,
) -> None:
    if card == EXCUSE:
        return
    suit = int(SUIT[card])
    if suit in void:
        name = "trumps" if suit == TRUMP else SUIT_SYMBOLS[suit]
        raise PositionError(
            f"{where}, a revoke: it had shown it held no {name} in trick {shown_void[(seat, suit)]}"
        )
    if IS_TRUMP[card] and card > cap:
        raise PositionError(
            f"{where}, a revoke: by undertrumping in trick {cap_trick} it had shown it held no"
            f" trump above the {format_card(cap)}"
        )


def _check_poignee(
    position: Position, seat: int, cards: Sequence[int], played: Sequence[int], located: dict
) -> None:
    thresholds = poignee_thresholds(position.record.players)
    if any(not IS_TRUMP[c] and c != EXCUSE for c in cards) or len(cards) < thresholds[0]:
        raise PositionError(
            f"poignees: seat {seat} must show at least {thresholds[0]} trumps (and only trumps)"
        )
    if seat == position.seat:
        mine = set(position.hand) | set(played)
        stray = [c for c in cards if c not in mine]
        if stray:
            raise PositionError(f"poignees: you showed {format_cards(stray)}, not in your hand")


# --- what the user knows ---------------------------------------------------------------------


def _words(sets: Sequence[set[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(1, len(sets)) uint64 pairs of card sets."""
    pairs = [card_set(cards) for cards in sets]
    return (
        np.array([[lo for lo, _ in pairs]], np.uint64),
        np.array([[hi for _, hi in pairs]], np.uint64),
    )


def constraints(position: Position, likely: bool = True) -> Constraints:
    """Where the cards the user cannot see may be, as the sampler's input (one deal; holders are
    the seats then the aside — the chien, or the écart in Prise and Garde): what the engine's
    table knows once the record's cards are laid on it (:func:`known.record_constraints`).
    With ``likely``, also what is only likely (rules.md §12: it may shape the sampling, never
    as a certainty): with 5 players the taker called a card he lacked."""
    return record_constraints(
        position.record,
        position.seat,
        position.hand,
        position.played,
        likely,
        position.ecart_trumps_unknown,
    )


def no_petit_sec(position: Position) -> Callable[[np.ndarray, np.ndarray, int], np.ndarray]:
    """An ``accept`` test for :func:`worlds.sample`: no seat was dealt the Petit sec (such a
    deal is void, so no world of a deal being played has one). A seat's dealt hand is what it
    holds now plus what it played; the taker's, in Prise and Garde, also its écart less the
    chien (when the chien is known; else the taker's hand is not tested)."""
    n = position.record.players
    _, played_hi = _words([set(cards) for cards in position.played])  # (1, n)
    chien_known = position.record.contract.takes_chien and bool(position.record.chien)
    _, chien_hi = _words([set(position.record.chien or ())])

    def accept(lo: np.ndarray, hi: np.ndarray, d: int) -> np.ndarray:
        dealt = hi[:, :n] | played_hi  # (k, n) the trumps and the Excuse of each dealt hand
        if position.record.contract.takes_chien:
            taker = position.record.taker
            if chien_known:
                dealt[:, taker] = (dealt[:, taker] | hi[:, n]) & ~chien_hi[0, 0]
            else:
                dealt[:, taker] = bb.ALL_HI
        return ~((dealt & bb.ALL_HI) == bb.PETIT_HI).any(axis=1)

    return accept
