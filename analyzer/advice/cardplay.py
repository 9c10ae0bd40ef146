"""Card-play advice: "what do I play now?", with numbers.

Every legal card is played in the same K worlds (paired: consistent deals of the hidden cards,
:mod:`midgame`), each continued to the end by the greedy for every seat; the card's expected
score for the user and the probability that the contract is made are the means over the
worlds. Because the worlds are shared, the gap between a card and the best one is measured
world by world (``versus_best``): its standard error, not the two cards' own, says whether
the first card is really the better one (two cards that differ only in a few worlds have
overlapping intervals and a clear gap). Worlds are drawn in chunks (:mod:`parallel`), so the
numbers depend on the seed and the sample count only, never on ``jobs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import format_card, format_cards
from ..parallel import DEFAULT_SEED, map_chunks
from ..playout import bitboard as bb
from ..playout.scoring import score
from ..search.midgame import continue_play, draw_worlds
from ..search.position import Position
from ..stats import Estimate
from .display import Summary, proportion, signed

DEFAULT_SAMPLES = 500
CHUNK = 250


@dataclass(frozen=True)
class CardEstimate:
    """One legal card: the user's expected score and P(the contract is made), with SEs, and
    ``versus_best``: the expected score minus the best card's, world by world (0 for the best;
    its SE is the paired one)."""

    card: int
    expected_score: Estimate
    p_make: Estimate
    versus_best: Estimate

    def to_dict(self) -> dict:
        return {
            "card": format_card(self.card),
            "expected_score": self.expected_score.mean,
            "expected_score_se": self.expected_score.se,
            "p_make": self.p_make.mean,
            "p_make_se": self.p_make.se,
            "versus_best": self.versus_best.mean,
            "versus_best_se": self.versus_best.se,
        }


@dataclass(frozen=True)
class CardAdvice:
    """Every legal card, best first (highest expected score for the user), and the card the
    greedy would play."""

    position: Position
    cards: tuple[CardEstimate, ...]
    greedy_choice: int
    samples: int
    seed: int

    def summary(self) -> Summary:
        """A row per legal card (E[score], the gap to the best, P(make)), best first, the
        greedy's card noted: what ``repr`` and a notebook show."""
        position = self.position
        rows = tuple(
            (
                format_card(estimate.card)
                + (" (greedy)" if estimate.card == self.greedy_choice else ""),
                signed(estimate.expected_score),
                "best" if rank == 0 else signed(estimate.versus_best),
                proportion(estimate.p_make.mean, self.samples).strip(),
            )
            for rank, estimate in enumerate(self.cards)
        )
        table = format_cards(position.current, sort=False) if position.current else "nothing yet"
        return Summary(
            title=f"Seat {position.seat} ({position.role}), {position.contract.label}, trick"
            f" {self.trick}: {format_cards(position.hand)}; on the table: {table}",
            header=("Card", "E[score] (you)", "vs best", "P(make) [95%]"),
            rows=rows,
            marked=0,
            notes=(
                f"Advice: play {format_card(self.cards[0].card)}.",
                f"{self.samples:,} deals of the unseen cards · seed {self.seed} · P(make): the"
                " taker makes the contract · every figure: to_dict()",
            ),
        )

    @property
    def trick(self) -> int:
        """The number of the trick being played (1 = the first)."""
        return len(self.position.tricks) + (not self.position.current)

    def __repr__(self) -> str:
        return self.summary().text()

    def _repr_html_(self) -> str:
        return self.summary().html()

    def to_dict(self) -> dict:
        return {
            "seat": self.position.seat,
            "role": self.position.role,
            "trick": self.trick,
            "cards": [card.to_dict() for card in self.cards],
            "greedy_choice": format_card(self.greedy_choice),
            "samples": self.samples,
            "seed": self.seed,
        }


def _chunk(
    rng: np.random.Generator, n: int, position: Position, candidates: list[int]
) -> dict[str, np.ndarray]:
    """Scores and results of every candidate card in ``n`` worlds: (C, n) arrays, and the
    greedy's own card in the first world."""
    worlds = draw_worlds(position, n, rng)
    run = continue_play(position, worlds, candidates, rng)
    scores = score(run.playout)
    shape = (len(candidates), n)
    greedy = continue_play(position, (worlds[0][:1], worlds[1][:1]), None, rng)
    return {
        "score": scores.scores[:, run.user_seat].reshape(shape),
        "made": scores.made.reshape(shape),
        "greedy": _greedy_card(greedy.playout, len(_prefix(position))),
    }


def _prefix(position: Position) -> list[int]:
    return [card for trick in position.tricks for card in trick]


def _greedy_card(playout, step: int) -> int:
    lo, hi = playout.played_lo[step, 0], playout.played_hi[step, 0]
    in_hi = hi != 0
    bit = bb.lowest_bit(np.array([hi if in_hi else lo]))
    return int(bb.card_of(np.array([int(in_hi)], np.int8), bit)[0])


def advise_play(
    position: Position,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    candidates: Sequence[int] | None = None,
) -> CardAdvice:
    """The user's legal cards ranked by expected score over ``samples`` paired worlds.

    ``candidates``: the legal cards to rank (default: all of them); a review leaves out the
    cards that play alike (:func:`lookahead.distinct_cards`) but always keeps the card played.
    """
    if position.to_play != position.seat:
        raise ValueError(f"it is seat {position.to_play}'s turn to play, not yours")
    cards = position.legal() if candidates is None else sorted(candidates)
    if not set(cards) <= set(position.legal()):
        raise ValueError("every candidate must be a legal card")
    chunks = map_chunks(
        _chunk,
        samples,
        seed=seed,
        chunk_size=CHUNK,
        jobs=jobs,
        position=position,
        candidates=cards,
    )
    scores = np.concatenate([c["score"] for c in chunks], axis=1)  # (C, samples)
    made = np.concatenate([c["made"] for c in chunks], axis=1)
    greedy = chunks[0]["greedy"]
    # Best first; among equal means (cards that play the same), the greedy's own first.
    means = scores.mean(axis=1)
    order = sorted(range(len(cards)), key=lambda i: (-means[i], cards[i] != greedy))
    best = scores[order[0]]
    estimates = tuple(
        CardEstimate(
            cards[i], Estimate.of(scores[i]), Estimate.of(made[i]), Estimate.of(scores[i] - best)
        )
        for i in order
    )
    return CardAdvice(position, estimates, greedy, samples, seed)
