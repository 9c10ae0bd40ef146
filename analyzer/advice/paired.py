"""One pair of contracts played on N deals: the poignée hidden, then shown where it may be.

The advisor (one hand, many deals) and the thresholds study (many hands) both measure every
contract on the same deals. Prise and Garde share one playout, Garde Sans and Garde Contre
another (:data:`scoring.PAIRS`); the deals where the taker's hand as played (after the écart)
allows a poignée are played once more with it shown (in the same engine run), so that the gain
of showing is a paired difference. Elsewhere showing is not an option and the play would be the
same: the score shown is the score hidden (not a second draw of a policy that searches at
random).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..cards import trumps_and_excuse
from ..game import Contract, poignee_thresholds
from ..playout import bitboard as bb
from ..playout import vector_rules
from ..playout.deal import Deals
from ..playout.engine import Playout, play
from ..playout.scoring import PAIRS, Scores, score, taker_total


@dataclass(frozen=True)
class PairPlay:
    """A contract pair played on N deals.

    ``hidden``: the playout with the taker's poignée hidden, ``hidden_scores`` its scores under
    each contract of the pair. ``rows``: (M,) int64 the deals played again with the poignée
    shown (``shown``, ``shown_scores``: those M deals), or ``None`` when none was.
    ``announced``: the first deals played again with the chelem announced (the poignée
    hidden), under the contract :func:`play_pairs` was asked to announce, or ``None``.
    """

    hidden: Playout
    hidden_scores: dict[Contract, Scores]
    rows: np.ndarray | None = None
    shown: Playout | None = None
    shown_scores: dict[Contract, Scores] | None = None
    announced: Playout | None = None

    def shown_score(self, contract: Contract) -> np.ndarray:
        """(N,) int64 the taker's total with the poignée shown where the deal was played again,
        the hidden score elsewhere."""
        total = self.hidden_scores[contract].taker_score.copy()
        if self.shown_scores is not None:
            total[self.rows] = self.shown_scores[contract].taker_score
        return total

    def shown_bonus(self, contract: Contract) -> np.ndarray:
        """(N,) int64 the term of the taker's own poignée in its total with it shown: the bonus
        goes to the side that wins the contract (rules.md §7), so it is + or − its value times
        the taker's share; 0 where the deal was not played again. The rest of the gain of
        showing comes from the play that the shown trumps changed."""
        bonus = np.zeros(len(self.hidden), np.int64)
        if self.shown is not None and self.shown_scores is not None:
            shown = self.shown
            own_hi = shown.shown_hi[shown.taker, np.arange(len(shown))]
            own = vector_rules.poignee_bonus(own_hi, shown.players)
            sign = np.where(self.shown_scores[contract].made, 1, -1)
            bonus[self.rows] = taker_total(shown, sign * own)
        return bonus

    def showed(self) -> np.ndarray:
        """(N,) bool: the taker showed a poignée (its hand, after the écart, allowed one)."""
        showed = np.zeros(len(self.hidden), bool)
        if self.shown is not None:
            taker = self.shown.taker
            showed[self.rows] = self.shown.shown_hi[taker, np.arange(len(taker))] != bb.ZERO
        return showed

    def part(self, start: int, stop: int) -> PairPlay:
        """The deals ``start`` … ``stop`` − 1 alone, numbered from 0 (the whole when they are
        all the deals), without the chelem's replay."""
        if (start, stop) == (0, len(self.hidden)):
            return self
        rows = np.arange(start, stop)
        hidden = self.hidden.take(rows)
        hidden_scores = {c: s.take(rows) for c, s in self.hidden_scores.items()}
        if self.rows is None or self.shown is None or self.shown_scores is None:
            return PairPlay(hidden, hidden_scores)
        mine = np.flatnonzero((self.rows >= start) & (self.rows < stop))
        if mine.size == 0:
            return PairPlay(hidden, hidden_scores)
        shown = self.shown.take(mine)
        shown_scores = {c: s.take(mine) for c, s in self.shown_scores.items()}
        return PairPlay(hidden, hidden_scores, self.rows[mine] - start, shown, shown_scores)


_HIDDEN, _SHOWN, _ANNOUNCED = range(3)
"""How :func:`play_pairs` plays a deal's copy: the poignée hidden, shown, or the chelem
announced."""


PAIR_FIRSTS = tuple(first for first, _ in PAIRS)
"""The contract each pair is played as (its first): Prise, Garde Sans."""


def pair_of(contract: Contract) -> tuple[Contract, Contract]:
    """The pair of :data:`scoring.PAIRS` that ``contract`` belongs to."""
    return next(p for p in PAIRS if contract in p)


def may_show(cards: np.ndarray, players: int, extra: int = 0) -> np.ndarray:
    """(N,) bool: ``cards`` ((N, k) card ids) hold enough trumps and Excuse for a poignée,
    counting ``extra`` more cards (what a chien might still bring)."""
    return trumps_and_excuse(cards) + extra >= poignee_thresholds(players)[0]


def taker_may_show(playout: Playout) -> np.ndarray:
    """(N,) bool: the taker's hand, as he played it (after the écart), held enough trumps and
    Excuse for a poignée."""
    n = playout.players
    position = np.arange(len(playout.played_hi)) % n
    leader = np.repeat(playout.leaders.T, n, axis=0)  # (T·n, N) the leader of each card's trick
    own = (leader + position[:, None]) % n == playout.taker
    hand_hi = np.bitwise_or.reduce(bb.keep(own, playout.played_hi), axis=0)
    return bb.popcount(hand_hi & bb.ALL_HI) >= poignee_thresholds(n)[0]


def call_blocks(
    calls: Sequence[int | None], wanted: dict[int | None, tuple[Contract, ...]], n: int
) -> tuple[dict[Contract, list[int | None]], dict[Contract, np.ndarray]]:
    """For each pair (by its first) that some of the ``calls`` play (``wanted``: each call's
    pairs): those calls, in order, and the rows of their samples among ``n`` per call, call
    after call (:func:`play_pairs`' ``rows_of``)."""
    blocks = {f: [c for c in calls if f in wanted[c]] for f in PAIR_FIRSTS}
    blocks = {f: cards for f, cards in blocks.items() if cards}
    rows = {
        f: np.concatenate([np.arange(n) + calls.index(c) * n for c in blocks[f]]) for f in blocks
    }
    return blocks, rows


def play_pair(
    deals: Deals,
    taker: np.ndarray,
    contract: Contract,
    policy,
    *,
    rng: np.random.Generator,
    called: np.ndarray | int | None,
    defence_policy=None,
) -> PairPlay:
    """Play ``deals`` under ``contract``'s pair: :func:`play_pairs` for one pair."""
    first = pair_of(contract)[0]
    played = play_pairs(
        deals, taker, (first,), policy, rng=rng, called=called, defence_policy=defence_policy
    )
    return played.pairs[first]


class Played(NamedTuple):
    """What :func:`play_pairs` played: each pair's play, by its first contract, and the
    others' playout (``None`` without any)."""

    pairs: dict[Contract, PairPlay]
    others: Playout | None


class Others(NamedTuple):
    """Deals played in the same engine run as the pairs, by other takers: ``rows`` (R,) int64
    of the pairs' deals, their ``takers`` (R,) int64 seats, ``codes`` (R,) int8 contract codes
    and, with 5 players, ``called`` (R,) int64 the takers' calls (else ``None``)."""

    rows: np.ndarray
    takers: np.ndarray
    codes: np.ndarray
    called: np.ndarray | None


def play_pairs(
    deals: Deals,
    taker: np.ndarray,
    firsts: tuple[Contract, ...],
    policy,
    *,
    rng: np.random.Generator,
    called: np.ndarray | int | None,
    defence_policy=None,
    announce: tuple[Contract, int] | None = None,
    show_first: int | None = None,
    others: Others | None = None,
    rows_of: dict[Contract, np.ndarray] | None = None,
) -> Played:
    """Play ``deals`` under the pair of each of ``firsts`` (the first contract of each, as in
    :data:`scoring.PAIRS`; the poignée hidden, the chelem not announced), and the deals where
    the taker may show a poignée (:func:`taker_may_show`) again with it shown.

    ``taker``: (N,) int64 seats; ``called``: the called card (5 players), one or (N,).
    ``policy`` plays for the taker's side, ``defence_policy`` (default: the same) for the
    defence. ``announce``: a contract of one of the pairs and a count M: its first M deals are
    played once more under that contract, the chelem announced (:attr:`PairPlay.announced`).
    ``show_first``: only the first deals, that many, may be played again shown (default: all).
    ``others``: deals of other takers to play too (the deal the user defends,
    :func:`auction.defending`). ``rows_of``: for a first contract, the deals ((R,) int64,
    increasing) it is played on (default: all); its :class:`PairPlay` holds those only.

    All are one engine run (a contract per deal, :func:`engine.start`): every pair's deals,
    those whose taker holds enough trumps and Excuse with the chien's (before the écart, so a
    few more than will show) a second time, shown, and the others. When a side searches
    (:mod:`lookahead`), an engine run costs about as much for 3 deals as for 250, and one run
    of 500 deals is 0.8 of two runs of 250.
    """
    n = len(deals)
    dealt = deals.hands[np.arange(n), taker]  # the takers' hands
    rows, codes, shows, announces, agains, counts = [], [], [], [], [], []
    for first in firsts:
        mine = np.arange(n) if rows_of is None or first not in rows_of else rows_of[first]
        held = np.concatenate([dealt, deals.chien], axis=1) if first.takes_chien else dealt
        again = np.flatnonzero(may_show(held[mine], deals.players))  # played again, shown
        if show_first is not None:
            again = again[again < show_first]
        announced = 0
        if announce is not None and pair_of(announce[0])[0] == first:
            announced = min(announce[1], len(mine))
        play_as = np.repeat([_HIDDEN, _SHOWN, _ANNOUNCED], [len(mine), len(again), announced])
        rows.append(np.concatenate([mine, mine[again], mine[:announced]]))
        announcing = play_as == _ANNOUNCED
        codes.append(np.where(announcing, announce[0].code if announced else 0, first.code))
        shows.append(play_as == _SHOWN)
        announces.append(announcing)
        agains.append(again)
        counts.append((len(mine), announced))
    every = np.concatenate(rows)
    takers, calls = taker[every], called[every] if isinstance(called, np.ndarray) else called
    paired = len(every)
    if others is not None and len(others.rows):
        every = np.concatenate([every, others.rows])
        takers = np.concatenate([takers, others.takers])
        codes.append(others.codes)
        shows.append(np.zeros(len(others.rows), bool))
        announces.append(shows[-1])
        if others.called is not None:
            calls = np.concatenate([np.broadcast_to(calls, paired), others.called])
    played = play(
        deals.rows(every),
        takers,
        np.concatenate(codes).astype(np.int8),
        policy,
        defence_policy,
        rng=rng,
        called=calls,
        taker_poignee=np.concatenate(shows),
        announce_chelem=np.concatenate(announces),
    )
    out, start = {}, 0
    for first, again, (size_of, announced) in zip(firsts, agains, counts, strict=True):
        size = size_of + len(again) + announced
        both = played if size == len(played) else played.take(np.arange(start, start + size))
        out[first] = _pair(both, first, size_of, again, announced)
        start += size
    extra = played.take(np.arange(paired, len(every))) if len(every) > paired else None
    return Played(out, extra)


def _pair(both: Playout, first: Contract, n: int, again: np.ndarray, announced: int) -> PairPlay:
    """The :class:`PairPlay` of ``first``'s pair from its playout: the N deals hidden, then
    ``again`` (M,) int64 of them shown, then the first ``announced`` with the chelem
    announced."""
    hidden = both.take(np.arange(n)) if len(both) > n else both
    hidden_scores = {c: score(hidden, c) for c in pair_of(first)}
    chelem = both.take(n + len(again) + np.arange(announced)) if announced else None
    showed = taker_may_show(hidden)[again]
    if not showed.any():
        return PairPlay(hidden, hidden_scores, announced=chelem)
    shown = both.take(n + np.flatnonzero(showed))
    shown_scores = {c: score(shown, c) for c in pair_of(first)}
    return PairPlay(hidden, hidden_scores, again[showed], shown, shown_scores, chelem)
