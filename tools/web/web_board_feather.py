# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The browser page's `board` for the FeatherWing profile (?profile=featherwing):
# the Adafruit Feather RP2040's pins, each its own name, as the heap gauge's
# board stand-in (tools/memgauge/standins/board.py) does for the Pico.
board_id = "adafruit_feather_rp2040"
_PINS = ("A0", "A1", "A2", "A3", "D4", "D5", "D6", "D9", "D10", "D11", "D12", "D13", "D24", "D25",
         "SCK", "MOSI", "MISO", "RX", "TX", "SDA", "SCL", "LED", "NEOPIXEL", "BUTTON")


def __getattr__(name):
    if name in _PINS:
        return name
    raise AttributeError(name)
