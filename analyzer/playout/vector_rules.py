"""The rules of :mod:`rules`, for N deals at once: each function here is the array twin of the
function of the same name there, and ``tests/test_rule_twins.py`` holds every pair to the same
answers. The engine applies the rules through these functions, but for the trick in progress:
its suit and the cards that would beat its best card so far are folded card by card, deal by
deal, by the table's kernel (:func:`.table._lay_down`), which ``tests/test_engine_vs_referee.py``
holds to the referee card by card.

Card sets are ``uint64`` pairs ``lo``/``hi`` (see :mod:`bitboard`); every array is (N,) unless
said.
"""

from __future__ import annotations

import numpy as np

from ..game import POIGNEE_BONUSES, POINTS2_NEEDED, poignee_thresholds, taker_share
from . import bitboard as bb
from .bitboard import ZERO

NO_SUIT = -1
"""``lead_suit`` of a trick with no card yet, or only the Excuse."""
TRUMP_LEAD = 4
"""``lead_suit`` of a trick in trumps (suits are 0–3, as :data:`.cards.SUIT`)."""

_NEEDED2 = np.array(POINTS2_NEEDED, np.int64)


# --- §4 Play -----------------------------------------------------------------------------------


def suit_cards(lead_suit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cards of the suit led, as a set (none while no suit is set)."""
    return _SUIT_OR_NONE_LO[lead_suit], bb.keep(lead_suit == TRUMP_LEAD, bb.TRUMPS_HI)


_SUIT_OR_NONE_LO = np.append(bb.SUIT_LO, [ZERO, ZERO])  # indexed by lead_suit: −1 → none, 4 → none


def legal_plays(
    hand_lo: np.ndarray,
    hand_hi: np.ndarray,
    lead_suit: np.ndarray,
    beat_hi: np.ndarray,
    *,
    suit: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The cards of each hand that may be played to the trick (rules.md §4), as a set.

    Follow the suit led; with none of it, trump; whenever playing a trump, beat the highest trump
    in the trick if you can (``beat_hi``: the trumps that beat the trick's best card, see
    :func:`beats`), else any trump; with neither, anything. The Excuse is always legal.
    ``suit``: the cards of ``lead_suit`` (:func:`suit_cards`), when the caller keeps them.
    """
    suit_lo, suit_hi = suit_cards(lead_suit) if suit is None else suit
    follow_lo = hand_lo & suit_lo
    can_follow = (follow_lo | (hand_hi & suit_hi)) != ZERO
    trumps = hand_hi & bb.TRUMPS_HI
    over = trumps & beat_hi
    excuse = hand_hi & bb.EXCUSE_HI
    # Leading, or with neither the suit nor a trump: anything. Following a suit: that suit (and
    # the Excuse). Else (trumps led, or none of the suit): the trumps the rule allows. follow_lo
    # is empty unless a suit is led and followed, so it is the whole answer in lo but anything.
    anything = (lead_suit == NO_SUIT) | (~can_follow & (trumps == ZERO))
    must_trump = ~anything & ~(can_follow & (lead_suit != TRUMP_LEAD))
    trump_choice = bb.keep(must_trump, over | bb.keep(over == ZERO, trumps))
    legal_lo, legal_hi = bb.keep_pair(anything, hand_lo, hand_hi)
    legal_lo |= follow_lo
    legal_hi |= trump_choice | excuse
    return legal_lo, legal_hi


def first_lead_plays(
    hand_lo: np.ndarray, hand_hi: np.ndarray, called_lo: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Five players, the first trick's leader: no card of the called suit but the called card
    itself, unless the hand holds nothing else (rules.md §3). ``called_lo`` 0: no restriction."""
    called_suit = bb.lowest_bit(called_lo) & 3
    suit_lo = bb.keep(called_lo != ZERO, bb.SUIT_LO[called_suit])
    allowed_lo = hand_lo & (~suit_lo | called_lo)
    nothing_else = (allowed_lo | hand_hi) == ZERO
    return bb.select(nothing_else, hand_lo, allowed_lo), hand_hi


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
    in_pool = ((ecart_lo & ~pool_lo) | (ecart_hi & ~pool_hi)) == ZERO
    no_king_no_bout = ((ecart_lo & bb.KINGS_LO) | (ecart_hi & bb.BOUTS_HI)) == ZERO
    plain = bb.popcount(pool_lo & ~bb.KINGS_LO)
    trumps_allowed = np.maximum(0, size - plain)
    trumps_ok = bb.popcount(ecart_hi & bb.TRUMPS_HI) <= trumps_allowed
    return (count == size) & in_pool & no_king_no_bout & trumps_ok


# --- §5 The Excuse after the trick ---------------------------------------------------------------


def last_trick_winner(
    winner: np.ndarray, excuse_position: np.ndarray, excuse_side_swept: np.ndarray
) -> np.ndarray:
    """The winner of the last trick: the Excuse's player (``excuse_position``, −1 none) when its
    side won every earlier trick (``excuse_side_swept``), else ``winner`` (:func:`trick_winner`)."""
    return bb.select((excuse_position >= 0) & excuse_side_swept, excuse_position, winner)


def excuse_changes_side(last: bool, chelem: np.ndarray) -> np.ndarray:
    """(N,) bool: the Excuse goes to the trick's winner — played to the last trick, outside a
    chelem (the winner's side took every trick)."""
    outside_chelem = ~np.asarray(chelem, bool)
    return outside_chelem if last else np.zeros_like(outside_chelem)


def card_owners(
    trick_lo: np.ndarray,
    trick_hi: np.ndarray,
    winner_taker: np.ndarray,
    excuse_taker: np.ndarray,
    changes_side: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The cards of a finished trick that go to the taker's side: all of them when the taker's
    side wins it (``winner_taker``), none otherwise — except the Excuse, which its player's side
    (``excuse_taker``) keeps unless ``changes_side``."""
    excuse_kept = ((trick_hi & bb.EXCUSE_HI) != ZERO) & ~changes_side
    rest_hi = bb.select(excuse_kept, trick_hi & ~bb.EXCUSE_HI, trick_hi)
    taker_lo = bb.keep(winner_taker, trick_lo)
    taker_hi = bb.keep(winner_taker, rest_hi) | bb.keep(excuse_kept & excuse_taker, bb.EXCUSE_HI)
    return taker_lo, taker_hi


def excuse_exchange(
    trick_hi: np.ndarray,
    winner_taker: np.ndarray,
    excuse_taker: np.ndarray,
    changes_side: np.ndarray,
) -> np.ndarray:
    """(N,) int64: +1 where the taker's side receives a 0.5-point card for the Excuse the defence
    keeps, −1 where the defence receives one, 0 where no exchange is due."""
    kept = ((trick_hi & bb.EXCUSE_HI) != ZERO) & ~changes_side
    crosses = kept & (excuse_taker != winner_taker)
    return bb.select(crosses, bb.select(winner_taker, 1, -1), 0)


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
    count = bb.popcount(shown_hi & bb.ALL_HI)
    bonus = np.zeros(np.shape(shown_hi), np.int64)
    for threshold, value in zip(poignee_thresholds(players), POIGNEE_BONUSES, strict=True):
        bonus = bb.select(count >= threshold, value, bonus)
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


def chelem_bonus(chelem: np.ndarray, announced: bool) -> np.ndarray:
    """(N,) int64 the chelem's part of S, from the taker's side; ``chelem`` int8 +1 the taker's
    side won every trick, −1 the defence did, 0 neither."""
    made = np.where(chelem == 1, 400 if announced else 200, -200 if announced else 0)
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
