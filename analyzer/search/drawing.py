"""The counting draw of :mod:`worlds`, deal by deal: three kernels (:func:`~..playout.words.kernel`,
compiled by numba when it can be), one per step of :func:`worlds._exact`.

:func:`prepare` reads each deal's constraints (its free cards, the holders' free places, the
holders counted as one); :func:`count_and_draw` builds the counting tables ``W_j`` of the
:mod:`worlds` docstring and draws the worlds back from them; :func:`hand_out` shares each class's
cards out to its holders and turns the worlds into card sets. Card sets are ``uint64`` (lo, hi)
words as in :mod:`~..playout.bitboard`; a card is in a set when the set shares a bit with the
card's own pair (``card_lo``/``card_hi``, (78,) uint64).
"""

from __future__ import annotations

import math

import numpy as np

from ..playout.words import entry_point, kernel

RESCALE_EVERY = 8
"""Cards between two rescalings of the counting tables: a card multiplies an entry by at most
the number of holders (6), so float32 stays far from its range (6 ** 8 < 2 ** 21)."""
NONE = 78
"""No card (a card id past the last)."""
TWICE, OVERFULL, MISCOUNTED = 1, 2, 3
"""What :func:`prepare` finds wrong with a deal: a card certainly held by two holders, a holder
certainly holding more cards than it has, hidden cards not as many as the free places."""


@kernel
def _has(lo: np.uint64, hi: np.uint64, card_lo: np.uint64, card_hi: np.uint64) -> bool:
    return ((lo & card_lo) | (hi & card_hi)) != np.uint64(0)


@kernel
def _class_room(first: np.ndarray, kept: np.ndarray, t: np.int64, holder: np.int64) -> np.int64:
    """The free places of the class whose first holder is ``holder`` in deal t (0 for the
    other holders of a class)."""
    places = 0
    for p in range(first.shape[1]):
        if first[t, p] == holder:
            places += kept[t, p]
    return places


@entry_point
def prepare(
    constraints: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    card_lo: np.ndarray,
    card_hi: np.ndarray,
    out: tuple[np.ndarray, ...],
) -> None:
    """Each deal's free cards and holders, ready to count (:func:`worlds._exact`).

    ``constraints``: may_lo, may_hi, must_lo, must_hi (T, h) uint64 and count (T, h) int64.
    Fills ``out``: problem (T,) int64 (0, or :data:`TWICE`, :data:`OVERFULL`,
    :data:`MISCOUNTED`: then the rest of the deal is not filled), twice (T,) int64 the lowest
    card held twice (:data:`NONE`), n_free (T,) int64, card (T, 78) int64 the free cards in
    card order, kept (T, h) int64 each holder's free places, first (T, h) int64 the first
    holder of each one's class (the :mod:`worlds` docstring), order (T, h) int64 the holders by
    decreasing room of their class (stable; room (T, h) int64 those rooms, 0 off a class's
    first holder) and allowed (T, 78, h) bool, zeros on entry: which sorted holder may take
    each free card (only holders with room)."""
    may_lo, may_hi, must_lo, must_hi, count = constraints
    problem, twice, n_free, card, kept, first, order, room, allowed = out
    n_deals, h = count.shape
    for t in range(n_deals):
        problem[t], twice[t], n = 0, NONE, 0
        free_lo, free_hi = np.uint64(0), np.uint64(0)
        for p in range(h):
            kept[t, p] = count[t, p]
        for c in range(78):
            held, possible = 0, False
            for p in range(h):
                possible |= _has(may_lo[t, p], may_hi[t, p], card_lo[c], card_hi[c])
                if _has(must_lo[t, p], must_hi[t, p], card_lo[c], card_hi[c]):
                    held += 1
                    kept[t, p] -= 1
            if held > 1 and twice[t] == NONE:
                twice[t] = c
            if possible and held == 0:
                card[t, n] = c
                n += 1
                free_lo |= card_lo[c]
                free_hi |= card_hi[c]
        n_free[t] = n
        places, overfull = 0, False
        for p in range(h):
            places += kept[t, p]
            overfull |= kept[t, p] < 0
        if twice[t] != NONE:
            problem[t] = TWICE
        elif overfull:
            problem[t] = OVERFULL
        elif n != places:
            problem[t] = MISCOUNTED
        if problem[t]:
            continue
        # Holders with room that may take exactly the same free cards are counted as one.
        for p in range(h):
            first[t, p] = p
            for q in range(p if kept[t, p] > 0 else 0):
                if (
                    kept[t, q] > 0
                    and may_lo[t, q] & free_lo == may_lo[t, p] & free_lo
                    and may_hi[t, q] & free_hi == may_hi[t, p] & free_hi
                ):
                    first[t, p] = first[t, q]
                    break
        for p in range(h):  # a stable insertion by decreasing room, the class's on its first
            i = p
            while i > 0 and _class_room(first, kept, t, order[t, i - 1]) < _class_room(
                first, kept, t, p
            ):
                order[t, i] = order[t, i - 1]
                i -= 1
            order[t, i] = p
        for i in range(h):
            holder = order[t, i]
            room[t, i] = _class_room(first, kept, t, holder)
            for j in range(n if room[t, i] > 0 else 0):
                allowed[t, j, i] = _has(
                    may_lo[t, holder], may_hi[t, holder], card_lo[card[t, j]], card_hi[card[t, j]]
                )


@kernel
def _copy(dst: np.ndarray, src: np.ndarray, begin: np.int64, end: np.int64) -> None:
    """``dst[begin:end] = src[begin:end]`` ((E,) float32 rows). The index is unsigned, as in
    :func:`_add_shifted`."""
    for entry in range(np.uint64(begin), np.uint64(end)):
        dst[entry] = src[entry]


@kernel
def _add_shifted(
    dst: np.ndarray, src: np.ndarray, begin: np.int64, end: np.int64, back: np.int64
) -> None:
    """``dst[begin:end] += src[begin − back:end − back]`` ((E,) float32 rows, ``back`` ≤
    ``begin``), entry by entry as written. The index is unsigned: numba checks a signed one for
    a count from the end, which keeps the loop from running on vectors (10 times slower)."""
    shift = np.uint64(back)
    for entry in range(np.uint64(begin), np.uint64(end)):
        dst[entry] += src[entry - shift]


@kernel
def _largest(row: np.ndarray, size: np.int64) -> np.float32:
    """The largest of ``row[:size]`` ((E,) float32, none NaN): four maxima side by side, each
    not waiting for the one before (one alone made count_and_draw a tenth slower)."""
    a = b = c = d = row[0]
    for entry in range(0, size - 3, 4):
        a, b = max(a, row[entry]), max(b, row[entry + 1])
        c, d = max(c, row[entry + 2]), max(d, row[entry + 3])
    for entry in range(size - size % 4, size):
        a = max(a, row[entry])
    return max(max(a, b), max(c, d))


@kernel
def _add_card(
    tables: np.ndarray,
    j: np.int64,
    allowed: np.ndarray,
    t: np.int64,
    room: np.int64,
    dims: np.ndarray,
    stride: np.ndarray,
    coord: np.ndarray,
    size: np.int64,
) -> None:
    """``W_{j+1}`` (``tables[j + 1]``) from ``W_j``, card j of deal t going to the ``allowed``
    holders: each entry the sum, in float32 and in holder order, of the entries it comes from.
    Only the entries where the explicit holders hold between j + 1 − ``room`` (the implicit
    holder within its room) and j + 1 cards (no more than were placed) — the band — are other
    than 0. ``coord`` (h,) int64: room to count the slabs in; ``size``: the table's entries.

    Every holder is added slab by slab (a slab: holders 3 … h − 1's counts fixed), over the one
    span of the slab's rows that meet the band: spans, not runs along a row (about 7 entries),
    are long enough to run on vectors (a third of the time with 4 players, for twice the
    entries). The span's entries off the band read only entries off ``W_j``'s band (an
    explicit holder takes a card: one fewer placed, the implicit holder's count the same), 0,
    but where the implicit holder's copy puts it one past its room: set back to 0. Holder 1's
    add into each row's first entry (holder 1 holding none) reads the row before's last: undone,
    the entry set back to the implicit holder's copy, as no other holder has added yet."""
    h = stride.shape[0]
    src, dst = tables[j], tables[j + 1]
    for entry in range(np.uint64(size)):
        dst[entry] = np.float32(0.0)
    low, high = max(0, j + 1 - room), j + 1
    length = dims[0]
    rows = dims[1] if h > 2 else 1
    implicit = allowed[t, j, 0]
    start, level = 0, 0  # the slab's first entry, the cards of holders 3 … h − 1 there
    for e in range(h):
        coord[e] = 0
    while True:
        # The slab's rows (holder 2's count) that meet the band, as one span of entries (none:
        # an empty span, end ≤ begin; end ≥ 0, as a slab's start is its level's rows at least).
        first_row, last_row = max(0, low - (length - 1) - level), min(rows - 1, high - level)
        begin, end = start + first_row * length, start + (last_row + 1) * length
        if implicit:
            _copy(dst, src, begin, end)
        if allowed[t, j, 1]:  # (into each row's first entry too: undone below)
            _add_shifted(dst, src, begin + 1, end, 1)
        for row in range(first_row, last_row + 1):
            row_start, below = start + row * length, low - 1 - level - row
            if implicit and 0 <= below < length:  # the implicit holder past its room: 0
                dst[row_start + below] = np.float32(0.0)
            if allowed[t, j, 1]:  # holder 1 holding none: the previous row's last is not its
                dst[row_start] = src[row_start] if implicit and below < 0 else np.float32(0.0)
        if h > 2 and allowed[t, j, 2]:
            _add_shifted(dst, src, max(begin, start + length), end, stride[2])
        for e in range(3, h):
            if allowed[t, j, e] and coord[e] > 0:
                _add_shifted(dst, src, begin, end, stride[e])
        e = 3  # the next slab
        while e < h:
            coord[e] += 1
            start += stride[e]
            level += 1
            if coord[e] < dims[e - 1]:
                break
            start -= coord[e] * stride[e]
            level -= coord[e]
            coord[e] = 0
            e += 1
        if e >= h:
            return


@entry_point
def count_and_draw(
    allowed: np.ndarray,
    n_free: np.ndarray,
    room: np.ndarray,
    sequence: np.ndarray,
    draws: tuple[np.ndarray, np.ndarray, np.ndarray],
    holder: np.ndarray,
    work: tuple[np.ndarray, ...],
) -> np.int64:
    """The counting draw of the :mod:`worlds` docstring, deal by deal: fills ``holder`` ((T, k, M)
    int64) with the holder (0 … h − 1) of every card in k uniform worlds of each of the deals
    ``sequence`` ((S,) int64, in that order); returns −1, or the first deal with no world (its
    worlds and those of the deals after it left unfilled).

    ``allowed`` (T, 78, h) bool: who may take each free card (past the deal's: nobody);
    ``n_free`` (T,) int64: the deal's free cards; ``room`` (T, h) int64: each holder's free
    places, holder 0 the implicit one; ``draws``: ``uniform`` (U,) float64, and ``last``,
    ``step`` (T,) int64: card j of deal t in world w draws ``uniform[last[t] − j · step[t] + w]``
    (:func:`worlds._layout`). ``work``: room to work in — the tables ((M + 1, E) float32, M the
    most free cards, E at least the entries of any deal's table), (h,) int64 twice, (k, h)
    int64, (h,) float32, (h − 1,) int64 and (k,) int64.

    ``W_j`` is a table over the explicit holders' counts, up to each one's room; card j − 1 is
    added to it holder by holder, implicit first (in float32, a sum in that order), and entries
    where the implicit holder would hold more than its room are 0. Every :data:`RESCALE_EVERY`
    cards the table is rescaled by a power of two to a maximum below 1: exact, so the draws
    are those of any larger table (as the group's longest axes, which this once was) whose
    entries stay in float32's normal range. A card goes to the first holder whose running sum
    of ways passes its draw times their total (none, which a rounding could cause: holder
    h − 1). The entries past a deal's own cards are left as they were."""
    h = allowed.shape[2]
    k = holder.shape[1]
    uniform, last, step = draws
    tables, stride, coord, counts, running, dims, here = work
    for i in range(len(sequence)):
        t = sequence[i]
        # The entry's move when a holder takes a card (the implicit one: 0). Holder 1's axis is
        # the fastest: its rows are the longest (the holders are by decreasing room).
        size = 1
        stride[0] = 0
        for e in range(1, h):
            dims[e - 1] = room[t, e] + 1
            stride[e] = size
            size *= dims[e - 1]
        n_real = n_free[t]
        # (Loops rather than numba's array expressions, which cost more to set up than to run
        # on tables this small, and may allocate.)
        for entry in range(size):
            tables[0, entry] = np.float32(0.0)
        tables[0, 0] = np.float32(1.0)
        for j in range(n_real):
            _add_card(tables, j, allowed, t, room[t, 0], dims, stride, coord, size)
            if j % RESCALE_EVERY == RESCALE_EVERY - 1:
                largest = _largest(tables[j + 1], size)
                scale = np.float32(math.ldexp(1.0, -math.frexp(largest)[1]))
                for entry in range(np.uint64(size)):
                    tables[j + 1, entry] *= scale
        end = size - 1  # every explicit holder's room filled
        if not tables[n_real, end] > 0:
            return t
        # Only the holders with room (the first ones) are drawn: the others add nothing.
        n_open = 0
        while n_open < h and room[t, n_open] > 0:
            n_open += 1
        # Card by card, in every world in turn: the k walks are independent, so each one's
        # reads of the tables need not wait for the others'.
        for w in range(k):
            here[w] = end
            for p in range(h):
                counts[w, p] = room[t, p]
        for j in range(n_real - 1, -1, -1):
            drawn = last[t] - j * step[t]
            for w in range(k):
                total = np.float32(0.0)
                for p in range(n_open):
                    if allowed[t, j, p] and (p == 0 or counts[w, p] > 0):
                        total += tables[j, here[w] - stride[p]]
                    running[p] = total
                past = uniform[drawn + w] * np.float64(total)
                # The first holder whose running sum passes: as the sums never decrease, the
                # number that do not (counted, not searched for: the holder is drawn at random,
                # and a branch on it was often mispredicted).
                chosen = 0
                for p in range(n_open):
                    chosen += running[p] <= past
                if chosen < n_open:
                    counts[w, chosen] -= 1
                    here[w] -= stride[chosen]
                else:
                    chosen = h - 1
                holder[t, w, j] = chosen
    return -1


@kernel
def _by_draw(
    members: np.ndarray, size: np.int64, draws: np.ndarray, bucket: np.ndarray, out: np.ndarray
) -> None:
    """``out[:size]``: ``members[:size]`` ((78,) int64 card places, increasing) by increasing
    ``draws`` ((M,) float64 in [0, 1), one per place), equal draws in place order. Into
    ``size`` buckets by draw first, then an insertion sort, which has little left to move
    (an insertion sort alone made :func:`hand_out` a third slower). ``bucket``: (79,) int64."""
    for b in range(size + 1):
        bucket[b] = 0
    for i in range(size):
        bucket[min(int(draws[members[i]] * size), size - 1) + 1] += 1
    for b in range(size):  # each bucket's first place
        bucket[b + 1] += bucket[b]
    for i in range(size):  # in place order within a bucket
        b = min(int(draws[members[i]] * size), size - 1)
        out[bucket[b]] = members[i]
        bucket[b] += 1
    for i in range(1, size):
        j, i_ = out[i], i
        while i_ > 0 and draws[out[i_ - 1]] > draws[j]:
            out[i_] = out[i_ - 1]
            i_ -= 1
        out[i_] = j


@entry_point
def hand_out(
    holder: np.ndarray,
    prepared: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    uniform: np.ndarray,
    card_lo: np.ndarray,
    card_hi: np.ndarray,
    out_lo: np.ndarray,
    out_hi: np.ndarray,
    work: tuple[np.ndarray, ...],
) -> None:
    """The worlds as card sets: ``out_lo``/``out_hi`` (T, k, h) uint64, on entry each holder's
    certain cards, receive its free cards.

    ``holder`` (T, k, M) int64: the sorted holder (:func:`prepare`'s order) of each free card;
    ``prepared``: n_free (T,), card (T, 78), kept (T, h), first (T, h), order (T, h) of
    :func:`prepare`.
    A class's cards are shared out uniformly among its holders: in the order of their
    ``uniform`` draws ((T, k, M) float64), the first ``kept`` of them to its first holder, the
    next to the next one… (every sharing as likely: the :mod:`worlds` docstring). ``work``: room
    to work in, (78,) int64 three times, (79,) int64 and (h,) bool."""
    n_free, card, kept, first, order = prepared
    n_deals, k, _ = holder.shape
    h = order.shape[1]
    owner, sorted_, members, bucket, several = (
        work  # several: the first holders of classes of several
    )
    for t in range(n_deals):
        n = n_free[t]
        for p in range(h):
            several[p] = False
        for p in range(h):
            several[first[t, p]] |= first[t, p] != p
        for w in range(k):
            for j in range(n):
                owner[j] = order[t, holder[t, w, j]]
            for c in range(h):
                if not several[c]:
                    continue
                size = 0
                for j in range(n):
                    if owner[j] == c:
                        members[size] = j
                        size += 1
                _by_draw(members, size, uniform[t, w], bucket, sorted_)
                place = 0
                for p in range(c, h):
                    if first[t, p] == c:
                        for i in range(place, place + kept[t, p]):
                            owner[sorted_[i]] = p
                        place += kept[t, p]
            for j in range(n):
                out_lo[t, w, owner[j]] |= card_lo[card[t, j]]
                out_hi[t, w, owner[j]] |= card_hi[card[t, j]]
