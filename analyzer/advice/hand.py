"""The user's hand: checked before anything is dealt around it, and the cards it may call."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import sort_cards, suited
from ..game import check_players, hand_size
from ..rulebook.calling import callable_rank
from ..rulebook.rules import is_petit_sec


class HandError(ValueError):
    """A hand that cannot be analysed (wrong size, petit sec…)."""


def check_hand(hand: Sequence[int], players: int) -> tuple[int, ...]:
    """The hand, sorted, if it can be analysed; raises :class:`HandError` otherwise."""
    check_players(players)
    cards = sort_cards(hand)
    if len(set(cards)) != len(cards):
        raise HandError("the hand holds a card twice")
    if len(cards) != hand_size(players):
        raise HandError(f"a {players}-player hand has {hand_size(players)} cards, not {len(cards)}")
    if is_petit_sec(cards):
        raise HandError(
            "the hand is petit sec (the Petit alone, no Excuse): the deal is void and must be"
            " redealt"
        )
    return tuple(cards)


def call_candidates(hand: Sequence[int]) -> list[int]:
    """5 players: the cards the taker may call — the four of the rank to call (kings, unless
    the hand holds all four)."""
    rank = int(callable_rank(np.array([list(hand)], np.uint8))[0])
    return [suited(suit, rank) for suit in range(4)]
