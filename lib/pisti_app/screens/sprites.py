# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.sprites`
===========================

Card sprites drawn from the glyph sheets' rank and suit glyphs into
bitmaps allocated once (the tables and the splash load this; the menus do
not). A sprite redraws its pixels only when its card changes; selecting it
swaps the palette (no pixels touched).
"""

import displayio

import fonts
from pisti_app.screens.gfx import palette
from pisti_app.texts.names import RANK_TEXT, SUIT_TEXT
from pisti_app.util import const

try:
    import bitmaptools
except ImportError:  # very old cores: slower pixel loop below
    bitmaptools = None

# Card kinds: (width, height, font, vertical layout)
BIG = const(0)  # pile top card: large rank over large suit
CHIP = const(1)  # Pişti hand: large rank and suit side by side
MED = const(2)  # Pis Yedili hand, bottom card: medium rank over suit
TINY = const(3)  # opponents' and the stock's backs
MINI = const(4)  # 32-px layouts: medium rank and suit side by side
NANO = const(5)  # 32-px layouts: a back as big as a small letter (the stock)
_KINDS = ((19, 25, "large", 1), (27, 15, "large", 0), (14, 20, "medium", 1), (7, 10, "small", 1),
          (20, 14, "medium", 0), (6, 8, "small", 1))

# What a sprite shows besides a card id (0..103).
NONE = const(-1)
BACK = const(-2)
EMPTY = const(-3)



def frame(bm, x0, y0, x1, y1, v=1, dotted=False):
    """Rectangle outline from (x0, y0) to (x1, y1) inclusive, corners cut.
    (Pixels are written by index, ``bm[y * width + x]``: an ``[x, y]``
    subscript builds a tuple, a heap allocation, for every pixel.)"""
    if bitmaptools is not None and not dotted:
        bitmaptools.fill_region(bm, x0 + 1, y0, x1, y0 + 1, v)
        bitmaptools.fill_region(bm, x0 + 1, y1, x1, y1 + 1, v)
        bitmaptools.fill_region(bm, x0, y0 + 1, x0 + 1, y1, v)
        bitmaptools.fill_region(bm, x1, y0 + 1, x1 + 1, y1, v)
        return
    w = bm.width
    top = y0 * w
    bottom = y1 * w
    for x in range(x0 + 1, x1):
        if not dotted or not (x & 1):
            bm[top + x] = v
            bm[bottom + x] = v
    for y in range(y0 + 1, y1):
        if not dotted or not (y & 1):
            bm[y * w + x0] = v
            bm[y * w + x1] = v


def fill(bm, x0, y0, x1, y1, v):
    """Fill the rectangle x0 <= x < x1, y0 <= y < y1."""
    if bitmaptools is not None:
        bitmaptools.fill_region(bm, x0, y0, x1, y1, v)
        return
    w = bm.width
    for y in range(y0, y1):
        for x in range(y * w + x0, y * w + x1):
            bm[x] = v


_ink = {}  # (code << 2 | font): x0 | y0 << 5 | width << 10 | height << 15, small ints


def ink(font_name, ch):
    """(sheet, x0, y0, width, height, cell x, cell y) of the inked part of
    ``ch``'s glyph: x0, y0 inside its cell, the cell's corner in the sheet."""
    f = fonts.load(font_name)
    i = f.index(ord(ch))
    if i < 0:
        raise ValueError("font %s has no glyph for %r" % (font_name, ch))
    bm = f.bitmap
    ox = (i % f.cols) * f.width
    oy = (i // f.cols) * f.height
    key = ord(ch) << 2 | "sml".find(font_name[0])
    r = _ink.get(key)
    if r is None:
        sw = bm.width
        x0 = y0 = 99
        x1 = y1 = -1
        for y in range(f.height):
            row = (oy + y) * sw + ox
            for x in range(f.width):
                if bm[row + x]:
                    x0 = min(x0, x)
                    x1 = max(x1, x)
                    y0 = min(y0, y)
                    y1 = max(y1, y)
        if x1 < 0:
            x0 = y0 = 0
            x1 = y1 = -1
        r = x0 | y0 << 5 | (x1 - x0 + 1) << 10 | (y1 - y0 + 1) << 15
        _ink[key] = r
    return (bm, r & 31, r >> 5 & 31, r >> 10 & 31, r >> 15, ox, oy)


def stamp(dest, font_name, ch, x, y, v=1):
    """Draw the ink of ``ch`` with its top-left ink pixel at (x, y)."""
    bm, x0, y0, w, h, ox, oy = ink(font_name, ch)
    x0 += ox
    y0 += oy
    if bitmaptools is not None and v == 1:
        bitmaptools.blit(dest, bm, x, y, x1=x0, y1=y0, x2=x0 + w, y2=y0 + h,
                         skip_source_index=0)
        return
    sw = bm.width
    dw = dest.width
    for j in range(h):
        src = (y0 + j) * sw + x0
        dst = (y + j) * dw + x
        for i in range(w):
            if bm[src + i]:
                dest[dst + i] = v


def ink_width(font_name, text, gap=1):
    """Width of ``text`` drawn glyph by glyph with ``gap`` columns between inks."""
    w = -gap
    for ch in text:
        w += ink(font_name, ch)[3] + gap
    return max(w, 0)


def stamp_text(dest, font_name, text, x, y_top, gap=1, v=1):
    """Draw ``text`` tightly (ink to ink); glyph tops aligned on the font cell."""
    for ch in text:
        r = ink(font_name, ch)
        stamp(dest, font_name, ch, x, y_top + r[2], v)
        x += r[3] + gap


class Card:
    """One card place on screen: a face, a back, an empty slot or nothing."""

    # Few attributes, defaults in the class: each is heap in every sprite.
    what = None
    count = None
    selected = False

    def __init__(self, kind, x=0, y=0):
        w, h, _, _ = _KINDS[kind]
        self.kind = kind
        self.bitmap = displayio.Bitmap(w, h, 3)
        self.tile = displayio.TileGrid(self.bitmap, pixel_shader=palette("card"), x=x, y=y)
        self.show(NONE)

    def move(self, x, y):
        """Place the sprite with its top-left corner at (x, y)."""
        if self.tile.x != x:
            self.tile.x = x
        if self.tile.y != y:
            self.tile.y = y

    def select(self, on):
        """Draw the card inverted (the cursor) or normally."""
        on = bool(on)
        if on != self.selected:
            self.selected = on
            self.tile.pixel_shader = palette("card_sel" if on else "card")

    def show(self, what, count=None):
        """Show card id ``what`` or NONE / BACK / EMPTY; ``count`` on a back
        (on a face: a filled bottom-right corner, the mark of a new card)."""
        if what == self.what and count == self.count:
            return False
        self.what = what
        if count != self.count:
            self.count = count
        self.tile.hidden = what == NONE
        if what == NONE:
            return True
        bm = self.bitmap
        w, h = bm.width, bm.height
        bm.fill(0)
        bm[0] = 2  # the four corners: outside the rounded card
        bm[w - 1] = 2
        bm[(h - 1) * w] = 2
        bm[h * w - 1] = 2
        if what == EMPTY:
            frame(bm, 0, 0, w - 1, h - 1, 1, True)
            return True
        frame(bm, 0, 0, w - 1, h - 1)
        if what == BACK:
            for y in range(2, h - 2):
                row = y * w
                for x in range(2 + (1 - y) % 3, w - 2, 3):  # (x + y) % 3 == 0
                    bm[row + x] = 1
            if count is not None:
                self._count(str(count))
            return True
        c = what % 52
        self._face(RANK_TEXT[c >> 2], SUIT_TEXT[c & 3])
        if count:
            fill(bm, w - 4, h - 4, w - 1, h - 1, 1)
        return True

    def _count(self, text):
        bm = self.bitmap
        w = bm.width
        tw = ink_width("small", text)
        x = (w - tw) // 2
        y = (bm.height - 7) // 2
        fill(bm, max(x - 1, 1), y - 1, min(x + tw + 1, w - 1), y + 7, 0)
        stamp_text(bm, "small", text, x, y - 1)

    def _face(self, rank, suit):
        _, _, f, vertical = _KINDS[self.kind]
        bm = self.bitmap
        w = bm.width
        gap = 0 if f == "medium" else 1  # "10" must fit a 14 px card
        rw = ink_width(f, rank, gap)
        sw = ink(f, suit)[3]
        if vertical:
            # Rank centred on top (ink from row 2), suit centred one row below it.
            stamp_text(bm, f, rank, (w - rw) // 2, 2 - ink(f, "A")[2], gap)
            stamp(bm, f, suit, (w - sw) // 2, 3 + ink(f, "A")[4])
        else:
            sep = 1 if len(rank) > 1 else 2
            x = (w - rw - sep - sw) // 2
            stamp_text(bm, f, rank, x, 2, gap)
            stamp_text(bm, f, suit, x + rw + sep, 2)
