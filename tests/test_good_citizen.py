"""The library changes nothing in the process that imports it, and a command respects the
user's settings: no numba configuration rewritten, no module planted in ``sys.modules``, no
bytecode written where ``PYTHONDONTWRITEBYTECODE`` asks for none."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ("analyzer", "cli", "reports")

pytest.importorskip("numba")


def _sources():
    for folder in LIBRARY:
        yield from sorted((ROOT / folder).rglob("*.py"))
    yield ROOT / "__init__.py"


@pytest.mark.parametrize(
    "pattern",
    [
        r"numba\.config\.\w+\s*=[^=]",  # numba's configuration is the user's
        r"setattr\(\s*numba\.config",
        r"sys\.modules\[[^\]]+\]\s*=[^=]",  # no module planted, nor hidden
        r"environ(\[|\.setdefault\(|\.update\()\s*[\"']?NUMBA_",  # nor numba's variables
    ],
)
def test_the_library_writes_nothing_of_numba_s_or_the_interpreter_s(pattern: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(pattern, line)
    ]
    assert not found


def test_the_library_uses_no_private_numba_option() -> None:
    """No keyword of numba's that starts with an underscore (``njit(_nrt=False)``): the kernels
    count no references because they take views (analyzer/playout/unowned.py)."""
    private_keyword = re.compile(r"\b(njit|jit|cfunc|vectorize|overload|intrinsic)\(.*\b_\w+\s*=")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if private_keyword.search(line) or re.search(r"\b_nrt\s*=", line)
    ]
    assert not found


CHECK = """
import sys
import numba
import numpy as np
before = {name: getattr(numba.config, name) for name in dir(numba.config) if name.isupper()}
modules = set(sys.modules)
import tarot_advisor
from tarot_advisor.analyzer.api import analyse_hand
from tarot_advisor.analyzer.playout import words
with words.quiet_wrap():
    assert words.popcount(np.uint64(7)) == 3  # a kernel compiled (or read) and run
after = {name: getattr(numba.config, name) for name in dir(numba.config) if name.isupper()}
changed = sorted(name for name in before if before[name] != after.get(name))
planted = sorted(name for name in set(sys.modules) - modules if sys.modules[name] is None)
print(changed, planted)
"""


def test_importing_the_library_and_running_a_kernel_leaves_numba_s_configuration_as_it_was():
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[0] == "[] []"


def test_a_command_run_with_pythondontwritebytecode_writes_no_bytecode(tmp_path: Path) -> None:
    # A copy of the package without any bytecode, run as its console script runs it.
    copy = tmp_path / "tarot_advisor"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", "tests", "docs")
    shutil.copytree(ROOT, copy, ignore=skip)
    record = copy / "data" / "deals" / "blunder-garde-4p.json"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(tmp_path))
    code = "from tarot_advisor.cli.replay import run; run()"
    done = subprocess.run(
        [sys.executable, "-c", code, str(record)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout  # it did its work
    assert not list(copy.rglob("*.pyc"))
