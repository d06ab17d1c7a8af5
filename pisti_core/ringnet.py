# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringnet`
====================

Up to four consoles in a ring (RULES.md L-11): console ``i``'s first UART
goes to console ``i+1``'s second one, the last console's back to the
first's. :class:`Ring` carries messages between every two of them.

How, and why so:

* **Per cable, the two-console channel.** Each cable is a
  :class:`pisti_core.linkchan.Channel` of its own (L-6: frames with a
  CRC, stop and wait, resends, a session per boot): a lossy cable costs
  resends on that cable only, not a trip round the ring. The channel's
  HELLO opens each cable's session and names the neighbour (its ring id
  and protocol, :func:`pisti_core.ringproto.hello`).
* **Over the cables, flooding both ways.** A message goes out of both
  cables. Its head (five bytes) names the console it comes from
  (``origin``, its ring id), that console's session byte, a sequence
  number of its own (a byte: the window below is far shorter), the
  console it is for (``dst``, :data:`ALL` for everyone) and the hops it
  may still take (``ttl``, 3 at the start: four consoles in a ring are at
  most three cables apart). A console takes a message the first time it
  sees it (a window of the last 24 numbers of the origin's session), gives
  it to the game if it is for it, and passes it on out of the other cable
  unless it was the message's destination or the ttl is spent; a message
  waiting to go out of a cable is dropped when the same one comes in over
  that cable (the neighbour has it: the two ways round met). So every
  message reaches every console both ways round: one cable pulled, it
  still arrives the other way; two pulled cut a console off (its
  neighbours and it count down L-7's lost link).
* **No end-to-end acknowledgement.** The game is a lockstep whose
  messages say where they stand (an action names its hand and ply): what
  a reboot or a trimmed queue loses is found by the statuses and mended
  with a record from a console ahead (L-13). A cable pulled holds the
  frames for it only while the neighbour is heard; then they are trimmed
  to a few (the other way round carries them), and only the newest status
  of each console is kept in any queue.

The ports are UARTs as for the channel (``write``, ``in_waiting``,
``read``); a port may be None (a console at the end of a broken ring).
"""

from pisti_core.linkchan import HELLO, Channel, const, ticks_diff
from pisti_core.ringdefs import ALL, added
HEAD = const(5)  # origin, session, sequence, dst, ttl
TTL = const(3)
_WINDOW = const(24)  # (a mask of 24 bits stays a small int on the board)
_ORIGINS = const(8)  # origins' windows kept (four consoles, and room for a damaged frame's)
_QUEUE_LOST = const(6)  # messages kept waiting on a cable that is not heard
_RESEND_MAX = const(120)  # the longest wait before a frame is sent again (a ring carries more than one link)


class Ring:
    """``Ring(ports, me, hello, now, seq)``: ``ports`` the two UARTs (either
    may be None), ``me`` this console's ring id (1..254), ``hello`` the
    payload of each cable's HELLO, ``ses`` the session byte (new at each
    boot). ``send(typ, body, dst)`` sends a message; ``poll(now)`` runs
    both cables and returns what came for this console, in order, as
    ``(origin, typ, body)`` tuples; a neighbour's HELLO comes as ``(-1 -
    cable, HELLO, payload)`` when it opens a new session. ``latest`` is a
    message type of which a queue keeps only the newest from each origin
    (the status). Messages under this console's own id are given to the
    game and never passed on."""

    def __init__(self, ports, me, hello, now=0, ses=0, seq=(0, 0), latest=-1):
        self.me = me
        self.ses = ses & 255
        self.hello = hello
        self.latest = latest
        self.chans = [None if ports[i] is None else Channel(ports[i], ses, now, seq[i]) for i in range(2)]
        self.hop_sessions = [0, 0]  # the neighbours' sessions whose HELLO was answered
        self.seq = 0
        self.seen = []  # [origin, session, highest number, mask of the 24 before it, numbers from before it]
        self.heard = {}  # ring id -> the time its last message came (any cable)
        self.last_sent = now
        self.forwarded = 0
        self.trimmed = 0
        self.pruned = 0
        for c in self.chans:
            if c is not None:
                c.send(HELLO, hello)

    # -- sending ------------------------------------------------------------------
    def send(self, typ, body=b"", dst=ALL, now=None):
        """Send a message (``typ`` 2..127) to ``dst``, out of both cables."""
        s = self.seq
        self.seq = (s + 1) & 255
        p = bytes((self.me, self.ses, s, dst, TTL)) + bytes(body)
        for i in range(2):
            self._queue(i, typ, p, now)
        if now is not None:
            self.last_sent = now

    def _queue(self, i, typ, p, now):
        c = self.chans[i]
        if c is None:
            return
        q = c.queue
        if typ == self.latest:
            for j in range(len(q)):
                if q[j][0] == typ and q[j][1][0] == p[0]:
                    q[j] = (typ, p)  # only the newest status of a console waits
                    return
        q.append((typ, p))
        if now is None or not c.lost(now):
            return
        while len(q) > _QUEUE_LOST:
            j = 0
            while j < len(q) - 1 and q[j][0] == HELLO:
                j += 1
            del q[j]
            self.trimmed += 1

    def _unqueue(self, i, typ, p):
        """Drop a message waiting to go out of cable ``i`` that came in over
        it (the same origin, session and number)."""
        q = self.chans[i].queue
        for j in range(len(q)):
            e = q[j]
            if e[0] == typ and e[1][0] == p[0] and e[1][1] == p[1] and e[1][2] == p[2]:
                del q[j]
                self.pruned += 1
                return

    # -- state ----------------------------------------------------------------------
    def cable_lost(self, i, now):
        """True when nothing came over cable ``i`` for the channel's LOST_MS
        (or it has no port)."""
        c = self.chans[i]
        return c is None or c.lost(now)

    def cut_off(self, now):
        """True when neither cable hears anything (L-7)."""
        return self.cable_lost(0, now) and self.cable_lost(1, now)

    def since(self, cid, now):
        """Milliseconds since a message of console ``cid`` came (-1: never)."""
        t = self.heard.get(cid)
        return -1 if t is None else ticks_diff(now, t)

    def resends(self):
        """Frames sent again on both cables."""
        return sum(c.resends for c in self.chans if c is not None)

    def due(self):
        """True when a poll now has work on either cable (:meth:`pisti_core.linkchan.Channel.due`)."""
        for c in self.chans:
            if c is not None and c.due():
                return True
        return False

    def idle(self):
        """True when nothing waits to be sent or acknowledged on either cable."""
        for c in self.chans:
            if c is not None and not c.idle():
                return False
        return True

    def _new(self, o, ses, sq):
        """True the first time (origin, session, sequence) is seen. One
        window an origin: a session other than its window's starts a new one
        (a console booted again; its session byte differs from the boot
        before, and an older one's window is gone by then). Three numbers in
        a row from before the window start it afresh too: the window was
        moved by a damaged frame that passed its CRC, or the numbers wrapped
        while this console heard nothing of that origin."""
        seen = self.seen
        for e in seen:
            if e[0] == o:
                if e[1] != ses:
                    e[1] = ses
                    e[2] = sq
                    e[3] = e[4] = 0
                    return True
                d = (sq - e[2]) & 255
                if d and d < 128:  # newer than the highest: slide the window (small ints only)
                    e[3] = ((e[3] & ((1 << (_WINDOW - d)) - 1)) << d | 1 << (d - 1)) if d <= _WINDOW else 0
                    e[2] = sq
                    e[4] = 0
                    return True
                d = (e[2] - sq) & 255  # 0: the highest itself
                if d > _WINDOW:
                    e[4] += 1
                    if e[4] < 3:
                        return False
                    e[2] = sq
                    e[3] = e[4] = 0
                    return True
                if d == 0 or e[3] >> (d - 1) & 1:
                    return False
                e[3] |= 1 << (d - 1)
                e[4] = 0
                return True
        if len(seen) >= _ORIGINS:
            del seen[0]
        seen.append([o, ses, sq, 0, 0])
        return True

    # -- the loop --------------------------------------------------------------------
    def poll(self, now):
        """Run both cables; the messages for this console, in order (a shared
        empty tuple when none: a tick with nothing allocates nothing)."""
        out = ()
        for k in range(3):
            i = k & 1
            c = self.chans[i]
            if c is None or k == 2 and not c.can_send():
                continue  # (k 2: the first cable again, when a message passed on to it can go now, not next tick)
            got = c.poll(now)
            if c.wait > _RESEND_MAX:
                c.wait = _RESEND_MAX
            for typ, p in got:
                if typ == HELLO:
                    if c.sessions != self.hop_sessions[i]:
                        # a neighbour's new session: it starts afresh, and what waited for it is gone
                        self.hop_sessions[i] = c.sessions
                        c.send(HELLO, self.hello)
                        out = added(out, (-1 - i, HELLO, p))
                    continue
                if len(p) < HEAD:
                    continue
                o = p[0]
                if o == self.me:
                    # our own come round, from this boot or one before, or another console's that drew the
                    # same id (even the same session byte): the game tells them apart by the hello's stamp
                    out = added(out, (o, typ, p[HEAD:]))
                    continue
                self.heard[o] = now  # (a message seen before says the console is there too)
                if not self._new(o, p[1], p[2]):
                    self._unqueue(i, typ, p)  # the neighbour has it: not passed on to it
                    continue
                dst = p[3]
                if dst == ALL or dst == self.me:
                    out = added(out, (o, typ, p[HEAD:]))
                if dst != self.me and p[4] > 1:
                    self.forwarded += 1
                    self._queue(1 - i, typ, p[0:4] + bytes((p[4] - 1,)) + p[HEAD:], now)
        return out
