#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Lockstep under faults: two linked consoles over a lossy virtual cable.

    python tools/linktest.py --actions 5000 --loss 0.05 --seed 1

Two consoles (a host and a guest) run the link's real code
(``pisti_core.linkgame.Lockstep`` over ``pisti_core.linkchan``, and the
app's remote seat, ``lib/pisti_app/remote.py``, which turns the link into a
seat the table moves like a bot's) in one process on a virtual clock (10 ms
ticks), joined by ``tools/shims/uart.py``'s cable: bytes lost with
probability ``--loss``, flipped with ``--corrupt`` (default loss / 5),
stray noise bytes, a delay, cable cuts (up to a minute, within L-7's
3 minutes) and power cuts on either console (it boots again from its save,
which may lag one received action behind, as a cut between two nvm writes
leaves it: L-9). Whole matches of every mode (Pişti 2p and 4p with the
people as partners or opponents, Pis Yedili 2, 3, 4) are played with random
legal choices for the people and the bots.

The last line is one JSON object: ``actions``, ``matches``, ``resends``,
``repairs`` (records taken from the other console), ``desyncs`` (digests
that disagreed and were not repaired: at two quiet moments with an action
between them, or at a match's end), ``lost`` (a game a console could not resume, or a
match's result that differs between the consoles) and ``faults``
(exceptions, a failed link, a match wedged for 10 virtual minutes);
``latency_ms`` is how long a play took to reach the other console's link
(median, p95, worst; 10 ms ticks, cable cuts included).
"""

import argparse
import json
import os
import random
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from pisti_app.remote import LinkPlay  # noqa: E402
from pisti_core import linkgame as G  # noqa: E402
from pisti_core import linkproto as P  # noqa: E402
from pisti_core.match import new_hand  # noqa: E402
from tools.shims.uart import Cable  # noqa: E402

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
# (game, players, guest seat): Pişti 4p with the people as partners (2) or opponents (1, 3).
MODES = (("pisti", 2, 1), ("pisti", 4, 2), ("pisti", 4, 1), ("pisti", 4, 3),
         ("yedili", 2, 1), ("yedili", 3, 1), ("yedili", 3, 2), ("yedili", 4, 2))
TICK = 10
WEDGED_MS = 600000


class Console:
    """One console: its Lockstep, its save (setup, record, secret) and a
    random source for its person's (and, on the host, its bots') choices."""

    def __init__(self, role, end, rng, setup, now):
        self.role = role
        self.end = end
        self.rng = rng
        self.setup = setup if role == P.HOST else None
        self.saved = None  # (setup, record or None, secret)
        self.bridge = LinkPlay(G.Lockstep(end, role, "linktest", now, self.setup, LEVELS, self.urandom))
        self.boots = 0
        self.hand = None  # the app's hand in play (the table's), kept beside the link's
        self.src = None  # the link's hand it follows
        self.remote = ()

    @property
    def link(self):
        """The console's Lockstep."""
        return self.bridge.lock

    def app_step(self, now, rng):
        """The app's tick: the table's hand follows the link's deal (a new
        hand, or a resync: rebuilt from the link's record), the remote seats
        give the other console's actions, this console's person (and the
        host's bots) decide at random; the bridge sends what was decided.
        Returns the number of actions this console decided."""
        lk = self.link
        self.bridge.tick(now, self.hand)
        if lk.phase != G.PLAY:
            return 0
        lh = lk.match.hand
        h = self.hand
        if h is None or self.src is not lh:  # a new deal, or the link took a record (L-5, L-9)
            h = self.hand = new_hand(lh.game, lh.players, lh.dealer, lh.deck)
            for a in lh.actions:
                h.play(a)
            self.src = lh
            self.bridge.hand = h
            self.remote = self.bridge.remote_seats()
        decided = 0
        while not h.over:
            if h.turn in self.remote:
                if len(lh.actions) <= len(h.actions):
                    break  # nothing from the other console yet: the table waits
                a = self.bridge.seat.choose(h.observe(h.turn))
                if a is None:
                    break
            elif self.rng.random() < 0.3:
                a = self.rng.choice(h.legal())
                decided += 1
            else:
                break
            h.play(a)
        if decided:
            self.bridge.tick(now, h, b"", False)
        return decided

    def urandom(self, n):
        return bytes(self.rng.randrange(256) for _ in range(n))

    def save(self, lag_ok):
        """Write the save; ``lag_ok`` lets a power cut land before it."""
        lk = self.link
        if lk.setup is None or lk.phase in (G.CONNECT, G.OFFERED, G.SETUP, G.DECLINED):
            return
        if lag_ok and self.saved is not None and self.rng.random() < 0.3:
            return  # the cut point fell before this write
        rec = None if lk.match is None else P.record(lk.match, lk.hands_done, lk.rot)
        self.saved = (lk.setup, rec, lk.secret, lk.chan.ses)

    def power_cut(self, now):
        """Off and on again: the UART forgets, the game comes from the save."""
        self.end.power_cut()
        self.boots += 1
        self.hand = None
        if self.saved is None:
            lk = G.Lockstep(self.end, self.role, "linktest", now, self.setup, LEVELS, self.urandom)
        else:
            setup, rec, secret, ses = self.saved
            lk = G.Lockstep.resume(self.end, self.role, "linktest", now, setup, rec, secret,
                                   LEVELS, self.urandom, ses)
        self.bridge = LinkPlay(lk)


def play(args):
    rng = random.Random(args.seed)
    clock = [0]
    corrupt = args.loss / 5 if args.corrupt is None else args.corrupt
    st = {"actions": 0, "matches": 0, "resends": 0, "repairs": 0, "desyncs": 0, "lost": 0, "faults": 0,
          "power_cuts": 0, "cable_cuts": 0, "tampered": 0, "checks": 0}
    mode_i = rng.randrange(len(MODES))
    lat = []
    while st["actions"] < args.actions:
        game, players, gseat = MODES[mode_i % len(MODES)]
        mode_i += 1
        levels = [None if s in (0, gseat) else rng.choice(("random", "greedy")) for s in range(players)]
        setup = P.Setup(game, players, 101 if game == "pisti" else None, rng.random() < 0.5, gseat, levels)
        cable = Cable(lambda: clock[0], loss=args.loss, corrupt=corrupt, noise=args.loss / 10,
                      delay_ms=rng.choice((0, 1, 5)), seed=rng.randrange(1 << 30))
        cons = [Console(P.HOST, cable.a, random.Random(rng.randrange(1 << 30)), setup, clock[0]),
                Console(P.GUEST, cable.b, random.Random(rng.randrange(1 << 30)), None, clock[0])]
        try:
            ok = run_match(args, rng, clock, cable, cons, st, lat)
        except Exception:  # a fault: report it and go on with the next match
            traceback.print_exc()
            st["faults"] += 1
            ok = False
        for c in cons:
            st["resends"] += c.link.chan.resends
            st["repairs"] += c.link.repairs
        if ok:
            st["matches"] += 1
        if args.verbose:
            print("match %s %dp guest %d: %s, actions so far %d" % (game, players, gseat, "ok" if ok else "FAULT",
                                                                     st["actions"]), file=sys.stderr)
    lat.sort()
    if lat:
        st["latency_ms"] = {"median": lat[len(lat) // 2], "p95": lat[len(lat) * 95 // 100], "worst": lat[-1]}
    return st


def run_match(args, rng, clock, cable, cons, st, lat):
    host, guest = cons
    last_progress = clock[0]
    cut_until = None
    power_at = None
    pend = []
    seen = None
    differ = None  # the position where the digests last disagreed at a quiet moment
    while True:
        clock[0] += TICK
        now = clock[0]
        if cut_until is not None and now >= cut_until:
            cable.cut = False
            cut_until = None
        if power_at is not None and now >= power_at:
            power_at = None
            rng.choice(cons).power_cut(now)
            st["power_cuts"] += 1
        for c in cons:
            lk = c.link
            n0 = len(lk.notices)
            n = c.app_step(now, rng)  # polls the link first
            if len(lk.notices) != n0:
                del lk.notices[:]
                c.save(True)
            if lk.phase == G.FAILED:
                print("link failed on the %s: %s" % ("host" if c is host else "guest", lk.error.text), file=sys.stderr)
                st["faults"] += 1
                return False
            if lk.phase == G.OFFERED:
                lk.answer(True)
                c.save(False)
            if n:
                if lk.phase != G.FAILED:
                    pend.append((c, lk._pos()[0:2], now))  # noqa: SLF001
                st["actions"] += n
                c.save(False)  # L-4: the decider saves before it sends
                last_progress = now
                if args.tamper and rng.random() < args.tamper and lk.match is not None:
                    lk.match.totals[0] += 1  # a fault in memory: the digests must find it (L-5)
                    st["tampered"] += 1
                # faults, drawn once an action: cable cuts and power cuts
                if cut_until is None and rng.random() < args.cuts:
                    cut_until = now + rng.randrange(500, 60000)
                    cable.cut = True
                    st["cable_cuts"] += 1
                if power_at is None and rng.random() < args.power:
                    power_at = now + rng.randrange(0, 3000)  # anywhere: a deal, a resend, a record
        a, b = host.link, guest.link
        if pend:  # a play shows on the other console: when its link has it
            keep = []
            for c, pos, t0 in pend:
                other = guest.link if c is host else host.link
                if other._pos()[0:2] >= pos:  # noqa: SLF001
                    lat.append(now - t0)
                else:
                    keep.append((c, pos, t0))
            pend[:] = keep
        if a.phase == G.OVER and b.phase == G.OVER:
            if (a.hands_done, P.record(a.match, a.hands_done, 0)) != (b.hands_done, P.record(b.match, b.hands_done, b.rot)):
                st["desyncs"] += 1
                st["lost"] += 1
            return True
        # a quiet moment at the same position: the digests must agree (L-5)
        if (a.phase == G.PLAY and b.phase == G.PLAY and a.chan.idle() and b.chan.idle()
                and not cable.a.line and not cable.b.line):
            pa, pb = a.position(), b.position()
            if pa[0:2] == pb[0:2] and pa != seen:
                seen = pa
                st["checks"] += 1
                if pa[2] != pb[2]:
                    # found at the next action's digest (L-5); still there after one is a desync
                    if differ is not None and differ < pa[0:2]:
                        st["desyncs"] += 1
                    differ = pa[0:2]
                else:
                    differ = None
        if now - last_progress > WEDGED_MS:
            print("wedged: host %s %r, guest %s %r" % (a.phase, a.position(), b.phase, b.position()), file=sys.stderr)
            st["faults"] += 1
            return False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=2000, help="actions to play (whole matches; default 2000)")
    ap.add_argument("--loss", type=float, default=0.05, help="chance a byte is lost (default 0.05)")
    ap.add_argument("--corrupt", type=float, default=None, help="chance a byte is flipped (default loss/5)")
    ap.add_argument("--cuts", type=float, default=0.01, help="chance an action is followed by a pulled cable (default 0.01)")
    ap.add_argument("--power", type=float, default=0.01, help="chance an action is followed by a power cut (default 0.01)")
    ap.add_argument("--tamper", type=float, default=0.002,
                    help="chance an action is followed by a silent change of one console's totals (default 0.002)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="a line per match on stderr")
    args = ap.parse_args(argv)
    if not 0 <= args.loss < 1:
        ap.error("--loss is a probability below 1, not %r" % args.loss)
    st = play(args)
    print(json.dumps(st))
    return 0 if st["desyncs"] == 0 and st["lost"] == 0 and st["faults"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
