"""The Python API: the commands' answers as objects a notebook shows as tables.

Everything takes cards as text in the notation (``"21 19 12 6 1 Excuse R♥ …"``) or as card ids,
and gives cards back as :class:`~.cards.Card`, ids that print as ``R♥``. Each result shows
itself as a small table (``repr``, and HTML in Jupyter) and keeps every figure
(``to_dict()``, and ``to_frame()`` for pandas). Bad input raises a ``ValueError`` subclass
whose message is the sentence the commands print.

``from tarot_advisor import …`` gives these names (the root package re-exports them).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from .advice import advisor, cardplay, ecart_advice
from .advice.analysis import Analysis
from .advice.cardplay import CardAdvice
from .advice.ecart_advice import EcartAnalysis
from .cards import Card, as_cards, sort_cards
from .cards import parse_cards as _parse_cards
from .cards import parse_hand as _parse_hand
from .rulebook import record as records
from .rulebook.outcome import Outcome
from .search.position import Position, read_position

Cards = str | Iterable[int]
"""Cards as text in the notation, or as ids (:class:`Card` values included)."""
Source = Mapping[str, Any] | str | os.PathLike
"""A record as a dict (loaded JSON), or the path of a JSON file holding one."""

__all__ = [
    "Card",
    "advise_play",
    "analyse_ecart",
    "analyse_hand",
    "load_records",
    "parse_cards",
    "parse_hand",
    "replay",
]


def parse_cards(text: Cards) -> list[Card]:
    """The cards ``text`` names, in its order: ``parse_cards("3♥ 9♦ 14")`` → ``[3♥, 9♦, 14]``."""
    return list(as_cards(_parse_cards(text)))


def parse_hand(text: Cards, players: int = 4) -> list[Card]:
    """A hand for ``players`` players (24, 18 or 15 cards), sorted as the commands print it."""
    return list(as_cards(_parse_hand(text, players)))


def _ids(cards: Cards, players: int | None = None) -> list[int]:
    if not isinstance(cards, str):
        return [int(card) for card in cards]
    return _parse_hand(cards, players) if players else _parse_cards(cards)


def analyse_hand(hand: Cards, players: int = 4, **options: Any) -> Analysis:
    """What to bid with ``hand``, as ``tarot-advise HAND`` says it.

    ``options`` are :func:`.advice.advisor.analyse_hand`'s: ``position`` (1…players),
    ``samples`` (default 2,000), ``seed``, ``jobs``, ``bids`` (the bids heard before you, e.g.
    ``"pass prise"``), ``others``, ``taker_policy``, ``defence_policy``.
    """
    analysis = advisor.analyse_hand(_ids(hand, players), players, **options)
    called = None if analysis.called is None else Card(analysis.called)
    return replace(analysis, hand=as_cards(analysis.hand), called=called)


def analyse_ecart(hand: Cards, chien: Cards, players: int = 4, **options: Any) -> EcartAnalysis:
    """Which écart to make after taking ``chien``, as ``tarot-advise HAND --chien …`` says it.

    ``options`` are :func:`.advice.ecart_advice.analyse_ecart`'s: ``contract`` (``"prise"`` or
    ``"garde"``, the default), ``called`` (5 players), ``position``, ``samples`` (default
    1,000), ``seed``, ``jobs``.
    """
    if "called" in options and isinstance(options["called"], str):
        (options["called"],) = _parse_cards(options["called"])
    analysis = ecart_advice.analyse_ecart(_ids(hand, players), _ids(chien), players, **options)
    candidates = tuple(replace(c, cards=as_cards(sort_cards(c.cards))) for c in analysis.candidates)
    called = None if analysis.called is None else Card(analysis.called)
    return replace(
        analysis,
        hand=as_cards(analysis.hand),
        chien=as_cards(analysis.chien),
        called=called,
        candidates=candidates,
        recommended_cards=as_cards(sort_cards(analysis.recommended_cards)),
        open=tuple(as_cards(sort_cards(cards)) for cards in analysis.open),
    )


def advise_play(
    position: Source | Position,
    samples: int = cardplay.DEFAULT_SAMPLES,
    seed: int = cardplay.DEFAULT_SEED,
    jobs: int = 1,
) -> CardAdvice:
    """What to play now, as ``tarot-play FILE`` says it: every legal card ranked.

    ``position``: a partial record (a deal record's keys with the tricks so far, ``seat`` and
    ``hand``) as a dict or a JSON file's path, or a checked :class:`.search.position.Position`.
    """
    if not isinstance(position, Position):
        position = read_position(_one(position, "partial record"))
    advice = cardplay.advise_play(position, samples=samples, seed=seed, jobs=jobs)
    cards = tuple(replace(estimate, card=Card(estimate.card)) for estimate in advice.cards)
    return replace(advice, cards=cards, greedy_choice=Card(advice.greedy_choice))


def replay(record: Source) -> Outcome:
    """The score sheet of a played deal, every card checked against the rules, as
    ``tarot-replay FILE`` gives it: a dict, or the path of a JSON file holding one record (for
    a JSON Lines file: ``[replay(r) for r in load_records(path)]``).

    Raises :class:`.rulebook.record.RecordError` for a record that is not one, and a
    :class:`.rulebook.rules.RuleError` naming trick, seat, card and rule for an illegal play.
    """
    outcome = records.replay(_one(record, "deal record"))
    return replace(outcome, called=None if outcome.called is None else Card(outcome.called))


def load_records(path: str | os.PathLike) -> list[Any]:
    """The records (dicts) of a JSON file or a JSON Lines file, as ``tarot-replay`` reads it:
    UTF-8 with or without a byte-order mark, or UTF-16 with one."""
    return records.load_records(records.decode(Path(path).read_bytes()))


def _one(source: Source, what: str) -> Mapping[str, Any]:
    """A record given as a dict, or read from a file that holds exactly one."""
    if isinstance(source, Mapping):
        return source
    found = load_records(source)
    if len(found) != 1:
        raise ValueError(f"{os.fspath(source)} holds {len(found)} records, not one {what}")
    return found[0]
