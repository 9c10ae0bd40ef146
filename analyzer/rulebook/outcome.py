"""The outcome of a played deal, as a score sheet records it, and its one JSON form.

The referee (one deal, card by card) and the vectorised scoring (N deals at once) both give
their results as :class:`Outcome`, so ``tarot-replay --json`` and the ``result`` of a deal
record are written by one serialiser, :meth:`Outcome.as_dict`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..cards import format_card
from ..game import Side


@dataclass(frozen=True)
class Outcome:
    """The result of a played deal, as a score sheet records it (points in card points)."""

    players: int
    contract: str
    taker: int
    partner: int | None
    called: int | None
    multiplier: int
    taker_points: float
    defence_points: float
    bouts: int
    needed: int
    made: bool
    difference: int
    petit_au_bout: Side | None
    chelem: Side | None
    chelem_announced: bool
    poignees: tuple[tuple[int, int], ...]
    """(seat, bonus) of each poignée shown."""
    poignee_bonus: int
    chelem_bonus: int
    per_defender: int
    scores: tuple[int, ...]

    def as_dict(self) -> dict:
        """The ``tarot-replay --json`` object: plain JSON types, cards in the notation, sides
        as ``"taker"`` or ``"defence"``."""
        data = asdict(self)
        data["valid"] = True
        data["called"] = None if self.called is None else format_card(self.called)
        for key in ("petit_au_bout", "chelem"):
            data[key] = None if data[key] is None else data[key].label
        data["poignees"] = [{"seat": seat, "bonus": bonus} for seat, bonus in self.poignees]
        data["scores"] = list(self.scores)
        for key in ("taker_points", "defence_points"):
            if float(data[key]).is_integer():
                data[key] = int(data[key])
        return data

    def to_json(self) -> str:
        """:meth:`as_dict` as one line of JSON."""
        return json.dumps(self.as_dict(), ensure_ascii=False)
