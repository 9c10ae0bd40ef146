"""A duplicate match between two card-play policies, on the same deals.

Every deal is dealt once (never a petit sec) and played three times. The taker is the seat with
the highest point count (rules.md §11; the first such seat on a tie); with 5 players it calls
the king of its longest suit it lacks (:func:`calling.longest_suit_call`). With policies A and B:

1. A takes, B defends;
2. B takes, B defends (the common reference);
3. B takes, A defends.

``taker_gain`` is the mean over deals of the taker's score in (1) minus (2): what A earns by
taking instead of B against the same defence. ``defence_gain`` is the mean of (2) minus (3): the
taker's score that A's defence saves compared to B's, against the same taker. The defence of (1)
and (2) can be another policy (``defence``), and so can the taker of (2) and (3) (``taker``):
then (2) is played twice, once for each gain, and a deal four times. Since each
difference is taken on one deal, the luck of the cards cancels; the standard error is that of
the mean of the paired differences, ``std / sqrt(n)``.

The écart (Prise and Garde) is chosen by the écart policy ``ecart_a`` when A takes, by
``ecart_b`` otherwise (both the engine's by default). With A and B the same card play and two
écarts, the taker's gain is the duel of the écarts alone: same deals, same card play.

The work is cut in chunks of :data:`CHUNK_SIZE` deals with their own random streams
(:func:`parallel.map_chunks`), so the numbers depend on the seed and the number of deals only.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tarot_advisor.analyzer.advice.heuristic import point_counts
from tarot_advisor.analyzer.game import Contract, check_players
from tarot_advisor.analyzer.parallel import DEFAULT_SEED, map_chunks
from tarot_advisor.analyzer.playout.deal import Deals, deal
from tarot_advisor.analyzer.playout.ecart import ECARTS
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.scoring import records, score
from tarot_advisor.analyzer.playout.table import Policy
from tarot_advisor.analyzer.policies import UnknownPolicy
from tarot_advisor.analyzer.policies import policy_named as named
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.record import dumps_records
from tarot_advisor.analyzer.stats import Estimate

CHUNK_SIZE = 2000
"""Deals per chunk. Fixed: the result depends on it, never on the number of workers."""
MATCHES = ("a_takes", "b_takes", "reference", "a_defends")
"""The playouts of each deal, in the order they are played and dumped; ``reference`` (the taker
of ``taker`` against B) only when it is not ``b_takes``."""


class DuelError(ValueError):
    """Bad duel settings: an unknown policy, too few deals, a bad number of players."""


@dataclass(frozen=True)
class DuelResult:
    """The outcome of a duel: the two gains of A over B, and what the match was."""

    a: str
    b: str
    players: int
    contract: Contract
    deals: int
    seed: int
    taker_gain: Estimate
    defence_gain: Estimate
    seconds: float
    dumped: str | None = None
    """Every playout as a deal record, JSON Lines (3 or 4 per deal, :data:`MATCHES` order), if
    kept."""
    taker: str | None = None
    """The taker against whom the defences are compared (default B)."""
    defence: str | None = None
    """The defence against which the takers are compared (default B)."""
    ecart_a: str = "greedy"
    """The écart policy when A takes (a name of :data:`ecart.ECARTS`)."""
    ecart_b: str = "greedy"
    """The écart policy when B or ``taker`` takes."""

    def to_dict(self) -> dict:
        """The ``--json`` document."""
        return {
            "deals": self.deals,
            "a": self.a,
            "b": self.b,
            "players": self.players,
            "contract": self.contract.value,
            "seed": self.seed,
            "taker": self.taker or self.b,
            "defence": self.defence or self.b,
            "ecart_a": self.ecart_a,
            "ecart_b": self.ecart_b,
            "taker_gain": self.taker_gain.to_dict(),
            "defence_gain": self.defence_gain.to_dict(),
        }


def policy_named(name: str) -> Policy:
    """A new policy from its name (see :mod:`analyzer.policies`); :class:`DuelError` otherwise."""
    try:
        return named(name)
    except UnknownPolicy as error:
        raise DuelError(str(error)) from None


def playing(policy: Policy, side: str) -> Policy:
    """``policy`` playing for one side only: a searching policy (the lookahead) then spares the
    searches of the other side's decisions, which the engine asks for but does not use."""
    for_side = getattr(policy, "for_side", None)
    return for_side(side) if for_side else policy


def choose_takers(deals: Deals) -> tuple[np.ndarray, np.ndarray | None]:
    """The taker of each deal, the seat with the highest point count ((N,) int64, the first
    such seat on a tie), and with 5 players its call ((N,) int64 card ids, else ``None``)."""
    n, players, h = len(deals), deals.players, deals.hand_size
    points, _ = point_counts(deals.hands.reshape(n * players, h))
    taker = points.reshape(n, players).argmax(axis=1).astype(np.int64)
    called = None
    if players == 5:
        called = longest_suit_call(deals.hands[np.arange(n), taker]).astype(np.int64)
    return taker, called


def duel_chunk(
    rng: np.random.Generator,
    n: int,
    *,
    a: str,
    b: str,
    players: int,
    contract: Contract,
    keep_records: bool,
    taker: str | None = None,
    defence: str | None = None,
    ecart_a: str = "greedy",
    ecart_b: str = "greedy",
) -> dict[str, np.ndarray | str]:
    """One chunk of ``n`` deals: the taker's score ((n,) int64) under each of :data:`MATCHES`,
    and with ``keep_records`` the playouts as JSON Lines under ``"records"``."""
    deals = deal(rng, n, players, reject_petit_sec=True)
    seats, called = choose_takers(deals)
    policy_a, policy_b = policy_named(a), policy_named(b)
    against = policy_named(defence) if defence else policy_b
    reference = policy_named(taker) if taker else policy_b
    sides = {
        "a_takes": (playing(policy_a, "taker"), against),
        "b_takes": (policy_b, against),
        "a_defends": (reference, playing(policy_a, "defence")),
    }
    if taker or defence:
        sides["reference"] = (reference, policy_b)
    out: dict[str, np.ndarray | str] = {}
    dumped: list[list[dict]] = []
    for match in (m for m in MATCHES if m in sides):
        taker_policy, defence_policy = sides[match]
        ecart = ECARTS[ecart_a if match == "a_takes" else ecart_b]()
        playout = play(
            deals,
            seats,
            contract,
            taker_policy,
            defence_policy,
            rng=rng,
            called=called,
            ecart_policy=ecart,
            keep_plays=keep_records,
        )
        scores = score(playout)
        out[match] = scores.taker_score
        if keep_records:
            dumped.append(records(playout, scores))
    out.setdefault("reference", out["b_takes"])
    if keep_records:
        # Deal by deal, its playouts together.
        out["records"] = dumps_records(r for by_deal in zip(*dumped, strict=True) for r in by_deal)
    return out


def run_duel(
    a: str,
    b: str,
    *,
    players: int = 4,
    contract: Contract = Contract.GARDE,
    deals: int = 4000,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    backend: str | None = None,
    keep_records: bool = False,
    on_done: Callable[[int], None] | None = None,
    taker: str | None = None,
    defence: str | None = None,
    ecart_a: str = "greedy",
    ecart_b: str = "greedy",
) -> DuelResult:
    """Play the duplicate match of policy ``a`` against ``b`` (names, :mod:`analyzer.policies`) on
    ``deals`` deals; see the module docstring. ``jobs``/``backend`` choose the workers and never
    change the numbers; ``on_done`` receives the number of deals finished so far. ``taker`` and
    ``defence``: the taker and the defence the gains are measured against (default B).
    ``ecart_a``/``ecart_b``: the écart policies when A takes, and otherwise."""
    for name in (a, b, taker, defence):
        if name is not None:
            policy_named(name)
    for name in (ecart_a, ecart_b):
        if name not in ECARTS:
            raise DuelError(f"'{name}' is not an écart policy (one of {', '.join(ECARTS)})")
    try:
        check_players(players)
    except ValueError as error:
        raise DuelError(str(error)) from None
    if deals < 2:
        raise DuelError(f"a duel needs at least 2 deals to measure its error, not {deals}")
    start = time.perf_counter()
    chunks = map_chunks(
        duel_chunk,
        deals,
        seed=seed,
        chunk_size=CHUNK_SIZE,
        jobs=jobs,
        backend=backend,
        on_done=on_done,
        a=a,
        b=b,
        players=players,
        contract=contract,
        keep_records=keep_records,
        taker=taker,
        defence=defence,
        ecart_a=ecart_a,
        ecart_b=ecart_b,
    )
    taker_score = {m: np.concatenate([chunk[m] for chunk in chunks]) for m in MATCHES}
    return DuelResult(
        a=a,
        b=b,
        players=players,
        contract=contract,
        deals=deals,
        seed=seed,
        taker_gain=Estimate.of(taker_score["a_takes"] - taker_score["b_takes"]),
        defence_gain=Estimate.of(taker_score["reference"] - taker_score["a_defends"]),
        seconds=time.perf_counter() - start,
        dumped="".join(chunk["records"] for chunk in chunks) if keep_records else None,
        taker=taker,
        defence=defence,
        ecart_a=ecart_a,
        ecart_b=ecart_b,
    )
