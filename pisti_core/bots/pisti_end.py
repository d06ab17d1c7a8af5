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

The search keeps its own stack in a small array made once a solve: no
recursion (CircuitPython's pystack, 2 KB by default, holds every frame of
the call chain, and a frame a ply overflowed it) and no allocation a node.
"""

from array import array

from pisti_core.cards import PTS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x

_JACK = const(10)
_LAST = const(47)
_BIG = const(1000)

# Search nodes one opponent hand may cost, by the cards left in both hands.
_COST = b"\x01\x01\x01\x01\x01\x03\x07\x13\x29"  # x16: 16 .. 656


def _search(a, b, t, m, v, lc, dc, ply, st, score):
    # Adds to score[x] the value of playing a[x] first, for the holder of a
    # (b's holder moves next). t, m, v: the pile's top rank, size and points;
    # lc: last capturer (1 a's holder, -1 b's, 0 none); dc: cards taken, a's
    # holder minus b's. Negamax alpha-beta without recursion: g, best, alpha,
    # beta are for the side to move (turn 1: a's holder). A ply down moves
    # the card played to the end of its hand and saves in 9 slots of st (9
    # for each card in a and b) what the ply up cannot work out; each first
    # card has a search of its own, with a full window.
    sp = 0  # where in st the next ply down saves its node
    i = 0  # the move tried: card i of the hand for a capture, i - k otherwise
    turn = 1
    hand = a
    k = na = len(a)  # the mover's cards
    nb = len(b)
    alpha = best = -_BIG
    beta = _BIG
    done = 0  # ranks tried: cards alike in rank and points are tried once
    while True:
        while i < k + k:  # the next move: captures first, better pruning
            x = i if i < k else i - k
            c = hand[x]
            r = c >> 2
            if (i < k) == (m > 0 and (r == t or r == _JACK)) and not (
                    sp and (done >> r) & 1 and _seen(hand, x, c)):
                break
            i += 1
        else:  # every move tried
            g = best
            while sp:  # a ply up: the parent takes the child's value g
                sp -= 9
                i = st[sp]
                t = st[sp + 1]
                alpha = -beta  # the child changed only its alpha: our beta
                beta = st[sp + 2]
                best = st[sp + 3]
                done = st[sp + 4]
                turn = -turn
                if turn > 0:
                    hand = a
                    na += 1
                    k = na
                else:
                    hand = b
                    nb += 1
                    k = nb
                c = hand[k - 1]  # the card played
                if i < k:  # it took the pile
                    x = i
                    m = st[sp + 5]
                    v = st[sp + 6]
                    lc = st[sp + 7]
                    dc -= turn * (m + 1)
                    g = st[sp + 8] - g
                else:
                    x = i - k
                    m -= 1
                    v -= PTS[c]
                    g = -g
                hand[k - 1] = hand[x]
                hand[x] = c
                if not sp:
                    score[x] += g
                    break
                if g > best:
                    best = g
                    if g > alpha:
                        alpha = g
                if alpha < beta:
                    break
                g = best  # a cut-off: this node is done too
            else:
                return
            i += 1
            continue
        done |= 1 << r  # a ply down: play c
        st[sp] = i
        st[sp + 1] = t
        st[sp + 2] = beta
        st[sp + 3] = best
        st[sp + 4] = done
        hand[x] = hand[k - 1]
        hand[k - 1] = c
        if i < k:
            g = _took(c, t, m, v, ply + sp // 9)
            st[sp + 5] = m
            st[sp + 6] = v
            st[sp + 7] = lc
            st[sp + 8] = g
            dc += turn * (m + 1)
            lc = turn
            t = -1
            m = 0
            v = 0
        else:
            t = r
            m += 1
            v += PTS[c]
        alpha, beta = -beta, -alpha
        sp += 9
        if turn > 0:
            na -= 1
            hand = b
            k = nb
        else:
            nb -= 1
            hand = a
            k = na
        turn = -turn
        best = -_BIG
        done = 0
        i = 0
        if not k:  # no card to play: the deal is over
            best = turn * _end(v, lc, dc + lc * m)


def _end(v, lc, dc):
    # The last points of the deal: what is left on the pile goes to the
    # last capturer (P-11), the majority of cards (P-12).
    return v * lc + (3 if dc > 0 else -3 if dc < 0 else 0)


def _took(c, t, m, v, ply):
    # The points of taking a pile of m cards, v points, top rank t with c.
    r = c >> 2
    if m == 1 and r == t and ply != _LAST:  # P-9
        v += 20 if r == _JACK else 10
    return v + PTS[c]


def _seen(hand, x, c):
    # Whether a card before hand[x] is alike c in rank and points.
    for j in range(x):
        if hand[j] >> 2 == c >> 2 and PTS[hand[j]] == PTS[c]:
            return True
    return False


def _hands(n, h, keep, rng):
    # The opponent's possible hands, bit masks over the n cards of the pool
    # with h bits, in increasing order (Gosper's hack: the next one with h
    # bits); a random sample of keep of them first when there are more.
    e = 1
    for i in range(h):
        e = e * (n - i) // (i + 1)
    hands = array("h", range(e))
    x = (1 << h) - 1
    for i in range(e):
        hands[i] = x
        if x:
            j = x & -x
            y = x + j
            x = (((x ^ y) >> 2) // j) | y
    if e > keep:
        for i in range(keep):
            j = i + rng.randrange(e - i)
            hands[i], hands[j] = hands[j], hands[i]
    return hands


def solve(obs, rng, budget, known, sure):
    """For each card of ``obs.hand``, whether it is among the best in the
    last two-player deal (a list of bools), or None when out of reach.
    ``known[c]`` is true for a card the seat has seen; ``sure`` is the card
    the other seat surely holds (the bottom card, P-5) or -1. Samples the
    other hand with ``rng``."""
    pool = []  # what the seat has not seen
    for c in range(52):
        if not known[c]:
            pool.append(c)
    n = len(pool)
    theirs = [sure] * obs.hand_counts[1 - obs.seat]
    h = len(theirs) - (sure >= 0)
    mine = list(obs.hand)
    k = len(mine)
    if h < 0 or h > n or n > 10:
        return None
    keep = budget // (16 * _COST[min(8, k + len(theirs))])
    hands = _hands(n, h, keep, rng)
    e = len(hands)
    if e > keep:  # a sample when searching all would cost more than the budget
        e = keep or 1
    t = obs.pile[-1] >> 2 if obs.pile_size else -1
    v = 0
    for c in obs.pile:
        v += PTS[c]
    lc = obs.last_cap
    lc = 0 if lc < 0 else 1 if lc == obs.side else -1
    m = obs.pile_size
    dc = obs.cards[obs.side] - obs.cards[1 - obs.side]
    ply = obs.ply
    score = [0] * k
    st = array("h", range(9 * (k + len(theirs))))  # the search's stack
    for y in range(e):
        x = hands[y]
        j = 0 if sure < 0 else 1
        for i in range(n):
            if (x >> i) & 1:
                theirs[j] = pool[i]
                j += 1
        _search(mine, theirs, t, m, v, lc, dc, ply, st, score)
    top = max(score)
    for i in range(k):
        score[i] = score[i] == top
    return score
