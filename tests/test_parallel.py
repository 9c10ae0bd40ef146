"""The parallel runner: a result depends on the seed and the sample count, not on the workers."""

import subprocess
import sys

import numpy as np
import pytest

from tarot_advisor.analyzer.cards import IS_TRUMP
from tarot_advisor.analyzer.parallel import (
    ParallelError,
    available_cores,
    choose_jobs,
    chunk_sizes,
    map_chunks,
    map_chunks_until,
)
from tarot_advisor.analyzer.playout.deal import deal


def trumps_histogram(rng: np.random.Generator, n: int, players: int) -> np.ndarray:
    """Counts of seat 0's trumps over ``n`` deals: the kind of summed counts a report merges."""
    hands = deal(rng, n, players).hands[:, 0]
    return np.bincount(IS_TRUMP[hands].sum(axis=1), minlength=25)


def first_draw(rng: np.random.Generator, n: int) -> tuple[int, float]:
    return n, float(rng.random())


def test_chunks_have_the_chunk_size_and_the_last_holds_the_rest():
    assert chunk_sizes(10, 4) == [4, 4, 2]
    assert chunk_sizes(8, 4) == [4, 4]
    assert chunk_sizes(0, 4) == []


def test_the_same_seed_gives_the_same_result_with_one_or_two_workers():
    kwargs = {"seed": 2024, "chunk_size": 3000, "players": 4}
    one = map_chunks(trumps_histogram, 10_000, jobs=1, **kwargs)
    two = map_chunks(trumps_histogram, 10_000, jobs=2, **kwargs)
    assert len(one) == len(two) == 4
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)
    assert sum(a.sum() for a in one) == 10_000
    other = map_chunks(trumps_histogram, 10_000, jobs=1, **{**kwargs, "seed": 2025})
    assert not np.array_equal(sum(one), sum(other))


def test_any_joblib_backend_gives_the_same_result():
    one = map_chunks(first_draw, 10, seed=5, chunk_size=3, jobs=1)
    threads = map_chunks(first_draw, 10, seed=5, chunk_size=3, jobs=2, backend="threading")
    assert one == threads
    assert [n for n, _ in one] == [3, 3, 3, 1]


def test_each_chunk_draws_from_its_own_stream():
    draws = [x for _, x in map_chunks(first_draw, 4, seed=5, chunk_size=1)]
    assert len(set(draws)) == 4


def test_progress_reports_the_items_finished_after_each_chunk():
    seen: list[int] = []
    map_chunks(first_draw, 10, seed=1, chunk_size=4, on_done=seen.append)
    assert seen == [4, 8, 10]
    seen.clear()
    map_chunks(first_draw, 10, seed=1, chunk_size=4, jobs=2, on_done=seen.append)
    assert seen == [4, 8, 10]


def test_the_chunks_stop_at_the_first_that_settle_the_question_whatever_the_workers():
    # Settled once the draws so far add up to more than 1.5: the same chunks with 1, 2 or 3
    # workers (waves of 1, 2 or 3 chunks), and the same as the first chunks of map_chunks.
    def settled(parts: list[tuple[int, float]]) -> bool:
        return sum(x for _, x in parts) > 1.5

    every = map_chunks(first_draw, 20, seed=3, chunk_size=2)
    total = np.cumsum([x for _, x in every])
    expected = int(np.argmax(total > 1.5)) + 1
    assert 1 < expected < len(every)
    for jobs in (1, 2, 3):
        seen: list[int] = []
        kept = map_chunks_until(
            first_draw, 20, settled, seed=3, chunk_size=2, jobs=jobs, on_done=seen.append
        )
        assert kept == every[:expected]
        assert seen == [2 * (k + 1) for k in range(expected)]


def test_every_chunk_is_computed_when_the_question_is_never_settled():
    kept = map_chunks_until(first_draw, 10, lambda parts: False, seed=5, chunk_size=3, jobs=2)
    assert kept == map_chunks(first_draw, 10, seed=5, chunk_size=3)


def test_jobs_zero_or_minus_one_means_every_core():
    assert choose_jobs(0) == choose_jobs(-1) == available_cores()
    assert choose_jobs(3) == 3
    with pytest.raises(ParallelError):
        choose_jobs(-2)


def test_a_chunk_size_below_one_is_refused():
    with pytest.raises(ParallelError, match="chunk size"):
        map_chunks(first_draw, 10, seed=1, chunk_size=0)


THREAD_HANDS_ITS_CHUNKS = """
import os, sys, threading
import numpy as np
from tarot_advisor.analyzer.parallel import map_chunks, start_workers, started_workers

def worker_of(rng, n):
    return os.getpid(), float(rng.random())

if __name__ == "__main__":
    print(start_workers(2), started_workers())
    from_thread = []
    chunks = dict(seed=7, chunk_size=1, backend="fork")
    job = lambda: from_thread.extend(map_chunks(worker_of, 4, jobs=2, **chunks))
    thread = threading.Thread(target=job)
    thread.start()
    thread.join()
    here = map_chunks(worker_of, 4, jobs=1, **chunks)
    print([d for _, d in from_thread] == [d for _, d in here])
    print(os.getpid() in {pid for pid, _ in from_thread}, "joblib" in sys.modules)
"""


def test_a_thread_hands_its_chunks_to_the_workers_forked_before_it_began(tmp_path):
    # tarot-web's jobs run on threads, which cannot fork: they use the workers forked when the
    # server started (a process of its own: this one's threads may be many by now).
    script = tmp_path / "server_like.py"
    script.write_text(THREAD_HANDS_ITS_CHUNKS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True
    )
    # Two workers forked; the thread's chunks drew what one worker here draws, in other
    # processes, and not joblib's (which would have been imported to start its own).
    assert done.stdout.split("\n")[:3] == ["2 2", "True", "False False"]


WORKER_LOADS = """
import numpy as np
from tarot_advisor.analyzer.advice.hand_samples import GREEDY_TABLE, Bidding, Choice, replayed_chunk
from tarot_advisor.analyzer.advice.auction import bidder
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.parallel import FORK, map_chunks


def loaded(rng, n, **kwargs):
    made = replayed_chunk(rng, n, **kwargs)[Contract.GARDE].made  # the greedy's kernels
    return int(made.sum())


hand = tuple(parse_hand("21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"))
where = dict(hand=hand, players=4, position=None, choice=Choice(Contract.GARDE, None),
             bidding=Bidding(bidder("calibrated")), sides=GREEDY_TABLE)
forked = map_chunks(loaded, 200, seed=3, chunk_size=100, jobs=2, backend=FORK, **where)
here = map_chunks(loaded, 200, seed=3, chunk_size=100, jobs=1, **where)
print(forked == here)
"""


def test_the_kernels_play_the_same_in_a_forked_worker_and_here():
    run = subprocess.run([sys.executable, "-c", WORKER_LOADS], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True"]


LONE_CHUNK = """
import os
from tarot_advisor.analyzer.parallel import map_chunks

def pid_of(rng, n):
    return os.getpid(), float(rng.random())

if __name__ == "__main__":
    chunks = dict(seed=7, chunk_size=1, jobs=2, backend="fork")
    before = map_chunks(pid_of, 1, **chunks)
    both = map_chunks(pid_of, 2, **chunks)
    after = map_chunks(pid_of, 1, **chunks)
    me = os.getpid()
    print(before[0][0] == me, both[0][0] != me, after[0][0] != me, before[0][1] == after[0][1])
"""


def test_a_lone_chunk_goes_to_the_workers_forked_before_it(tmp_path):
    # Their kernels are loaded, where this process may never have run one (0.2-0.4 s to load):
    # a lone chunk runs here only while no worker is forked. The same stream either way.
    script = tmp_path / "lone_chunk.py"
    script.write_text(LONE_CHUNK, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["True", "True", "True", "True"]
