"""A reviewed deal's decisions: what was played, what was best, what it cost.

:class:`Decision` is one decision of a seat (a card, the écart, the poignée, the chelem, the
bid), :class:`SeatReview` a seat's decisions and their total, :class:`DealReview` the seats
reviewed in one deal. ``to_dict`` gives ``tarot-review --json``'s shape (issue 26).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..cards import format_card
from ..rulebook.referee import Game
from ..stats import Estimate
from .hand_samples import DEFAULT_TABLE, Sides

SIGNIFICANT_SE = 2.0
"""A cost is flagged when it exceeds this many standard errors of the paired difference…"""
SIGNIFICANT_POINTS = 10.0
"""…and is at least this many points of the seat's score."""
KINDS = ("card", "ecart", "poignee", "chelem", "bid")


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat.

    ``played``/``best``: the choice made and the best one, as text (a card, an écart, "shown",
    a contract); ``cost``: E[best] − E[played] for the seat, ``None`` when the record does not
    allow it to be measured (``note`` says why). For cards, ``ranking`` is ``tarot-play``'s
    (best first; a dict per card) and ``position`` the partial record the seat saw.
    """

    kind: str
    played: str
    best: str | None
    cost: Estimate | None
    trick: int | None = None
    note: str = ""
    ranking: tuple[dict, ...] = ()
    position: dict | None = None
    card: int | None = None
    """The card played (``kind == "card"``), as an id."""
    remark: str = ""
    """What the choice led to, when it says why it cost ("the Petit went to the defence")."""

    @property
    def significant(self) -> bool:
        """Over :data:`SIGNIFICANT_SE` SE and at least :data:`SIGNIFICANT_POINTS` points."""
        if self.cost is None:
            return False
        se = 0.0 if math.isnan(self.cost.se) else self.cost.se
        return self.cost.mean >= SIGNIFICANT_POINTS and self.cost.mean > SIGNIFICANT_SE * se

    def sentence(self) -> str:
        """One sentence a player reads: "trick 17: the Petit instead of the 21 cost 60 points"."""
        cost = "" if self.cost is None else f" cost {self.cost.mean:.0f} points"
        cost += "" if self.cost is None else f" (± {self.cost.se:.0f})"
        if self.kind == "card":
            text = f"trick {self.trick}: the {self.played} instead of the {self.best}{cost}"
        elif self.kind == "ecart":
            text = f"the écart {self.played} instead of {self.best}{cost}"
        elif self.kind == "bid":
            text = f"the bid: {self.played} instead of {self.best}{cost}"
        else:
            text = f"the {'poignée' if self.kind == 'poignee' else 'chelem'}: {self.played}"
            text += f" instead of {self.best}{cost}"
        said = [x for x in (self.remark, self.note if self.kind != "card" else "") if x]
        return "; ".join([text, *said]) if self.cost is not None else text

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"kind": self.kind}
        if self.trick is not None:
            data["trick"] = self.trick
        data |= {
            "played": self.played,
            "best": self.best,
            "cost": None if self.cost is None else self.cost.mean,
            "cost_se": None if self.cost is None else _finite(self.cost.se),
            "significant": self.significant,
        }
        if self.note:
            data["note"] = self.note
        if self.remark:
            data["remark"] = self.remark
        if self.ranking:
            data["ranking"] = list(self.ranking)
        if self.position is not None:
            data["position"] = self.position
        return data


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class SeatReview:
    """A seat's decisions in the order they were taken and their total expected cost."""

    seat: int
    role: str
    decisions: tuple[Decision, ...]
    hand: tuple[int, ...]
    """The seat's cards as it played them (the taker's after the écart), in display order."""

    @property
    def total_cost(self) -> Estimate:
        """The sum of the measured costs; each decision has its own worlds, so variances add."""
        measured = [d.cost for d in self.decisions if d.cost is not None]
        variance = sum(0.0 if math.isnan(c.se) else c.se**2 for c in measured)
        return Estimate(float(sum(c.mean for c in measured)), math.sqrt(variance))

    def costliest(self, k: int = 3) -> list[Decision]:
        """The ``k`` decisions that cost the most (positive costs only), costliest first."""
        costly = [d for d in self.decisions if d.cost is not None and d.cost.mean > 0]
        return sorted(costly, key=lambda d: -d.cost.mean)[:k]  # type: ignore[union-attr]

    def to_dict(self) -> dict:
        total = self.total_cost
        return {
            "seat": self.seat,
            "role": self.role,
            "hand": [format_card(c) for c in self.hand],
            "decisions": [d.to_dict() for d in self.decisions],
            "total_cost": total.mean,
            "total_cost_se": total.se,
            "summary": [d.sentence() for d in self.costliest()],
        }


@dataclass(frozen=True)
class DealReview:
    """The review of one deal: the record as given, the refereed game and each seat's review."""

    record: dict
    game: Game
    seats: tuple[SeatReview, ...]
    samples: int
    seed: int
    sides: Sides = DEFAULT_TABLE
    """Who played the deals the taker's bid, écart, poignée and chelem were judged on."""
    seconds: float = field(default=0.0, compare=False)

    @property
    def calls_judged(self) -> bool:
        """Whether a decision other than a card was measured (at the table :attr:`sides`)."""
        decisions = (d for seat in self.seats for d in seat.decisions)
        return any(d.kind != "card" and d.cost is not None for d in decisions)

    def to_dict(self) -> dict:
        """One seat: the issue's shape (``seat``, ``role``, ``decisions``, ``total_cost``…);
        several (``--seat all``): ``{"seats": [...]}``. ``samples``, ``seed`` and ``policies``
        (:attr:`sides`, as ``tarot-advise --json`` names them) beside."""
        extra = {"samples": self.samples, "seed": self.seed, "policies": self.sides.to_dict()}
        if len(self.seats) == 1:
            return self.seats[0].to_dict() | extra
        return {"seats": [s.to_dict() for s in self.seats]} | extra
