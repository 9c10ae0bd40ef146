"""What the player to act knows of the hidden cards, as the sampler's input — stated once.

:func:`constraints_of` reads it from a table of deals being played (the engine's knowledge
model, :func:`knowledge.of`): the lookahead's worlds. :func:`record_constraints` reads it from a
partial record (a position given by the user): the record's cards are laid down on a table
that knows only what the user knows (its hand, its écart when taking, the chien shown, the
poignées, the trumps shown from the écart), and the table then says the same as for the
lookahead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..game import chien_size
from ..playout import bitboard as bb
from ..playout import knowledge
from ..playout.bitboard import U64
from ..playout.deal import DealSets
from ..playout.ecart import FixedEcart
from ..playout.engine import play_on, start
from ..playout.table import Candidate, Table, Turn
from ..rulebook.record import Record
from .worlds import Constraints, card_set


def by_seat_of(table: Table, idx: np.ndarray):
    """A function taking a per-position (n, N) array to per-seat (n, B) for the deals idx."""
    # The flat index of each seat's row in each deal: one take (a gather along an axis costs
    # several numpy calls, and this runs six times a search).
    flat = np.argsort(table.seat[:, idx], axis=0) * table.n_deals + idx

    def by_seat(per_position: np.ndarray) -> np.ndarray:
        return per_position.take(flat)

    return by_seat


def constraints_of(turn: Turn, idx: np.ndarray, likely: bool = True) -> Constraints:
    """What the player of ``turn`` knows of the hidden cards (:func:`knowledge.of`), for the deals
    ``idx``: holders by seat, then the aside (chien or écart). With ``likely``, also what is
    only likely (rules.md §12 lets it shape the sampling, never as a certainty): with 5 players,
    the taker called a card he lacked (calling one's own king means playing alone), so it is
    not in his hand unless the shown chien put it there."""
    table, k = turn.table, turn.position
    n, batch = table.players, len(idx)
    by_seat = by_seat_of(table, idx)
    know = knowledge.of(turn)
    me = table.seat[k, idx]
    hand_lo, hand_hi = turn.hand_lo[idx], turn.hand_hi[idx]
    taker = turn.is_taker[idx]
    unseen_lo, unseen_hi = know.unseen_lo[idx], know.unseen_hi[idx]
    # Cards held, by position: those before the player to act have played in this trick.
    left = table.n_tricks - table.trick - (np.arange(n)[:, None] < table.position)
    counts = np.zeros((batch, n + 1), np.int64)
    counts[:, :n] = by_seat(np.broadcast_to(left, (n, table.n_deals))).T
    counts[:, n] = chien_size(n)
    mine = (np.arange(n)[:, None] == me[None, :]).T  # (B, n) the player's own seat
    may_lo = np.zeros((batch, n + 1), U64)
    may_hi = np.zeros((batch, n + 1), U64)
    must_lo = np.zeros((batch, n + 1), U64)
    must_hi = np.zeros((batch, n + 1), U64)
    may_lo[:, :n] = bb.select(mine, hand_lo[:, None], by_seat(know.may_hold_lo).T)
    may_hi[:, :n] = bb.select(mine, hand_hi[:, None], by_seat(know.may_hold_hi).T)
    must_lo[:, :n] = bb.select(mine, hand_lo[:, None], by_seat(know.holds_lo).T)
    must_hi[:, :n] = bb.select(mine, hand_hi[:, None], by_seat(know.holds_hi).T)
    # The aside: in Prise and Garde the écart, the taker's own known; others know it holds no
    # king and no bout, and trumps only when shown (rules.md §3). Else the chien: any unseen.
    takes = table.takes_chien[idx]
    shown_hi = table.public.ecart_shown_hi[idx]
    ecart_lo, ecart_hi = table.ecart_lo[idx], table.ecart_hi[idx]
    may_lo[:, n] = bb.select(takes, bb.select(taker, ecart_lo, unseen_lo & ~bb.KINGS_LO), unseen_lo)
    may_hi[:, n] = bb.select(takes, bb.select(taker, ecart_hi, shown_hi), unseen_hi)
    must_lo[:, n] = bb.keep(takes & taker, ecart_lo)
    must_hi[:, n] = bb.keep(takes, bb.select(taker, ecart_hi, shown_hi))
    if likely and n == 5:
        rows, taker_seat = np.arange(batch), by_seat(table.is_taker).argmax(axis=0)
        may_lo[rows, taker_seat] &= ~(table.called_lo[idx] & ~must_lo[rows, taker_seat])
        may_hi[rows, taker_seat] &= ~(table.called_hi[idx] & ~must_hi[rows, taker_seat])
    return Constraints(may_lo, may_hi, must_lo, must_hi, counts)


class _Script:
    """Lays down the record's cards ((S,) one-bit pairs of one deal), in order."""

    name = "script"

    def __init__(self, cards: Sequence[int], players: int) -> None:
        self.cards = [card_set([card]) for card in cards]
        self.players = players

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        lo, hi = self.cards[turn.table.trick * self.players + turn.position]
        return np.array([lo], U64), np.array([hi], U64)


def record_constraints(
    record: Record,
    seat: int,
    hand: Sequence[int],
    played: Sequence[Sequence[int]],
    likely: bool,
    ecart_trumps_unknown: bool = False,
) -> Constraints:
    """:func:`constraints_of` for ``seat``, to play next after the cards of ``record`` (its
    ``tricks`` so far; its ``chien`` when shown; its ``discard``: the écart for the taker, the
    trumps shown from it for the others), holding ``hand``; ``played[s]``: seat ``s``'s cards
    so far. One deal; holders by record seat, then the aside. ``ecart_trumps_unknown``: the
    record of a defender gives no trump shown from the écart though some must have been
    (:class:`position.Position` says so), so which ones is unknown
    (:func:`_ecart_trumps_unknown`); else the trumps shown are those the record gives."""
    n, first = record.players, record.first_leader
    rotate = [(s - first) % n for s in range(n)]  # the engine's first leader is its seat 0
    hands_lo = np.zeros((n, 1), U64)
    hands_hi = np.zeros((n, 1), U64)
    for s in range(n):
        cards = set(played[s]) | (set(hand) if s == seat else set())
        if s == seat == record.taker and record.contract.takes_chien:
            cards = (cards | set(record.discard or ())) - set(record.chien or ())
        hands_lo[rotate[s]], hands_hi[rotate[s]] = card_set(cards)
    chien_lo, chien_hi = card_set(record.chien or ())
    ecart_lo, ecart_hi = card_set(record.discard or ())
    game = start(
        DealSets(n, hands_lo, hands_hi, np.array([chien_lo], U64), np.array([chien_hi], U64)),
        rotate[record.taker],
        record.contract,
        called=record.called,
        ecart_policy=FixedEcart(np.array([ecart_lo], U64), np.array([ecart_hi], U64)),
        announce_chelem=record.chelem_announced,
        taker_poignee=False,
        others_poignees=False,
    )
    table = game.table
    # The others hold, as far as this table knows, only the cards they will be seen to play
    # (not the chien shown, nor the écart's trumps, that the set-up gave the taker).
    for row, engine_seat in enumerate(table.seat[:, 0].tolist()):
        s = (engine_seat + first) % n
        if s != seat:
            table.hands_lo[row, 0], table.hands_hi[row, 0] = card_set(played[s])
    for s, cards in record.poignees:
        table.shown_hi[rotate[s], 0] = card_set(cards)[1]
    cards = [card for trick in record.tricks for card in trick]
    play_on(game, _Script(cards, n), rng=np.random.default_rng(0), until=len(cards))
    table.trick = len(cards) // n  # play_on moves to the next trick with its first card
    user = int(np.flatnonzero(table.seat[:, 0] == rotate[seat])[0])
    none = np.zeros(1, U64)
    found = constraints_of(Turn(table, user, none, none), np.arange(1), likely)
    order = [*rotate, n]  # record seats, then the aside
    fields = (found.may_lo, found.may_hi, found.must_lo, found.must_hi, found.count)
    known = Constraints(*(field[:, order] for field in fields))
    if ecart_trumps_unknown and record.contract.takes_chien and seat != record.taker:
        return _ecart_trumps_unknown(known, record, hand, played)
    return known


def _ecart_trumps_unknown(
    known: Constraints, record: Record, hand: Sequence[int], played: Sequence[Sequence[int]]
) -> Constraints:
    """``known`` for a defender whose record does not say which trumps were shown from the
    écart: it may hold any trump but a bout that is neither seen nor shown in a poignée, and
    the chien's trumps are no longer sure to be in the taker's hand."""
    seen = [*hand, *(card for cards in played for card in cards)]
    seen += [card for _, cards in record.poignees for card in cards]
    seen_hi = U64(card_set(seen)[1])
    discardable_hi = bb.TRUMPS_HI & ~bb.BOUTS_HI
    chien_hi = U64(card_set(record.chien or ())[1])
    may_hi, must_hi = known.may_hi.copy(), known.must_hi.copy()
    may_hi[:, record.players] |= discardable_hi & ~seen_hi
    must_hi[:, record.taker] &= ~(chien_hi & discardable_hi & ~seen_hi)
    return Constraints(known.may_lo, may_hi, known.must_lo, must_hi, known.count)
