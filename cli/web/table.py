"""The card-play table: whose turn it is and which cards may be played there, asked of the
referee (the page never states a rule of play), and the score sheet of a finished deal."""

from __future__ import annotations

import copy
from typing import Any

from tarot_advisor.analyzer.cards import N_CARDS, format_card
from tarot_advisor.analyzer.rulebook.record import RecordError, RecordSyntaxError, replay_game
from tarot_advisor.analyzer.rulebook.rules import RuleError
from tarot_advisor.analyzer.search.position import (
    DEAL_OVER,
    Position,
    PositionError,
    read_position,
)
from tarot_advisor.cli.errors import InputError
from tarot_advisor.cli.replay import summary


def next_cards(data: Any) -> dict:
    """For the partial record ``data``: ``{"over": true}`` once every card is played, else
    ``to_play`` (a seat), ``yours`` (the user's turn), ``seats`` (who played each card of each
    trick so far) and ``cards``, the cards that may be played there: the user's legal cards, or
    every unseen card the referee accepts from that seat (one it has shown it lacks, or a card
    it cannot hold, is refused)."""
    try:
        position = read_position(data)
    except PositionError as error:
        if str(error) == DEAL_OVER:
            return {"over": True}
        raise InputError(str(error)) from None
    seat = position.to_play
    if seat == position.seat:
        cards = position.legal()
    else:
        cards = [card for card in _unseen(position) if _accepted(data, position, card)]
    return {
        "over": False,
        "to_play": seat,
        "yours": seat == position.seat,
        "cards": [format_card(card) for card in cards],
        "seats": position.seats,
    }


def _unseen(position: Position) -> list[int]:
    seen = set(position.hand) | set(position.record.discard or ())
    seen |= {card for trick in position.record.tricks for card in trick}
    return [card for card in range(N_CARDS) if card not in seen]


def _accepted(data: dict, position: Position, card: int) -> bool:
    trial = copy.deepcopy(data)
    tricks = trial["tricks"]
    if position.current:
        tricks[-1].append(format_card(card))
    else:
        tricks.append([format_card(card)])
    try:
        read_position(trial)
    except PositionError as error:
        # The deal's last card: every check passed but the one that says the deal is over.
        return str(error) == DEAL_OVER
    return True


def deal_summary(data: Any) -> dict:
    """The score sheet of a finished deal record: ``summary``, as ``tarot-replay`` prints it,
    ``outcome``, as ``tarot-replay --json`` gives it, and ``seats``, who played each card of each
    trick (for the page to name the players)."""
    try:
        game = replay_game(data)
    except (RecordError, RecordSyntaxError, RuleError) as error:
        raise InputError(str(error)) from None
    outcome = game.outcome()
    return {
        "summary": summary(1, outcome),
        "outcome": outcome.as_dict(),
        "seats": [list(trick.seats) for trick in game.tricks],
    }
