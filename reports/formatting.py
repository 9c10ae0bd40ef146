"""Numbers as a player reads them in a report: percentages, never fractions or powers of ten."""

from __future__ import annotations

import math

import numpy as np

from tarot_advisor.analyzer.advice.hand_samples import Sides

_WORDS = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def counted(n: int, noun: str) -> str:
    """``1 deal``, ``2,000 deals``: a count with its noun, singular for one (``noun`` is the
    singular; its plural adds an s)."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def is_missing(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def percent(x: float | None, digits: int = 3) -> str:
    """``72.7 %``, ``0.0085 %``; below one in ten thousand, the odds (``1 in 44 million``);
    ``0 %`` for zero and ``–`` when unknown. Never ``6.26e-13 %``."""
    if is_missing(x):
        return "–"
    if x == 0:
        return "0 %"
    if 100 * x >= 0.01:
        return f"{significant(100 * x, digits)} %"
    return f"1 in {odds(1 / x)}"


def significant(x: float, digits: int) -> str:
    """``x`` to ``digits`` significant figures, always positional (``100``, ``0.0085``)."""
    return np.format_float_positional(x, precision=digits, unique=False, fractional=False, trim="-")


def odds(n: float) -> str:
    """``44 million``, ``29,000``: a large number rounded to two significant figures, in words
    beyond a million."""
    for size, word in _WORDS:
        if n >= size:
            return f"{significant(n / size, 2)} {word}"
    return f"{float(significant(n, 2)):,.0f}"


def percent_error(x: float | None) -> str:
    """A standard error in percent, two significant figures, ``< 0.0001 %`` below that."""
    if is_missing(x):
        return "–"
    if x == 0:
        return "0 %"
    return f"{significant(100 * x, 2)} %" if 100 * x >= 1e-4 else "< 0.0001 %"


def signed(z: float | None, digits: int = 2) -> str:
    """``+1.02``, ``-0.57``, ``0.00`` (no minus zero); ``–`` when unknown."""
    if is_missing(z):
        return "–"
    text = f"{z:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def play_text(sides: Sides) -> str:
    """Who plays the cards, as a report says it: ``the lookahead at every seat``, ``the greedy
    for the taker's side and the lookahead for the defence``."""
    if sides.taker == sides.defence:
        return f"the {sides.taker} at every seat"
    return f"the {sides.taker} for the taker's side and the {sides.defence} for the defence"
