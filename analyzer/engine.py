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

    Per-player arrays have shape (n, N) and are indexed by the position in the current trick:
    row 0 is the trick's leader, row k the k-th player after it (:attr:`seat` gives their seats).
    The rows turn at the end of every trick so that the winner, who leads next, is row 0; the
    player to act is then always row :attr:`position`, and those still to play are the rows
    after it — no per-deal gather is needed while a trick is played. Per-deal arrays are (N,).
    Card sets are ``uint64`` pairs ``*_lo``/``*_hi`` (see :mod:`bitboard`).
    """

    players: int
    contract: Contract
    n_tricks: int
    seat: np.ndarray  # (n, N) int64 the seat at each position
    hands_lo: np.ndarray  # (n, N) uint64
    hands_hi: np.ndarray
    on_taker_side: np.ndarray  # (n, N) bool: the taker and the partner
    is_taker: np.ndarray  # (n, N) bool
    is_partner: np.ndarray  # (n, N) bool (5 players)
    shown_hi: np.ndarray  # (n, N) uint64 trumps shown in a poignée (public), rows by seat
    called_lo: np.ndarray  # (N,) uint64 the called card (5 players; else 0)
    called_hi: np.ndarray
    ecart_lo: np.ndarray  # (N,) uint64 the écart (known to the taker only)
    ecart_hi: np.ndarray
    trick: int = 0
    position: int = 0
    known_void: np.ndarray = field(init=False)  # (n, N) uint8 bits 0–3 suits, 4 trumps
    taker_void: np.ndarray = field(init=False)  # (N,) uint8 the taker's shown voids
    taker_shown_hi: np.ndarray = field(init=False)  # (N,) uint64 the taker's shown trumps
    taker_side_shown_hi: np.ndarray = field(init=False)  # (N,) uint64 the taker's side's
    defence_shown_hi: np.ndarray = field(init=False)  # (N,) uint64 the defence's
    played_lo: np.ndarray = field(init=False)  # (N,) every card played so far (public)
    played_hi: np.ndarray = field(init=False)
    revealed: np.ndarray = field(init=False)  # (N,) bool the called card has been played
    lead_suit: np.ndarray = field(init=False)  # (N,) int64: −1 none yet, 0–3 suit, 4 trumps
    lead_lo: np.ndarray = field(init=False)  # (N,) uint64 the cards of the suit led
    lead_hi: np.ndarray = field(init=False)  # (N,) uint64 the trumps when trumps were led
    lead_bit: np.ndarray = field(init=False)  # (N,) uint8 the void bit of the suit led
    best_position: np.ndarray = field(init=False)  # (N,) position winning the trick, −1 none
    best_on_taker_side: np.ndarray = field(init=False)  # (N,) bool
    beat_lo: np.ndarray = field(init=False)  # (N,) cards that would beat the trick's best card
    beat_hi: np.ndarray = field(init=False)
    trick_lo: np.ndarray = field(init=False)  # (N,) cards in the current trick
    trick_hi: np.ndarray = field(init=False)
    excuse_position: np.ndarray = field(init=False)  # (N,) who played the Excuse here, −1
    excuse_on_taker_side: np.ndarray = field(init=False)  # (N,) bool
    taker_tricks: np.ndarray = field(init=False)  # (N,) tricks won by the taker's side
    defence_tricks: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        n_deals = self.n_deals
        self.known_void = np.zeros((self.players, n_deals), np.uint8)
        self.taker_void = np.zeros(n_deals, np.uint8)

        def shown_by(rows: np.ndarray) -> np.ndarray:
            return np.bitwise_or.reduce(bb.keep(rows, self.shown_hi), axis=0)

        self.taker_shown_hi = shown_by(self.is_taker)
        self.taker_side_shown_hi = shown_by(self.on_taker_side)
        self.defence_shown_hi = shown_by(~self.on_taker_side)

        self.played_lo = np.zeros(n_deals, U64)
        self.played_hi = np.zeros(n_deals, U64)
        self.revealed = np.zeros(n_deals, bool)
        self.taker_tricks = np.zeros(n_deals, np.int64)
        self.defence_tricks = np.zeros(n_deals, np.int64)
        self._new_trick()

    @property
    def n_deals(self) -> int:
        return self.seat.shape[1]

    def _new_trick(self) -> None:
        n_deals = self.n_deals
        self.position = 0
        self.lead_suit = np.full(n_deals, NO_SUIT, np.int64)
        self.lead_lo = np.zeros(n_deals, U64)
        self.lead_hi = np.zeros(n_deals, U64)
        self.lead_bit = np.zeros(n_deals, np.uint8)
        self.best_position = np.full(n_deals, -1, np.int64)
        self.best_on_taker_side = np.zeros(n_deals, bool)
        self.beat_lo = np.full(n_deals, bb.ALL_LO, U64)
        self.beat_hi = np.full(n_deals, bb.TRUMPS_HI, U64)
        self.trick_lo = np.zeros(n_deals, U64)
        self.trick_hi = np.zeros(n_deals, U64)
        self.excuse_position = np.full(n_deals, -1, np.int64)
        self.excuse_on_taker_side = np.zeros(n_deals, bool)

    def turn_to(self, leader_position: np.ndarray) -> None:
        """Start the next trick with the player now at ``leader_position`` (N,) as row 0."""
        n, n_deals = self.players, self.n_deals
        rows = (leader_position[None, :] + np.arange(n)[:, None]) % n
        flat = rows * n_deals + np.arange(n_deals)[None, :]
        for name in _PER_PLAYER:
            setattr(self, name, np.take(getattr(self, name), flat))
        self._new_trick()

    def shown_so_far(self, position: int, rows: np.ndarray) -> np.ndarray:
        """(N,) uint64 the trumps that the players selected by ``rows`` ((n, N) bool, by
        position) have shown, as far as the player at ``position`` has seen them: a poignée is
        shown with its holder's first card, so during the first trick only by those who have
        played already (or by oneself)."""
        if self.trick > 0:
            return np.bitwise_or.reduce(bb.keep(rows, self._shown_at_positions()), axis=0)
        shown = self._shown_at_positions()
        seen = np.zeros(self.n_deals, U64)
        for other in range(position + 1):
            seen |= bb.keep(rows[other], shown[other])
        return seen

    def _shown_at_positions(self) -> np.ndarray:
        return np.take_along_axis(self.shown_hi, self.seat.astype(np.intp), axis=0)

    def knows_sides(self, position: int) -> np.ndarray:
        """(N,) bool: whether the player at ``position`` knows every player's side (always, but
        with 5 players before the called card appears, when only the partner knows)."""
        if self.players != 5:
            return np.ones(self.n_deals, bool)
        return self.revealed | self.is_partner[position]

    def known_ally(self, position: int, other: int) -> np.ndarray:
        """(N,) bool: the player at ``other`` is on the side of the one at ``position``, and the
        latter knows it."""
        if other == position:
            return np.ones(self.n_deals, bool)
        same_side = self.on_taker_side[position] == self.on_taker_side[other]
        if self.players != 5:
            return same_side
        return self.knows_sides(position) & same_side

    def best_is_known_ally(self, position: int) -> np.ndarray:
        """(N,) bool: the card winning the trick so far is an ally's, as ``position`` knows."""
        same_side = self.best_on_taker_side == self.on_taker_side[position]
        if self.players != 5:
            return (self.best_position >= 0) & same_side
        return (self.best_position >= 0) & self.knows_sides(position) & same_side

    def legal(self) -> tuple[np.ndarray, np.ndarray]:
        """The cards the player to act may play (rules.md §4), as a (lo, hi) pair of (N,)
        uint64."""
        hand_lo, hand_hi = self.hands_lo[self.position], self.hands_hi[self.position]
        free = self.lead_suit == NO_SUIT
        follow = hand_lo & self.lead_lo
        can_follow = follow != ZERO
        trumps = hand_hi & bb.TRUMPS_HI
        over = trumps & self.beat_hi
        must_trump = ~free & ~can_follow & (trumps != ZERO)
        excuse = hand_hi & bb.EXCUSE_HI
        legal_lo = bb.select(
            free, hand_lo, bb.select(can_follow, follow, bb.select(must_trump, ZERO, hand_lo))
        )
        trump_choice = bb.select(over != ZERO, over, trumps) | excuse
        legal_hi = bb.select(
            free,
            hand_hi,
            bb.select(can_follow, excuse, bb.select(must_trump, trump_choice, hand_hi)),
        )
        if self.players == 5 and self.trick == 0 and self.position == 0:
            legal_lo = self._first_lead_restriction(legal_lo, legal_hi)
        return legal_lo, legal_hi

    def _first_lead_restriction(self, legal_lo: np.ndarray, legal_hi: np.ndarray) -> np.ndarray:
        """5 players: the first trick may not be led in the called suit, but with the called
        card itself (rules.md §3) — unless the hand holds nothing else."""
        called_suit = bb.lowest_bit(self.called_lo) % 4
        suit_lo = bb.keep(self.called_lo != ZERO, bb.SUIT_LO[called_suit])
        restricted = legal_lo & (~suit_lo | self.called_lo)
        nothing_else = (restricted | legal_hi) == ZERO
        return bb.select(nothing_else, legal_lo, restricted)

    def play(self, card_lo: np.ndarray, card_hi: np.ndarray) -> None:
        """The player to act plays one card in every deal: exactly one bit set in
        ``card_lo | card_hi``."""
        k = self.position
        self.hands_lo[k] ^= card_lo
        self.hands_hi[k] ^= card_hi
        self.played_lo |= card_lo
        self.played_hi |= card_hi
        self.trick_lo |= card_lo
        self.trick_hi |= card_hi
        if self.players == 5:
            self.revealed |= ((card_lo & self.called_lo) | (card_hi & self.called_hi)) != ZERO

        is_excuse = card_hi == bb.EXCUSE_HI
        is_trump = (card_hi & bb.TRUMPS_HI) != ZERO
        if is_excuse.any():
            self.excuse_position = bb.select(is_excuse, k, self.excuse_position)
            self.excuse_on_taker_side |= is_excuse & self.on_taker_side[k]
        no_suit_yet = self.lead_suit == NO_SUIT
        if k > 0:
            # A player who does not follow shows a void; one who does not trump either, no
            # trumps. (The Excuse shows nothing.)
            followed = ((card_lo & self.lead_lo) | (card_hi & self.lead_hi)) != ZERO
            off_suit = ~no_suit_yet & ~is_excuse & ~followed
            shown = self.lead_bit | bb.select(is_trump, _NO_BITS, _NO_TRUMP_BIT)
            void_bits = bb.select(off_suit, shown, _NO_BITS)
            self.known_void[k] |= void_bits
            self.taker_void |= bb.select(self.is_taker[k], void_bits, _NO_BITS)
        if k == 0 or no_suit_yet.any():
            # The first card but the Excuse sets the suit of the trick.
            card_suit = bb.select(is_trump, TRUMP_LEAD, bb.lowest_bit(card_lo) & 3)
            sets_suit = no_suit_yet & ~is_excuse
            self.lead_suit = bb.select(sets_suit, card_suit, self.lead_suit)
            self.lead_lo = bb.SUIT_OR_NONE_LO[self.lead_suit]
            self.lead_hi = bb.keep(self.lead_suit == TRUMP_LEAD, bb.TRUMPS_HI)
            self.lead_bit = _LEAD_BIT[self.lead_suit]

        wins = ((card_lo & self.beat_lo) | (card_hi & self.beat_hi)) != ZERO
        self.best_position = bb.select(wins, k, self.best_position)
        self.best_on_taker_side = bb.select(wins, self.on_taker_side[k], self.best_on_taker_side)
        new_beat_lo = bb.select(is_trump, ZERO, self.lead_lo & bb.above(card_lo))
        new_beat_hi = bb.select(is_trump, bb.TRUMPS_HI & bb.above(card_hi), bb.TRUMPS_HI)
        self.beat_lo = bb.select(wins, new_beat_lo, self.beat_lo)
        self.beat_hi = bb.select(wins, new_beat_hi, self.beat_hi)
        self.position += 1


_NO_BITS = np.uint8(0)
_NO_TRUMP_BIT = np.uint8(1 << TRUMP_LEAD)
_LEAD_BIT = np.array([1, 2, 4, 8, 1 << TRUMP_LEAD, 0], np.uint8)
"""Void bit shown by not following each lead (suits 0–3, trumps 4, none −1)."""
_PER_PLAYER = (
    "seat",
    "hands_lo",
    "hands_hi",
    "on_taker_side",
    "is_taker",
    "is_partner",
    "known_void",
)


@dataclass(frozen=True)
class Turn:
    """What one decision sees: the table, the seat to play and its legal cards, per deal."""

    table: Table
    position: int  # the player's position in the trick (its row in the table's arrays)
    legal_lo: np.ndarray  # (N,) uint64 the cards the rules allow
    legal_hi: np.ndarray

    @property
    def hand_lo(self) -> np.ndarray:
        """(N,) uint64 the player's hand."""
        return self.table.hands_lo[self.position]

    @property
    def hand_hi(self) -> np.ndarray:
        return self.table.hands_hi[self.position]

    @property
    def on_taker_side(self) -> np.ndarray:
        """(N,) bool: the player is the taker or the partner."""
        return self.table.on_taker_side[self.position]

    @property
    def is_taker(self) -> np.ndarray:
        return self.table.is_taker[self.position]


@dataclass
class Playout:
    """The outcome of N deals played to the end, and what is needed to write their records.

    Scoring inputs (all (N,)): ``taker_points2`` int64 doubled points of the taker's side;
    ``bouts`` int64; ``petit_au_bout`` int8 (+1 taker's side, −1 defence, 0 none); ``chelem``
    int8 (+1 taker's side won every trick, −1 the defence did, 0 neither); ``poignee_bonus`` int64
    the sum of the poignées shown; ``partner`` int64 (−1 none). Records: ``played_lo``/``_hi``
    (T·n, N) uint64 every card in play order as one-bit pairs (:attr:`plays` as card ids),
    ``leaders`` (N, T) int64, ``discard`` (N, c) uint8 (Prise/Garde only, else None),
    ``shown_hi`` (n, N) uint64.
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
    played_lo: np.ndarray
    played_hi: np.ndarray
    leaders: np.ndarray
    chien: np.ndarray
    discard: np.ndarray | None
    shown_hi: np.ndarray

    def __len__(self) -> int:
        return len(self.taker)

    @property
    def plays(self) -> np.ndarray:
        """(N, T, n) uint8 card ids, each trick's cards in play order from its leader."""
        n_tricks = self.leaders.shape[1]
        ids = _card_ids(self.played_lo, self.played_hi)
        return ids.reshape(n_tricks, self.players, len(self)).transpose(2, 0, 1)


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
        holder = bb.select(holds.any(axis=0), holds.argmax(axis=0), -1)
        partner = bb.select(holder == taker, -1, holder)
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
    seats = np.repeat(np.arange(players)[:, None], n_deals, axis=1)
    n_tricks = hand_size(players)
    table = Table(
        players=players,
        contract=contract,
        n_tricks=n_tricks,
        seat=seats,
        hands_lo=hands_lo,
        hands_hi=hands_hi,
        on_taker_side=taker_side,
        is_taker=seats == taker,
        is_partner=seats == partner,
        shown_hi=shown_hi,
        called_lo=called_lo,
        called_hi=called_hi,
        ecart_lo=ecart_lo,
        ecart_hi=ecart_hi,
    )
    table.turn_to(taker.copy() if announce_chelem else np.zeros(n_deals, np.int64))

    played_lo: list[np.ndarray] = []  # each card played, in order, as a one-bit pair
    played_hi: list[np.ndarray] = []
    leaders = np.zeros((n_deals, n_tricks), np.int64)
    exchange2 = np.zeros(n_deals, np.int64)  # half points the Excuse's exchange moves to the taker
    petit_trick_side = np.zeros((n_tricks, n_deals), np.int8)  # ±1 side winning the Petit's trick
    won_by_excuse = np.zeros(n_deals, bool)

    for trick_index in range(n_tricks):
        table.trick = trick_index
        leaders[:, trick_index] = table.seat[0]
        for position in range(players):
            legal_lo, legal_hi = table.legal()
            turn = Turn(table, position, legal_lo, legal_hi)
            card_lo, card_hi = _choose(turn, taker_policy, defence_policy, rng)
            played_lo.append(card_lo)
            played_hi.append(card_hi)
            table.play(card_lo, card_hi)

        last = trick_index == n_tricks - 1
        winner = table.best_position
        winner_taker = table.best_on_taker_side
        excuse_in = table.excuse_position >= 0
        excuse_side_taker = table.excuse_on_taker_side
        if last:
            # A side that won every trick before and plays the Excuse last wins the trick.
            side_swept = bb.select(
                excuse_side_taker, table.defence_tricks == 0, table.taker_tricks == 0
            )
            won_by_excuse = excuse_in & side_swept & (n_tricks > 1)
            winner = bb.select(won_by_excuse, table.excuse_position, winner)
            winner_taker = bb.select(won_by_excuse, excuse_side_taker, winner_taker)
        # The Excuse stays with its side, which gives half a point back — but played to the last
        # trick it goes to the winner, unless that side took every trick (a chelem).
        excuse_kept = excuse_in
        if last:
            chelem_now = bb.select(winner_taker, table.defence_tricks == 0, table.taker_tricks == 0)
            excuse_kept = excuse_in & chelem_now
        excuse_crosses = excuse_kept & (excuse_side_taker != winner_taker)
        trick_lo = table.trick_lo
        trick_hi = bb.select(excuse_kept, table.trick_hi & ~bb.EXCUSE_HI, table.trick_hi)
        won_lo |= bb.keep(winner_taker, trick_lo)
        won_hi |= bb.keep(winner_taker, trick_hi)
        won_hi |= bb.keep(excuse_kept & excuse_side_taker, bb.EXCUSE_HI)
        exchange2 += bb.select(excuse_crosses, bb.select(winner_taker, 1, -1), 0)
        has_petit = (table.trick_hi & bb.PETIT_HI) != ZERO
        petit_trick_side[trick_index] = bb.select(has_petit, bb.select(winner_taker, 1, -1), 0)
        table.taker_tricks += winner_taker
        table.defence_tricks += ~winner_taker
        if not last:
            table.turn_to(winner)

    chelem = bb.select(
        table.defence_tricks == 0, 1, bb.select(table.taker_tricks == 0, -1, 0)
    ).astype(np.int8)
    petit_au_bout = petit_trick_side[-1].copy()
    if n_tricks > 1:
        before_last = petit_trick_side[-2]
        petit_au_bout = bb.select(won_by_excuse & (before_last != 0), before_last, petit_au_bout)
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
        played_lo=np.stack(played_lo),
        played_hi=np.stack(played_hi),
        leaders=leaders,
        chien=np.asarray(deals.chien),
        discard=discard,
        shown_hi=shown_hi,
    )


def _choose(turn: Turn, taker_policy, defence_policy, rng: np.random.Generator):
    card_lo, card_hi = taker_policy.choose(turn, rng)
    if defence_policy is taker_policy:
        return card_lo, card_hi
    defence_lo, defence_hi = defence_policy.choose(turn, rng)
    return (
        bb.select(turn.on_taker_side, card_lo, defence_lo),
        bb.select(turn.on_taker_side, card_hi, defence_hi),
    )


def _card_ids(card_lo: np.ndarray, card_hi: np.ndarray) -> np.ndarray:
    in_hi = card_hi != ZERO
    bit = bb.lowest_bit(bb.select(in_hi, card_hi, card_lo))
    return bb.card_of(in_hi.astype(np.int8), bit).astype(np.uint8)


def _cards_of_sets(lo: np.ndarray, hi: np.ndarray, count: int) -> np.ndarray:
    """(N, count) uint8 card ids of sets that each hold ``count`` cards, lowest bit first."""
    out = np.zeros((len(lo), count), np.uint8)
    lo, hi = lo.copy(), hi.copy()
    for column in range(count):
        in_hi = lo == ZERO
        word = bb.select(in_hi, hi, lo)
        single = bb.lowest(word)
        out[:, column] = _card_ids(bb.select(in_hi, ZERO, single), bb.keep(in_hi, single))
        lo = bb.select(in_hi, lo, lo ^ single)
        hi = bb.select(in_hi, hi ^ single, hi)
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
        need = bb.select(reached, threshold, need)
        bonus = bb.select(reached, value, bonus)
    shown = np.zeros(len(hand_hi), U64)
    remaining = need.copy()
    for group in (hand_hi & bb.MIDDLE_TRUMPS_HI, hand_hi & bb.TWENTY_ONE_HI, hand_hi & bb.PETIT_HI):
        group = group.copy()
        for _ in range(int(remaining.max(initial=0))):
            take = (remaining > 0) & (group != ZERO)
            if not take.any():
                break
            single = bb.lowest(group)
            shown |= bb.keep(take, single)
            group = bb.select(take, group ^ single, group)
            remaining -= take
    shown |= bb.keep(remaining > 0, hand_hi & bb.EXCUSE_HI)
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
        shown_hi[seat] = bb.keep(shows[seat], shown)
        total += bb.select(shows[seat], bonus, 0)
    return shown_hi, total
