"""One-word card sets, and the per-deal kernels' compiler.

The engine's steps of play — the legal cards (:mod:`vector_rules`), laying a card down and turning
to the next trick (:mod:`trick`, with :func:`knowledge.observe`), closing a trick (:mod:`tally`)
and the greedy's choice (:mod:`~..players.habits`) — are written once, deal by deal, as plain
Python over ``uint64`` words (card sets as in :mod:`bitboard`, one deal at a time); the greedy
plays whole playouts as one loop of them (:func:`~..players.greedy.play_out`). :func:`kernel`
compiles them with numba when it can (a greedy decision of 10 deals: 10 µs instead of a quarter
of a millisecond as numpy array operations); without numba, or where it cannot keep its machine
code (no writable ``__pycache__``), the same code runs uncompiled, to the same cards, far more
slowly. ``NUMBA_DISABLE_JIT=1`` forces that path.

numba keeps a kernel's machine code until the kernel's own file changes, not the files of the
kernels it calls (a habit changed in ``habits.py`` would leave ``greedy.py``'s compiled caller
stale): so the machine code is kept in a folder named after a digest of every source file of
the engine, its players and the search (:func:`_cache_folder`), which any change there replaces.

Uncompiled, words are numpy scalars, whose arithmetic warns when it wraps around (the
two's-complement tricks below rely on it): the entry points run under :func:`quiet_wrap`.
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    import numba
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; the fallback is for odd installs
    numba = njit = None

_compiling = numba is not None and not numba.config.DISABLE_JIT
_KERNEL_SOURCES = tuple(
    Path(__file__).parent.parent / name for name in ("playout", "players", "search")
)
"""The folders whose Python files hold the kernels and the constants they are compiled with."""


def _cache_folder() -> str:
    """A folder for the kernels' machine code, named after a digest of their sources (older
    ones are removed); under numba's own cache folder when one is set, else ``__pycache__``.

    numba's folder may be shared by other copies of the project (two installs, a checkout and
    its worktree): there each copy's folders are named after the copy's place too, and it
    removes only its own, else two copies would remove each other's at every run and compile
    in turn."""
    digest = hashlib.sha256()
    for folder in _KERNEL_SOURCES:
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode() + source.read_bytes())
    here = Path(__file__).resolve().parent
    shared = numba.config.CACHE_DIR
    base = Path(shared or here / "__pycache__")
    copy = hashlib.sha256(str(here).encode()).hexdigest()[:8] + "-" if shared else ""
    folder = base / f"kernels-{copy}{digest.hexdigest()[:16]}"
    for old in base.glob(f"kernels-{copy}*"):
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    return str(folder)


if _compiling:
    numba.config.CACHE_DIR = _cache_folder()


def kernel(function: Callable) -> Callable:
    """``function`` compiled by numba (cached in ``__pycache__``), or as it is when it cannot be.

    Compiled, a kernel is inlined into its caller (``inline="always"``), and none counts
    references (``_nrt=False``): a call to a kernel that takes a bundle of arrays otherwise
    copies some 300 words, and adds and removes a reference to each of its 36 arrays, atomic
    operations (3 µs a deal, 20 × the work itself). The kernels allocate nothing, so nothing
    needs counting: numba refuses to compile one that would (an array made inside it)."""
    global _compiling
    if not _compiling:
        return function
    try:
        return njit(cache=True, nogil=True, _nrt=False, inline="always")(function)
    except RuntimeError:  # no folder to keep its machine code in: every kernel runs uncompiled
        _compiling = False
        return function


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
    (:meth:`.engine.InPlay.playout`), it writes once per process. A folder that cannot be
    written stays unmarked."""
    if _compiling and players not in _marked:
        _marked.add(players)
        with contextlib.suppress(OSError):
            _kept_mark(players).touch()


def _kept_mark(players: int) -> Path:
    return Path(numba.config.CACHE_DIR) / f"played-{players}p"


def quiet_wrap() -> contextlib.AbstractContextManager[Any]:
    """The context an entry point runs its kernel in: uncompiled, numpy's warnings on words that
    wrap around are silenced (compiled words wrap silently); compiled, numba's array functions
    are loaded first, once a process (:func:`_array_functions_without_blas`)."""
    if _compiling:
        if not _array_functions_loaded:
            _array_functions_without_blas()
        return contextlib.nullcontext()
    return np.errstate(over="ignore")


BLAS_PROBE = "scipy.linalg.cython_blas"
"""What numba imports, where SciPy is installed, to learn whether ``np.dot`` may call BLAS."""
_array_functions_loaded = False


def _array_functions_without_blas() -> None:
    """Load numba's array functions (``numba.np.arraymath``) with its BLAS probe failing.

    The probe imports SciPy's linear algebra as a process loads its first kernel: 0.17–0.46 s
    where SciPy is installed; a `tarot-play` took 0.58–0.83 s with it, its kernels run in its
    own process. No kernel of this project calls BLAS (``np.dot``, ``np.linalg``: a kernel that
    did would not compile here); numpy outside the kernels is not concerned. Nothing changes
    where the functions are already loaded, or SciPy's linear algebra already is."""
    global _array_functions_loaded
    _array_functions_loaded = True
    if any(name in sys.modules for name in ("numba.np.arraymath", "scipy.linalg", BLAS_PROBE)):
        return
    sys.modules[BLAS_PROBE] = None  # None in sys.modules: that import fails at once
    try:
        import numba.np.arraymath  # noqa: F401
    except Exception:
        # A failure the kernel about to run will report itself, with its own message.
        pass
    finally:
        del sys.modules[BLAS_PROBE]


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
