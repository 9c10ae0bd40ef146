"""The taker's decisions besides the cards, reviewed: the bid, the écart, the poignée, the chelem.

Each is judged by the advice that answers it before the deal (the advisor, :func:`advisor
.analyse_hand`, and the écart advice, :func:`ecart_advice.analyse_ecart`), from the taker's hand
as dealt. That hand is known when the record gives the chien, or when the contract leaves the
chien aside (Garde Sans, Garde Contre); else none of these decisions can be measured, and the
review says so instead of inventing a number.

The bid: the advisor's value of each action (``pass`` and every contract, overcalls and the
defence counted) at the taker's position; with the record's ``bids`` (and ``dealer``), the
samples are conditioned on the bids heard before the taker's. Its cost's SE adds the two
actions' variances: the values are not kept sample by sample, so the SE is an upper bound.

These decisions are judged at the table the advice plays at (a :class:`~.hand_samples.Sides`,
by default the lookahead at every seat, as ``tarot-advise``'s), each advice with its own default
samples: a review of the taker then takes 9–17 s on one worker (the example records, three to
five players, bids heard or not), against about 1 s at the greedy table.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import format_cards, trumps_and_excuse
from ..game import BIDS, Contract, poignee_thresholds
from ..rulebook.referee import Game
from ..stats import Estimate
from .advisor import analyse_hand
from .analysis import Analysis
from .bids import AuctionError, parse_bids
from .ecart_advice import EcartInputError, analyse_ecart
from .hand import HandError
from .hand_samples import Sides
from .review_decision import Decision


class ReviewError(ValueError):
    """A record whose auction (``bids``, ``dealer``) cannot be read."""


def taker_position(data: dict, game: Game) -> int | None:
    """The taker's position (1…n, speaking order): from ``dealer`` when the record gives it,
    else the first leader is position 1 (design.md), unless a chelem announced moved the lead."""
    n = game.players
    dealer = data.get("dealer")
    if dealer is not None:
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ReviewError(f"dealer: expected a seat from 0 to {n - 1}, got {dealer!r}")
        return (game.taker - dealer - 1) % n + 1
    if game.chelem_announced:
        return None
    return (game.taker - game.first_leader) % n + 1


def heard_bids(data: dict, game: Game, position: int | None) -> tuple[str, ...] | None:
    """The bids spoken before the taker's, from the record's ``bids``, or ``None``."""
    bids = data.get("bids")
    if bids is None:
        return None
    if position is None:
        raise ReviewError("bids: give the dealer too, to place the taker in the auction")
    if not isinstance(bids, (str, list)):
        raise ReviewError(f"bids: expected a list of bids or a string of them, got {bids!r}")
    try:
        spoken = [BIDS[index] for index in parse_bids(bids, game.players, whole=True)]
    except (AuctionError, TypeError) as error:
        raise ReviewError(f"bids: {error}") from None
    if len(spoken) < position or spoken[position - 1] != game.contract.value:
        raise ReviewError(
            f"bids: the taker (position {position}) should bid {game.contract.value} in them"
        )
    if any(bid != "pass" for bid in spoken[position:]):
        raise ReviewError(
            f"bids: the taker's {game.contract.label} was the last bid: those after it are passes"
        )
    return tuple(spoken[: position - 1])


def dealt_hand(game: Game) -> tuple[int, ...] | None:
    """The taker's hand as dealt, or ``None`` when the record does not tell it (a Prise or a
    Garde without the chien)."""
    if game.contract.takes_chien and game.chien is None:
        return None
    return game.dealt_taker_hand


def review_calls(
    data: dict, game: Game, samples: int | None, seed: int, jobs: int, sides: Sides
) -> list[Decision]:
    """The bid, the écart, the poignée and the chelem of the taker, in the order they are made.
    ``samples``: the advice's own (``None``: each advice's default); ``sides``: who plays the
    deals they are judged on."""
    hand = dealt_hand(game)
    position = taker_position(data, game)
    heard = heard_bids(data, game, position)
    if hand is None:
        why = "the record does not give the chien, so the taker's hand as dealt is unknown"
        decisions = [Decision("bid", game.contract.value, None, None, note=why)]
        if game.contract.takes_chien:
            decisions.append(
                Decision("ecart", format_cards(game.discard or ()), None, None, note=why)
            )
        return [*decisions, *_unjudged_poignee(game, why), _unjudged_chelem(game, why)]
    options = {} if samples is None else {"samples": samples}
    try:
        analysis = analyse_hand(
            hand,
            game.players,
            position=position,
            bids=heard,
            seed=seed,
            jobs=jobs,
            taker_policy=sides.taker,
            defence_policy=sides.defence,
            **options,
        )
    except HandError as error:
        raise ReviewError(str(error)) from None
    decisions = [_bid(analysis, game, heard)]
    if game.contract.takes_chien:
        decisions.append(_ecart(hand, game, position, samples, seed, jobs, sides))
    return [*decisions, *_poignee(analysis, game), _chelem(analysis, game)]


def _bid(analysis: Analysis, game: Game, heard: Sequence[str] | None) -> Decision:
    assert analysis.auction is not None
    values = analysis.auction.values
    best = analysis.auction.recommendation
    played = game.contract.value
    note = "bids heard: " + (" ".join(heard) or "none") if heard is not None else "auction unknown"
    if game.players == 5 and analysis.called is not None and analysis.called != game.called:
        note += f"; the advisor would call {format_cards([analysis.called])}"
    return Decision(
        "bid",
        played,
        best,
        values[best].minus(values[played]),
        note=note + "; SE unpaired (upper bound)",
    )


def _ecart(
    hand: tuple[int, ...],
    game: Game,
    position: int | None,
    samples: int | None,
    seed: int,
    jobs: int,
    sides: Sides,
) -> Decision:
    assert game.discard is not None and game.chien is not None
    played = format_cards(game.discard)
    options = {} if samples is None else {"samples": samples}
    try:
        analysis = analyse_ecart(
            hand,
            game.chien,
            game.players,
            contract=game.contract,
            called=game.called,
            position=position,
            seed=seed,
            jobs=jobs,
            also=[game.discard],
            sides=sides,
            **options,
        )
    except EcartInputError as error:
        return Decision("ecart", played, None, None, note=f"not measured: {error}")
    best = analysis.recommended
    mine = next(c for c in analysis.candidates if tuple(c.cards) == tuple(sorted(game.discard)))
    # The gains are measured against the engine's écart, paired; against another, unpaired.
    gap = best.gain.minus(mine.gain)
    if "engine" in best.ideas:
        gap = Estimate(gap.mean, mine.gain.se)
    ideas = ", ".join(best.ideas)
    if gap.mean <= 0:  # the advice keeps the engine's unless beaten by 2 SE: this one did as well
        note = f"as well as the advice's {format_cards(best.cards)} ({ideas})"
        return Decision("ecart", played, played, Estimate(0.0, gap.se), note=note)
    return Decision("ecart", played, format_cards(best.cards), gap, note=ideas)


def _eligible(game: Game, seat: int) -> bool:
    return int(trumps_and_excuse(game.hands[seat])) >= poignee_thresholds(game.players)[0]


def _shown(game: Game, seat: int) -> bool:
    return any(s == seat for s, _ in game.shown_poignees)


def _unjudged_poignee(game: Game, why: str) -> list[Decision]:
    seat = game.taker
    if not (_eligible(game, seat) or _shown(game, seat)):
        return []
    return [Decision("poignee", "shown" if _shown(game, seat) else "hidden", None, None, note=why)]


def _unjudged_chelem(game: Game, why: str) -> Decision:
    announced = "announced" if game.chelem_announced else "not announced"
    return Decision("chelem", announced, None, None, note=why)


def _poignee(analysis: Analysis, game: Game) -> list[Decision]:
    """Shown or hidden, against the advisor's advice under the contract played (judged from
    the hand as dealt: before the chien was seen)."""
    seat = game.taker
    if not (_eligible(game, seat) or _shown(game, seat)):
        return []
    played = "shown" if _shown(game, seat) else "hidden"
    advice = analysis.poignees.get(Contract(game.contract))
    if advice is None or not advice.eligible:
        note = "not measured: the advisor finds no poignée in the hand as dealt"
        return [Decision("poignee", played, None, None, note=note)]
    gain = advice.expected_gain
    best = "shown" if gain.mean > 0 else "hidden"
    cost = 0.0 if played == best else abs(gain.mean)
    note = "judged from the hand as dealt, before the chien"
    return [Decision("poignee", played, best, Estimate(cost, gain.se), note=note)]


def _chelem(analysis: Analysis, game: Game) -> Decision:
    """Announced or not, against the advisor's chelem advice (under its best contract)."""
    played = "announced" if game.chelem_announced else "not announced"
    assert analysis.chelem is not None  # the taker's bid was above every bid before it
    gain = analysis.chelem.expected_gain
    best = "announced" if analysis.chelem.recommended else "not announced"
    cost = 0.0 if played == best else (gain.mean if best == "announced" else -gain.mean)
    note = f"under the advisor's best contract ({analysis.recommendation})"
    return Decision("chelem", played, best, Estimate(cost, gain.se), note=note)
