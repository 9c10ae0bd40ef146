"""N deals continued from a position: the worlds of the hidden cards, played on to the end.

Each world (a deal of the hidden cards, :mod:`worlds`) is turned back into the deal it came
from — every seat's hand is what it holds now plus what it played — and given to the engine
(:func:`engine.play`) with policies that replay the record: the écart and the poignées as the
world has them, then every card already played, then a *candidate* card for the player to act,
then the policy (the greedy by default) to the end. Replaying the record through the engine
rebuilds exactly the state a mid-deal table would hold (voids shown, cards seen, tricks won),
with no second copy of the engine's rules.

A search that follows a table card by card (the lookahead) need not replay: a :class:`Shadow`
keeps the deals' public state, played on by the same engine with the cards the table plays
(with 5 players, once for each partner the taker may have), and each world only adds its
hidden cards to it. A test replays the same worlds and checks the play is the same, card for
card.

Seats: the engine's seat 0 leads the first trick, so record seat ``s`` is engine seat
``(s − first_leader) mod n``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import TAKES_CHIEN, Contract, contract_codes
from ..players.greedy import GreedyPolicy
from ..playout.bitboard import U64, ZERO
from ..playout.deal import DealSets
from ..playout.ecart import FixedEcart
from ..playout.engine import InPlay, Playout, follow, play_on, start
from ..playout.table import Candidate, Policy, Table, Turn
from .position import Position, no_petit_sec
from .position import constraints as position_constraints
from .worlds import NoWorldError, Worlds, card_set, sample


def draw_worlds(position: Position, k: int, rng: np.random.Generator) -> Worlds:
    """``k`` worlds of the position's hidden cards, uniform among those consistent with what
    the user knows (and dealing no Petit sec): (lo, hi) uint64 of shape (k, n + 1), holders by
    record seat then the aside (chien or écart). What is only likely (the taker lacks the card
    he called) shapes the worlds unless no world fits it."""
    try:
        lo, hi = sample(position_constraints(position), k, rng, accept=no_petit_sec(position))
    except NoWorldError:
        lo, hi = sample(
            position_constraints(position, likely=False), k, rng, accept=no_petit_sec(position)
        )
    return lo[0], hi[0]


@dataclass(frozen=True)
class Continuation:
    """Playouts of every candidate card on the same worlds: row ``c * K + w`` plays candidate
    ``c`` in world ``w``. ``user_seat`` is the user's seat in the engine's numbering."""

    playout: Playout
    candidates: tuple[int, ...]
    worlds: int
    user_seat: int


class _Replay:
    """Plays each row's recorded cards from the first ((S, R) one-bit pairs, in play order),
    then each row's candidate (if any), then ``then`` to the end."""

    name = "replay"

    def __init__(
        self,
        prefix: Candidate,
        candidate: Candidate | None,
        then: Policy,
        players: int,
    ) -> None:
        self.prefix_lo, self.prefix_hi = prefix
        self.candidate = candidate
        self.then = then
        self.players = players

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        step = turn.table.trick * self.players + turn.position
        scripted = step < len(self.prefix_lo) or (
            step == len(self.prefix_lo) and self.candidate is not None
        )
        if scripted and hasattr(self.then, "observe"):
            self.then.observe(turn)  # a policy that keeps the history must see every turn
        if step < len(self.prefix_lo):
            return turn.of(self.prefix_lo[step]), turn.of(self.prefix_hi[step])
        if step == len(self.prefix_lo) and self.candidate is not None:
            return turn.of(self.candidate[0]), turn.of(self.candidate[1])
        return self.then.choose(turn, rng)


class _Given:
    """Plays the cards it is given: one-bit (N,) pairs, one per deal."""

    name = "given"

    def __init__(self, card: Candidate) -> None:
        self.card = card

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        return turn.of(self.card[0]), turn.of(self.card[1])


class Shadow:
    """The deals of a table as everyone at it sees them, kept up to date card by card
    (:meth:`follow`): a search sets up its worlds from it at the current card (:meth:`worlds`)
    instead of replaying each world from the first card (:func:`replay_play`).

    With 5 players the sides are not public until the called card is played: each deal is
    followed once for each partner the taker may have (:data:`PARTNERS`: alone, or any other
    seat), and each world takes the one its hidden cards decide — the holder of the called
    card — with the tricks, points, Petit and Excuse as that partner makes them."""

    PARTNERS = 5
    """The partners a 5-player deal is followed under: the taker alone, then the seats after
    his, in order."""

    def __init__(self, table: Table) -> None:
        """``table`` before its first card."""
        self.table = table
        if table.players != 5:
            self.game = follow(table, table.columns, table.partner_seat.copy())
            return
        rows = np.repeat(table.columns, self.PARTNERS)
        after = np.tile(np.arange(self.PARTNERS), table.n_deals)  # 0: alone
        partner = np.where(after == 0, -1, (table.taker_seat[rows] + after) % 5)
        self.game = follow(table, rows, partner)

    def follow(self, card: Candidate) -> None:
        """The next card of every deal, (N,) one-bit pairs."""
        if self.table.players == 5:
            card = np.repeat(card[0], self.PARTNERS), np.repeat(card[1], self.PARTNERS)
        play_on(self.game, _Given(card), rng=_NEVER_DRAWN, until=self.game.step + 1)

    def worlds(
        self,
        rows: np.ndarray,
        hands_lo: np.ndarray,
        hands_hi: np.ndarray,
        aside_lo: np.ndarray,
        aside_hi: np.ndarray,
    ) -> InPlay:
        """The deals ``rows`` ((R,) int64, repeats allowed) at the current card, each with the
        hidden cards of a world: the hands now ((n, R) uint64 pairs, rows by seat) and the
        cards out of play ((R,) pairs, the écart in Prise and Garde, else the chien)."""
        if self.table.players == 5:
            rows = rows * self.PARTNERS + self._partner_column(rows, hands_lo, hands_hi)
        game = self.game.take(rows, keep_plays=False)
        game.deal_hidden(hands_lo, hands_hi, aside_lo, aside_hi)
        return game

    def _partner_column(
        self, rows: np.ndarray, hands_lo: np.ndarray, hands_hi: np.ndarray
    ) -> np.ndarray:
        """(R,) int64 each world's partner as a column of :data:`PARTNERS`: the seat that
        played the called card, once it is played; else its holder in the world (alone when
        it is the taker, or when nobody holds it: it is out of play)."""
        table = self.table
        holds = ((hands_lo & table.called_lo[rows]) | (hands_hi & table.called_hi[rows])) != ZERO
        holder = np.where(holds.any(axis=0), holds.argmax(axis=0), -1)
        partner = np.where(table.revealed[rows], table.partner_seat[rows], holder)
        taker = table.taker_seat[rows]
        return np.where((partner < 0) | (partner == taker), 0, (partner - taker) % 5)


_NEVER_DRAWN = np.random.default_rng(0)
"""The generator :meth:`Shadow.follow` hands the engine: the cards are given, nothing is drawn."""


def play_candidates(
    game: InPlay, candidate: Candidate, rng: np.random.Generator, policy: Policy
) -> Playout:
    """Play each row's ``candidate`` card (one-bit (R,) pairs) in ``game``, then ``policy`` for
    every seat to the end (the game is played on in place)."""
    if hasattr(policy, "observe"):
        raise ValueError("a policy that keeps the history cannot play on from the middle")
    # The candidate, then the policy alone: the greedy plays the rest out in one compiled loop.
    play_on(game, _Given(candidate), rng=rng, until=game.step + 1)
    play_on(game, policy, rng=rng)
    return game.playout()


class _ShownPoignees:
    """Each seat shows the trumps it was seen to show (they are in its hand): ``shown_hi`` (R,)
    uint64 every trump shown, by anyone."""

    def __init__(self, shown_hi: np.ndarray) -> None:
        self.shown_hi = shown_hi

    def choose(self, hand_hi: np.ndarray, players: int) -> np.ndarray:
        return hand_hi & self.shown_hi


@dataclass(frozen=True)
class Replay:
    """R deals as the engine must replay them (engine seats: seat 0 leads the first trick
    unless a chelem was announced).

    ``hands_lo``/``hands_hi`` (R, n) uint64 each seat's cards, held or played (the taker's
    after his écart); ``aside_lo``/``aside_hi`` (R,) the cards out of play: the écart in Prise
    and Garde, else the chien; ``chien_lo``/``chien_hi`` (R,) the chien shown in Prise and
    Garde (0 where it is not known): the taker is dealt his cards and his écart less the chien,
    takes the chien and makes his écart again, and everyone has seen the chien, as at the
    table; ``taker`` (R,) int64; ``called`` (R,) int64 (5 players) or None; ``shown_hi`` (R,)
    trumps shown in poignées; ``prefix`` (S, R) one-bit pairs, the cards played so far in
    order; ``announce_chelem`` one, or (R,) bool.
    """

    hands_lo: np.ndarray
    hands_hi: np.ndarray
    aside_lo: np.ndarray
    aside_hi: np.ndarray
    chien_lo: np.ndarray
    chien_hi: np.ndarray
    taker: np.ndarray
    called: np.ndarray | None
    shown_hi: np.ndarray
    prefix: Candidate
    announce_chelem: bool | np.ndarray = False


def replay_play(
    contract: Contract | np.ndarray,
    replay: Replay,
    candidate: Candidate | None,
    rng: np.random.Generator,
    policy: Policy | None = None,
) -> Playout:
    """Play every row of ``replay``: the recorded cards, then the row's ``candidate`` card (a
    one-bit pair per row; None: the policy chooses), then ``policy`` (default: the greedy) for
    every seat to the end. ``contract``: one for every row, or (R,) int8 codes."""
    policy = policy or GreedyPolicy()
    rows, n = replay.hands_lo.shape
    codes = contract_codes(contract, rows)
    hands_lo, hands_hi = replay.hands_lo.T.copy(), replay.hands_hi.T.copy()
    taking = np.flatnonzero(TAKES_CHIEN[codes])
    at = replay.taker[taking], taking
    hands_lo[at] = (hands_lo[at] | replay.aside_lo[taking]) & ~replay.chien_lo[taking]
    hands_hi[at] = (hands_hi[at] | replay.aside_hi[taking]) & ~replay.chien_hi[taking]
    chien_lo, chien_hi = replay.aside_lo.copy(), replay.aside_hi.copy()
    chien_lo[taking], chien_hi[taking] = replay.chien_lo[taking], replay.chien_hi[taking]
    game = start(
        DealSets(n, hands_lo, hands_hi, chien_lo, chien_hi),
        replay.taker,
        codes,
        called=replay.called,
        ecart_policy=FixedEcart(replay.aside_lo[taking], replay.aside_hi[taking]),
        poignee_policy=_ShownPoignees(replay.shown_hi),
        announce_chelem=replay.announce_chelem,
    )
    scripted = len(replay.prefix[0]) + (candidate is not None)
    play_on(game, _Replay(replay.prefix, candidate, policy, n), rng=rng, until=scripted)
    play_on(game, policy, rng=rng)  # the policy alone (see play_candidates)
    return game.playout()


def position_replay(position: Position, lo: np.ndarray, hi: np.ndarray) -> Replay:
    """The :class:`Replay` of the worlds ``lo``/``hi`` ((R, n + 1) uint64, holders by record
    seat then the aside) of a position."""
    n, rows = position.record.players, len(lo)
    hands_lo = np.zeros((rows, n), U64)
    hands_hi = np.zeros((rows, n), U64)
    for seat in range(n):
        engine_seat = (seat - position.record.first_leader) % n
        played_lo, played_hi = card_set(position.played[seat])
        hands_lo[:, engine_seat] = lo[:, seat] | U64(played_lo)
        hands_hi[:, engine_seat] = hi[:, seat] | U64(played_hi)
    prefix = [card_set([card]) for trick in position.record.tricks for card in trick]
    prefix_lo = np.array([[lo for lo, _ in prefix]], U64).T.repeat(rows, axis=1)
    prefix_hi = np.array([[hi for _, hi in prefix]], U64).T.repeat(rows, axis=1)
    shown = card_set([c for _, cards in position.record.poignees for c in cards])[1]
    called = (
        None if position.record.called is None else np.full(rows, position.record.called, np.int64)
    )
    chien_lo, chien_hi = (
        card_set(position.record.chien or ()) if position.record.contract.takes_chien else (0, 0)
    )
    return Replay(
        hands_lo=hands_lo,
        hands_hi=hands_hi,
        aside_lo=lo[:, n].copy(),
        aside_hi=hi[:, n].copy(),
        chien_lo=np.full(rows, chien_lo, U64),
        chien_hi=np.full(rows, chien_hi, U64),
        taker=np.full(rows, (position.record.taker - position.record.first_leader) % n, np.int64),
        called=called,
        shown_hi=np.full(rows, shown, U64),
        prefix=(prefix_lo.reshape(len(prefix), rows), prefix_hi.reshape(len(prefix), rows)),
        announce_chelem=position.record.chelem_announced,
    )


def continue_play(
    position: Position,
    worlds: Worlds,
    candidates: list[int] | None,
    rng: np.random.Generator,
    policy: Policy | None = None,
) -> Continuation:
    """Play every candidate card (ids, each legal for the user) in every world, then on to the
    end with ``policy`` (default: the greedy) for every seat. ``candidates=None``: the policy
    chooses the user's card too (one row per world)."""
    if position.to_play != position.seat:
        raise ValueError(f"it is seat {position.to_play}'s turn, not seat {position.seat}'s")
    n = position.record.players
    lo, hi = worlds
    k = len(lo)
    copies = 1 if candidates is None else len(candidates)
    rows_lo, rows_hi = np.tile(lo, (copies, 1)), np.tile(hi, (copies, 1))
    candidate = None
    if candidates is not None:
        sets = [card_set([c]) for c in candidates]
        candidate = (
            np.repeat(np.array([lo for lo, _ in sets], U64), k),
            np.repeat(np.array([hi for _, hi in sets], U64), k),
        )
    playout = replay_play(
        position.record.contract,
        position_replay(position, rows_lo, rows_hi),
        candidate,
        rng,
        policy,
    )
    return Continuation(
        playout=playout,
        candidates=tuple(candidates or ()),
        worlds=k,
        user_seat=(position.seat - position.record.first_leader) % n,
    )
