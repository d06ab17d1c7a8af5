# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's os.urandom (C, the RP2040's ring oscillator):
# this WebAssembly port has none. Not secure: the gauge only needs the bytes
# (link play's deal, RULES.md T-6), and repeatable ones (PISTI_SEED-like).
import os

_state = [0x2545F491]


def urandom(n):
    b = bytearray(n)
    x = _state[0]
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        b[i] = x & 255
    _state[0] = x
    return bytes(b)


def seed(s):
    _state[0] = (s & 0xFFFFFFFF) or 1


if not hasattr(os, "urandom"):
    os.urandom = urandom
