# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The board's supply as the firmware reads it (the battery).

A Pico reads VSYS through a 3:1 divider on GP29 (ADC3, ``board.VOLTAGE_MONITOR``)
and sees USB power on GP24 (``board.VBUS_SENSE``, high while USB is in).
``rig.supply`` holds what those pins say: ``mv`` (VSYS in millivolts,
default 4800, USB's 5 V less a diode) and ``usb`` (default True); tests and
``tools/sim.py --battery MV`` set them. ``analogio.AnalogIn`` on the ADC
pin reads ``mv / 3`` as 0..65535 for 0..3.3 V (other pins read 0);
``digitalio.DigitalInOut`` on the sense pin reads ``usb`` (other pins
read False: only the supply is emulated, as inputs).
"""

import types

from . import _active

ADC_GPIO = 29
USB_GPIO = 24


class Supply:
    """VSYS in mV and USB present, as the supply pins read them."""

    def __init__(self, mv=4800, usb=True):
        self.mv = mv
        self.usb = usb

    def __repr__(self):
        return "<Supply %d mV%s>" % (self.mv, ", USB" if self.usb else "")


def _check(pin, what):
    rig = _active.RIG
    if rig is None:
        raise RuntimeError("%s: no rig installed" % what)
    rig.check_pin(pin, "pin")
    return rig


class AnalogIn:
    """``analogio.AnalogIn``: 16-bit readings of a 3.3 V reference."""

    reference_voltage = 3.3

    def __init__(self, pin):
        self._rig = _check(pin, "AnalogIn")
        self._gpio = pin.gpio
        self._deinited = False

    @property
    def value(self):
        """0..65535 for 0..3.3 V: VSYS/3 on the ADC pin, 0 elsewhere."""
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if self._gpio != ADC_GPIO:
            return 0
        return max(0, min(65535, self._rig.supply.mv * 65536 // 9900))

    def deinit(self):
        """Release the pin."""
        self._deinited = True


class DigitalInOut:
    """``digitalio.DigitalInOut`` as an input: the USB sense pin reads the rig's ``usb``."""

    def __init__(self, pin):
        self._rig = _check(pin, "DigitalInOut")
        self._gpio = pin.gpio
        self.direction = None
        self.pull = None

    @property
    def value(self):
        """True while USB powers the board (the sense pin); False on other pins."""
        return bool(self._rig.supply.usb) if self._gpio == USB_GPIO else False

    def switch_to_input(self, pull=None):
        """Stay an input."""
        self.pull = pull

    def deinit(self):
        """Release the pin."""


def modules():
    """(analogio, digitalio) module objects for ``sys.modules``."""
    analogio = types.ModuleType("analogio")
    analogio.AnalogIn = AnalogIn
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut
    for name in ("Direction", "Pull", "DriveMode"):
        setattr(digitalio, name, type(name, (), {}))
    return analogio, digitalio
