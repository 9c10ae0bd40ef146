"""What a request of the page would cost, estimated before it runs, and the most one may cost.

The server shares two cores among everyone who uses it: a request whose work would take more
than :data:`BUDGET` seconds of CPU is refused at once, with the estimate in the sentence, rather
than holding the workers for minutes. The estimate counts the deals a request plays (the
options fix them, up to the races of the staged analyses, counted at their usual size) times
what a deal costs. The costs were measured on a 2-core machine shared with others, one worker,
the README's four-player hand, differences of two sample counts (so that the start-up and the
compiled kernels' load cancel), e.g.::

    tarot-advise "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠" --jobs 1 \\
        --json --samples 512     # 6.1 s of CPU (time's %U + %S); 128: 2.1 s; 4 deals a sample
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.game import hand_size
from tarot_advisor.cli.errors import InputError
from tarot_advisor.cli.limits import duration_text

BUDGET = 30.0
"""The most CPU seconds one request may cost: a long job holds the others up for a few seconds
at most (chunks take turns), but a budget keeps it from holding the cores for minutes."""
SEARCH_DEAL = 2.5e-3
"""CPU seconds of a deal played by the lookahead (at either side): the advice above, 512 samples
less 128, 4.0 s for 384 samples of 4 contracts."""
GREEDY_DEAL = 6e-6
"""CPU seconds of a deal played by the greedy at every seat: the advice above with ``--taker
greedy --defence greedy``, 100,000 samples less 2, 2.5 s for 100,000 samples of 4 contracts."""
CARD_WORLD = 10e-6
"""CPU seconds of one card played out in one world by the card-play advice (dealt, then the
greedy to the end): ``tarot-play data/positions/garde-4p-trick-10.json --samples 4000`` less
``--samples 2``, and ``tarot-review data/deals/blunder-garde-4p.json --taker greedy --defence
greedy``, 400 samples less 2: 0.27 s for 18 decisions of about 4 distinct cards."""
CONTRACTS = 4
"""Contracts the advice plays on every sample (each call's with 5 players: 4 calls)."""
POIGNEE_REPLAY = 1.5
"""Deals a contract's sample plays at most, counting the replay with the poignée shown."""
ECART_DEALS = 15
"""Deals an écart advice plays per sample (every candidate écart, and their poignée): 96 samples
with ``--chien "3♠ 5♥ 2♦ 9♣ 14 1♦"``, 3.5 s less 2 samples' 0.7 s."""
STAGED_DEALS = {"bid": 2000, "bid5": 3000, "ecart": 4500}
"""Lookahead deals of the staged analyses (no ``--samples``): the survey and the focus, or the
écart's raced rounds, stop as their close calls need. Measured with ``--jobs 1`` and no
``--samples``: the README hand's advice 3.3 s of CPU, its écart (the chien above) 11.3 s, the
five-player hand of ``tests/test_web_api.py`` 4.3 s; counted with room for harder hands."""
REVIEW_WORLDS = 4
"""Cards a review plays out per decision and world: the distinct legal cards, about 4."""


@dataclass(frozen=True)
class Work:
    """What a request asks for: its ``kind`` ("bid", "ecart", "play" or "review"), the players,
    the samples given (``None``: the command's default), the table, and for card play the
    cards in hand, for a review the seats reviewed and whether the taker's calls are."""

    kind: str
    players: int
    samples: int | None
    sides: Sides
    cards: int = 0
    seats: int = 1
    calls: bool = False


def seconds(work: Work) -> tuple[float, float]:
    """The CPU seconds ``work`` would take, and those of each sample (0 when its size is not
    the samples')."""
    deal = SEARCH_DEAL if work.sides.searches else GREEDY_DEAL
    calls = 4 if work.players == 5 else 1
    if work.kind in ("bid", "ecart"):
        per = deal * (CONTRACTS * calls * POIGNEE_REPLAY if work.kind == "bid" else ECART_DEALS)
        return _fixed_or_staged(work, per, calls)
    if work.kind == "play":
        per = CARD_WORLD * work.cards
        return per * work.samples, per
    per = CARD_WORLD * REVIEW_WORLDS * hand_size(work.players) * work.seats
    total = per * work.samples
    if work.calls:  # the taker's bid and écart, judged by the advice at the review's table
        total += _fixed_or_staged(Work("bid", work.players, None, work.sides), 1, calls)[0]
        total += _fixed_or_staged(Work("ecart", work.players, None, work.sides), 1, calls)[0]
    return total, per


def _fixed_or_staged(work: Work, per: float, calls: int) -> tuple[float, float]:
    from tarot_advisor.analyzer.advice.advisor import DEFAULT_SAMPLES
    from tarot_advisor.analyzer.advice.ecart_advice import DEFAULT_SAMPLES as ECART_SAMPLES

    if work.samples is not None:
        return per * work.samples, per
    if work.sides.searches:
        key = "bid5" if work.kind == "bid" and calls > 1 else work.kind
        return STAGED_DEALS[key] * SEARCH_DEAL, 0.0
    deal = GREEDY_DEAL * (CONTRACTS * calls * POIGNEE_REPLAY if work.kind == "bid" else ECART_DEALS)
    return deal * (DEFAULT_SAMPLES if work.kind == "bid" else ECART_SAMPLES), 0.0


def check(work: Work, budget: float = BUDGET) -> None:
    """Refuse ``work`` when it would take more than ``budget`` CPU seconds: one sentence with
    the estimate, the limit and, where the samples set the size, the most samples allowed."""
    total, per = seconds(work)
    if total <= budget:
        return
    sentence = (
        f"this would take about {_about(total)} of computing; the limit is "
        f"{_about(budget)} a request"
    )
    if per > 0 and work.samples is not None:
        most = max(int(budget / per), 2)
        sentence += f": ask for at most {most:,} samples"
    raise InputError(sentence)


def _about(seconds: float) -> str:
    if seconds < 60:
        return f"{math.ceil(seconds):.0f} s"
    return duration_text(seconds).replace("minutes", "min")
