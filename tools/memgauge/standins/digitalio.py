# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's digitalio (C) in the heap gauge.


class Direction:
    INPUT = 0
    OUTPUT = 1


class Pull:
    UP = 1
    DOWN = 2


class DriveMode:
    PUSH_PULL = 0
    OPEN_DRAIN = 1


class DigitalInOut:  # (defaults as class attributes: an instance as small as the C object)
    direction = Direction.INPUT
    pull = None
    value = False

    def __init__(self, pin):
        if pin == "VBUS_SENSE":  # the board is on USB (as the simulator's and the web page's)
            self.value = True

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        pass
