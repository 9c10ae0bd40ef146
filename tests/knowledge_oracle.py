"""What a player may know at any point of a deal (rules.md §12), derived from the deal record
alone: the test suite's yardstick for the engine's knowledge model.

Plain scalar Python, on purpose independent of the model it checks (it imports nothing of
``playout/knowledge.py``, ``search/position.py`` or ``search/worlds.py``): the record is replayed
card by card through the referee (``rulebook/record.py``, ``rulebook/referee.py``), which says who
played each card and refuses an illegal one, and §12 is applied to what the seat has seen.

:func:`knowledge_at` gives, for one seat after the first ``cut`` cards of a record: its own
cards; every card played and by whom; how many cards each seat still holds; for every other
seat the cards it certainly holds and the cards it may hold; the same for the cards put aside
(the chien, or the écart in Prise and Garde); and the seats it knows to be on its side.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tarot_advisor.analyzer.cards import (
    EXCUSE,
    IS_BOUT,
    IS_KING,
    IS_TRUMP,
    N_CARDS,
    SUIT,
    TRUMP,
    format_card,
)
from tarot_advisor.analyzer.game import chien_size, hand_size
from tarot_advisor.analyzer.rulebook.record import Record, game_of_record, parse_record
from tarot_advisor.analyzer.rulebook.referee import Game

TRUMPS = frozenset(c for c in range(N_CARDS) if IS_TRUMP[c])
"""The 21 trumps (not the Excuse)."""
_SUIT = SUIT.tolist()  # plain lists: the oracle reads them card by card
_NEVER_ASIDE = frozenset(c for c in range(N_CARDS) if IS_KING[c] or IS_BOUT[c] or IS_TRUMP[c])
"""What the écart may not hold, unless shown (trumps): kings, bouts, trumps (rules.md §3)."""


@dataclass(frozen=True)
class Known:
    """What ``seat`` knows after ``cut`` cards. Seats are 0…n−1; sets are of card ids.

    ``holds[s]`` / ``may_hold[s]``: the cards seat ``s`` still holds for certain / may still
    hold (``holds`` within ``may_hold``); for ``seat`` itself both are its hand. ``aside_*``: the
    same for the cards out of play (the écart in Prise and Garde, else the chien), which hold
    ``chien_size`` cards. ``counts[s]``: the cards seat ``s`` still holds. ``allies``: the seats
    ``seat`` knows are on its side (itself included). ``voids[s]``: the suits (0–3, and
    :data:`TRUMP`) seat ``s`` has shown it lacks; ``cap[s]``: the highest trump it may hold.
    """

    seat: int
    played: tuple[tuple[int, int], ...]
    """(seat, card) of every card played, in order."""
    counts: tuple[int, ...]
    holds: tuple[frozenset[int], ...]
    may_hold: tuple[frozenset[int], ...]
    aside_holds: frozenset[int]
    aside_may_hold: frozenset[int]
    allies: frozenset[int]
    voids: tuple[frozenset[int], ...]
    cap: tuple[int, ...]

    @property
    def hand(self) -> frozenset[int]:
        return self.holds[self.seat]


class Watcher:
    """Follows one deal card by card through the referee (:class:`referee.Game`, which says who
    plays and refuses an illegal card) and keeps what the plays proved: voids, no trumps, the
    highest trump each seat may still hold. :meth:`known` applies rules.md §12."""

    def __init__(self, game: Game) -> None:
        self.game = game
        n = game.players
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.cap = [max(TRUMPS)] * n
        self.played: list[tuple[int, int]] = []

    def play(self, card: int) -> None:
        game = self.game
        seat, before = game.to_play, list(game.current)
        game.play(card)
        self.played.append((seat, card))
        suited = [c for c in before if c != EXCUSE]
        if not suited or card == EXCUSE:
            return  # a lead (or what follows a led Excuse) and the Excuse prove nothing
        led = int(SUIT[suited[0]])
        if SUIT[card] != led:
            self.voids[seat].add(led)  # did not follow
            if not IS_TRUMP[card]:
                self.voids[seat].add(TRUMP)  # and did not trump either
        trumps = [c for c in before if IS_TRUMP[c]]
        if IS_TRUMP[card] and trumps and card < max(trumps):
            # An undertrump: a trump above the best one would have had to be played.
            self.cap[seat] = min(self.cap[seat], max(trumps))

    def known(self, seat: int | None = None) -> Known:
        """What ``seat`` (default: the seat to play next) knows now."""
        game, played = self.game, self.played
        n, taker = game.players, game.taker
        seat = game.to_play if seat is None else seat
        takes = game.contract.takes_chien
        gone = {card for _, card in played}
        hand = frozenset(game.hand(seat))
        ecart = set(game.discard or ()) if takes else set()
        shown_ecart = {c for c in ecart if IS_TRUMP[c]}  # shown to all (rules.md §3)
        own_aside = ecart if seat == taker else set()
        unseen = set(range(N_CARDS)) - gone - hand - own_aside - shown_ecart
        # The chien is seen in Prise and Garde (when known): it went to the taker.
        chien = set(game.chien or ()) if takes else set()
        # Poignées are shown with their holder's first card.
        has_played = {s for s, _ in played}
        poignees = {s: set(cards) & unseen for s, cards in game.shown_poignees if s in has_played}
        # The shown chien's cards the écart cannot hold: kings, bouts, trumps not shown in it.
        sure_chien = (chien & _NEVER_ASIDE) - shown_ecart
        must = [set(poignees.get(s, ())) for s in range(n)]
        must[taker] |= sure_chien & unseen
        holds, may_hold = [], []
        for s in range(n):
            if s == seat:
                holds.append(hand)
                may_hold.append(hand)
                continue
            elsewhere = set().union(*(must[o] for o in range(n) if o != s))
            may = unseen - elsewhere - (chien if s != taker else set())
            may = {c for c in may if _SUIT[c] not in self.voids[s]}  # the Excuse: no suit
            may -= {c for c in TRUMPS if c > self.cap[s]}
            holds.append(frozenset(must[s]))
            may_hold.append(frozenset(may | must[s]))
        if takes and seat == taker:
            aside_holds = aside_may = frozenset(ecart)
        elif takes:
            # No king, no bout, and trumps only those shown (rules.md §3).
            discardable = unseen - _NEVER_ASIDE
            aside_holds = frozenset(shown_ecart)
            aside_may = frozenset(discardable | shown_ecart)
        else:
            aside_holds = frozenset()
            aside_may = frozenset(unseen - set().union(*must))
        plays = Counter(p for p, _ in played)
        counts = tuple(hand_size(n) - plays[s] for s in range(n))
        assert sum(counts) + len(gone) + chien_size(n) == N_CARDS
        return Known(
            seat=seat,
            played=tuple(played),
            counts=counts,
            holds=tuple(holds),
            may_hold=tuple(may_hold),
            aside_holds=aside_holds,
            aside_may_hold=aside_may,
            allies=_allies(game, seat, gone),
            voids=tuple(frozenset(v) for v in self.voids),
            cap=tuple(self.cap),
        )


def knowledge_at(record: Record, cut: int, seat: int | None = None) -> Known:
    """What ``seat`` (default: the seat to play next) knows after the first ``cut`` cards of
    ``record`` (0 ≤ ``cut`` < every card), per rules.md §12."""
    return _watch(record, cut).known(seat)


def _watch(record: Record, cut: int) -> Watcher:
    watcher = Watcher(game_of_record(record))
    for card in [card for trick in record.tricks for card in trick][:cut]:
        watcher.play(card)
    return watcher


def _allies(game: Game, seat: int, gone: set[int]) -> frozenset[int]:
    """The seats ``seat`` knows are on its side. With 5 players: the called card's holder knows
    from the deal; everyone once it is played, or once the chien shown holds it (the taker then
    plays alone); the taker who holds it himself has no ally to know of."""
    n, taker = game.players, game.taker
    partner = game.partner  # the referee's: the called card's holder, None when alone
    side = {taker} | ({partner} if partner is not None else set())
    defence = frozenset(range(n)) - side
    if n != 5:
        return frozenset(side) if seat in side else defence
    called = game.called
    shown_chien = game.contract.takes_chien and called in (game.chien or ())
    if seat == partner or called in gone or shown_chien:
        return frozenset(side) if seat in side else defence
    return frozenset({seat})


def partial_record(record: dict, cut: int, seat: int) -> dict:
    """The partial record (design.md) of what ``seat`` has seen after ``cut`` cards of
    ``record`` (a deal record as JSON): the tricks so far, its hand, the chien only where it is
    shown, the écart only for the taker, the poignées shown so far."""
    parsed = parse_record(record)
    watcher = _watch(parsed, cut)
    game, played = watcher.game, watcher.played
    n = parsed.players
    tricks = [[c for c in trick] for trick in record["tricks"]]
    flat = [c for trick in tricks for c in trick][:cut]
    partial = {key: record[key] for key in ("players", "taker", "contract", "first_leader")}
    partial["called"] = record.get("called")
    partial["chelem_announced"] = record.get("chelem_announced", False)
    partial["tricks"] = [flat[i : i + n] for i in range(0, cut, n)]
    has_played = {s for s, _ in played} | {seat}
    partial["poignees"] = [p for p in record.get("poignees", []) if p["seat"] in has_played]
    if parsed.contract.takes_chien:
        if record.get("chien") is not None:
            partial["chien"] = record["chien"]
        shown = [c for c in game.discard if seat == parsed.taker or IS_TRUMP[c]]
        if shown:
            partial["discard"] = [format_card(c) for c in shown]
    partial["seat"] = seat
    partial["hand"] = [format_card(c) for c in game.hand(seat)]
    return partial
