"""What each action of the auction is worth to the user, from the samples of :mod:`auction`.

An action's value is the user's score per sample, overcalls and the defence counted
(:func:`action_scores`): passing, the deal the user defends; a bid, the user's score as taker
where it stands, else the deal defended. Every action is played on the same samples, so beside
each value the result gives its paired gap to the advised action (:attr:`AuctionResult
.versus_best`), which is far more precise than the difference of two values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..game import BIDS, Contract
from ..stats import Z95, Estimate, paired_gap
from .auction import AuctionSamples
from .bids import legal_actions
from .plan import SETTLED_POINTS, SETTLED_Z


@dataclass(frozen=True)
class AuctionResult:
    """The value of every action the user may take, the bids heard and how they were used."""

    bids: tuple[str, ...] | None
    """The bids heard (``None``: not given; the earlier players then bid by the model too)."""
    others: str
    legal_actions: tuple[str, ...]
    values: dict[str, Estimate]
    """Each action (``pass`` and every contract) → the user's expected score, overcalls and
    the defence counted. Without bids heard a contract that cannot be bid counts as a pass."""
    acceptance_rate: float | None
    """Share of the drawn deals that fit the bids heard (``None`` without bids)."""
    versus_best: dict[str, Estimate] = field(default_factory=dict)
    """Each legal action → its score minus the advised action's, paired on the same samples
    (:func:`with_gaps`): far more precise than the difference of their values."""

    @property
    def open(self) -> tuple[str, ...]:
        """The legal actions whose choice against the advised one is not :func:`settled`."""
        best = self.recommendation
        return tuple(
            action
            for action, gap in self.versus_best.items()
            if action != best and not settled(gap, best, action)
        )

    @property
    def expected_pass(self) -> Estimate:
        return self.values["pass"]

    @property
    def recommendation(self) -> str:
        """The legal action of highest expected score."""
        return max(self.legal_actions, key=lambda action: self.values[action].mean)

    def to_dict(self) -> dict:
        return {
            "bids": None if self.bids is None else list(self.bids),
            "others": self.others,
            "legal_actions": list(self.legal_actions),
            "expected_pass": self.expected_pass.mean,
            "expected_pass_se": self.expected_pass.se,
            "acceptance_rate": self.acceptance_rate,
            "open": list(self.open),
            "actions": {
                action: {
                    "expected_score": value.mean,
                    "expected_score_se": value.se,
                    **versus_fields(self.versus_best.get(action)),
                }
                for action, value in self.values.items()
                if action in self.legal_actions
            },
        }


def settled(gap: Estimate, best: str, action: str) -> bool:
    """Whether the choice between the actions ``best`` and ``action`` is settled, given
    ``gap`` their paired gap: it is :data:`plan.SETTLED_Z` standard errors from 0, or known
    within ± :data:`plan.SETTLED_POINTS` × the larger of their multipliers (95%); then more
    samples could only say that the two are worth about the same."""
    stakes = max(multiplier_of(best), multiplier_of(action))
    return abs(gap.z) >= SETTLED_Z or Z95 * gap.se <= SETTLED_POINTS * stakes


def multiplier_of(action: str) -> int:
    """An action's stakes: a contract's multiplier; passing, 1 (the defence's score is the
    taker's at some contract, shared among the defenders)."""
    return 1 if action == "pass" else Contract(action).multiplier


def versus_fields(gap: Estimate | None) -> dict[str, float | None]:
    """The JSON of a paired gap to the best choice: ``versus_best`` and ``versus_best_se``."""
    if gap is None:
        return {"versus_best": None, "versus_best_se": None}
    return {"versus_best": gap.mean, "versus_best_se": gap.se}


def with_gaps(result: AuctionResult, scores: dict[str, np.ndarray]) -> AuctionResult:
    """``result`` with each legal action's paired gap to its advised one (``scores``:
    :func:`action_scores`, per sample; :func:`stats.paired_gap`)."""
    best = scores[result.recommendation]
    gaps = {a: paired_gap(scores[a], best) for a in result.legal_actions if a in scores}
    return replace(result, versus_best=gaps)


def evaluate(
    samples: AuctionSamples,
    taker_scores: dict[Contract, np.ndarray],
    heard: Sequence[int] | None,
    others: str,
    acceptance_rate: float | None,
) -> AuctionResult:
    """Every action's value from the auction's outcomes and the user's scores as taker
    (``taker_scores``: contract → (N,) int64, on the same deals): the mean of
    :func:`action_scores`."""
    scores = action_scores(samples, taker_scores)
    values = {a: Estimate.of(s) for a, s in scores.items()}
    legal = legal_actions(heard) if heard is not None else BIDS
    result = AuctionResult(
        bids=None if heard is None else tuple(BIDS[i] for i in heard),
        others=others,
        legal_actions=tuple(legal),
        values=values,
        acceptance_rate=acceptance_rate,
    )
    return with_gaps(result, scores)


def action_scores(
    samples: AuctionSamples, taker_scores: dict[Contract, np.ndarray]
) -> dict[str, np.ndarray]:
    """Each action's score per deal ((N,) int64, action name → scores): passing, the deal the
    user defends (:attr:`AuctionSamples.defended`); a bid, the user's score as taker
    (``taker_scores``, on the same deals, or on the first of them: (M,), M ≤ N) where it
    stands, else the deal defended."""
    scores = {"pass": samples.defended}
    for contract, taken in taker_scores.items():
        on = samples.first(len(taken))
        scores[contract.value] = np.where(_stands(contract, on), taken, on.defended)
    return scores


def _stands(contract: Contract, samples: AuctionSamples) -> np.ndarray:
    """(N,) bool: the deals where a bid of ``contract`` stands (above every bid before it, and
    no later player wants more)."""
    index = BIDS.index(contract.value)
    return (index > samples.highest) & (index >= samples.overcall)


def steadied(
    result: AuctionResult,
    samples: AuctionSamples,
    taker_scores: dict[Contract, np.ndarray],
    measured: dict[Contract, Estimate],
) -> AuctionResult:
    """``result`` with the value of each bid of ``measured`` measured again: a bid is worth
    the user's score as taker, less what the auction takes from it where it does not stand
    (the deal defended instead). ``measured`` gives the first part, E[score] as taker measured
    on samples of their own (the focus's); the second is the mean, on ``samples`` (with the
    scores as taker ``taker_scores`` on the same deals, or their first ones: the survey's), of
    ``score − defended`` where the bid does not stand, 0 where it does. The two parts are
    independent; the first is unbiased, the second leans only as much as the survey's samples,
    which chose the pair, lean (as the survey's own values did, whole). Where the bid stands on
    most deals, the second part varies far less than the survey's whole value, and the value is
    nearly as precise as the focus (the README hand after a Pass and a Prise: Garde's ± 48.6
    on the survey's samples became ± 9.9)."""
    values = dict(result.values)
    for contract, taken in measured.items():
        scores = taker_scores[contract]
        lost = scores - action_scores(samples, {contract: scores})[contract.value]
        values[contract.value] = taken.minus(Estimate.of(lost))
    return replace(result, values=values)
