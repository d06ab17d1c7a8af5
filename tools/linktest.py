#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Lockstep under faults: two linked consoles over a lossy virtual cable.

    python tools/linktest.py --actions 5000 --loss 0.05 --seed 1
    python tools/linktest.py --consoles 4 --actions 100000 --loss 0.05

With ``--consoles 3`` or ``4`` (or ``--ring``) the consoles form a ring
instead (RULES.md L-11 .. L-17): see ``tools/linkring.py``. Without, the
rest of this text holds.

Two consoles (a host and a guest) run the link's real code
(``pisti_core.linkgame.Lockstep`` over ``pisti_core.linkchan``, and the
app's remote seat, ``lib/pisti_app/link/remote.py``, which turns the link into a
seat the table moves like a bot's) in one process on a virtual clock (10 ms
ticks), joined by ``tools/shims/uart.py``'s cable: bytes lost with
probability ``--loss``, flipped with ``--corrupt`` (default loss / 5),
stray noise bytes, a delay, cable cuts (up to a minute, within L-7's
3 minutes) and power cuts on either console at a random cut point of one
of its own nvm writes (the app's saves, ``pisti_app.match.saves`` on
``tools/shims/nvm.FlashNvm``): it boots from what its flash holds, opens the
link again from the saved game (``pisti_app.link.relink.resume_lock``) and the
one behind catches up (L-9). Whole matches of every mode (Pişti 2p and 4p with the
people as partners or opponents, Pis Yedili 2, 3, 4) are played with random
legal choices for the people and the bots.

The last line is one JSON object: ``actions``, ``matches``, ``resends``,
``repairs`` (records taken from the other console), ``desyncs`` (digests
that disagreed and were not repaired: at two quiet moments with an action
between them, or at a match's end), ``lost`` (a game a console could not resume from
its flash, or a match's result that differs between the consoles' links or
their apps' games, once each app has had a second to end the match a boot
left it in) and ``faults``
(exceptions, a failed link, a match wedged for 10 virtual minutes);
``power_cuts`` and ``boots``, ``adopted`` (an app's game
that fell behind a hand and took the link's); ``latency_ms`` is how long a play took to reach the other console's link
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

from pisti_app.link.relink import resume_lock
from pisti_app.link.remote import LinkPlay, link_info
from pisti_app.match.saves import Saves
from pisti_app.match.session import GameSession
from pisti_core import linkgame as G
from pisti_core import linkproto as P
from pisti_core.match import Match
from tools.shims.nvm import FlashNvm, PowerCut
from tools.shims.uart import Cable

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
# (game, players, guest seat): Pişti 4p with the people as partners (2) or opponents (1, 3).
MODES = (("pisti", 2, 1), ("pisti", 4, 2), ("pisti", 4, 1), ("pisti", 4, 3),
         ("yedili", 2, 1), ("yedili", 3, 1), ("yedili", 3, 2), ("yedili", 4, 2))
TICK = 10
WEDGED_MS = 600000
SETTLE_TICKS = 100  # once both links have ended the match: ticks the apps get to end theirs (a second)


LEAN = None  # Lockstep(lean=...): --lean unloads the code between hands, as on the board


class Console:
    """One console: its Lockstep, its saves -- the app's own
    (:class:`pisti_app.match.saves.Saves` on a :class:`tools.shims.nvm.FlashNvm`
    that a power cut can stop at any cut point of any write) holding the
    game as a :class:`pisti_app.match.session.GameSession` with its link (L-9) --
    and a random source for its person's (and, on the host, its bots')
    choices. It follows the link as the app's table does: each hand dealt
    by the link, the remote seats' actions taken from it, every action
    saved before it is shown (T-6) and, for its own seats, before it is
    sent (L-4)."""

    def __init__(self, role, end, rng, setup, now):
        self.role = role
        self.end = end
        self.rng = rng
        self.setup = setup if role == P.HOST else None
        self.nvm = FlashNvm()
        self.saves = Saves(self.nvm)
        self.session = None  # the app's game (local numbering), saved as the app saves it
        self.key = self.urandom(16)
        self.bridge = LinkPlay(G.Lockstep(end, role, "linktest", now, self.setup, LEVELS, self.urandom, key=self.key,
                                          lean=LEAN))
        self.boots = 0
        self.ended = False
        self.adopted = 0
        self.lost = 0

    @property
    def link(self):
        """The console's Lockstep."""
        return self.bridge.lock

    def urandom(self, n):
        return bytes(self.rng.randrange(256) for _ in range(n))

    def _sit(self):
        """The first deal (or a game the link holds and this console does not):
        sit down as ``pisti_app.link.linkmenu.start_link_game`` does, and save."""
        lk = self.link
        s = lk.setup
        m = Match(s.game, s.players, s.target, 0)
        sess = GameSession(m, [None] + ["acemi"] * (s.players - 1), s.rated)
        self.bridge.adopt(sess)
        sess.linked = True
        sess.link_info = link_info(lk)
        self.session = sess
        self._save_all()

    def _save_all(self):
        s = self.session
        self.saves.start(s)
        if s.hand.actions:
            self.saves.add(s.hand.actions)

    def app_step(self, now, rng):
        """The app's tick. Returns the number of actions this console decided.
        PowerCut (an nvm write cut) leaves it, as it leaves App.tick()."""
        br = self.bridge
        lk = self.link
        s = self.session
        br.tick(now, None if s is None else s.last if s.hand is None else s.hand)  # as LinkPlay.app_tick
        if s is None:
            del lk.notices[:]
            if lk.phase != G.PLAY:
                return 0
            self._sit()
            s = self.session
        elif br.stale(s):  # the link took the other's record past this game (L-5, L-9)
            br.adopt(s)
            self.adopted += 1
            if s.over:
                self._end(lk)
                return 0
            self._save_all()
        if s.hand is None:
            if s.over:
                self._end(lk)
                return 0
            deck = br.deck(s.hands_done)
            if deck is None:
                return 0
            s.deal_from(deck)  # L-3: the link's deal, saved before it is shown
            self.saves.start(s)
        h = s.hand
        br.hand = h
        remote = br.remote_seats()
        decided = 0
        while not h.over:
            if h.turn in remote:
                a = br.seat.choose(h)  # (as the table: the hand itself, no observation)
                if a is None:
                    break  # nothing from the other console yet: the table waits
            elif self.rng.random() < 0.3:
                a = self.rng.choice(h.legal())
                decided += 1
            else:
                break
            self.saves.add(bytes((a,)))  # T-6, L-4: saved before it is shown or sent
            h.play(a)
        if decided:
            br.tick(now, h, b"", False)
        if h.over:
            s.end_hand()  # (a link game's next hand waits for the link's deal)
            if s.over:
                self._end(lk)
        return decided

    def _end(self, lk):
        """The match is over: its save ends once the link has delivered the
        last action (a cut before that boots into the ended hand, L-9)."""
        if not self.ended and lk.phase == G.OVER and lk.chan.idle():
            self.ended = True
            self.saves.end()

    def power_cut(self, now):
        """Off and on again: the UART forgets; the app boots from its flash as
        the cut left it and Continue opens the link again (L-9)."""
        self.end.power_cut()
        self.boots += 1
        had = self.session is not None and not self.session.over
        self.nvm = self.nvm.restart()
        self.saves = Saves(self.nvm)
        s = self.saves.kept()
        self.session = s
        self.ended = False
        if s is not None and s.linked:
            lk = resume_lock(self.end, s, "linktest", now, LEVELS, self.urandom, LEAN)
        else:
            if had:
                self.lost += 1  # a game in play that its save did not give back
            self.session = None
            lk = G.Lockstep(self.end, self.role, "linktest", now, self.setup, LEVELS, self.urandom, key=self.key,
                            lean=LEAN)
        self.bridge = LinkPlay(lk)


def play(args):
    rng = random.Random(args.seed)
    clock = [0]
    corrupt = args.loss / 5 if args.corrupt is None else args.corrupt
    st = {"actions": 0, "matches": 0, "resends": 0, "repairs": 0, "desyncs": 0, "lost": 0, "faults": 0,
          "power_cuts": 0, "cable_cuts": 0, "tampered": 0, "checks": 0, "adopted": 0, "boots": 0}
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
            st["lost"] += c.lost
            st["adopted"] += c.adopted
            st["boots"] += c.boots
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
    log = []  # --verbose: the match's last events (phases, cuts, tampering, repairs), printed when it wedges
    was = {}

    def note(what):
        if args.verbose:
            log.append("%8d %s" % (clock[0], what))
            del log[:-40]

    def step(c, now):
        """The console's app tick (the link polled first); the actions it decided. A power cut
        leaves it (as it leaves App.tick) and the console boots again from its flash."""
        try:
            return c.app_step(now, rng)
        except PowerCut:
            c.power_cut(now)
            st["power_cuts"] += 1
            note("power cut on the %s: boots at %s, app %s" % (_name(c, host), c.link.phase, _where(c.session)))
            return 0

    while True:
        clock[0] += TICK
        now = clock[0]
        if cut_until is not None and now >= cut_until:
            cable.cut = False
            cut_until = None
        if power_at is not None and now >= power_at:
            power_at = None
            c = rng.choice(cons)
            if c.session is not None and not c.session.over:
                # the power fails at a random cut point of one of its next nvm writes
                c.nvm.cut_after_bytes = rng.randrange(0, 400)
                note("power cut armed on the %s" % _name(c, host))
        for c in cons:
            n = step(c, now)
            lk = c.link
            if args.verbose:
                now_is = (lk.phase, lk.hands_done, lk.repairs, lk.mismatches)
                if was.get(c) != now_is:
                    was[c] = now_is
                    note("%s link %s hand %d repairs %d mismatches %d; app %s"
                         % ((_name(c, host),) + now_is + (_where(c.session),)))
            if lk.phase == G.FAILED:
                print("link failed on the %s: %s" % ("host" if c is host else "guest", lk.error.text), file=sys.stderr)
                st["faults"] += 1
                return False
            if lk.phase == G.OFFERED:
                lk.answer(True)
            if n:
                if lk.phase != G.FAILED:
                    pend.append((c, lk.place()[0:2], now))
                st["actions"] += n
                last_progress = now
                if args.tamper and rng.random() < args.tamper and c is guest and lk.phase == G.PLAY:
                    # a fault in the guest's memory: the digests must find it and the host's record repair it
                    # (L-5). Not the host's: its record is the game (L-5), so the fault would become the links'
                    # game behind the apps' backs (they keep their own copies) and could end the match on one
                    # side only (a tie to 101 in Pisti), which no console can resolve: wedged.
                    lk.match.totals[0] += 1
                    st["tampered"] += 1
                    note("tampered with the %s's totals" % _name(c, host))
                # faults, drawn once an action: cable cuts and power cuts
                if cut_until is None and rng.random() < args.cuts:
                    cut_until = now + rng.randrange(500, 60000)
                    cable.cut = True
                    st["cable_cuts"] += 1
                    note("cable cut until %d" % cut_until)
                if power_at is None and rng.random() < args.power:
                    power_at = now + rng.randrange(0, 3000)  # anywhere: a deal, a resend, a record
        a, b = host.link, guest.link
        if pend:  # a play shows on the other console: when its link has it
            keep = []
            for c, pos, t0 in pend:
                other = guest.link if c is host else host.link
                if other.place()[0:2] >= pos:
                    lat.append(now - t0)
                else:
                    keep.append((c, pos, t0))
            pend[:] = keep
        if a.phase == G.OVER and b.phase == G.OVER:
            if (a.hands_done, P.record(a.match, a.hands_done, 0)) != \
                    (b.hands_done, P.record(b.match, b.hands_done, b.rot)):
                st["desyncs"] += 1
                st["lost"] += 1
            for _ in range(SETTLE_TICKS):  # a console that just booted into the ended hand (L-9) finishes it
                sa, sb = host.session, guest.session
                if (sa is None or sa.over) and (sb is None or sb.over):
                    break
                clock[0] += TICK
                for c in cons:
                    step(c, clock[0])  # (a power cut still armed may come here too)
            sa, sb = host.session, guest.session
            if sa is not None and sb is not None and not (sa.over and sb.over and P.record(sa.match, 0, 0)
                                                          == P.record(sb.match, 0, b.rot)):
                print("the consoles' games differ at the end: %r %r" % (list(sa.totals), list(sb.totals)),
                      file=sys.stderr)
                st["lost"] += 1  # the apps' games (as saved and shown) must end as the links' do
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
            print("wedged: host %s %r, guest %s %r; the apps' games at %s, %s"
                  % (a.phase, a.position(), b.phase, b.position(), _where(host.session), _where(guest.session)),
                  file=sys.stderr)
            for line in log:
                print("  " + line, file=sys.stderr)
            st["faults"] += 1
            return False


def _name(c, host):
    return "host" if c is host else "guest"


def _where(s):
    if s is None:
        return "none"
    return "hand %d ply %s%s totals %r" % (s.hands_done, "-" if s.hand is None else s.hand.ply,
                                          " over" if s.over else "", list(s.totals))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=2000, help="actions to play (whole matches; default 2000)")
    ap.add_argument("--loss", type=float, default=0.05, help="chance a byte is lost (default 0.05)")
    ap.add_argument("--corrupt", type=float, default=None, help="chance a byte is flipped (default loss/5)")
    ap.add_argument("--cuts", type=float, default=0.01,
                    help="chance an action is followed by a pulled cable (default 0.01)")
    ap.add_argument("--power", type=float, default=0.01,
                    help="chance an action is followed by a power cut (default 0.01)")
    ap.add_argument("--tamper", type=float, default=0.002,
                    help="chance a guest's action is followed by a silent change of its link's totals (default 0.002)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true", help="a line per match on stderr")
    ap.add_argument("--lean", action="store_true",
                    help="unload the link's code between hands as the board does (Lockstep(lean=True))")
    ap.add_argument("--consoles", type=int, choices=(2, 3, 4), default=2,
                    help="consoles: 2 (default) is the two-console link with the app's seats; 3 or 4 form a ring "
                         "(pisti_core.ringgame, tools/linkring.py)")
    ap.add_argument("--ring", action="store_true", help="two consoles as a ring of two (two cables) too")
    args = ap.parse_args(argv)
    if not 0 <= args.loss < 1:
        ap.error("--loss is a probability below 1, not %r" % args.loss)
    global LEAN
    LEAN = True if args.lean else None
    if args.consoles > 2 or args.ring:
        from tools import linkring
        st = {"actions": 0, "matches": 0, "resends": 0, "repairs": 0, "desyncs": 0, "lost": 0, "faults": 0,
              "power_cuts": 0, "cable_cuts": 0, "tampered": 0, "checks": 0, "boots": 0}
        st = linkring.play(args, st)
    else:
        st = play(args)
    print(json.dumps(st))
    return 0 if st["desyncs"] == 0 and st["lost"] == 0 and st["faults"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
