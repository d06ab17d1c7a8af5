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

A console has two link UARTs (a ring of three or four consoles, RULES.md
L-11 .. L-17, joins console ``i``'s first UART to console ``i+1``'s second). Which
one a ``busio.UART(tx, rx, ...)`` is, is told by its pins, against the
console's own settings as the firmware reads them (:func:`link_of`): the
first on ``PISTI_LINK_TX``/``PISTI_LINK_RX``, the second on
``PISTI_LINK2_TX``/``PISTI_LINK2_RX``. The installed rig's ``link_end`` is
the first's cable end and ``link_end2`` the second's (either may be None).
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


#: The link UARTs' pins where settings.toml names none, as the firmware
#: chooses them: a board with ``GP0`` (the Pico) or another (the Feather).
DEFAULT_PINS = {
    True: {"PISTI_LINK_TX": "GP0", "PISTI_LINK_RX": "GP1", "PISTI_LINK2_TX": "GP8", "PISTI_LINK2_RX": "GP9"},
    False: {"PISTI_LINK_TX": "TX", "PISTI_LINK_RX": "RX", "PISTI_LINK2_TX": "D24", "PISTI_LINK2_RX": "D25"},
}
FIRST, SECOND = 1, 2

_PLUGGED = []  # (end, link): link None is any UART but the second link's


def link_pins(settings, pins):
    """``{setting: GPIO number}`` of the two links' pins on a board with
    ``pins`` ({name: Pin}) and ``settings`` ({key: value}), an unset or
    empty setting taking the default; a name that is not a pin is left out."""
    defaults = DEFAULT_PINS["GP0" in pins]
    out = {}
    for key, default in defaults.items():
        value = settings.get(key)
        name = default if value is None or value == "" else str(value)
        pin = pins.get(name)
        if pin is not None:
            out[key] = pin.gpio
    return out


def link_of(rig, tx, rx):
    """Which link UART ``busio.UART(tx, rx)`` is on ``rig``'s console:
    :data:`FIRST`, :data:`SECOND`, or 0 for pins of neither link. Without a
    rig, or without board pins to compare (``UART()`` in a test), it is the
    first, as when there was one link."""
    gpios = [getattr(pin, "gpio", None) for pin in (tx, rx)]
    if rig is None or not any(isinstance(g, int) for g in gpios):
        return FIRST
    known = link_pins(getattr(rig, "settings", {}), getattr(rig, "pins", {}))
    for link, keys in ((FIRST, ("PISTI_LINK_TX", "PISTI_LINK_RX")), (SECOND, ("PISTI_LINK2_TX", "PISTI_LINK2_RX"))):
        if gpios[0] is not None and gpios[0] == known.get(keys[0]):
            return link
        if gpios[1] is not None and gpios[1] == known.get(keys[1]):
            return link
    return 0


def plug(end, link=None):
    """The next ``busio.UART(...)`` made through :class:`UART` gets ``end``:
    with ``link`` None any UART but one on the second link's pins (a test's
    one cable stays the first link's while the firmware listens on both),
    with :data:`FIRST` or :data:`SECOND` the next UART on that link's pins."""
    _PLUGGED.append((end, link))


def _take_plugged(link):
    for i, (end, wanted) in enumerate(_PLUGGED):
        if wanted == link or (wanted is None and link != SECOND):
            del _PLUGGED[i]
            return end
    return None


class UART:
    """``busio.UART(tx, rx, *, baudrate=9600, timeout=1, receiver_buffer_size=64)``
    on the desktop: an end of a cable given to :func:`plug` first, else the
    installed rig's end of the link the pins are (``link_end`` for the
    first, ``link_end2`` for the second: each console of ``sim.py --link``),
    or an unplugged end that hears nothing (pins of no link, or a link with
    no cable)."""

    def __new__(cls, tx=None, rx=None, *, baudrate=9600, timeout=1.0, receiver_buffer_size=64, **_kw):
        from . import _active
        rig = _active.RIG
        link = link_of(rig, tx, rx)
        end = _take_plugged(link)
        if end is None and link:
            end = getattr(rig, "link_end" if link == FIRST else "link_end2", None)
        if end is None:
            end = Cable(lambda: 0, baud=baudrate, size=receiver_buffer_size).a
            end.cable.cut = True
        end.size = receiver_buffer_size
        end.baudrate = baudrate
        end.timeout = timeout
        end.tx = tx
        end.rx_pin = rx
        return end


def wire(n, clock, *, loss=0.0, corrupt=0.0, noise=0.0, delay_ms=0, seed=0):
    """The cables of ``n`` linked consoles and each console's ``(first,
    second)`` ends (a rig's ``link_end`` and ``link_end2``).

    Two consoles: one cable (seeded ``seed``) between the two first UARTs;
    the second UARTs have none. Three or four: a ring of ``n`` cables, cable
    ``i`` (seeded ``seed + i``) from console ``i``'s first UART (its end
    ``a``) to console ``i+1``'s second (its end ``b``), the last console's
    first back to console 0's second."""
    if not 2 <= n <= 4:
        raise ValueError("a link joins 2 to 4 consoles, not %d" % n)

    def cable(i):
        return Cable(clock, loss=loss, corrupt=corrupt, noise=noise, delay_ms=delay_ms, seed=seed + i)

    if n == 2:
        c = cable(0)
        return [c], [(c.a, None), (c.b, None)]
    cables = [cable(i) for i in range(n)]
    return cables, [(cables[i].a, cables[i - 1].b) for i in range(n)]
