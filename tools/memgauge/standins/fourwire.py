# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's fourwire (C) in the heap gauge.


class FourWire:
    def __init__(self, spi_bus, *, command, chip_select, reset=None, baudrate=24000000,
                 polarity=0, phase=0):
        pass

    def send(self, command, data):
        pass

    def reset(self):
        pass
