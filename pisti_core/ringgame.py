# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringgame`
=====================

One game on two to four consoles in a ring (RULES.md L-11 .. L-17):
:class:`RingLock` runs the hellos, the host's table, the joins, the
commit-reveal deal of every hand, the actions, the statuses and the
records of a catch-up, over a :class:`pisti_core.ringnet.Ring`. It holds
the match in its own console's numbering (its person at seat 0, ``rot``
its seat in the host's numbering) and decides nothing: the driver calls
:meth:`RingLock.act` for the seats this console decides
(:meth:`RingLock.mine`) and :meth:`RingLock.poll` every tick, and asks
:mod:`pisti_core.ringview` what to show.

This module is what a hand in play needs; what comes between the plays
(hellos, the table, the deal, records, statuses, leaving) is in
:mod:`pisti_core.ringrx`, and the bytes in :mod:`pisti_core.ringproto`.
"""

import os

from pisti_core.linkchan import const, ticks_diff
from pisti_core.linkrec import DEAL, FAILED, OVER, PLAY, RESYNC, LinkError, b16, digest, u16
from pisti_core.ringdefs import ACTION, ALL, LOST_MS, STATUS_MS

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # pyright's view only (the board has no typing module)
    try:
        from typing import Any  # noqa: F401 (named in type comments only)
    except ImportError:
        pass

_TIMERS_MS = const(100)  # how often the slow timers (deal, catch-up, consoles gone) are looked at


def _rx():
    """The code between the plays, imported when needed."""
    from pisti_core import ringrx
    return ringrx


def _setup():
    """The hellos, the table and the joins, imported when needed."""
    from pisti_core import ringsetup
    return ringsetup


def _deal():
    """The deal and the records."""
    from pisti_core import ringdeal
    return ringdeal


class RingLock:
    """``RingLock(ports, role, firmware, now, me=None, key=None, levels=(),
    urandom=os.urandom, last_ses=-1)``: ``ports`` the two UARTs, ``me`` the
    console's ring id (drawn when None; it may be drawn again before a
    table, L-11), ``key`` the 16 bytes each hand's deal bytes and the
    console's stamp come from (L-11, L-14; drawn when None), ``levels`` the
    bot levels' names for the table's bytes, ``last_ses`` the session byte
    of the boot before. The id, the key and the session byte belong in the
    console's save; ``quiet`` holds the hello back (:meth:`resume` says it
    once the saved game is in)."""

    def __init__(self, ports, role, firmware, now=0, me=None, key=None, levels=(), urandom=os.urandom, last_ses=-1,
                 quiet=False):
        _setup().init(self, ports, role, firmware, now, me, key, levels, urandom, last_ses, quiet)
        if _CHECKING:  # the state, as pyright reads it: pisti_core.ringsetup.init sets it (its code not kept)
            self.urandom = urandom
            self.me = self.was = self.tag = self.hands_done = self.rot = self.left = 0
            self.repairs = self.mismatches = self.received = self.garbled = self.move_ms = 0
            self.now = self.deal_at = self.resync_at = self.timers_at = self.status_at = self.acted_at = now
            self.key = self.nonce = self.stamp = self.offer_b = b""
            self.role = role
            self.firmware = firmware
            self.levels = levels
            self.net = None  # type: Any  # pisti_core.ringnet.Ring
            self.phase = ""
            self.error = None  # type: Any
            self.setup = None  # type: Any
            self.started = self.rejoin = self.revealed = False
            self.joined = set()  # type: set
            self.watching = None  # type: Any
            self.match = None  # type: Any
            self.secret = None  # type: Any
            self.behind = None  # type: Any
            self.inbox = None  # type: Any
            self.move_pos = None  # type: Any
            self.left_me = None  # type: Any
            self.peers = {}  # type: dict
            self.nonces = {}  # type: dict
            self.retired = {}  # type: dict
            self.pos = {}  # type: dict
            self.commits = {}  # type: dict
            self.reveals = {}  # type: dict
            self.neighbours = [0, 0]
            self.pending = []  # type: list
            self.notices = []  # type: list

    # -- state ---------------------------------------------------------------------
    def position(self):
        """``(hands_done, step, digest)`` of the game held, or None; ``step``
        is 0 before the hand is dealt, then 1 + the actions taken."""
        if self.match is None:
            return None
        h = self.match.hand
        return self.hands_done, 0 if h is None else len(h.actions) + 1, digest(self.match, self.hands_done, self.rot)

    def place(self):
        """:meth:`position`, or (0, 0, 0) before a match."""
        return self.position() or (0, 0, 0)

    def host_id(self):
        """The host's ring id (0 before a table)."""
        return self.setup.people[0] if self.setup is not None else 0

    def decider(self, hseat):
        """The ring id of the console that decides seat ``hseat`` (host's
        numbering, L-12): its person's, or the host's for a bot or a person
        who left (L-16)."""
        cid = self.setup.people[hseat]
        return cid if cid and not self.left >> hseat & 1 else self.setup.people[0]

    def mine(self, seat):
        """True when this console decides local ``seat``."""
        return self.decider((seat + self.rot) % self.setup.players) == self.me and not self.left_me

    def to_act(self):
        """The local seat this console must decide now, or -1."""
        if self.phase != PLAY:
            return -1
        h = self.match.hand
        if h is None or h.over or not self.mine(h.turn):
            return -1
        return h.turn

    def move_left_ms(self):
        """T-3: milliseconds the person to move has left (None: a bot's turn,
        no timer, or no hand in play)."""
        h = self.match.hand if self.phase == PLAY and self.match is not None else None
        if h is None or h.over or not self.setup.rated:
            return None
        hs = (h.turn + self.rot) % self.setup.players
        if not self.setup.people[hs] or self.left >> hs & 1:
            return None
        return max(0, self.setup.timer * 1000 - self.move_ms)

    # -- what the driver says ------------------------------------------------------------
    def offer(self, setup, rejoin=False):
        """Host: offer the table (L-12) to the consoles it seats."""
        _setup().offer(self, setup, rejoin)

    def answer(self, join):
        """A seated guest: join the table offered, or decline it."""
        _setup().answer(self, join)

    def leave(self, why="exit"):
        """This console's person leaves the table (T-4, L-16)."""
        _rx().leave(self, why)

    def act(self, a):
        """This console decides action ``a`` for the seat to move (L-12):
        applied, then sent with the digest after it (L-5). ValueError if it
        is not this console's turn or not legal (nothing changes)."""
        if self.to_act() < 0:
            raise ValueError("not this console's move (phase %s)" % self.phase)
        h = self.match.hand
        if not h.is_legal(a):
            raise ValueError("%r is not legal in %s" % (a, h.describe()))
        hd = self.hands_done
        ply = len(h.actions)
        h.play(a)
        dg = digest(self.match, hd, self.rot)
        self.acted_at = self.now
        self.net.send(ACTION, b16(hd) + b16(ply) + bytes((a,)) + b16(dg >> 16) + b16(dg & 0xFFFF), ALL,
                      self.now)
        self.after_action()

    def after_action(self):
        """The hand's end once its last action is in: scored, the next deal."""
        m = self.match
        if m.hand is not None and m.hand.over:
            m.end_hand()
            self.hands_done += 1
            if m.over:
                self.phase = OVER
            else:
                _deal().deal_phase(self)

    # -- receiving -------------------------------------------------------------------------
    def poll(self, now):
        """Run the ring: returns the number of messages handled."""
        dt = ticks_diff(now, self.now)
        self.now = now
        got = self.net.poll(now)
        for o, typ, p in got:
            self.received += 1
            if self.phase == FAILED:
                break
            try:
                if typ == ACTION:
                    self.on_action(o, u16(p, 0), u16(p, 2), p[4], u16(p, 5) << 16 | u16(p, 7))
                else:
                    _rx().on(self, o, typ, p)
            except LinkError as e:
                if e.key == "garbled":
                    self.garbled += 1
                    continue
                self.phase = FAILED
                self.error = e
            except (IndexError, ValueError, KeyError):
                # a message that does not parse: a frame whose damage its CRC-16 missed (about one in 65536
                # damaged frames); dropped, and what it carried comes again or by a record (L-13)
                self.garbled += 1
        if self.phase != FAILED:
            if ticks_diff(now, self.timers_at) >= _TIMERS_MS:
                self.timers_at = now
                _rx().timers(self, now)
            self._clock(dt)
        if ticks_diff(now, self.status_at) >= STATUS_MS and ticks_diff(now, self.acted_at) >= STATUS_MS:
            self.status_at = now  # (an action says where its console stands: no status while it acts)
            _rx().status(self)
        return len(got)

    def _clock(self, dt):
        """T-3: the move timer of the person to move; it stops while that
        console is not heard (L-15), and between hands. This console's own
        person running out of time leaves (T-4)."""
        left = self.move_left_ms()
        if left is None:
            self.move_pos = None
            return
        h = self.match.hand
        pos = self.hands_done << 16 | len(h.actions)
        if pos != self.move_pos:
            self.move_pos = pos
            self.move_ms = 0
            return
        cid = self.decider((h.turn + self.rot) % self.setup.players)
        if cid == self.me:
            if self.net.cut_off(self.now):
                return
        elif self.net.since(cid, self.now) > LOST_MS:
            return
        self.move_ms += dt
        if cid == self.me and self.move_ms > self.setup.timer * 1000:
            self.leave("timer")

    def on_action(self, o, hd, ply, a, dg):
        """An action from console ``o``: applied in its place, parked when it
        comes ahead of this console's game."""
        if o == self.me or not self.started:
            return
        self.pos[o] = (hd, ply + 2, dg)
        if self.phase not in (PLAY, DEAL, RESYNC):
            return
        h = self.match.hand if self.match is not None else None
        here = (self.hands_done, len(h.actions) if self.phase == PLAY and h is not None else -1)
        if (hd, ply) < here:
            return  # already applied (a record crossed it)
        if self.phase != PLAY or (hd, ply) > here:
            if len(self.pending) < 16:
                self.pending.append((o, hd, ply, a, dg))
            _rx().ahead(self, (hd, ply + 2, dg), o)
            return
        self._apply(o, a, dg)
        self.drain()

    def _apply(self, o, a, dg):
        h = self.match.hand
        hs = (h.turn + self.rot) % self.setup.players
        person = self.setup.people[hs]
        if person and person != o and o == self.host_id() and not self.left >> hs & 1:
            _rx().mark_left(self, hs)  # the host decides a person's seat only once they left (L-16)
        if o != self.decider(hs) or self.mine(h.turn) or not h.is_legal(a):
            _deal().repair(self, o)
            return
        h.play(a)
        self.notices.append("action")
        if self.behind is not None:
            self.behind[2] = self.now  # progress: a catch-up waits for a stall (L-13)
        if digest(self.match, self.hands_done, self.rot) != dg:
            self.mismatches += 1
            _deal().repair(self, o)  # L-5: the host's record is the game
        if self.phase == PLAY:
            self.after_action()

    def drain(self):
        """Apply the parked actions that now fit, in order."""
        go = True
        while go and self.phase == PLAY and self.pending:
            go = False
            h = self.match.hand
            if h is None:  # (a hand over whose next deal a subclass holds back)
                break
            here = (self.hands_done, len(h.actions))
            keep = []
            for e in self.pending:
                if (e[1], e[2]) < here:
                    continue
                if not go and (e[1], e[2]) == here:
                    go = True
                    self._apply(e[0], e[3], e[4])
                    continue
                keep.append(e)
            self.pending = keep

    # -- resuming after a power cut (L-17) ----------------------------------------------
    @classmethod
    def resume(cls, ports, role, firmware, now, me, key, setup, saved, levels=(), urandom=os.urandom,
               last_ses=-1):
        """The console after a boot, from its save: its ring id ``me``, its
        ``key``, the table ``setup`` it had joined (every person had: the
        game was on) and ``saved``, its :func:`pisti_core.linkrec.record`
        (None before the first deal)."""
        lk = cls(ports, role, firmware, now, me, key, levels, urandom, last_ses, True)
        _setup().resume(lk, setup, saved)
        return lk

