"""The page's words for the command line's: the sentences of the commands, which name their
card-play policies and options (``lookahead``, ``greedy``, ``--seed``), said as a player says
them ("a competent table", "a quick table"). The numbers are left as they are."""

from __future__ import annotations

import re
from collections.abc import Callable

TABLES = {"lookahead": "competent", "greedy": "quick", "simple": "weak", "random": "random"}
"""Each policy named by the kind of table it makes."""
_POLICY = "(" + "|".join(TABLES) + ")"


def _table(match: re.Match) -> str:
    taker, defence = match.group(1), match.group(2)
    if taker == defence:
        return f"Played at a {TABLES[taker]} table"
    return f"Played by a {TABLES[taker]} taker's side and a {TABLES[defence]} defence"


_PLAIN: list[tuple[re.Pattern, str | Callable[[re.Match], str]]] = [
    (re.compile(rf"Played by: {_POLICY} for the taker's side, {_POLICY} for the defence"), _table),
    (re.compile(r" \(steadied by [\d,]+ \w+ deals\)"), ""),  # how the sampling works, not what
    (re.compile(r" · seed \d+"), ""),
    (re.compile(r"\bsamples\b|\bworlds\b"), "deals"),
    (re.compile(r"\bsample\b"), "deal"),
    (re.compile(rf" \({_POLICY}\)"), ""),  # "a weak defence (simple)": the name in brackets
    (re.compile(rf"At a table of {_POLICY} players"), r"At a \1 table"),
    (re.compile(rf"\({_POLICY} at every seat above\)"), r"(a \1 table above)"),
    (
        re.compile(rf"\({_POLICY} taker's side, {_POLICY} defence above\)"),
        r"(\1 taker, \2 defence above)",
    ),
    (re.compile(r" by more than [\d.]+ SE"), " clearly"),
    (re.compile(r"\bthe engine's\b"), "the usual écart"),
    (re.compile(r"\bengine\b"), "usual écart"),
    (re.compile(r"\b(lookahead|greedy)\b"), lambda match: TABLES[match.group(1)]),
]
"""The command line's phrases and the page's, applied in this order."""


def plain(text: str) -> str:
    """``text`` with the command line's words said as a player says them."""
    for pattern, replacement in _PLAIN:
        text = pattern.sub(replacement, text)
    return text
