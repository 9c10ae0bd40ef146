"""A deal against the computer, replayed from its seed and the player's moves.

The server keeps nothing between requests: the seed deals the cards and seats the player, and
every request replays the deal from the first bid with the player's moves so far, the computer
deciding for the other seats, until the player is asked something again (or the deal is over).
The replay is cheap (a whole deal of the lookahead's cards takes a fraction of a second) and
deterministic: the computer's searches draw their worlds from the deal's key, the card and the
seat (:mod:`...playout.keys`), never from a shared stream, so the same moves always meet the same
answers.

The computer plays as the engine plays the deals of the advice: it bids by the calibrated point
count (:class:`.auction.PointCountBidder`), calls the king of its longest suit, makes the
engine's écart, shows the largest poignée its hand allows, never announces a chelem, and plays
its cards with the chosen policy (the lookahead, or the greedy for a quick table), each seat
from what it may know (the engine's knowledge model, rules.md §12). Every card, the player's
and the computer's, is played through the referee (:class:`.referee.Game`), which refuses an
illegal one and scores the deal.

Seats are numbered in the order of play, 0…n−1; the dealer is the last seat, so the auction
and the first trick start at seat 0 (position 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from tarot_advisor.analyzer.advice.auction import DEFAULT_MODEL, bidder
from tarot_advisor.analyzer.advice.bids import legal_actions, parse_bids
from tarot_advisor.analyzer.cards import format_card, sort_cards
from tarot_advisor.analyzer.game import BIDS, Contract, chien_size
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import DealSets, deal
from tarot_advisor.analyzer.playout.ecart import FixedEcart, GreedyEcart
from tarot_advisor.analyzer.playout.engine import InPlay, play_on, start
from tarot_advisor.analyzer.playout.poignee import GreedyPoignee
from tarot_advisor.analyzer.playout.table import Candidate, Policy, Turn
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.analyzer.rulebook.rules import (
    IllegalPlay,
    check_called_card,
    check_discard,
    poignee_bonus,
)
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy
from tarot_advisor.analyzer.search.worlds import card_set

TABLES = {"lookahead": LookaheadPolicy, "greedy": GreedyPolicy}
"""The computer's card play by name: the lookahead (the advice's own), or the greedy (quick)."""
_SEAT, _BIDS, _PLAY = 1, 2, 3
"""The random streams of a seed besides the deal's: the player's seat, each seat's judgement of
its hand in the auction, the card play (the searches draw from the deal's key, not from it)."""


class MoveError(ValueError):
    """A move the deal does not allow now: one sentence for the player."""


@dataclass(frozen=True)
class Move:
    """One of the player's decisions: ``kind`` "bid" (``bid``: a name of :data:`~.game.BIDS`),
    "call" (``cards``: the called card), "ecart" (``cards``: the écart) or "card" (``cards``:
    the card played; ``poignee``: the trumps shown, with the first card only). ``chelem``: a
    chelem announced, with the écart, or with the bid of a Garde Sans or Contre."""

    kind: str
    bid: str = ""
    cards: tuple[int, ...] = ()
    poignee: tuple[int, ...] = ()
    chelem: bool = False


@dataclass
class Deal:
    """A deal as far as the player's moves take it. ``hands`` are the hands as dealt, by seat;
    ``bids`` the bids so far as indices into :data:`~.game.BIDS`, from seat 0; ``asked`` what
    the player must decide now ("bid", "call", "ecart", "card") or ``None`` once the deal is
    over (``void``: everybody passed). ``game`` is the referee's, from the first card on."""

    players: int
    seed: int
    table: str
    seat: int
    hands: tuple[tuple[int, ...], ...]
    chien: tuple[int, ...]
    keys: np.ndarray
    bids: list[int] = field(default_factory=list)
    taker: int | None = None
    contract: Contract | None = None
    called: int | None = None
    discard: tuple[int, ...] | None = None
    chelem: bool = False
    asked: str | None = None
    void: bool = False
    game: Game | None = None

    @property
    def dealer(self) -> int:
        return self.players - 1

    @property
    def pool(self) -> tuple[int, ...]:
        """The taker's hand and the chien (Prise and Garde): what the écart is made from."""
        assert self.taker is not None
        return tuple(sort_cards([*self.hands[self.taker], *self.chien]))


def dealt(players: int, seed: int, table: str) -> Deal:
    """The cards the seed deals (no petit sec) and the player's seat, before the first bid."""
    cards = deal(np.random.default_rng(seed), 1, players, reject_petit_sec=True)
    seat = int(np.random.default_rng([seed, _SEAT]).integers(players))
    hands = tuple(tuple(sort_cards(hand)) for hand in cards.hands[0].tolist())
    chien = tuple(sort_cards(cards.chien[0].tolist()))
    return Deal(players, seed, table, seat, hands, chien, cards.keys)


def play_deal(players: int, seed: int, table: str, moves: Sequence[Move]) -> Deal:
    """The deal of ``seed`` played to the point where the player must decide again, or to the
    end (:func:`play`)."""
    return play(dealt(players, seed, table), moves)


def play(state: Deal, moves: Sequence[Move]) -> Deal:
    """``state`` (a deal as dealt; bids already made are kept) played with the player's
    ``moves`` to the point where the player must decide again, or to the end. Raises
    :class:`MoveError` for a move out of turn, and the referee's :class:`.rules.RuleError` for
    one the rules forbid."""
    queue = _Moves(moves)
    if _auction(state, queue) and _call(state, queue) and _ecart(state, queue):
        _play(state, queue)
    queue.check_all_used(state)
    return state


class _Moves:
    """The player's moves, taken in order: each must be the kind the deal asks for."""

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves = list(moves)
        self.used = 0

    def take(self, kind: str) -> Move | None:
        if self.used == len(self.moves):
            return None
        move = self.moves[self.used]
        if move.kind != kind:
            raise MoveError(
                f"move {self.used + 1}: the deal asks for your {_WORDS[kind]} here,"
                f" not your {_WORDS[move.kind]}"
            )
        self.used += 1
        return move

    def first_card(self) -> Move | None:
        """The player's first card, if already played (it carries the poignée)."""
        return next((move for move in self.moves if move.kind == "card"), None)

    def check_all_used(self, state: Deal) -> None:
        if self.used < len(self.moves):
            when = "the deal is over" if state.asked is None else "the deal is not there yet"
            raise MoveError(f"move {self.used + 1} is one too many: {when}")


_WORDS = {"bid": "bid", "call": "called card", "ecart": "écart", "card": "card"}


def _auction(state: Deal, queue: _Moves) -> bool:
    """Each seat speaks once from seat 0: the player's bid, or the computer's by the
    calibrated count (its want when that is above every bid so far, else a pass, as the
    advice's model of the others). False while the player's bid is awaited."""
    model = bidder(DEFAULT_MODEL)
    for seat in range(len(state.bids), state.players):
        if seat == state.seat:
            move = queue.take("bid")
            if move is None:
                state.asked = "bid"
                return False
            allowed = legal_actions(state.bids)
            if move.bid not in allowed:
                raise MoveError(f"you may say {', '.join(allowed)} now, not {move.bid}")
            bid = BIDS.index(move.bid)
            # A chelem is announced with a Garde Sans or Contre; after a Prise or Garde's écart.
            state.chelem = bid > 0 and move.chelem and not Contract(move.bid).takes_chien
        else:
            hand = np.array([state.hands[seat]], np.uint8)
            judged = np.random.default_rng([state.seed, _BIDS, seat])
            want = int(model.wants(hand, state.players, judged)[0])
            bid = want if want > max(state.bids, default=0) else 0
        state.bids.append(bid)
    parse_bids([BIDS[bid] for bid in state.bids], state.players, whole=True)  # the auction's rules
    highest = max(state.bids)
    if highest == 0:
        state.void = True  # everybody passed: the deal is void (rules.md §2)
        return False
    state.taker = state.bids.index(highest)
    state.contract = Contract(BIDS[highest])
    if state.taker != state.seat:
        state.chelem = False
    return True


def _call(state: Deal, queue: _Moves) -> bool:
    """The 5-player call: the player's card (checked by the rules), or the computer's king of
    its longest suit. False while the player's call is awaited."""
    if state.players != 5:
        return True
    hand = state.hands[state.taker]
    if state.taker != state.seat:
        state.called = int(longest_suit_call(np.array([hand], np.uint8))[0])
        return True
    move = queue.take("call")
    if move is None:
        state.asked = "call"
        return False
    if len(move.cards) != 1:
        raise MoveError("call one card")
    check_called_card(move.cards[0], hand)
    state.called = move.cards[0]
    return True


def _ecart(state: Deal, queue: _Moves) -> bool:
    """The écart of a Prise or a Garde: the player's (checked by the rules, with the chelem
    announced or not), or the engine's. False while the player's écart is awaited."""
    if not state.contract.takes_chien:
        return True
    if state.taker != state.seat:
        state.discard = engine_ecart(state)
        return True
    move = queue.take("ecart")
    if move is None:
        state.asked = "ecart"
        return False
    check_discard(state.pool, move.cards, state.players)
    state.discard = tuple(sorted(move.cards))
    state.chelem = move.chelem
    return True


def engine_ecart(state: Deal) -> tuple[int, ...]:
    """The écart the engine would make from the taker's hand and the chien."""
    lo, hi = card_set(state.pool)
    ecart = GreedyEcart().choose(
        np.array([lo], np.uint64), np.array([hi], np.uint64), chien_size(state.players)
    )
    return tuple(bb.to_cards(int(ecart[0][0]), int(ecart[1][0])))


def played_hands(state: Deal) -> list[tuple[int, ...]]:
    """The hands as played: the taker's after the écart in Prise and Garde."""
    hands = list(state.hands)
    if state.discard is not None:
        hands[state.taker] = tuple(c for c in state.pool if c not in state.discard)
    return hands


class _Seats:
    """The card play of every seat: the player's cards as given, one at a time (the computer's
    policy still watches them go by, as it must see every card), the policy's for the others."""

    name = "game"

    def __init__(self, computer: Policy, player: int) -> None:
        self.computer = computer
        self.player = player
        self.card: Candidate | None = None

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        if int(turn.table.seat[turn.position, 0]) != self.player:
            return self.computer.choose(turn, rng)
        if hasattr(self.computer, "observe"):
            self.computer.observe(turn)
        assert self.card is not None, "the player's card is asked before it is given"
        card, self.card = self.card, None
        return card


def _start(state: Deal, shown: tuple[int, ...]) -> InPlay:
    """The engine's table for the deal: the écart made, the computer's poignées shown (the
    engine's choice) and the player's (``shown``, given with the first card), the first leader
    to play."""
    n = state.players
    hands = [card_set(hand) for hand in state.hands]
    chien = card_set(state.chien)
    ecart = card_set(state.discard or ())
    game = start(
        DealSets(
            n,
            np.array([[lo] for lo, _ in hands], np.uint64),
            np.array([[hi] for _, hi in hands], np.uint64),
            np.array([chien[0]], np.uint64),
            np.array([chien[1]], np.uint64),
            keys=state.keys,
        ),
        state.taker,
        state.contract,
        called=state.called,
        ecart_policy=FixedEcart(np.array([ecart[0]], np.uint64), np.array([ecart[1]], np.uint64)),
        poignee_policy=GreedyPoignee(),
        announce_chelem=state.chelem,
    )
    # The table's shown_hi (a row per seat) is the game's too: one array for both.
    game.table.shown_hi[state.seat, 0] = card_set(shown)[1]
    return game


def poignees_shown(game: InPlay) -> list[tuple[int, tuple[int, ...]]]:
    """(seat, trumps) of every poignée the table's seats show."""
    shown = game.table.shown_hi[:, 0]
    return [(seat, tuple(bb.to_cards(0, int(hi)))) for seat, hi in enumerate(shown) if hi]


def _play(state: Deal, queue: _Moves) -> None:
    """The cards, one at a time through the referee: the player's as given (an illegal one is
    refused with the referee's sentence), the computer's as its policy chooses them."""
    first = queue.first_card()
    if first and first.poignee:
        poignee_bonus(first.poignee, played_hands(state)[state.seat], state.players)
    engine = _start(state, first.poignee if first else ())
    state.game = Game(
        state.players,
        played_hands(state),
        state.taker,
        state.contract,
        chien=state.chien,
        discard=state.discard,
        called=state.called,
        poignees=poignees_shown(engine),
        chelem_announced=state.chelem,
    )
    seats = _Seats(TABLES[state.table](), state.seat)
    rng = np.random.default_rng([state.seed, _PLAY])
    referee = state.game
    while not referee.is_over:
        seat = referee.to_play
        if seat == state.seat:
            move = queue.take("card")
            if move is None:
                state.asked = "card"
                return
            if move.poignee and move is not first:
                raise MoveError("a poignée is shown with your first card, not later")
            if len(move.cards) != 1:
                raise MoveError("play one card at a time")
            try:
                referee.play(move.cards[0])
            except IllegalPlay as error:  # the referee's rule, said to the player
                raise MoveError(
                    f"trick {error.trick}: you may not play {format_card(error.card)}: {error.rule}"
                ) from None
            lo, hi = card_set(move.cards)
            seats.card = np.array([lo], np.uint64), np.array([hi], np.uint64)
        if int(engine.table.seat[engine.table.position, 0]) != seat:
            raise AssertionError("the engine and the referee disagree on whose turn it is")
        step = engine.step
        play_on(engine, seats, rng=rng, until=step + 1)
        lo, hi = engine.tally.played_lo[step, 0], engine.tally.played_hi[step, 0]
        (card,) = bb.to_cards(int(lo), int(hi))
        if seat != state.seat:
            referee.play(card)  # the computer's card, refereed like any other
        elif card != move.cards[0]:
            raise AssertionError("the engine played another card than the player's")
