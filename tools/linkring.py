# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Two to four consoles in a ring under faults (``tools/linktest.py
--consoles 3``): the ring's real code (``pisti_core.ringgame.RingLock``
over ``pisti_core.ringnet``) on a virtual clock (30 ms ticks), console
``i``'s first UART joined to console ``i+1``'s second by a
``tools/shims/uart.py`` cable that loses, flips and adds bytes; cable cuts
on any cable (up to two at once, each up to a minute), power cuts on any
console (it boots from its save: its ring id, key, table and record,
saved at the end of every tick, so before anything it decided is sent),
and silent changes of a guest's totals (L-5).

The host offers a random table once it hears every console: Pişti 4p,
Pis Yedili 2-4p, two to all the consoles seated as people (a console left
out only passes frames on), the rest bots; the people and the host's bots
choose random legal actions. Counted as in linktest: ``desyncs`` (digests
still apart a minute and an action after a moment with every seated
console in play at one place found them apart, or records apart at a
match's end), ``lost`` (a person who left, a match not ended alike),
``faults`` (exceptions, a failed ring, a match wedged for 10 virtual
minutes); and ``resends`` (frames sent again on a cable), ``repairs``
(records asked for or sent), ``forwarded`` (messages passed on round the
ring), ``trimmed`` (dropped from the queue of a cable whose neighbour is
not heard), ``pruned`` (dropped from a queue because the neighbour sent
the same), ``garbled`` (messages that did not parse: damage a frame's
CRC-16 missed), ``cable_cuts``, ``power_cuts``, ``tampered``.
"""

import random
import sys
import traceback

from pisti_core import linkrec
from pisti_core import ringproto as R
from pisti_core import ringview as V
from pisti_core.ringgame import RingLock
from tools.shims.uart import Cable

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
TICK = 30
WEDGED_MS = 600000
DESYNC_MS = 60000
SETTLE_MS = 60000


class Console:
    """One console of the ring: its RingLock, its save and its random source."""

    def __init__(self, idx, role, ports, rng, now):
        self.idx = idx
        self.role = role
        self.ports = ports
        self.rng = rng
        self.key = self.urandom(16)
        self.lock = RingLock(ports, role, "linktest", now, None, self.key, LEVELS, self.urandom)
        self.save = None  # (table, record or None): what its flash holds once the game is on
        self.mark = None
        self.boots = 0
        self.resends = 0
        self.repairs = 0
        self.garbled = 0

    @property
    def me(self):
        """The console's ring id (kept across its boots, as the app keeps it)."""
        return self.lock.me

    def urandom(self, n):
        return bytes(self.rng.randrange(256) for _ in range(n))

    def keep(self):
        """Save as the app would: the game once every person joined (saved
        again when its hand, its actions or its match changed)."""
        lk = self.lock
        if lk.started and lk.phase != R.LEFT:
            m = lk.match
            h = None if m is None else m.hand
            mark = (lk.setup, m, lk.hands_done, h, 0 if h is None else len(h.actions), None if m is None else m.over)
            if mark != self.mark:
                self.mark = mark
                self.save = (lk.setup, None if m is None else linkrec.record(m, lk.hands_done, lk.rot))

    def power_cut(self, now):
        """Off and on again: the UARTs forget; the console boots from its save."""
        for p in self.ports:
            p.power_cut()
        old = self.lock
        self.resends += old.net.resends()
        self.repairs += old.repairs
        self.garbled += old.garbled
        self.boots += 1
        if self.save is not None:
            self.lock = RingLock.resume(self.ports, self.role, "linktest", now, self.me, self.key, self.save[0],
                                        self.save[1], LEVELS, self.urandom, old.net.ses)
        else:
            self.lock = RingLock(self.ports, self.role, "linktest", now, self.me, self.key, LEVELS, self.urandom,
                                 old.net.ses)


def modes(n):
    """(game, players, people) tables for ``n`` consoles."""
    out = []
    for game, counts in (("pisti", (4,)), ("yedili", (2, 3, 4))):
        for players in counts:
            for people in range(2, min(n, players) + 1):
                out.append((game, players, people))
    return out


def play(args, st):
    """Whole matches until ``args.actions``; counts into ``st``."""
    rng = random.Random(args.seed)
    clock = [0]
    corrupt = args.loss / 5 if args.corrupt is None else args.corrupt
    st.update({"consoles": args.consoles, "forwarded": 0, "trimmed": 0, "pruned": 0, "garbled": 0})
    table = modes(args.consoles)
    mode_i = rng.randrange(len(table))
    while st["actions"] < args.actions:
        mode = table[mode_i % len(table)]
        mode_i += 1
        n = args.consoles
        cables = [Cable(lambda: clock[0], loss=args.loss, corrupt=corrupt, noise=args.loss / 10,
                        delay_ms=rng.choice((0, 1, 5)), seed=rng.randrange(1 << 30)) for _ in range(n)]
        cons = [Console(i, linkrec.HOST if i == 0 else linkrec.GUEST, (cables[i].a, cables[i - 1].b),
                        random.Random(rng.randrange(1 << 30)), clock[0]) for i in range(n)]
        try:
            ok = run_match(args, rng, clock, cables, cons, st, mode)
        except Exception:  # a fault: report it and go on with the next match
            traceback.print_exc()
            st["faults"] += 1
            ok = False
        for c in cons:
            st["resends"] += c.resends + c.lock.net.resends()
            st["repairs"] += c.repairs + c.lock.repairs
            st["boots"] += c.boots
            st["forwarded"] += c.lock.net.forwarded
            st["trimmed"] += c.lock.net.trimmed
            st["pruned"] += c.lock.net.pruned
            st["garbled"] += c.garbled + c.lock.garbled
        if ok:
            st["matches"] += 1
        if args.verbose:
            print("match %s %dp, %d people: %s, actions so far %d" % (mode + ("ok" if ok else "FAULT",
                                                                          st["actions"])), file=sys.stderr)
    return st


def _offer(host, rng, mode, now):
    game, players, people = mode
    ids = V.consoles(host.lock, now)
    guests = ids[1:]
    rng.shuffle(guests)
    seats = list(range(1, players))
    rng.shuffle(seats)
    who = [0] * players
    who[0] = host.me
    for i in range(people - 1):
        who[seats[i]] = guests[i]
    levels = [None if who[s] else rng.choice(("random", "greedy")) for s in range(players)]
    setup = R.RingSetup(game, players, 101 if game == "pisti" else None, rng.random() < 0.5, who, levels)
    host.lock.offer(setup)
    return setup


def run_match(args, rng, clock, cables, cons, st, mode):
    host = cons[0]
    setup = None
    offered = 0
    seated_for = seated = looked = None
    cut_until = {}
    power_at = None
    last_progress = clock[0]
    seen = None
    differ = None
    while True:
        clock[0] += TICK
        now = clock[0]
        for i in list(cut_until):
            if now >= cut_until[i]:
                cables[i].cut = False
                del cut_until[i]
        if power_at is not None and now >= power_at[0]:
            c = power_at[1]
            power_at = None
            c.power_cut(now)
            st["power_cuts"] += 1
        if (setup is None or host.lock.phase == linkrec.SETUP and now - offered > 60000) and \
                len(V.consoles(host.lock, now)) == len(cons):
            setup = _offer(host, rng, mode, now)  # (a table that no one answers for a minute: seated again)
            offered = now
        elif setup is not None and not host.lock.started and host.lock.phase == linkrec.CONNECT:
            host.lock.offer(setup)  # the host booted again before the game began: the same table again
        if seated_for != (setup, [c.me for c in cons]):
            seated_for = (setup, [c.me for c in cons])
            seated = [c for c in cons if setup is not None and setup.seat_of(c.me) >= 0]
        for c in cons:
            lk = c.lock
            lk.poll(now)
            del lk.notices[:]  # (what the screens would say)
            if lk.phase == linkrec.OFFERED:
                lk.answer(True)
            if lk.phase == linkrec.FAILED:
                print("ring failed on console %d: %s (%s %dp, %d people); %s" % (
                    c.idx, lk.error.text, mode[0], mode[1], mode[2], _states(cons, now)), file=sys.stderr)
                st["faults"] += 1
                return False
            if lk.phase == R.LEFT:
                print("console %d's person left (%s); %s" % (c.idx, lk.left_me, _states(cons, now)), file=sys.stderr)
                st["lost"] += 1
                return False
            seat = lk.to_act()
            if seat >= 0 and rng.random() < (0.3 if seat == 0 else 0.5):
                lk.act(rng.choice(lk.match.hand.legal()))
                st["actions"] += 1
                last_progress = now
                if args.tamper and rng.random() < args.tamper:
                    t = rng.choice(seated[1:])  # a guest's memory fault: found by the digests, mended (L-5)
                    if t.lock.match is not None and t.lock.phase == linkrec.PLAY:
                        t.lock.match.totals[0] += 1
                        st["tampered"] += 1
                if len(cut_until) < 2 and rng.random() < args.cuts:
                    i = rng.randrange(len(cables))
                    if i not in cut_until:
                        cut_until[i] = now + rng.randrange(500, 60000)
                        cables[i].cut = True
                        st["cable_cuts"] += 1
                if power_at is None and rng.random() < args.power:
                    power_at = (now + rng.randrange(0, 3000), rng.choice(cons))
            c.keep()
        locks = [c.lock for c in seated]
        if locks and all(lk.phase == linkrec.OVER for lk in locks):
            # a console whose game went wrong as the last action came (a fault in its memory) takes the host's
            # record from the last action's digest or a status (L-5, L-13): the records are compared once
            # they agree, or a minute on
            for _ in range(SETTLE_MS // TICK):
                if len({(lk.hands_done, linkrec.record(lk.match, lk.hands_done, lk.rot)) for lk in locks}) == 1:
                    break
                clock[0] += TICK
                for c in cons:
                    c.lock.poll(clock[0])
                locks = [c.lock for c in seated]
            if len({(lk.hands_done, linkrec.record(lk.match, lk.hands_done, lk.rot)) for lk in locks}) != 1:
                print("the records differ at the end (%s %dp, %d people): %s" % (mode + (_states(cons, now),)),
                      file=sys.stderr)
                st["desyncs"] += 1
                st["lost"] += 1
            return True
        if locks and all(lk.phase == linkrec.PLAY for lk in locks):
            places = {(lk.hands_done, len(lk.match.hand.actions)) for lk in locks}
            key = (places, st["tampered"], [lk.received for lk in locks])  # (digests only when something came)
            ps = [lk.position() for lk in locks] if len(places) == 1 and key != looked else None
            looked = key
            if ps is not None and ps[0] != seen:
                seen = ps[0]
                st["checks"] += 1
                if any(p[2] != ps[0][2] for p in ps):
                    # found by the next action's digest or a status (L-5, L-13) and mended by a record:
                    # still apart a minute on, and an action later, is a desync
                    if differ is None:
                        differ = (ps[0][0:2], now)
                    elif differ[0] < ps[0][0:2] and now - differ[1] > DESYNC_MS:
                        st["desyncs"] += 1
                        differ = (ps[0][0:2], now)
                else:
                    differ = None
        if now - last_progress > WEDGED_MS:
            print("wedged (%s %dp, %d people): %s" % (mode + (_states(cons, now),)), file=sys.stderr)
            st["faults"] += 1
            return False


def _states(cons, now):
    """Each console's phase, place, id, left seats and who it has not heard from (ms)."""
    out = []
    for c in cons:
        lk = c.lock
        quiet = {o.me: lk.net.since(o.me, now) for o in cons if o is not c}
        deal = ""
        if lk.phase == linkrec.DEAL:
            deal = " deal %d commits %r reveals %r revealed %s" % (
                lk.hands_done, {k: v[0] for k, v in lk.commits.items()}, {k: v[0] for k, v in lk.reveals.items()},
                lk.revealed)
        cables = ["cable %s: peer %d out %r queue %d" % (i, ch.peer, ch.out and ch.out[0:2], len(ch.queue))
                  for i, ch in enumerate(lk.net.chans)]
        out.append("console %d (id %d) %s %r left %s/%s boots %d quiet %r%s; %s; windows %r" % (
            c.idx, c.me, lk.phase, lk.position(), bin(lk.left), lk.left_me, c.boots, quiet, deal, ", ".join(cables),
            lk.net.seen))
    return "; ".join(out)
