"""The rules of :mod:`rules`, for the engine: each function here is the twin of the function of
the same name there, and ``tests/test_rule_twins.py`` holds every pair to the same answers.

The rules of a trick — the legal cards (§4) and the Excuse's fate when the trick closes (§5) — are
per-deal kernels (:func:`.words.kernel`) over ``uint64`` words of one deal: the table's kernels
call them deal by deal (:func:`.table.legal_cards`, :func:`.tally.close_trick`), whether a
policy is asked at every card or a whole playout runs compiled. The trick in progress (its suit,
the cards that would beat its best card) is folded card by card by :func:`.table.lay_down`, which
``tests/test_engine_vs_referee.py`` holds to the referee card by card. The rest (the écart,
bonuses, scores) is for N deals at once, as array operations: card sets are ``uint64`` pairs
``lo``/``hi`` (see :mod:`bitboard`), every array (N,) unless said.
"""

from __future__ import annotations

import functools

import numpy as np

from ..game import POIGNEE_BONUSES, POINTS2_NEEDED, poignee_thresholds, taker_share
from . import bitboard as bb
from .words import kernel, popcount

NO_SUIT = -1
"""``lead_suit`` of a trick with no card yet, or only the Excuse."""
TRUMP_LEAD = 4
"""``lead_suit`` of a trick in trumps (suits are 0–3, as :data:`.cards.SUIT`)."""

_NEEDED2 = np.array(POINTS2_NEEDED, np.int64)
_ZERO = bb.ZERO
_ONE = bb.ONE
_TRUMPS_HI = bb.TRUMPS_HI
_EXCUSE_HI = bb.EXCUSE_HI
_SUIT_LO = bb.SUIT_LO  # (4,) uint64


# --- §4 Play -----------------------------------------------------------------------------------


@kernel
def legal_plays(hand_lo, hand_hi, lead_suit, suit_lo, beat_hi):
    """The cards of one hand (``uint64`` words) that may be played to the trick (rules.md §4).

    Follow the suit led; with none of it, trump; whenever playing a trump, beat the highest trump
    in the trick if you can (``beat_hi``: the trumps that beat the trick's best card), else any
    trump; with neither, anything. The Excuse is always legal. ``lead_suit``: :data:`NO_SUIT`
    (leading, or after the Excuse led: anything), a suit 0–3 whose cards are ``suit_lo``, or
    :data:`TRUMP_LEAD`."""
    if lead_suit == NO_SUIT:
        return hand_lo, hand_hi
    excuse = hand_hi & _EXCUSE_HI
    if lead_suit != TRUMP_LEAD:
        follow_lo = hand_lo & suit_lo
        if follow_lo != _ZERO:
            return follow_lo, excuse
    trumps = hand_hi & _TRUMPS_HI
    if trumps == _ZERO:
        return hand_lo, hand_hi
    over = trumps & beat_hi
    if over == _ZERO:
        return _ZERO, trumps | excuse
    return _ZERO, over | excuse


@kernel
def first_lead_plays(hand_lo, hand_hi, called_lo):
    """Five players, the first trick's leader (words of one deal): no card of the called suit
    but the called card itself, unless the hand holds nothing else (rules.md §3).
    ``called_lo`` 0: no restriction."""
    if called_lo == _ZERO:
        return hand_lo, hand_hi
    suit_lo = _SUIT_LO[popcount(called_lo - _ONE) & 3]  # the card's bit is 4 × (rank − 1) + suit
    allowed_lo = hand_lo & (~suit_lo | called_lo)
    if (allowed_lo | hand_hi) == _ZERO:
        return hand_lo, hand_hi
    return allowed_lo, hand_hi


# --- §2, §3 The deal, the écart -----------------------------------------------------------------


def is_petit_sec(hand_hi: np.ndarray) -> np.ndarray:
    """(…) bool: the Petit is the hand's only trump and the hand has no Excuse."""
    return hand_hi == bb.PETIT_HI


def check_discard(
    pool_lo: np.ndarray, pool_hi: np.ndarray, ecart_lo: np.ndarray, ecart_hi: np.ndarray, size: int
) -> np.ndarray:
    """(N,) bool: ``ecart`` is a legal écart from ``pool`` (the taker's hand and the chien):
    ``size`` cards of the pool, no king, no bout, trumps only when too few other cards remain.
    (The twin of :func:`rules.check_discard`, which raises where this says ``False``.)"""
    count = bb.popcount(ecart_lo) + bb.popcount(ecart_hi)
    in_pool = ((ecart_lo & ~pool_lo) | (ecart_hi & ~pool_hi)) == _ZERO
    no_king_no_bout = ((ecart_lo & bb.KINGS_LO) | (ecart_hi & bb.BOUTS_HI)) == _ZERO
    plain = bb.popcount(pool_lo & ~bb.KINGS_LO)
    trumps_allowed = np.maximum(0, size - plain)
    trumps_ok = bb.popcount(ecart_hi & bb.TRUMPS_HI) <= trumps_allowed
    return (count == size) & in_pool & no_king_no_bout & trumps_ok


# --- §5 The Excuse after the trick ---------------------------------------------------------------


@kernel
def last_trick_winner(winner, excuse_position, excuse_side_swept):
    """The winner of the last trick (one deal): the Excuse's player (``excuse_position``, −1
    none) when its side won every earlier trick (``excuse_side_swept``), else ``winner`` (the
    trick's best card's)."""
    if excuse_position >= 0 and excuse_side_swept:
        return excuse_position
    return winner


@kernel
def excuse_changes_side(last, chelem):
    """The Excuse goes to the trick's winner: played to the last trick, outside a chelem (the
    winner's side took every trick)."""
    return last and not chelem


@kernel
def card_owners(trick_lo, trick_hi, winner_taker, excuse_taker, changes_side):
    """The cards of a finished trick (words of one deal) that go to the taker's side: all of
    them when the taker's side wins it (``winner_taker``), none otherwise — except the Excuse,
    which its player's side (``excuse_taker``) keeps unless ``changes_side``."""
    excuse_kept = (trick_hi & _EXCUSE_HI) != _ZERO and not changes_side
    taker_lo = _ZERO
    taker_hi = _ZERO
    if winner_taker:
        taker_lo = trick_lo
        taker_hi = trick_hi & ~_EXCUSE_HI if excuse_kept else trick_hi
    if excuse_kept and excuse_taker:
        taker_hi |= _EXCUSE_HI
    return taker_lo, taker_hi


@kernel
def excuse_exchange(trick_hi, winner_taker, excuse_taker, changes_side):
    """+1 where the taker's side receives a 0.5-point card for the Excuse the defence keeps, −1
    where the defence receives one, 0 where no exchange is due (one deal)."""
    kept = (trick_hi & _EXCUSE_HI) != _ZERO and not changes_side
    if not kept or excuse_taker == winner_taker:
        return 0
    return 1 if winner_taker else -1


# --- §7, §8 Bonuses and score --------------------------------------------------------------------


def petit_au_bout(petit_trick_side: np.ndarray, excuse_won_last: np.ndarray) -> np.ndarray:
    """(N,) int8: the side winning the Petit au bout, +1 taker's, −1 defence, 0 none.

    ``petit_trick_side`` (T, N) int8: per trick, the side that won the Petit in it (0 none). The
    last trick counts, or the one before when the Excuse won the last (a chelem)."""
    side = petit_trick_side[-1]
    if len(petit_trick_side) > 1:
        before = petit_trick_side[-2]
        side = bb.select(excuse_won_last & (before != 0), before, side)
    return side.astype(np.int8)


def poignee_bonus(shown_hi: np.ndarray, players: int) -> np.ndarray:
    """(…) int64 the bonus (20, 30, 40; 0 for none) of the poignée ``shown_hi``, sized by the
    number of cards shown."""
    return _bonus_of_count(players)[bb.popcount8(shown_hi & bb.ALL_HI)]


@functools.cache
def _bonus_of_count(players: int) -> np.ndarray:
    """(65,) int64 the bonus of a poignée of each number of cards: one look-up per poignée
    (a search scores one per seat in every playout; selects on the counts cost 4 times more)."""
    count = np.arange(65)
    bonus = np.zeros(65, np.int64)
    for threshold, value in zip(poignee_thresholds(players), POIGNEE_BONUSES, strict=True):
        bonus = np.where(count >= threshold, value, bonus)
    bonus.flags.writeable = False
    return bonus


def points_needed(bouts: np.ndarray) -> np.ndarray:
    """(…) int64 the points the taker needs with 0, 1, 2 or 3 bouts: 56, 51, 41, 36."""
    return _NEEDED2[bouts] // 2


def contract_result(points2: np.ndarray, bouts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether the contract is made (bool) and the signed difference counted (int64), from the
    taker's doubled points and bouts; a remaining half point goes to the winning side."""
    margin2 = points2 - _NEEDED2[bouts]
    made = margin2 >= 0
    return made, bb.select(made, 1, -1) * ((np.abs(margin2) + 1) // 2)


def chelem_bonus(chelem: np.ndarray, announced: bool | np.ndarray) -> np.ndarray:
    """(N,) int64 the chelem's part of S, from the taker's side; ``chelem`` int8 +1 the taker's
    side won every trick, −1 the defence did, 0 neither; ``announced`` (one, or (N,) bool) the
    taker announced one."""
    made = np.where(chelem == 1, np.where(announced, 400, 200), np.where(announced, -200, 0))
    return made + np.where(chelem == -1, -200, 0)


def per_defender_score(
    multiplier: int,
    made: np.ndarray,
    difference: np.ndarray,
    petit_au_bout: np.ndarray,
    poignee_bonus: np.ndarray,
    chelem_bonus: np.ndarray,
) -> np.ndarray:
    """(N,) int64 S, what each defender pays the taker (rules.md §8)."""
    sign = bb.select(made, 1, -1)
    return (
        sign * (25 + np.abs(difference)) * multiplier
        + 10 * petit_au_bout.astype(np.int64) * multiplier
        + sign * poignee_bonus
        + chelem_bonus
    )


def seat_scores(
    players: int, taker: np.ndarray, per_defender: np.ndarray, partner: np.ndarray
) -> np.ndarray:
    """(N, n) int64 each seat's score; ``partner`` −1 (or the taker) for none. The taker gets
    its share of S (2, 3, or 2 with a partner and 4 alone with 5 players), the partner S, each
    defender −S."""
    with_partner = (partner >= 0) & (partner != taker)
    share = bb.select(with_partner, taker_share(players, True), taker_share(players, False))
    rows = np.arange(len(per_defender))
    scores = np.repeat(-per_defender[:, None], players, axis=1)
    scores[rows, taker] = share * per_defender
    scores[rows[with_partner], partner[with_partner]] = per_defender[with_partner]
    return scores
