# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Determinized search for Pis Yedili (2 to 4 players), Usta overruled by it:
the Pis Yedili side of ``pimcg...`` (:class:`Guarded`). Desktop only: it
allocates freely and is never deployed.

A world is a whole position that agrees with everything the seat has seen
(T-5: the observation only, never the engine state): its own hand, the
discard pile, the Muamele picks (Y-15), every count and flag of the
observation; the unseen cards (the copies of each card, one or two decks,
Y-1, not in sight) are dealt at random to the other hands (their sizes are
known) and the stock. No card reading yet: every unseen card is as likely
anywhere.

Each legal action is played on each world and the hand played out by a
rollout policy in every seat (``fast``: :func:`fast_action`, a random
playable card, on the engine's lists; ``usta``: the level itself, far
slower); a world's value for an action
is the mean penalty of the others minus the seat's own (penalty avoided, as
the arena counts it). Usta chooses first, with its own generator; the
search's best action replaces Usta's only when its advantage, paired world
by world, is more than ``z`` standard errors.
"""

import random

from pisti_core.bots import make_bot
from pisti_core.bots.yedili_heur import HeuristicBot
from pisti_core.cards import RANK, SUIT
from pisti_core.yedili import DRAW, JACK_BASE, MUAMELE, YediliHand
from pisti_core.yedili_obs import YediliObs

_VAR0 = 0.01  # the least variance of a paired difference (points squared a world)
_MAX_PLIES = 600  # a rollout that goes on longer is cut (none did in testing)


class _World(YediliHand):
    """A YediliHand set up from an observation (no deck replay)."""

    def __init__(self):
        pass


def unseen(obs):
    """The card identities the seat has not seen (each copy once)."""
    count = [obs.decks] * 52
    for c in obs.hand:
        count[c] -= 1
    for c in obs.discard:
        count[c] -= 1
    for m in obs.muamele:
        for c in m:
            count[c] -= 1
    return [c for c in range(52) for _ in range(count[c])]


def world(obs, rng):
    """A YediliHand in the position of ``obs``: the other hands and the stock
    dealt at random from the unseen cards."""
    n = obs.players
    size = 52 * obs.decks
    pool = unseen(obs)
    for i in range(len(pool) - 1, 0, -1):
        j = rng.randrange(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    others = sum(obs.hand_counts) - len(obs.hand)
    assert len(pool) == others + obs.stock, "the observation does not fit a deck"
    w = _World()
    w.players = n
    w.sides = n
    w.dealer = obs.dealer
    w.size = size
    w.actions = bytearray()
    w.hands = [bytearray(size) for _ in range(n)]
    w.hn = bytearray(obs.hand_counts)
    k = 0
    for s in range(n):
        h = w.hands[s]
        if s == obs.seat:
            for i in range(len(obs.hand)):
                h[i] = obs.hand[i]
        else:
            for i in range(obs.hand_counts[s]):
                h[i] = pool[k]
                k += 1
    buf = bytearray(size)  # the stock is buf[pos:]
    w.pos = size - obs.stock
    for i in range(obs.stock):
        buf[w.pos + i] = pool[k + i]
    w.stockbuf = buf
    w.deck = bytes(buf)
    w.discard = bytearray(size)
    for i in range(len(obs.discard)):
        w.discard[i] = obs.discard[i]
    w.dn = len(obs.discard)
    w.named = obs.named
    w.pending = obs.pending
    w.chain = obs.chain
    w.opening = obs.opening
    w.phase = obs.phase
    w.winner = obs.winner
    w.mult = 1  # set when somebody goes out (Y-14): no search after that
    w.picks = obs.picks
    w.muamele = [bytearray(m) for m in obs.muamele]
    w.ply = obs.ply
    w.over = False
    w.turn = obs.turn
    return w


def clone(st):
    """A fast independent copy of a YediliHand (its arrays copied)."""
    o = _World()
    o.__dict__.update(st.__dict__)
    o.hands = [bytearray(h) for h in st.hands]
    o.hn = bytearray(st.hn)
    o.discard = bytearray(st.discard)
    o.stockbuf = bytearray(st.stockbuf)
    o.muamele = [bytearray(m) for m in st.muamele]
    o.actions = bytearray(st.actions)
    return o


def fast_action(st, rng):
    """The ``fast`` rollout policy, on the engine's own lists (no
    observation to build): a random card when one can be played (a Jack
    names the suit the hand holds most of), else draw or pass."""
    acts = st.legal()
    k = len(acts)
    if st.phase == MUAMELE or k == 1:
        return acts[rng.randrange(k)] if k > 1 else acts[0]
    while acts[-1] >= DRAW:  # DRAW and PASS sort last
        acts.pop()
    if not acts:
        return st.legal()[-1]
    a = acts[rng.randrange(len(acts))]
    if a >= JACK_BASE:
        most = [0, 0, 0, 0]
        h = st.hands[st.turn]
        for i in range(st.hn[st.turn]):
            if RANK[h[i]] != 10:
                most[SUIT[h[i]]] += 1
        a = (a & ~3) + most.index(max(most))
    return a


def value(st, seat):
    """The others' mean penalty minus ``seat``'s (Y-14, Y-15)."""
    pen = st.penalties()
    n = st.players
    return (sum(pen) - pen[seat]) / (n - 1) - pen[seat]


class Guarded:
    """``Guarded(rng, worlds, rollout, horizon, z)`` for Pis Yedili: Usta,
    overruled by the search where it is sure (``horizon`` is not used: the
    rollouts go to the hand's end). Its ``usta`` (another one set by the
    lab's ``pimcg.../usta:W...``) is the Usta it overrules, and its weights
    those of the ``u`` rollouts."""

    def __init__(self, rng, worlds=8, rollout="fast", horizon=0, z=2.0):
        self.rng = rng
        self.usta = make_bot("yedili", "usta", rng)
        self.worlds = worlds
        self.rollout = rollout
        self.horizon = horizon
        self.z = z
        self.decisions = 0
        self.overruled = 0

    def _play_out(self, st, seed):
        rng = random.Random(seed)
        bots = None
        if self.rollout == "usta":
            bots = [HeuristicBot("usta", rng, self.usta.w) for _ in range(st.players)]
        k = 0
        while not st.over and k < _MAX_PLIES:
            s = st.turn
            if bots:
                st.play(bots[s].choose(YediliObs(st, s)))
            else:
                st.play(fast_action(st, rng))
            k += 1

    def values(self, obs, acts):
        """Per world, the value of each action of ``acts`` for the seat."""
        rng = random.Random(_key(obs))
        out = []
        for _ in range(self.worlds):
            w = world(obs, rng)
            seed = rng.randrange(1 << 30)
            row = []
            for a in acts:
                st = clone(w)
                st.play(a)
                self._play_out(st, seed)
                row.append(value(st, obs.seat))
            out.append(row)
        return out

    def choose(self, obs):
        """Usta's action, or the search's best when it is clearly better."""
        u = self.usta.choose(obs)
        acts = list(obs.legal())
        if obs.phase == MUAMELE or len(acts) < 2:
            return u  # Y-15 picks are face down: nothing to search
        self.decisions += 1
        rows = self.values(obs, acts)
        k = len(acts)
        tot = [sum(row[i] for row in rows) for i in range(k)]
        ui = acts.index(u)
        best = ui
        for i in range(k):
            if tot[i] > tot[best]:
                best = i
        if best == ui:
            return u
        n = len(rows)
        d = [row[best] - row[ui] for row in rows]
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        var = max(var, _VAR0)
        if mean > 0 and mean * mean * n > self.z * self.z * var:
            self.overruled += 1
            return acts[best]
        return u


def _key(obs):
    """A seed from what the seat has seen (crc32: the same in every process)."""
    from zlib import crc32
    head = bytes([obs.seat, obs.dealer, obs.phase, obs.ply & 255, obs.ply >> 8, obs.turn & 255])
    return crc32(head + bytes(obs.hand) + b"/" + bytes(obs.discard) + bytes(obs.hand_counts))
