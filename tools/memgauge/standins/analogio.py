# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's analogio (C) in the heap gauge: VSYS/3 of a
# board on USB (4.8 V), read as the ADC's 16-bit value.


class AnalogIn:  # (class attributes: an instance as small as the C object)
    reference_voltage = 3.3
    value = 31775

    def __init__(self, pin):
        pass

    def deinit(self):
        pass
