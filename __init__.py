"""tarot-advisor: French Tarot hand analysis and bidding advice under the FFT rules.

The Python API (see ``tarot_advisor.analyzer.api``)::

    from tarot_advisor import analyse_hand
    analyse_hand("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")

The subpackages are the repository's folders: ``analyzer`` (the library), ``cli`` (the
commands) and ``reports`` (the batch studies).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tarot_advisor.analyzer.api import (
        Card,
        advise_play,
        analyse_ecart,
        analyse_hand,
        load_records,
        parse_cards,
        parse_hand,
        replay,
    )

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


def __getattr__(name: str) -> Any:
    # On first use only: every command and every worker imports this package, and the API
    # would load the whole library into each of them.
    if name in __all__:
        return getattr(import_module("tarot_advisor.analyzer.api"), name)
    raise AttributeError(f"module 'tarot_advisor' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
