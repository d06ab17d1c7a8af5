# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The project's fonts as glyph sheets (``assets/fonts/*.fnt``), loaded once each.

``load('small')`` 5x8 cell (25 columns on 128 px), ``load('medium')`` 6x10
(21 columns), ``load('large')`` 9x11, card ranks A 2-9 10 J Q K and the
suits only. small and medium hold printable ASCII, the Turkish letters,
the suits and UI symbols (tools/make_fonts.py lists them).

A sheet is one 1-bit ``displayio.Bitmap`` holding every glyph as a cell, the
way the firmware's ``terminalio.FONT`` works: a text is a ``TileGrid`` of
tile indices over it (``pisti_app.screens.gfx.Text``), so a font costs its pixels
(about 1 KB) and no object a glyph. ``tools/font_sheets.py`` writes the
sheets from the PCF fonts and documents the file layout.
"""

import displayio

from pisti_app.util import open_asset

try:
    import bitmaptools
except ImportError:  # very old cores: the pixel loop below
    bitmaptools = None

_FILES = {"small": "small.fnt", "medium": "medium.fnt", "large": "large.fnt"}
_cache = {}


def _u16(b, i):
    return b[i] | b[i + 1] << 8


class Sheet:
    """A font's glyph sheet: ``bitmap``, cell ``width`` x ``height``,
    ``descent`` (rows of the cell below the baseline), ``cols`` tiles a row."""

    def __init__(self, f):
        head = f.read(18)
        if len(head) != 18 or head[:4] != b"PFS1":
            raise ValueError("not a pisti glyph sheet (run tools/font_sheets.py)")
        self.width = head[4]
        self.height = head[5]
        self.descent = head[6]
        self.cols = cols = head[7]
        self.n = n = _u16(head, 8)
        self._first = _u16(head, 10)
        self._run = _u16(head, 12)
        self._at = _u16(head, 14)
        self.unknown = _u16(head, 16)  # the "?" glyph, for characters it lacks
        self._codes = f.read(2 * n)
        w = cols * self.width
        h = (n + cols - 1) // cols * self.height
        self.bitmap = bm = displayio.Bitmap(w, h, 2)
        if bitmaptools is not None:
            bitmaptools.readinto(bm, f, 1, 1, False)
            return
        stride = (w + 7) >> 3
        for y in range(h):
            row = f.read(stride)
            for x in range(w):
                if (row[x >> 3] >> (x & 7)) & 1:
                    bm[y * w + x] = 1

    def index(self, code):
        """The tile of character code ``code``, or -1 when the font lacks it."""
        i = code - self._first
        if 0 <= i < self._run:
            return self._at + i
        c = self._codes
        lo = 0
        hi = self.n - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            v = _u16(c, 2 * mid)
            if v < code:
                lo = mid + 1
            elif v > code:
                hi = mid - 1
            else:
                return mid
        return -1


def load(name):
    """The :class:`Sheet` for 'small', 'medium' or 'large', loaded on first use."""
    font = _cache.get(name)
    if font is not None:
        return font
    file = _FILES.get(name)
    if file is None:
        raise ValueError("unknown font %r: use 'small', 'medium' or 'large'" % (name,))
    try:
        f = open_asset("fonts/" + file)
    except OSError:
        raise OSError("font file %s not found in /assets/fonts/ or assets/fonts/" % file)
    try:
        font = Sheet(f)
    finally:
        f.close()
    _cache[name] = font
    return font


def missing(font, text):
    """The characters of text that font (a :class:`Sheet`, or a font object
    with ``get_glyph``) has no glyph for, each once, in order."""
    sheet = hasattr(font, "index")
    if not sheet and hasattr(font, "load_glyphs"):
        font.load_glyphs(text)  # one pass over the file instead of one per character
    out = ""
    for ch in text:
        if ch in out or ch == "\n":
            continue
        if (font.index(ord(ch)) < 0) if sheet else (font.get_glyph(ord(ch)) is None):
            out += ch
    return out
