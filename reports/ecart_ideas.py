"""How the named écart ideas fare against the engine's own écart, over many random hands.

The hands are the first ``hands`` seat-0 hands of random deals (never a petit sec) that count
at least ``min_points`` (rules.md §11), each with the chien of its deal. Each is analysed like
``tarot-advise --chien`` (:func:`ecart_advice.analyse_ecart`, its own seed), and every idea's
gain over the engine's écart on that hand (paired on its samples) is kept. An idea's figure is
the mean of its gains over the hands where it exists (on a hand, the mean over its écarts:
"void one suit" may void ♠ or ♦), with the standard error across hands:
where the advice finds better écarts than the engine's again and again, it shows here.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tarot_advisor.analyzer.advice.ecart_advice import analyse_ecart
from tarot_advisor.analyzer.advice.hand_samples import GREEDY_TABLE
from tarot_advisor.analyzer.advice.heuristic import point_counts
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.stats import Estimate

DRAWN = 4000
"""Deals drawn at a time to find the hands: enough for 60 hands of 40 points many times over."""
MOST_DRAWN = 100 * DRAWN
"""The most deals drawn to find them: rarer hands are refused (:class:`IdeasError`)."""


class IdeasError(ValueError):
    """A study that cannot be made as asked, with the sentence that says why."""


MIN_HANDS = 5
"""The fewest hands an idea is judged on: below, its mean and SE across hands say nothing."""


@dataclass(frozen=True)
class IdeaGain:
    """One idea (a family: every "void X" is "void one suit") against the engine's écart."""

    idea: str
    gain: Estimate
    """Mean gain over the engine's écart, ± SE across the hands where the idea exists."""
    hands: int
    better: float
    """The share of those hands where it scored higher than the engine's écart."""


STUDY_PLAY = GREEDY_TABLE
"""Who plays this study's deals: the greedy at every seat. It checks the engine's écart (the
greedy's) against the named ideas over many hands and samples, hours of the lookahead's time."""


@dataclass(frozen=True)
class IdeasCheck:
    players: int
    contract: Contract
    hands: int
    samples: int
    min_points: int
    seed: int
    ideas: tuple[IdeaGain, ...]
    """Best first."""
    seconds: float

    @property
    def judged(self) -> tuple[IdeaGain, ...]:
        """The ideas found on at least :data:`MIN_HANDS` hands, best first."""
        return tuple(idea for idea in self.ideas if idea.hands >= MIN_HANDS)

    @property
    def too_few(self) -> tuple[IdeaGain, ...]:
        """The ideas found on too few hands to be judged."""
        return tuple(idea for idea in self.ideas if idea.hands < MIN_HANDS)

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "contract": self.contract.value,
            "hands": self.hands,
            "samples": self.samples,
            "min_points": self.min_points,
            "seed": self.seed,
            "ideas": [
                {
                    "idea": i.idea,
                    "gain": i.gain.mean,
                    "gain_se": None if math.isnan(i.gain.se) else i.gain.se,
                    "hands": i.hands,
                    "better": i.better,
                }
                for i in self.judged
            ],
            "too_few_hands": {i.idea: i.hands for i in self.too_few},
        }


def family(idea: str) -> str:
    """The family of an idea's name: the voids of each suit, and the engine's one-card
    variations, are each one idea."""
    if idea.startswith("engine, keeping"):
        return "engine, one card changed"
    if re.fullmatch(r"void . and .", idea):
        return "void two suits"
    if re.fullmatch(r"void .", idea):
        return "void one suit"
    return idea


def study_hands(
    rng: np.random.Generator, players: int, hands: int, min_points: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The first ``hands`` seat-0 hands of at least ``min_points`` points of random deals drawn
    :data:`DRAWN` at a time, each with its deal's chien ((h,) and (c,) uint8 card ids); raises
    :class:`IdeasError` where :data:`MOST_DRAWN` deals do not hold that many."""
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(MOST_DRAWN // DRAWN):
        deals = deal(rng, DRAWN, players, reject_petit_sec=True)
        points, _ = point_counts(deals.hands[:, 0])
        rows = np.flatnonzero(points >= min_points)[: hands - len(found)]
        found += [(deals.hands[row, 0], deals.chien[row]) for row in rows]
        if len(found) == hands:
            return found
    raise IdeasError(
        f"hands of {min_points} points or more are too rare: {len(found)} in {MOST_DRAWN:,} "
        f"random deals, not the {hands} asked for (--hands); ask for fewer, or lower --min-points"
    )


def check_ideas(
    players: int = 4,
    *,
    contract: Contract = Contract.GARDE,
    hands: int = 60,
    samples: int = 300,
    min_points: int = 40,
    seed: int = 2026,
    jobs: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> IdeasCheck:
    """Every idea's gain over the engine's écart on ``hands`` random hands (see the module
    docstring); ``jobs``: the workers of each hand's analysis (never changes the numbers);
    ``on_done`` receives the number of hands finished so far."""
    start = time.perf_counter()
    gains: dict[str, list[float]] = defaultdict(list)
    studied = study_hands(np.random.default_rng(seed), players, hands, min_points)
    for done, (hand, chien) in enumerate(studied, start=1):
        analysis = analyse_ecart(
            hand.tolist(),
            chien.tolist(),
            players,
            contract=contract,
            samples=samples,
            seed=seed + done,
            jobs=jobs,
            sides=STUDY_PLAY,
        )
        on_hand: dict[str, list[float]] = defaultdict(list)
        for candidate in analysis.candidates:
            for idea in set(map(family, candidate.ideas)) - {"engine"}:
                on_hand[idea].append(candidate.gain.mean)
        for idea, hand_gains in on_hand.items():
            gains[idea].append(float(np.mean(hand_gains)))
        if on_done:
            on_done(done)
    ideas = [
        IdeaGain(idea, Estimate.of(np.array(g)), len(g), float(np.mean(np.array(g) > 0)))
        for idea, g in gains.items()
    ]
    return IdeasCheck(
        players=players,
        contract=contract,
        hands=len(studied),
        samples=samples,
        min_points=min_points,
        seed=seed,
        # Ideas that gain alike are named in alphabetical order: the order of the sets above
        # changes with Python's string hashing from one process to the next.
        ideas=tuple(sorted(ideas, key=lambda i: (-i.gain.mean, i.idea))),
        seconds=time.perf_counter() - start,
    )
