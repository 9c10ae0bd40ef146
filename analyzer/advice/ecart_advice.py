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
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

import numpy as np

from ..cards import format_card, format_cards, sort_cards, trumps_and_excuse
from ..game import Contract, chien_size, poignee_thresholds
from ..parallel import DEFAULT_SEED, FORK, map_chunks
from ..playout import bitboard as bb
from ..playout.deal import DealError, Deals, deal
from ..playout.ecart import FixedEcart
from ..playout.engine import play
from ..playout.scoring import score
from ..rulebook.calling import longest_suit_call
from ..rulebook.rules import IllegalCall, IllegalDiscard, check_called_card, check_discard
from ..stats import Estimate
from .display import Summary, proportion, signed
from .ecart_ideas import Candidate, candidates
from .hand import check_hand
from .hand_samples import Sides

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_SAMPLES = 1000
"""Samples of every écart when no side searches."""
SEARCH_SAMPLES = 96
"""Samples of every écart when a side searches (the lookahead, the default): the écarts are
compared on the same deals, and their paired differences are precise long before each one's
own score is (:attr:`CandidateResult.gain`)."""
CHUNK = 1000
"""Samples per chunk; each chunk plays every candidate on them in one batch."""
SEARCH_CHUNK = 48
"""Samples per chunk when a side searches: the default's two chunks run side by side."""
POIGNEE_NAMES = ("simple", "double", "triple")
SIGNIFICANT = 2.0
"""An alternative écart is advised over the engine's when it gains more than this many SE."""


class EcartInputError(ValueError):
    """A chien, contract or call that cannot go with the hand."""


@dataclass(frozen=True)
class CandidateResult:
    """One écart played out: the taker's E[score] and P(make), the poignée after it."""

    cards: tuple[int, ...]
    ideas: tuple[str, ...]
    expected_score: Estimate
    p_make: Estimate
    gain: Estimate
    """E[score] minus the engine's écart's, paired on the same deals."""
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
    seconds: float = 0.0
    sides: Sides = field(default_factory=Sides)
    """The policies that played the cards, the taker's side and the defence."""

    @property
    def recommended(self) -> CandidateResult:
        """The best écart that beats the engine's by more than :data:`SIGNIFICANT` standard
        errors of the paired difference, else the engine's: the best of a dozen noisy means is
        optimistic, and the engine's écart is the prior."""
        for result in self.candidates:
            if "engine" in result.ideas or result.gain.mean > SIGNIFICANT * result.gain.se:
                return result
        raise AssertionError("the engine's écart is always a candidate")  # pragma: no cover

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
                        "poignee": result.poignee,
                        "show_poignee": result.show_poignee,
                    }
                    for result in self.candidates
                ],
                "recommended": [format_card(c) for c in self.recommended.cards],
                "engine": [format_card(c) for c in self.engine.cards],
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
class _Outcomes:
    """Per candidate and sample (K, N): the score hidden, shown (where a poignée may be shown,
    else hidden) and made."""

    hidden: np.ndarray
    shown: np.ndarray
    made: np.ndarray


def _chunk(
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
) -> _Outcomes:
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
    return _Outcomes(hidden.reshape(k, n), shown.reshape(k, n), made.reshape(k, n))


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
    outcomes = map_chunks(
        _chunk,
        samples,
        seed=seed,
        # The chunk depends on the policies only, so the numbers never depend on the workers.
        chunk_size=SEARCH_CHUNK if sides.searches else CHUNK,
        jobs=jobs,
        backend=FORK,
        on_done=on_done,
        sides=sides,
        hand=hand,
        chien=chien,
        players=players,
        position=position,
        contract=contract,
        called=called,
        ecarts=tuple(c.cards for c in found),
        eligible=eligible,
    )
    merged = {
        f.name: np.concatenate([getattr(o, f.name) for o in outcomes], axis=1)
        for f in fields(_Outcomes)
    }
    results = _results(found, merged, pool, players)
    return EcartAnalysis(
        hand=hand,
        chien=chien,
        players=players,
        position=position,
        contract=contract,
        called=called,
        samples=samples,
        seed=seed,
        candidates=tuple(sorted(results, key=lambda r: -r.expected_score.mean)),
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
    found: list[Candidate], merged: dict[str, np.ndarray], pool: list[int], players: int
) -> list[CandidateResult]:
    show = merged["shown"].mean(axis=1) > merged["hidden"].mean(axis=1)
    best = np.where(show[:, None], merged["shown"], merged["hidden"])
    engine = best[0]  # the engine's écart comes first
    return [
        CandidateResult(
            cards=candidate.cards,
            ideas=candidate.ideas,
            expected_score=Estimate.of(best[i]),
            p_make=Estimate.of(merged["made"][i]),
            gain=Estimate.of(best[i] - engine),
            poignee=_poignee_after(pool, candidate, players),
            show_poignee=bool(show[i]),
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
