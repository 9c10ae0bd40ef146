"""The engine's compiled twins (numba), and when a process uses them.

Two hot steps have a compiled twin: the greedy's choice (:mod:`greedy_kernel`, twin of
:mod:`greedy`) and laying a card down (:mod:`table_kernel`, twin of :meth:`table.Table.play` and
:meth:`knowledge.PublicKnowledge.observe`). Each replaces many numpy calls with one call (a
greedy decision of 10 deals: 10 µs instead of 239), and ``tests/test_compiled_twins.py`` holds
every twin to the same cards and the same state as the array version it follows.

Loading them costs about a second per process (importing numba 0.35 s, its first call 0.6 s,
measured; the machine code itself is cached in ``__pycache__``). So a process starts with the
array versions and switches once it has spent :data:`COMPILE_AFTER_SECONDS` in the greedy: a
process that plays little, like a quick advice, never pays the second, and one that plays more
pays at most about twice what the best choice made in hindsight would have. Without numba the
array versions play on: the same cards, more slowly.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

COMPILE_AFTER_SECONDS = 1.0
"""Seconds of choosing with the array greedy after which a process loads the compiled twins."""


class Twins:
    """The loaded twins: ``greedy`` (:mod:`greedy_kernel`) and ``table`` (:mod:`table_kernel`)."""

    def __init__(self) -> None:
        self.greedy: ModuleType = importlib.import_module(
            "tarot_advisor.analyzer.players.greedy_kernel"
        )
        self.table: ModuleType = importlib.import_module(f"{__package__}.table_kernel")


class _Process:
    """This process's state: the twins once loaded, and the array greedy's seconds until then."""

    def __init__(self) -> None:
        self.twins: Twins | None = None
        self.seconds = 0.0
        self.missing = False  # the twins cannot be loaded here
        self.allowed = True


_process = _Process()


def twins() -> Twins | None:
    """The compiled twins when this process uses them, else None (play with arrays)."""
    return _process.twins


def spent(seconds: float) -> None:
    """The array greedy has just spent ``seconds`` choosing: load the twins once it is enough."""
    _process.seconds += seconds
    if _process.seconds >= COMPILE_AFTER_SECONDS and _process.twins is None:
        load()


def load() -> bool:
    """Use the compiled twins from now on (a benchmark's start-up, or :func:`spent`); False
    when numba is not installed or the twins are switched off (:func:`arrays_only`)."""
    if _process.twins is None and _process.allowed and not _process.missing:
        try:
            _process.twins = Twins()
        except (ImportError, RuntimeError):  # no numba, or no folder to keep its machine code in
            _process.missing = True
    return _process.twins is not None


@contextmanager
def arrays_only() -> Iterator[None]:
    """Play with the array versions only, inside the block (the twins' tests)."""
    saved = _process.twins, _process.allowed
    _process.twins, _process.allowed = None, False
    try:
        yield
    finally:
        _process.twins, _process.allowed = saved
