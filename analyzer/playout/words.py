"""One-word card sets, and the per-deal kernels' compiler.

The engine's steps of play — the legal cards (:mod:`vector_rules`), laying a card down and turning
to the next trick (:mod:`trick`, with :func:`knowledge.observe`), closing a trick (:mod:`tally`)
and the greedy's choice (:mod:`~..players.habits`) — are written once, deal by deal, as plain
Python over ``uint64`` words (card sets as in :mod:`bitboard`, one deal at a time); the greedy
plays whole playouts as one loop of them (:func:`~..players.greedy.play_out`). :func:`kernel`
compiles them with numba when it can (a greedy decision of 10 deals: 10 µs instead of a quarter
of a millisecond as numpy array operations); without numba, or where it cannot keep its machine
code (no writable ``__pycache__``), the same code runs uncompiled, to the same cards, far more
slowly. ``NUMBA_DISABLE_JIT=1`` forces that path. Python calls them through an
:func:`entry_point`, which hands them views of their arrays (:mod:`.unowned`) on which they
count no references.

numba keeps a kernel's machine code until the kernel's own file changes, not the files of the
kernels it inlines (a habit changed in ``habits.py`` would leave ``greedy.py``'s compiled caller
stale). So every kernel's name carries a digest of every source file of the engine, its players
and the search (:data:`DIGEST`): numba names a function's cache files after its qualified name,
and a change to any of those sources compiles the kernels afresh, into files of new names. The
cache stays where numba puts it (``__pycache__`` beside the source, or ``NUMBA_CACHE_DIR``, the
user's to set); nothing of numba's configuration is changed. The files of older digests in the
project's own ``__pycache__`` folders are removed once the new ones have played a game
(:func:`keep_for`).

Uncompiled, words are numpy scalars, whose arithmetic warns when it wraps around (the
two's-complement tricks below rely on it): the entry points run under :func:`quiet_wrap`.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from types import FunctionType
from typing import Any

import numpy as np

try:
    import numba
    from numba import njit

    from .unowned import views
except ImportError:  # pragma: no cover - numba is a dependency; the fallback is for odd installs
    numba = njit = views = None

_compiling = numba is not None and not numba.config.DISABLE_JIT
_KERNEL_SOURCES = tuple(
    Path(__file__).parent.parent / name for name in ("playout", "players", "search")
)
"""The folders whose Python files hold the kernels and the constants they are compiled with."""


def _digest(folders: tuple[Path, ...] = _KERNEL_SOURCES) -> str:
    """A digest of every Python file of ``folders`` (16 hexadecimal digits)."""
    digest = hashlib.sha256()
    for folder in folders:
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode() + source.read_bytes())
    return digest.hexdigest()[:16]


DIGEST = _digest()
"""The digest of the kernels' sources that every compiled kernel's name carries."""
_TAGGED = re.compile(r"__k([0-9a-f]{16})[.-]")
"""A name tagged with a digest (a kernel's cache file, a mark of :func:`keep_for`)."""


def kernel(function: Callable) -> Callable:
    """``function`` compiled by numba (cached where numba caches, under a name that carries
    :data:`DIGEST`), or as it is when it cannot be. Compiled, a kernel is inlined into its
    caller (``inline="always"``); a kernel that Python calls is an :func:`entry_point`."""
    return _compiled(function, inline="always")


def _compiled(function: Callable, inline: str) -> Callable:
    global _compiling
    if not _compiling:
        return function
    function.__qualname__ = f"{function.__qualname__}__k{DIGEST}"
    try:
        return njit(cache=True, nogil=True, inline=inline)(function)
    except RuntimeError:  # no folder to keep its machine code in: every kernel runs uncompiled
        _compiling = False
        return function


def entry_point(function: Callable) -> Callable:
    """``function``, a kernel that Python calls, compiled (as :func:`kernel`, but not inlined)
    behind a call that hands it a :class:`.unowned.View` of every C-contiguous array it takes
    (arrays, and arrays in tuples), on which the kernels it inlines count no references; or as
    it is when nothing is compiled. ``function`` takes the views as its own arguments, not as a
    call's result: numba's removal of dead code keeps the writes to an argument's arrays, not
    those to a call's result that is read no more."""
    name = function.__qualname__
    body = _compiled(function, inline="never")
    if not _compiling:
        return function
    enter = FunctionType(_enter.__code__, {"body": body, "views": views}, function.__name__)
    enter.__qualname__ = f"{name}__entry__k{DIGEST}"
    enter.__module__ = function.__module__
    enter.__doc__ = function.__doc__
    try:
        return njit(cache=True, nogil=True)(enter)
    except RuntimeError:  # no folder beside this file for its machine code: run it uncompiled
        return function


def _enter(*arguments: Any) -> Any:
    """The code of every :func:`entry_point`'s call, with the globals ``body`` (the kernel called)
    and ``views`` its own: globals rather than a closure's cells, so that numba's cache
    recognises it (it keys a closure by its cells' contents, which differ each process)."""
    return body(*views(arguments))  # noqa: F821


def compiled() -> bool:
    """The kernels are compiled in this process (numba is there and can cache)."""
    return _compiling


def kept_for(players: int) -> bool:
    """Whether a process has already played a ``players``-player deal to the end with these
    kernels (:func:`keep_for` marked their folder), so that they are compiled and kept; always
    where nothing is compiled. A first run compiles them, up to a minute, once per number of
    players: a command says so."""
    return not _compiling or _kept_mark(players).exists()


_marked: set[int] = set()
"""The numbers of players this process has marked (:func:`keep_for`)."""


def keep_for(players: int) -> None:
    """Mark the kernels kept for ``players`` players: called by every game played to the end
    (:meth:`.engine.InPlay.playout`), it writes once per process. A first mark for these sources
    removes the cache files and marks of older digests from the project's ``__pycache__``
    folders. A folder that cannot be written stays unmarked."""
    if _compiling and players not in _marked:
        _marked.add(players)
        mark = _kept_mark(players)
        if not mark.exists():
            with contextlib.suppress(OSError):
                mark.parent.mkdir(exist_ok=True)
                mark.touch()
                _remove_older()


def _kept_mark(players: int) -> Path:
    return _MARKS / f"played-{players}p__k{DIGEST}.mark"


_MARKS = Path(__file__).resolve().parent / "__pycache__"
"""Where :func:`keep_for` marks the kernels kept: this file's own ``__pycache__``."""


def _remove_older() -> None:
    """Remove the cache files (and marks) of kernels compiled from older sources: those of the
    ``__pycache__`` folders beside the sources whose names carry another digest."""
    for folder in _KERNEL_SOURCES:
        for path in (folder / "__pycache__").glob("*__k*"):
            tagged = _TAGGED.search(path.name)
            if tagged and tagged.group(1) != DIGEST:
                with contextlib.suppress(OSError):
                    path.unlink()


def quiet_wrap() -> contextlib.AbstractContextManager[Any]:
    """The context an entry point runs its kernel in: uncompiled, numpy's warnings on words that
    wrap around are silenced (compiled words wrap silently)."""
    if _compiling:
        return contextlib.nullcontext()
    return np.errstate(over="ignore")


_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _S8, _S16, _S32, _S56 = (np.uint64(s) for s in (1, 2, 4, 8, 16, 32, 56))


@kernel
def popcount(x: np.uint64) -> np.int64:
    """:func:`bitboard.popcount` of one word (numba makes it the processor's instruction)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@kernel
def lowest(x: np.uint64) -> np.uint64:
    """:func:`bitboard.lowest` of one word."""
    return x & (~x + _ONE)


@kernel
def top(x: np.uint64) -> np.uint64:
    """The highest set bit of ``x`` (0 for 0): :func:`bitboard.top` of any word."""
    x |= x >> _S1
    x |= x >> _S2
    x |= x >> _S4
    x |= x >> _S8
    x |= x >> _S16
    x |= x >> _S32
    return x ^ (x >> _S1)


@kernel
def keep(flag: np.bool_, x: np.uint64) -> np.uint64:
    """``x`` where ``flag``, else 0, without a branch (a mask of ``flag``'s bit)."""
    return x & (_ZERO - np.uint64(flag))


@kernel
def above(single: np.uint64) -> np.uint64:
    """:func:`bitboard.above`: every bit above the one of ``single`` (none for 0)."""
    return ~(single << _ONE) + _ONE


@kernel
def above_or_all(single: np.uint64) -> np.uint64:
    """:func:`bitboard.above_or_all`: the bits above ``single``, every bit when it is 0."""
    if single == _ZERO:
        return _ALL_ONES
    return above(single)
