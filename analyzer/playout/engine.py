"""The lockstep playout: N deals played from the deal to the last card.

:func:`start` seats the hands at a :class:`table.Table` (the chien taken and the écart made, the
poignées shown); :func:`play_on` plays on to any card: the policy of the player to act chooses
a card (a :class:`table.Turn`), the table lays it down, a complete trick goes to the side that
won it (:meth:`Tally.close_trick`, the Excuse's rules) and the winner leads the next. Every deal
advances together, a round of per-deal kernels (:mod:`trick`) over all N deals per card; when
the greedy plays every seat, it plays each deal out in one compiled loop of the same kernels
(:meth:`.players.greedy.GreedyPolicy.play_out`). :func:`play` does both; the :class:`Playout`
is what :func:`scoring.score` scores. :meth:`InPlay.take` copies some deals of a game in play (a
search plays each candidate card from there); :func:`follow` keeps the public side of a game,
to which :meth:`InPlay.deal_hidden` adds the hidden cards of a world. The engine owns no
randomness and makes no decision: the cards, the écart and the poignées come from policies.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..game import (
    CHIEN_TO_TAKER,
    TAKES_CHIEN,
    Contract,
    chien_size,
    contract_codes,
    hand_size,
    single_contract,
)
from . import bitboard as bb
from . import vector_rules
from .bitboard import U64, ZERO
from .deal import Deals, DealSets
from .ecart import GreedyEcart
from .knowledge import PublicKnowledge
from .poignee import GreedyPoignee
from .table import Candidate, EcartPolicy, PoigneePolicy, Policy, Table, Turn, take_deals
from .tally import Tally
from .words import keep_for


@dataclass
class Playout:
    """The outcome of N deals played to the end, and what is needed to write their records.

    Scoring inputs (all (N,)): ``contracts`` int8 codes (:attr:`~.game.Contract.code`);
    ``taker_points2`` int64 doubled points of the taker's side; ``bouts`` int64;
    ``petit_au_bout`` int8 (+1 taker's side, −1 defence, 0 none); ``chelem`` int8 (+1 taker's
    side won every trick, −1 the defence did, 0 neither); ``announced_chelem`` bool the taker
    announced one; ``poignee_bonus`` int64 the poignées shown; ``partner`` int64 (−1 none).
    Records: ``played_lo``/``_hi`` (T·n, N) uint64 every card in play order as one-bit pairs
    (:attr:`plays` as card ids; None where the cards were not recorded: :func:`start`,
    :meth:`InPlay.take`), ``leaders`` (N, T) int64 (a view of the tally's (T, N)), ``chien_lo``/
    ``_hi`` and ``ecart_lo``/``_hi`` (N,) uint64 (the écart 0 but in Prise and Garde; :attr:`chien`
    and :attr:`discard` as card ids), ``shown_hi`` (n, N) uint64.
    """

    players: int
    contracts: np.ndarray
    taker: np.ndarray
    partner: np.ndarray
    called: np.ndarray | None
    announced_chelem: np.ndarray
    taker_points2: np.ndarray
    bouts: np.ndarray
    petit_au_bout: np.ndarray
    chelem: np.ndarray
    poignee_bonus: np.ndarray
    played_lo: np.ndarray | None
    played_hi: np.ndarray | None
    leaders: np.ndarray
    chien_lo: np.ndarray
    chien_hi: np.ndarray
    ecart_lo: np.ndarray
    ecart_hi: np.ndarray
    shown_hi: np.ndarray

    def __len__(self) -> int:
        return len(self.taker)

    @property
    def contract(self) -> Contract:
        """The contract the deals were played under (they must share one: :meth:`take` some)."""
        return single_contract(self.contracts)

    @property
    def chien(self) -> np.ndarray:
        """(N, c) uint8 the chien's card ids, lowest first."""
        return bb.cards_of_sets(self.chien_lo, self.chien_hi, chien_size(self.players))

    @property
    def discard(self) -> np.ndarray | None:
        """(N, c) uint8 the écart's card ids, lowest first (Prise and Garde, else None)."""
        if not self.contract.takes_chien:
            return None
        return bb.cards_of_sets(self.ecart_lo, self.ecart_hi, chien_size(self.players))

    @property
    def plays(self) -> np.ndarray:
        """(N, T, n) uint8 card ids, each trick's cards in play order from its leader."""
        n_tricks = self.leaders.shape[1]
        ids = bb.card_ids(self.played_lo, self.played_hi)
        return ids.reshape(n_tricks, self.players, len(self)).transpose(2, 0, 1)

    def take(self, rows: np.ndarray) -> Playout:
        """The deals ``rows`` ((R,) int64, repeats allowed) of this playout, in that order."""
        deals_last = ("played_lo", "played_hi", "shown_hi")
        taken = {
            name: value[..., rows] if name in deals_last else value[rows]
            for name, value in vars(self).items()
            if isinstance(value, np.ndarray)
        }
        return replace(self, **taken)


@dataclass
class InPlay:
    """N deals being played (:func:`start`, :func:`play_on`): the table, what the tricks left
    behind, and what the deal's set-up fixed — ``taker``, ``partner`` (N,) int64, ``called``
    (N,) int64 or None, ``chien_lo``/``chien_hi`` (N,) uint64 (the écart is the table's),
    ``shown_hi`` (n, N) uint64. ``step``: the cards played so far in every deal."""

    table: Table
    tally: Tally
    taker: np.ndarray
    partner: np.ndarray
    called: np.ndarray | None
    chien_lo: np.ndarray
    chien_hi: np.ndarray
    shown_hi: np.ndarray
    step: int = 0

    def take(self, rows: np.ndarray, keep_plays: bool = True) -> InPlay:
        """The deals ``rows`` ((R,) int64, repeats allowed) of this game, each at the same step,
        to be played on to the end apart from it (tricks not begun: not copied). Without
        ``keep_plays`` it records no cards (a search's are only scored): no played_lo/hi."""
        plays = () if keep_plays else ("played_lo", "played_hi")
        begun = self.step // self.table.players + 1
        return InPlay(
            table=take_deals(self.table, rows, begun=begun),
            tally=take_deals(self.tally, rows, drop=plays, begun=begun),
            taker=self.taker[rows],
            partner=self.partner[rows],
            called=None if self.called is None else self.called[rows],
            chien_lo=self.chien_lo[rows],
            chien_hi=self.chien_hi[rows],
            shown_hi=self.shown_hi[:, rows],
            step=self.step,
        )

    def deal_hidden(
        self, hands_lo: np.ndarray, hands_hi: np.ndarray, aside_lo: np.ndarray, aside_hi: np.ndarray
    ) -> None:
        """Give the deals of a game kept by :func:`follow` the hidden cards of a world: each
        seat's hand now ((n, N) uint64 pairs, rows by seat) and the cards out of play ((N,)
        pairs, :meth:`put_aside`). In the first trick, the players after the one to act have
        not shown their poignées yet: in the world, they show none."""
        table = self.table
        at = table.seat * table.n_deals + table.columns  # each position's seat, flat
        table.hands_lo, table.hands_hi = hands_lo.take(at), hands_hi.take(at)
        if self.step < table.players:  # (stopped between two tricks, the table's trick lags)
            self.shown_hi = table.shown_hi = table.shown_by_now()
        self.put_aside(aside_lo, aside_hi)
        takes = table.takes_chien
        self.chien_lo = bb.select(takes, table.public.chien_lo, aside_lo)
        self.chien_hi = bb.select(takes, table.public.chien_hi, aside_hi)

    def put_aside(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """The cards out of play, (N,) uint64 sets: the écart in Prise and Garde (the taker's,
        counting for his side), else the chien (for the taker's side in Garde Sans, the
        defence's in Garde Contre)."""
        table, tally = self.table, self.tally
        takes = table.takes_chien
        table.ecart_lo, table.ecart_hi = bb.keep_pair(takes, lo, hi)
        counts = takes | CHIEN_TO_TAKER[table.contracts]
        tally.aside_lo, tally.aside_hi = bb.keep_pair(counts, lo, hi)

    def playout(self) -> Playout:
        """The outcome, once every card is played."""
        table, tally = self.table, self.tally
        keep_for(table.players)  # the kernels that played it are compiled: a first run is over
        chelem = bb.select(
            table.defence_tricks == 0, 1, bb.select(table.taker_tricks == 0, -1, 0)
        ).astype(np.int8)
        return Playout(
            players=table.players,
            contracts=table.contracts,
            taker=self.taker,
            partner=self.partner,
            called=self.called,
            announced_chelem=table.announced_chelem,
            taker_points2=bb.points2(tally.won_lo | tally.aside_lo, tally.won_hi | tally.aside_hi)
            + tally.exchange2,
            bouts=bb.popcount((tally.won_hi | tally.aside_hi) & bb.BOUTS_HI),
            petit_au_bout=vector_rules.petit_au_bout(tally.petit_trick_side, tally.won_by_excuse),
            chelem=chelem,
            poignee_bonus=vector_rules.poignee_bonus(self.shown_hi, table.players).sum(axis=0),
            played_lo=tally.played_lo,
            played_hi=tally.played_hi,
            leaders=tally.leaders.T,  # not copied: a search's copy cost 2% of its time, unread
            chien_lo=self.chien_lo,
            chien_hi=self.chien_hi,
            ecart_lo=table.ecart_lo,
            ecart_hi=table.ecart_hi,
            shown_hi=self.shown_hi,
        )


def play(
    deals: Deals | DealSets,
    taker: np.ndarray | int,
    contract: Contract | np.ndarray,
    taker_policy: Policy,
    defence_policy: Policy | None = None,
    *,
    rng: np.random.Generator,
    **seating: Any,
) -> Playout:
    """Play every deal of ``deals`` to the end: :func:`start` (``seating``: its options), then
    :func:`play_on`.

    ``taker``: the taker's seat, one for all deals or (N,) int. ``taker_policy`` plays for the
    taker's side (taker and 5-player partner), ``defence_policy`` (default: the same) for the
    defence.
    """
    game = start(deals, taker, contract, **seating)
    play_on(game, taker_policy, defence_policy, rng=rng)
    return game.playout()


def start(
    deals: Deals | DealSets,
    taker: np.ndarray | int,
    contract: Contract | np.ndarray,
    *,
    called: np.ndarray | int | None = None,
    ecart_policy: EcartPolicy | None = None,
    poignee_policy: PoigneePolicy | None = None,
    announce_chelem: bool | np.ndarray = False,
    taker_poignee: bool | np.ndarray = True,
    others_poignees: bool = True,
    keep_plays: bool = True,
) -> InPlay:
    """The deals seated at the table before the first card: the chien taken and the écart made,
    the poignées chosen, the first leader to play.

    ``taker``: the taker's seat, one for all deals or (N,) int. ``contract``: one for all deals,
    or (N,) int8 codes (:attr:`~.game.Contract.code`): one run for deals under different
    contracts costs less than a run for each when a side searches. ``called``: the called card id
    (5 players; one for all deals or (N,)). ``ecart_policy`` (default :class:`ecart.GreedyEcart`)
    chooses the écart for Prise and Garde, ``poignee_policy`` (default
    :class:`poignee.GreedyPoignee`) the trumps a poignée shows. The poignée flags say whether
    the taker (one for all deals or (N,) bool), and each defender, show a poignée whenever
    their hand (after the écart) allows one. ``announce_chelem`` (one or (N,) bool): the taker
    announced a chelem, and leads the first trick. Without ``keep_plays``, the cards played are
    not recorded (the playout is to be scored only, not written: :meth:`InPlay.take`).
    """
    players = deals.players
    n_deals = len(deals)
    taker = np.broadcast_to(np.asarray(taker, np.int64), (n_deals,)).copy()
    rows = np.arange(n_deals)

    hands_lo, hands_hi, chien_lo, chien_hi = deals.sets()

    called_cards, called_lo, called_hi, partner = _call(players, taker, called, hands_lo, hands_hi)
    taker_side = np.zeros((players, n_deals), bool)
    taker_side[taker, rows] = True
    taker_side[np.maximum(partner, 0), rows] |= partner >= 0

    codes = contract_codes(contract, n_deals)
    takes = TAKES_CHIEN[codes]
    aside_lo, aside_hi = chien_lo.copy(), chien_hi.copy()
    taking = np.flatnonzero(takes)  # the écart policy sees these deals only, in this order
    if taking.size:
        at = taker[taking], taking
        hands_lo[at] |= chien_lo[taking]
        hands_hi[at] |= chien_hi[taking]
        ecart_lo, ecart_hi = (ecart_policy or GreedyEcart()).choose(
            hands_lo[at], hands_hi[at], chien_size(players)
        )
        hands_lo[at] ^= ecart_lo
        hands_hi[at] ^= ecart_hi
        aside_lo[taking], aside_hi[taking] = ecart_lo, ecart_hi

    shows = np.full((players, n_deals), others_poignees)
    shows[taker, rows] = taker_poignee
    shown_hi = _poignees(poignee_policy or GreedyPoignee(), players, hands_hi, shows)
    seats = np.repeat(np.arange(players)[:, None], n_deals, axis=1)
    table = Table(
        players=players,
        contracts=codes,
        n_tricks=hand_size(players),
        seat=seats,
        hands_lo=hands_lo,
        hands_hi=hands_hi,
        on_taker_side=taker_side,
        is_taker=seats == taker,
        is_partner=seats == partner,
        shown_hi=shown_hi,
        called_lo=called_lo,
        called_hi=called_hi,
        ecart_lo=np.zeros(n_deals, U64),
        ecart_hi=np.zeros(n_deals, U64),
        public=PublicKnowledge(
            is_taker=seats == taker,
            chien_lo=bb.keep(takes, chien_lo),
            chien_hi=bb.keep(takes, chien_hi),
            ecart_shown_hi=bb.keep(takes, aside_hi & bb.TRUMPS_HI),
        ),
        announced_chelem=np.broadcast_to(announce_chelem, (n_deals,)).astype(bool),
        keys=deals.keys,
    )
    if players == 5:
        # A called card in the chien shown means the taker plays alone, as everyone sees.
        table.revealed = takes & (((chien_lo & called_lo) | (chien_hi & called_hi)) != ZERO)
    table.turn_to(np.where(table.announced_chelem, taker, 0))
    game = InPlay(
        table=table,
        tally=Tally(players, n_deals, keep_plays),
        taker=taker,
        partner=partner,
        called=called_cards,
        chien_lo=chien_lo,
        chien_hi=chien_hi,
        shown_hi=shown_hi,
    )
    game.put_aside(aside_lo, aside_hi)
    return game


def follow(table: Table, rows: np.ndarray, partner: np.ndarray) -> InPlay:
    """The deals ``rows`` of ``table`` ((R,) int64, repeats allowed) before their first card,
    as all at the table see them (no hands, nothing aside), each with its ``partner`` ((R,)
    seat, −1 none: with 5 players the sides are not public). Played on with the table's cards,
    it keeps the public state a search sets up its worlds from (:meth:`InPlay.deal_hidden`)."""
    public = take_deals(table, rows)
    for name in ("hands_lo", "hands_hi", "ecart_lo", "ecart_hi"):
        setattr(public, name, np.zeros_like(getattr(public, name)))
    public.partner_seat = partner
    public.is_partner = public.seat == partner
    public.on_taker_side = public.is_taker | public.is_partner
    called = bb.card_ids(public.called_lo, public.called_hi).astype(np.int64)
    return InPlay(
        table=public,
        tally=Tally(table.players, len(rows), keep_plays=False),
        taker=public.taker_seat.copy(),
        partner=public.partner_seat.copy(),
        called=called if table.players == 5 else None,
        chien_lo=public.public.chien_lo.copy(),
        chien_hi=public.public.chien_hi.copy(),
        shown_hi=public.shown_hi.copy(),
    )


def play_on(
    game: InPlay,
    taker_policy: Policy,
    defence_policy: Policy | None = None,
    *,
    rng: np.random.Generator,
    until: int | None = None,
) -> None:
    """Play ``game`` on from its step to step ``until`` (default: the last card), a card at a
    time: the policy of the player to act chooses it (``taker_policy`` for the taker's side,
    ``defence_policy``, default the same, for the defence), the table lays it down, and a
    complete trick goes to the side that won it. The last trick's cards are every player's
    last: they are played without asking the policies. A policy that plays both sides and plays
    deals out by itself (:class:`table.Policy`'s ``plays_out``: the greedy) is asked once."""
    table, tally, players = game.table, game.tally, game.table.players
    defence_policy = defence_policy or taker_policy
    end = table.n_tricks * players if until is None else until
    alike = getattr(taker_policy, "plays_out", None)
    if alike and alike == getattr(defence_policy, "plays_out", None) and game.step < end:
        taker_policy.play_out(table, tally, game.step, end)  # type: ignore[attr-defined]
        table.at_step(end - 1)
        game.step = end
        return
    while game.step < end:
        trick, position = divmod(game.step, players)
        if position == 0:
            table.trick = trick
            tally.leaders[trick] = table.seat[0]
        legal_lo, legal_hi = table.legal()
        if trick == table.n_tricks - 1:
            card = legal_lo, legal_hi
        else:
            card = _choose(
                Turn(table, position, legal_lo, legal_hi), taker_policy, defence_policy, rng
            )
        tally.record(game.step, card)
        table.play(*card)
        game.step += 1
        if position == players - 1:
            last = trick == table.n_tricks - 1
            winner = tally.close_trick(table, last)
            if not last:
                table.turn_to(winner)


def _call(
    players: int,
    taker: np.ndarray,
    called: np.ndarray | int | None,
    hands_lo: np.ndarray,
    hands_hi: np.ndarray,
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]:
    """The called card (5 players): its ids (N,) or ``None``, its one-bit pair (zero without a
    call), the partner's seat (N,) int64 (−1: the taker or the chien holds it, he plays alone)."""
    n_deals = len(taker)
    partner = np.full(n_deals, -1, np.int64)
    if players != 5:
        return None, np.zeros(n_deals, U64), np.zeros(n_deals, U64), partner
    if called is None:
        raise ValueError("with 5 players the taker calls a card: give `called`")
    called_cards = np.broadcast_to(np.asarray(called, np.int64), (n_deals,)).copy()
    called_lo, called_hi = bb.from_cards(called_cards[:, None])
    holds = ((hands_lo & called_lo) | (hands_hi & called_hi)) != ZERO  # (n, N)
    holder = bb.select(holds.any(axis=0), holds.argmax(axis=0), -1)
    return called_cards, called_lo, called_hi, bb.select(holder == taker, -1, holder)


def _choose(
    turn: Turn, taker_policy: Policy, defence_policy: Policy, rng: np.random.Generator
) -> Candidate:
    """Each side's policy asked about its own deals: the taker's first, then the defence's (even
    about none: a policy sees every turn, and draws from ``rng`` as it always would)."""
    if defence_policy is taker_policy:
        return taker_policy.choose(turn, rng)
    card_lo, card_hi = (np.empty(turn.table.n_deals, U64) for _ in range(2))
    taker_side = turn.on_taker_side
    for policy, deals in (
        (taker_policy, np.flatnonzero(taker_side)),
        (defence_policy, np.flatnonzero(~taker_side)),
    ):
        card_lo[deals], card_hi[deals] = policy.choose(turn.some(deals), rng)
    return card_lo, card_hi


def _poignees(
    policy: PoigneePolicy, players: int, hands_hi: np.ndarray, shows: np.ndarray
) -> np.ndarray:
    """(n, N) uint64 the trumps each seat shows: the policy's where ``shows`` ((n, N)) lets it."""
    return np.stack(
        [bb.keep(shows[seat], policy.choose(hands_hi[seat], players)) for seat in range(players)]
    )
