"""The bid-threshold study: many random hands, each analysed on many paired samples, in batches.

A study of ``hands`` hands is cut into chunks of ``chunk_hands`` hands. Chunk ``k`` draws from
its own generator, seeded by ``SeedSequence(seed, spawn_key=(k,))`` (the ``k``-th child of
``SeedSequence(seed).spawn``), so a chunk's rows depend only on the seed, the chunk's index and
the study's sizes — never on the number of workers, their order, or on a run being resumed.

Inside a chunk nothing loops over hands: the chunk draws its hands (uniform, petit sec
excluded, or uniform among those of at least ``min_points`` points with distribution) and the
taker's seat of each (uniform), completes every hand ``samples`` times at once
(:func:`deal.complete`), and plays the ``hands × samples`` deals as :mod:`advisor` does for one
hand, one :func:`paired.play_pair` per pair of contracts, the chelem not announced. The deals
played again with the poignée shown are those where the taker's trumps and Excuse, plus the
chien's for Prise and Garde, reach the threshold. With 5 players the taker calls
:func:`calling.longest_suit_call`.

Who plays the cards is part of the study (:attr:`StudyParameters.taker` and ``defence``, policy
names of :mod:`policies`); by default the lookahead at every seat (:data:`DEFAULT_PLAY`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..advice.hand_samples import Sides
from ..advice.heuristic import heuristic_bids, point_counts
from ..advice.paired import play_pair
from ..cards import format_cards
from ..game import BIDS, Contract, check_players
from ..parallel import iter_chunks
from ..playout.deal import complete, deal, petit_sec
from ..playout.scoring import PAIRS
from ..policies import POLICIES
from ..rulebook.calling import longest_suit_call

DEFAULT_PLAY = Sides()
"""Who plays the cards in a study unless told: the advice's default (the lookahead at every
seat), so that the thresholds describe the table the advice assumes. It costs about 200
times the greedy's CPU per hand-sample (22 ms against 0.1 ms with 4 players)."""
DEFAULT_CHUNK_HANDS = 32
"""Hands per chunk when no side searches: with 500 samples one chunk plays 16,000 deals per
engine call (the greedy's ~10 µs a deal make it a few seconds of work)."""
SEARCH_CHUNK_HANDS = 4
"""Hands per chunk when a side searches (the lookahead at every seat, about 10 ms of CPU a
hand-sample: docs/performance.md): with 100 samples a chunk plays 400 deals a pair, within one
search batch (:attr:`~.lookahead.LookaheadPolicy.batch`, which bounds the memory), a few
seconds of CPU, so that an interrupted run loses little and ``--jobs`` has chunks to share
out."""
MAX_MIN_POINTS = 80
"""Above this, hands are too rare to draw by rejection: 80 points with distribution or more
is about 1 hand in 100 with 3 players, 1 in 8,000 with 4, 1 in 125,000 with 5."""
_DRAW_BLOCK = 1 << 16
"""Hands dealt at most per rejection round."""
_HOPELESS_DRAWS = 20_000_000


def number_sources() -> list[Path]:
    """The analyser's source files a study's numbers come from: this module and every module
    of the analyser it imports, directly or not (read from their relative ``from … import``
    lines, those inside functions included), sorted by path."""
    analyzer = __package__.rpartition(".")[0]
    seen: dict[str, Path] = {}
    todo = [__name__]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        seen[name] = Path(spec.origin)
        package = name if spec.submodule_search_locations else name.rpartition(".")[0]
        tree = ast.parse(seen[name].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                todo.append(base)
                for alias in node.names:  # from ..playout import bitboard as bb
                    if importlib.util.find_spec(base).submodule_search_locations:
                        candidate = f"{base}.{alias.name}"
                        if importlib.util.find_spec(candidate) is not None:
                            todo.append(candidate)
    return sorted(path for name, path in seen.items() if name.startswith(analyzer))


def code_version() -> str:
    """A short digest of :func:`number_sources`: a study resumed with other code would mix the
    numbers of two versions, so the study records it."""
    digest = hashlib.sha256()
    for path in number_sources():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class StudyError(ValueError):
    """Parameters a study cannot run with (too few hands or samples, unknown players…)."""


@dataclass(frozen=True)
class StudyParameters:
    """What a study's results depend on, and nothing else (not the workers)."""

    players: int
    hands: int
    samples: int
    seed: int
    chunk_hands: int | None = None
    """Hands per chunk; ``None``: by the play (:func:`default_chunk_hands`)."""
    min_points: int = 0
    """Only hands with at least this many points with distribution (0: every hand): the
    strong hands where the upper thresholds lie are rare in a uniform draw."""
    taker: str = DEFAULT_PLAY.taker
    """The policy (a name of :data:`policies.POLICIES`) that plays the taker's side."""
    defence: str = DEFAULT_PLAY.defence
    """The policy that plays the defence."""

    def __post_init__(self) -> None:
        check_players(self.players)
        for side, name in (("taker", self.taker), ("defence", self.defence)):
            if name not in POLICIES:
                raise StudyError(
                    f"the {side}'s play '{name}' is not a policy (one of {', '.join(POLICIES)})"
                )
        if self.chunk_hands is None:
            # The dataclass is frozen: the default chunk is fixed once, here, by the play.
            object.__setattr__(self, "chunk_hands", default_chunk_hands(self.sides))
        if self.hands < 1:
            raise StudyError(f"a study needs at least 1 hand, not {self.hands}")
        if self.samples < 2:
            raise StudyError(f"each hand needs at least 2 samples, not {self.samples}")
        if self.chunk_hands < 1:
            raise StudyError(f"a chunk holds at least 1 hand, not {self.chunk_hands}")
        if self.seed < 0:
            raise StudyError(f"the seed must be 0 or more, not {self.seed}")
        if not 0 <= self.min_points <= MAX_MIN_POINTS:
            raise StudyError(
                f"the least point count goes from 0 to {MAX_MIN_POINTS}, not {self.min_points}"
            )

    @property
    def n_chunks(self) -> int:
        return -(-self.hands // self.chunk_hands)

    def chunk_hands_of(self, index: int) -> int:
        """How many hands chunk ``index`` holds (the last one holds the remainder)."""
        return min(self.chunk_hands, self.hands - index * self.chunk_hands)

    @property
    def sides(self) -> Sides:
        return Sides(self.taker, self.defence)

    def to_dict(self) -> dict[str, int | str]:
        return asdict(self)


def default_chunk_hands(sides: Sides) -> int:
    """Hands per chunk for a study played by ``sides``: fewer when a side searches (as the
    advice's chunks hold fewer samples, :attr:`hand_samples.Sides.chunk`)."""
    return SEARCH_CHUNK_HANDS if sides.searches else DEFAULT_CHUNK_HANDS


def columns(players: int) -> list[str]:
    """The columns of the per-hand table, in order."""
    called = ["called"] if players == 5 else []
    return [
        "hand_id",
        "hand",
        "position",
        "points",
        "points_with_distribution",
        "heuristic_bid",
        *called,
        *(f"p_make_{c.value}" for c in Contract),
        *(f"expected_score_{c.value}" for c in Contract),
        "poignee_gain",
        "poignee_share",
        "best_contract",
    ]


def draw_hands(
    rng: np.random.Generator, n: int, players: int, min_points: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random hands, none petit sec, and the taker's seat of each, drawn uniformly;
    with ``min_points``, uniformly among the hands with at least that many points with
    distribution (rejection sampling).

    Returns ``(hands, seats)``: (n, h) uint8 card ids sorted increasingly, (n,) int64 seats.
    Raises :class:`StudyError` when such hands are too rare to draw.
    """
    kept: list[np.ndarray] = []
    missing, rate, drawn = n, 1.0, 0
    while missing > 0:
        if drawn > _HOPELESS_DRAWS:
            raise StudyError(f"hands of {min_points} points or more are too rare to draw")
        rows = min(int(missing / rate) + 8, _DRAW_BLOCK)
        # A hand of a uniform deal is a uniform h-card subset; petit sec is rejected (~0.5%).
        hands = deal(rng, rows, players).hands[:, 0]
        keep = ~petit_sec(hands)
        if min_points:
            keep &= point_counts(hands)[1] >= min_points
        drawn += rows
        rate = max(float(keep.mean()), 1.0 / rows) if min_points else 1.0
        hands = hands[keep][:missing]
        kept.append(hands)
        missing -= len(hands)
    hands = np.sort(np.concatenate(kept), axis=1)
    seats = rng.integers(0, players, n)
    return hands, seats


def study_chunk(
    rng: np.random.Generator,
    n_hands: int,
    *,
    players: int,
    samples: int,
    first_id: int = 0,
    min_points: int = 0,
    sides: Sides = DEFAULT_PLAY,
) -> pd.DataFrame:
    """The per-hand table (:func:`columns`) of ``n_hands`` random hands, ``samples`` each,
    played by ``sides``.

    ``first_id`` numbers the rows (``hand_id``); ``min_points``: see :func:`draw_hands`.
    ``p_make_*`` and ``expected_score_*`` are means over the samples (the taker's total
    score, poignée hidden, chelem not announced);
    ``best_contract`` is the contract of highest expected score, ``pass`` if none is positive;
    ``poignee_gain`` is the mean of (score shown − score hidden) under the contract of highest
    expected score, and ``poignee_share`` the share of samples where the taker could show one
    (``poignee_gain`` is empty when it never could).
    """
    hands, seats = draw_hands(rng, n_hands, players, min_points)
    hand_rows = np.repeat(hands, samples, axis=0)  # (n, h): row i is sample i's taker's hand
    taker = np.repeat(seats, samples)
    deals = complete(rng, hand_rows, taker, players)
    called = np.repeat(longest_suit_call(hands), samples) if players == 5 else None
    policy, defence = sides.policies()

    made, expected, gain, shown_share = {}, {}, {}, {}
    for first, _ in PAIRS:
        pair = play_pair(
            deals, taker, first, policy, rng=rng, called=called, defence_policy=defence
        )
        shown_flag = pair.showed().reshape(n_hands, samples)
        for contract, hidden in pair.hidden_scores.items():
            made[contract] = hidden.made.reshape(n_hands, samples).mean(axis=1)
            taker_score = hidden.taker_score
            expected[contract] = taker_score.reshape(n_hands, samples).mean(axis=1)
            difference = (pair.shown_score(contract) - taker_score).reshape(n_hands, samples)
            gain[contract] = difference.mean(axis=1)
            shown_share[contract] = shown_flag.mean(axis=1)

    contracts = list(Contract)
    table = np.stack([expected[c] for c in contracts], axis=1)  # (n_hands, 4)
    best_index = table.argmax(axis=1)
    best_score = table[np.arange(n_hands), best_index]
    best = np.where(best_score > 0, np.array(BIDS[1:], object)[best_index], "pass")
    share = np.stack([shown_share[c] for c in contracts], axis=1)[np.arange(n_hands), best_index]
    best_gain = np.stack([gain[c] for c in contracts], axis=1)[np.arange(n_hands), best_index]

    points, with_distribution = point_counts(hands)
    frame = {
        "hand_id": np.arange(first_id, first_id + n_hands),
        "hand": [format_cards(hand) for hand in hands.tolist()],
        "position": seats + 1,
        "points": points.astype(np.int64),
        "points_with_distribution": with_distribution.astype(np.int64),
        "heuristic_bid": np.array(BIDS, object)[heuristic_bids(points, with_distribution)],
    }
    if called is not None:
        frame["called"] = format_cards_each(longest_suit_call(hands))
    for contract in contracts:
        frame[f"p_make_{contract.value}"] = made[contract]
    for contract in contracts:
        frame[f"expected_score_{contract.value}"] = expected[contract]
    frame["poignee_gain"] = np.where(share > 0, best_gain, np.nan)
    frame["poignee_share"] = share
    frame["best_contract"] = best
    return pd.DataFrame(frame, columns=columns(players))


def format_cards_each(cards: np.ndarray) -> list[str]:
    """Each card id of ``cards`` ((N,) int) in the notation."""
    return [format_cards([int(card)]) for card in cards]


def _unnumbered_chunk(
    rng: np.random.Generator, n: int, *, players: int, samples: int, min_points: int, sides: Sides
) -> pd.DataFrame:
    return study_chunk(rng, n, players=players, samples=samples, min_points=min_points, sides=sides)


def run_chunks(
    parameters: StudyParameters,
    indices: Sequence[int],
    *,
    jobs: int = 1,
    backend: str | None = None,
) -> Iterator[tuple[int, pd.DataFrame]]:
    """Compute the chunks ``indices`` on ``jobs`` workers, yielding ``(index, table)`` as each
    finishes (in any order), so the caller can store every chunk as soon as it exists.

    ``backend``: a joblib backend (default ``"loky"``, local processes); any other (``"dask"``
    once a Dask client exists) sizes itself, see :func:`parallel.iter_chunks`.
    """
    chunks = iter_chunks(
        _unnumbered_chunk,
        parameters.hands,
        seed=parameters.seed,
        chunk_size=parameters.chunk_hands,
        jobs=jobs,
        backend=backend,
        indices=indices,
        ordered=False,
        players=parameters.players,
        samples=parameters.samples,
        min_points=parameters.min_points,
        sides=parameters.sides,
    )
    for index, frame in chunks:
        # Hand ids number the study's hands: chunk k's begin at k × chunk_hands.
        frame["hand_id"] += index * parameters.chunk_hands
        yield index, frame


def run_chunk(parameters: StudyParameters, index: int) -> tuple[int, pd.DataFrame]:
    """Chunk ``index`` of the study, here: ``(index, its per-hand table)``."""
    return next(run_chunks(parameters, [index]))
