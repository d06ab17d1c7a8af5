# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkframe`
======================

The link cable's frames (RULES.md L-6)::

    0x7E  LEN SES SEQ ACK TYPE payload(LEN bytes) CRC-hi CRC-lo

Everything after the ``0x7E`` is byte-stuffed: ``0x7E`` and ``0x7D`` are
sent as ``0x7D`` then the byte XOR ``0x20``, so a ``0x7E`` on the line always
starts a frame and a receiver finds the next frame after noise. The CRC is
CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over LEN .. the payload's end.

:class:`Decoder` takes bytes as they come (``feed``) and hands out whole,
checked frames; it allocates nothing per byte (one buffer, reused).
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from pisti_core.crc import crc16

FLAG = const(0x7E)
_ESC = const(0x7D)
_X = const(0x20)
MAX_PAYLOAD = const(56)
HEAD = const(5)  # LEN SES SEQ ACK TYPE

def _put(out, b):
    if b == FLAG or b == _ESC:
        out.append(_ESC)
        out.append(b ^ _X)
    else:
        out.append(b)


def encode(ses, seq, ack, typ, payload=b"", out=None):
    """One frame as bytes on the line (appended to ``out``, a bytearray, if
    given). ValueError for a payload over :data:`MAX_PAYLOAD` bytes or a
    header field that is not a byte."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("a link frame carries at most %d bytes, not %d" % (MAX_PAYLOAD, n))
    for v in (ses, seq, ack, typ):
        if not 0 <= v <= 255:
            raise ValueError("a frame's header field must be a byte, not %r" % (v,))
    if out is None:
        out = bytearray()
    head = bytes((n, ses, seq, ack, typ))
    crc = crc16(payload, 0, n, crc16(head))
    out.append(FLAG)
    for b in head:
        _put(out, b)
    for b in payload:
        _put(out, b)
    _put(out, crc >> 8)
    _put(out, crc & 255)
    return out


class Frame:
    """A received frame: ``ses``, ``seq``, ``ack``, ``typ`` and ``payload``
    (bytes)."""

    def __init__(self, ses, seq, ack, typ, payload):
        self.ses = ses
        self.seq = seq
        self.ack = ack
        self.typ = typ
        self.payload = payload


class Decoder:
    """Bytes in, checked frames out: ``feed(data)`` returns the frames that
    ``data`` completed (a list, usually empty). Counts ``bad`` frames (CRC or
    length wrong) and ``noise`` (bytes outside any frame)."""

    def __init__(self):
        self.buf = bytearray(HEAD + MAX_PAYLOAD + 2)
        self.n = -1  # bytes in buf; -1: waiting for a flag
        self.esc = False
        self.bad = 0
        self.noise = 0

    def feed(self, data, out=None):
        """Take ``data``; append the frames it completes to ``out`` (a list)."""
        if out is None:
            out = []
        buf = self.buf
        for b in data:
            if b == FLAG:
                if self.n > 0:
                    self.bad += 1  # a frame cut short by the next one
                self.n = 0
                self.esc = False
                continue
            n = self.n
            if n < 0:
                self.noise += 1
                continue
            if self.esc:
                b ^= _X
                self.esc = False
            elif b == _ESC:
                self.esc = True
                continue
            if n == 0 and b > MAX_PAYLOAD:
                self.bad += 1  # no such length: wait for the next flag
                self.n = -1
                continue
            buf[n] = b
            n += 1
            if n == HEAD + buf[0] + 2:
                self.n = -1
                end = HEAD + buf[0]
                if crc16(buf, 0, end) == (buf[end] << 8 | buf[end + 1]):
                    out.append(Frame(buf[1], buf[2], buf[3], buf[4], bytes(buf[HEAD:end])))
                else:
                    self.bad += 1
            else:
                self.n = n
        return out
