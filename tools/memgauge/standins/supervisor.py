# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's supervisor (C) in the heap gauge: ticks_ms()
# from a virtual clock the driver advances (it wraps at 2**29 a minute in).
_now = [0x1FFF0000]


class RunReason:
    STARTUP = 1
    AUTO_RELOAD = 2
    SUPERVISOR_RELOAD = 3
    REPL_RELOAD = 4


class _Runtime:
    run_reason = RunReason.STARTUP  # every boot of the gauge is a power on
    serial_connected = False
    usb_connected = False


runtime = _Runtime()


def ticks_ms():
    return _now[0]


def advance(ms):
    _now[0] = (_now[0] + ms) & 0x1FFFFFFF


def reload():
    pass
