"""Throughput benchmarks: named measurements, each a function of the benchmark settings.

A new measurement is one function added to :data:`MEASUREMENTS`; ``tarot-report bench`` runs
them all in order. A measurement that cannot be taken on this installation raises
:class:`Unavailable`: its figure is then ``None``, and the reason is kept as a note.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tarot_advisor.analyzer.advice.heuristic import point_count
from tarot_advisor.analyzer.cards import format_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.parallel import choose_jobs, map_chunks
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout.deal import deal, petit_sec
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.playout.scoring import score
from tarot_advisor.analyzer.playout.words import kept_for
from tarot_advisor.analyzer.search.lookahead import LookaheadPolicy

BENCH_SEED = 0
DEAL_CHUNK = 1 << 17
"""Deals per chunk in the dealer benchmark: large enough that scheduling costs vanish."""
PLAYOUT_CHUNK = 10_000
"""Deals per chunk in the playout benchmark: one vectorised batch each, as the advisor uses."""
DEFAULT_PLAYOUTS = 100_000
ADVISE_HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
"""The hand of the ``tarot-advise`` timings: rules.md §11's worked example (60 points, Garde)."""
ECART_CHIEN = "3♥ 9♦ 14 R♠ 2♣ V♠"
"""The chien of the écart advice's timing: the README's example with :data:`ADVISE_HAND`."""
GREEDY_TABLE = ("--taker", "greedy", "--defence", "greedy")
"""The options of the same command at the greedy table: the default's time target is a ratio
to it (at most 6 ×), measured in the same sitting."""
ADVISE_SCRIPT = "tarot-advise"
"""The console script timed, found by its name as a user's shell finds it: reports sit below the
command line, so this module names no module of ``cli``."""
ADVISE_TIMEOUT = 600.0
"""Seconds after which a ``tarot-advise`` run is given up."""
DEFAULT_HANDS = 8
"""Random hands per player count in the ``advise_seconds_random_*`` timings."""
HAND_MIN_POINTS = 40
"""The random hands timed are those a player bids on: a point count of 40 or more."""
DEFAULT_SEARCHED_DEALS = 400
"""Four-player Garde deals whose defence the lookahead plays, in its decisions-per-CPU-second
measurement (about 40 decisions a deal)."""


class BenchError(ValueError):
    """Bad benchmark settings (an unknown measurement's name)."""


class Unavailable(RuntimeError):
    """A measurement that cannot be taken here; the message says why."""


@dataclass(frozen=True)
class BenchSettings:
    """What the benchmarks may use: ``deals`` dealt and ``playouts`` played per measurement, on
    ``jobs`` workers."""

    deals: int
    jobs: int
    playouts: int = DEFAULT_PLAYOUTS
    hands: int = DEFAULT_HANDS
    searched_deals: int = DEFAULT_SEARCHED_DEALS


def _start_workers(task: Callable[..., int], jobs: int, **kwargs: object) -> None:
    """Runs ``task`` once per worker, so that starting processes, importing modules and loading
    the compiled kernels happen outside the timed run (joblib's loky executor keeps its workers
    for the next call; one job runs in this process)."""
    map_chunks(task, 2 * jobs, seed=BENCH_SEED, chunk_size=1, jobs=jobs, **kwargs)


def _deal_only(rng: np.random.Generator, n: int, players: int) -> int:
    """Deals ``n`` deals and returns their number, so that no deal travels between processes."""
    return len(deal(rng, n, players))


def dealer_throughput(deals: int, jobs: int, players: int = 4) -> float:
    """Full random deals per second on ``jobs`` workers (the workers are started beforehand)."""
    _start_workers(_deal_only, jobs, players=players)
    start = time.perf_counter()
    map_chunks(
        _deal_only, deals, seed=BENCH_SEED, chunk_size=DEAL_CHUNK, jobs=jobs, players=players
    )
    return deals / (time.perf_counter() - start)


def _greedy_garde(rng: np.random.Generator, n: int, players: int) -> int:
    """Deals ``n`` deals (no petit sec), makes the écart, plays them at Garde with the greedy
    policy (a random taker) and scores them, as the advisor's replays do (the cards played are
    not recorded: no record is written); returns ``n``."""
    deals = deal(rng, n, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n)
    playout = play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=rng, keep_plays=False)
    return len(score(playout).taker_score)


def playout_throughput(playouts: int, jobs: int, players: int = 4) -> float:
    """Greedy Garde playouts (deal, écart, play, score) per second on ``jobs`` workers, in
    chunks of :data:`PLAYOUT_CHUNK` (the workers are started beforehand)."""
    _start_workers(_greedy_garde, jobs, players=players)
    start = time.perf_counter()
    map_chunks(
        _greedy_garde,
        playouts,
        seed=BENCH_SEED,
        chunk_size=PLAYOUT_CHUNK,
        jobs=jobs,
        players=players,
    )
    return playouts / (time.perf_counter() - start)


def _lookahead_defence(deals: int, seed: int) -> LookaheadPolicy:
    """Plays ``deals`` 4-player Garde deals (no petit sec, a random taker, the greedy's écart)
    with the greedy taker's side and the lookahead defence; returns the lookahead, whose
    ``decisions`` counts the defence's searched decisions."""
    rng = np.random.default_rng(seed)
    cards = deal(rng, deals, 4, reject_petit_sec=True)
    taker = rng.integers(0, 4, deals)
    defence = LookaheadPolicy(side="defence")
    play(cards, taker, Contract.GARDE, GreedyPolicy(), defence, rng=rng, keep_plays=False)
    return defence


def lookahead_decisions_per_cpu_second(deals: int) -> float:
    """The lookahead's searched decisions per CPU-second of this process (one core), playing a
    4-player defence against the greedy taker on ``deals`` deals; a few deals are played
    beforehand so that loading the compiled kernels is not timed."""
    _lookahead_defence(4, BENCH_SEED + 1)
    start = time.process_time()
    decisions = _lookahead_defence(deals, BENCH_SEED).decisions
    return decisions / (time.process_time() - start)


def random_hands(players: int, n: int, seed: int = BENCH_SEED) -> list[str]:
    """``n`` hands of random deals for ``players`` players whose point count is at least
    :data:`HAND_MIN_POINTS`, in the notation a user types (the same hands for the same seed);
    never a petit sec, which ``tarot-advise`` refuses (the rules call for a redeal)."""
    rng = np.random.default_rng(seed)
    hands: list[str] = []
    while len(hands) < n:
        drawn = deal(rng, 64, players).hands[:, 0]
        for hand in drawn[~petit_sec(drawn)]:
            if len(hands) < n and point_count(hand).points >= HAND_MIN_POINTS:
                hands.append(format_cards(hand))
    return hands


def advise_command(
    samples: int | None = None, hand: str = ADVISE_HAND, players: int = 4, *options: str
) -> list[str]:
    """The ``tarot-advise`` command line a user types for ``hand`` (default
    :data:`ADVISE_HAND`; the installed console script, found beside this Python first, then on
    the ``PATH``), with more ``options``."""
    beside = Path(sys.executable).parent / ADVISE_SCRIPT
    script = str(beside) if beside.exists() else shutil.which(ADVISE_SCRIPT)
    if script is None:
        raise Unavailable(f"the {ADVISE_SCRIPT} console script is not installed")
    extra = [] if samples is None else ["--samples", str(samples)]
    if players != 4:
        extra += ["--players", str(players)]
    return [script, hand, *extra, *options, "--quiet"]


def advise_seconds(
    samples: int | None = None, hand: str = ADVISE_HAND, players: int = 4, *options: str
) -> float:
    """Wall seconds of one ``tarot-advise`` run (default options, or ``samples``, and more
    ``options``), Python's start-up included, as a user waits for it. Where no run has
    compiled the engine for ``players`` yet (:func:`words.kept_for`), the command runs once
    untimed first: its first run compiles the engine, up to a minute, which is not the
    advice's speed."""
    command = advise_command(samples, hand, players, *options)
    if not kept_for(players):
        _advise(command)
    start = time.perf_counter()
    _advise(command)
    return time.perf_counter() - start


def _advise(command: list[str]) -> None:
    """Run a ``tarot-advise`` command; :class:`Unavailable` when it fails or takes too long."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=ADVISE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Unavailable(f"tarot-advise took more than {ADVISE_TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise Unavailable(f"tarot-advise failed (exit {done.returncode}): {last}")


def advise_seconds_random(players: int, hands: int) -> float:
    """The median wall seconds of the default ``tarot-advise`` on :func:`random_hands`."""
    return float(
        np.median([advise_seconds(None, h, players) for h in random_hands(players, hands)])
    )


Measurement = Callable[[BenchSettings], float]

MEASUREMENTS: dict[str, Measurement] = {
    "deals_per_second": lambda s: dealer_throughput(s.deals, s.jobs),
    "deals_per_second_one_core": lambda s: dealer_throughput(s.deals, 1),
    "playouts_per_second": lambda s: playout_throughput(s.playouts, s.jobs),
    "playouts_per_second_one_core": lambda s: playout_throughput(s.playouts, 1),
    "advise_seconds": lambda s: advise_seconds(),
    "advise_seconds_greedy": lambda s: advise_seconds(None, ADVISE_HAND, 4, *GREEDY_TABLE),
    "ecart_seconds": lambda s: advise_seconds(None, ADVISE_HAND, 4, "--chien", ECART_CHIEN),
    "ecart_seconds_greedy": lambda s: advise_seconds(
        None, ADVISE_HAND, 4, "--chien", ECART_CHIEN, *GREEDY_TABLE
    ),
    "advise_seconds_10000": lambda s: advise_seconds(10_000),
    "advise_seconds_50000": lambda s: advise_seconds(50_000),
    "advise_seconds_random_3p": lambda s: advise_seconds_random(3, s.hands),
    "advise_seconds_random_4p": lambda s: advise_seconds_random(4, s.hands),
    "advise_seconds_random_5p": lambda s: advise_seconds_random(5, s.hands),
    "lookahead_decisions_per_cpu_second": lambda s: lookahead_decisions_per_cpu_second(
        s.searched_deals
    ),
}
"""Name → measurement, run in this order; the name is the JSON key of the result."""
EVERY_CORE = frozenset({"deals_per_second", "playouts_per_second"})
"""The measurements run on the bench's ``jobs`` workers; the others run on one core, or time
``tarot-advise`` as a user runs it (its own default: every core)."""


def players_played(names: Iterable[str]) -> tuple[int, ...]:
    """The numbers of players whose deals the measurements ``names`` play: the advice on random
    hands its own (``advise_seconds_random_3p``: 3), the dealer's none, every other one 4."""
    played = set()
    for name in names:
        if name.startswith("advise_seconds_random_"):
            played.add(int(name.removeprefix("advise_seconds_random_").removesuffix("p")))
        elif not name.startswith("deals"):
            played.add(4)
    return tuple(sorted(played))


def run_benchmarks(
    deals: int,
    jobs: int = 0,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    hands: int = DEFAULT_HANDS,
    searched_deals: int = DEFAULT_SEARCHED_DEALS,
    only: tuple[str, ...] | None = None,
    on_measured: Callable[[str], None] | None = None,
) -> dict[str, float | int | dict[str, str] | None]:
    """Every measurement of :data:`MEASUREMENTS` (or those named in ``only``, in that table's
    order), plus the number of workers used (``jobs``) and, under ``notes``, why a figure is
    ``None``. ``on_measured`` receives each name once its figure is taken."""
    if only is not None:
        unknown = sorted(set(only) - set(MEASUREMENTS))
        if unknown:
            raise BenchError(f"no measurement called {', '.join(unknown)}")
    settings = BenchSettings(deals, choose_jobs(jobs), playouts, hands, searched_deals)
    results: dict[str, float | int | dict[str, str] | None] = {"jobs": settings.jobs}
    notes: dict[str, str] = {}
    for name, measure in MEASUREMENTS.items():
        if only is not None and name not in only:
            continue
        try:
            results[name] = measure(settings)
        except Unavailable as reason:
            results[name] = None
            notes[name] = str(reason)
        if on_measured is not None:
            on_measured(name)
    results["notes"] = notes
    return results
