# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Determinized search (PIMC) for Pişti, 2 players or 4 in partnerships.
Desktop only: it allocates freely and is never deployed.

For each decision the bot samples ``worlds`` complete decks that agree with
everything its seat has seen (T-5: the observation only, never the engine
state), replays the hand's actions on each, and scores every card in hand
on every world; the card with the best total is played.

Worlds (card memory and inference):

* Known cards keep their deck positions: the seat's own cards (in hand and
  played), every played card in the block it was dealt in, the centre cards
  turned face up (P-5), the bottom card ``deck[51]`` (P-5, so the dealer
  holds it in the last deal), and the face-down centre cards only when the
  seat's side took them (P-8).
* The unseen cards fill the other positions. The other seats' current hands
  are drawn first, card by card, weighted by what their play this deal says
  (``_ER``: a seat that left a pile on the table without taking it holds its
  top rank that much as often; ``_EJ`` / ``_EJ2``: a Jack, when the pile was
  worth one / not); the stock and the face-down cards get the rest at random.

Leaves: in the last two-player deal (stock empty) every world is solved
exactly with the endgame search of :mod:`pisti_core.bots.pisti_end` (both
hands are known in a world). Earlier, each card is played on a copy of the
world and the hand is played out by a rollout policy: ``fast`` (a
clairvoyant capture-first heuristic written on the engine's arrays, ~40 µs
a rollout) or ``usta`` (the Usta bot in every seat, ~100x slower). The
rollout switches to the exact solver when a two-player rollout has at most
``_TAIL`` cards left in the last deal (``solve_tail``; more cost ~6 ms a
solve). All candidates of a world share its rollout
seeds (common random numbers), so their differences are less noisy.

Names (tools/arena.py): ``pimc64`` (64 worlds, fast rollouts),
``pimcu16`` (16 worlds, Usta rollouts); any ``pimcN`` / ``pimcuN``.

:class:`Guarded` (``pimcg...``, e.g. ``pimcgu16h1``) is Usta improved by
the search: a rollout step over Usta's play (with Usta rollouts, the
textbook policy-improvement step), taken only where the search is sure
(paired over the worlds, ``z`` standard errors), so it is never much
weaker than Usta and each of its departures from Usta is visible.
"""

import random

from pisti_core.bots.pisti_bots import Bot, PTS, greedy, level_weights
from pisti_core.pisti import PistiHand

_JACK = 10
_LAST = 47
_TAIL = 5  # cards left in both hands when a rollout hands over to the solver

# Inference weights (chances relative to a card nothing is known about).
_ER = 0.08
_EJ = 0.3
_EJ2 = 0.85


class _World(PistiHand):
    """A PistiHand copied by hand (no replay): rollouts need many copies."""

    def __init__(self):
        pass


def clone(st):
    """A fast independent copy of a PistiHand (its arrays copied)."""
    o = _World()
    o.__dict__.update(st.__dict__)
    o.table = list(st.table)
    o.capt = bytearray(st.capt)
    o.hands = list(st.hands)
    o.hn = list(st.hn)
    o.actions = bytearray(st.actions)
    o.cards = list(st.cards)
    o.pts = list(st.pts)
    o.pistis = list(st.pistis)
    o.jpistis = list(st.jpistis)
    return o


def inference(obs):
    """Per other seat, a 52-list of weights for the cards of its current
    hand, read from its play this deal (the observation only)."""
    n = obs.players
    me = obs.seat
    w = [[1.0] * 52 for _ in range(n)]
    played = obs.played
    p0 = obs.ply - obs.ply % (4 * n)  # first ply of the current deal
    rev = obs.revealed
    t = rev[0] >> 2 if rev else -1  # the top of the centre: deck[3] (P-5)
    m = 4
    v = 0
    for c in rev:
        v += PTS[c]
    s = (obs.dealer + 1) % n
    for i in range(len(played)):
        c = played[i]
        r = c >> 2
        if m and (r == t or r == _JACK):
            m = 0
            v = 0
            t = -1
        else:
            if m and i >= p0 and s != me:
                row = w[s]
                for k in range(4):
                    row[4 * t + k] *= _ER
                if t != _JACK:
                    e = _EJ if (m >= 3 or v >= 2) else _EJ2
                    for k in range(4):
                        row[40 + k] *= e
            m += 1
            t = r
            v += PTS[c]
        s = (s + 1) % n
    return w


def skeleton(obs):
    """What the seat knows of the deck: (deck with -1 where unseen, the
    unseen cards, per other seat the deck positions of its current hand
    that are unseen)."""
    n = obs.players
    dealer = obs.dealer
    deck = [-1] * 52
    known = bytearray(52)

    def put(p, c):
        deck[p] = c
        known[c] = 1

    rev = obs.revealed
    for i in range(len(rev)):  # P-5: up = deck[3], deck[2], ...
        put(3 - i, rev[i])
    for i in range(len(obs.hidden_cards)):  # P-8: only once our side took them
        put(i, obs.hidden_cards[i])
    put(51, obs.bottom)
    per = 4 * n
    cur = obs.ply // per

    def block(k, s):  # the first deck position of seat s's cards in deal k
        return 4 + per * k + 4 * ((s - dealer - 1) % n)

    fill = {}  # (deal, seat) -> next free offset

    def place(k, s, c):
        if known[c]:
            return  # the bottom card, already at 51
        b = block(k, s)
        j = fill.get((k, s), 0)
        while deck[b + j] >= 0:
            j += 1
        put(b + j, c)
        fill[(k, s)] = j + 1

    played = obs.played
    for i in range(len(played)):
        place(i // per, (dealer + 1 + i) % n, played[i])
    for c in obs.hand:
        place(cur, obs.seat, c)
    pool = [c for c in range(52) if not known[c]]
    slots = []
    for s in range(n):
        b = block(cur, s)
        slots.append([] if s == obs.seat else [p for p in range(b, b + 4) if deck[p] < 0])
    return deck, pool, slots


def sample_deck(obs, rng, weights=None, skel=None):
    """A full deck (top first) that agrees with ``obs``; the other seats'
    current hands drawn with ``weights`` (from :func:`inference`)."""
    deck, pool, slots = skel or skeleton(obs)
    deck = list(deck)
    pool = list(pool)
    rng_r = rng.random
    if weights is not None:
        for s in range(obs.players):
            row = weights[s]
            for p in slots[s]:
                tot = 0.0
                for c in pool:
                    tot += row[c]
                x = rng_r() * tot
                j = 0
                last = len(pool) - 1
                while j < last:
                    x -= row[pool[j]]
                    if x < 0:
                        break
                    j += 1
                c = pool[j]
                pool[j] = pool[last]
                pool.pop()
                deck[p] = c
    # The rest at random (Fisher-Yates with rng.randrange).
    for i in range(len(pool) - 1, 0, -1):
        j = rng.randrange(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    k = 0
    for p in range(52):
        if deck[p] < 0:
            deck[p] = pool[k]
            k += 1
    assert k == len(pool), "the observation does not fit a deck"
    return bytes(deck)


def world(obs, rng, weights=None, skel=None):
    """A PistiHand in the position of ``obs`` on a sampled deck."""
    st = PistiHand(obs.players, obs.dealer, sample_deck(obs, rng, weights, skel))
    for a in obs.played:
        st.play(a)
    return st


def _take(st, h, b, e, n):
    """The card both rollout policies play first, or -1: the last card in
    hand, one of the pile's top rank, or a Jack on a pile worth it."""
    if e - b == 1:
        return h[b]
    if n:
        t = st.table[st.tn - 1] >> 2
        jack = -1
        for i in range(b, e):
            r = h[i] >> 2
            if r == t:
                return h[i]
            if r == _JACK:
                jack = h[i]
        if jack >= 0 and (n >= 3 or st.pile_pts >= 2 or t == _JACK):
            return jack
    return -1


def fast_card(st):
    """The clairvoyant rollout policy: take a pişti or a pile with a card of
    its rank; a Jack on a pile worth it; otherwise a card the next player
    cannot take, fewest points first; Jacks last."""
    s = st.turn
    h = st.hands
    b = s * 4
    e = b + st.hn[s]
    n = st.tn - st.tbase
    c = _take(st, h, b, e, n)
    if c >= 0:
        return c
    x = (s + 1) % st.players
    xb = x * 4
    xe = xb + st.hn[x]
    xr = 0
    for i in range(xb, xe):
        xr |= 1 << (h[i] >> 2)
    best = -1
    bv = 1 << 30
    for i in range(b, e):
        c = h[i]
        r = c >> 2
        v = PTS[c] * 4 + (r == _JACK) * 64
        if (xr >> r) & 1:
            v += 200 if n == 0 else 40 + 8 * n
        elif (xr >> _JACK) & 1 and n:
            v += 8 * n
        if v < bv:
            bv = v
            best = c
    return best


def fair_card(st, seen):
    """The rollout policy that does not peek: take a pişti or a pile with a
    card of its rank, a Jack on a pile worth it; otherwise lead the card
    whose rank has the fewest copies out of sight (``seen[r]``: copies of
    rank r played so far, plus the mover's own), fewest points first."""
    s = st.turn
    h = st.hands
    b = s * 4
    e = b + st.hn[s]
    n = st.tn - st.tbase
    c = _take(st, h, b, e, n)
    if c >= 0:
        return c
    own = [0] * 13
    for i in range(b, e):
        own[h[i] >> 2] += 1
    best = -1
    bv = 1 << 30
    for i in range(b, e):
        c = h[i]
        r = c >> 2
        out = 4 - seen[r] - own[r]
        v = PTS[c] * 4 + (r == _JACK) * 64 + out * (24 if n == 0 else 6 + n)
        if v < bv:
            bv = v
            best = c
    return best


def end_value(st, side):
    """Final points of ``side`` minus the other side's."""
    p = st.points()
    return p[side] - p[1 - side]


_WCARD = 0.2  # a card taken, towards the majority (P-12), in a truncated rollout


def leaf_value(st, side):
    """A deal boundary's value for ``side``: points so far and the cards
    towards the majority; the pile on the table is anybody's."""
    p = st.pts
    c = st.cards
    return p[side] - p[1 - side] + _WCARD * (c[side] - c[1 - side])


def solve_rest(st, side):
    """The exact value (``side`` minus other) of a two-player position in
    the last deal with both hands known (the endgame search)."""
    from array import array
    from pisti_core.bots.pisti_end import _search
    s = st.turn
    mine = list(st.hand(s))
    theirs = list(st.hand(1 - s))
    k = len(mine)
    m = st.tn - st.tbase
    t = st.table[st.tn - 1] >> 2 if m else -1
    v = st.pile_pts
    lc = st.last_cap
    lc = 0 if lc < 0 else 1 if lc == (s & 1) else -1
    dc = st.cards[s & 1] - st.cards[1 - (s & 1)]
    score = [0] * k
    stk = array("h", range(9 * (k + len(theirs))))
    _search(mine, theirs, t, m, v, lc, dc, st.ply, stk, score)
    best = max(score)
    # The search scores what is still to come (pile, majority); add what
    # the sides already have.
    got = st.pts[s & 1] - st.pts[1 - (s & 1)] + best
    return got if (s & 1) == side else -got


class Pimc:
    """``Pimc(rng, worlds, rollout="fast")``: a PIMC Pişti bot."""

    def __init__(self, rng, worlds=64, rollout="fast", infer=True, solve_tail=True,
                 horizon=0):
        self.rng = rng
        self.worlds = worlds
        self.rollout = rollout
        self.infer = infer
        self.solve_tail = solve_tail
        self.horizon = horizon  # deals a rollout plays out (0: to the hand's end)
        self._usta = None

    def _play_out(self, st, side, rng):
        pol = self.rollout
        if pol == "usta":
            if self._usta is None:
                w = list(level_weights(4, st.players))  # usta's for this game
                w[9] = 0  # no endgame solver inside rollouts: solve_rest does it
                self._usta = Bot(rng, 4, tuple(w))
            bot = self._usta
            bot.rng = rng
        tail = self.solve_tail and st.players == 2
        stop = 53
        if self.horizon:  # stop once this many deals are over (the stock's position)
            stop = st.pos + self.horizon * 4 * st.players
        if pol == "fair":
            seen = [0] * 13
            tb = st.table
            for i in range(st.hidden0 if st.hidden else 0, st.tn):
                seen[tb[i] >> 2] += 1
        while not st.over:
            if st.pos >= stop and st.ply == st.end - 4 * st.players:
                return leaf_value(st, side)
            if tail and st.pos == 52 and 2 <= st.hn[0] + st.hn[1] <= _TAIL:
                return solve_rest(st, side)
            if pol == "fast":
                c = fast_card(st)
            elif pol == "fair":
                c = fair_card(st, seen)
                seen[c >> 2] += 1
            elif st.hn[st.turn] == 1:  # a last card needs no observation
                c = st.hands[st.turn * 4]
            elif pol == "greedy":
                c = greedy(st.observe(st.turn))
            else:
                c = bot.choose(st.observe(st.turn))
            st.play(c)
        return end_value(st, side)

    def scores(self, obs):
        """Total value per card of ``obs.hand`` (hand order) over the worlds."""
        tot = [0.0] * len(obs.hand)
        for row in self.values(obs):
            for i in range(len(row)):
                tot[i] += row[i]
        return tot

    def values(self, obs):
        """Per world, the value of each card of ``obs.hand`` (hand order)."""
        hand = obs.hand
        rng = self.rng
        wts = inference(obs) if self.infer else None
        side = obs.side
        skel = skeleton(obs)
        out = []
        for _ in range(self.worlds):
            w = world(obs, rng, wts, skel)
            seed = rng.randrange(1 << 30)
            row = [0.0] * len(hand)
            out.append(row)
            if obs.players == 2 and obs.stock == 0 and self.solve_tail:
                for i in range(len(hand)):
                    st = clone(w)
                    st.play(hand[i])
                    if st.over:
                        row[i] = end_value(st, side)
                    else:
                        row[i] = solve_rest(st, side)
                continue
            for i in range(len(hand)):
                st = clone(w)
                st.play(hand[i])
                row[i] = self._play_out(st, side, random.Random(seed))
        return out

    def choose(self, obs):
        """The card to play: the best total over the sampled worlds."""
        hand = obs.hand
        if len(hand) == 1:
            return hand[0]
        tot = self.scores(obs)
        best = 0
        for i in range(1, len(hand)):
            if tot[i] > tot[best] or (tot[i] == tot[best] and hand[i] < hand[best]):
                best = i
        return hand[best]


_VAR0 = 0.01  # the least variance of a paired difference (points squared a world)


def _key(obs):
    """A seed from what the seat has seen (crc32: the same in every process)."""
    from zlib import crc32
    return crc32(bytes(obs.played) + b"/" + bytes(obs.hand) + bytes([obs.seat, obs.dealer]))


class Guarded:
    """``Guarded(rng, worlds, rollout, horizon, z, first)``: Usta, overruled
    by the search. Each decision Usta chooses (with ``rng``, exactly as a
    plain Usta would: where the search agrees, the play is Usta's to the
    last draw); the search values every card on the same worlds (its own
    generator, seeded by what the seat has seen), and plays its best card
    instead only when that card's advantage over Usta's, paired world by
    world, is more than ``z`` standard errors above zero.

    ``first`` (0: all ``worlds`` at once) makes the search sequential: it
    starts with ``first`` worlds and doubles them up to ``worlds`` only
    while the best card's advantage is promising (more than ``_GO``
    standard errors, and not yet ``z``); the decision is taken on all the
    worlds searched. Most decisions agree with Usta on a few worlds, so the
    search spends its worlds where the choice is close."""

    def __init__(self, rng, worlds=16, rollout="usta", horizon=1, z=2.0, first=0):
        self.rng = rng
        self.usta = Bot(rng, 4)
        self.pimc = Pimc(None, worlds, rollout, horizon=horizon)
        self.worlds = worlds
        self.rollout = rollout
        self.horizon = horizon
        self.z = z
        self.first = first if 0 < first < worlds else 0
        self.decisions = 0
        self.overruled = 0
        self.searched = 0  # worlds searched, over all decisions

    def choose(self, obs):
        """Usta's card, or the search's best when it is clearly better."""
        u = self.usta.choose(obs)
        hand = obs.hand
        if len(hand) == 1:
            return u
        self.decisions += 1
        pimc = self.pimc
        pimc.rng = random.Random(_key(obs))
        ui = list(hand).index(u)
        k = len(hand)
        tot = [0.0] * k
        rows = []
        step = self.first or self.worlds
        while True:
            pimc.worlds = min(step, self.worlds - len(rows))
            for row in pimc.values(obs):  # the same generator: the next worlds
                rows.append(row)
                for i in range(k):
                    tot[i] += row[i]
            best = ui
            for i in range(k):
                if tot[i] > tot[best]:
                    best = i
            if best == ui:
                t = 0.0
            else:
                t = _tstat([row[best] - row[ui] for row in rows])
            if t <= _GO or t > self.z or len(rows) >= self.worlds:
                break
            step = len(rows)  # double
        self.searched += len(rows)
        if best != ui and t > self.z:
            self.overruled += 1
            return hand[best]
        return u


_GO = 0.5  # a sequential search goes on while the advantage is this many standard errors


def _tstat(d):
    """Paired mean over its standard error (variance floored by ``_VAR0``)."""
    n = len(d)
    mean = sum(d) / n
    if mean <= 0:
        return 0.0
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    var = max(var, _VAR0)  # the worlds agreeing to the last point are not proof
    return mean / (var / n) ** 0.5
