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


# The link cable's UART: sized like CircuitPython's busio.UART, an
# object and its receive buffer (``receiver_buffer_size`` bytes, allocated on
# the heap with the object); ``read(n)`` returns a new bytes, ``write`` sends
# at once (the C driver's TX FIFO costs no heap). The gauge's driver moves the
# bytes between the two consoles' VMs: ``arrive`` (what the other console sent,
# a full buffer drops the rest as on the board) and ``sent`` (taken each tick).
_uarts = []
_SENT = 1024


class UART:
    def __init__(self, tx, rx, *, baudrate=9600, bits=8, parity=None, stop=1, timeout=1,
                 receiver_buffer_size=64):
        self.baudrate = baudrate
        self.timeout = timeout
        self._buf = bytearray(receiver_buffer_size)
        self._n = 0
        self.dropped = 0
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
        _wire.append(buf)
        return len(buf)

    def reset_input_buffer(self):
        self._n = 0

    def deinit(self):
        if self in _uarts:
            _uarts.remove(self)


class _Wire:
    # the bytes written this tick (the driver takes them): preallocated
    def __init__(self):
        self.buf = bytearray(_SENT)
        self.n = 0
        self.lost = 0

    def append(self, b):
        for x in b:
            if self.n < _SENT:
                self.buf[self.n] = x
                self.n += 1
            else:
                self.lost += 1


_wire = _Wire()


def arrive(data):
    """The gauge driver: ``data`` reached this console's UART (the newest one)."""
    if not _uarts:
        return 0
    u = _uarts[-1]
    size = len(u._buf)
    for x in data:
        if u._n < size:
            u._buf[u._n] = x
            u._n += 1
        else:
            u.dropped += 1
    return len(data)


def sent():
    """The gauge driver: the bytes written since the last call (a memoryview
    copy is the caller's)."""
    n = _wire.n
    _wire.n = 0
    return bytes(_wire.buf[:n])
