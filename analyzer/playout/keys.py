"""Deal keys: each deal's identity for the randomness of the policies that search it.

Why: the advice compares alternatives (two contracts, two écarts, two calls) played on copies of
the same deals. A searching player (:mod:`..search.lookahead`) draws worlds of the hidden cards
at each of its decisions; drawn from one generator shared by all the deals, the draws of a
deal's two copies have nothing in common, and the paired gap between the alternatives carries
the search's own noise twice. Drawn instead from a counter-based stream keyed by the deal's key,
the card just played and the seat deciding (:func:`mix`), a decision whose player knows the same
in both copies draws the same worlds and plays the same card: the search is a deterministic
function of the deal, and what differs between the copies is only what the alternative changed.

A key is random and drawn when the deal is dealt (:func:`draw_keys`), never derived from the
cards: a player's draws must tell it nothing about the cards it cannot see (rules.md §12).
Copies of a deal carry its key (:meth:`.deal.Deals.rows`). Deals given without keys (the worlds
of a search, a deal record followed card by card) are keyed by their row (:func:`row_keys`).

The mixing is splitmix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom
number generators", OOPSLA 2014), folded over the parts: every output bit depends on every
input bit, which is all a counter-based stream needs here.
"""

from __future__ import annotations

import numpy as np

U64 = np.uint64
_GOLDEN = U64(0x9E3779B97F4A7C15)
_MULTIPLIERS = (U64(0xBF58476D1CE4E5B9), U64(0x94D049BB133111EB))
_SHIFTS = (U64(30), U64(27), U64(31))
_MANTISSA = U64(11)  # 64 − 53: the bits a float64 in [0, 1) keeps


def _finalise(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> _SHIFTS[0])) * _MULTIPLIERS[0]
    z = (z ^ (z >> _SHIFTS[1])) * _MULTIPLIERS[1]
    return z ^ (z >> _SHIFTS[2])


def mix(keys: np.ndarray, *parts: np.ndarray | int) -> np.ndarray:
    """uint64 words, the broadcast shape of ``keys`` and ``parts`` (integers, non-negative):
    a hash of all of them, in order. Distinct parts give unrelated words."""
    with np.errstate(over="ignore"):  # the arithmetic is modulo 2**64 on purpose
        h = np.asarray(keys, U64) + _GOLDEN
        for part in parts:
            h = _finalise(h ^ _finalise(np.asarray(part).astype(U64) + _GOLDEN))
        return _finalise(np.atleast_1d(h))


def unit(words: np.ndarray) -> np.ndarray:
    """float64 in [0, 1), the shape of ``words`` (uint64): their top 53 bits."""
    return (words >> _MANTISSA).astype(np.float64) * 2.0**-53


def draw_keys(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n,) uint64 keys for ``n`` new deals, from a child of ``rng``'s seed (``spawn``), so that
    the stream ``rng`` goes on with is the one it would have been without keys: the cards dealt
    after are the same."""
    return rng.spawn(1)[0].integers(0, 2**64, n, dtype=U64, endpoint=False)


def row_keys(n: int) -> np.ndarray:
    """(n,) uint64 keys for deals given without any: their row's."""
    return mix(np.arange(n, dtype=U64))
