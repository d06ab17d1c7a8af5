# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.bots.pisti_bots`
============================

Pişti bots: ``make(level, rng)`` for ``random``, ``greedy``, ``acemi``,
``kalfa`` and ``usta``. Every bot decides from its seat's observation only
(T-5); every random choice goes through ``rng.randrange``.

Reference bots, defined exactly so that measurements compare across time:

* ``random``: a uniformly random legal card.
* ``greedy``: capture when possible (P-7), with a card of the pile top's rank
  if it holds one, else with a Jack; otherwise the lowest-point non-Jack card
  (P-12 points; ties: lowest rank); a Jack only when nothing else is left.
  Remaining ties go to the lowest card id (``rank * 4 + suit``).

The levels count cards and give every card in hand a one-ply expected value
(points for my side minus theirs):

* a capture: the pile's points, a pişti (P-9), the cards towards the majority
  (P-12), less what a Jack spent would have been worth later; then the other
  side has to lead onto the empty pile: our chance of a pişti;
* any other card: the chance that the next player takes the pile (a card of
  the new top's rank, or a Jack, from the unseen cards and hand sizes) times
  its worth to them, a pişti included; the pişti risk of our next lead when
  they do; our chance to take the pile back when they do not, and (usta)
  the risk of our next card when we cannot; usta also likes to leave a card
  of a rank it holds another of.

``usta`` also reads the opponents (who left a pile this deal probably holds
none of its top rank, nor a Jack if the pile was worth one) and plays the
last two-player deal exactly (:mod:`pisti_core.bots.pisti_end`). ``kalfa``
weighs plainer and reads nobody; ``acemi`` plays kalfa's card three times in
four and a random card otherwise. The bots share one scratch area (they
decide one at a time, not from several threads) and integer arithmetic:
this runs in a small heap.
"""

from pisti_core.cards import PTS  # P-12 card points by card id

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_JACK = const(10)
_LAST = const(47)  # the hand's last ply: no pişti there (P-9)

# Weights, in 1/1024 points or 1/1024 chances (integers: nothing to
# allocate on the device); usta's (two players), kalfa's (acemi's too), usta's (four).
_W = const(0)  # a card towards the majority (P-12)
_JV = const(1)  # a Jack kept for later
_TEMPO = const(2)  # the other side must lead onto an empty pile
_TK = const(3)  # weight of the pişti chances that follow a capture
_JU = const(4)  # chance an opponent spends a Jack on a small pile
_NEXT = const(5)  # weight of our chance to take the pile back
_ER = const(6)  # who left a pile holds its top rank this much as often,
_EJ = const(7)  # ... a Jack when the pile was worth one,
_EJ2 = const(8)  # ... when it was not
_BUDGET = const(9)  # search nodes for the last two-player deal (0: no solver);
# usta's 2600 keeps its worst decision on a Pico under 500 ms and plays as
# well as a larger budget (against kalfa and greedy over duplicate deals).
# usta's other weights from tools/tune.py --spread 0.1
# (tools/botlab/tune_pisti2_local.json), then with _KEEP and _PAIR
# (tools/botlab/tune_pisti2_keep_pair.json); tools/botlab/README.md has
# what each round gains a hand.
_KEEP = const(10)  # the risk of our next card when they leave the pile
_PAIR = const(11)  # leaving a card of a rank we hold another of
# usta's own for four players (partnerships, P-1), from three rounds of
# tools/tune.py --players 4 (README; tools/botlab/tune_pisti4*.json): a Jack
# kept dearer, the empty pile left to the other side worth more, the pile
# taken back (by a partner, after an opponent) counted for less: better in
# 4p than the two-player weights (tools/botlab/README.md).
WEIGHTS = ((19, 2170, 49, 516, 655, 939, 28, 179, 842, 2600, 855, 782),
           (205, 2048, 1024, 0, 614, 512, 1024, 1024, 1024, 0, 0, 0),
           (203, 3576, 734, 255, 720, 393, 167, 462, 529, 2600, 639, 1162))
_NAMES = ("random", "greedy", "acemi", "kalfa", "usta")

# Scratch (one decision at a time): _B[0:52] 1 for a card the seat knows,
# _B[52:65] unseen cards per rank, _B[65:69] unknown cards per hand.
# _F[13x+r] how likely seat x holds rank r (1024: no idea), _F[52+r] chance
# the next player holds rank r, _F[65+x] unseen cards seat x could hold
# (x1024), _F[71:74] the seat sure to hold the bottom card, its rank, the
# pile's points (x1024).
_B = bytearray(69)
_F = [0] * 74


def level_weights(level, players):
    """The weights of level ``level`` (an index of ``_NAMES``) for ``players``."""
    return WEIGHTS[1 if level < 4 else 2 if players == 4 else 0]


def greedy(obs):
    """The ``greedy`` reference bot's card (see the module docstring)."""
    hand = obs.legal()
    if obs.pile_size:
        t = obs.pile[-1] >> 2
        for c in hand:
            if c >> 2 == t:
                return c
        for c in hand:
            if c >> 2 == _JACK:
                return c
    best = -1
    for c in hand:
        if c >> 2 != _JACK and (best < 0 or PTS[c] < PTS[best]
                                or (PTS[c] == PTS[best] and c >> 2 < best >> 2)):
            best = c
    return best if best >= 0 else hand[0]


def _scan(obs, w, read):
    # What the seat knows (T-5: the observation only), and (read) what the
    # others' play says about their hands.
    b = _B
    f = _F
    for i in range(65):
        b[i] = 0
        f[i] = 1024
    for c in obs.hand:
        b[c] = 1
    for c in obs.played:
        b[c] = 1
    for c in obs.revealed:
        b[c] = 1
    for c in obs.hidden_cards:
        b[c] = 1
    b[obs.bottom] = 1
    u = 0
    v = 0
    for c in range(52):
        if not b[c]:
            b[52 + (c >> 2)] += 1
            u += 1
            v += PTS[c]
    me = obs.seat
    n = obs.players
    sure = -1  # P-5: the bottom card reaches the dealer in the last deal
    if obs.stock == 0 and obs.dealer != me and obs.bottom not in obs.played:
        sure = obs.dealer
    f[71] = sure
    f[72] = obs.bottom >> 2
    for x in range(n):
        b[65 + x] = obs.hand_counts[x] - (1 if x == sure else 0)
        f[65 + x] = u << 10
    # The pile's points, face-down centre cards at their expected points.
    v = (obs.hidden * v << 10) // u if obs.hidden and u else 0
    for c in obs.pile:
        v += PTS[c] << 10
    f[73] = v
    if not read:
        return
    # Who left a pile this deal probably holds none of its top rank (nor a
    # Jack if it was worth one); cards dealt later are new: this deal only.
    played = obs.played
    p0 = obs.ply - obs.ply % (4 * n)
    t = obs.revealed[-1] >> 2
    m = 4
    v = 0
    s = (obs.dealer + 1) % n
    for i in range(len(played)):
        c = played[i]
        r = c >> 2
        if m and (r == t or r == _JACK):
            m = 0
            v = 0
        else:
            if m and i >= p0 and s != me:
                f[13 * s + t] = w[_ER]
                e = w[_EJ] if m >= 3 or v >= 2 else w[_EJ2]
                if f[13 * s + _JACK] > e:
                    f[13 * s + _JACK] = e
            m += 1
            t = r
            v += PTS[c]
        s = (s + 1) % n
    for x in range(n):
        if x != me:
            k = 0
            for r in range(13):
                k += b[52 + r] * (1024 - f[13 * x + r])
            f[65 + x] = (u << 10) - k


def _pno(x, r, k=-1):
    # Chance (x1024) that seat x holds no card of rank r (nor of rank k).
    f = _F
    if f[71] == x and (f[72] == r or f[72] == k):
        return 0
    c = _B[52 + r] * f[13 * x + r]
    if k >= 0 and k != r:
        c += _B[52 + k] * f[13 * x + k]
    u = f[65 + x]
    p = 1024
    for i in range(_B[65 + x]):
        d = u - (i << 10)
        if d <= c:
            return 0
        p = p * (d - c) // d
    return p


def _value(obs, c, hand, w):
    # Expected points x1024 (my side minus theirs) of playing c now.
    f = _F
    r = c >> 2
    m = obs.pile_size
    t = obs.pile[-1] >> 2 if m else -1
    v = f[73]
    last = obs.ply == _LAST
    x = (obs.seat + 1) % obs.players
    # What the rest of the hand gives: a Jack? the chance to match (or
    # pişti) what they play next; the risk of our safest lead.
    jack = False
    pair = 0
    mine = 0
    risk = 1024
    done = 0
    for d in hand:
        if d != c:
            q = d >> 2
            if q == r:
                pair = w[_PAIR]
            if q == _JACK:
                jack = True
            elif not (done >> q) & 1:
                done |= 1 << q
                mine += _B[52 + q] * f[13 * x + q]
            if f[52 + q] < risk:
                risk = f[52 + q]
    u = f[65 + x]
    mine = (mine << 10) // u if u > 0 else 0
    wc = w[_W]
    if m and (r == t or r == _JACK):  # P-7 capture
        g = v + (PTS[c] << 10) + wc * (m + 1)
        if m == 1 and r == t and not last:  # P-9
            g += 20480 if r == _JACK else 10240
        if r == _JACK and t != _JACK:
            g -= w[_JV]
        if not last:
            g += w[_TEMPO] + (10 * w[_TK] * mine >> 10)
        return g
    v += PTS[c] << 10
    if last:  # P-11: what is left goes to the last capturer
        g = v + wc * (m + 1)
        return g if obs.last_cap == obs.side else -g if obs.last_cap >= 0 else 0
    pr = f[52 + r]
    if r == _JACK:
        pj = 0
    else:
        pj = 1024 - pr - _pno(x, r, _JACK)
        if m < 2 and v < 2048:
            pj = pj * w[_JU] >> 10
    g = v + wc * (m + 2)  # the pile's worth to whoever takes it
    pc = pr + pj
    k = len(hand)
    if k <= 2:
        risk = 0
    u = -(pr * (g + (20480 if r == _JACK else 10240 if m == 0 else 0)) + pj * (g + 1024)) >> 10
    u -= pc * (w[_TEMPO] + (10 * w[_TK] * risk >> 10)) >> 10
    if r == _JACK:
        u -= w[_JV]
    u += pair
    j = 1024 if jack else mine
    q = ((1024 - pc) * j >> 10) * w[_NEXT] >> 10
    if k > 2:  # they leave it and we cannot take it back: our next card's risk
        e = ((1024 - pc) * (1024 - j) >> 10) * risk >> 10
        u -= (e * (g + wc) >> 10) * w[_KEEP] >> 10
    return u + (q * (g + wc) >> 10)


class Bot:
    """A Pişti bot of level ``_NAMES[level]``; ``w`` replaces its weights
    (``WEIGHTS``: usta's for two players, kalfa's, usta's for four)."""

    def __init__(self, rng, level, w=None):
        self.rng = rng
        self.level = level
        self.w = w  # None: the level's own (usta's by the number of players)

    def choose(self, obs):
        """The card to play."""
        lv = self.level
        rng = self.rng
        if lv == 1:
            return greedy(obs)
        if lv == 0 or (lv == 2 and rng.randrange(4) == 0):  # acemi's slip
            hand = obs.legal()
            return hand[rng.randrange(len(hand))]
        hand = obs.hand  # in hand order; ties go to the lowest card id
        if len(hand) == 1:
            return hand[0]
        w = self.w or level_weights(lv, obs.players)
        _scan(obs, w, lv == 4)
        top = None
        if lv == 4 and obs.players == 2 and obs.stock == 0 and w[_BUDGET]:
            from pisti_core.bots.pisti_end import solve
            top = solve(obs, rng, w[_BUDGET], _B, obs.bottom if _F[71] >= 0 else -1)  # P-5: the dealer holds it
        x = (obs.seat + 1) % obs.players
        for c in hand:
            _F[52 + (c >> 2)] = 1024 - _pno(x, c >> 2)
        best = -1
        bv = 0
        for i in range(len(hand)):
            if top is not None and not top[i]:
                continue  # not among the solver's best: the rest breaks ties
            c = hand[i]
            v = _value(obs, c, hand, w)
            if best < 0 or v > bv or (v == bv and c < best):
                best = c
                bv = v
        return best


def make(level, rng):
    """The Pişti bot for ``level`` (random, greedy, acemi, kalfa, usta)."""
    if level not in _NAMES:
        raise ValueError("unknown Pişti bot level %r" % (level,))
    return Bot(rng, _NAMES.index(level))
