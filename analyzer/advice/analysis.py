"""What the analysis of one hand says (:func:`advisor.analyse_hand`): per contract, the poignée,
the chelem, the auction and how the answer leans on the play; ``to_dict()`` is the
``tarot-advise --json`` document and ``to_frame()`` the per-contract table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cards import format_card, format_cards
from ..game import Contract, bid_label
from ..stats import Estimate
from .action_values import AuctionResult, versus_fields
from .calibrated import CalibratedCount, calibrated_count
from .display import Summary, estimated_share, signed
from .hand_samples import Sides
from .heuristic import PointCount

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class ContractResult:
    """What the simulation says of one contract, the taker's point of view."""

    contract: Contract
    p_make: Estimate
    expected_score: Estimate
    """The taker's total (e.g. 3 × S with 4 players), poignée hidden, chelem not announced."""
    p_petit_au_bout: float
    """Probability that the taker's side wins the Petit au bout."""
    p_chelem: float
    """Probability that the taker's side wins every trick (unannounced)."""

    @property
    def samples(self) -> int:
        """The samples these numbers rest on."""
        return int(self.p_make.n or 0)


@dataclass(frozen=True)
class PoigneeAdvice:
    """Whether to show the poignée the hand allows, under the recommended contract."""

    eligible: bool
    """Whether the hand can show a poignée (after the écart, for Prise and Garde)."""
    p_eligible: float
    """Share of the samples where it can (the chien may bring trumps)."""
    size: str | None
    """``simple``, ``double`` or ``triple``: the largest poignée the hand allows (before the
    chien), or ``None``."""
    recommended: bool
    expected_gain: Estimate
    """Mean taker's score shown minus hidden: ``bonus`` + ``information``."""
    bonus: Estimate
    """The bonus term: + its value × the taker's share when the contract is made, − when not."""
    information: Estimate
    """Every other change of the score: what the shown trumps tell the defence, through the
    play they change. A fair defence can only use it against the taker: ≤ 0."""


@dataclass(frozen=True)
class ChelemAdvice:
    """Whether to announce a chelem, under the recommended contract."""

    recommended: bool
    p_chelem: float
    """Probability of making the chelem when announced (the taker leads the first trick)."""
    expected_gain: Estimate
    """Mean taker's score announced minus not announced: ``bonus`` + ``lead``."""
    bonus: Estimate
    """The change of the chelem bonus (+400 made / −200 failed announced, against +200 / 0
    unannounced), at the same play."""
    lead: Estimate
    """Every other change of the score: the play changed by the taker leading the first
    trick."""

    @property
    def samples(self) -> int:
        """The samples these rest on: the first ones, as many as settled the verdict
        (:data:`~.chelem.CHELEM_SETTLED`)."""
        return int(self.expected_gain.n or 0)


@dataclass(frozen=True)
class Focus:
    """The second stage of a staged analysis (:mod:`plan`): ``samples`` fresh samples of the
    pair of ``contracts`` holding the advice, on which their numbers, the poignée, the chelem
    and the sensitivity rest; their P(make) and E[score] steadied by ``controls`` greedy
    deals."""

    samples: int
    contracts: tuple[Contract, Contract]
    controls: int = 0
    """Fresh deals the control table (the greedy) played, for the pair's P(make) and E[score]
    (:mod:`control`)."""
    chunks: tuple[int, ...] = ()
    """The samples each of its chunks was asked for: the first round's two halves, then the
    second round's two or three chunks (:func:`~.plan.second_round`)."""
    halves: tuple[int, ...] = ()
    """The half (0 or 1) of each of its chunks."""


@dataclass(frozen=True)
class Analysis:
    """The analysis of one hand. ``to_dict()`` is the ``tarot-advise --json`` document and
    ``to_frame()`` the per-contract table."""

    hand: tuple[int, ...]
    players: int
    position: int | None
    """1 = speaks first and leads; ``None`` = averaged over positions drawn uniformly."""
    samples: int
    seed: int
    point_count: PointCount
    contracts: dict[Contract, ContractResult]
    recommendation: str
    safest: str | None
    """The contract most likely to be made, when its probability exceeds 50% and it is not
    the recommendation; else ``None``."""
    poignee: PoigneeAdvice | None
    """The poignée under :attr:`judged`; ``None`` when nothing is left to bid."""
    chelem: ChelemAdvice | None
    """The chelem under :attr:`judged`; ``None`` when nothing is left to bid."""
    called: int | None
    """5 players: the card to call (a king the hand lacks, or its own to play alone)."""
    call_scores: dict[int, float] = field(default_factory=dict)
    """5 players: each callable card surveyed → the best expected score when calling it."""
    close_calls: tuple[int, ...] = ()
    """5 players: the other calls surveyed that the called card does not lead by 2 standard
    errors of the paired difference on the survey's samples (:func:`~.survey.live_calls`): as
    good, for all the survey can tell."""
    open_calls: tuple[int, ...] = ()
    """5 players: the other calls whose choice against the called card the survey left open at
    its sample budget (:func:`~.survey.open_calls`)."""
    call_versus: dict[int, Estimate] = field(default_factory=dict)
    """5 players: each surveyed call → its best contract's score minus the called card's, paired
    on the samples both were played on (:func:`~.survey.call_gaps`)."""
    screened_calls: dict[int, float] = field(default_factory=dict)
    """5 players, the lookahead's survey: each callable card left out of it → how far the greedy
    table put its best expected score behind the best call's (:func:`~.survey.screen`)."""
    auction: AuctionResult | None = None
    """The bids heard, the legal actions and each action's value, E[pass] included."""
    poignees: dict[Contract, PoigneeAdvice] = field(default_factory=dict)
    """The poignée under each contract it was measured for: every one in an analysis of a fixed
    size, the focus's pair in a staged one (:mod:`~.plan`)."""
    sides: Sides = field(default_factory=Sides)
    """The policies that played the cards, the taker's side and the defence."""
    sensitivity: dict[Sides, ContractResult] = field(default_factory=dict)
    """The best contract replayed on the same samples by other tables
    (:func:`~.advisor.weaker_tables`)."""
    focus: Focus | None = None
    """The staged analysis's focus, or ``None`` when every contract has ``samples``."""
    judged: Contract | None = None
    """The contract the poignée, the chelem and the sensitivity describe: the advised one;
    advised to pass, the best the user may still bid (:func:`~.survey.focus_contract`);
    ``None`` when the bids heard leave nothing to bid (a Garde Contre heard)."""
    seconds: float = 0.0
    records: list[dict] | None = None

    @property
    def judged_samples(self) -> int:
        """The samples the poignée, the chelem and the sensitivity rest on: the focus's, or
        every contract's."""
        return self.samples if self.focus is None else self.focus.samples

    @property
    def samples_text(self) -> str:
        """How many samples the numbers rest on, in words: "2,000 samples", or a staged
        analysis's "64 samples of every contract, 448 more of Prise and Garde", with the
        contracts the survey played in its first round only: "(32 of Garde Sans and Garde
        Contre)"."""
        text = f"{self.samples:,} sample{'s' if self.samples != 1 else ''}"
        if self.focus is None:
            return text
        fewer: dict[int, list[str]] = {}
        for contract, result in self.contracts.items():
            if contract not in self.focus.contracts and result.samples < self.samples:
                fewer.setdefault(result.samples, []).append(contract.label)
        text += " of every contract" + "".join(
            f" ({n:,} of {' and '.join(labels)})" for n, labels in sorted(fewer.items())
        )
        pair = " and ".join(c.label for c in self.focus.contracts)
        text = f"{text}, {self.focus.samples:,} more of {pair}"
        if self.focus.controls:
            text += f" (steadied by {self.focus.controls:,} greedy deals)"
        return text

    @property
    def heuristic_action(self) -> str:
        """What the point count has the user say: its bid, or pass where the bids heard already
        reach it."""
        legal = self.auction.legal_actions if self.auction else (self.point_count.bid,)
        return self.point_count.bid if self.point_count.bid in legal else "pass"

    @property
    def heuristic_agrees(self) -> bool:
        return self.heuristic_action == self.recommendation

    @property
    def calibrated(self) -> CalibratedCount:
        """The hand's calibrated point count for this number of players (issue 12)."""
        return calibrated_count(self.hand, self.players)

    def summary(self) -> Summary:
        """The hand, a row per contract (P(make), E[score]), the advice: what ``repr`` and a
        notebook show."""
        where = (
            f"position {self.position}"
            if self.position is not None
            else f"averaged over positions 1–{self.players}"
        )
        gaps = self.auction.versus_best if self.auction else {}
        best = self.auction.recommendation if self.auction else None

        def versus(action: str) -> str:  # the paired gap to the advised action, on the survey
            return "" if action == best or action not in gaps else signed(gaps[action])

        rows = (
            [("Pass", "", signed(self.auction.expected_pass), versus("pass"))]
            if self.auction
            else []
        )
        rows += [
            (
                contract.label,
                estimated_share(result.p_make).strip(),
                signed(result.expected_score),
                versus(contract.value),
            )
            for contract, result in self.contracts.items()
        ]
        labels = [row[0] for row in rows]
        advice = bid_label(self.recommendation)
        count, calibrated = self.point_count, self.calibrated
        notes = [
            f"Advice: {advice}"
            + ("" if self.called is None else f", calling {format_card(self.called)}")
            + f" (point count {count.points} → {bid_label(count.bid)}, calibrated count"
            f" {calibrated.points} → {bid_label(calibrated.bid)}).",
            f"{self.samples_text} · seed {self.seed} · [ ] and ± = 95% intervals · the"
            " taker's total score · every figure: to_frame(), to_dict()",
        ]
        return Summary(
            title=f"{format_cards(self.hand)} ({self.players} players, {where})",
            header=("Bid", "P(make) [95%]", "E[score] ± 95%", "vs best"),
            rows=tuple(rows),
            marked=labels.index(advice) if advice in labels else None,
            notes=tuple(notes),
        )

    def __repr__(self) -> str:
        return self.summary().text()

    def _repr_html_(self) -> str:
        return self.summary().html()

    def to_frame(self) -> pd.DataFrame:
        """One row per contract: P(make), E[score] with their standard errors, Petit au bout,
        chelem."""
        import pandas as pd  # for notebooks only: importing it costs tarot-advise ~0.2 s

        frame = pd.DataFrame.from_dict(self.to_dict()["contracts"], orient="index")
        return frame.rename_axis("contract")

    def to_dict(self) -> dict:
        """The JSON document of ``tarot-advise --json``."""
        return {
            "hand": [format_card(c) for c in self.hand],
            "players": self.players,
            "position": self.position,
            "samples": self.samples,
            "focus": None
            if self.focus is None
            else {
                "samples": self.focus.samples,
                "contracts": [c.value for c in self.focus.contracts],
                "controls": self.focus.controls,
            },
            "seed": self.seed,
            "heuristic": {
                "points": self.point_count.points,
                "points_with_distribution": self.point_count.points_with_distribution,
                "bid": self.point_count.bid,
                "breakdown": dict(self.point_count.breakdown),
                "calibrated": {"points": self.calibrated.points, "bid": self.calibrated.bid},
            },
            "contracts": {
                contract.value: {
                    "samples": result.samples,
                    "p_make": result.p_make.mean,
                    "p_make_se": result.p_make.se,
                    "expected_score": result.expected_score.mean,
                    "expected_score_se": result.expected_score.se,
                    "p_petit_au_bout": result.p_petit_au_bout,
                    "p_chelem": result.p_chelem,
                }
                for contract, result in self.contracts.items()
            },
            "poignee": None
            if self.poignee is None
            else {
                "eligible": self.poignee.eligible,
                "p_eligible": self.poignee.p_eligible,
                "size": self.poignee.size,
                "recommended": self.poignee.recommended,
                "expected_gain": self.poignee.expected_gain.mean,
                "expected_gain_se": self.poignee.expected_gain.se,
                **_estimates(bonus=self.poignee.bonus, information=self.poignee.information),
            },
            "chelem": None
            if self.chelem is None
            else {
                "recommended": self.chelem.recommended,
                "p_chelem": self.chelem.p_chelem,
                "samples": self.chelem.samples,
                "expected_gain": self.chelem.expected_gain.mean,
                "expected_gain_se": self.chelem.expected_gain.se,
                **_estimates(bonus=self.chelem.bonus, lead=self.chelem.lead),
            },
            "recommendation": self.recommendation,
            "safest": self.safest,
            "heuristic_agrees": self.heuristic_agrees,
            "called": None if self.called is None else format_card(self.called),
            "call_scores": {format_card(c): s for c, s in self.call_scores.items()},
            "calls_close": [format_card(c) for c in self.close_calls],
            "calls_open": [format_card(c) for c in self.open_calls],
            "calls": {
                format_card(c): {"expected_score": score, **versus_fields(self.call_versus.get(c))}
                for c, score in self.call_scores.items()
            },
            "calls_screened": {format_card(c): s for c, s in self.screened_calls.items()},
            **(self.auction.to_dict() if self.auction else {}),
            "policies": self.sides.to_dict(),
            "sensitivity": {
                table.label: {
                    result.contract.value: {
                        "p_make": result.p_make.mean,
                        "expected_score": result.expected_score.mean,
                        "expected_score_se": result.expected_score.se,
                    }
                }
                for table, result in self.sensitivity.items()
            },
        }


def _estimates(**named: Estimate) -> dict[str, float]:
    """``name`` and ``name_se`` of each estimate, the JSON's flat style."""
    out = {}
    for name, estimate in named.items():
        out[name], out[f"{name}_se"] = estimate.mean, estimate.se
    return out
