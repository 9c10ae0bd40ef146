"""Which écart to make: the engine's own and the named ideas' alternatives, each played out on
the same deals (Prise and Garde; rules.md §3).

The hand and the chien are known, so only the other hands are dealt (never petit sec). Every
candidate écart (:mod:`ecart_ideas`) is played on the *same* samples by the same policies (the
greedy by default), so their differences are paired. Where the hand left after an écart allows a
poignée, the candidate is played again with it shown, and the better of showing and hiding is
kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..cards import format_card, format_cards, sort_cards, trumps_and_excuse
from ..game import POIGNEE_NAMES, Contract, chien_size, poignee_thresholds
from ..parallel import DEFAULT_SEED
from ..rulebook.calling import longest_suit_call
from ..rulebook.rules import IllegalCall, IllegalDiscard, check_called_card, check_discard
from ..stats import Estimate, paired_gap
from .action_values import versus_fields
from .display import Summary, proportion, signed
from .ecart_ideas import Candidate, candidates
from .ecart_play import (
    ROUNDS,
    SEARCH_SAMPLES,
    EcartInputError,
    Played,
    play_rounds,
)
from .hand import check_hand
from .hand_samples import Sides

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_SAMPLES = 1000
"""Samples of every écart when no side searches."""


@dataclass(frozen=True)
class CandidateResult:
    """One écart played out: the taker's E[score] and P(make), the poignée after it."""

    cards: tuple[int, ...]
    ideas: tuple[str, ...]
    expected_score: Estimate
    p_make: Estimate
    gain: Estimate
    """E[score] minus the engine's écart's, paired on the same deals."""
    versus_best: Estimate
    """E[score] minus the advised écart's, paired on the same deals (0 for the advised)."""
    samples: int
    """The samples it was played on: the first of the others' (:mod:`ecart_play`)."""
    poignee: str | None
    """The poignée the hand allows after this écart (``simple``…), or ``None``."""
    show_poignee: bool
    """Whether showing it scored better than hiding it (E[score] is the better of the two)."""


@dataclass(frozen=True)
class EcartAnalysis:
    """The ranked écarts; ``to_dict()`` is ``tarot-advise --chien --json``'s ``ecart``."""

    hand: tuple[int, ...]
    chien: tuple[int, ...]
    players: int
    position: int | None
    contract: Contract
    called: int | None
    samples: int
    seed: int
    candidates: tuple[CandidateResult, ...]
    """Best first."""
    recommended_cards: tuple[int, ...]
    """The advised écart (:func:`ecart_play.advised`): the best that beats the engine's by more
    than :data:`ecart_play.SIGNIFICANT` standard errors of the paired gap, else the engine's."""
    open: tuple[tuple[int, ...], ...] = ()
    """The écarts whose choice against the advised one was still open at the sample budget."""
    seconds: float = 0.0
    sides: Sides = field(default_factory=Sides)
    """The policies that played the cards, the taker's side and the defence."""

    @property
    def recommended(self) -> CandidateResult:
        """The advised écart's result (:attr:`recommended_cards`)."""
        return next(c for c in self.candidates if c.cards == self.recommended_cards)

    @property
    def engine(self) -> CandidateResult:
        return next(c for c in self.candidates if "engine" in c.ideas)

    def to_dict(self) -> dict:
        return {
            "hand": [format_card(c) for c in self.hand],
            "chien": [format_card(c) for c in self.chien],
            "players": self.players,
            "position": self.position,
            "contract": self.contract.value,
            "called": None if self.called is None else format_card(self.called),
            "samples": self.samples,
            "seed": self.seed,
            "policies": self.sides.to_dict(),
            "ecart": {
                "candidates": [
                    {
                        "cards": [format_card(c) for c in result.cards],
                        "ideas": list(result.ideas),
                        "expected_score": result.expected_score.mean,
                        "expected_score_se": result.expected_score.se,
                        "p_make": result.p_make.mean,
                        "p_make_se": result.p_make.se,
                        "gain_over_engine": result.gain.mean,
                        "gain_over_engine_se": result.gain.se,
                        **versus_fields(result.versus_best),
                        "samples": result.samples,
                        "poignee": result.poignee,
                        "show_poignee": result.show_poignee,
                    }
                    for result in self.candidates
                ],
                "recommended": [format_card(c) for c in self.recommended.cards],
                "engine": [format_card(c) for c in self.engine.cards],
                "open": [[format_card(c) for c in cards] for cards in self.open],
            },
        }

    def summary(self) -> Summary:
        """A row per écart (E[score], P(make), the gain over the engine's, its ideas), best
        first, the advised one marked: what ``repr`` and a notebook show."""
        rows = tuple(
            (
                format_cards(result.cards),
                signed(result.expected_score),
                proportion(result.p_make.mean, self.samples).strip(),
                signed(result.gain),
                "; ".join(result.ideas),
            )
            for result in self.candidates
        )
        where = (
            f"averaged over positions 1–{self.players}"
            if self.position is None
            else f"position {self.position}"
        )
        return Summary(
            title=f"Écart for a {self.contract.label} ({self.players} players, {where}): hand"
            f" {format_cards(self.hand)}, chien {format_cards(self.chien)}",
            header=("Écart", "E[score] ± 95%", "P(make) [95%]", "vs engine", "Ideas"),
            rows=rows,
            marked=self.candidates.index(self.recommended),
            align="lrrrl",
            notes=(
                f"Advice: discard {format_cards(self.recommended.cards)}.",
                f"{self.samples:,} samples · seed {self.seed} · every écart played on the same"
                " deals · every figure: to_frame(), to_dict()",
            ),
        )

    def __repr__(self) -> str:
        return self.summary().text()

    def _repr_html_(self) -> str:
        return self.summary().html()

    def to_frame(self) -> pd.DataFrame:
        """One row per candidate écart, best first."""
        import pandas as pd  # for notebooks only

        rows = self.to_dict()["ecart"]["candidates"]
        return pd.DataFrame([{**r, "cards": " ".join(r["cards"])} for r in rows])


def check_chien(
    hand: Sequence[int], chien: Sequence[int], players: int, contract: Contract
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sorted hand and chien if they can go together, else :class:`EcartInputError`."""
    if not contract.takes_chien:
        raise EcartInputError(
            f"there is no écart in a {contract.label}: the chien is taken only in Prise and Garde"
        )
    size = chien_size(players)
    if len(set(chien)) != len(chien):
        raise EcartInputError("the chien holds a card twice")
    if len(chien) != size:
        raise EcartInputError(f"a {players}-player chien has {size} cards, not {len(chien)}")
    both = sorted(set(hand) & set(chien))
    if both:
        raise EcartInputError(
            f"{', '.join(format_card(c) for c in both)} cannot be both in the hand and in the chien"
        )
    return tuple(sort_cards(hand)), tuple(sort_cards(chien))


def analyse_ecart(
    hand: Sequence[int],
    chien: Sequence[int],
    players: int = 4,
    *,
    contract: Contract | str = Contract.GARDE,
    called: int | None = None,
    position: int | None = None,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    sides: Sides | None = None,
    on_done: Callable[[int], None] | None = None,
    also: Sequence[Sequence[int]] = (),
) -> EcartAnalysis:
    """Rank the engine's écart and the named ideas' for ``hand`` and ``chien`` (card ids).

    ``contract``: Prise or Garde; ``called`` (5 players): the called card, default the king of
    the hand's longest suit without its king; ``position``: 1…n or ``None`` (averaged);
    ``sides``: the policies that play the taker's side and the defence (default: the lookahead
    at every seat); ``samples``: default :func:`ecart_samples`; ``on_done`` receives the samples
    finished so far. ``also``: more écarts to rank (a review's écart played), under
    the idea ``"played"``.
    """
    start = time.perf_counter()
    sides = sides or Sides()
    staged = samples is None and sides.searches  # rounds raced to the close calls
    samples = ecart_samples(samples, sides)
    contract = contract if isinstance(contract, Contract) else Contract.parse(contract)
    hand = check_hand(hand, players)
    hand, chien = check_chien(hand, chien, players, contract)
    if position is not None and not 1 <= position <= players:
        raise EcartInputError(f"the position goes from 1 to {players}, not {position}")
    if players == 5 and called is None:
        called = int(longest_suit_call(np.array([hand], np.uint8))[0])
    if players != 5 and called is not None:
        raise EcartInputError(f"a card is called only with 5 players, not {players}")
    if called is not None:
        try:
            check_called_card(called, hand)
        except IllegalCall as error:
            raise EcartInputError(str(error)) from None
    pool = [*hand, *chien]
    found = candidates(pool, chien_size(players))
    for extra in also:
        cards = tuple(sorted(int(c) for c in extra))
        if all(cards != c.cards for c in found):
            found.append(Candidate(cards, ("played",)))
    for candidate in found:
        try:
            check_discard(pool, candidate.cards, players)
        except IllegalDiscard as error:
            if "played" in candidate.ideas:
                raise EcartInputError(f"the écart played: {error}") from None
            raise AssertionError(f"{candidate.ideas[0]}: {error}") from None  # pragma: no cover
    eligible = tuple(_poignee_after(pool, c, players) is not None for c in found)
    played = play_rounds(
        tuple(c.cards for c in found),
        eligible,
        samples,
        ROUNDS if staged else 1,
        contract=contract,
        seed=seed,
        jobs=jobs,
        sides=sides,
        on_done=on_done,
        hand=hand,
        chien=chien,
        players=players,
        position=position,
        called=called,
    )
    results = _results(found, played, pool, players)
    return EcartAnalysis(
        hand=hand,
        chien=chien,
        players=players,
        position=position,
        contract=contract,
        called=called,
        samples=max(r.samples for r in results),
        seed=seed,
        candidates=tuple(sorted(results, key=lambda r: -r.expected_score.mean)),
        recommended_cards=found[played.advised].cards,
        open=tuple(found[i].cards for i in played.open),
        seconds=time.perf_counter() - start,
        sides=sides,
    )


def ecart_samples(samples: int | None, sides: Sides) -> int:
    """``samples``, or by default :data:`SEARCH_SAMPLES` when a side searches, else
    :data:`DEFAULT_SAMPLES`."""
    if samples is not None:
        return samples
    return SEARCH_SAMPLES if sides.searches else DEFAULT_SAMPLES


def _results(
    found: list[Candidate], played: Played, pool: list[int], players: int
) -> list[CandidateResult]:
    scores, best = played.scores(), played.advised
    return [
        CandidateResult(
            cards=candidate.cards,
            ideas=candidate.ideas,
            expected_score=Estimate.of(scores[i]),
            p_make=Estimate.of(played.made[i]),
            gain=paired_gap(scores[i], scores[0]) if i else Estimate(0.0, 0.0),
            versus_best=paired_gap(scores[i], scores[best]) if i != best else Estimate(0.0, 0.0),
            samples=len(scores[i]),
            poignee=_poignee_after(pool, candidate, players),
            show_poignee=played.better(i)[1],
        )
        for i, candidate in enumerate(found)
    ]


def _poignee_after(pool: list[int], candidate: Candidate, players: int) -> str | None:
    kept = [c for c in pool if c not in candidate.cards]
    count = int(trumps_and_excuse(kept))
    reached = [
        name
        for name, t in zip(POIGNEE_NAMES, poignee_thresholds(players), strict=True)
        if count >= t
    ]
    return reached[-1] if reached else None
