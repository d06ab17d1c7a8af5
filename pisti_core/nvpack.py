# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.nvpack`
===================

Compaction of the save log (:mod:`pisti_core.nvlog`): the new state
written as a fresh image in one sector erase. Rare (a boot or a match's
first deal with less than the reserve free, a log that fills mid-game),
so ``Store`` imports this module for the moment and forgets it after.
It writes through the store it is given (its record methods, as
:mod:`pisti_core.nvload` reads into it) and imports nothing of
:mod:`pisti_core.nvlog`.
"""

import gc

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The layout's constants, as nvlog's (const names are compiled away on the
# device: another module cannot import them).
_MAGIC = b"PsT\x01"
_SETTINGS = const(1)
_RANKING = const(2)
_GAME = const(6)
_META = const(7)
_STATS = const(8)
_META_LEN = const(5)  # tag, generation (2), check (2)
_FF32 = b"\xff" * 32


def compact(st, s, r, h, a, b, t):
    """Write the image of store ``st``'s new state: settings ``s``, ranking
    ``r``, the game ``h`` (header) with actions ``a`` + ``b`` (``h`` None:
    no game), statistics ``t``; ValueError (nothing written) when it cannot
    fit the nvm."""
    size = st._size
    g = (st.generation + 1) & 0xFFFF
    need = 4 + _META_LEN
    if r is not None:
        need += st.record_size(len(r))
    if t is not None:
        need += st.record_size(len(t))
    if s is not None:
        need += st.record_size(len(s))
    if h is not None:
        gn = 1 + len(h) + len(a) + len(b)
        need += st.record_size(gn)
    if need > size:
        raise ValueError("saves need %d bytes, nvm has %d: nothing written" % (need, size))
    if st._buf is None:
        gc.collect()  # 4 KB in one piece: from a tidy heap
        img = bytearray(size)
    else:
        img = st._buf
    img[0:4] = _MAGIC
    p = 4
    if r is not None:  # the most precious first: the shortest exposure
        p = st.record(img, p, _RANKING, r)
    rank_end = p
    if t is not None:
        p = st.record(img, p, _STATS, t)
    if s is not None:
        p = st.record(img, p, _SETTINGS, s)
    settings_end = p
    if h is not None:
        start = p
        p = st.record_head(img, p, _GAME, gn)
        img[p] = len(h)
        p += 1
        for part in (h, a, b):
            img[p:p + len(part)] = part
            p += len(part)
        p = st.record_check(img, start, p)
    game_end = p
    p = st.record(img, p, _META, bytes((g >> 8, g & 255)))
    q = p
    while q < size:
        k = size - q if size - q < 32 else 32
        img[q:q + k] = _FF32 if k == 32 else _FF32[:k]  # no 32-byte copy each time
        q += k
    st.write_at(0, img)
    if not st.blank:
        st.erases_caused += 1
    st.compactions += 1
    st.generation = g
    st.image_layout = (rank_end, settings_end, game_end, p)
    st.tail = p
    st.dirty = st.sealed = st.blank = False
