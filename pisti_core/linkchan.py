# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkchan`
=====================

Stop-and-wait over the cable (RULES.md L-6): one message in flight, sent
again until the other console acknowledges it; a duplicate is recognised by
its sequence number and delivered once. The clock is injected: every call
takes ``now`` (milliseconds, ``supervisor.ticks_ms()`` on the board, which
wraps at 2**29).

The port is anything with ``write(buf)``, ``in_waiting`` and ``read(n)``
(``busio.UART(..., timeout=0)`` on the board).

Sessions: each console picks a session byte at boot. A new session from the
other end is accepted only with a HELLO (:data:`HELLO`); frames of an
unknown session are dropped, so after a reboot nothing stale is applied and
no stale acknowledgement is believed. The acknowledgement field counts only
when the frame's type has bit 7 set (the sender has heard this session).
"""

from pisti_core.linkframe import Decoder, const, encode

ACK = const(0)  # acknowledgement only (keeps the link alive)
HELLO = const(1)  # the first message of a session (L-1)
_ACKED = const(0x80)
_TYPE = const(0x7F)
_WRAP = const(0x20000000)  # supervisor.ticks_ms wraps here
_HALF = const(0x10000000)
RESEND_MS = const(60)
RESEND_MAX_MS = const(480)
KEEPALIVE_MS = const(400)
LOST_MS = const(2000)


def ticks_diff(a, b):
    """``a - b`` in milliseconds, across the 2**29 wrap."""
    return ((a - b + _HALF) & (_WRAP - 1)) - _HALF


class Channel:
    """``Channel(port, ses, now)``: ``send(typ, payload)`` queues a message;
    ``poll(now)`` reads the port, acknowledges, resends and returns the
    messages delivered, in order, as ``(typ, payload)`` tuples. A HELLO from
    a new session of the other console is delivered as ``(HELLO, payload)``
    after the channel dropped what it still had to send (the other console
    starts afresh; the game layer decides what to send again)."""

    def __init__(self, port, ses, now=0, seq=0):
        self.port = port
        self.ses = ses & 255
        self.dec = Decoder()
        self.tx_seq = seq & 255  # random at boot: a restart is told apart by it too
        self.queue = []  # messages waiting: (typ, payload)
        self.out = None  # the frame in flight: (seq, typ, payload)
        self.sent_at = now
        self.wait = RESEND_MS
        self.peer = -1  # the other console's session byte, -1 unknown
        self.sessions = 0  # sessions of the other console heard (new ones counted)
        self.rx = 0  # the next sequence number expected from it
        self.heard = now  # last valid frame from the other console
        self.last_tx = now
        self.resends = 0
        self.dupes = 0
        self.frames_in = 0
        self._frames = []
        self._wire = bytearray()

    # -- sending -------------------------------------------------------------------
    def send(self, typ, payload=b""):
        """Queue a message (``typ`` 1..127); it goes once the previous ones are
        acknowledged."""
        if not 0 < typ <= _TYPE:
            raise ValueError("a message type is 1..127, not %r" % (typ,))
        self.queue.append((typ, bytes(payload)))

    def idle(self):
        """True when nothing waits to be sent or acknowledged."""
        return self.out is None and not self.queue

    def can_send(self):
        """True when a message waits and the line is free (nothing in flight)."""
        return self.out is None and len(self.queue) > 0

    def due(self):
        """True when a poll now has work: bytes have come, or :meth:`can_send`."""
        return self.port.in_waiting > 0 or self.can_send()

    def reset_tx(self):
        """Forget everything not yet acknowledged."""
        self.queue = []
        self.out = None

    def _emit(self, seq, typ, payload, now):
        w = self._wire
        w[:] = b""
        ack = (self.rx - 1) & 255
        if self.peer >= 0:
            typ |= _ACKED
        encode(self.ses, seq, ack, typ, payload, w)
        self.port.write(w)
        self.last_tx = now

    def lost(self, now):
        """True when nothing has been heard for :data:`LOST_MS` (L-7)."""
        return ticks_diff(now, self.heard) > LOST_MS

    # -- the loop ------------------------------------------------------------------
    def poll(self, now):
        """Read, acknowledge, resend; the messages delivered, in order (a
        shared empty tuple when none: a tick with nothing allocates nothing)."""
        got = ()
        port = self.port
        n = port.in_waiting
        frames = self._frames
        if n:
            data = port.read(n)
            if data:
                self.dec.feed(data, frames)
        ack_due = False
        for f in frames:
            typ = f.typ & _TYPE
            if f.ses != self.peer or (typ == HELLO and f.seq != self.rx and f.seq != (self.rx - 1) & 255):
                # a new session, or the same byte drawn again at a reboot: a hello
                # that is neither the next frame nor a resend of the last one
                if typ != HELLO:
                    continue  # a session not (yet) known: nothing is believed
                self.peer = f.ses
                self.rx = f.seq
                self.sessions += 1
                self.reset_tx()
            self.heard = now
            self.frames_in += 1
            if f.typ & _ACKED and self.out is not None and f.ack == self.out[0]:
                self.out = None
                self.wait = RESEND_MS
            if typ == ACK:
                continue
            ack_due = True
            if f.seq == self.rx:
                self.rx = (self.rx + 1) & 255
                if not got:
                    got = []
                got.append((typ, f.payload))
            else:
                self.dupes += 1
        if frames:
            frames[:] = []
        if self.out is None and self.queue:
            typ, payload = self.queue.pop(0)
            self.out = (self.tx_seq, typ, payload)
            self.tx_seq = (self.tx_seq + 1) & 255
            self._emit(self.out[0], typ, payload, now)
            self.sent_at = now
            self.wait = RESEND_MS
            ack_due = False
        elif self.out is not None and ticks_diff(now, self.sent_at) >= self.wait:
            o = self.out
            self._emit(o[0], o[1], o[2], now)
            self.sent_at = now
            self.resends += 1
            self.wait = min(self.wait * 2, RESEND_MAX_MS)
            ack_due = False
        if ack_due or ticks_diff(now, self.last_tx) >= KEEPALIVE_MS:
            self._emit(self.tx_seq, ACK, b"", now)
        return got
