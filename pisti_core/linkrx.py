# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkrx`
===================

What a linked console does with each message from the other (RULES.md L-1
.. L-9): :class:`Receive` is mixed into :class:`pisti_core.linkgame.Lockstep`
(two modules, so that the board compiles each in a small heap). The message
types and the phases live here.
"""

from pisti_core import linkproto as P
from pisti_core.linkchan import HELLO, const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # Receive's methods are the Lockstep's (its mixin)
    import pisti_core.linkgame

OFFER = const(2)
JOIN = const(3)
COMMIT = const(4)
REVEAL = const(5)
ACTION = const(6)
NEED = const(7)
RECORD = const(8)
BYE = const(9)

# phases
CONNECT = "connect"  # no hello from the other console yet
OFFERED = "offered"  # guest: an offer waits for join or decline
SETUP = "setup"  # host: waiting for the guest's answer
DEAL = "deal"
PLAY = "play"
RESYNC = "resync"  # waiting for the other console's record
OVER = "over"
FAILED = "failed"
DECLINED = "declined"


def _u16(p, i):
    return p[i] << 8 | p[i + 1]


def _b16(v):
    return bytes((v >> 8 & 255, v & 255))


def _b32(v):
    return bytes((v >> 24 & 255, v >> 16 & 255, v >> 8 & 255, v & 255))


class Receive:
    """The handlers of :class:`pisti_core.linkgame.Lockstep` (its mixin)."""

    def _on(self, typ, p):  # type: (pisti_core.linkgame.Lockstep, int, bytes) -> None
        if typ == HELLO:
            self._on_hello(p)
        elif typ == OFFER and self.role == P.GUEST:
            if self.phase in (CONNECT, OFFERED, DECLINED):
                self.setup = P.Setup.from_bytes(p, self.levels)
                self.phase = OFFERED
            elif self.setup is not None and p == self.setup.to_bytes(self.levels):
                self.chan.send(JOIN, b"\x01")  # the host lost our answer (a power cut): again
        elif typ == JOIN and self.role == P.HOST and self.phase == SETUP:
            if p[:1] == b"\x01":
                self.notices.append("joined")
                self._start()
            else:
                self.phase = DECLINED
        elif typ == COMMIT:
            c = (_u16(p, 0), bytes(p[2:]))
            if c != self.peer_commit:
                self.revealed = False
            self.peer_commit = c
            if self.phase == DEAL:
                self._reveal()
        elif typ == REVEAL:
            self._on_reveal(_u16(p, 0), bytes(p[2:]))
        elif typ == ACTION:
            self._on_action(_u16(p, 0), _u16(p, 2), p[4], _u16(p, 5) << 16 | _u16(p, 7))
        elif typ == NEED:
            if self.match is not None:
                self._send_record(p[:1] == b"\x01" and self.role == P.HOST)
        elif typ == RECORD:
            self._on_record(p)
        elif typ == BYE and self.phase != OVER:  # (a goodbye after the match's end ends nothing)
            self.phase = FAILED
            self.error = P.LinkError("bye", "the other console left the game")

    def _on_hello(self, p):  # type: (pisti_core.linkgame.Lockstep, bytes) -> None
        role, fw, nonce, pos = P.parse_hello(p)
        self.peer_fw = fw
        if role == self.role:
            raise P.LinkError("role", "both consoles are %s" % ("hosts" if role == P.HOST else "guests"))
        if self.sessions == self.chan.sessions:
            return  # a hello of the session already answered
        self.sessions = self.chan.sessions  # a new session of the other console: it starts afresh
        self._hello()
        ph = self.phase
        if self.role == P.HOST and self.setup is not None and ph in (CONNECT, SETUP, DECLINED):
            self.offer()
        elif ph in (DEAL, PLAY, RESYNC, OVER):
            mine = self._pos()
            theirs = pos or (0, 0, 0)
            if theirs[0:2] > mine[0:2] or ph == RESYNC:
                self._need(False)  # L-9: the one behind catches up
            elif theirs[0:2] == mine[0:2] and theirs[2] != mine[2] and self.role == P.GUEST and theirs[1]:
                self._need(True)  # the same ply, another game: the host's record
            elif theirs[0:2] < mine[0:2] and self.match is not None:
                self._send_record(False)  # what it missed may have been dropped with its session
            if self.phase == DEAL:
                self._deal_phase()  # the commitment sent may have been dropped with it

    def _on_reveal(self, k, secret):  # type: (pisti_core.linkgame.Lockstep, int, bytes) -> None
        if self.peer_commit is None or self.peer_commit[0] != k:
            return  # a reveal for another hand: the deal restarts with the hello
        if P.commitment(secret) != self.peer_commit[1]:
            raise P.LinkError("deal", "the other console's bytes do not match its commitment (L-3)")
        self.peer_secret = secret
        if self.phase != DEAL or k != self.hands_done or self.secret[0] != k:
            return
        if self.role == P.HOST:
            hb, gb = self.secret[1], secret
        else:
            hb, gb = secret, self.secret[1]
        s = self.setup
        dealer, deck = P.shared_deal(s.game, s.players, hb, gb, k)
        if self.match is None:
            from pisti_core.match import Match
            self.match = Match(s.game, s.players, s.target, (dealer - self.rot) % s.players)
        self.match.deal(deck)
        self.phase = PLAY
        self.notices.append("dealt")

    def _on_action(self, hd, ply, a, dg):  # type: (pisti_core.linkgame.Lockstep, int, int, int, int) -> None
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
            self._repair()
            return
        h.play(a)
        self.notices.append("action")
        if P.digest(self.match, self.hands_done, self.rot) != dg:
            self.mismatches += 1
            self._repair()  # the guest waits for the host's record; the host's game goes on (L-5)
        if self.phase == PLAY:
            self._after_action()

    def _repair(self):  # type: (pisti_core.linkgame.Lockstep) -> None
        """L-5: the guest takes the host's record; the host sends it."""
        if self.role == P.GUEST:
            self._need(True)
        else:
            self.repairs += 1
            self._send_record(True)

    def _on_record(self, p):  # type: (pisti_core.linkgame.Lockstep, bytes) -> None
        at, n = _u16(p, 0), _u16(p, 2)
        if at == 0:
            self.inbox = bytearray()
        if at != len(self.inbox):
            return
        self.inbox.extend(p[5:])
        if len(self.inbox) < n:
            return
        data = bytes(self.inbox)
        self.inbox = bytearray()
        m, hd = P.load(data, self.rot)
        step = len(m.hand.actions) + 1 if m.hand is not None else 0
        if self.match is not None and (hd, step) < self._pos()[0:2] and not (p[4] and self.role == P.GUEST):
            m = None  # a longer record is kept (L-4), unless it is the host's after a mismatch (L-5)
        else:
            self.match = m
            self.hands_done = hd
            self.notices.append("resync")
        if self.match.over:
            self.phase = OVER
        elif self.match.hand is None:
            self._deal_phase()
        else:
            self.phase = PLAY
            self._after_action()
