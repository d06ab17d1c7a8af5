# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkgame`
=====================

One game on two consoles (RULES.md L-1 .. L-9): :class:`Lockstep` runs the
hello, the host's offer, the commit-reveal deal of every hand and the
actions, over a :class:`pisti_core.linkchan.Channel`. It holds the match in
its own console's numbering (its person at seat 0) and decides nothing:
the driver (the app's remote seat, or tools/linktest.py) calls :meth:`act`
for the seats this console decides (:meth:`mine`) and :meth:`poll` every
tick.

This module is what a hand in play needs: the actions and the state (the
roles, phases, message types, the setup and the record and its digest are
in :mod:`pisti_core.linkrec`, and here too). Everything else -- the hello, the offer, the deal between hands, the
records of a catch-up -- is in :mod:`pisti_core.linkrx` and
:mod:`pisti_core.linkproto`, imported when one comes and, on the board,
unloaded again once the hand is in play (their code is heap there: ~5 KB).

Messages (type, payload)::

    HELLO  see linkproto.hello          OFFER  linkproto.offer_bytes
    JOIN   1 join / 0 decline           COMMIT hand(2) sha256(32)
    REVEAL hand(2) bytes(16)            ACTION hands(2) ply(2) action digest(4)
    NEED   (the sender wants a record)  RECORD offset(2) total(2) chunk
    BYE    (the sender leaves)
"""

import os
import sys

from pisti_core.linkchan import Channel, const, ticks_diff
from pisti_core.linkrec import (ACTION, BYE, COMMIT, CONNECT, DEAL, DECLINED, FAILED, GUEST, HOST,  # noqa: F401 (re-exported: G.HOST...)
                                  JOIN, NEED, OFFER, OFFERED, OVER, PLAY, RECORD, RESYNC, REVEAL, SETUP, LinkError,
                                  Setup, b16, u16, digest, record)

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # pyright's view only (the board has no typing module)
    try:
        from typing import Any  # noqa: F401 (named in type comments only: the board has no typing module)
    except ImportError:
        pass

GONE_MS = const(180000)  # L-8: a link lost for longer ends the game
ANSWER_MS = const(5000)  # L-1: no hello in this long: nobody (or no pisti) on the cable
DEAL_HOLD_MS = const(2000)  # the longest a deal waits for the app to show the hand's last play

# The code between hands (see the module's text), by full name: the shed at every tick looks them up
# without making a string.
_RARE = ("pisti_core.linkrx", "pisti_core.linkproto")


def _rx():
    """The code between hands, imported when needed."""
    from pisti_core import linkrx
    return linkrx


class Lockstep:
    """``Lockstep(port, role, firmware, now, setup=None, levels=())``: the
    host passes its :class:`Setup`; ``levels`` names the bot levels for the
    offer's bytes. ``urandom`` is injectable; ``lean`` (the default on
    MicroPython and CircuitPython) unloads the code between hands once a
    hand is in play."""

    def __init__(self, port, role, firmware, now=0, setup=None, levels=(), urandom=os.urandom, saved=None,
                 last_ses=-1, key=None, lean=None):
        self.urandom = urandom
        self.key = key  # L-3: each hand's bytes come from it (kept in the save), else drawn per hand
        self.lean = sys.implementation.name != "cpython" if lean is None else lean
        self.match = None  # type: Any  # the Match, local numbering
        self.hands_done = 0
        self.rot = setup.guest_seat if setup is not None and role == GUEST else 0
        if saved is not None and saved[0] is not None:
            from pisti_core.linkproto import load
            self.match, self.hands_done = load(saved[0], self.rot)
            h = self.match.hand
            if h is not None and h.over:  # saved as it ended (L-9): scored here, the next deal follows
                self.match.end_hand()
                self.hands_done += 1
        r = urandom(2)
        ses = r[0]
        if ses == last_ses:
            ses ^= 0x55  # never the session byte of the boot before (L-6)
        self.chan = Channel(port, ses, now, r[1])
        self.started = now
        self.role = role
        self.firmware = firmware
        self.levels = levels
        self.setup = setup  # type: Any  # a Setup once offered
        self.phase = CONNECT
        self.now = now  # the last poll's time
        self.due = None  # the poll time of a hand's end whose deal's work waits (L-4: the play shows first)
        self.hold_deal = False  # the app: its table has not shown the hand's last play yet (at most DEAL_HOLD_MS)
        self.error = None  # a LinkError once FAILED
        self.peer_fw = None  # type: Any  # the other firmware version once heard
        self.peer_pos = None  # type: Any  # the game its hello named: (hands done, step, digest), or None
        self.secret = None  # type: Any  # (hand, my 16 bytes)
        self.peer_commit = None  # type: Any  # (hand, their commitment)
        self.peer_secret = None  # type: Any
        self.revealed = False
        self.sessions = 0  # the other console's sessions our hellos answered
        self.inbox = bytearray()
        self.repairs = 0
        self.mismatches = 0
        self.received = 0
        self.notices = []  # what the screens should say: 'resync', 'joined', ...
        _rx().hello(self)

    # -- state -------------------------------------------------------------------
    def position(self):
        """``(hands_done, step, digest)`` of the game held, or None; ``step``
        is 0 before the hand is dealt, then 1 + the actions taken."""
        if self.match is None:
            return None
        h = self.match.hand
        step = 0 if h is None else len(h.actions) + 1
        return self.hands_done, step, digest(self.match, self.hands_done, self.rot)

    def place(self):
        """:meth:`position`, or (0, 0, 0) before a match."""
        return self.position() or (0, 0, 0)

    def mine(self, seat):
        """True when this console decides local ``seat`` (L-4): its person
        (seat 0), and on the host every bot."""
        if seat == 0:
            return True
        if self.role == GUEST:
            return False
        return seat != self.setup.guest_seat

    def to_act(self):
        """The local seat this console must decide now, or -1."""
        if self.phase != PLAY:
            return -1
        h = self.match.hand
        if h is None or h.over or not self.mine(h.turn):
            return -1
        return h.turn

    def lost(self, now):
        """True while nothing is heard from the other console (L-7)."""
        return self.chan.lost(now)

    def left_ms(self, now):
        """Milliseconds of L-8's 3 minutes left (the waiting notice's countdown)."""
        return max(0, GONE_MS - ticks_diff(now, self.chan.heard))

    def gone(self, now):
        """True once the link has been lost for more than 3 minutes (L-8)."""
        return ticks_diff(now, self.chan.heard) > GONE_MS

    def unanswered(self, now):
        """L-1: before any hello, after :data:`ANSWER_MS`: 'noise' when bytes
        came that were no frame of ours (another program, a wrong baud rate),
        'silent' when nothing came; None otherwise. Nothing is saved."""
        c = self.chan
        if self.phase != CONNECT or c.peer >= 0 or ticks_diff(now, self.started) < ANSWER_MS:
            return None
        return "noise" if c.dec.noise or c.dec.bad else "silent"

    def outcome(self):
        """What this console records for its own person (seat 0), rated games
        only, as ``(points, word)``: T-2 at the match's end (L-10); T-4's
        cost of leaving now otherwise (L-8: a pulled cable never pays)."""
        s, m = self.setup, self.match
        if s is None or not s.rated or m is None:
            return None
        from pisti_core.table import leave_outcome, match_outcome
        if m.over:
            return match_outcome(m.game, m.players, m.totals, 0)
        return leave_outcome(m.game, m.players, m.totals, self.hands_done, 0)

    # -- what the driver says ------------------------------------------------------
    def offer(self):
        """Host: send the setup to the guest (L-2)."""
        _rx().offer(self)

    def answer(self, join):
        """Guest: join the offered game, or decline it (nothing changes)."""
        _rx().answer(self, join)

    def act(self, a):
        """This console decides action ``a`` for the seat to move (L-4):
        applied, then sent with the digest after it. ValueError if it is not
        this console's turn or not legal (nothing changes)."""
        if self.to_act() < 0:
            raise ValueError("not this console's move (phase %s)" % self.phase)
        h = self.match.hand
        if not h.is_legal(a):
            raise ValueError("%r is not legal in %s" % (a, h.describe()))
        hd = self.hands_done
        ply = len(h.actions)
        h.play(a)
        dg = digest(self.match, hd, self.rot)
        self.chan.send(ACTION, b16(hd) + b16(ply) + bytes((a,)) + b16(dg >> 16) + b16(dg & 0xFFFF))
        self.after_action()

    def after_action(self):
        m = self.match
        if m.hand is not None and m.hand.over:
            m.end_hand()
            self.hands_done += 1
            if m.over:
                self.phase = OVER
            else:
                # L-3's deal begins at a later tick, so the hand's last play is
                # on the cable and on the screen first: the code between hands
                # is compiled for it on the board (a few hundred ms).
                self.phase = DEAL
                self.due = self.now

    def leave(self):
        """Say goodbye (the game ends on both consoles)."""
        self.chan.send(BYE)

    def _need(self, force):
        """Ask for the other's record (:func:`pisti_core.linkrx.need`)."""
        _rx().need(self, force)

    # -- receiving ------------------------------------------------------------------
    def poll(self, now):
        """Run the link: returns the number of messages handled."""
        self.now = now
        got = self.chan.poll(now)
        d = self.due
        if d is not None and ticks_diff(now, d) > 0 and (not self.hold_deal or ticks_diff(now, d) >= DEAL_HOLD_MS):
            _rx().deal_phase(self)
        for typ, p in got:
            self.received += 1
            if self.phase == FAILED:
                break
            try:
                if typ == ACTION:
                    self._on_action(u16(p, 0), u16(p, 2), p[4], u16(p, 5) << 16 | u16(p, 7))
                else:
                    _rx().on(self, typ, p)
            except LinkError as e:
                self.phase = FAILED
                self.error = e
        if self.lean and (self.phase == PLAY or self.phase == OVER):
            self.shed()
        return len(got)

    def shed(self):
        """Unload the code between hands (imported again when next needed)."""
        mods = sys.modules
        for full in _RARE:
            if full in mods:
                del mods[full]
                pkg = mods.get("pisti_core")
                short = full.rpartition(".")[2]
                if pkg is not None and hasattr(pkg, short):
                    delattr(pkg, short)

    def _on_action(self, hd, ply, a, dg):
        if self.phase == DEAL:
            if hd >= self.hands_done:
                self._need(False)  # the other console dealt this hand already: catch up
            return
        if self.phase != PLAY:
            return
        h = self.match.hand
        here = (self.hands_done, len(h.actions))
        if (hd, ply) < here:
            return  # already applied (a record crossed it)
        if (hd, ply) > here:
            self._need(False)  # behind: catch up from the other's record (L-9)
            return
        if self.mine(h.turn) or not h.is_legal(a):
            _rx().repair(self)
            return
        h.play(a)
        self.notices.append("action")
        if digest(self.match, self.hands_done, self.rot) != dg:
            self.mismatches += 1
            _rx().repair(self)  # the guest waits for the host's record; the host's game goes on (L-5)
        if self.phase == PLAY:
            self.after_action()

    # -- resuming after a power cut (L-9) --------------------------------------------
    @classmethod
    def resume(cls, port, role, firmware, now, setup, saved, secret=None, levels=(), urandom=os.urandom,
               last_ses=-1, key=None, lean=None):
        """The console after a boot, from its save: ``saved`` is its
        :func:`record` (or None before the first deal), ``secret`` the
        ``(hand, bytes)`` it committed to (L-3), ``last_ses`` the session
        byte it used before (saved too), ``key`` the key its hands' bytes
        come from (L-3: saved with the game, so ``secret`` may be None). A
        record saved as its hand ended is scored and the next hand's deal
        begins."""
        return _rx().resume(cls(port, role, firmware, now, setup, levels, urandom, (saved, secret), last_ses,
                                key, lean), secret)
