"""The deal record (design.md "Deal record"): read, check, write, and replay through the referee.

A record is a JSON object; cards are written in the notation of :mod:`.cards`. Hands are implied
by the tricks: each seat's hand is what it played. Replaying rebuilds the hands, checks that the
78 cards are all there once, then plays every card through :class:`.referee.Game`, which refuses
the first illegal card and scores the deal. A record's ``"result"`` (whoever wrote it computed
it) is ignored.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import N_CARDS, CardError, format_card, format_cards, parse_cards
from ..game import PLAYER_COUNTS, Contract, hand_size
from .outcome import Outcome
from .referee import Game
from .rules import IllegalCall, as_contract, check_call_given, trick_winner

REQUIRED_KEYS = ("players", "taker", "contract", "first_leader", "tricks")
# "bids" and "dealer": the auction (design.md), read by the review (``advice.review``).
OPTIONAL_KEYS = (
    "chien",
    "called",
    "discard",
    "poignees",
    "chelem_announced",
    "result",
    "bids",
    "dealer",
)


class RecordError(ValueError):
    """A record that is not a well-formed deal record; the message names the field."""


class RecordSyntaxError(ValueError):
    """Text that is neither one JSON document nor JSON Lines."""


@dataclass(frozen=True)
class Record:
    """A parsed deal record: card ids instead of card names, the contract as a :class:`Contract`."""

    players: int
    taker: int
    contract: Contract
    called: int | None
    chien: tuple[int, ...] | None
    """``None`` when the record does not give it (a score sheet seldom knows it)."""
    discard: tuple[int, ...] | None
    poignees: tuple[tuple[int, tuple[int, ...]], ...]
    chelem_announced: bool
    first_leader: int
    tricks: tuple[tuple[int, ...], ...]


# --- reading ---------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """The text of a record file: UTF-8, with or without a byte-order mark; UTF-16 when it
    starts with one (Windows editors). Raises :class:`UnicodeDecodeError`."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    return data.decode("utf-8-sig")


def load_records(text: str) -> list[Any]:
    """The records in ``text``: one JSON document (an object, or a list of objects) or JSON Lines
    (one object per line, blank lines skipped). A leading byte-order mark is ignored.

    Raises :class:`RecordSyntaxError` when the text is none of these. In JSON Lines, a line that
    is not JSON does not stop the others: it stands in the list as the
    :class:`RecordSyntaxError` naming it, for the caller to report beside the good records.
    """
    text = text.removeprefix("\ufeff")
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise RecordSyntaxError("the input is empty: expected a deal record in JSON")
    try:
        document = _loads(text)
    except RecordSyntaxError as error:
        if len(lines) == 1:
            raise
        parsed = [_loads_line(number, line) for number, line in lines]
        # JSON Lines when most lines are objects; else one document with a fault somewhere.
        if 2 * sum(isinstance(item, dict) for item in parsed) < len(parsed):
            raise error from None
        return parsed
    if document == []:
        raise RecordSyntaxError("the input is an empty list: expected at least one deal record")
    return list(document) if isinstance(document, list) else [document]


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordSyntaxError(
            f"the input is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise RecordSyntaxError(
            "the input is not a deal record: its JSON is nested too deeply"
        ) from None
    except ValueError:  # Python's limit on the digits of an integer
        raise RecordSyntaxError(
            "the input is not a deal record: a number in it has thousands of digits"
        ) from None


def _loads_line(number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        return RecordSyntaxError(
            f"line {number} is not valid JSON: {error.msg} at column {error.colno}"
        )
    except RecursionError:
        return RecordSyntaxError(f"line {number} is not a deal record: nested too deeply")
    except ValueError:  # Python's limit on the digits of an integer
        return RecordSyntaxError(
            f"line {number} is not a deal record: a number has thousands of digits"
        )


def _brief(value: Any) -> str:
    """A value as an error message quotes it: JSON, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:36] + " …"


def _integer(data: Mapping, key: str, low: int, high: int, field: str = "") -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(
            f"{field or key}: expected a whole number from {low} to {high}, got {_brief(value)}"
        )
    return value


def cards_field(value: Any, field: str) -> tuple[int, ...]:
    """The cards of a record's ``field`` (a list of cards in the notation), or a
    :class:`RecordError` naming the field."""
    if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
        raise RecordError(f"{field}: expected a list of cards written as text, got {_brief(value)}")
    try:
        return tuple(parse_cards(value))
    except CardError as error:
        raise RecordError(f"{field}: {error}") from None


def _poignees(value: Any, players: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    if not isinstance(value, list):
        raise RecordError(
            f"poignees: expected a list of {{seat, cards}} objects, got {_brief(value)}"
        )
    shown = []
    for k, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != {"seat", "cards"}:
            raise RecordError(f"poignees[{k}]: expected an object with keys seat and cards")
        seat = _integer(item, "seat", 0, players - 1, f"poignees[{k}].seat")
        shown.append((seat, cards_field(item["cards"], f"poignees[{k}].cards")))
    return tuple(shown)


def parse_record(data: Any) -> Record:
    """Checks the shape of a record (keys, types, sizes, card names); raises :class:`RecordError`.

    Whether the cards make a legal deal is checked by :func:`replay`.
    """
    if not isinstance(data, dict):
        raise RecordError(f"a deal record is a JSON object, not {type(data).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise RecordError(f"missing key{'s' * (len(missing) > 1)}: {', '.join(missing)}")
    unknown = sorted(set(data) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        raise RecordError(f"unknown key{'s' * (len(unknown) > 1)}: {', '.join(unknown)}")
    players = data["players"]
    if players not in PLAYER_COUNTS or type(players) is not int:  # 4.0 == 4, True == 1
        raise RecordError(f"players: expected 3, 4 or 5, got {_brief(players)}")
    if not isinstance(data["contract"], str):
        raise RecordError(f"contract: expected a name, got {_brief(data['contract'])}")
    try:
        contract = Contract.parse(data["contract"])
    except ValueError as error:
        raise RecordError(f"contract: {error}") from None
    called = data.get("called")
    if called is not None:
        if not isinstance(called, str):
            raise RecordError(f"called: expected a card or null, got {_brief(called)}")
        (called,) = cards_field([called], "called")
    try:  # a record without its call is malformed (exit 2), not a deal breaking a rule
        check_call_given(players, called)
    except IllegalCall as error:
        raise RecordError(f"called: {error}") from None
    discard = data.get("discard")
    if not isinstance(data.get("chelem_announced", False), bool):
        raise RecordError("chelem_announced: expected true or false")
    return Record(
        players=players,
        taker=_integer(data, "taker", 0, players - 1),
        contract=contract,
        called=called,
        chien=None if data.get("chien") is None else cards_field(data["chien"], "chien"),
        discard=None if discard is None else cards_field(discard, "discard"),
        poignees=_poignees(data.get("poignees", []), players),
        chelem_announced=data.get("chelem_announced", False),
        first_leader=_integer(data, "first_leader", 0, players - 1),
        tricks=_tricks(data["tricks"], players),
    )


def _tricks(value: Any, players: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(f"tricks: expected a list of tricks, got {_brief(value)}")
    if len(value) != hand_size(players):
        raise RecordError(
            f"tricks: a {players}-player deal has {hand_size(players)} tricks, found {len(value)}"
        )
    tricks = []
    for number, trick in enumerate(value, 1):
        cards = cards_field(trick, f"tricks, trick {number}")
        if len(cards) != players:
            raise RecordError(
                f"tricks, trick {number}: {players} cards expected, found {len(cards)}"
            )
        tricks.append(cards)
    return tuple(tricks)


# --- checking and replaying ------------------------------------------------------------------


def seats_of_tricks(
    tricks: Sequence[Sequence[int]], first_leader: int, players: int
) -> list[tuple[int, ...]]:
    """Who played each card: trick 1 is led by ``first_leader``, each next one by the winner of
    the trick before (the last trick's winner does not matter here).
    """
    seats, leader = [], first_leader
    for trick in tricks:
        order = tuple((leader + i) % players for i in range(players))
        seats.append(order)
        leader = order[trick_winner(trick)]
    return seats


def _check_deck(record: Record) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """Every card once among tricks + écart (Prise, Garde) or tricks + chien; returns the écart
    and the chien. The cards nobody played are the écart when the record gives none, and the
    chien of a Garde Sans or Contre when it gives none (design.md)."""
    where: dict[int, str] = {}
    for number, trick in enumerate(record.tricks, 1):
        for card in trick:
            if card in where:
                raise RecordError(
                    f"tricks: {format_card(card)} is played twice"
                    f" ({where[card]} and trick {number})"
                )
            where[card] = f"trick {number}"
    unplayed = tuple(sorted(set(range(N_CARDS)) - set(where)))
    if record.contract.takes_chien:
        aside, field = record.discard or unplayed, "discard"
    else:
        if record.discard:
            raise RecordError(f"discard: a {record.contract.label} has no écart (leave it out)")
        aside, field = record.chien or unplayed, "chien"
    for card in aside:
        if card in where:
            raise RecordError(f"{field}: {format_card(card)} was also played, in {where[card]}")
        where[card] = field
    absent = set(range(N_CARDS)) - set(where)
    if absent:
        raise RecordError(f"{format_cards(absent)} missing from the tricks and the {field}")
    if record.contract.takes_chien:
        return tuple(sorted(aside)), record.chien
    return None, tuple(sorted(aside))


def game_of_record(record: Record, validate: bool = True) -> Game:
    """The referee's :class:`Game` for a record, ready for its first card (hands inferred)."""
    discard, chien = _check_deck(record)
    hands: list[list[int]] = [[] for _ in range(record.players)]
    for trick, seats in zip(
        record.tricks,
        seats_of_tricks(record.tricks, record.first_leader, record.players),
        strict=True,
    ):
        for card, seat in zip(trick, seats, strict=True):
            hands[seat].append(card)
    return Game(
        record.players,
        hands,
        record.taker,
        record.contract,
        chien=chien,
        discard=discard,
        called=record.called,
        poignees=record.poignees,
        chelem_announced=record.chelem_announced,
        first_leader=record.first_leader,
        validate=validate,
    )


def replay_game(data: Any) -> Game:
    """Plays a record (a dict as loaded from JSON) through the referee; returns the finished game.

    Raises :class:`RecordError` for a malformed record and a :class:`.rules.RuleError` (e.g.
    :class:`.rules.IllegalPlay`, naming trick, seat, card and rule) for one the rules forbid.
    """
    record = parse_record(data)
    # The hands are inferred from the tricks, so one wrong card can make the implied deal wrong
    # too: play first, to name the first illegal card rather than a consequence of it.
    game = game_of_record(record, validate=False)
    for trick in record.tricks:
        for card in trick:
            game.play(card)
    game.validate()
    return game


def replay(data: Any) -> Outcome:
    """The :class:`.outcome.Outcome` of a record; raises as :func:`replay_game`."""
    return replay_game(data).outcome()


# --- writing ---------------------------------------------------------------------------------


def _names(cards: Iterable[int]) -> list[str]:
    return [format_card(int(card)) for card in cards]


def make_record(
    players: int,
    taker: int,
    contract: Contract | str,
    tricks: Sequence[Sequence[int]],
    first_leader: int,
    chien: Iterable[int] | None,
    discard: Iterable[int] | None = None,
    called: int | None = None,
    poignees: Iterable[tuple[int, Iterable[int]]] = (),
    chelem_announced: bool = False,
    result: Outcome | Mapping | None = None,
) -> dict:
    """A deal record (a JSON-ready dict) from card ids (``int`` or NumPy integers).

    ``tricks`` lists each trick's cards in play order, from its leader; ``poignees`` are
    (seat, cards shown); ``result`` (an :class:`Outcome` or its dict) is stored under "result".
    """
    record = {
        "players": int(players),
        "taker": int(taker),
        "contract": as_contract(contract).value,
        "called": None if called is None else format_card(int(called)),
        "chien": None if chien is None else _names(chien),
        "discard": None if discard is None else _names(discard),
        "poignees": [{"seat": int(seat), "cards": _names(cards)} for seat, cards in poignees],
        "chelem_announced": bool(chelem_announced),
        "first_leader": int(first_leader),
        "tricks": [_names(trick) for trick in tricks],
    }
    if result is not None:
        record["result"] = result.as_dict() if isinstance(result, Outcome) else dict(result)
    return record


def record_of_game(game: Game, with_result: bool = True) -> dict:
    """The record of a finished (or partly played) :class:`Game`, its outcome under "result"."""
    return make_record(
        game.players,
        game.taker,
        game.contract,
        [trick.cards for trick in game.tricks],
        game.first_leader,
        game.chien,
        discard=game.discard,
        called=game.called,
        poignees=game.shown_poignees,
        chelem_announced=game.chelem_announced,
        result=game.outcome() if with_result and game.is_over else None,
    )


def dumps_records(records: Iterable[Mapping]) -> str:
    """Records as JSON Lines (one object per line, cards in the ♠♥♦♣ notation, UTF-8 text)."""
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
