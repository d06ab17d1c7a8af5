# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core`
============

Rules, bots and records of the pisti console: pure logic that runs on
CircuitPython, MicroPython and CPython alike (no hardware imports).
"""

__version__ = "0.1.0"
