"""The referee's rules: the FFT rules of rules.md stated once, one function per rule.

Plain scalar code on card ids (``int``, see :mod:`.cards`); hands and tricks are ordinary Python
sequences. Points are kept doubled (``points2``: every card is worth an odd whole number, the deck
182) so that arithmetic stays in integers; functions that take points from people take them as
multiples of 0.5. :mod:`.referee` plays whole deals card by card with these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import (
    EXCUSE,
    IS_BOUT,
    IS_KING,
    IS_TRUMP,
    PETIT,
    RANK,
    SUIT,
    SUIT_SYMBOLS,
    TRUMP,
    format_card,
    format_cards,
)
from ..game import (
    POIGNEE_BONUSES,
    POINTS_NEEDED,
    Contract,
    Side,
    chien_size,
    poignee_thresholds,
    taker_share,
)

TAKER, DEFENCE = Side.TAKER, Side.DEFENCE


class RuleError(ValueError):
    """A deal, an écart, a poignée, a call or a card that the rules forbid."""


class IllegalPlay(RuleError):
    """A card played against the rules; names the trick (1-based), the seat, the card, the rule."""

    def __init__(self, trick: int, seat: int, card: int, rule: str) -> None:
        self.trick, self.seat, self.card, self.rule = trick, seat, card, rule
        super().__init__(f"trick {trick}, seat {seat} played {format_card(card)}: {rule}")


class IllegalDiscard(RuleError):
    """An écart the rules forbid (rules.md §3)."""


class IllegalPoignee(RuleError):
    """A poignée the rules forbid (rules.md §7)."""


class IllegalCall(RuleError):
    """A called card the rules forbid (rules.md §3, five players)."""


class IllegalDeal(RuleError):
    """Hands, chien or seats that cannot make a deal (wrong sizes, a card twice, a petit sec)."""


def as_contract(contract: Contract | str) -> Contract:
    """A :class:`.game.Contract` from itself or its name."""
    return contract if isinstance(contract, Contract) else Contract.parse(contract)


def _suit_name(suit: int) -> str:
    return "trumps" if suit == TRUMP else SUIT_SYMBOLS[suit]


# --- §4 Play -------------------------------------------------------------------------------


def led_suit(trick: Sequence[int]) -> int | None:
    """The suit the trick is played in: that of its first card other than the Excuse.

    When the Excuse is led, the next card sets the suit; ``None`` while no such card is down.
    Returns 0…3 for a suit, :data:`.cards.TRUMP` when trumps were led.
    """
    for card in trick:
        if card != EXCUSE:
            return int(SUIT[card])
    return None


def highest_trump(trick: Sequence[int]) -> int | None:
    """The highest trump already in the trick, or ``None``."""
    trumps = [card for card in trick if IS_TRUMP[card]]
    return max(trumps) if trumps else None


def legal_plays(hand: Iterable[int], trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played, in order).

    Follow the suit led; with none of it, trump; whenever playing a trump, beat the highest trump
    in the trick if you can, else any trump; with neither the suit nor a trump, anything. The
    Excuse is always legal. Returned sorted by card id.
    """
    cards = sorted(int(c) for c in hand)
    suit = led_suit(trick)
    if suit is None:  # leading, or only the Excuse is down
        return cards
    excuse = [EXCUSE] if EXCUSE in cards else []
    if suit != TRUMP:
        followers = [c for c in cards if SUIT[c] == suit]
        if followers:
            return followers + excuse
    trumps = [c for c in cards if IS_TRUMP[c]]
    if not trumps:
        return cards
    top = highest_trump(trick)
    overtrumps = [c for c in trumps if top is None or c > top]
    return (overtrumps or trumps) + excuse


def illegal_reason(hand: Iterable[int], trick: Sequence[int], card: int) -> str | None:
    """Why ``card`` may not be played from ``hand`` to ``trick`` (the rule broken), or ``None``."""
    cards = [int(c) for c in hand]
    if card not in cards:
        return f"{format_card(card)} is not in that seat's hand"
    if card in legal_plays(cards, trick):
        return None
    suit = led_suit(trick)
    assert suit is not None  # a lead is always legal
    if suit != TRUMP and any(SUIT[c] == suit for c in cards):
        return f"must follow {_suit_name(suit)}"
    if not IS_TRUMP[card]:
        if suit == TRUMP:
            return "must play a trump when trumps are led"
        return f"must trump (no {_suit_name(suit)} in hand)"
    top = highest_trump(trick)
    assert top is not None
    return f"must beat the {format_card(top)} (overtrump) while holding a higher trump"


def trick_winner(trick: Sequence[int]) -> int:
    """Index in ``trick`` of the card that wins it: the highest trump, else the highest card of
    the suit led. The Excuse never wins here (a chelem's last trick is the referee's business).
    """
    trumps = [i for i, card in enumerate(trick) if IS_TRUMP[card]]
    if trumps:
        return max(trumps, key=lambda i: trick[i])
    suit = led_suit(trick)
    if suit is None:
        raise ValueError("a trick holding only the Excuse has no winner")
    return max((i for i, c in enumerate(trick) if SUIT[c] == suit), key=lambda i: trick[i])


def first_lead_plays(hand: Iterable[int], called: int) -> list[int]:
    """Five players, first trick, leader: no card of the called suit except the called card."""
    cards = sorted(int(c) for c in hand)
    allowed = [c for c in cards if SUIT[c] != SUIT[called] or c == called]
    return allowed or cards


# --- §2, §3 The deal, the call, the écart ---------------------------------------------------


def is_petit_sec(hand: Iterable[int]) -> bool:
    """The Petit is the hand's only trump and the hand has no Excuse: the deal is void."""
    cards = set(int(c) for c in hand)
    trumps = [c for c in cards if IS_TRUMP[c]]
    return trumps == [PETIT] and EXCUSE not in cards


def check_call_given(players: int, called: int | None) -> None:
    """A called card with five players, and only then (rules.md §3)."""
    if players == 5 and called is None:
        raise IllegalCall("with 5 players the taker calls a card; give it")
    if players != 5 and called is not None:
        raise IllegalCall("only with 5 players is a card called; leave it out")


def check_called_card(called: int, taker_hand: Iterable[int]) -> None:
    """A king may always be called; a dame only by a taker holding the four kings, a cavalier
    only with the four kings and dames too, and so on. ``taker_hand`` is the hand as dealt.
    """
    if not 0 <= called < 56 or RANK[called] < 11:
        name = format_card(called) if 0 <= called < 78 else str(called)
        raise IllegalCall(f"the called card must be a king, or a face card below, not {name}")
    held = set(int(c) for c in taker_hand)
    for rank in range(int(RANK[called]) + 1, 15):
        missing = [14 * suit + rank - 1 for suit in range(4) if 14 * suit + rank - 1 not in held]
        if missing:
            raise IllegalCall(
                f"may call {format_card(called)} only when holding the four cards of each higher"
                f" rank; the taker lacks {format_cards(missing)}"
            )


def check_discard(hand_and_chien: Iterable[int], discard: Iterable[int], players: int) -> None:
    """The écart: as many cards as the chien, from the taker's hand and the chien; no king, no
    bout; trumps only when forced (fewer non-king, non-trump cards than the écart needs).
    """
    pool = set(int(c) for c in hand_and_chien)
    ecart = [int(c) for c in discard]
    size = chien_size(players)
    if len(ecart) != size or len(set(ecart)) != size:
        raise IllegalDiscard(f"the écart must hold {size} different cards, not {len(ecart)}")
    strays = [c for c in ecart if c not in pool]
    if strays:
        raise IllegalDiscard(f"{format_cards(strays)} not in the taker's hand or the chien")
    forbidden = [c for c in ecart if IS_KING[c] or IS_BOUT[c]]
    if forbidden:
        raise IllegalDiscard(f"the écart may hold no king and no bout: {format_cards(forbidden)}")
    plain = [c for c in pool if not (IS_KING[c] or IS_TRUMP[c] or c == EXCUSE)]
    trumps = [c for c in ecart if IS_TRUMP[c]]
    if len(trumps) > max(0, size - len(plain)):
        raise IllegalDiscard(
            f"trumps ({format_cards(trumps)}) may go to the écart only when the hand has too few"
            f" other cards; it has {len(plain)} non-king cards outside trumps"
        )


# --- §7 Poignée ------------------------------------------------------------------------------


def poignee_bonus(shown: Iterable[int], hand: Iterable[int], players: int) -> int:
    """The bonus (20, 30 or 40) of the poignée ``shown`` from ``hand``; its size comes from the
    number of cards shown. The Excuse may stand for a trump only if the hand holds no trump that
    is not shown. Raises :class:`IllegalPoignee`.
    """
    cards = [int(c) for c in shown]
    held = set(int(c) for c in hand)
    if len(set(cards)) != len(cards):
        raise IllegalPoignee("a card is shown twice")
    if any(not IS_TRUMP[c] and c != EXCUSE for c in cards):
        raise IllegalPoignee("only trumps (and the Excuse) can be shown")
    missing = [c for c in cards if c not in held]
    if missing:
        raise IllegalPoignee(f"{format_cards(missing)} not in the hand of the player showing")
    hidden = [c for c in held if IS_TRUMP[c] and c not in cards]
    if EXCUSE in cards and hidden:
        raise IllegalPoignee(
            "the Excuse may stand for a trump only when no other trump is held"
            f" ({format_cards(hidden)} not shown)"
        )
    thresholds = poignee_thresholds(players)
    if len(cards) < thresholds[0]:
        raise IllegalPoignee(
            f"a poignée needs {thresholds[0]} trumps with {players} players, {len(cards)} shown"
        )
    size = sum(len(cards) >= t for t in thresholds)
    return POIGNEE_BONUSES[size - 1]


# --- §6 Counting -----------------------------------------------------------------------------


def points_needed(bouts: int) -> int:
    """Points the taker needs with 0, 1, 2 or 3 bouts: 56, 51, 41, 36."""
    return POINTS_NEEDED[bouts]


def half_points(points: float) -> int:
    """``points`` (a multiple of 0.5) as a whole number of half points."""
    doubled = round(2 * points)
    if doubled != 2 * points:
        raise ValueError(f"card points come in halves, not {points}")
    return doubled


def contract_result(points: float, bouts: int) -> tuple[bool, int]:
    """Whether the contract is made, and the difference counted for the score (signed).

    Made when points ≥ needed. A remaining half point goes to the winning side: 40.5 with two
    bouts loses by 1, 41.5 wins by 1 (only with 3 or 5 players can it happen).
    """
    doubled, needed = half_points(points), 2 * points_needed(bouts)
    made = doubled >= needed
    rounded = (doubled + 1) // 2 if made else doubled // 2
    return made, rounded - points_needed(bouts)


# --- §5 The Excuse after the trick ---------------------------------------------------------


def last_trick_winner(
    trick: Sequence[int], sides: Sequence[Side], earlier_winners: Sequence[Side]
) -> int:
    """Index of the winner of the last trick: the Excuse wins it when its player's side won every
    earlier trick (chelem); otherwise as any trick. ``sides[i]`` is the side of the player of
    ``trick[i]``; ``earlier_winners`` the side that won each earlier trick.
    """
    if EXCUSE in trick:
        excuse = list(trick).index(EXCUSE)
        if all(side == sides[excuse] for side in earlier_winners):
            return excuse
    return trick_winner(trick)


def excuse_changes_side(last: bool, chelem: bool) -> bool:
    """Played to the last trick, the Excuse goes to the trick's winner, except in a chelem (the
    winner's side took every trick: a defender's Excuse then stays with the defence). Played to
    any other trick, its player's side keeps it.
    """
    return last and not chelem


def card_owners(
    trick: Sequence[int], sides: Sequence[Side], winner: int, changes_side: bool
) -> list[Side]:
    """The side each card of a finished trick goes to: the winner's, except the Excuse, which
    its player's side keeps unless ``changes_side`` (see :func:`excuse_changes_side`).
    ``sides[i]`` is the side of the player of ``trick[i]``; ``winner`` an index in ``trick``.
    """
    return [
        sides[i] if card == EXCUSE and not changes_side else sides[winner]
        for i, card in enumerate(trick)
    ]


def excuse_exchange(
    trick: Sequence[int], sides: Sequence[Side], winner: int, changes_side: bool
) -> Side | None:
    """The side that receives a 0.5-point card for the Excuse kept by the other side, or ``None``.

    In points the Excuse's side counts 4.5 for it and gives 0.5 to the trick winner's side; the
    defence keeping it during a taker's chelem thus leaves the taker 87.
    """
    owners = card_owners(trick, sides, winner, changes_side)
    if EXCUSE in trick and owners[list(trick).index(EXCUSE)] != sides[winner]:
        return sides[winner]
    return None


# --- §7, §8 Bonuses and score ----------------------------------------------------------------


def petit_au_bout(
    tricks: Sequence[Sequence[int]], winner_sides: Sequence[Side], excuse_won_last: bool
) -> Side | None:
    """The side that wins the Petit au bout, or ``None``: the winner of the last trick if the
    Petit is in it; in a chelem whose last trick the Excuse won, the winner of the trick before if
    the Petit is there. ``winner_sides[k]`` is the side that won ``tricks[k]``.
    """
    if PETIT in tricks[-1]:
        return winner_sides[-1]
    if excuse_won_last and PETIT in tricks[-2]:
        return winner_sides[-2]
    return None


def chelem_bonus(chelem: Side | None, announced: bool) -> int:
    """The chelem's part of S, from the taker's side: announced and made +400, made unannounced
    +200, announced and failed −200, made by the defence −200 (both count if both happen).
    """
    bonus = 0
    if chelem == TAKER:
        bonus += 400 if announced else 200
    elif announced:
        bonus -= 200
    if chelem == DEFENCE:
        bonus -= 200
    return bonus


def per_defender_score(
    contract: Contract | str,
    points: float,
    bouts: int,
    petit_au_bout: Side | None = None,
    poignee_bonus: int = 0,
    chelem_bonus: int = 0,
) -> int:
    """S, what each defender pays the taker (rules.md §8)::

        s × (25 + |difference|) × multiplier + (±10 Petit au bout) × multiplier
        + s × (poignée bonuses shown, by either side) + chelem bonus

    with s = +1 if made, else −1. ``poignee_bonus`` is the sum of the poignées' bonuses.
    """
    multiplier = as_contract(contract).multiplier
    made, difference = contract_result(points, bouts)
    sign = 1 if made else -1
    petit = {TAKER: 10, DEFENCE: -10, None: 0}[petit_au_bout]
    return (
        sign * (25 + abs(difference)) * multiplier
        + petit * multiplier
        + sign * poignee_bonus
        + chelem_bonus
    )


def seat_scores(
    players: int, taker: int, per_defender: int, partner: int | None = None
) -> list[int]:
    """Each seat's score: the taker gets 2 S (3 players), 3 S (4), 2 S and the partner S (5), or
    4 S playing alone; each defender −S. They sum to zero.
    """
    with_partner = partner is not None and partner != taker
    scores = [-per_defender] * players
    scores[taker] = taker_share(players, with_partner) * per_defender
    if with_partner:
        scores[partner] = per_defender
    return scores
