# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.bots.yedili_heur`
=============================

The Pis Yedili levels ``acemi``, ``kalfa`` and ``usta``. Every playable card
is scored from the seat's observation alone (T-5) with the level's weights,
and so are drawing and passing; the best score is played, ties broken by
``rng``. Scores are integers in tenths of a penalty point (the RP2040 has no
FPU). What a card is worth:

* its Y-14 value leaving the hand, weighted up with the danger (an opponent
  down to one to three cards, or the stock nearly out, Y-13);
* going out (Y-12) beats everything, on a Jack or 7 first (x2/x3, Y-14);
* a 7 passes the pending draw on (Y-6), more against a short hand and when
  the next seat is unlikely to hold a 7; a 7 kept costs Muamele picks (Y-15);
* an Ace makes every other seat draw (Y-9); an Ace or a twin (Y-10) needs a
  follow-up card, as the player must play again;
* a ten hands the previous seat a turn (Y-8): bad when that seat is short;
* the chance that the seat moving next cannot answer the card (or the suit a
  Jack names) and must draw, counted from the cards the seat has not seen
  (its hand and the public discard pile; two decks for 3-4 players, Y-1),
  weighed with the hand's value when that seat holds one card (it would go
  out);
* the suits the hand still covers; a Jack kept is worth a little as a wild
  card, nothing at full danger (less than the 25 it costs when caught: in
  duplicate runs, keeping Jacks longer did not help, so they go early).

``acemi`` knows only the values and plays a random playable card two times
in five (its mistakes, through ``rng``); ``kalfa`` also minds Aces, Jacks,
follow-ups and covered suits, but counts no cards and weighs neither the
sevens (the draw they pass on, the Muamele they cost) nor the danger;
``usta`` does all of it. Measured (duplicate, 4 players): see
tests/test_bots_yedili.py and tools/arena.py.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The engine's codes (pisti_core.yedili), repeated: see yedili_bots.
_JACK_BASE = const(64)
_DRAW = const(80)
_PASS = const(81)
_OPENING = const(0)
_AGAIN = const(3)
_MUAMELE = const(4)
_ACE = const(0)
_SEVEN = const(6)
_TEN = const(9)
_JACK = const(10)
_WIN = const(100000)

# Y-14 penalty value by rank (A 2..9 T J Q K); Y-10 plain ranks.
_VALUE = b"\x0b\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x19\x0a\x0a"
_PLAIN = b"\x00\x01\x01\x01\x01\x01\x00\x01\x01\x00\x00\x01\x01"

# Weights: one byte each, in tenths of a penalty point unless said otherwise.
_W_VAL = const(0)  # per value point leaving the hand
_W_VALD = const(1)  # extra per value point at full danger (0: no danger)
_W_JKEEP = const(2)  # a Jack kept as a last resort (calm)
_W_SEVEN = const(3)  # per card the next seat must draw from a 7
_W_SHORT = const(4)  # extra per such card against a hand of 1-3 cards
_W_MUA = const(5)  # a 7 shed: no Muamele picks for it
_W_ACE = const(6)  # per opponent drawing from an Ace
_W_NOFOL = const(7)  # playing again without a follow-up card
_W_TEN = const(8)  # per card missing in a short previous seat (ten)
_W_FAIL = const(9)  # times the chance the next seat cannot answer
_W_COVER = const(10)  # per suit the hand still holds
_W_FOLLOW = const(11)  # 2 players: a card of the same suit or rank kept
_W_DRAW = const(12)  # drawing a card (calm)
_W_MISTAKE = const(13)  # percent: a random playable card instead
_W_COUNT = const(14)  # 1: count the unseen cards, 0: assume none seen
_W_NAME = const(15)  # naming a suit: per card of it held
_W_BLOCK = const(16)  # tenths of the hand's value: a one-card seat answering

# Rows, in the order of the _W_ names above:
#   acemi 10  0 120  0  0  0  0   0  0   0  0  0 120 40 0 10  0
#   kalfa 10  0 100  0  0  0 20 100  0   0 30 20 120  0 0 10  0
#   usta   2 13  61 12 12 70 45 147 43  95 37  5 125  0 1  9 79
# usta's from tools/tune.py --game yedili --players 4
# (tools/botlab/tune_yedili4_wide.json): the tuned row avoids more penalty
# points a hand than the hand-set row the tuning starts from, in 2, 3 and
# 4 players (tools/botlab/README.md has the duplicate-deal figures).
LEVELS = {
    "acemi": b"\x0a\x00\x78\x00\x00\x00\x00\x00\x00\x00\x00\x00\x78\x28\x00\x0a\x00",
    "kalfa": b"\x0a\x00\x64\x00\x00\x00\x14\x64\x00\x00\x1e\x14\x78\x00\x00\x0a\x00",
    "usta": b"\x02\x0d\x3d\x0c\x0c\x46\x2d\x93\x2b\x5f\x25\x05\x7d\x00\x01\x09\x4f",
}

# Scratch shared by every bot (one decides at a time): unseen copies per
# identity [0:52], unseen non-Jacks per suit [52:56], unseen per rank
# [56:69], own non-Jacks per suit [69:73].
_B = bytearray(73)
_US = const(52)
_UR = const(56)
_HS = const(69)


def _pfail(m, total, k):
    # Per mille: the chance that k of ``total`` unseen cards miss all of m.
    if k <= 0:
        return 1000
    if m >= total:
        return 0
    q = 1000 - m * 1000 // total
    p = 1000
    while k:
        p = p * q // 1000
        k -= 1
    return p


def playable(legal):
    """The distinct card identities among ``legal`` (sorted) actions: the
    non-Jack cards, then each Jack once (its four naming actions are one
    card)."""
    out = []
    for a in legal:
        if a < 52:
            out.append(a)
        elif _JACK_BASE <= a < _JACK_BASE + 16 and not a & 3:
            out.append(40 + ((a - _JACK_BASE) >> 2))
    return out


def pick(seq, rng):
    """A uniformly random item of ``seq``; ``rng`` is used only when there is
    a choice to make."""
    return seq[rng.randrange(len(seq))] if len(seq) > 1 else seq[0]


class HeuristicBot:
    """``HeuristicBot(level, rng, weights=None)``; ``weights`` (17 ints, see
    the ``_W_*`` names) default to the level's row of :data:`LEVELS`."""

    def __init__(self, level, rng, weights=None):
        if level not in LEVELS:
            raise ValueError("unknown Pis Yedili level %r (acemi, kalfa or usta)" % (level,))
        self.level = level
        self.rng = rng
        self.w = LEVELS[level] if weights is None else weights

    def choose(self, obs):
        """The action this level takes in ``obs``."""
        legal = obs.legal()
        rng = self.rng
        if obs.phase == _MUAMELE:  # Y-15: the positions are face down
            return pick(legal, rng)
        if len(legal) == 1:
            return legal[0]
        w = self.w
        cards = playable(legal)
        if cards and w[_W_MISTAKE] and rng.randrange(100) < w[_W_MISTAKE]:
            c = pick(cards, rng)
            return _JACK_BASE + (c & 3) * 4 + rng.randrange(4) if c >> 2 == _JACK else c
        if obs.phase == _OPENING:  # Y-3: no effects; shed the highest plain club
            best = max([_VALUE[c >> 2] for c in cards])
            return pick([c for c in cards if _VALUE[c >> 2] == best], rng)
        total, dg, value = self._count(obs)
        n = obs.players
        nxt = (obs.chain + 1) % n if obs.chain >= 0 else (obs.seat + 1) % n  # Y-8
        best = -_WIN * 10
        ties = []
        for c in cards:
            sc, a = self._card(obs, c, nxt, total, dg, value)
            if sc > best:
                best = sc
                ties = [a]
            elif sc == best:
                ties.append(a)
        for a in (_DRAW, _PASS):
            if a in legal:
                if a == _PASS:
                    sc = 0  # the hand stays as it is after the draw
                elif obs.pending or obs.phase == _AGAIN:
                    sc = -_WIN  # forced: nothing playable (Y-6, Y-9)
                else:
                    sc = -w[_W_DRAW] * (10 + dg) // 10
                if sc > best:
                    best = sc
                    ties = [a]
                elif sc == best:
                    ties.append(a)
        return pick(ties, rng)

    def _count(self, obs):
        # Fill _B from what the seat has seen; (unseen total, danger 0..10, hand value).
        b = _B
        d = obs.decks
        for c in range(52):
            b[c] = d
        for i in range(52, 73):
            b[i] = 0
        value = 0
        for c in obs.hand:
            b[c] -= 1
            value += _VALUE[c >> 2]
            if c >> 2 != _JACK:
                b[_HS + (c & 3)] += 1
        if self.w[_W_COUNT]:
            for c in obs.discard:
                if b[c]:
                    b[c] -= 1
        total = 0
        for c in range(52):
            k = b[c]
            if k:
                b[_UR + (c >> 2)] += k
                if c >> 2 != _JACK:
                    b[_US + (c & 3)] += k
                total += k
        if not self.w[_W_VALD]:
            return total, 0, value
        kmin = 99
        counts = obs.hand_counts
        for s in range(obs.players):
            if s != obs.seat and counts[s] < kmin:
                kmin = counts[s]
        dg = 10 if kmin <= 1 else 5 if kmin == 2 else 2 if kmin == 3 else 0
        if obs.stock <= 4:
            dg = 10
        elif obs.stock <= 10 and dg < 5:
            dg = 5
        return total, dg, value

    def _card(self, obs, c, nxt, total, dg, value):
        # (score, action) of playing card identity c.
        w = self.w
        b = _B
        hand = obs.hand
        n = obs.players
        counts = obs.hand_counts
        r = c >> 2
        s = c & 3
        again = r == _ACE or (_PLAIN[r] and obs.top == c)  # Y-9, Y-10
        a = c
        if r == _JACK:  # Y-7: name a suit the hand holds and the next seat lacks
            best = -_WIN
            for i in range(4):
                sc = w[_W_NAME] * b[_HS + i]
                if w[_W_FAIL]:
                    sc += w[_W_FAIL] * _pfail(b[_US + i] + b[_UR + _JACK], total,
                                              counts[nxt]) // 1000
                if sc > best:
                    best = sc
                    ties = [i]
                elif sc == best:
                    ties.append(i)
            s = pick(ties, self.rng)
            a = _JACK_BASE + (c & 3) * 4 + s
        if len(hand) == 1 and not again:  # Y-12: going out
            return _WIN + (1 if r == _JACK or r == _SEVEN else 0), a
        sc = _VALUE[r] * (w[_W_VAL] * 10 + w[_W_VALD] * dg) // 10
        fol = 0  # cards left that answer this one: its suit or rank, a Jack
        skip = c
        for x in hand:
            if x == skip:
                skip = -1
            elif x >> 2 == _JACK or (x & 3) == s or (r != _JACK and x >> 2 == r):
                fol += 1
        if again:
            if r == _ACE:
                sc += w[_W_ACE] * (n - 1)
            if not fol:
                sc -= w[_W_NOFOL]
        if r == _JACK:
            sc -= w[_W_JKEEP] * (10 - dg) // 10
        elif r == _SEVEN:
            k = counts[nxt]
            no7 = _pfail(b[_UR + _SEVEN], total, k) if w[_W_COUNT] else 600
            sc += (w[_W_SEVEN] + (w[_W_SHORT] if k <= 3 else 0)) * (obs.pending + 3) * no7 // 1000
            sc += w[_W_MUA]
        elif r == _TEN and n > 2 and counts[(obs.seat - 1) % n] <= 2:  # Y-8
            sc -= w[_W_TEN] * (3 - counts[(obs.seat - 1) % n])
        # m: the unseen cards that answer this one (Y-4, Y-6).
        if r == _SEVEN:
            m = b[_UR + _SEVEN]
        else:
            m = b[_US + s] + b[_UR + _JACK]
            if r != _JACK:
                m += b[_UR + r] - b[c]
        t = (obs.seat - 1) % n if r == _TEN and n > 2 else nxt  # who answers (Y-8)
        if w[_W_FAIL] and r != _SEVEN and not again:
            sc += w[_W_FAIL] * _pfail(m, total, counts[t]) // 1000
        if w[_W_BLOCK]:  # a seat down to one card moving next could go out
            hv = value - _VALUE[r]
            if again:
                if r == _ACE:  # Y-9: every other seat draws one
                    for i in range(n):
                        if i != obs.seat and counts[i] == 1:
                            sc += w[_W_BLOCK] * hv // 10
            elif counts[t] == 1:
                sc -= w[_W_BLOCK] * hv * (1000 - _pfail(m, total, 1)) // 10000
        if w[_W_COVER]:
            for i in range(4):
                if b[_HS + i] > (1 if (i == s and r != _JACK) else 0):
                    sc += w[_W_COVER]
        if n == 2 and fol:
            sc += w[_W_FOLLOW]
        return sc, a
