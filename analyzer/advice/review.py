"""Review of a played deal: where did a seat lose points, and how many?

Every card the seat played is looked at from the position it saw then (the partial record of
design.md: the tricks so far, its hand, what it was shown): the legal cards are ranked as
``tarot-play`` ranks them (:func:`cardplay.advise_play`, the same worlds for every card), and
the card played costs E[best] − E[played], with the paired standard error. A card that was the
only legal one, or that plays alike with every other legal card (:func:`lookahead.distinct_cards`),
costs 0 and is not searched; among cards that play alike only the lowest is searched, except the
card played, which always is. The taker's other decisions (the contract, the écart, the poignée,
the chelem) are judged by :mod:`review_calls`.

Each decision draws its own worlds from a seed derived from the run's seed, the seat and the
decision, so the numbers depend on the seed and the sample count only (never on ``jobs``), and
the costs of different decisions are independent: their variances add up in the total.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..cards import EXCUSE, PETIT, POINTS2, format_card, sort_cards
from ..game import hand_size
from ..parallel import DEFAULT_SEED
from ..playout import bitboard as bb
from ..rulebook.record import replay_game, seats_of_tricks
from ..rulebook.referee import Game
from ..search.lookahead import distinct_cards
from ..search.position import read_position
from ..search.worlds import card_set
from ..stats import Estimate
from .cardplay import DEFAULT_SAMPLES, advise_play
from .hand_samples import DEFAULT_TABLE, Sides
from .review_calls import review_calls
from .review_decision import DealReview, Decision, SeatReview

Progress = Callable[[int], None]


def decision_seed(seed: int, seat: int, step: int) -> int:
    """The seed of one decision's worlds: from the run's seed, the seat and the decision."""
    return int(np.random.SeedSequence([seed, seat, step]).generate_state(1)[0])


def role_of(game: Game, seat: int) -> str:
    """``"taker"``, ``"partner"`` (5 players: the called card's holder) or ``"defence"``."""
    if seat == game.taker:
        return "taker"
    return "partner" if seat == game.partner else "defence"


def card_turns(game: Game, seat: int) -> list[tuple[int, int]]:
    """(trick index, index in the trick) of every card ``seat`` played, in order."""
    orders = seats_of_tricks([t.cards for t in game.tricks], game.first_leader, game.players)
    return [(t, order.index(seat)) for t, order in enumerate(orders)]


def partial_record(data: dict, game: Game, seat: int, trick: int, index: int) -> dict:
    """The partial record ``seat`` saw before its card ``index`` of trick ``trick`` (0-based):
    the tricks so far, its hand, the chien if it was shown, its écart if it took, and the
    poignées shown by then (each is shown with its player's first card)."""
    players = game.players
    tricks = [list(t.cards) for t in game.tricks[:trick]]
    current = list(game.tricks[trick].cards[:index])
    orders = seats_of_tricks([t.cards for t in game.tricks], game.first_leader, players)
    played_by = {
        s for order, t in zip(orders, [*tricks, current], strict=False) for s in order[: len(t)]
    }
    gone = {c for t in tricks for c in t} | set(current)
    mine = [
        c
        for t, order in zip(game.tricks, orders, strict=True)
        for c, s in zip(t.cards, order, strict=True)
        if s == seat
    ]
    keep = ("players", "taker", "contract", "called", "first_leader", "chelem_announced")
    part: dict[str, Any] = {key: data[key] for key in keep if key in data}
    if game.contract.takes_chien and game.chien is not None:
        part["chien"] = [format_card(c) for c in game.chien]
    if seat == game.taker and game.contract.takes_chien and game.discard is not None:
        part["discard"] = [format_card(c) for c in game.discard]
    part["poignees"] = [
        {"seat": s, "cards": [format_card(c) for c in cards]}
        for s, cards in game.shown_poignees
        if s == seat or s in played_by
    ]
    part["tricks"] = [[format_card(c) for c in t] for t in tricks] + (
        [[format_card(c) for c in current]] if current else []
    )
    part["seat"] = seat
    part["hand"] = [format_card(c) for c in mine if c not in gone]
    return part


def _distinct(legal: Sequence[int], gone: Sequence[int]) -> list[int]:
    """The legal cards worth searching (:func:`lookahead.distinct_cards`), as ids."""
    words = [np.array([word], np.uint64) for word in (*card_set(legal), *card_set(gone))]
    lo, hi = distinct_cards(*words)
    return bb.to_cards(int(lo[0]), int(hi[0]))


def review_card(
    data: dict, game: Game, seat: int, trick: int, index: int, samples: int, seed: int, jobs: int
) -> Decision:
    """The card ``seat`` played at ``index`` of trick ``trick`` (0-based), judged from the
    position it saw."""
    part = partial_record(data, game, seat, trick, index)
    position = read_position(part)
    played = game.tricks[trick].cards[index]
    legal = position.legal()
    gone = [c for t in position.record.tricks if len(t) == game.players for c in t]
    number = trick + 1
    name = format_card(played)
    if len(legal) == 1:
        return Decision("card", name, name, Estimate(0.0, 0.0), number, "forced", (), part, played)
    distinct = _distinct(legal, gone)
    if len(distinct) <= 1:
        note = "every legal card plays alike"
        return Decision("card", name, name, Estimate(0.0, 0.0), number, note, (), part, played)
    candidates = sorted(set(distinct) | {played})
    advice = advise_play(position, samples=samples, seed=seed, jobs=jobs, candidates=candidates)
    mine = next(e for e in advice.cards if e.card == played)
    gap = mine.versus_best
    # + 0.0: no "-0.0" when the card played is the best.
    cost = Estimate(0.0 - gap.mean, gap.se, gap.n)
    # On a tie (cards that play the same in every world), the card played is as good as any.
    best = name if cost.mean <= 0 else format_card(advice.cards[0].card)
    ranking = tuple(e.to_dict() for e in advice.cards)
    return Decision(
        "card", name, best, cost, number, "", ranking, part, played, _fate(game, trick, seat)
    )


def _fate(game: Game, trick: int, seat: int) -> str:
    """What became of the card played, when it was worth points and went to the other side:
    "the Petit went to the defence" (the Excuse always comes back to its player)."""
    played = game.tricks[trick]
    card = played.cards[played.seats.index(seat)]
    if card == EXCUSE or POINTS2[card] < 9 or game.side(played.winner) == game.side(seat):
        return ""
    name = "the Petit" if card == PETIT else f"the {format_card(card)}"
    return f"{name} went to the {game.side(played.winner).label.lower()}"


def review_deal(
    data: dict,
    seats: Sequence[int] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    call_samples: int | None = None,
    sides: Sides = DEFAULT_TABLE,
    on_done: Progress | None = None,
) -> DealReview:
    """Review the deal ``data`` (a deal record as loaded from JSON) for ``seats`` (default:
    the taker's). ``samples``: worlds per card; ``call_samples``: the advisor's and the écart
    advice's samples (``None``: their defaults); ``sides``: who plays the deals the taker's
    calls are judged on (default: the lookahead at every seat, as the advice). ``on_done``
    receives the number of decisions judged so far (:func:`decisions_to_judge` says how many
    there are).

    Raises :class:`record.RecordError` or :class:`rules.RuleError` for a record that does not
    replay (as ``tarot-replay``), :class:`review_calls.ReviewError` for an unreadable auction.
    """
    start = time.perf_counter()
    game = replay_game(data)
    seats = (game.taker,) if seats is None else tuple(seats)
    done = 0
    reviews = []
    for seat in seats:
        decisions: list[Decision] = []
        if seat == game.taker:
            decisions += review_calls(data, game, call_samples, seed, jobs, sides)
            done += 1
            if on_done:
                on_done(done)
        for step, (trick, index) in enumerate(card_turns(game, seat)):
            decision_seed_ = decision_seed(seed, seat, step)
            decisions.append(
                review_card(data, game, seat, trick, index, samples, decision_seed_, jobs)
            )
            done += 1
            if on_done:
                on_done(done)
        hand = sort_cards(game.hands[seat])
        reviews.append(SeatReview(seat, role_of(game, seat), tuple(decisions), tuple(hand)))
    seconds = time.perf_counter() - start
    return DealReview(data, game, tuple(reviews), samples, seed, sides, seconds)


def decisions_to_judge(players: int, seats: int, with_taker: bool) -> int:
    """What :func:`review_deal`'s ``on_done`` counts: a card per trick per seat, and the
    taker's calls as one."""
    return seats * hand_size(players) + int(with_taker)
