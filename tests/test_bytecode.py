"""A command keeps its modules' bytecode where the interpreter is told not to write it."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

import pytest

from tarot_advisor.cli.bytecode import keep_bytecode


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A package ``kept_pkg`` with a module ``rules``, imported as under
    ``PYTHONDONTWRITEBYTECODE``: no bytecode written."""
    folder = tmp_path / "kept_pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "rules.py").write_text("CARDS = 78\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    module = importlib.import_module("kept_pkg.rules")
    yield module
    for name in ("kept_pkg", "kept_pkg.rules"):
        sys.modules.pop(name, None)


def _taken_by_the_import(module) -> bool:
    """Whether importing ``module`` again would read its bytecode, not compile its source."""
    loader = importlib.machinery.SourceFileLoader(module.__name__, module.__file__)

    def compile_refused(*args, **kwargs):
        raise AssertionError("compiled from source")

    loader.source_to_code = compile_refused
    try:
        return loader.get_code(module.__name__) is not None
    except AssertionError:
        return False


def test_the_bytecode_written_is_what_the_next_import_reads(package) -> None:
    assert not Path(package.__cached__).exists()
    assert keep_bytecode("kept_pkg") == 2  # the package's __init__ and its module
    assert _taken_by_the_import(package)
    assert keep_bytecode("kept_pkg") == 0  # up to date: nothing written again


def test_a_source_changed_since_gets_its_bytecode_again(package) -> None:
    keep_bytecode("kept_pkg")
    Path(package.__file__).write_text("CARDS = 78\nPLAYERS = (3, 4, 5)\n")
    assert not _taken_by_the_import(package)
    assert keep_bytecode("kept_pkg") == 1
    assert _taken_by_the_import(package)


def test_a_reproducible_build_still_gets_bytecode_the_import_takes(package, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")  # py_compile's default becomes a hash
    assert keep_bytecode("kept_pkg") == 2
    assert keep_bytecode("kept_pkg") == 0


def test_where_the_interpreter_writes_bytecode_nothing_is_written(package, monkeypatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert keep_bytecode("kept_pkg") == 0
    assert not Path(package.__cached__).exists()


def test_a_symlink_where_the_bytecode_goes_is_left_as_it_is(package, tmp_path: Path) -> None:
    target = tmp_path / "not-ours.txt"
    target.write_text("someone else's file")
    cached = Path(package.__cached__)
    cached.parent.mkdir(exist_ok=True)
    cached.symlink_to(target)
    keep_bytecode("kept_pkg")
    assert cached.is_symlink() and target.read_text() == "someone else's file"
