# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.crc`
================

CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF; ``crc16(b"123456789")`` is
0x29B1), the one checksum of the link's frames (RULES.md L-6) and the
save log's records. CPython's ``binascii.crc_hqx`` computes it in C;
CircuitPython and MicroPython have no ``crc_hqx``, so they take the
nibble table below (16 entries, no allocation per byte).
"""

try:  # CPython has it in C; CircuitPython and MicroPython do not.
    from binascii import crc_hqx as _crc_hqx
except ImportError:
    _crc_hqx = None

# CRC-16/CCITT (poly 0x1021) of each 4-bit value: the nibble table.
_T = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
      0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, start=0, end=None, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data[start:end]``, continuing from ``crc``."""
    if end is None:
        end = len(data)
    if _crc_hqx is not None:
        return _crc_hqx(memoryview(data)[start:end], crc)
    t = _T
    for i in range(start, end):
        b = data[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc
