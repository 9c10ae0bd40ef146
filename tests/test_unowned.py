"""The kernels' entry points hand them views of their arrays (analyzer/playout/unowned.py): the
views read and write as numpy's arrays do, and the compiled kernels count no references."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from numba import njit

from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.playout import engine, trick, words
from tarot_advisor.analyzer.playout.deal import deal
from tarot_advisor.analyzer.playout.unowned import views

pytestmark = pytest.mark.skipif(not words.compiled(), reason="the kernels run uncompiled here")


@words.entry_point
def _shuffle_around(ones, table, cube, flags, pair, out):
    """Reads and writes every way a kernel may: at the end (−1), a row of a table, a row of a
    row of a cube, bools, arrays in a tuple; returns a word."""
    first, second = pair
    ones[-1] = ones[0] + table[1, 2]
    row = table[-1]
    out[0] = row[0] + row[len(row) - 1]
    cube_row = cube[1, 0]
    out[1] = cube_row[2] + cube[0, 1, -1]
    flags[1, 0] = not flags[0, 1]
    second[0] = first[-1] * 2
    out[2] = len(table) + table.shape[1]
    return np.uint64(out[0] + out[1])


def _arguments():
    return (
        np.arange(4, dtype=np.uint64),
        np.arange(12, dtype=np.int64).reshape(3, 4),
        np.arange(24, dtype=np.float32).reshape(2, 3, 4),
        np.array([[False, False], [True, False]]),
        (np.array([5, 6, 7], np.int64), np.zeros(2, np.int64)),
        np.zeros(3, np.int64),
    )


def test_a_view_reads_and_writes_as_the_array_it_sees():
    compiled, plain = _arguments(), _arguments()
    returned = _shuffle_around(*compiled)
    expected = _shuffle_around.py_func.__globals__["body"].py_func(*plain)
    assert returned == expected == np.uint64((8 + 11) + (14 + 7))
    for seen, wanted in zip(
        compiled[:4] + compiled[4] + compiled[5:], plain[:4] + plain[4] + plain[5:], strict=True
    ):
        np.testing.assert_array_equal(seen, wanted)
    assert compiled[0][-1] == 0 + 6
    assert compiled[3][1, 0] == np.True_
    assert compiled[4][1][0] == 14


def _references_counted(dispatcher) -> int:
    return sum(code.count("@NRT_incref(") for code in dispatcher.inspect_llvm().values())


def _uncached(entry):
    """A copy of the entry point ``entry`` compiled afresh, whose machine code can be read
    (numba shows no cached kernel's): the same kernel behind the same views."""
    body = njit(inline="never")(entry.py_func.__globals__["body"].py_func)
    return njit(lambda *arguments: body(*views(arguments))), body


def _garde():
    """A 4-player Garde of 5 deals, at its first card (the same each time)."""
    rng = np.random.default_rng(3)
    return engine.start(deal(rng, 5, 4, reject_petit_sec=True), 0, Contract.GARDE).table


@pytest.fixture
def table():
    return _garde()


@pytest.mark.slow
def test_a_trick_is_turned_counting_no_references(table):
    """:func:`trick.turn_all` on the table's bundles: through views, no reference is counted;
    the same kernel on the arrays themselves counts 78 (the check can see counting)."""
    leaders = np.array([0, 1, 2, 3, 1])
    on_views, body = _uncached(trick.turn_all)
    on_views(leaders, table.arrays(), table.public.arrays())
    assert _references_counted(body) == 0
    on_arrays = njit(inline="never")(body.py_func)
    on_arrays(np.zeros(5, np.int64), table.arrays(), table.public.arrays())
    assert _references_counted(on_arrays) > 0


@pytest.mark.slow
def test_a_card_is_laid_down_counting_no_references(table):
    """:func:`trick.lay_down_all`, the cards seen by everyone included: the same card in every
    deal as through the compiled entry point."""
    legal_lo, legal_hi = table.legal()
    card_lo = legal_lo & (~legal_lo + np.uint64(1))
    card_hi = np.where(card_lo == 0, legal_hi & (~legal_hi + np.uint64(1)), np.uint64(0))
    twin = engine.start(
        deal(np.random.default_rng(3), 5, 4, reject_petit_sec=True), 0, Contract.GARDE
    ).table
    on_views, body = _uncached(trick.lay_down_all)
    on_views(0, card_lo, card_hi, False, table.arrays(), table.public.arrays())
    twin.play(card_lo, card_hi)
    for seen, played in zip(table.arrays(), twin.arrays(), strict=True):
        np.testing.assert_array_equal(seen, played)
    assert _references_counted(body) == 0


def test_an_array_that_is_not_contiguous_is_taken_as_it_is():
    """A strided array is not viewed (a view is of a C-contiguous array): the kernel takes the
    array itself, counted as numba counts, and every reference is given back."""
    others = _arguments()[1:]
    strided = np.arange(8, dtype=np.uint64)[::2]
    before = sys.getrefcount(strided)
    for _ in range(100):
        _shuffle_around(strided, *others)
    assert sys.getrefcount(strided) == before
    assert strided[-1] == 0 + 6  # the first element and the table's [1, 2]
