# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's board (C) for the Pico in the heap gauge: the
# pins GP0..GP28, LED, and the supply's VOLTAGE_MONITOR (GP29) and VBUS_SENSE
# (GP24), each its own name (pins are in flash on the device).
board_id = "raspberry_pi_pico"


def __getattr__(name):
    if name in ("LED", "VOLTAGE_MONITOR", "VBUS_SENSE") or \
            (name[:2] == "GP" and name[2:].isdigit() and 0 <= int(name[2:]) <= 28):
        return name
    raise AttributeError(name)
