# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's i2cdisplaybus (C) in the heap gauge.


class I2CDisplayBus:
    def __init__(self, i2c_bus, *, device_address, reset=None):
        self.i2c = i2c_bus
        self.address = device_address

    def send(self, command, data):
        pass

    def reset(self):
        pass
