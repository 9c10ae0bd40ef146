"""The lookahead player: each legal card played out in K consistent worlds, the best kept.

Perfect-information Monte Carlo with rollouts (as bridge's GIB and skat's Kermit choose their
cards): at each of its decisions, for every deal at once, :class:`LookaheadPolicy` draws K
worlds of the hidden cards consistent with what its player knows (:mod:`worlds`), plays every
legal card in the first half of them and continues each to the end with the greedy for every
seat (:mod:`midgame`), then in the second half only the cards the first leaves in contention
(:func:`contenders`). The worlds are the same for every card, so the comparison is paired. It
plays the card with the best mean score for its side, when that card beats the greedy's by more than
one standard error of the paired difference (else the greedy's): with K = 6 worlds and up to 15
cards, the best mean is often only the luckiest. Cards that play alike (:func:`distinct_cards`:
the 5 and the 3 of a suit when the 4 is gone) are searched once.

What it knows is the table's knowledge model (:func:`knowledge.of`, rules.md §12): its hand,
the cards played, voids, "no trumps" and undertrumps shown, the poignées, the chien shown in
Prise and Garde, its own écart when taking. It follows the cards played as the deal goes (it is
asked at every turn before the last trick) on a :class:`midgame.Shadow` of the table, the
public state from which each search sets up its worlds at the current card.
"""

from __future__ import annotations

import numpy as np

from ..players.greedy import GreedyPolicy
from ..playout import bitboard as bb
from ..playout.bitboard import U64, ZERO
from ..playout.engine import Playout
from ..playout.scoring import per_defender_as_played
from ..playout.table import Candidate, Policy, Table, Turn
from ..playout.words import entry_point, kernel, lowest, quiet_wrap
from .known import constraints_of
from .midgame import Shadow, play_candidates
from .worlds import NoWorldError, sample

DEFAULT_WORLDS = 6
"""Worlds per decision: the most the advice can afford in seconds. Against 8 worlds it costs a
few points a deal (paired duels: docs/performance.md, "The lookahead's strength"), against
the +17 to +60 the 6-world lookahead gains over the greedy, for 0.75 of the advice's time; 4
worlds cost the taker some 16 points a deal, and 16 gained nothing measurable for 1.5 × the
CPU."""
DEFAULT_MARGIN = 1.0
"""Standard errors by which a card must beat the greedy's to be played instead
(:func:`best_candidates`). Gains over the greedy, Garde, 2,000 deals (1,000 as taker), seed 21
(31 as taker), one run per row, the same deals across a row, ± 1 SE:

==================  ============  ============  ============  ============
margin              0             0.5           1             2
5 players, defence  +8.8 ± 3.3    +19.7 ± 3.3   +26.4 ± 3.0   +20.9 ± 2.2
4 players, defence  +25.7 ± 4.4                 +40.5 ± 4.0   +24.3 ± 3.0
4 players, taker    +52.3 ± 5.5                 +63.6 ± 5.1   +49.1 ± 4.3
==================  ============  ============  ============  ============
"""
CONTENTION_Z = 0.5
"""A card is played in the second half of the worlds unless the first half puts it behind the
greedy's by this many standard errors of the paired difference or more (:func:`contenders`):
against every card in every world, 97.6% of the decisions stay the same for 0.69 of the
rollouts, and paired duels show no loss with 3, 4 or 5 players (the eleventh sitting:
``git log -p docs/performance.md``)."""
SIDES = ("both", "taker", "defence")


def first_half(worlds: int) -> int:
    """The worlds in which every card is played: half of them (all of fewer than 4); the rest
    only for the cards still in contention (:func:`contenders`)."""
    return worlds // 2 if worlds >= 4 else worlds


class LookaheadPolicy:
    """Chooses, per deal, the legal card with the best mean over ``worlds`` paired worlds, if
    it beats the greedy's card by ``margin`` standard errors (:func:`best_candidates`).

    ``side``: the decisions it searches — ``"both"``, ``"taker"`` (the taker's side) or
    ``"defence"``; at the others it plays as the greedy (when one policy is asked about both
    sides, this spares the searches whose answer would not be used). ``batch``: deals searched
    together (memory: about ``batch × worlds × cards`` playouts at once).
    """

    name = "lookahead"

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        side: str = "both",
        rollout: Policy | None = None,
        batch: int = 512,
        margin: float = DEFAULT_MARGIN,
    ) -> None:
        if side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}, not {side!r}")
        self.worlds = worlds
        self.side = side
        self.rollout = rollout or GreedyPolicy()
        self.batch = batch
        self.margin = margin
        self.decisions = 0  # deals × turns searched so far (for the cost: decisions per second)
        self._table: Table | None = None

    def for_side(self, side: str) -> LookaheadPolicy:
        """The same player, searching only the decisions of ``side``."""
        return LookaheadPolicy(self.worlds, side, self.rollout, self.batch, self.margin)

    def choose(self, turn: Turn, rng: np.random.Generator) -> Candidate:
        self.observe(turn)
        chosen_lo, chosen_hi = self.rollout.choose(turn, rng)
        chosen_lo, chosen_hi = chosen_lo.copy(), chosen_hi.copy()
        options = bb.popcount(turn.legal_lo) + bb.popcount(turn.legal_hi)
        mine = options > 1
        if self.side != "both":
            mine &= turn.on_taker_side == (self.side == "taker")
        asked = np.flatnonzero(mine)  # among the turn's deals
        self.decisions += len(asked)
        # Where every legal card plays alike, any one is as good: the greedy's stands unsearched.
        distinct_lo, distinct_hi = distinct_cards(
            turn.legal_lo[asked], turn.legal_hi[asked], *_gone(turn.table, turn.rows[asked])
        )
        several = bb.popcount(distinct_lo) + bb.popcount(distinct_hi) > 1
        asked, distinct_lo, distinct_hi = asked[several], distinct_lo[several], distinct_hi[several]
        whole = _every_deal(turn)
        for start in range(0, len(asked), self.batch):
            part = slice(start, start + self.batch)
            at = asked[part]
            chosen_lo[at], chosen_hi[at] = self._search(
                whole,
                turn.rows[at],
                rng,
                (chosen_lo[at], chosen_hi[at]),
                (distinct_lo[part], distinct_hi[part]),
            )
        return chosen_lo, chosen_hi

    # --- the deal so far, as it was seen ---------------------------------------------------

    def observe(self, turn: Turn) -> None:
        """Follow the card played since the last call (:class:`midgame.Shadow`). :meth:`choose`
        calls it; whoever drives the policy without asking it for a card (a replay) calls it at
        every turn instead, so that it knows the deal so far."""
        table = turn.table
        if table is not self._table:
            self._table = table
            self._shadow = Shadow(table)
        else:
            self._shadow.follow((table.played_lo ^ self._seen_lo, table.played_hi ^ self._seen_hi))
        self._seen_lo, self._seen_hi = table.played_lo.copy(), table.played_hi.copy()

    # --- one decision, for the deals ``idx`` ------------------------------------------------

    def _search(
        self,
        turn: Turn,
        idx: np.ndarray,
        rng: np.random.Generator,
        greedy: Candidate,
        distinct: Candidate,
    ) -> Candidate:
        """The card to play in the deals ``idx``: the best of the ``distinct`` cards
        (:func:`distinct_cards`), against the ``greedy``'s (:func:`best_candidates`). Every card
        is played in the first half of the worlds, and in the second only the cards that half
        leaves in contention (:func:`contenders`)."""
        table = turn.table
        k = self.worlds
        keys = table.decision_keys(idx)
        try:
            worlds = sample(constraints_of(turn, idx), k, rng, keys=keys)  # (B, K, n + 1) pairs
        except NoWorldError:  # the taker called his own card after all: only the certain
            worlds = sample(constraints_of(turn, idx, likely=False), k, rng, keys=keys)
        candidates_lo, candidates_hi, valid = _candidates(*distinct)
        candidates = candidates_lo, candidates_hi
        legal = turn.legal_lo[idx], turn.legal_hi[idx]
        greedy = lowest_equivalent(greedy, *legal, *_gone(table, idx))
        is_greedy = (candidates_lo == greedy[0][:, None]) & (candidates_hi == greedy[1][:, None])
        side = np.where(turn.on_taker_side[idx], 1.0, -1.0)[:, None, None]
        first = first_half(k)
        per_world = np.zeros((*valid.shape, k))  # (B, C, K); columns not played stay 0
        per_world[..., :first] = side * self._scores(
            table, idx, worlds, candidates, valid, range(first), rng
        )
        searched = valid
        if first < k:
            searched = contenders(per_world[..., :first], valid, is_greedy, CONTENTION_Z)
            more = searched & (searched.sum(axis=1) > 1)[:, None]  # else the greedy's card alone
            if more.any():
                per_world[..., first:] = side * self._scores(
                    table, idx, worlds, candidates, more, range(first, k), rng
                )
        best = best_candidates(per_world, searched, is_greedy, self.margin)
        rows = np.arange(len(idx))
        return candidates_lo[rows, best], candidates_hi[rows, best]

    def _scores(
        self,
        table: Table,
        idx: np.ndarray,
        worlds: Candidate,
        candidates: Candidate,
        played: np.ndarray,
        span: range,
        rng: np.random.Generator,
    ) -> np.ndarray:
        """(B, C, len(span)) float64: the taker's side's score per defender when each
        ``played`` ((B, C) bool) candidate (``candidates``: (B, C) one-bit pairs) is played in
        the worlds ``span`` of its deal (``worlds``: (B, K, n + 1) uint64 pairs); 0 elsewhere.
        A playout per played candidate and world, in the order (deal, candidate, world)."""
        k, n, w = self.worlds, table.players, len(span)
        deal = np.nonzero(played)[0]  # the deal of each played candidate
        candidate = np.repeat(candidates[0][played], w), np.repeat(candidates[1][played], w)
        world = (deal[:, None] * k + np.asarray(span)).reshape(-1)  # each playout's world
        world_lo, world_hi = (part.reshape(-1, n + 1)[world] for part in worlds)
        playout = self._play_out(table, idx[world // k], (world_lo, world_hi), candidate, rng)
        scores = np.zeros((*played.shape, w))
        scores[played] = per_defender_as_played(playout).reshape(-1, w)
        return scores

    def _play_out(
        self,
        table: Table,
        rows: np.ndarray,
        worlds: Candidate,
        candidate: Candidate,
        rng: np.random.Generator,
    ) -> Playout:
        """Each playout: the deal ``rows`` ((R,) int64 of the table's) at the current card, in
        its world (``worlds``: (R, n + 1) uint64 pairs, the hidden cards by seat then the
        aside), its ``candidate`` card ((R,) one-bit pairs) played, then the rollout to the end."""
        n = table.players
        lo, hi = worlds
        game = self._shadow.worlds(rows, lo[:, :n].T, hi[:, :n].T, lo[:, n], hi[:, n])
        return play_candidates(game, candidate, rng, self.rollout)


def contenders(
    per_world: np.ndarray, valid: np.ndarray, is_greedy: np.ndarray, z: float
) -> np.ndarray:
    """(B, C) bool: the ``valid`` candidates still in contention after the worlds of
    ``per_world`` ((B, C, K) float64 scores for the player's side, K ≥ 2): the greedy's card
    (``is_greedy``, one per row), and each card whose paired difference from it is not below 0
    by ``z`` standard errors (mean + z SE > 0). So a card that did no better than the greedy's
    in any world is out: over all the worlds it could beat the greedy's by more than a
    standard error (:func:`best_candidates`) only on the rest alone, which is rare."""
    k = per_world.shape[2]
    base = per_world[np.arange(len(per_world)), is_greedy.argmax(axis=1)]  # (B, K)
    diff = per_world - base[:, None, :]
    se = diff.std(axis=2, ddof=1) / np.sqrt(k)
    return valid & (is_greedy | (diff.mean(axis=2) + z * se > 0))


def best_candidates(
    per_world: np.ndarray, valid: np.ndarray, is_greedy: np.ndarray, margin: float
) -> np.ndarray:
    """The column of the card to play, per deal: the best mean for the player's side of
    ``per_world`` ((B, C, K) float64 scores, candidate by world), among the ``valid`` (B, C)
    candidates that are the greedy's card (``is_greedy``, one per row) or beat it by more than
    ``margin`` standard errors of the paired difference; on a tie, the greedy's card.

    Why the margin: the best of many means over K worlds is partly the luckiest, so a card that
    merely looks better than the greedy's is often not; the greedy's habits are a good prior,
    left only on the evidence. A card better in every world by the same amount (no spread) is
    always taken."""
    mine = per_world.mean(axis=2)
    k = per_world.shape[2]
    if margin > 0 and k > 1:
        base = per_world[np.arange(len(per_world)), is_greedy.argmax(axis=1)]  # (B, K)
        diff = per_world - base[:, None, :]
        se = diff.std(axis=2, ddof=1) / np.sqrt(k)
        valid = valid & (is_greedy | (diff.mean(axis=2) > margin * se))
    mine = np.where(valid, mine, -np.inf)
    top = mine >= mine.max(axis=1, keepdims=True)
    return np.where(
        (top & is_greedy).any(axis=1), (top & is_greedy).argmax(axis=1), top.argmax(axis=1)
    )


def _gone(table: Table, idx: np.ndarray) -> Candidate:
    """The cards played in earlier tricks, in the deals ``idx``."""
    return (
        table.played_lo[idx] & ~table.trick_lo[idx],
        table.played_hi[idx] & ~table.trick_hi[idx],
    )


def _every_deal(turn: Turn) -> Turn:
    """``turn`` asked about every deal of its table (no legal card in the others), so that a
    search indexes the table's deals alike."""
    if turn.deals is None:
        return turn
    legal_lo = np.zeros(turn.table.n_deals, U64)
    legal_hi = np.zeros(turn.table.n_deals, U64)
    legal_lo[turn.deals], legal_hi[turn.deals] = turn.legal_lo, turn.legal_hi
    return Turn(turn.table, turn.position, legal_lo, legal_hi)


# The cards that may chain, and the shift to the next lower card of the same suit and value:
_LOW_LO, _FOUR = bb.LOW_LO, U64(4)  # in lo, suited cards 1…10 (half a point each)
_MIDDLE_TRUMPS_HI, _ONE = bb.MIDDLE_TRUMPS_HI, U64(1)  # in hi, trumps 2…20 (not the bouts)


@kernel
def _run_down(cards: U64, chain: U64, shift: U64, legal: U64, gone: U64) -> tuple[U64, U64]:
    """:func:`_runs_down` in one word: walks down from each card of ``cards`` through the lower
    cards of ``chain`` ``shift`` bits apart while they are ``legal`` or ``gone``. (The cards of
    ``cards`` whose walk meets a legal card, the last legal card met or else ``cards``.) A walk
    is at most 10 steps of 4 bits or 19 of 1: no shift passes the word's 64 bits."""
    found, low = ZERO, cards
    frontier = cards & chain
    back = ZERO
    while frontier != ZERO:
        frontier = (frontier >> shift) & chain
        back += shift
        hit = frontier & legal
        found |= hit << back  # back to the card the walk started from
        if hit != ZERO:
            low = hit
        frontier &= legal | gone
    return found, low


@entry_point
def _runs_down_all(cards, legal, gone, equivalent, lowest):
    """:func:`_run_down` of every deal, both words: ``cards``, ``legal``, ``gone`` (lo, hi)
    pairs of (N,) uint64 in, ``equivalent`` and ``lowest`` (lo, hi) pairs of (N,) uint64 out."""
    for i in range(cards[0].shape[0]):
        equivalent[0][i], lowest[0][i] = _run_down(
            cards[0][i], _LOW_LO, _FOUR, legal[0][i], gone[0][i]
        )
        equivalent[1][i], lowest[1][i] = _run_down(
            cards[1][i], _MIDDLE_TRUMPS_HI, _ONE, legal[1][i], gone[1][i]
        )


def _runs_down(cards: Candidate, legal: Candidate, gone: Candidate) -> tuple[Candidate, Candidate]:
    """Walks down from each card of ``cards`` ((N,) uint64 pairs) through the lower cards of the
    same suit and value (suited cards 1…10, trumps 2…20) while they are legal or ``gone``
    (played in earlier tricks). Returns the cards of ``cards`` whose walk meets a legal card,
    and for one-card sets, the lowest legal card met (else the card itself)."""
    n = len(cards[0])
    equivalent = np.empty(n, U64), np.empty(n, U64)
    low = np.empty(n, U64), np.empty(n, U64)
    words = tuple(np.ascontiguousarray(word, U64) for word in (*cards, *legal, *gone))
    with quiet_wrap():
        _runs_down_all(words[0:2], words[2:4], words[4:6], equivalent, low)
    return equivalent, low


def distinct_cards(
    legal_lo: np.ndarray, legal_hi: np.ndarray, gone_lo: np.ndarray, gone_hi: np.ndarray
) -> Candidate:
    """The legal cards worth searching: of legal cards that play alike — same suit (or
    trumps), same value, nothing between them but cards played in earlier tricks, so whichever
    is played, the rest of the deal is the same up to the names of those cards — only the
    lowest. The bouts, the Excuse and the honours each stand alone. (N,) uint64 pairs."""
    (lo, hi), _ = _runs_down((legal_lo, legal_hi), (legal_lo, legal_hi), (gone_lo, gone_hi))
    return legal_lo & ~lo, legal_hi & ~hi


def lowest_equivalent(
    card: Candidate,
    legal_lo: np.ndarray,
    legal_hi: np.ndarray,
    gone_lo: np.ndarray,
    gone_hi: np.ndarray,
) -> Candidate:
    """The card of :func:`distinct_cards` that stands for ``card`` (one-bit (N,) pairs)."""
    return _runs_down(card, (legal_lo, legal_hi), (gone_lo, gone_hi))[1]


def _candidates(legal_lo: np.ndarray, legal_hi: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each deal's legal cards as columns, lowest bit first (lo then hi): (B, C) one-bit pairs
    and (B, C) bool valid; the invalid columns repeat the first card (so every row still plays
    a card)."""
    count = bb.popcount(legal_lo) + bb.popcount(legal_hi)
    n_cand = int(count.max())
    cand_lo = np.zeros((len(legal_lo), n_cand), U64)
    cand_hi = np.zeros((len(legal_lo), n_cand), U64)
    with quiet_wrap():
        _columns(np.ascontiguousarray(legal_lo), np.ascontiguousarray(legal_hi), cand_lo, cand_hi)
    valid = np.arange(n_cand)[None, :] < count[:, None]
    return cand_lo, cand_hi, valid


@entry_point
def _columns(legal_lo, legal_hi, cand_lo, cand_hi):
    """:func:`_candidates`' columns: the cards of ``legal_lo``/``_hi`` ((B,) uint64) one by one
    into ``cand_lo``/``_hi`` ((B, C) uint64), then the first card again."""
    for b in range(cand_lo.shape[0]):
        lo, hi = legal_lo[b], legal_hi[b]
        for column in range(cand_lo.shape[1]):
            if lo != ZERO:
                cand_lo[b, column], cand_hi[b, column] = lowest(lo), ZERO
                lo ^= cand_lo[b, column]
            elif hi != ZERO:
                cand_lo[b, column], cand_hi[b, column] = ZERO, lowest(hi)
                hi ^= cand_hi[b, column]
            else:
                cand_lo[b, column], cand_hi[b, column] = cand_lo[b, 0], cand_hi[b, 0]
