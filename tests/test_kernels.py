"""The engine's per-deal kernels (analyzer/playout/words.py), compiled or not, and who is asked.

The greedy's habits and laying a card down are written once, deal by deal; numba compiles them,
and without it (or where it cannot keep its machine code) the same code runs as Python. Both
must play the same cards: numba's integer types are not numpy's, so the same source could
differ. And the engine asks each side's policy about its own deals only.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.players.policy import SimplePolicy
from tarot_advisor.analyzer.playout import words
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.engine import play
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call

pytest.importorskip("numba")


def played_digest(n_deals: int = 12) -> str:
    """A digest of every card the greedy plays in a few deals: 3, 4 and 5 players, every
    contract, poignées shown, against the simple defence and against itself."""
    digest = hashlib.sha256()
    for players in (3, 4, 5):
        for index, contract in enumerate(Contract):
            rng = np.random.default_rng(10 * players + index)
            deals = deal(rng, n_deals, players, reject_petit_sec=True)
            taker = rng.integers(0, players, n_deals)
            options = {}
            if players == 5:
                options["called"] = longest_suit_call(deals.hands[np.arange(n_deals), taker])
            for defence in (GreedyPolicy(), SimplePolicy()):
                playout = play(deals, taker, contract, GreedyPolicy(), defence, rng=rng, **options)
                digest.update(playout.plays.tobytes())
    return digest.hexdigest()


def test_the_kernels_run_as_python_to_the_same_cards():
    assert words.compiled()
    code = (
        "import sys; sys.path[:0] = sys.argv[1:]; "
        "import test_kernels as t; print(t.played_digest())"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    here = os.path.dirname(__file__)
    uncompiled = subprocess.run(
        [sys.executable, "-W", "error", "-c", code, here],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert uncompiled.stdout.strip() == played_digest()


def test_a_kernel_that_cannot_be_cached_runs_as_it_is(monkeypatch):
    def cannot_cache(**options):
        def decorate(function):
            raise RuntimeError("cannot cache function: no locator available")

        return decorate

    def twice(x):
        return 2 * x

    monkeypatch.setattr(words, "njit", cannot_cache)
    monkeypatch.setattr(words, "_compiling", True)
    assert words.kernel(twice) is twice
    assert not words.compiled()


class Witness:
    """The greedy, noting the side of every deal it is asked about."""

    name = "witness"

    def __init__(self) -> None:
        self.greedy = GreedyPolicy()
        self.sides: list[np.ndarray] = []
        self.turns = 0

    def choose(self, turn, rng):
        self.turns += 1
        self.sides.append(turn.on_taker_side)
        return self.greedy.choose(turn, rng)


def test_each_side_s_policy_is_asked_about_its_own_deals_only():
    rng = np.random.default_rng(4)
    deals = deal(rng, 30, 4, reject_petit_sec=True)
    taker = rng.integers(0, 4, 30)
    both = play(deals, taker, Contract.GARDE, GreedyPolicy(), rng=rng)
    attack, defence = Witness(), Witness()
    apart = play(deals, taker, Contract.GARDE, attack, defence, rng=rng)
    asked = 17 * 4  # every card but the last trick's, which is not asked
    assert attack.turns == defence.turns == asked  # every turn, even about no deal
    assert sum(map(len, attack.sides)) == 30 * 17  # the taker's 17 cards in each deal
    assert sum(map(len, defence.sides)) == 30 * 17 * 3
    assert all(sides.all() for sides in attack.sides)
    assert not any(sides.any() for sides in defence.sides)
    assert np.array_equal(both.plays, apart.plays)


def test_every_file_holding_a_kernel_is_in_the_digest_of_the_kept_machine_code():
    # numba checks only a kernel's own file: a kernel inlined from another file would keep
    # stale machine code unless the folder's digest covers that file too.
    analyzer = Path(words.__file__).resolve().parent.parent
    holding = {
        path.parent
        for path in analyzer.rglob("*.py")
        if "@kernel" in path.read_text(encoding="utf-8")
    }
    assert holding, "no kernel found"
    assert holding <= {folder.resolve() for folder in words._KERNEL_SOURCES}


def test_a_game_played_to_the_end_marks_the_kernels_kept_for_its_number_of_players(
    monkeypatch, tmp_path
):
    # The mark lives beside the kernels' machine code: a first run for 3 players is told it
    # compiles them; once a game of 3 has been played out, the next run is not, 5 players still.
    monkeypatch.setattr(words, "_compiling", True)
    monkeypatch.setattr(words, "_marked", set())
    monkeypatch.setattr(words.numba.config, "CACHE_DIR", str(tmp_path))
    assert not words.kept_for(3)
    deals = deal(np.random.default_rng(1), 2, 3)
    play(deals, 0, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(2))
    assert words.kept_for(3) and not words.kept_for(5)
    monkeypatch.setattr(words.numba.config, "CACHE_DIR", str(tmp_path / "not-made"))
    words.keep_for(5)  # a folder that cannot be written: nothing marked, nothing raised
    assert not words.kept_for(5)
    monkeypatch.setattr(words, "_compiling", False)
    assert words.kept_for(5)  # nothing is compiled: nothing to wait for


def test_copies_sharing_numba_s_cache_folder_keep_each_other_s_kernels(monkeypatch, tmp_path):
    # NUMBA_CACHE_DIR set: each copy of the project names its kernels' folder after its own
    # place, and removes only its own older folders, never another copy's.
    monkeypatch.setattr(words.numba.config, "CACHE_DIR", str(tmp_path))
    mine = Path(words._cache_folder())
    mine.mkdir()
    older = mine.with_name(mine.name[:-16] + "0" * 16)  # this copy, other sources
    older.mkdir()
    assert Path(words._cache_folder()) == mine and not older.exists()
    monkeypatch.setattr(words, "__file__", str(tmp_path / "elsewhere" / "playout" / "words.py"))
    theirs = Path(words._cache_folder())
    assert theirs != mine and theirs.parent == tmp_path and mine.exists()
