"""Scores of N played deals at once (rules.md §6–§8), and their deal records.

The play of Prise and Garde is the same (the chien is taken either way), and so is the play of
Garde Sans and Garde Contre (nobody sees the chien): :func:`score` scores one :class:`Playout`
under either contract of its pair, which lets the advisor play each sample twice, not four times.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from ..game import MULTIPLIERS, Contract, Side
from ..rulebook.outcome import Outcome
from ..rulebook.record import make_record
from ..rulebook.rules import poignee_bonus
from . import bitboard as bb
from . import vector_rules
from .engine import Playout


@dataclass(frozen=True)
class Scores:
    """Outcome fields of N deals ((N,) arrays unless said), as ``tarot-replay --json`` has them.

    ``taker_points`` float64; ``bouts``, ``needed``, ``difference`` (signed, a remaining half
    point to the winning side), ``per_defender`` (S), ``taker_score`` (the taker's total) int64;
    ``made`` bool; ``petit_au_bout`` and ``chelem`` int8, the winning :class:`.game.Side` (0 none);
    ``scores`` (N, n) int64 by seat; ``chelem_bonus`` int64, the chelem's part of S.
    """

    contract: Contract
    taker_points: np.ndarray
    bouts: np.ndarray
    needed: np.ndarray
    made: np.ndarray
    difference: np.ndarray
    petit_au_bout: np.ndarray
    chelem: np.ndarray
    per_defender: np.ndarray
    taker_score: np.ndarray
    scores: np.ndarray
    chelem_bonus: np.ndarray

    def take(self, rows: np.ndarray) -> Scores:
        """The scores of the deals ``rows`` ((R,) int64), in that order."""
        arrays = (f.name for f in fields(self) if f.name != "contract")
        return replace(self, **{name: getattr(self, name)[rows] for name in arrays})


PAIRS = ((Contract.PRISE, Contract.GARDE), (Contract.GARDE_SANS, Contract.GARDE_CONTRE))
"""Contracts played the same way (the chien taken, or unseen by all): the first of each pair
is played, and :func:`score` scores the playout under either."""


def _same_play(played: Contract, contract: Contract) -> bool:
    return played.takes_chien == contract.takes_chien


def per_defender_as_played(playout: Playout) -> np.ndarray:
    """(N,) int64 S of every deal under the contract it was played under: deals played under
    different contracts in one run (:func:`engine.start`) together."""
    multiplier = MULTIPLIERS[playout.contracts]
    return _per_defender(playout, playout.taker_points2, playout.bouts, multiplier)[3]


def _per_defender(
    playout: Playout, points2: np.ndarray, bouts: np.ndarray, multiplier: int | np.ndarray
) -> tuple[np.ndarray, ...]:
    """Made (bool), the difference, the chelem's part and S ((N,) int64) of ``playout`` with
    these doubled points and bouts for the taker's side, and this multiplier (one, or (N,))."""
    made, difference = vector_rules.contract_result(points2, bouts)
    chelem_bonus = vector_rules.chelem_bonus(playout.chelem, playout.announced_chelem)
    per_defender = vector_rules.per_defender_score(
        multiplier, made, difference, playout.petit_au_bout, playout.poignee_bonus, chelem_bonus
    )
    return made, difference, chelem_bonus, per_defender


def score(playout: Playout, contract: Contract | None = None) -> Scores:
    """Score every deal of ``playout`` under ``contract`` (default: the contract it was played
    under; else the other contract of the same pair, Prise/Garde or Garde Sans/Garde Contre)."""
    contract = contract or playout.contract
    if not _same_play(playout.contract, contract):
        raise ValueError(f"a {playout.contract.label} playout cannot be scored as {contract.label}")
    points2 = playout.taker_points2.copy()
    bouts = playout.bouts.copy()
    if playout.contract.chien_to_taker != contract.chien_to_taker:
        chien_lo, chien_hi = playout.chien_lo, playout.chien_hi
        sign = 1 if contract.chien_to_taker else -1
        points2 += sign * bb.points2(chien_lo, chien_hi)
        bouts += sign * bb.popcount(chien_hi & bb.BOUTS_HI)

    made, difference, chelem_bonus, per_defender = _per_defender(
        playout, points2, bouts, contract.multiplier
    )
    scores = vector_rules.seat_scores(playout.players, playout.taker, per_defender, playout.partner)
    return Scores(
        contract=contract,
        taker_points=points2 / 2,
        bouts=bouts,
        needed=vector_rules.points_needed(bouts),
        made=made,
        difference=difference,
        petit_au_bout=playout.petit_au_bout,
        chelem=playout.chelem,
        per_defender=per_defender,
        taker_score=scores[np.arange(len(playout)), playout.taker],
        scores=scores,
        chelem_bonus=chelem_bonus,
    )


def taker_total(playout: Playout, per_defender: np.ndarray) -> np.ndarray:
    """(N,) int64 what one term of S (``per_defender``, (N,) int64) adds to the taker's total:
    the taker's share of it (rules.md §2), which depends on the partner with 5 players."""
    scores = vector_rules.seat_scores(playout.players, playout.taker, per_defender, playout.partner)
    return scores[np.arange(len(playout)), playout.taker]


def outcome(playout: Playout, scores: Scores, index: int) -> Outcome:
    """The :class:`.outcome.Outcome` of deal ``index``, as the referee gives it."""
    partner = int(playout.partner[index])
    poignees = []
    for seat in range(playout.players):
        shown = bb.to_cards(0, playout.shown_hi[seat, index])
        if shown:
            poignees.append((seat, poignee_bonus(shown, shown, playout.players)))
    taker_points = float(scores.taker_points[index])
    return Outcome(
        players=playout.players,
        contract=scores.contract.value,
        taker=int(playout.taker[index]),
        partner=partner if partner >= 0 else None,
        called=None if playout.called is None else int(playout.called[index]),
        multiplier=scores.contract.multiplier,
        taker_points=taker_points,
        defence_points=91 - taker_points,
        bouts=int(scores.bouts[index]),
        needed=int(scores.needed[index]),
        made=bool(scores.made[index]),
        difference=int(scores.difference[index]),
        petit_au_bout=Side.of(scores.petit_au_bout[index]),
        chelem=Side.of(scores.chelem[index]),
        chelem_announced=bool(playout.announced_chelem[index]),
        poignees=tuple(poignees),
        poignee_bonus=int(playout.poignee_bonus[index]),
        chelem_bonus=int(scores.chelem_bonus[index]),
        per_defender=int(scores.per_defender[index]),
        scores=tuple(int(s) for s in scores.scores[index]),
    )


def records(playout: Playout, scores: Scores | None = None) -> list[dict]:
    """The deal record (design.md) of every deal, the engine's outcome under ``"result"``."""
    scores = scores or score(playout)
    plays = playout.plays.tolist()
    chien = playout.chien.tolist()
    discard = None if playout.discard is None else playout.discard.tolist()
    out = []
    for index in range(len(playout)):
        poignees = [
            (seat, bb.to_cards(0, playout.shown_hi[seat, index]))
            for seat in range(playout.players)
            if playout.shown_hi[seat, index]
        ]
        out.append(
            make_record(
                playout.players,
                int(playout.taker[index]),
                scores.contract,
                plays[index],
                int(playout.leaders[index, 0]),
                chien[index],
                discard=None if discard is None else discard[index],
                called=None if playout.called is None else int(playout.called[index]),
                poignees=poignees,
                chelem_announced=bool(playout.announced_chelem[index]),
                result=outcome(playout, scores, index),
            )
        )
    return out
