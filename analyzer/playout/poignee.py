"""Which trumps to show in a poignée: a policy, beside the écart's (:mod:`ecart`)."""

from __future__ import annotations

import numpy as np

from ..game import poignee_thresholds
from . import bitboard as bb
from .bitboard import U64, ZERO


class GreedyPoignee:
    """The largest poignée the hand allows, shown with exactly as many cards as it needs: middle
    trumps from the lowest up, then the 21, then the Petit (kept hidden when possible, so the
    defence has less reason to hunt it), then the Excuse — which may stand in only when every
    trump is shown (rules.md §7)."""

    def choose(self, hand_hi: np.ndarray, players: int) -> np.ndarray:
        """(N,) uint64 the trumps (and Excuse) shown from each hand, 0 where it allows none."""
        count = bb.popcount(hand_hi & bb.ALL_HI)
        need = np.zeros(len(hand_hi), np.int64)
        for threshold in poignee_thresholds(players):
            need = bb.select(count >= threshold, threshold, need)
        shown = np.zeros(len(hand_hi), U64)
        allowed = np.flatnonzero(need)  # few hands allow one: only they are worked on
        shown[allowed] = show(hand_hi[allowed], need[allowed])
        return shown


def show(hand_hi: np.ndarray, need: np.ndarray) -> np.ndarray:
    """(N,) uint64 ``need`` (N,) int64 trumps (or the Excuse) of each hand ``hand_hi`` (N,)
    uint64, shown in the order of :class:`GreedyPoignee`; a hand with fewer shows them all."""
    shown = np.zeros(len(hand_hi), U64)
    remaining = need.copy()
    for group in (
        hand_hi & bb.MIDDLE_TRUMPS_HI,
        hand_hi & bb.TWENTY_ONE_HI,
        hand_hi & bb.PETIT_HI,
    ):
        group = group.copy()
        for _ in range(int(remaining.max(initial=0))):
            take = (remaining > 0) & (group != ZERO)
            if not take.any():
                break
            single = bb.lowest(group)
            shown |= bb.keep(take, single)
            group = bb.select(take, group ^ single, group)
            remaining -= take
    return shown | bb.keep(remaining > 0, hand_hi & bb.EXCUSE_HI)
