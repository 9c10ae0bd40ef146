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
    monkeypatch.setattr(words, "_compiling", True)
    assert words.entry_point(twice) is twice
    assert not words.compiled()


def test_an_entry_point_whose_call_cannot_be_cached_runs_as_it_is(monkeypatch):
    """The kernel compiles, the call that hands it its views cannot keep its machine code: the
    entry point is the plain function, not a compiled call to a kernel left half set up."""
    compiled = []

    def kernel_only(**options):
        def decorate(function):
            if compiled:
                raise RuntimeError("cannot cache function: no locator available")
            compiled.append(function)
            return function

        return decorate

    def thrice(x):
        return 3 * x

    monkeypatch.setattr(words, "njit", kernel_only)
    monkeypatch.setattr(words, "_compiling", True)
    assert words.entry_point(thrice) is thrice
    assert thrice(2) == 6


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
    # The mark carries the sources' digest: a first run for 3 players is told it compiles
    # them; once a game of 3 has been played out, the next run is not, 5 players still.
    monkeypatch.setattr(words, "_compiling", True)
    monkeypatch.setattr(words, "_marked", set())
    monkeypatch.setattr(words, "_MARKS", tmp_path)
    monkeypatch.setattr(words, "_remove_older", lambda: None)
    assert not words.kept_for(3)
    deals = deal(np.random.default_rng(1), 2, 3)
    play(deals, 0, Contract.GARDE, GreedyPolicy(), rng=np.random.default_rng(2))
    assert words.kept_for(3) and not words.kept_for(5)
    assert words.DIGEST in words._kept_mark(3).name
    monkeypatch.setattr(words, "_MARKS", tmp_path / "not-made" / "deeper")
    words.keep_for(5)  # a folder that cannot be written: nothing marked, nothing raised
    assert not words.kept_for(5)
    monkeypatch.setattr(words, "_compiling", False)
    assert words.kept_for(5)  # nothing is compiled: nothing to wait for


def test_the_first_mark_of_new_sources_removes_the_older_sources_files_only(monkeypatch, tmp_path):
    cache = tmp_path / "players" / "__pycache__"
    cache.mkdir(parents=True)
    older, other = "0" * 16, "f" * 16
    assert words.DIGEST not in (older, other)
    kept = [
        f"greedy.play_out__k{words.DIGEST}-93.py311.nbi",
        f"greedy.play_out__k{words.DIGEST}-93.py311.1.nbc",
        "greedy.cpython-311.pyc",
        "someone__kelse.txt",
    ]
    removed = [f"greedy.play_out__k{older}-93.py311.nbi", f"played-3p__k{other}.mark"]
    for name in kept + removed:
        (cache / name).touch()
    monkeypatch.setattr(words, "_KERNEL_SOURCES", (tmp_path / "players", tmp_path / "none"))
    words._remove_older()
    assert sorted(path.name for path in cache.iterdir()) == sorted(kept)


CALLER = "from .callee import value\n\n\n@kernel\ndef caller():\n    return value()\n"
CALLEE = "@kernel\ndef value():\n    return {}\n"
RUN = """
import sys
from pathlib import Path
from tarot_advisor.analyzer.playout import words
sys.path.insert(0, sys.argv[1])
words.DIGEST = sys.argv[2] or words._digest((Path(sys.argv[1]) / "mini",))
from mini.caller import caller
print(caller())
"""


@pytest.mark.slow
def test_a_kernel_changed_in_another_file_never_leaves_its_compiled_caller_stale(tmp_path):
    # numba checks only the caller's own file: a habit changed in habits.py would leave
    # greedy.py's compiled caller as it was, but for the digest the kernels' names carry.
    def run(digest: str) -> str:
        command = [sys.executable, "-c", RUN, str(tmp_path), digest]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout

    def mini(value: int) -> None:
        package = tmp_path / "mini"
        package.mkdir(exist_ok=True)
        (package / "__init__.py").write_text("")
        imports = "from tarot_advisor.analyzer.playout.words import kernel\n\n\n"
        if not (package / "caller.py").exists():  # the caller's file is never touched
            (package / "caller.py").write_text(imports + CALLER)
        (package / "callee.py").write_text(imports + CALLEE.format(value))

    mini(1)
    assert run("") == "1\n"
    mini(2)
    assert run("") == "2\n"  # the callee's new code, compiled and cached under a new name
    assert run("") == "2\n"
    # The same change under a fixed digest: numba keeps the caller's machine code (the test
    # can tell a stale caller).
    fixed = "c" * 16
    assert run(fixed) == "2\n"
    mini(3)
    assert run(fixed) == "2\n"
