"""The engine checked against the referee at scale: every card legal, every outcome equal.

Deals are dealt (no petit sec), a taker drawn per deal, and played by the engine under every
contract and by the greedy and the random policy in turn (5 players: a called king; poignées
shown whenever allowed; one deal in eight with an announced chelem). Each playout is written as
a deal record and replayed card by card through the referee (:mod:`analyzer.record`), whose
outcome is compared with the engine's own, key by key.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.parallel import DEFAULT_SEED, map_chunks
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.players.policy import RandomPolicy
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.scoring import records, score
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.record import replay
from tarot_advisor.analyzer.rulebook.rules import RuleError

CHUNK = 800
"""Deals per chunk: a multiple of the 8 variants (4 contracts × 2 policies)."""
MAX_EXAMPLES = 5


@dataclass
class EngineCheck:
    """How many playouts were replayed, and the first disagreements (records with a reason)."""

    players: int
    deals: int
    seed: int
    seconds: float = 0.0
    mismatches: int = 0
    examples: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.mismatches == 0

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "mismatches": self.mismatches,
            "examples": self.examples,
        }


def _check_chunk(rng: np.random.Generator, n: int, *, players: int) -> tuple[int, list[dict]]:
    deals = deal(rng, n, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n)
    called = None
    if players == 5:
        called = longest_suit_call(deals.hands[np.arange(n), taker])
    variants = itertools.product(Contract, (GreedyPolicy(), RandomPolicy()))
    mismatches, examples = 0, []
    for index, (contract, policy) in enumerate(variants):
        rows = np.arange(index, n, 8)
        if rows.size == 0:  # fewer deals in the chunk than variants: this one plays none
            continue
        subset = type(deals)(players, deals.cards[rows])
        playout = play(
            subset,
            taker[rows],
            contract,
            policy,
            rng=rng,
            called=None if called is None else called[rows],
            announce_chelem=index == 7,
        )
        for record in records(playout, score(playout)):
            try:
                expected = replay(record).as_dict()
                wrong = [k for k in expected if record["result"].get(k) != expected[k]]
                reason = f"outcome differs on {', '.join(wrong)}" if wrong else None
            except (RuleError, ValueError) as error:
                reason = f"the referee rejects it: {error}"
            if reason is not None:
                mismatches += 1
                if len(examples) < MAX_EXAMPLES:
                    examples.append({"reason": reason, "record": record})
    return mismatches, examples


def check_engine(
    players: int,
    n_deals: int,
    *,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    on_done: Callable[[int], None] | None = None,
) -> EngineCheck:
    """Play ``n_deals`` deals through the engine and replay each through the referee."""
    start = time.perf_counter()
    result = EngineCheck(players, n_deals, seed)
    for mismatches, examples in map_chunks(
        _check_chunk,
        n_deals,
        seed=seed,
        chunk_size=CHUNK,
        jobs=jobs,
        on_done=on_done,
        players=players,
    ):
        result.mismatches += mismatches
        result.examples.extend(examples[: MAX_EXAMPLES - len(result.examples)])
    result.seconds = time.perf_counter() - start
    return result
