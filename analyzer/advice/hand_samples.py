"""The samples behind one hand's analysis: the unseen cards dealt around the hand, every
contract played on them, per sample.

The unseen cards are dealt ``n`` times per chunk (never a deal where another player holds petit
sec), the user's hand at the taker's seat — or, with bids heard, only deals whose other hands
bid as heard. One playout serves Prise and Garde (the same play, the chien taken), one Garde
Sans and Garde Contre (the chien unseen); where the taker's hand (after the écart) allows a
poignée, the deal is played again with it shown (:mod:`paired`). :func:`chunk` returns these
outcomes per sample, typed (:class:`ChunkOutcomes`), for :mod:`advisor` to turn into
estimates; :func:`announced_chunk` plays one contract again on the same samples with the chelem
announced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import NamedTuple, TypeVar

import numpy as np

from ..game import Contract, Side, chien_size
from ..playout.deal import Deals, PetitSecError, complete
from ..playout.engine import Playout, play
from ..playout.scoring import Scores, records, score, taker_total
from ..playout.table import Policy
from ..policies import policy_named
from .auction import (
    MAX_DRAWS_PER_SAMPLE,
    AuctionSamples,
    PointCountBidder,
    defending,
    sample_auction,
)
from .bids import AuctionError
from .covariates import covariates
from .hand import HandError
from .paired import PAIR_FIRSTS, PairPlay, call_blocks, may_show, pair_of, play_pairs

CHUNK = 5000
"""Samples per chunk: each chunk is one vectorised batch and one random stream."""
SEARCH_CHUNK = 250
"""Samples per chunk when a side plays by search and the samples are given (``--samples``; the
default's stages cut their own, :mod:`plan`): a lookahead deal costs about as much in larger
chunks, and 2,000 samples make 8 chunks that ``--jobs`` can share out."""
SEARCH_DRAWS = 2_000
"""With bids heard, the most deals drawn per sample asked for where a side plays by search
(:attr:`Sides.draws`): 2,000 draws cost less than half a lookahead deal, and after two bids
as few as 0.03% of deals fit them (the sixteenth sitting: ``git log -p docs/performance.md``)."""
SEARCHING = frozenset({"lookahead"})
"""The policies that play by search (:data:`SEARCH_CHUNK`)."""
DEFAULT_POLICY = "lookahead"
"""Who plays every seat unless told otherwise: the lookahead, the competent player (it beats
the greedy by 23 to 65 points a deal in both roles with 3, 4 and 5 players, docs/performance.md)."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class Bidding:
    """How the others bid (``model``) and, when given, the bids heard (indices into BIDS)."""

    model: PointCountBidder
    heard: tuple[int, ...] | None = None
    draws: int = MAX_DRAWS_PER_SAMPLE
    """With bids heard, the most deals drawn per sample asked for (:attr:`Sides.draws`)."""


def sample(
    rng: np.random.Generator,
    n: int,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    bidding: Bidding,
) -> tuple[Deals, np.ndarray, tuple[int, int]]:
    """Completions of ``hand`` with the hand at the taker's seat, the seats (N,), and how many
    deals of how many drawn fit: ``n`` of ``n``, or with bids heard those of ``n`` or fewer
    that fit them (:func:`auction.sample_auction`)."""
    if bidding.heard is not None:
        try:
            found = sample_auction(
                rng, n, hand, players, bidding.heard, bidding.model, bidding.draws
            )
        except AuctionError as error:
            raise HandError(str(error)) from None
        seats = np.full(len(found.deals), len(bidding.heard), np.int64)
        return found.deals, seats, (found.fitting, found.drawn)
    seats = rng.integers(0, players, n) if position is None else np.full(n, position - 1)
    taker = seats.astype(np.int64)
    hands = np.broadcast_to(np.asarray(hand, np.uint8), (n, len(hand)))
    try:
        return complete(rng, hands, taker, players), taker, (n, n)
    except PetitSecError as error:
        raise HandError(str(error)) from None


@dataclass(frozen=True)
class Sides:
    """Who plays the cards, by policy name (:mod:`policies`): the taker's side and the defence."""

    taker: str = DEFAULT_POLICY
    defence: str = DEFAULT_POLICY

    def policies(self) -> tuple[Policy, Policy]:
        """The taker's side's policy and the defence's: one and the same when both sides play
        alike, so that the engine asks it once a turn about every deal (two lookaheads would
        each follow the table and search their own deals apart: a round of array operations
        more a turn, 0.03–0.07 s of CPU a chunk)."""
        taker = policy_named(self.taker)
        return taker, taker if self.defence == self.taker else policy_named(self.defence)

    @property
    def searches(self) -> bool:
        """A side plays by search (:data:`SEARCHING`): a deal costs milliseconds, not
        microseconds."""
        return bool(SEARCHING & {self.taker, self.defence})

    @property
    def draws(self) -> int:
        """With bids heard, the most deals drawn per sample asked for: :data:`SEARCH_DRAWS` when a
        side searches, else :data:`~.auction.MAX_DRAWS_PER_SAMPLE` (a greedy deal costs a few
        draws). Like :attr:`chunk`, it depends on the policies only."""
        return SEARCH_DRAWS if self.searches else MAX_DRAWS_PER_SAMPLE

    @property
    def label(self) -> str:
        """``taker/defence``, e.g. ``greedy/simple``: the key of a table in the JSON."""
        return f"{self.taker}/{self.defence}"

    def to_dict(self) -> dict[str, str]:  # the commands' JSON's "policies"
        return {"taker": self.taker, "defence": self.defence}

    @property
    def chunk(self) -> int:
        """Samples per chunk: :data:`SEARCH_CHUNK` when a side searches, else :data:`CHUNK`.
        It depends on the policies only, never on the workers, so the numbers do not either."""
        return SEARCH_CHUNK if self.searches else CHUNK


DEFAULT_TABLE = Sides()  # the advice's table: DEFAULT_POLICY at every seat
GREEDY_TABLE = Sides("greedy", "greedy")  # the fast, weaker table (sensitivity, écart ideas)


@dataclass(frozen=True)
class Choice:
    """A contract under a call: the key of the per-sample outcomes (``called`` is ``None``
    below 5 players)."""

    contract: Contract
    called: int | None


def concatenate(parts: Sequence[_T]) -> _T:
    """One per-sample dataclass from the chunks' (their arrays end to end, in chunk order)."""
    first = parts[0]
    arrays = {
        f.name: None
        if getattr(first, f.name) is None
        else np.concatenate([getattr(p, f.name) for p in parts])
        for f in fields(first)
    }
    return type(first)(**arrays)


@dataclass(frozen=True)
class ContractSamples:
    """Per-sample outcomes of one :class:`Choice`, the poignée hidden and the chelem not
    announced: (N,) ``made``, ``petit`` (the taker's side won the Petit au bout) and ``chelem``
    bool, ``score`` int64 the taker's total, ``chelem_bonus`` int64 the chelem's part of it.
    Where the hand may show a poignée in some deal (with the chien's cards), on the samples
    played again with it shown where it could be (M,), all of them or, in a focus, the first of
    each of its first round's chunks:
    ``shown_gain`` int64 the total with it shown less the total hidden (0 where it could not
    be), ``shown_bonus`` int64 the poignée's part of the total shown, and ``shown`` bool
    whether it could be shown; else ``None``."""

    made: np.ndarray
    score: np.ndarray
    petit: np.ndarray
    chelem: np.ndarray
    chelem_bonus: np.ndarray
    shown_gain: np.ndarray | None = None
    shown_bonus: np.ndarray | None = None
    shown: np.ndarray | None = None


@dataclass(frozen=True)
class AnnouncedSamples:
    """Per-sample outcomes with the chelem announced: (N,) ``score`` int64 the taker's total,
    ``chelem_bonus`` int64 the chelem's part of it, ``chelem`` bool."""

    score: np.ndarray
    chelem_bonus: np.ndarray
    chelem: np.ndarray


@dataclass(frozen=True)
class ChunkOutcomes:
    """What one chunk (or all of them, merged) says of every :class:`Choice`, and the deal
    records when kept."""

    samples: dict[Choice, ContractSamples]
    records: list[dict]
    auction: AuctionSamples
    fitting: tuple[int, int]
    """How many deals fit the bids heard, of how many drawn (all of them without bids)."""

    @staticmethod
    def merge_samples(
        chunks: Sequence[dict[Choice, ContractSamples]],
    ) -> dict[Choice, ContractSamples]:
        """The chunks' per-sample outcomes, end to end in chunk order, by choice: the choices
        of the first chunk, each from the chunks that played it (a call the survey dropped after
        its first round, from those of that round: :mod:`survey`)."""
        return {key: concatenate([c[key] for c in chunks if key in c]) for key in chunks[0]}

    @staticmethod
    def merge(chunks: Sequence[ChunkOutcomes]) -> ChunkOutcomes:
        return ChunkOutcomes(
            ChunkOutcomes.merge_samples([c.samples for c in chunks]),
            [r for chunk in chunks for r in chunk.records],
            concatenate([c.auction for c in chunks]),
            (sum(c.fitting[0] for c in chunks), sum(c.fitting[1] for c in chunks)),
        )


def chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    calls: tuple[int | None, ...],
    keep_records: bool,
    bidding: Bidding,
    sides: Sides = Sides(),
    poignee: bool = True,
    pairs: tuple[Contract, ...] = PAIR_FIRSTS,
    call_pairs: dict[int | None, tuple[Contract, ...]] | None = None,
) -> ChunkOutcomes:
    """Every contract under every call on ``n`` samples (see :class:`ContractSamples`), and
    the auction around the user on the same samples (E[pass]: the deal the user defends, its
    taker's side played by ``sides.taker`` and the defence by ``sides.defence``). Without
    ``poignee``, no sample is played again with the poignée shown (its arrays are empty).
    ``pairs``: the first contract of each pair to play (default: both; the survey's later
    rounds may leave one out), or per call ``call_pairs``."""
    deals, taker, fitting = sample(rng, n, hand, players, position, bidding)
    n = len(deals)
    policy, defence = sides.policies()
    samples: dict[Choice, ContractSamples] = {}
    dumped: list[dict] = []
    # Every call and both pairs in one engine run (the samples once per call and pair, one
    # after the other), and the deals the user defends: a run costs about as much for a few
    # deals as for many when a side searches.
    around = defending(deals, taker, bidding.model, rng=rng, heard=bidding.heard)
    every = len(calls)
    blocks, rows_of = call_blocks(calls, {c: (call_pairs or {}).get(c, pairs) for c in calls}, n)
    firsts = tuple(blocks)
    played, defended = play_pairs(
        deals.rows(np.tile(np.arange(n), every)),
        np.tile(taker, every),
        firsts,
        policy,
        rng=rng,
        called=None if calls == (None,) else np.repeat(np.array(calls, np.int64), n),
        defence_policy=defence,
        others=around.deals,
        show_first=None if poignee else 0,
        rows_of=rows_of,
    )
    for first in firsts:
        for index, called in enumerate(blocks[first]):
            pair = played[first].part(index * n, (index + 1) * n)
            if keep_records:
                dumped += _pair_records(pair)
            samples |= _pair_samples(pair, first, called, hand, players, None if poignee else 0)
    auction = around.outcome(defended)
    return ChunkOutcomes(samples, dumped, auction, fitting)


def focus_chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    choice: Choice,
    keep_records: bool,
    bidding: Bidding,
    sides: Sides = Sides(),
    announced: int = 0,
    poignee: int | None = None,
) -> tuple[dict[Choice, ContractSamples], list[dict], dict[Contract, AnnouncedSamples] | None]:
    """The pair of contracts holding ``choice``, under its call, on ``n`` samples as
    :func:`chunk` plays them, but the poignée shown again only in the first ``poignee`` (default:
    all) where it may be: the focus of a staged analysis (:mod:`plan`). Returns both contracts'
    samples, the deal records when kept, and when ``announced`` > 0, ``choice`` on the first
    ``announced`` samples again with the chelem announced (in the same engine run, which costs
    less than a run of its own), scored under either contract of the pair (the auction may yet
    advise the other, :func:`action_values.steadied`)."""
    deals, taker, _ = sample(rng, n, hand, players, position, bidding)
    first = pair_of(choice.contract)[0]
    policy, defence = sides.policies()
    played = play_pairs(
        deals,
        taker,
        (first,),
        policy,
        rng=rng,
        called=choice.called,
        defence_policy=defence,
        announce=(choice.contract, announced) if announced else None,
        show_first=poignee,
    )
    pair = played.pairs[first]
    dumped = _pair_records(pair) if keep_records else []
    chelem = None
    if pair.announced is not None:
        chelem = {c: _announced_samples(pair.announced, c) for c in pair_of(first)}
    samples = _pair_samples(pair, first, choice.called, hand, players, poignee)
    return samples, dumped, chelem


def _pair_samples(
    pair: PairPlay,
    first: Contract,
    called: int | None,
    hand: tuple[int, ...],
    players: int,
    poignee: int | None = None,
) -> dict[Choice, ContractSamples]:
    """Both contracts of the pair ``pair`` played (its first contract ``first``), per sample;
    the poignée's on the first ``poignee`` samples (default: all), those played again shown."""
    extra = chien_size(players) if first.takes_chien else 0
    replayed = bool(may_show(np.array(hand), players, extra))  # in some deals, maybe
    shown = slice(poignee)
    return {
        Choice(contract, called): ContractSamples(
            made=scores.made,
            score=scores.taker_score,
            petit=scores.petit_au_bout == Side.TAKER,
            chelem=scores.chelem == Side.TAKER,
            chelem_bonus=taker_total(pair.hidden, scores.chelem_bonus),
            shown_gain=(pair.shown_score(contract) - scores.taker_score)[shown]
            if replayed
            else None,
            shown_bonus=pair.shown_bonus(contract)[shown] if replayed else None,
            shown=pair.showed()[shown] if replayed else None,
        )
        for contract, scores in pair.hidden_scores.items()
    }


def _pair_records(pair: PairPlay) -> list[dict]:
    dumped = _records(pair.hidden, pair.hidden_scores)
    if pair.shown is not None:
        dumped += _records(pair.shown, pair.shown_scores)
    return dumped


def _records(playout: Playout, scores: dict[Contract, Scores]) -> list[dict]:
    return [record for s in scores.values() for record in records(playout, s)]


def announced_chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    choice: Choice,
    bidding: Bidding,
    sides: Sides = Sides(),
) -> AnnouncedSamples:
    """``choice`` played on the same ``n`` samples as :func:`chunk`'s (the same stream), the
    chelem announced."""
    where = dict(hand=hand, players=players, position=position, bidding=bidding)
    _, playout = _replay(rng, n, choice.contract, choice, sides, where, announce_chelem=True)
    return _announced_samples(playout)


def _announced_samples(playout: Playout, contract: Contract | None = None) -> AnnouncedSamples:
    scores = score(playout, contract)
    return AnnouncedSamples(
        scores.taker_score, taker_total(playout, scores.chelem_bonus), scores.chelem == Side.TAKER
    )


class Replayed(NamedTuple):
    """One contract played by another table on a chunk's samples: (N,) bool ``made`` and int64
    ``score`` (the taker's total), and (N, k) float64 ``covariates`` of each deal
    (:mod:`covariates`)."""

    made: np.ndarray
    score: np.ndarray
    covariates: np.ndarray


def replayed_chunk(
    rng: np.random.Generator,
    n: int,
    *,
    hand: tuple[int, ...],
    players: int,
    position: int | None,
    choice: Choice,
    bidding: Bidding,
    sides: Sides,
) -> dict[Contract, Replayed]:
    """The pair of contracts holding ``choice``, under its call, played on the same ``n``
    samples as :func:`chunk`'s and :func:`focus_chunk`'s (the same stream) by ``sides``, the
    poignée hidden: per contract of the pair, whether it is made, its score and the deals'
    covariates."""
    where = dict(hand=hand, players=players, position=position, bidding=bidding)
    pair = pair_of(choice.contract)
    deals, playout = _replay(rng, n, pair[0], choice, sides, where)
    return {
        contract: Replayed(scores.made, scores.taker_score, covariates(deals, playout, scores))
        for contract in pair
        for scores in (score(playout, contract),)
    }


def _replay(
    rng: np.random.Generator,
    n: int,
    played: Contract,
    choice: Choice,
    sides: Sides,
    where: dict,
    **options,
) -> tuple[Deals, Playout]:
    """The samples of :func:`chunk` dealt again (``where``: :func:`sample`'s hand, players,
    position and bidding), and played under ``played``, the taker's poignée hidden."""
    deals, taker, _ = sample(rng, n, **where)
    return deals, play(
        deals,
        taker,
        played,
        *sides.policies(),
        rng=rng,
        called=choice.called,
        taker_poignee=False,
        keep_plays=False,
        **options,
    )
