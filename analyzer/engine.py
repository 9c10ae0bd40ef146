"""The lockstep playout engine: N deals played to the end at once, as array operations.

Every deal advances together, trick by trick and card by card; a card played costs a handful of
``uint64`` operations over all N deals (hands are bitmask pairs, see :mod:`bitboard`). The engine
owns no randomness and makes no decision: the écart and every card come from policy objects,
which see only what their player may know (:class:`Turn`).

The rules applied are those of :mod:`rules` (the referee), which the tests hold the engine to,
card by card and score by score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import bitboard as bb
from .bitboard import U64, ZERO
from .deal import Deals
from .game import POIGNEE_BONUSES, Contract, chien_size, hand_size, poignee_thresholds

NO_SUIT = -1
TRUMP_LEAD = 4


@dataclass
class Table:
    """The state of N deals being played, all at the same trick and position in the trick.

    Per-seat arrays have shape (n, N), per-deal arrays (N,). Card sets are ``uint64`` pairs
    ``*_lo``/``*_hi`` (see :mod:`bitboard`).
    """

    players: int
    contract: Contract
    taker: np.ndarray  # (N,) int64 seat of the taker
    partner: np.ndarray  # (N,) int64 seat of the 5-player partner, −1 when none
    called_lo: np.ndarray  # (N,) uint64 the called card (5 players; else 0)
    called_hi: np.ndarray
    hands_lo: np.ndarray  # (n, N) uint64
    hands_hi: np.ndarray
    taker_side: np.ndarray  # (n, N) bool: the taker and the partner
    ecart_lo: np.ndarray  # (N,) uint64 the écart (known to the taker only)
    ecart_hi: np.ndarray
    shown_hi: np.ndarray  # (n, N) uint64 trumps shown in a poignée (public)
    n_tricks: int
    trick: int = 0
    position: int = 0
    played_lo: np.ndarray = field(init=False)  # (N,) every card played so far (public)
    played_hi: np.ndarray = field(init=False)
    revealed: np.ndarray = field(init=False)  # (N,) bool the called card has been played
    known_void: np.ndarray = field(init=False)  # (n, N) uint8 bits 0–3 suits, 4 trumps
    leader: np.ndarray = field(init=False)  # (N,) int64
    lead_suit: np.ndarray = field(init=False)  # (N,) int64: −1 none yet, 0–3 suit, 4 trumps
    best_seat: np.ndarray = field(init=False)  # (N,) seat winning the trick so far, −1 none
    beat_lo: np.ndarray = field(init=False)  # (N,) cards that would beat the trick's best card
    beat_hi: np.ndarray = field(init=False)
    trick_lo: np.ndarray = field(init=False)  # (N,) cards in the current trick
    trick_hi: np.ndarray = field(init=False)
    excuse_seat: np.ndarray = field(init=False)  # (N,) seat that played the Excuse here, −1
    taker_tricks: np.ndarray = field(init=False)  # (N,) tricks won by the taker's side
    defence_tricks: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        n_deals = len(self.taker)
        self.played_lo = np.zeros(n_deals, U64)
        self.played_hi = np.zeros(n_deals, U64)
        self.revealed = np.zeros(n_deals, bool)
        self.known_void = np.zeros((self.players, n_deals), np.uint8)
        self.leader = np.zeros(n_deals, np.int64)
        self.taker_tricks = np.zeros(n_deals, np.int64)
        self.defence_tricks = np.zeros(n_deals, np.int64)
        self.start_trick(self.leader)

    @property
    def n_deals(self) -> int:
        return len(self.taker)

    def start_trick(self, leader: np.ndarray) -> None:
        n_deals = self.n_deals
        self.leader = leader
        self.position = 0
        self.lead_suit = np.full(n_deals, NO_SUIT, np.int64)
        self.best_seat = np.full(n_deals, -1, np.int64)
        self.beat_lo = np.full(n_deals, bb.ALL_LO, U64)
        self.beat_hi = np.full(n_deals, bb.TRUMPS_HI, U64)
        self.trick_lo = np.zeros(n_deals, U64)
        self.trick_hi = np.zeros(n_deals, U64)
        self.excuse_seat = np.full(n_deals, -1, np.int64)

    def seat_to_play(self) -> np.ndarray:
        """(N,) int64: the seat whose turn it is."""
        return (self.leader + self.position) % self.players

    def knows_sides(self, seat: np.ndarray) -> np.ndarray:
        """(N,) bool: whether ``seat`` knows every player's side (always, but with 5 players
        before the called card appears, where only the partner knows)."""
        if self.players != 5:
            return np.ones(self.n_deals, bool)
        return self.revealed | (seat == self.partner)

    def known_ally(self, seat: np.ndarray, other: np.ndarray) -> np.ndarray:
        """(N,) bool: ``other`` is on ``seat``'s side and ``seat`` knows it."""
        rows = np.arange(self.n_deals)
        same_side = self.taker_side[seat, rows] == self.taker_side[other, rows]
        return (seat == other) | (self.knows_sides(seat) & same_side)

    def legal(self, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cards ``seat`` may play now (rules.md §4), as a (lo, hi) pair of (N,) uint64."""
        rows = np.arange(self.n_deals)
        hand_lo, hand_hi = self.hands_lo[seat, rows], self.hands_hi[seat, rows]
        free = self.lead_suit == NO_SUIT
        follow = hand_lo & bb.SUIT_OR_NONE_LO[self.lead_suit]
        can_follow = follow != ZERO
        trumps = hand_hi & bb.TRUMPS_HI
        over = trumps & self.beat_hi
        must_trump = ~free & ~can_follow & (trumps != ZERO)
        excuse = hand_hi & bb.EXCUSE_HI
        legal_lo = np.where(
            free, hand_lo, np.where(can_follow, follow, np.where(must_trump, ZERO, hand_lo))
        )
        trump_choice = np.where(over != ZERO, over, trumps) | excuse
        legal_hi = np.where(
            free, hand_hi, np.where(can_follow, excuse, np.where(must_trump, trump_choice, hand_hi))
        )
        if self.players == 5 and self.trick == 0 and self.position == 0:
            legal_lo = self._first_lead_restriction(legal_lo)
        return legal_lo, legal_hi

    def _first_lead_restriction(self, legal_lo: np.ndarray) -> np.ndarray:
        """5 players: the first trick may not be led in the called suit, but with the called
        card itself (rules.md §3)."""
        called_suit = bb.lowest_bit(self.called_lo) % 4
        suit_lo = np.where(self.called_lo != ZERO, bb.SUIT_LO[called_suit], ZERO)
        restricted = legal_lo & (~suit_lo | self.called_lo)
        return np.where(restricted != ZERO, restricted, legal_lo)

    def play(self, seat: np.ndarray, card_lo: np.ndarray, card_hi: np.ndarray) -> None:
        """``seat`` plays one card in every deal: exactly one bit set in ``card_lo | card_hi``."""
        rows = np.arange(self.n_deals)
        self.hands_lo[seat, rows] ^= card_lo
        self.hands_hi[seat, rows] ^= card_hi
        self.played_lo |= card_lo
        self.played_hi |= card_hi
        self.trick_lo |= card_lo
        self.trick_hi |= card_hi
        if self.players == 5:
            self.revealed |= ((card_lo & self.called_lo) | (card_hi & self.called_hi)) != ZERO

        is_excuse = card_hi == bb.EXCUSE_HI
        is_trump = (card_hi & bb.TRUMPS_HI) != ZERO
        card_suit = np.where(is_trump, TRUMP_LEAD, bb.lowest_bit(card_lo) % 4)
        self.excuse_seat = np.where(is_excuse, seat, self.excuse_seat)

        # A player who does not follow shows a void; one who does not trump either, no trumps.
        led = (self.lead_suit != NO_SUIT) & ~is_excuse
        off_suit = led & (card_suit != self.lead_suit)
        void_bits = np.where(
            off_suit & (self.lead_suit < TRUMP_LEAD), 1 << np.maximum(self.lead_suit, 0), 0
        )
        void_bits |= np.where(off_suit & ~is_trump, 1 << TRUMP_LEAD, 0)
        self.known_void[seat, rows] |= void_bits.astype(np.uint8)

        sets_suit = (self.lead_suit == NO_SUIT) & ~is_excuse
        self.lead_suit = np.where(sets_suit, card_suit, self.lead_suit)
        wins = ((card_lo & self.beat_lo) | (card_hi & self.beat_hi)) != ZERO
        self.best_seat = np.where(wins, seat, self.best_seat)
        new_beat_lo = np.where(is_trump, ZERO, bb.SUIT_OR_NONE_LO[card_suit] & bb.above(card_lo))
        new_beat_hi = np.where(is_trump, bb.TRUMPS_HI & bb.above(card_hi), bb.TRUMPS_HI)
        self.beat_lo = np.where(wins, new_beat_lo, self.beat_lo)
        self.beat_hi = np.where(wins, new_beat_hi, self.beat_hi)
        self.position += 1


@dataclass(frozen=True)
class Turn:
    """What one decision sees: the table, the seat to play and its legal cards, per deal."""

    table: Table
    seat: np.ndarray  # (N,) int64
    hand_lo: np.ndarray  # (N,) uint64 the player's hand
    hand_hi: np.ndarray
    legal_lo: np.ndarray  # (N,) uint64 the cards the rules allow
    legal_hi: np.ndarray


@dataclass
class Playout:
    """The outcome of N deals played to the end, and what is needed to write their records.

    Scoring inputs (all (N,)): ``taker_points2`` int64 doubled points of the taker's side;
    ``bouts`` int64; ``petit_au_bout`` int8 (+1 taker's side, −1 defence, 0 none); ``chelem``
    int8 (+1 taker's side won every trick, −1 the defence did, 0 neither); ``poignee_bonus`` int64
    the sum of the poignées shown; ``partner`` int64 (−1 none). Records: ``plays`` (N, T, n)
    uint8 card ids in play order per trick, ``leaders`` (N, T) int64, ``discard`` (N, c) uint8
    (Prise/Garde only, else None), ``shown_hi`` (n, N) uint64.
    """

    players: int
    contract: Contract
    taker: np.ndarray
    partner: np.ndarray
    called: np.ndarray | None
    announced_chelem: bool
    taker_points2: np.ndarray
    bouts: np.ndarray
    petit_au_bout: np.ndarray
    chelem: np.ndarray
    poignee_bonus: np.ndarray
    plays: np.ndarray
    leaders: np.ndarray
    chien: np.ndarray
    discard: np.ndarray | None
    shown_hi: np.ndarray

    def __len__(self) -> int:
        return len(self.taker)


def play(
    deals: Deals,
    taker: np.ndarray | int,
    contract: Contract,
    taker_policy,
    defence_policy=None,
    *,
    rng: np.random.Generator,
    called: np.ndarray | int | None = None,
    ecart_policy=None,
    announce_chelem: bool = False,
    taker_poignee: bool = True,
    others_poignees: bool = True,
) -> Playout:
    """Play every deal of ``deals`` to the end.

    ``taker``: the taker's seat, one for all deals or (N,) int. ``taker_policy`` plays for the
    taker's side (taker and 5-player partner), ``defence_policy`` (default: the same) for the
    defence; both have ``choose(turn, rng) -> (lo, hi)``. ``called``: the called card id (5
    players; one for all deals or (N,)). ``ecart_policy`` (default :class:`ecart.GreedyEcart`)
    chooses the écart for Prise and Garde. The poignée flags say whether the taker, and each
    defender, show a poignée whenever their hand (after the écart) allows one.
    """
    from .ecart import GreedyEcart  # ecart imports engine's helpers; avoid a cycle at import

    players = deals.players
    n_deals = len(deals)
    defence_policy = defence_policy or taker_policy
    ecart_policy = ecart_policy or GreedyEcart()
    taker = np.broadcast_to(np.asarray(taker, np.int64), (n_deals,)).copy()
    rows = np.arange(n_deals)

    hands_lo, hands_hi = bb.from_cards(deals.hands.transpose(1, 0, 2))
    hands_lo, hands_hi = hands_lo.copy(), hands_hi.copy()
    chien_lo, chien_hi = bb.from_cards(deals.chien)

    partner = np.full(n_deals, -1, np.int64)
    called_lo = np.zeros(n_deals, U64)
    called_hi = np.zeros(n_deals, U64)
    called_cards = None
    if players == 5:
        if called is None:
            raise ValueError("with 5 players the taker calls a card: give `called`")
        called_cards = np.broadcast_to(np.asarray(called, np.int64), (n_deals,)).copy()
        called_lo, called_hi = bb.from_cards(called_cards[:, None])
        holds = ((hands_lo & called_lo) | (hands_hi & called_hi)) != ZERO  # (n, N)
        holder = np.where(holds.any(axis=0), holds.argmax(axis=0), -1)
        partner = np.where(holder == taker, -1, holder)
    taker_side = np.zeros((players, n_deals), bool)
    taker_side[taker, rows] = True
    taker_side[np.maximum(partner, 0), rows] |= partner >= 0

    won_lo = np.zeros(n_deals, U64)  # cards counting for the taker's side
    won_hi = np.zeros(n_deals, U64)
    ecart_lo = np.zeros(n_deals, U64)
    ecart_hi = np.zeros(n_deals, U64)
    discard = None
    if contract.takes_chien:
        hands_lo[taker, rows] |= chien_lo
        hands_hi[taker, rows] |= chien_hi
        ecart_lo, ecart_hi = ecart_policy.choose(
            hands_lo[taker, rows], hands_hi[taker, rows], chien_size(players)
        )
        hands_lo[taker, rows] ^= ecart_lo
        hands_hi[taker, rows] ^= ecart_hi
        won_lo |= ecart_lo
        won_hi |= ecart_hi
        discard = _cards_of_sets(ecart_lo, ecart_hi, chien_size(players))
    elif contract.chien_to_taker:
        won_lo |= chien_lo
        won_hi |= chien_hi

    shows = np.full((players, n_deals), others_poignees)
    shows[taker, rows] = taker_poignee
    shown_hi, poignee_bonus = _poignees(players, hands_hi, shows)
    n_tricks = hand_size(players)
    table = Table(
        players=players,
        contract=contract,
        taker=taker,
        partner=partner,
        called_lo=called_lo,
        called_hi=called_hi,
        hands_lo=hands_lo,
        hands_hi=hands_hi,
        taker_side=taker_side,
        ecart_lo=ecart_lo,
        ecart_hi=ecart_hi,
        shown_hi=shown_hi,
        n_tricks=n_tricks,
    )
    first_leader = taker.copy() if announce_chelem else np.zeros(n_deals, np.int64)
    table.start_trick(first_leader)

    plays = np.zeros((n_deals, n_tricks, players), np.uint8)
    leaders = np.zeros((n_deals, n_tricks), np.int64)
    exchange2 = np.zeros(n_deals, np.int64)  # half points the Excuse's exchange moves to the taker
    petit_trick_side = np.zeros((n_tricks, n_deals), np.int8)  # ±1 side winning the Petit's trick
    won_by_excuse = np.zeros(n_deals, bool)

    for trick_index in range(n_tricks):
        table.trick = trick_index
        leaders[:, trick_index] = table.leader
        for position in range(players):
            seat = table.seat_to_play()
            legal_lo, legal_hi = table.legal(seat)
            turn = Turn(table, seat, hands_lo[seat, rows], hands_hi[seat, rows], legal_lo, legal_hi)
            card_lo, card_hi = _choose(turn, taker_policy, defence_policy, rng)
            plays[:, trick_index, position] = _card_ids(card_lo, card_hi)
            table.play(seat, card_lo, card_hi)

        last = trick_index == n_tricks - 1
        winner = table.best_seat
        excuse_in = table.excuse_seat >= 0
        excuse_side_taker = taker_side[np.maximum(table.excuse_seat, 0), rows]
        if last:
            # A side that won every trick before and plays the Excuse last wins the trick.
            side_swept = np.where(
                excuse_side_taker, table.defence_tricks == 0, table.taker_tricks == 0
            )
            won_by_excuse = excuse_in & side_swept & (n_tricks > 1)
            winner = np.where(won_by_excuse, table.excuse_seat, winner)
        winner_taker = taker_side[winner, rows]
        # Outside the last trick the Excuse stays with its side, which gives half a point back.
        excuse_kept = excuse_in & (not last)
        excuse_crosses = excuse_kept & (excuse_side_taker != winner_taker)
        trick_lo = table.trick_lo
        trick_hi = np.where(excuse_kept, table.trick_hi & ~bb.EXCUSE_HI, table.trick_hi)
        won_lo |= np.where(winner_taker, trick_lo, ZERO)
        won_hi |= np.where(winner_taker, trick_hi, ZERO)
        won_hi |= np.where(excuse_kept & excuse_side_taker, bb.EXCUSE_HI, ZERO)
        exchange2 += np.where(excuse_crosses, np.where(winner_taker, 1, -1), 0)
        has_petit = (table.trick_hi & bb.PETIT_HI) != ZERO
        petit_trick_side[trick_index] = np.where(has_petit, np.where(winner_taker, 1, -1), 0)
        table.taker_tricks += winner_taker
        table.defence_tricks += ~winner_taker
        table.start_trick(winner)

    chelem = np.where(
        table.defence_tricks == 0, 1, np.where(table.taker_tricks == 0, -1, 0)
    ).astype(np.int8)
    petit_au_bout = petit_trick_side[-1].copy()
    if n_tricks > 1:
        before_last = petit_trick_side[-2]
        petit_au_bout = np.where(won_by_excuse & (before_last != 0), before_last, petit_au_bout)
    taker_points2 = bb.points2(won_lo, won_hi) + exchange2
    bouts = bb.popcount(won_hi & bb.BOUTS_HI)
    return Playout(
        players=players,
        contract=contract,
        taker=taker,
        partner=partner,
        called=called_cards,
        announced_chelem=announce_chelem,
        taker_points2=taker_points2,
        bouts=bouts,
        petit_au_bout=petit_au_bout.astype(np.int8),
        chelem=chelem,
        poignee_bonus=poignee_bonus,
        plays=plays,
        leaders=leaders,
        chien=np.asarray(deals.chien),
        discard=discard,
        shown_hi=shown_hi,
    )


def _choose(turn: Turn, taker_policy, defence_policy, rng: np.random.Generator):
    table = turn.table
    card_lo, card_hi = taker_policy.choose(turn, rng)
    if defence_policy is taker_policy:
        return card_lo, card_hi
    defence_lo, defence_hi = defence_policy.choose(turn, rng)
    on_taker_side = table.taker_side[turn.seat, np.arange(table.n_deals)]
    return (
        np.where(on_taker_side, card_lo, defence_lo),
        np.where(on_taker_side, card_hi, defence_hi),
    )


def _card_ids(card_lo: np.ndarray, card_hi: np.ndarray) -> np.ndarray:
    in_hi = card_hi != ZERO
    bit = bb.lowest_bit(np.where(in_hi, card_hi, card_lo))
    return bb.card_of(in_hi.astype(np.int8), bit).astype(np.uint8)


def _cards_of_sets(lo: np.ndarray, hi: np.ndarray, count: int) -> np.ndarray:
    """(N, count) uint8 card ids of sets that each hold ``count`` cards, lowest bit first."""
    out = np.zeros((len(lo), count), np.uint8)
    lo, hi = lo.copy(), hi.copy()
    for column in range(count):
        in_hi = lo == ZERO
        word = np.where(in_hi, hi, lo)
        single = bb.lowest(word)
        out[:, column] = _card_ids(np.where(in_hi, ZERO, single), np.where(in_hi, single, ZERO))
        lo = np.where(in_hi, lo, lo ^ single)
        hi = np.where(in_hi, hi ^ single, hi)
    return out


def poignee_trumps(hand_hi: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The poignée a hand would show and its bonus: ((N,) uint64 shown set, (N,) int64 bonus).

    The largest poignée the hand allows, shown with exactly as many cards as it needs: middle
    trumps from the lowest up, then the 21, then the Petit (kept hidden when possible, so the
    defence has less reason to hunt it), then the Excuse — which may stand in only when every
    trump is shown (rules.md §7).
    """
    thresholds = poignee_thresholds(players)
    trumps = hand_hi & bb.TRUMPS_HI
    count = bb.popcount(trumps) + ((hand_hi & bb.EXCUSE_HI) != ZERO)
    need = np.zeros(len(hand_hi), np.int64)
    bonus = np.zeros(len(hand_hi), np.int64)
    for threshold, value in zip(thresholds, POIGNEE_BONUSES, strict=True):
        reached = count >= threshold
        need = np.where(reached, threshold, need)
        bonus = np.where(reached, value, bonus)
    shown = np.zeros(len(hand_hi), U64)
    remaining = need.copy()
    for group in (hand_hi & bb.MIDDLE_TRUMPS_HI, hand_hi & bb.TWENTY_ONE_HI, hand_hi & bb.PETIT_HI):
        group = group.copy()
        for _ in range(int(remaining.max(initial=0))):
            take = (remaining > 0) & (group != ZERO)
            if not take.any():
                break
            single = bb.lowest(group)
            shown |= np.where(take, single, ZERO)
            group = np.where(take, group ^ single, group)
            remaining -= take
    shown |= np.where(remaining > 0, hand_hi & bb.EXCUSE_HI, ZERO)
    return shown, bonus


def _poignees(
    players: int, hands_hi: np.ndarray, shows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Trumps shown by each seat ((n, N) uint64) and the bonuses' sum ((N,) int64), for the
    seats that ``shows`` ((n, N) bool) lets show a poignée."""
    shown_hi = np.zeros_like(hands_hi)
    total = np.zeros(hands_hi.shape[1], np.int64)
    for seat in range(players):
        shown, bonus = poignee_trumps(hands_hi[seat], players)
        shown_hi[seat] = np.where(shows[seat], shown, ZERO)
        total += np.where(shows[seat], bonus, 0)
    return shown_hi, total
