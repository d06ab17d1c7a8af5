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

Messages (type, payload)::

    HELLO  see linkproto.hello          OFFER  linkproto.Setup bytes
    JOIN   1 join / 0 decline           COMMIT hand(2) sha256(32)
    REVEAL hand(2) bytes(16)            ACTION hands(2) ply(2) action digest(4)
    NEED   (the sender wants a record)  RECORD offset(2) total(2) chunk
    BYE    (the sender leaves)
"""

import os

from pisti_core import linkproto as P
from pisti_core.linkchan import HELLO, Channel, const, ticks_diff
from pisti_core.linkrx import (ACTION, BYE, COMMIT, CONNECT, DEAL, DECLINED, FAILED, JOIN, NEED, OFFER,  # noqa: F401
                               OFFERED, OVER, PLAY, RECORD, RESYNC, REVEAL, SETUP, Receive, _b16, _b32)

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # pyright's view only (the board has no typing module)
    try:
        from typing import Any
    except ImportError:
        pass

_CHUNK = const(20)
GONE_MS = const(180000)  # L-8: a link lost for longer ends the game
ANSWER_MS = const(5000)  # L-1: no hello in this long: nobody (or no pisti) on the cable

class Lockstep(Receive):
    """``Lockstep(port, role, firmware, now, setup=None, levels=())``: the
    host passes its :class:`pisti_core.linkproto.Setup`; ``levels`` names
    the bot levels for the offer's bytes. ``urandom`` is injectable."""

    def __init__(self, port, role, firmware, now=0, setup=None, levels=(), urandom=os.urandom, saved=None,
                 last_ses=-1, key=None):
        self.urandom = urandom
        self.key = key  # L-3: each hand's bytes come from it (kept in the save), else drawn per hand
        self.match = None  # type: Any  # the Match, local numbering
        self.hands_done = 0
        self.rot = setup.guest_seat if setup is not None and role == P.GUEST else 0
        if saved is not None and saved[0] is not None:
            self.match, self.hands_done = P.load(saved[0], self.rot)
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
        self.setup = setup  # type: Any  # a linkproto.Setup once offered
        self.phase = CONNECT
        self.error = None  # a LinkError once FAILED
        self.peer_fw = None  # type: Any  # the other firmware version once heard
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
        self._hello()

    # -- state -------------------------------------------------------------------
    def position(self):
        """``(hands_done, step, digest)`` of the game held, or None; ``step``
        is 0 before the hand is dealt, then 1 + the actions taken."""
        if self.match is None:
            return None
        h = self.match.hand
        step = 0 if h is None else len(h.actions) + 1
        return self.hands_done, step, P.digest(self.match, self.hands_done, self.rot)

    def _pos(self):
        return self.position() or (0, 0, 0)

    def mine(self, seat):
        """True when this console decides local ``seat`` (L-4): its person
        (seat 0), and on the host every bot."""
        if seat == 0:
            return True
        if self.role == P.GUEST:
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

    def _fail(self, err):
        self.phase = FAILED
        self.error = err

    # -- sending -----------------------------------------------------------------
    def _hello(self):
        self.chan.send(HELLO, P.hello(self.role, self.firmware, self.urandom(8), self.position()))

    def offer(self):
        """Host: send the setup to the guest (L-2)."""
        self.chan.send(OFFER, self.setup.to_bytes(self.levels))
        self.phase = SETUP

    def answer(self, join):
        """Guest: join the offered game, or decline it (nothing changes)."""
        self.chan.send(JOIN, b"\x01" if join else b"\x00")
        if join:
            self._start()
        else:
            self.phase = DECLINED

    def _start(self):
        s = self.setup
        self.rot = s.guest_seat if self.role == P.GUEST else 0
        self.hands_done = 0
        self.match = None
        self._deal_phase()

    def _deal_phase(self):
        self.phase = DEAL
        k = self.hands_done
        if self.secret is None or self.secret[0] != k:
            if self.key is not None:  # the same bytes again after a power cut (L-3, L-9)
                self.secret = (k, P.sha256(b"pisti-hand" + bytes(self.key) + _b16(k))[0:16])
            else:
                self.secret = (k, bytes(self.urandom(16)))
            self.peer_secret = None
        self.revealed = False
        self.chan.send(COMMIT, _b16(k) + P.commitment(self.secret[1]))
        self._reveal()

    def _reveal(self):
        k = self.hands_done
        if not self.revealed and self.peer_commit is not None and self.peer_commit[0] == k:
            self.revealed = True
            self.chan.send(REVEAL, _b16(k) + self.secret[1])

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
        dg = P.digest(self.match, hd, self.rot)
        self.chan.send(ACTION, _b16(hd) + _b16(ply) + bytes((a,)) + _b32(dg))
        self._after_action()

    def _after_action(self):
        m = self.match
        if m.hand is not None and m.hand.over:
            m.end_hand()
            self.hands_done += 1
            if m.over:
                self.phase = OVER
            else:
                self._deal_phase()

    def leave(self):
        """Say goodbye (the game ends on both consoles)."""
        self.chan.send(BYE)

    def _send_record(self, force):
        data = P.record(self.match, self.hands_done, self.rot)
        n = len(data)
        f = b"\x01" if force else b"\x00"
        for i in range(0, n, _CHUNK):
            self.chan.send(RECORD, _b16(i) + _b16(n) + f + data[i:i + _CHUNK])

    def _need(self, force):
        """Ask for the other's record: ``force`` takes it even if shorter
        (the host's record after a mismatch, L-5)."""
        self.repairs += 1
        self.phase = RESYNC
        self.inbox = bytearray()
        self.chan.send(NEED, b"\x01" if force else b"\x00")

    # -- receiving ------------------------------------------------------------------
    def poll(self, now):
        """Run the link: returns the number of messages handled."""
        got = self.chan.poll(now)
        for typ, p in got:
            self.received += 1
            if self.phase == FAILED:
                break
            try:
                self._on(typ, p)
            except P.LinkError as e:
                self._fail(e)
        return len(got)

    # -- resuming after a power cut (L-9) --------------------------------------------
    @classmethod
    def resume(cls, port, role, firmware, now, setup, saved, secret=None, levels=(), urandom=os.urandom,
               last_ses=-1, key=None):
        """The console after a boot, from its save: ``saved`` is its
        :func:`pisti_core.linkproto.record` (or None before the first deal),
        ``secret`` the ``(hand, bytes)`` it committed to (L-3), ``last_ses``
        the session byte it used before (saved too), ``key`` the key its
        hands' bytes come from (L-3: saved with the game, so ``secret`` may
        be None). A record saved as its hand ended is scored and the next
        hand's deal begins."""
        self = cls(port, role, firmware, now, setup, levels, urandom, (saved, secret), last_ses, key)
        self.secret = secret
        if self.match is not None and self.match.over:
            self.phase = OVER
        elif self.match is not None and self.match.hand is not None:
            self.phase = PLAY
        else:
            self._deal_phase()
        return self
