# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's pwmio (C) in the heap gauge: a silent PWMOut.


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        self.duty_cycle = duty_cycle
        self.frequency = frequency

    def deinit(self):
        pass
