# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``busio.I2C`` for the rig: a bus whose wires lead to emulated devices.

It subclasses Blinka's ``busio.I2C`` (so ``isinstance`` checks hold) and
behaves like CircuitPython's where device code can tell the difference:

* ``I2C(scl, sda)`` on pins that are not the profile's wired I2C pins raises
  ``RuntimeError("No pull up found on SDA or SCL; check your wiring")``;
  pins already in use raise ``ValueError("GP5 in use")``.
* ``writeto`` / ``readfrom_into`` / ``scan`` need the lock
  (``RuntimeError("Function requires lock")``); a device that is absent or
  disconnected raises ``OSError`` errno 19; after ``deinit`` every call raises
  ``ValueError``.
* ``try_lock`` is atomic (Blinka's displayio refresh thread may also lock).
"""

import errno
import threading

import busio

from . import _active

_DEINITED = "Object has been deinitialized and can no longer be used. Create a new object."

BlinkaI2C = busio.I2C


class FakeI2C(BlinkaI2C):
    """An I2C controller on the rig's wired SCL/SDA pins."""

    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        rig = _active.require()
        rig.check_pin(scl, "scl")
        rig.check_pin(sda, "sda")
        if scl is sda:
            raise ValueError("scl and sda must be different pins")
        if (scl, sda) != rig.i2c_pins:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        rig.claim(scl, self)
        try:
            rig.claim(sda, self)
        except ValueError:
            rig.release(scl, self)
            raise
        self._rig = rig
        self._pins = (scl, sda)
        self.frequency = frequency
        self.timeout = timeout
        self._mutex = threading.Lock()
        self._deinited = False
        rig.track(self)

    # -- lifetime ------------------------------------------------------------
    def deinit(self):
        """Release the pins; further use raises ValueError."""
        if getattr(self, "_deinited", True):
            return
        self._deinited = True
        for pin in self._pins:
            self._rig.release(pin, self)

    def deinited(self):
        """True once ``deinit()`` has run."""
        return self._deinited

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.deinit()

    def _check(self, need_lock=True):
        if self._deinited:
            raise ValueError(_DEINITED)
        if need_lock and not self._mutex.locked():
            raise RuntimeError("Function requires lock")

    # -- locking -------------------------------------------------------------
    def try_lock(self):
        """Take the bus lock if free; return True if this call took it."""
        if self._deinited:
            raise ValueError(_DEINITED)
        return self._mutex.acquire(blocking=False)

    def unlock(self):
        """Release the bus lock (no error if it was not held)."""
        if self._mutex.locked():
            try:
                self._mutex.release()
            except RuntimeError:
                pass

    # -- transfers -----------------------------------------------------------
    def _device(self, address):
        device = self._rig.i2c_devices.get(address)
        if device is None or not getattr(device, "connected", True):
            raise OSError(errno.ENODEV, "No such device")
        return device

    def probe(self, address):
        """True if a device answers at ``address``."""
        self._check(need_lock=False)
        device = self._rig.i2c_devices.get(address)
        return device is not None and getattr(device, "connected", True)

    def scan(self):
        """Addresses of the devices that answer, ascending."""
        self._check()
        return sorted(
            a for a, d in self._rig.i2c_devices.items() if getattr(d, "connected", True)
        )

    def writeto(self, address, buffer, *, start=0, end=None):
        """Write ``buffer[start:end]`` to the device at ``address``."""
        self._check()
        if isinstance(buffer, str):
            raise TypeError("object with buffer protocol required")
        data = bytes(memoryview(buffer)[start:end])
        self._device(address).i2c_write(data)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        """Fill ``buffer[start:end]`` from the device at ``address``."""
        self._check()
        view = memoryview(buffer)[start:end]
        view[:] = self._device(address).i2c_read(len(view))

    def writeto_then_readfrom(
        self, address, buffer_out, buffer_in, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        """Write then read in one transaction (repeated start)."""
        self.writeto(address, buffer_out, start=out_start, end=out_end)
        self.readfrom_into(address, buffer_in, start=in_start, end=in_end)

    def __repr__(self):
        return "<busio.I2C scl=%r sda=%r%s>" % (
            self._pins[0],
            self._pins[1],
            " deinited" if self._deinited else "",
        )
