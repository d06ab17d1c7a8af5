# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's busio (C) in the heap gauge: an I2C bus to nowhere.


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        self.frequency = frequency

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def writeto(self, address, buffer, *, start=0, end=None):
        pass

    def scan(self):
        return [0x3C]

    def deinit(self):
        pass


# The link cables' UARTs: sized like CircuitPython's busio.UART, an object
# and its receive buffer (``receiver_buffer_size`` bytes, allocated on the
# heap with the object); ``read(n)`` returns a new bytes, ``write`` sends at
# once (the C driver's TX FIFO costs no heap). A console has two link UARTs
# (a ring of three or four consoles joins console i's first to console
# i+1's second): a UART is the first link's when its TX or RX pin is
# PISTI_LINK_TX / PISTI_LINK_RX, the second's on PISTI_LINK2_TX /
# PISTI_LINK2_RX (settings.toml, else the firmware's defaults: GP0/GP1 and
# GP8/GP9 on a Pico, TX/RX and D24/D25 on a Feather, as
# pisti_app.link.linkport chooses them), else no link's. The gauge's driver
# moves each link's bytes between the consoles' VMs: ``arrive`` (what came
# on a link's cable, into that link's open UART; a full buffer drops the
# rest as on the board) and ``sent`` (what a link's UARTs wrote, taken each
# tick). A link with no cable (``cables``: by default the first has one, the
# second none) hears nothing, and what is written on it goes nowhere.
FIRST = 1
SECOND = 2
_uarts = []
_SENT = 1024
# (setting, with GP pins (a Pico), without (a Feather)): pisti_app.link.linkport's defaults
_PINS = (("PISTI_LINK_TX", "GP0", "TX"), ("PISTI_LINK_RX", "GP1", "RX"),
         ("PISTI_LINK2_TX", "GP8", "D24"), ("PISTI_LINK2_RX", "GP9", "D25"))
_cabled = bytearray((0, 1, 0))  # by link (0: no link's pins): 1 where a cable is plugged


def _pin(i):
    # the pin setting _PINS[i] names (the stand-in boards give each pin as its name)
    import os
    import board
    key, pico, other = _PINS[i]
    v = os.getenv(key) if hasattr(os, "getenv") else None
    if v is None or v == "":
        return pico if hasattr(board, "GP0") else other
    return str(v)


def link_of(tx, rx):
    """Which link ``busio.UART(tx, rx)`` is: :data:`FIRST`, :data:`SECOND`, or 0 for neither."""
    if tx == _pin(0) or rx == _pin(1):
        return FIRST
    if tx == _pin(2) or rx == _pin(3):
        return SECOND
    return 0


class UART:
    def __init__(self, tx, rx, *, baudrate=9600, bits=8, parity=None, stop=1, timeout=1,
                 receiver_buffer_size=64):
        self.baudrate = baudrate
        self.timeout = timeout
        self._buf = bytearray(receiver_buffer_size)
        self._n = 0
        self.dropped = 0
        self.link = link_of(tx, rx)
        _uarts.append(self)

    @property
    def in_waiting(self):
        return self._n

    def read(self, nbytes=None):
        n = self._n
        if not n:
            return None
        if nbytes is not None and nbytes < n:
            n = nbytes
        out = bytes(self._buf[:n])
        self._buf[:self._n - n] = self._buf[n:self._n]
        self._n -= n
        return out

    def write(self, buf):
        if _cabled[self.link]:
            _wires[self.link].append(buf)
        return len(buf)

    def reset_input_buffer(self):
        self._n = 0

    def deinit(self):
        if self in _uarts:
            _uarts.remove(self)


def _put(buf, n, data):
    # data into buf from n on, as far as it fits (nothing allocated but the answer): (new n, bytes lost)
    size = len(buf)
    lost = 0
    for x in data:
        if n < size:
            buf[n] = x
            n += 1
        else:
            lost += 1
    return n, lost


class _Wire:
    # the bytes a link's UARTs wrote this tick (the driver takes them): preallocated
    def __init__(self):
        self.buf = bytearray(_SENT)
        self.n = 0
        self.lost = 0

    def append(self, b):
        self.n, lost = _put(self.buf, self.n, b)
        self.lost += lost


_wires = (None, _Wire(), _Wire())


def cables(first, second):
    """The gauge driver: which links have a cable (1) or none (0)."""
    _cabled[1] = first
    _cabled[2] = second


def arrive(data, link=FIRST):
    """The gauge driver: ``data`` came on ``link``'s cable: into that link's
    open UART (the newest, if two are open); with none open, or no cable
    there, the bytes are lost. Returns how many were taken."""
    if not _cabled[link]:
        return 0
    for k in range(len(_uarts) - 1, -1, -1):
        u = _uarts[k]
        if u.link == link:
            u._n, lost = _put(u._buf, u._n, data)
            u.dropped += lost
            return len(data)
    return 0


def sent(link=FIRST):
    """The gauge driver: the bytes ``link``'s UARTs wrote since the last
    call (a memoryview copy is the caller's)."""
    w = _wires[link]
    n = w.n
    w.n = 0
    return bytes(w.buf[:n])
