# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.nvload`
===================

Reading the save log (:mod:`pisti_core.nvlog`, its layout and its power
cuts) back into a :class:`~pisti_core.nvlog.Store`: the scan, the
recovery and its notices. Only needed at boot, so a console can forget
this module once its saves are read (``Store.load`` imports it).
"""

from pisti_core.crc import crc16

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The layout's constants, as nvlog's (const names are compiled away on the
# device: another module cannot import them).
_MAGIC = b"PsT\x01"
_VERSION = const(1)
_SETTINGS = const(1)
_RANKING = const(2)
_START = const(3)
_ACTIONS = const(4)
_END = const(5)
_GAME = const(6)
_META = const(7)
_STATS = const(8)
_FF32 = b"\xff" * 32

NOTICE_FOREIGN = "nvm: unrecognised data found, starting with fresh saves"
NOTICE_VERSION = "nvm: saves are in layout %d, this build reads %d; starting fresh"
NOTICE_CUT_IMAGE = "nvm: power was cut while tidying the saves; some may be lost"
NOTICE_TORN = "nvm: an interrupted save was discarded"
NOTICE_DAMAGE = "nvm: damaged saves found at byte %d were dropped"


def _all_ff(buf, a, b):
    while a < b:
        n = b - a if b - a < 32 else 32
        if buf[a:a + n] != _FF32[:n]:
            return False
        a += n
    return True


def load(st):
    """Read ``st``'s nvm into it (:meth:`pisti_core.nvlog.Store.load`);
    returns 'ok', 'recovered' or 'reset' (also ``st.status``)."""
    st.clear()
    size = st._size
    img = st._buf
    if img is None:
        img = st._nvm[0:size]
    else:  # read in small pieces into the buffer: no 4 KB temporary
        for a in range(0, size, 256):
            b = a + 256 if a + 256 < size else size
            img[a:b] = st._nvm[a:b]
    if img[0:4] != _MAGIC:
        st.tail = 0
        if _all_ff(img, 0, size):
            st.blank = True
            return st.status
        st.dirty = True
        k = 0
        while k < 4 and img[k] == _MAGIC[k]:
            k += 1
        if k and _all_ff(img, k, size):  # cut while writing the magic
            return _flag(st, "recovered", NOTICE_CUT_IMAGE)
        if k == 3:
            return _flag(st, "reset", NOTICE_VERSION % (img[3], _VERSION))
        return _flag(st, "reset", NOTICE_FOREIGN)
    p = 4
    torn = meta = False
    bad = -1  # where damage was first seen
    while p < size:
        t = img[p]
        if t == 0xFF:
            break
        kind = t >> 4
        code = t & 15
        h = 1 if code <= 12 else code - 11
        if kind == 0 or kind > _STATS or code == 15 or p + h > size:
            break
        if code <= 12:
            n = code
        elif code == 13:
            n = img[p + 1]
            n = -1 if n == 0xFF else n
        else:
            n = -1 if img[p + 1] > 127 or img[p + 2] > 127 else img[p + 1] << 7 | img[p + 2]
        if n < 0:  # the length was never written: a cut record
            torn = True
            p += h
            continue
        end = p + h + n + 2
        if end > size:
            break
        c = crc16(img, p, end - 2)
        if img[end - 2] != c >> 8 or img[end - 1] != c & 0x7F:
            if img[end - 1] == 0xFF:  # cut before its last byte
                torn = True
            else:  # a record changed after it was written
                bad = p if bad < 0 else bad
        else:
            torn = False
            meta = _apply(st, kind, img, p + h, n) or meta
        p = end
    st.tail = p
    if bad < 0 and not _all_ff(img, p, size):  # a record that does not parse
        bad = p
    if bad >= 0:  # keep what parsed; the next save rewrites it all
        st.dirty = True
        return _flag(st, "recovered", NOTICE_DAMAGE % bad)
    if not meta:
        st.sealed = True
        return _flag(st, "recovered", NOTICE_CUT_IMAGE)
    if torn:
        return _flag(st, "recovered", NOTICE_TORN)
    return st.status


def _flag(st, status, notice):
    st.status = status
    st.notice = notice
    return status


def _apply(st, kind, img, a, n):
    b = a + n
    if kind == _SETTINGS:
        st.settings = bytes(img[a:b])
    elif kind == _RANKING:
        st.ranking = bytes(img[a:b])
    elif kind == _STATS:
        st.stats = bytes(img[a:b])
    elif kind == _START:
        st.game_header = bytes(img[a:b])
        st.game_actions = bytearray()
    elif kind == _ACTIONS:
        if st.game_header is not None:
            st.game_actions += img[a:b]
    elif kind == _END:
        st.game_header = None
        st.game_actions = bytearray()
    elif kind == _GAME:
        if n and img[a] < n:
            h = a + 1 + img[a]
            st.game_header = bytes(img[a + 1:h])
            st.game_actions = bytearray(img[h:b])
    elif kind == _META and n >= 2:
        st.generation = img[a] << 8 | img[a + 1]
        return True
    return False
