"""``POST /api/game``: a deal against the computer, as the player sees it.

The body names the deal and the player's moves so far::

    {"players": 4, "seed": 17, "table": "lookahead",
     "moves": [{"bid": "garde"}, {"ecart": ["9♠", …], "chelem": false},
               {"card": "R♥", "poignee": ["21", …]}, {"card": "3♣"}, …]}

and the answer is the deal replayed to the player's next decision (:mod:`.game_deal`): what the
player may know of it (its hand, the bids, the chien when shown, the poignées shown, the tricks),
what is asked now with the options the rules allow, and at the end the deal record and the
referee's score sheet. The bodies of the advice's own jobs come with it (``/api/jobs/advise``
for a bid or an écart, ``/api/jobs/play`` for the cards' ranking, ``/api/jobs/review`` for the
review of the player's decisions), so that the page asks the advice exactly as it asks it
elsewhere, from what the player may know.

A request replays at most one deal of the computer's decisions: a fraction of a second with the
lookahead (docs/game.md has the measures), far inside the budget of :mod:`.budget`; its moves
are counted, so no body makes it longer.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from tarot_advisor.analyzer.advice.bids import legal_actions
from tarot_advisor.analyzer.cards import N_CARDS, CardError, format_card, parse_cards
from tarot_advisor.analyzer.game import (
    BIDS,
    PLAYER_COUNTS,
    POIGNEE_NAMES,
    hand_size,
    poignee_thresholds,
)
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout.poignee import show
from tarot_advisor.analyzer.rulebook.record import record_of_game
from tarot_advisor.analyzer.rulebook.rules import (
    IllegalCall,
    RuleError,
    check_called_card,
    poignee_bonus,
)
from tarot_advisor.analyzer.search.worlds import card_set
from tarot_advisor.cli.errors import InputError
from tarot_advisor.cli.web.game_deal import (
    TABLES,
    Deal,
    Move,
    MoveError,
    engine_ecart,
    play_deal,
    played_hands,
)
from tarot_advisor.cli.web.game_view import names, partial_record, public_view

KEYS = ("players", "seed", "table", "moves")
MAX_SEED = 2**63 - 1
_KINDS = ("bid", "call", "ecart", "card")


def answer(body: Any) -> str:
    """The JSON text of the deal of ``body`` at the player's next decision; bad input raises
    :class:`.errors.InputError` with one sentence."""
    players, seed, table, moves = read_body(body)
    try:
        state = play_deal(players, seed, table, moves)
    except (MoveError, RuleError) as error:
        raise InputError(str(error)) from None
    return json.dumps(view(state), ensure_ascii=False)


def read_body(body: Any) -> tuple[int, int, str, list[Move]]:
    """The players, the seed, the computer's table and the player's moves, checked."""
    if not isinstance(body, dict):
        raise InputError(f"the request's body is a JSON object with the keys {', '.join(KEYS)}")
    unknown = sorted(set(body) - set(KEYS))
    if unknown:
        raise InputError(f"unknown key {unknown[0]}: the keys are {', '.join(KEYS)}")
    players = _whole(body.get("players"), "players")
    if players not in PLAYER_COUNTS:
        raise InputError(f"players: French Tarot is played by 3, 4 or 5, not {players}")
    seed = _whole(body.get("seed"), "seed")
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed: a whole number from 0 to {MAX_SEED:,}, not {seed}")
    table = body.get("table", "lookahead")
    if table not in TABLES:
        raise InputError(f"table: the computer plays by {' or '.join(TABLES)}, not {table!r}")
    moves = body.get("moves", [])
    if not isinstance(moves, list):
        raise InputError('moves: a list of your moves, e.g. [{"bid": "garde"}]')
    most = hand_size(players) + 3  # a bid, a call, an écart, then the cards
    if len(moves) > most:
        raise InputError(f"moves: a {players}-player deal has at most {most} of yours")
    return players, seed, table, [_move(move, n) for n, move in enumerate(moves, 1)]


def _whole(value: Any, key: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        shown = "nothing" if value is None else json.dumps(value, ensure_ascii=False)[:40]
        raise InputError(f"{key}: expected a whole number, got {shown}")
    return value


def _move(data: Any, number: int) -> Move:
    where = f"move {number}"
    kinds = [kind for kind in _KINDS if isinstance(data, dict) and kind in data]
    if len(kinds) != 1:
        raise InputError(f"{where}: an object with one of the keys {', '.join(_KINDS)}")
    kind = kinds[0]
    extra = set(data) - {kind, "chelem", "poignee"}
    if extra:
        raise InputError(f"{where}: unknown key {sorted(extra)[0]}")
    chelem = data.get("chelem", False)
    if not isinstance(chelem, bool):
        raise InputError(f"{where}: chelem is true or false")
    poignee = _cards(data.get("poignee", []), f"{where}, poignee")
    if kind == "bid":
        bid = data["bid"]
        if bid not in BIDS:
            raise InputError(f"{where}: a bid is one of {', '.join(BIDS)}, not {bid!r}")
        return Move("bid", bid=bid, chelem=chelem)
    return Move(kind, cards=_cards(data[kind], f"{where}, {kind}"), poignee=poignee, chelem=chelem)


def _cards(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = " ".join(value)
    if not isinstance(value, str):
        raise InputError(f'{where}: cards as text, e.g. "R♥" or ["21", "20"]')
    try:
        return tuple(parse_cards(value))
    except CardError as error:
        raise InputError(f"{where}: {error}") from None


GAME_ECART_SAMPLES = 96
"""Deals of the game's écart advice: one round of the command's race (a few seconds, not its
ten), so that the advised écart is one click away; it keeps the usual écart unless another
beats it clearly."""
GAME_REVIEW_SAMPLES = 100
"""Deals per card of the game's review (the command's 500 took 15–53 s for a taker)."""


def view(state: Deal) -> dict:
    """What the player sees of ``state`` (:func:`.game_view.public_view`), what is asked now,
    and at the end the record and the score sheet."""
    shown = public_view(state)
    shown["asked"] = _asked(state)
    shown["over"] = state.asked is None
    if state.void:
        shown["scores"] = [0] * state.players
    elif state.asked is None:
        game = state.game
        record = record_of_game(game)
        record["bids"] = [BIDS[bid] for bid in state.bids]
        record["dealer"] = state.dealer
        shown["record"] = record
        shown["result"] = record["result"]
        shown["scores"] = record["result"]["scores"]
        shown["review"] = {
            "record": record,
            "seat": str(state.seat),
            **_tables(state),
            "samples": GAME_REVIEW_SAMPLES,
        }
    return shown


def _tables(state: Deal) -> dict:
    """The advice's table: the computer's own card play at both sides."""
    return {"taker": state.table, "defence": state.table}


def _asked(state: Deal) -> dict | None:
    if state.asked == "bid":
        options = list(legal_actions(state.bids))
        advice = {
            "hand": names(state.hands[state.seat]),
            "players": state.players,
            "position": state.seat + 1,
            "bids": [BIDS[bid] for bid in state.bids],
            **_tables(state),
        }
        return {"kind": "bid", "options": options, "advice": advice}
    if state.asked == "call":
        rank = [card for card in range(N_CARDS) if _callable(card, state)]
        return {"kind": "call", "options": names(rank)}
    if state.asked == "ecart":
        advice = {
            "hand": names(state.hands[state.seat]),
            "players": state.players,
            "chien": names(state.chien),
            "contract": state.contract.value,
            "position": state.seat + 1,
            **({"called": format_card(state.called)} if state.called is not None else {}),
            **_tables(state),
            "samples": GAME_ECART_SAMPLES,
        }
        return {
            "kind": "ecart",
            "pool": names(state.pool),
            "count": len(state.chien),
            "engine": names(engine_ecart(state)),
            "advice": advice,
        }
    if state.asked == "card":
        return {
            "kind": "card",
            "legal": [format_card(card) for card in state.game.legal_plays()],
            "poignees": _poignee_offers(state),
            "hint": {"record": partial_record(state)},
        }
    return None


def _callable(card: int, state: Deal) -> bool:
    try:
        check_called_card(card, state.hands[state.seat])
    except IllegalCall:
        return False
    return True


def _poignee_offers(state: Deal) -> list[dict]:
    """At the player's first card (every seat plays once in the first trick), each poignée the
    hand allows, simple first: its name, the trumps shown (as the engine shows that many,
    :func:`.poignee.show`) and its bonus; else none. A player may show a smaller poignée than
    the hand allows, and tell the defence less."""
    if state.game.tricks:
        return []
    hand = played_hands(state)[state.seat]
    hand_hi = card_set(hand)[1]
    held = bb.popcount(np.uint64(hand_hi) & bb.ALL_HI)
    offers = []
    for name, need in zip(POIGNEE_NAMES, poignee_thresholds(state.players), strict=True):
        if held >= need:
            shown = show(np.array([hand_hi], np.uint64), np.array([need]))
            cards = bb.to_cards(0, int(shown[0]))
            bonus = poignee_bonus(cards, hand, state.players)
            offers.append({"name": name, "cards": names(cards), "bonus": bonus})
    return offers
