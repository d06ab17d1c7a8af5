# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`tools.shims.nvm`
=================

A desktop stand-in for ``microcontroller.nvm`` on the RP2040 that models the
flash underneath it, so tests can count sector erases and cut the power in
the middle of any write.

The write rule is CircuitPython's (``ports/raspberrypi/common-hal/nvm/
ByteArray.c``): a write whose target bytes are all 0xFF is only programmed
(no erase); any other write copies the sector, erases it and programs the
whole sector back (4096 bytes, in address order). The nvm is one sector, so
an array of another ``size`` is treated as one sector of that size.

Indexing follows CircuitPython's ``nvm.ByteArray`` (shared-bindings): ``len``,
int and slice reads (a slice read returns a new ``bytearray``), int and slice
writes. Slices are clamped like Python's; a slice write needs a bytes-like
value of exactly the slice's length (else ``ValueError``); a step other than
1 is ``NotImplementedError``; an int index out of range is ``IndexError``;
an int value outside 0..255 is ``ValueError``.

Cut points. Every unit of flash work is a cut point: each programmed byte,
and each sector erase. ``cut_after_bytes = N`` (in the constructor, or set
later) means the power fails once N more units have completed, counted from
the moment it is set (for an absolute count use ``N - nvm.cut_points``).
The write in progress is then left as the flash would be: a program write
has its first k bytes programmed; an erase-and-rewrite is untouched if the
cut comes before the erase, all 0xFF right after it, then programmed from
address 0 up. If the N-th unit is the last of a write, the write is complete
but ``PowerCut`` is still raised (the program never learns it succeeded);
``N == 0`` cuts before the next write does anything. After a cut the
backing file holds the flash as left, and every access raises ``PowerCut``
until a new ``FlashNvm`` is opened on the file (or ``restart()`` is called):
that is the reboot.

In a program write CircuitPython re-programs the rest of each touched
256-byte page with its current contents; that changes no bit, so those
bytes are not counted. ``bytes_written`` counts programmed bytes (target
bytes of a program write, the whole sector of an erase-and-rewrite) and so,
with ``erases``, the cut points spent.
"""

import operator
import os

_FF = b"\xff"


class PowerCut(Exception):
    """The simulated power failed; reopen the nvm (a restart) to go on."""


class FlashNvm:
    """``microcontroller.nvm`` of an RP2040: one flash sector, counted and cuttable.

    :param str path: backing file; created all 0xFF when missing. A file of
        another length is read as the bytes it has, padded with 0xFF or
        truncated (so tests can plant garbage). ``None`` keeps it in memory.
    :param int size: bytes of nvm (4096 on the RP2040).
    :param int cut_after_bytes: cut the power after this many cut points.
    :param data: initial contents for an in-memory nvm (padded/truncated).
    """

    def __init__(self, path=None, size=4096, cut_after_bytes=None, data=None):
        if size <= 0:
            raise ValueError("nvm size must be positive, not %r" % (size,))
        self._path = path
        self._size = size
        self._erased = _FF * size
        mem = bytearray(self._erased)
        if path is not None:
            if os.path.exists(path):
                with open(path, "rb") as f:
                    raw = f.read(size)
                mem[: len(raw)] = raw
            else:
                with open(path, "wb") as f:
                    f.write(mem)
        elif data is not None:
            raw = bytes(data[:size])
            mem[: len(raw)] = raw
        self._mem = mem
        self.erases = 0
        self.bytes_written = 0
        self.writes = 0
        self._dead = False
        self._budget = None
        self.cut_after_bytes = cut_after_bytes

    # -- power cut control -------------------------------------------------
    @property
    def cut_after_bytes(self):
        """Cut points left before the power fails (``None``: never)."""
        return self._budget

    @cut_after_bytes.setter
    def cut_after_bytes(self, n):
        if n is not None and n < 0:
            raise ValueError("cut_after_bytes must be >= 0 or None, not %r" % (n,))
        self._budget = n

    @property
    def cut_points(self):
        """Cut points spent since this nvm was opened: erases + bytes programmed."""
        return self.erases + self.bytes_written

    @property
    def dead(self):
        """True once the power has been cut (every access raises PowerCut)."""
        return self._dead

    def snapshot(self):
        """The flash contents as bytes (an inspection aid; works after a cut)."""
        return bytes(self._mem)

    def restart(self):
        """Reboot: a new FlashNvm on the same file, or on these bytes if in memory."""
        if self._path is not None:
            return FlashNvm(self._path, self._size)
        return FlashNvm(size=self._size, data=self._mem)

    # -- bytearray-like interface -------------------------------------------
    def __len__(self):
        self._alive()
        return self._size

    def __bool__(self):
        return True

    def __getitem__(self, index):
        self._alive()
        if isinstance(index, slice):
            start, stop, step = index.indices(self._size)
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            return bytearray(self._mem[start:stop])
        return self._mem[self._index(index)]

    def __setitem__(self, index, value):
        self._alive()
        if isinstance(index, slice):
            start, stop, step = index.indices(self._size)
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            if not isinstance(value, (bytes, bytearray, memoryview)):
                try:
                    value = memoryview(value)  # array.array
                except TypeError:
                    raise NotImplementedError("array/bytes required on right side") from None
            view = memoryview(value)
            if view.itemsize != 1:
                raise ValueError("Array values should be single bytes.")
            n = max(0, stop - start)
            if view.nbytes != n:
                raise ValueError("Slice and value different lengths.")
            self._write(start, bytes(view))
        else:
            i = self._index(index)
            v = operator.index(value)
            if not 0 <= v <= 255:
                raise ValueError("Bytes must be 0-255.")
            self._write(i, bytes((v,)))

    def __delitem__(self, index):
        raise TypeError("'ByteArray' object doesn't support item deletion")

    # -- internals -----------------------------------------------------------
    def _alive(self):
        if self._dead:
            raise PowerCut("the power was cut; reopen the nvm to restart")

    def _index(self, index):
        i = operator.index(index)
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError("ByteArray index out of range")
        return i

    def _write(self, start, data):
        self.writes += 1
        n = len(data)
        mem = self._mem
        budget = self._budget
        if budget == 0:
            self._cut(None)
        end = start + n
        if mem[start:end] == self._erased[:n]:
            # Program only: bytes go down in address order.
            if budget is not None and budget < n:
                mem[start : start + budget] = data[:budget]
                self.bytes_written += budget
                self._cut((start, start + budget))
            mem[start:end] = data
            self.bytes_written += n
            self._spend(n, (start, end))
            return
        # Copy the sector, erase it, program it back whole.
        size = self._size
        image = bytearray(mem)
        image[start:end] = data
        units = 1 + size
        if budget is not None and budget < units:
            self.erases += 1
            k = budget - 1
            mem[:] = self._erased
            mem[:k] = image[:k]
            self.bytes_written += k
            self._cut((0, size))
        mem[:] = image
        self.erases += 1
        self.bytes_written += size
        self._spend(units, (0, size))

    def _spend(self, units, span):
        if self._budget is None:
            self._flush(span)
            return
        self._budget -= units
        if self._budget == 0:
            self._cut(span)
        self._flush(span)

    def _cut(self, span):
        if span is not None:
            self._flush(span)
        self._dead = True
        self._budget = None
        raise PowerCut("power cut during an nvm write")

    def _flush(self, span):
        if self._path is None:
            return
        start, end = span
        if not os.path.exists(self._path) or os.path.getsize(self._path) != self._size:
            start, end = 0, self._size
        with open(self._path, "r+b" if os.path.exists(self._path) else "wb") as f:
            f.seek(start)
            f.write(self._mem[start:end])
