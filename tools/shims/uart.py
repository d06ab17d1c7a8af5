# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""A link cable for the desktop: two ``busio.UART`` stand-ins joined by a
virtual line that can drop, corrupt, delay and cut bytes (RULES.md L-6, L-7).

    cable = Cable(clock=lambda: now_ms, loss=0.05, corrupt=0.01, seed=1)
    a, b = cable.a, cable.b          # one end for each console
    a.write(b"hi"); ...; b.read(b.in_waiting)

Each end behaves like CircuitPython's ``busio.UART(tx, rx, baudrate=...,
timeout=0, receiver_buffer_size=N)``: ``write`` returns at once,
``in_waiting`` counts bytes arrived, ``read(n)`` returns at most ``n`` of
them (None when there are none), a full receive buffer drops what comes
next. A byte takes 10 bits on the line (8N1 at ``baudrate``), so time is
the clock's: bytes arrive when the virtual clock has passed their time.
:class:`UART` is that stand-in for ``busio.UART`` when a cable is plugged
into the shims (:func:`plug`).
"""

import random


class End:
    """One end of the cable (the UART of one console)."""

    def __init__(self, cable, name, size=256):
        self.cable = cable
        self.name = name
        self.size = size
        self.rx = bytearray()  # arrived, not read
        self.line = []  # (arrival_us, byte) on the way to this end
        self.free_us = 0  # when the line towards the other end is free
        self.written = 0
        self.overflow = 0
        self.baudrate = cable.baud
        self.timeout = 0

    @property
    def peer(self):
        """The other end."""
        return self.cable.b if self is self.cable.a else self.cable.a

    def _arrive(self):
        line = self.line
        if not line:
            return
        now = self.cable.now_us()
        if line[0][0] > now:
            return  # (nothing has arrived yet)
        i = 0
        while i < len(line) and line[i][0] <= now:
            if len(self.rx) < self.size:
                self.rx.append(line[i][1])
            else:
                self.overflow += 1
            i += 1
        if i:
            del line[:i]

    def write(self, buf):
        """Send ``buf`` towards the other end; returns its length."""
        c = self.cable
        now = c.now_us()
        t = max(now, self.free_us)
        per = 10 * 1000000 // c.baud
        dst = self.peer.line
        rnd = c.rng.random
        cut, loss, corrupt, delay = c.cut, c.loss, c.corrupt, c.delay_us
        data = bytes(buf)
        self.written += len(data)
        for b in data:
            t += per
            if cut or rnd() < loss:
                c.dropped += 1
                continue
            if rnd() < corrupt:
                b ^= 1 << c.rng.randrange(8)
                c.corrupted += 1
            dst.append((t + delay, b))
        self.free_us = t
        if c.noise and c.rng.random() < c.noise:
            dst.append((t + c.delay_us, c.rng.randrange(256)))
        return len(buf)

    @property
    def in_waiting(self):
        """Bytes that have arrived and wait to be read."""
        self._arrive()
        return len(self.rx)

    def read(self, n=None):
        """Up to ``n`` arrived bytes (all when None); None when there are none."""
        self._arrive()
        if not self.rx:
            return None
        if n is None or n > len(self.rx):
            n = len(self.rx)
        out = bytes(self.rx[:n])
        del self.rx[:n]
        return out

    def reset_input_buffer(self):
        """Forget what has arrived."""
        self._arrive()
        self.rx = bytearray()

    def power_cut(self):
        """This console lost power: what it had received is gone."""
        self.rx = bytearray()
        self.line = []

    def deinit(self):
        """Release the UART (nothing to do here)."""


class Cable:
    """Two ends joined by a line: ``loss`` and ``corrupt`` are per-byte
    probabilities, ``noise`` the chance that a write adds a stray byte,
    ``delay_ms`` the latency; ``cut`` (settable) drops everything."""

    def __init__(self, clock, loss=0.0, corrupt=0.0, noise=0.0, delay_ms=0, seed=0, baud=115200, size=256):
        self.clock = clock
        self.loss = loss
        self.corrupt = corrupt
        self.noise = noise
        self.delay_us = int(delay_ms * 1000)
        self.rng = random.Random(seed)
        self.baud = baud
        self.cut = False
        self.dropped = 0
        self.corrupted = 0
        self.a = End(self, "a", size)
        self.b = End(self, "b", size)

    def now_us(self):
        """The clock in microseconds."""
        return int(self.clock() * 1000)


_PLUGGED = []


def plug(end):
    """The next ``busio.UART(...)`` made through :class:`UART` gets ``end``."""
    _PLUGGED.append(end)


class UART:
    """``busio.UART(tx, rx, *, baudrate=9600, timeout=1, receiver_buffer_size=64)``
    on the desktop: an end of a cable given to :func:`plug` first, else the
    installed rig's ``link_end`` (each console of ``sim.py --link``), or an
    unplugged end that hears nothing."""

    def __new__(cls, tx=None, rx=None, *, baudrate=9600, timeout=1.0, receiver_buffer_size=64, **_kw):
        from . import _active
        rig_end = getattr(_active.RIG, "link_end", None)
        if _PLUGGED:
            end = _PLUGGED.pop(0)
        elif rig_end is not None:
            end = rig_end
        else:
            end = Cable(lambda: 0, baud=baudrate, size=receiver_buffer_size).a
            end.cable.cut = True
        end.size = receiver_buffer_size
        end.baudrate = baudrate
        end.timeout = timeout
        end.tx = tx
        end.rx_pin = rx
        return end
