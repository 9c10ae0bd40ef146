"""Hand-made positions (4 players unless said): a deal written in the card notation, a script of
the cards each seat plays before the position of interest, and the card the greedy policy then
chooses; end positions of 3, 4 and 5 players as partial records, and the card a policy plays
there."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping

import numpy as np

from tarot_advisor.analyzer.cards import N_CARDS, format_card, parse_cards
from tarot_advisor.analyzer.game import Contract, chien_size, hand_size
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.deal import Deals
from tarot_advisor.analyzer.playout.engine import Playout, play
from tarot_advisor.analyzer.rulebook.record import record_of_game
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.analyzer.rulebook.rules import is_petit_sec
from tarot_advisor.analyzer.search.midgame import continue_play, draw_worlds
from tarot_advisor.analyzer.search.position import read_position


class IllegalScript(AssertionError):
    """A scripted card the rules do not allow (or one the seat does not hold)."""


def deal_of(hands: Mapping[int, str], chien: str = "", players: int = 4) -> Deals:
    """A deal from each seat's cards in the notation. A hand given in part, an absent one and
    the chien are completed with the cards nobody was given, lowest card id first, seat 0 to
    the last seat then the chien."""
    given = {seat: parse_cards(text) for seat, text in hands.items()}
    chien_cards = parse_cards(chien) if chien else []
    named = [card for cards in given.values() for card in cards] + chien_cards
    if len(set(named)) != len(named):
        raise ValueError("a card is given to two places")
    rest = iter(sorted(set(range(N_CARDS)) - set(named)))
    row: list[int] = []
    for seat in range(players):
        cards = given.get(seat, [])
        row += cards + [next(rest) for _ in range(hand_size(players) - len(cards))]
    row += chien_cards + [next(rest) for _ in range(chien_size(players) - len(chien_cards))]
    return Deals(players, np.array([row], np.uint8))


class SeatScript:
    """Plays, for each seat of ``script``, its listed cards: the first in trick 1, the next in
    trick 2, and so on. A turn beyond a seat's script is left to ``otherwise`` (by default the
    greedy policy). A scripted card the rules forbid raises :class:`IllegalScript`, so that a
    position can only be reached by legal play."""

    name = "scripted"

    def __init__(self, script: Mapping[int, str], otherwise=None) -> None:
        self.cards = {seat: parse_cards(text) for seat, text in script.items()}
        self.otherwise = otherwise or GreedyPolicy()

    def choose(self, turn, rng):
        table = turn.table
        seat = int(table.seat[turn.position, 0])
        cards = self.cards.get(seat, [])
        if table.trick >= len(cards):
            return self.otherwise.choose(turn, rng)
        card = cards[table.trick]
        lo, hi = bb.from_cards(np.array([[card]], np.uint8))
        if not ((lo & turn.legal_lo) | (hi & turn.legal_hi)).any():
            raise IllegalScript(
                f"seat {seat} may not play {format_card(card)} in trick {table.trick + 1}"
            )
        return lo, hi


def play_position(
    deal: Deals,
    taker: int,
    script: Mapping[int, str],
    contract: str = "garde_sans",
    poignees: bool = False,
    called: str | None = None,
) -> Playout:
    """Plays ``deal`` to the end: the scripted cards first, then the greedy policy for every
    seat. Garde Sans by default, so the taker plays the hand he was dealt; no poignée shown
    unless ``poignees`` (then every seat shows what its hand allows). ``called``: the card the
    taker calls (5 players)."""
    policy = SeatScript(script)
    return play(
        deal,
        taker,
        Contract.parse(contract),
        policy,
        policy,
        rng=np.random.default_rng(0),
        taker_poignee=poignees,
        others_poignees=poignees,
        called=None if called is None else parse_cards(called)[0],
    )


def card_played(playout: Playout, seat: int, trick: int) -> str:
    """The card ``seat`` played in ``trick`` (1 for the first), in the notation."""
    leader = int(playout.leaders[0, trick - 1])
    return format_card(int(playout.plays[0, trick - 1, (seat - leader) % playout.players]))


def suit_but(suit: str, but: str = "") -> str:
    """Every card of ``suit`` (♠ ♥ ♦ ♣), high to low, but the cards of ``but``."""
    ranks = ["R", "D", "C", "V", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
    return " ".join(card for card in (rank + suit for rank in ranks) if card not in but.split())


def hand_of(players: int, *parts: str) -> str:
    """The cards of ``parts`` cut to the size of a hand: a hand whose tail fills it up."""
    return " ".join(" ".join(parts).split()[: hand_size(players)])


def first_card(
    players: int,
    hands: Mapping[int, str],
    taker: int,
    seat: int,
    script: Mapping[int, str] | None = None,
    called: str | None = None,
) -> str:
    """The card ``seat`` plays to trick 1 of the deal ``hands`` (:func:`deal_of`), after the
    scripted cards of the seats before it."""
    deal = deal_of(hands, players=players)
    playout = play_position(deal, taker=taker, script=script or {}, called=called)
    return card_played(playout, seat=seat, trick=1)


def end_position(
    players: int,
    contract: str,
    taker: int,
    leader: int,
    kept: dict[int, str],
    seed: int,
    called: str | None = None,
) -> dict:
    """A partial record, as ``leader`` sees it, whose seats still hold ``kept`` (seat → cards)
    and where ``leader`` is to lead: a random legal deal played at random by the referee, the
    kept cards never played, tried again until such a deal gives ``leader`` the lead."""
    rng = random.Random(seed)
    kept_cards = {seat: parse_cards(text) for seat, text in kept.items()}
    left = len(next(iter(kept_cards.values())))
    reserved = {c for cards in kept_cards.values() for c in cards}
    for _ in range(5000):
        rest = [c for c in range(78) if c not in reserved]
        rng.shuffle(rest)
        size, hands = hand_size(players) - left, []
        for seat in range(players):
            hands.append(kept_cards[seat] + rest[seat * size : (seat + 1) * size])
        chien = rest[players * size :]
        assert len(chien) == chien_size(players)
        if any(is_petit_sec(hand) for hand in hands):
            continue
        call = None if called is None else parse_cards(called)[0]
        game = Game(players, hands, taker, Contract(contract), chien=chien, called=call)
        while len(game.tricks) < hand_size(players) - left:
            free = [c for c in game.legal_plays() if c not in reserved]
            if not free:
                break
            game.play(rng.choice(free))
        if len(game.tricks) == hand_size(players) - left and game.to_play == leader:
            record = record_of_game(game, with_result=False)
            record.pop("chien")
            record.pop("discard")
            record["seat"] = leader
            record["hand"] = [format_card(c) for c in kept_cards[leader]]
            return json.loads(json.dumps(record))
    raise AssertionError("no deal reaches that end position")


def first_choice(data: dict, policy, runs: int = 6) -> set[str]:
    """The cards ``policy`` plays at the position of the partial record ``data``, continued in
    ``runs`` consistent worlds (seed 0; a lookahead searches its own worlds at each decision)."""
    position = read_position(data)
    rng = np.random.default_rng(0)
    run = continue_play(position, draw_worlds(position, runs, rng), None, rng, policy)
    step = sum(len(trick) for trick in data["tricks"])
    return {format_card(card) for card in run.playout.plays.reshape(runs, -1)[:, step]}
