"""The candidate écarts played on shared deals, in rounds raced to the close calls.

Every candidate of a round is played on the *same* deals (the hand and the chien known, the
other hands dealt), and the searching players draw from each deal's key (:mod:`..playout.keys`),
so two écarts differ only where what their players know differs. A staged advice plays
:data:`ROUNDS` rounds at most: after each, a candidate whose choice against the advised écart is
settled (:func:`action_values.settled`: its paired gap 2 SE from 0, or known within ± 10 × the
multiplier) stops, and the next round plays the others (with the advised écart and the
engine's, the reference). Each round's chunks are on streams after the last's, so a candidate
played fewer rounds has the first samples of the others: its gaps are paired on those.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..game import Contract
from ..parallel import FORK, map_chunks
from ..playout import bitboard as bb
from ..playout.deal import DealError, Deals, deal
from ..playout.ecart import FixedEcart
from ..playout.engine import play
from ..playout.scoring import score
from ..stats import paired_gap
from .action_values import settled
from .hand_samples import Sides

ROUNDS = 5
"""The most rounds a staged écart advice plays (each of :data:`SEARCH_SAMPLES` samples)."""
SEARCH_SAMPLES = 96
"""Samples of every écart in a round when a side searches (the lookahead, the default)."""
CHUNK = 1000
"""Samples per chunk when no side searches; each chunk plays every candidate on them."""
SEARCH_CHUNK = 48
"""Samples per chunk when a side searches: a round's two chunks run side by side."""
SIGNIFICANT = 2.0
"""An alternative écart is advised over the engine's when it gains more than this many SE."""


class EcartInputError(ValueError):
    """A chien, contract or call that cannot go with the hand."""


def _sample(
    rng: np.random.Generator,
    n: int,
    hand: tuple[int, ...],
    chien: tuple[int, ...],
    players: int,
    position: int | None,
) -> tuple[Deals, np.ndarray]:
    """``n`` deals of the other hands with ``hand`` at the taker's seat and the chien known,
    and the seats (N,). The hand is dealt at seat 0, then its block is swapped with the
    taker's seat's: the other hands are alike, so every deal stays equally likely."""
    seats = rng.integers(0, players, n) if position is None else np.full(n, position - 1)
    try:
        deals = deal(
            rng, n, players, known_hands={0: hand}, known_chien=chien, reject_petit_sec=True
        )
    except DealError as error:
        raise EcartInputError(str(error)) from None
    h = len(hand)
    columns = np.tile(np.arange(deals.cards.shape[1]), (n, 1))
    block = seats[:, None] * h + np.arange(h)[None, :]
    rows = np.arange(n)[:, None]
    columns[rows, block] = np.arange(h)[None, :]
    columns[:, :h] = block
    return Deals(players, np.take_along_axis(deals.cards, columns, axis=1), deals.keys), seats


@dataclass(frozen=True)
class Outcomes:
    """Per candidate and sample (K, N): the score hidden, shown (where a poignée may be shown,
    else hidden) and made."""

    hidden: np.ndarray
    shown: np.ndarray
    made: np.ndarray


def chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    chien: tuple[int, ...],
    players: int,
    position: int | None,
    contract: Contract,
    called: int | None,
    ecarts: tuple[tuple[int, ...], ...],
    eligible: tuple[bool, ...],
    sides: Sides,
) -> Outcomes:
    deals, seats = _sample(rng, n, hand, chien, players, position)
    k = len(ecarts)
    tiled = deals.rows(np.tile(np.arange(n), k))  # the candidates' copies keep the deals' keys
    lo, hi = bb.from_cards(np.array(ecarts, np.uint8))
    policy = FixedEcart(np.repeat(lo, n), np.repeat(hi, n))
    taker_policy, defence_policy = sides.policies()

    def run(shown: bool, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sub = tiled.rows(rows)
        fixed = FixedEcart(policy.lo[rows], policy.hi[rows])
        playout = play(
            sub,
            np.tile(seats, k)[rows],
            contract,
            taker_policy,
            defence_policy,
            rng=rng,
            called=called,
            ecart_policy=fixed,
            taker_poignee=shown,
            keep_plays=False,
        )
        scores = score(playout)
        return scores.taker_score, scores.made

    everything = np.arange(k * n)
    hidden, made = run(False, everything)
    shown = hidden.copy()
    again = np.flatnonzero(np.repeat(np.array(eligible), n))
    if again.size:
        shown[again] = run(True, again)[0]
    return Outcomes(hidden.reshape(k, n), shown.reshape(k, n), made.reshape(k, n))


@dataclass(frozen=True)
class Played:
    """Each candidate's samples, in the order of the candidates: ``hidden``, ``shown`` (where
    its hand may show a poignée, else hidden) and ``made``, (N_i,) arrays, N_i the samples of
    the rounds it played (a prefix of the most); the advised candidate (:func:`advised`), and
    those still open against it at the end."""

    hidden: list[np.ndarray]
    shown: list[np.ndarray]
    made: list[np.ndarray]
    advised: int = 0
    open: tuple[int, ...] = ()

    def scores(self) -> list[np.ndarray]:
        """Every candidate's :meth:`better` score per sample."""
        return [self.better(i)[0] for i in range(len(self.hidden))]

    def better(self, i: int) -> tuple[np.ndarray, bool]:
        """Candidate ``i``'s score per sample, the better of showing and hiding (on its own
        samples), and whether that is showing."""
        show = bool(self.shown[i].mean() > self.hidden[i].mean())
        return (self.shown[i] if show else self.hidden[i]), show


def advised(scores: Sequence[np.ndarray]) -> int:
    """The advised candidate: the best mean of those that beat the engine's (candidate 0) by
    more than :data:`SIGNIFICANT` standard errors of the paired gap, else the engine's: the
    best of a dozen noisy means is optimistic, and the engine's écart is the prior."""
    beating = [
        i for i, s in enumerate(scores) if i == 0 or paired_gap(s, scores[0]).z > SIGNIFICANT
    ]
    return max(beating, key=lambda i: float(np.mean(scores[i])))


def play_rounds(
    ecarts: Sequence[tuple[int, ...]],
    eligible: Sequence[bool],
    samples: int,
    rounds: int,
    *,
    contract: Contract,
    seed: int,
    jobs: int,
    sides: Sides,
    on_done: Callable[[int], None] | None,
    **deals: object,
) -> Played:
    """Play the ``ecarts`` (the engine's first; ``eligible``: whether each may show a poignée)
    in up to ``rounds`` rounds of ``samples`` (see the module docstring); ``deals``: the hand,
    the chien, the players, the position and the call, for :func:`chunk`."""
    size = SEARCH_CHUNK if sides.searches else CHUNK
    n = len(ecarts)
    hidden: list[list[np.ndarray]] = [[] for _ in range(n)]
    shown: list[list[np.ndarray]] = [[] for _ in range(n)]
    made: list[list[np.ndarray]] = [[] for _ in range(n)]
    playing, chunks, done = list(range(n)), 0, 0
    for _ in range(rounds):
        parts = map_chunks(
            chunk,
            samples,
            seed=seed,
            # The chunk depends on the policies only, so the numbers never depend on the workers.
            chunk_size=size,
            jobs=jobs,
            backend=FORK,
            on_done=None if on_done is None else lambda k, done=done: on_done(done + k),
            first_chunk=chunks,
            sides=sides,
            contract=contract,
            ecarts=tuple(ecarts[i] for i in playing),
            eligible=tuple(eligible[i] for i in playing),
            **deals,
        )
        chunks, done = chunks + len(parts), done + samples
        for row, i in enumerate(playing):
            hidden[i].append(np.concatenate([p.hidden[row] for p in parts]))
            shown[i].append(np.concatenate([p.shown[row] for p in parts]))
            made[i].append(np.concatenate([p.made[row] for p in parts]))
        played = Played(*([np.concatenate(a) for a in x] for x in (hidden, shown, made)))
        scores = played.scores()
        best = advised(scores)
        unsettled = tuple(
            i
            for i in playing
            if i != best
            and not settled(paired_gap(scores[i], scores[best]), contract.value, contract.value)
        )
        playing = sorted({0, best, *unsettled})
        if not unsettled:
            break
    return replace(played, advised=best, open=unsettled)
