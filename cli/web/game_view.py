"""What the player of a deal against the computer may know of it (rules.md §12), as the page
shows it and as the card-play advice reads it (a partial record, design.md)."""

from __future__ import annotations

from collections.abc import Iterable

from tarot_advisor.analyzer.cards import IS_TRUMP, format_card, sort_cards
from tarot_advisor.analyzer.game import BIDS
from tarot_advisor.analyzer.rulebook.referee import Game
from tarot_advisor.cli.web.game_deal import Deal


def names(cards: Iterable[int]) -> list[str]:
    """The cards' names, sorted as the command line prints a hand."""
    return [format_card(card) for card in sort_cards(cards)]


def _in_order(cards) -> list[str]:
    return [format_card(card) for card in cards]


def public_view(state: Deal) -> dict:
    """The deal as the player sees it: seat, hand, bids, contract, chien when shown, the écart
    (the player's own, or the trumps shown from the taker's), the poignées shown, the tricks
    and the trick on the table (each card with its seat), and the player's partner once known
    (5 players)."""
    taker = state.taker
    view = {
        "players": state.players,
        "seed": state.seed,
        "table": state.table,
        "seat": state.seat,
        "dealer": state.dealer,
        "hand": names(_hand(state)),
        "bids": [BIDS[bid] for bid in state.bids],
        "void": state.void,
        "taker": taker,
        "contract": None if state.contract is None else state.contract.value,
        "called": None if state.called is None else format_card(state.called),
        "chien": names(state.chien) if _chien_shown(state) else None,
        "discard": _discard(state),
        "chelem_announced": state.chelem,
        "poignees": [],
        "tricks": [],
        "current": {"cards": [], "seats": []},
        "to_play": None,
        "your_partner": None,
    }
    game = state.game
    if game is not None:
        view["poignees"] = [
            {"seat": seat, "cards": names(cards)}
            for seat, cards in game.shown_poignees
            if seat in _seats_played(game)
        ]
        view["tricks"] = [
            {"cards": _in_order(t.cards), "seats": list(t.seats), "winner": t.winner}
            for t in game.tricks
        ]
        view["current"] = {"cards": _in_order(game.current), "seats": _current_seats(game)}
        view["to_play"] = None if game.is_over else game.to_play
        view["your_partner"] = _your_partner(state, game)
    return view


def _hand(state: Deal) -> tuple[int, ...]:
    """The cards the player holds now: as dealt until the écart, then as played, less the
    cards played."""
    if state.game is None:
        return state.hands[state.seat]
    return tuple(state.game.hand(state.seat))


def _chien_shown(state: Deal) -> bool:
    """In Prise and Garde the chien is shown to all after the auction (and the call)."""
    return state.contract is not None and state.contract.takes_chien and state.asked != "call"


def _discard(state: Deal) -> list[str] | None:
    """The player's own écart, or the trumps the taker put in it (shown to all), or ``None``."""
    if state.discard is None:
        return None
    if state.taker == state.seat:
        return names(state.discard)
    trumps = [card for card in state.discard if IS_TRUMP[card]]
    return names(trumps) if trumps else None


def _current_seats(game: Game) -> list[int]:
    return [(game.leader + i) % game.players for i in range(len(game.current))]


def _seats_played(game: Game) -> set[int]:
    """The seats that have played a card: a poignée is shown with its player's first card."""
    if game.tricks:
        return set(range(game.players))
    return set(_current_seats(game))


def _your_partner(state: Deal, game: Game) -> int | None:
    """The player's partner as the player knows it (5 players): the taker for the called card's
    holder; the holder for the taker, once the called card is played."""
    if game.partner is None or state.seat not in (game.taker, game.partner):
        return None
    if state.seat == game.partner:
        return game.taker
    played = [card for trick in game.tricks for card in trick.cards] + list(game.current)
    return game.partner if game.called in played else None


def partial_record(state: Deal) -> dict:
    """The player's position now as a partial record (design.md): the tricks so far, the hand,
    the chien when shown, the écart as the player knows it, the poignées shown by now."""
    game = state.game
    record = {
        "players": state.players,
        "taker": game.taker,
        "contract": game.contract.value,
        "called": None if game.called is None else format_card(game.called),
        "first_leader": game.first_leader,
        "chelem_announced": game.chelem_announced,
        "poignees": [
            {"seat": seat, "cards": names(cards)}
            for seat, cards in game.shown_poignees
            if seat in _seats_played(game)
        ],
        "tricks": [_in_order(t.cards) for t in game.tricks]
        + ([_in_order(game.current)] if game.current else []),
        "seat": state.seat,
        "hand": names(game.hand(state.seat)),
    }
    if _chien_shown(state):
        record["chien"] = names(state.chien)
    discard = _discard(state)
    if discard is not None:
        record["discard"] = discard
    return record
