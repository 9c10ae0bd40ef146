"""The auction around the user: the bids heard, how the others bid, what passing is worth.

The other players bid by a stated *model*: a point count that maps each hand to the contract it
wants (:class:`PointCountBidder`). A player bids the contract it wants when that is higher than
every bid so far, and passes otherwise (rules.md §3: each speaks once). Players judge a hand
with some spread: the count is read with a logistic noise of scale :data:`JUDGEMENT` points, one
draw per player and deal (``…-exact`` models read it exactly). Without it a Garde heard beside
a monster hand would be impossible — no other hand counts that much — while real tables do hear
such Gardes; with it such an auction is merely unlikely, and the hands that fit are the
strongest the others can hold.

- **The bids heard** condition the deals: each earlier player's hand must produce its bid,
  passes included. :func:`sample_auction` draws completions of the user's hand and keeps those
  that fit (vectorised rejection; accepted deals are i.i.d. from the conditional law), and
  counts the draws for the acceptance rate.
- **The players after the user** bid by the same model on the same deals. On a deal, what they
  do depends on the user's action only through one number: the highest contract they want,
  ``overcall``. Any action below it is overcalled by the first later player who wants it; a bid
  at or above it stands. So each deal has at most one contract the user may have to defend
  (:func:`defending`): that overcall, or, when the user passes and nobody after speaks,
  the highest bid heard. All pass: a redeal, worth 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..game import BIDS, Contract
from ..parallel import chunk_seed
from ..playout.deal import Deals, deal, petit_sec
from ..playout.engine import Playout
from ..playout.keys import draw_keys
from ..playout.scoring import score
from ..rulebook.calling import longest_suit_call
from .bids import AuctionError
from .calibrated import item_counts, shipped_table
from .heuristic import heuristic_bids, point_counts
from .paired import Others

MODELS = ("calibrated", "seed", "calibrated-exact", "seed-exact")
"""Names of the bidding models, the default first: ``calibrated`` the point count fitted for
the player count (issue 12), ``seed`` the barème of rules.md §11; ``-exact`` without the
judgement's noise."""
JUDGEMENT = 4.0
"""Scale of the logistic noise on a player's count (points): a hand 4 points under a bid's
line bids it 27% of the time, 12 points under 5%."""
DEFAULT_MODEL = MODELS[0]

MAX_DRAWS_PER_SAMPLE = 100
"""Rejection budget by default: at most this many draws per sample asked for; a rarer auction is
analysed on the fewer samples accepted."""
_BATCH = 1 << 15
REFUSAL_DRAWS = 200_000
"""The draws that decide whether the bids heard are possible at all (:func:`check_possible`),
and that a chunk with fewer than 2 deals fitting makes before it gives up."""
MIN_FITTING = 10
"""Fewer deals than this fitting in :data:`REFUSAL_DRAWS` draws (1 in 20,000): the auction is
called impossible."""
PROBE_STREAM = 3 << 30
"""The random stream of :func:`check_possible` (:func:`parallel.chunk_seed`'s index): one that
no chunk draws from (the survey's from 0, the focus's from 2**30, the control's from 2**31)."""


@dataclass(frozen=True)
class PointCountBidder:
    """A bidding model: each hand wants the contract its point count names."""

    name: str
    """``seed`` or ``calibrated``."""
    noise: float = JUDGEMENT

    @property
    def label(self) -> str:
        """The model's name in :data:`MODELS`."""
        return self.name if self.noise else f"{self.name}-exact"

    def makes(self, players: int) -> tuple[bool, ...]:
        """Which bids of :data:`~.game.BIDS` some hand wants: the calibrated count may merge
        two lines (4 players: Prise and Garde from the same count, never Garde Contre)."""
        if self.name == "seed":
            return (True,) * len(BIDS)
        lines = [shipped_table(players).thresholds[bid] for bid in BIDS[1:]]
        made = [True]
        for index, line in enumerate(lines):
            above = [x for x in lines[index + 1 :] if x is not None]
            made.append(line is not None and all(line < x for x in above))
        return tuple(made)

    def shown_by(self, players: int) -> tuple[int, ...]:
        """Each bid heard → the want it shows under this model: itself when the model makes
        it, else the nearest bid above that the model makes (a Prise shows a hand of the
        calibrated Garde's count), else the nearest below."""
        made = self.makes(players)
        shown = [0]
        for bid in range(1, len(BIDS)):
            above = [b for b in range(bid, len(BIDS)) if made[b]]
            below = [b for b in range(bid - 1, 0, -1) if made[b]]
            shown.append((above or below or [bid])[0])
        return tuple(shown)

    def wants(self, hands: np.ndarray, players: int, rng: np.random.Generator) -> np.ndarray:
        """(N,) int8 bid indices into :data:`~.game.BIDS` for ``hands`` (N, h) uint8, each
        count read with the judgement's noise (drawn from ``rng``)."""
        noise = rng.logistic(0.0, self.noise, len(hands)) if self.noise else 0.0
        if self.name == "seed":
            points, with_distribution = point_counts(hands)
            return heuristic_bids(points + noise, with_distribution + noise)
        table = shipped_table(players)
        return table.bids(table.points(item_counts(hands, players)) + noise)


def bidder(model: str | PointCountBidder) -> PointCountBidder:
    """The model named ``model`` (one of :data:`MODELS`), or ``model`` itself."""
    if isinstance(model, PointCountBidder):
        return model
    if model not in MODELS:
        raise AuctionError(f"the other players bid by one of {', '.join(MODELS)}, not {model!r}")
    name, _, exact = model.partition("-")
    return PointCountBidder(name, 0.0 if exact else JUDGEMENT)


@dataclass(frozen=True)
class Drawn:
    """Deals fitting the bids heard; ``fitting`` of the ``drawn`` deals drawn to find them fit
    (more than were kept: the last batch overshoots)."""

    deals: Deals
    fitting: int
    drawn: int


def sample_auction(
    rng: np.random.Generator,
    n: int,
    hand: Sequence[int],
    players: int,
    heard: Sequence[int],
    model: PointCountBidder,
    draws_per_sample: int = MAX_DRAWS_PER_SAMPLE,
) -> Drawn:
    """Up to ``n`` completions of ``hand`` (at seat ``len(heard)``) where each earlier player's
    hand produces the bid heard and no hand is petit sec, by rejection: uniform over the deals
    that fit.

    Fewer than ``n`` come back when ``draws_per_sample * n`` draws are not enough;
    :class:`AuctionError` when fewer than 2 fit in :data:`REFUSAL_DRAWS` draws (or ``n``, if 1:
    whether the auction is possible at all is :func:`check_possible`'s to say). The analysis
    draws the same samples twice from the same stream (the chelem is played on them again): the
    second time comes from a cache, the stream left where the first draw left it, so the
    numbers are the same either way.
    """
    key = (_state_key(rng), n, tuple(hand), players, tuple(heard), model, draws_per_sample)
    if key in _CACHE:
        drawn, state = _CACHE[key]
        rng.bit_generator.state = state
        return drawn
    drawn = _reject(rng, n, list(hand), players, heard, model, draws_per_sample * n)
    _CACHE.clear()  # one entry: the chelem's pass follows the main pass chunk by chunk
    _CACHE[key] = (drawn, rng.bit_generator.state)
    return drawn


_CACHE: dict[tuple, tuple[Drawn, dict]] = {}


def _state_key(rng: np.random.Generator) -> str:
    return repr(rng.bit_generator.state)


def _reject(
    rng: np.random.Generator,
    n: int,
    hand: list[int],
    players: int,
    heard: Sequence[int],
    model: PointCountBidder,
    budget: int,
) -> Drawn:
    if petit_sec(np.array(hand, np.uint8)):
        raise AuctionError("the hand is petit sec: the deal is void and must be redealt")
    accepted: list[np.ndarray] = []
    found = fitting = drawn = 0
    rate = 1.0
    while (found < min(n, 2) and drawn < REFUSAL_DRAWS) or (found < n and drawn < budget):
        limit = budget if found >= 2 else max(budget, REFUSAL_DRAWS)
        rows = min(_BATCH, limit - drawn, int((n - found) / rate * 1.1) + 64)
        cards = _fitting(rng, rows, hand, players, heard, model)
        keep = cards[: n - found]
        accepted.append(keep)
        found += len(keep)
        fitting += len(cards)
        drawn += rows
        rate = max(fitting / drawn, 1 / limit)
    if found < min(n, 2):
        raise _impossible(model, fitting, drawn)
    return Drawn(Deals(players, np.concatenate(accepted), draw_keys(rng, found)), fitting, drawn)


def _fitting(
    rng: np.random.Generator,
    rows: int,
    hand: list[int],
    players: int,
    heard: Sequence[int],
    model: PointCountBidder,
) -> np.ndarray:
    """(F, 78) uint8: the deals, of ``rows`` drawn, where each earlier player's hand produces
    the bid heard and no hand is petit sec (the cards as :attr:`Deals.cards` holds them)."""
    seat = len(heard)
    shown_by = model.shown_by(players)
    deals = deal(rng, rows, players, known_hands={seat: hand})
    hands = deals.hands
    fits = ~petit_sec(hands[:, [s for s in range(players) if s != seat]]).any(axis=1)
    highest = 0
    for s, bid in enumerate(heard):
        wants = model.wants(hands[fits, s], players, rng)
        # A bid shows the want ``shown_by`` it; a pass, no want above the bids so far.
        ok = wants == shown_by[bid] if bid else wants <= highest
        fits[np.flatnonzero(fits)[~ok]] = False
        highest = max(highest, bid)
    return deals.cards[fits]


def check_possible(
    hand: Sequence[int], players: int, heard: Sequence[int], model: PointCountBidder, seed: int
) -> None:
    """:class:`AuctionError` when fewer than :data:`MIN_FITTING` deals of :data:`REFUSAL_DRAWS`
    fit the bids heard. The draws come from a stream of the seed's own, so the verdict is the
    same whatever the samples asked for and however they are cut into chunks (each chunk, with
    its own budget, would find a rare auction possible or not by chance). It stops as soon as
    enough fit: a few milliseconds for a common auction. ``hand``: checked already (a petit
    sec refused: :func:`hand.check_hand`)."""
    rng = np.random.default_rng(chunk_seed(seed, PROBE_STREAM))
    fitting = drawn = 0
    rows = 1024
    while fitting < MIN_FITTING and drawn < REFUSAL_DRAWS:
        rows = min(rows, REFUSAL_DRAWS - drawn)
        fitting += len(_fitting(rng, rows, list(hand), players, heard, model))
        drawn, rows = drawn + rows, min(2 * rows, _BATCH)
    if fitting < MIN_FITTING:
        raise _impossible(model, fitting, drawn)


def _impossible(model: PointCountBidder, fitting: int, drawn: int) -> AuctionError:
    return AuctionError(
        f"the bids heard are (nearly) impossible with this hand when the others bid by the"
        f" {model.label} count: {fitting} of {drawn:,} deals fit"
    )


@dataclass(frozen=True)
class AuctionSamples:
    """Per-deal outcomes of the auction around the user, (N,) arrays.

    ``highest`` int8: the highest bid before the user's turn; ``overcall`` int8: the highest
    contract a later player wants (a user's bid below it is overcalled); ``defended`` int64: the
    user's score in the one deal the user may defend — against the overcall, or (when nobody
    after the user speaks) against the highest bid heard — 0 where everybody passes.
    """

    highest: np.ndarray
    overcall: np.ndarray
    defended: np.ndarray

    def first(self, n: int) -> AuctionSamples:
        """The outcomes of the first ``n`` deals: those a contract the survey played in its first
        round only is paired with (:mod:`survey`)."""
        return AuctionSamples(self.highest[:n], self.overcall[:n], self.defended[:n])


@dataclass(frozen=True)
class Defending:
    """The auction around the user on N deals, before a card is played (:func:`defending`):
    ``user`` (N,) int64 its seat, ``highest`` and ``overcall`` (N,) int8 as in
    :class:`AuctionSamples`; and ``deals``, the deals the user would defend, to be played by
    others (:class:`paired.Others`: rows of the N, their takers, contracts and calls)."""

    user: np.ndarray
    highest: np.ndarray
    overcall: np.ndarray
    deals: Others

    def outcome(self, playout: Playout | None) -> AuctionSamples:
        """The auction's outcomes, from the ``playout`` of :attr:`deals` (in that order;
        ``None`` when there are none): the user's score where it defends, else 0."""
        defended = np.zeros(len(self.user), np.int64)
        if playout is not None:
            codes = self.deals.codes
            for code in np.unique(codes):  # scored a contract at a time
                group = np.flatnonzero(codes == code)
                scores = score(playout.take(group)).scores
                rows = self.deals.rows[group]
                defended[rows] = scores[np.arange(len(group)), self.user[rows]]
        return AuctionSamples(self.highest, self.overcall, defended)


def defending(
    deals: Deals,
    user: np.ndarray,
    model: PointCountBidder,
    *,
    rng: np.random.Generator,
    heard: Sequence[int] | None = None,
) -> Defending:
    """The auction around the user on each deal (the user at seat ``user`` (N,) int64), and the
    deal the user would defend: against the overcall, or, when nobody after the user speaks,
    against the highest bid heard. With the bids ``heard`` the earlier players made those;
    without, they bid by the model too. Played in the advisor's engine run
    (:func:`paired.play_pairs`), and scored by :meth:`Defending.outcome`."""
    players = deals.players
    wants = np.stack([model.wants(deals.hands[:, s], players, rng) for s in range(players)], axis=1)
    seats = np.arange(players)[None, :]
    before, after = seats < user[:, None], seats > user[:, None]
    # The earlier players' bids: a want above every bid so far is bid, the first to reach the
    # maximum holds it.
    earlier = np.where(before, wants, 0)
    if heard is not None:
        earlier = np.zeros_like(wants)
        earlier[:, : len(heard)] = heard
    highest = earlier.max(axis=1).astype(np.int8)
    first_bidder = np.argmax(earlier == highest[:, None], axis=1)
    later = np.where(after, wants, 0)
    overcall = later.max(axis=1).astype(np.int8)
    overcaller = np.argmax(later == overcall[:, None], axis=1)
    taker = np.where(overcall > highest, overcaller, first_bidder)
    contract = np.maximum(overcall, highest)
    rows = np.flatnonzero(contract > 0)
    takers = taker[rows]
    called = None
    if players == 5:
        called = longest_suit_call(deals.hands[rows, takers])
    played = Others(rows, takers, _BID_CODES[contract[rows]], called)
    return Defending(user, highest, overcall, played)


_BID_CODES = np.array([0] + [Contract(bid).code for bid in BIDS[1:]], np.int8)
"""A bid's index in :data:`~.game.BIDS` → its contract's code (pass: 0, never played)."""
