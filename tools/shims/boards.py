# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The ``board`` pin names of the boards our profiles run on.

Names and GPIO numbers follow CircuitPython's board definitions
(``raspberry_pi_pico`` and ``adafruit_feather_rp2040``): aliases such as
``board.LED`` and ``board.GP25`` are the same ``Pin`` object, as on the device.
Pins are Blinka ``microcontroller.Pin`` objects (the OS-agnostic mock board's
class) so ``isinstance(pin, microcontroller.Pin)`` holds. ``digitalio`` on
these pins is not emulated (Blinka's mock digitalio copies the pin by id).
"""

# profile name -> (CircuitPython board_id, {name: GPIO number})
_PICO = {"GP%d" % n: n for n in range(29)}
_PICO.update(
    SMPS_MODE=23,
    VBUS_SENSE=24,
    LED=25,
    GP26_A0=26,
    A0=26,
    GP27_A1=27,
    A1=27,
    GP28_A2=28,
    A2=28,
    A3=29,
    VOLTAGE_MONITOR=29,
)
_FEATHER_RP2040 = dict(
    A0=26, A1=27, A2=28, A3=29, D24=24, D25=25, SCK=18, MOSI=19, MISO=20,
    D0=1, RX=1, D1=0, TX=0, D4=6, SDA=2, SCL=3, D5=7, D6=8, D9=9, D10=10,
    D11=11, D12=12, D13=13, LED=13, BUTTON=4, BOOT=4, NEOPIXEL=16,
)  # fmt: skip

BOARDS = {
    "pico": ("raspberry_pi_pico", _PICO),
    "featherwing": ("adafruit_feather_rp2040", _FEATHER_RP2040),
}


def make_pins(profile):
    """Return ``(board_id, {name: Pin})`` for a profile, fresh Pin objects."""
    from adafruit_blinka.microcontroller.generic_agnostic_board.pin import (
        Pin,
    )

    class ShimPin(Pin):
        """A board pin; ``repr`` is ``board.NAME`` like CircuitPython's."""

        def __init__(self, gpio, name):
            super().__init__("GPIO%d" % gpio)
            self.gpio = gpio
            self.name = name

        def __repr__(self):
            return "board.%s" % self.name

        __str__ = __repr__

    if profile not in BOARDS:
        raise ValueError("unknown board profile %r; known: %s" % (profile, ", ".join(sorted(BOARDS))))
    board_id, table = BOARDS[profile]
    by_gpio = {}
    pins = {}
    for name, gpio in table.items():
        if gpio not in by_gpio:
            by_gpio[gpio] = ShimPin(gpio, name)  # the first name listed is its repr
        pins[name] = by_gpio[gpio]
    return board_id, pins
