# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.bots.pisti_end`
===========================

Exact play of the last two-player deal. Once the stock is empty every card
the seat has not seen is in the opponent's hand, or among the face-down
centre cards the opponent took (P-8). For each way the opponent's hand can
be made from them (a random sample when there are too many to search), an
alpha-beta search over ranks and points (suits matter only through P-12
points) gives each of our cards its exact value; :func:`solve` returns which
cards have the best total.

On MicroPython the search's frames live on the heap, so the heap is
collected just before searching: the frames then sit in one tidy run
instead of splintering the free space.
"""

import gc

from pisti_core.bots.pisti_bots import _B, _F
from pisti_core.pisti import PTS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x

_JACK = const(10)
_LAST = const(47)
_BIG = const(1000)
_MP = hasattr(gc, "mem_free")  # MicroPython and CircuitPython

# Search nodes one opponent hand may cost, by the cards left in both hands.
_COST = b"\x01\x01\x01\x01\x01\x03\x07\x13\x29"  # x16: 16 .. 656


def _search(a, b, turn, t, m, v, lc, dc, ply, alpha, beta, only=-1):
    # Value for the holder of a; turn 1: it moves, -1: the holder of b moves
    # (only: the index of the one card it may play). t, m, v: the pile's top
    # rank, size and points; lc: last capturer (1, -1, 0 none); dc: cards
    # taken, ours minus theirs.
    hand = a if turn > 0 else b
    k = len(hand)
    if not k:
        if lc:  # P-11: what is left goes to the last capturer
            v *= lc
            dc += lc * m
        else:
            v = 0
        return v + (3 if dc > 0 else -3 if dc < 0 else 0)  # P-12 majority
    best = -_BIG if turn > 0 else _BIG
    done = 0  # ranks tried: cards alike in rank and points are tried once
    for cap in (1, 0):  # captures first: better pruning
        for i in range(k):
            c = hand[i]
            r = c >> 2
            if cap != (1 if m and (r == t or r == _JACK) else 0) or (only >= 0 and i != only):
                continue
            if (done >> r) & 1:
                j = 0
                while j < i and (hand[j] >> 2 != r or PTS[hand[j]] != PTS[c]):
                    j += 1
                if j < i:
                    continue
            done |= 1 << r
            hand[i] = hand[k - 1]
            hand.pop()
            if cap:
                g = v + PTS[c]
                if m == 1 and r == t and ply != _LAST:  # P-9
                    g += 20 if r == _JACK else 10
                g = turn * g + _search(a, b, -turn, -1, 0, 0, turn, dc + turn * (m + 1),
                                       ply + 1, alpha, beta)
            else:
                g = _search(a, b, -turn, r, m + 1, v + PTS[c], lc, dc, ply + 1, alpha, beta)
            hand.append(c)
            hand[i], hand[k - 1] = hand[k - 1], hand[i]
            if turn > 0:
                if g > best:
                    best = g
                    if g > alpha:
                        alpha = g
            elif g < best:
                best = g
                if g < beta:
                    beta = g
            if alpha >= beta:
                return best
    return best


def solve(obs, rng, budget):
    """For each card of ``obs.hand``, whether it is among the best in the
    last two-player deal (a list of bools), or None when out of reach.
    Needs ``pisti_bots``' scratch filled for ``obs``; samples with ``rng``."""
    pool = [c for c in range(52) if not _B[c]]  # what the seat has not seen
    n = len(pool)
    sure = obs.bottom if _F[71] >= 0 else -1  # P-5: the dealer holds it
    theirs = [sure] * obs.hand_counts[1 - obs.seat]
    h = len(theirs) - (sure >= 0)
    mine = list(obs.hand)
    k = len(mine)
    if h < 0 or h > n or n > 10:
        return None
    # The opponent's possible hands as bit masks over the pool; a random
    # sample of them when searching all would cost more than the budget.
    hands = []
    for x in range(1 << n):
        j = 0
        y = x
        while y:
            j += y & 1
            y >>= 1
        if j == h:
            hands.append(x)
    keep = budget // (16 * _COST[min(8, k + len(theirs))])
    if len(hands) > keep:
        for i in range(keep):
            j = i + rng.randrange(len(hands) - i)
            hands[i], hands[j] = hands[j], hands[i]
        hands = hands[:keep or 1]
    t = obs.pile[-1] >> 2 if obs.pile_size else -1
    v = 0
    for c in obs.pile:
        v += PTS[c]
    lc = obs.last_cap
    lc = 0 if lc < 0 else 1 if lc == obs.side else -1
    score = [0] * k
    if _MP:  # the search's frames go on the heap (MicroPython): tidy it first
        gc.collect()
    for x in hands:
        j = 0 if sure < 0 else 1
        for i in range(n):
            if (x >> i) & 1:
                theirs[j] = pool[i]
                j += 1
        for i in range(k):
            score[i] += _search(mine, theirs, 1, t, obs.pile_size, v, lc,
                                obs.cards[obs.side] - obs.cards[1 - obs.side], obs.ply,
                                -_BIG, _BIG, i)
    top = max(score)
    return [s == top for s in score]
