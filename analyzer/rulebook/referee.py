"""The referee at the table: plays one deal card by card through :mod:`.rules` and scores it.

:class:`Game` is the reference the vectorised engine is tested against: it knows every hand, says
who is to play and what they may play, refuses an illegal card with :class:`.rules.IllegalPlay`,
keeps the tricks, and gives the :class:`Outcome` once the last card is down.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import EXCUSE, IS_BOUT, N_CARDS, POINTS2, format_cards
from ..game import Contract, Side, check_players, chien_size, hand_size
from .outcome import Outcome
from .rules import (
    DEFENCE,
    TAKER,
    IllegalDeal,
    IllegalPlay,
    IllegalPoignee,
    RuleError,
    as_contract,
    card_owners,
    check_call_given,
    check_called_card,
    check_discard,
    chelem_bonus,
    contract_result,
    excuse_changes_side,
    excuse_exchange,
    first_lead_plays,
    illegal_reason,
    is_petit_sec,
    last_trick_winner,
    legal_plays,
    per_defender_score,
    petit_au_bout,
    poignee_bonus,
    points_needed,
    seat_scores,
    trick_winner,
)


@dataclass(frozen=True)
class Trick:
    """A finished trick: its number (1-based), who played each card, and the winning seat."""

    number: int
    cards: tuple[int, ...]
    seats: tuple[int, ...]
    winner: int

    @property
    def leader(self) -> int:
        return self.seats[0]


class Game:
    """One deal from the first lead to the last card, refereed.

    ``hands`` are the hands as played (the taker's after the écart), one per seat (0…n−1, in the
    order of play). With Prise or Garde, ``discard`` is the écart (the chien went to the taker);
    with Garde Sans or Contre the chien stays aside and ``discard`` is ``None``. ``called`` is the
    called card (5 players). ``poignees`` are (seat, cards shown). ``first_leader`` defaults to
    seat 0 (position 1), or to the taker after an announced chelem.

    Raises :class:`.rules.RuleError` subclasses for a deal the rules forbid; with
    ``validate=False`` the deal is checked only by :meth:`validate` (called by :meth:`outcome`),
    so that a replay can name the first illegal card before the faults of the deal it implies.
    """

    def __init__(
        self,
        players: int,
        hands: Sequence[Iterable[int]],
        taker: int,
        contract: Contract | str,
        *,
        chien: Iterable[int] | None,
        discard: Iterable[int] | None = None,
        called: int | None = None,
        poignees: Iterable[tuple[int, Iterable[int]]] = (),
        chelem_announced: bool = False,
        first_leader: int | None = None,
        validate: bool = True,
    ) -> None:
        self.players = check_players(players)
        self.hands = tuple(tuple(sorted(int(c) for c in hand)) for hand in hands)
        self.taker = taker
        self.contract = as_contract(contract)
        # None: a score sheet that does not know the chien of a Prise or a Garde (design.md).
        self.chien = None if chien is None else tuple(sorted(int(c) for c in chien))
        self.discard = None if discard is None else tuple(sorted(int(c) for c in discard))
        self.called = None if called is None else int(called)
        self.chelem_announced = bool(chelem_announced)
        self.shown_poignees = tuple(
            (int(seat), tuple(int(c) for c in cards)) for seat, cards in poignees
        )
        if first_leader is None:
            first_leader = taker if chelem_announced else 0
        self.first_leader = first_leader
        self.partner = self._partner()
        self._remaining = [set(hand) for hand in self.hands]
        self.tricks: list[Trick] = []
        self.current: list[int] = []
        if validate:
            self.validate()

    # --- the deal as given ------------------------------------------------------------------

    def validate(self) -> None:
        """Checks the deal as given: hands, chien and écart, petit sec, call, poignées, first
        lead. Raises :class:`.rules.RuleError` subclasses."""
        self._check_seat(self.taker, "taker")
        self._check_seat(self.first_leader, "first leader")
        self._check_cards()
        self._check_auction()
        self.poignee_bonuses()
        if self.chelem_announced and self.first_leader != self.taker:
            raise IllegalDeal(
                f"an announced chelem gives the first lead to the taker (seat {self.taker})"
            )

    def _check_seat(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.players:
            raise IllegalDeal(f"the {what} must be a seat 0…{self.players - 1}, not {seat}")

    def _check_cards(self) -> None:
        size = hand_size(self.players)
        if len(self.hands) != self.players:
            raise IllegalDeal(f"{self.players} players need {self.players} hands")
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                raise IllegalDeal(f"seat {seat} holds {len(hand)} cards instead of {size}")
        if self.chien is None and not self.contract.takes_chien:
            raise IllegalDeal(f"a {self.contract.label} needs its chien")
        if self.chien is not None and len(self.chien) != chien_size(self.players):
            size = chien_size(self.players)
            raise IllegalDeal(f"the chien must hold {size} cards, not {len(self.chien)}")
        aside = self.chien or ()
        if self.contract.takes_chien:
            if self.discard is None:
                raise IllegalDeal(f"a {self.contract.label} needs the écart")
            aside = self.discard
            stray = set(self.chien or ()) - set(self.hands[self.taker]) - set(self.discard)
            if stray:
                raise IllegalDeal(f"the chien's {format_cards(stray)} did not go to the taker")
        elif self.discard:
            raise IllegalDeal(f"a {self.contract.label} has no écart: the chien stays aside")
        cards = [c for hand in self.hands for c in hand] + list(aside)
        twice = {c for c in cards if cards.count(c) > 1}
        missing = set(range(N_CARDS)) - set(cards)
        if twice or missing:
            raise IllegalDeal(
                "every card must be dealt once:"
                + (f" twice {format_cards(twice)}" if twice else "")
                + (f" missing {format_cards(missing)}" if missing else "")
            )

    def poignee_bonuses(self) -> tuple[tuple[int, int], ...]:
        """(seat, bonus) of each poignée shown; raises :class:`.rules.IllegalPoignee`."""
        seats = [seat for seat, _ in self.shown_poignees]
        if len(set(seats)) != len(seats):
            raise IllegalPoignee("a player may show only one poignée")
        bonuses = []
        for seat, cards in self.shown_poignees:
            self._check_seat(seat, "player showing a poignée")
            bonuses.append((seat, poignee_bonus(cards, self.hands[seat], self.players)))
        return tuple(bonuses)

    @property
    def dealt_taker_hand(self) -> tuple[int, ...]:
        """The taker's hand as dealt, before the chien (known from the écart). When the chien is
        unknown, the hand and the chien together: the checks that use it give the benefit of
        the doubt."""
        if not self.contract.takes_chien:
            return self.hands[self.taker]
        kept = set(self.hands[self.taker]) | set(self.discard or ())
        return tuple(sorted(kept - set(self.chien or ())))

    def _check_auction(self) -> None:
        dealt = [self.dealt_taker_hand if s == self.taker else h for s, h in enumerate(self.hands)]
        for seat, hand in enumerate(dealt):
            if seat == self.taker and self.chien is None:
                continue  # the hand as dealt is not known
            if is_petit_sec(hand):
                raise IllegalDeal(f"seat {seat} holds the Petit sec: the deal is void")
        if self.contract.takes_chien:
            assert self.discard is not None
            check_discard(self.hands[self.taker] + self.discard, self.discard, self.players)
        check_call_given(self.players, self.called)
        if self.called is not None:
            check_called_card(self.called, self.dealt_taker_hand)

    def _partner(self) -> int | None:
        # Calling a card in one's own hand or in the chien means playing alone.
        for seat, hand in enumerate(self.hands):
            if self.called in hand and seat != self.taker:
                return seat
        return None

    # --- play -------------------------------------------------------------------------------

    def side(self, seat: int) -> Side:
        """The taker's side for the taker and the partner, the defence for the others."""
        return TAKER if seat in (self.taker, self.partner) else DEFENCE

    @property
    def is_over(self) -> bool:
        return len(self.tricks) == hand_size(self.players)

    @property
    def trick_number(self) -> int:
        """The trick being played, 1-based."""
        return len(self.tricks) + 1

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else self.first_leader

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.current)) % self.players

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` still holds, sorted by id."""
        return sorted(self._remaining[seat])

    def legal_plays(self) -> list[int]:
        """The cards the seat to play may play, sorted by id."""
        hand = self._remaining[self.to_play]
        if self.called is not None and not self.tricks and not self.current:
            return first_lead_plays(hand, self.called)
        return legal_plays(hand, self.current)

    def play(self, card: int) -> Trick | None:
        """Plays ``card`` for the seat to play; returns the trick if this card finished it.

        Raises :class:`.rules.IllegalPlay` naming the trick, seat, card and rule broken.
        """
        card, seat = int(card), self.to_play
        if self.is_over:
            raise IllegalPlay(self.trick_number, seat, card, "the deal is over")
        if card not in self.legal_plays():
            rule = illegal_reason(self._remaining[seat], self.current, card) or (
                "the first trick may not be led in the called suit, except with the called card"
            )
            raise IllegalPlay(self.trick_number, seat, card, rule)
        self._remaining[seat].remove(card)
        self.current.append(card)
        if len(self.current) < self.players:
            return None
        seats = tuple((self.leader + i) % self.players for i in range(self.players))
        if len(self.tricks) == hand_size(self.players) - 1:
            earlier = [self.side(t.winner) for t in self.tricks]
            winner = last_trick_winner(self.current, [self.side(s) for s in seats], earlier)
        else:
            winner = trick_winner(self.current)
        trick = Trick(self.trick_number, tuple(self.current), seats, seats[winner])
        self.tricks.append(trick)
        self.current = []
        return trick

    # --- the count --------------------------------------------------------------------------

    def _count(self) -> tuple[dict[Side, int], dict[Side, int]]:
        points2, bouts = {TAKER: 0, DEFENCE: 0}, {TAKER: 0, DEFENCE: 0}
        chelem = self.chelem() is not None
        for trick in self.tricks:
            sides = [self.side(s) for s in trick.seats]
            winner = trick.seats.index(trick.winner)
            changes_side = excuse_changes_side(trick is self.tricks[-1], chelem)
            owners = card_owners(trick.cards, sides, winner, changes_side)
            for card, owner in zip(trick.cards, owners, strict=True):
                points2[owner] += int(POINTS2[card])
                bouts[owner] += int(IS_BOUT[card])
            receiver = excuse_exchange(trick.cards, sides, winner, changes_side)
            if receiver is not None:
                giver = TAKER if receiver == DEFENCE else DEFENCE
                points2[receiver] += 1
                points2[giver] -= 1
        aside = self.discard if self.contract.takes_chien else self.chien
        owner = TAKER if self.contract.chien_to_taker else DEFENCE
        points2[owner] += sum(int(POINTS2[c]) for c in aside or ())
        bouts[owner] += sum(int(IS_BOUT[c]) for c in aside or ())
        return points2, bouts

    def chelem(self) -> Side | None:
        """The side that won every trick, or ``None``."""
        winners = {self.side(t.winner) for t in self.tricks}
        return winners.pop() if len(winners) == 1 else None

    def outcome(self) -> Outcome:
        """The score sheet of the finished deal (rules.md §6–§8)."""
        if not self.is_over:
            raise RuleError(f"the deal is not over: trick {self.trick_number} is being played")
        self.validate()
        points2, bouts = self._count()
        taker_points = points2[TAKER] / 2
        made, difference = contract_result(taker_points, bouts[TAKER])
        last = self.tricks[-1]
        petit = petit_au_bout(
            [t.cards for t in self.tricks],
            [self.side(t.winner) for t in self.tricks],
            excuse_won_last=last.cards[last.seats.index(last.winner)] == EXCUSE,
        )
        chelem = self.chelem()
        chelem_points = chelem_bonus(chelem, self.chelem_announced)
        shown = self.poignee_bonuses()
        poignees = sum(bonus for _, bonus in shown)
        s = per_defender_score(
            self.contract, taker_points, bouts[TAKER], petit, poignees, chelem_points
        )
        return Outcome(
            players=self.players,
            contract=self.contract.value,
            taker=self.taker,
            partner=self.partner,
            called=self.called,
            multiplier=self.contract.multiplier,
            taker_points=taker_points,
            defence_points=points2[DEFENCE] / 2,
            bouts=bouts[TAKER],
            needed=points_needed(bouts[TAKER]),
            made=made,
            difference=difference,
            petit_au_bout=petit,
            chelem=chelem,
            chelem_announced=self.chelem_announced,
            poignees=shown,
            poignee_bonus=poignees,
            chelem_bonus=chelem_points,
            per_defender=s,
            scores=tuple(seat_scores(self.players, self.taker, s, self.partner)),
        )
