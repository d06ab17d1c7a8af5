# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.gfx`
===============

Drawing on the 1-bit OLED: shared palettes, text labels (``bitmap_label``
with the project's fonts, which have the suits and the Turkish letters),
solid boxes, and card sprites drawn from the fonts' rank and suit glyphs
into bitmaps allocated once. A sprite redraws its pixels only when its card
changes; selecting it swaps the palette (no pixels touched).
"""

import displayio
from adafruit_display_text import bitmap_label

import fonts
from pisti_app.util import const

try:
    import bitmaptools
except ImportError:  # very old cores: slower pixel loop below
    bitmaptools = None

WHITE = const(0xFFFFFF)
BLACK = const(0x000000)

# Card kinds: (width, height, font, vertical layout)
BIG = const(0)  # pile top card: large rank over large suit
CHIP = const(1)  # Pişti hand: large rank and suit side by side
MED = const(2)  # Pis Yedili hand, bottom card: medium rank over suit
TINY = const(3)  # opponents' and the stock's backs
MINI = const(4)  # 32-px layouts: medium rank and suit side by side
NANO = const(5)  # 32-px layouts: a back as big as a small letter (the stock)
_KINDS = ((19, 26, "large", 1), (27, 15, "large", 0), (14, 20, "medium", 1), (7, 10, "small", 1),
          (20, 14, "medium", 0), (6, 8, "small", 1))

# What a sprite shows besides a card id (0..103).
NONE = const(-1)
BACK = const(-2)
EMPTY = const(-3)

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_TEXT = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠ (C D H S)

_pal = {}


def palette(name):
    """Shared palettes: 'text', 'inverse', 'card', 'card_sel', 'solid'."""
    p = _pal.get(name)
    if p is None:
        if name in ("card", "card_sel"):
            p = displayio.Palette(3)  # 0 paper, 1 ink, 2 outside the rounded corners
            p[0] = WHITE if name == "card_sel" else BLACK
            p[1] = BLACK if name == "card_sel" else WHITE
            p[2] = BLACK
        else:
            p = displayio.Palette(2)
            p[0] = WHITE if name == "inverse" else BLACK
            p[1] = BLACK if name == "inverse" else WHITE
        _pal[name] = p
    return p


# Rows between a bitmap_label's anchored top and the top of its font cell:
# its box adds the font's descent above the cell (measured: 1 small, 2 medium).
_LABEL_TOP = {"small": 1, "medium": 2}


def label(font, text="", x=0, y=0, anchor=(0.0, 0.0), inverse=False, pad=0, scale=1):
    """A ``bitmap_label.Label`` in font 'small' (5x8 cell) or 'medium' (6x10)
    whose font cell starts at row ``y`` (anchor x: 0 left, 0.5 centre, 1 right)."""
    kw = {"text": text, "anchor_point": anchor, "scale": scale,
          "anchored_position": (x, y - _LABEL_TOP[font] * scale)}
    if inverse:
        kw["color"] = BLACK
        kw["background_color"] = WHITE
        kw["padding_left"] = pad
        kw["padding_right"] = pad
    else:
        kw["color"] = WHITE
    return bitmap_label.Label(fonts.load(font), **kw)


def box(w, h, x=0, y=0, value=1, hidden=False):
    """A solid rectangle as a TileGrid (value 1 white, 0 black)."""
    bm = displayio.Bitmap(w, h, 2)
    if value:
        bm.fill(value)
    tg = displayio.TileGrid(bm, pixel_shader=palette("text"), x=x, y=y)
    tg.hidden = hidden
    return tg


def title_bar(group, h=8, x=1, y=0, rx=127):
    """A white bar ``h`` rows high across the top with black small text: the
    left label at ``x`` and the right-aligned one ending at ``rx``, both
    appended to ``group``; returns (left, right)."""
    group.append(box(128, h, 0, 0))
    out = []
    for lx, anchor in ((x, (0.0, 0.0)), (rx, (1.0, 0.0))):
        lbl = label("small", "", lx, y, anchor=anchor)
        lbl.color = BLACK
        group.append(lbl)
        out.append(lbl)
    return out[0], out[1]


def frame(bm, x0, y0, x1, y1, v=1, dotted=False):
    """Rectangle outline from (x0, y0) to (x1, y1) inclusive, corners cut."""
    for x in range(x0 + 1, x1):
        if not dotted or not (x & 1):
            bm[x, y0] = v
            bm[x, y1] = v
    for y in range(y0 + 1, y1):
        if not dotted or not (y & 1):
            bm[x0, y] = v
            bm[x1, y] = v


def fill(bm, x0, y0, x1, y1, v):
    """Fill the rectangle x0 <= x < x1, y0 <= y < y1."""
    if bitmaptools is not None:
        bitmaptools.fill_region(bm, x0, y0, x1, y1, v)
        return
    for y in range(y0, y1):
        for x in range(x0, x1):
            bm[x, y] = v


_ink = {}


def ink(font_name, ch):
    """(glyph, x0, y0, width, height) of the inked part of ``ch``'s glyph."""
    key = font_name + ch
    r = _ink.get(key)
    if r is None:
        g = fonts.load(font_name).get_glyph(ord(ch))
        if g is None:
            raise ValueError("font %s has no glyph for %r" % (font_name, ch))
        bm = g.bitmap
        x0 = y0 = 99
        x1 = y1 = -1
        for y in range(bm.height):
            for x in range(bm.width):
                if bm[x, y]:
                    x0 = min(x0, x)
                    x1 = max(x1, x)
                    y0 = min(y0, y)
                    y1 = max(y1, y)
        r = (bm, x0, y0, x1 - x0 + 1, y1 - y0 + 1) if x1 >= 0 else (bm, 0, 0, 0, 0)
        _ink[key] = r
    return r


def stamp(dest, font_name, ch, x, y, v=1):
    """Draw the ink of ``ch`` with its top-left ink pixel at (x, y)."""
    bm, x0, y0, w, h = ink(font_name, ch)
    if bitmaptools is not None and v == 1:
        bitmaptools.blit(dest, bm, x, y, x1=x0, y1=y0, x2=x0 + w, y2=y0 + h,
                         skip_source_index=0)
        return
    for j in range(h):
        for i in range(w):
            if bm[x0 + i, y0 + j]:
                dest[x + i, y + j] = v


def ink_width(font_name, text, gap=1):
    """Width of ``text`` drawn glyph by glyph with ``gap`` columns between inks."""
    w = -gap
    for ch in text:
        w += ink(font_name, ch)[3] + gap
    return max(w, 0)


def stamp_text(dest, font_name, text, x, y_top, gap=1, v=1):
    """Draw ``text`` tightly (ink to ink); glyph tops aligned on the font cell."""
    for ch in text:
        bm, x0, y0, w, h = ink(font_name, ch)
        stamp(dest, font_name, ch, x, y_top + y0, v)
        x += w + gap


class Card:
    """One card place on screen: a face, a back, an empty slot or nothing."""

    def __init__(self, kind, x=0, y=0):
        w, h, font, vertical = _KINDS[kind]
        self.kind = kind
        self.w = w
        self.h = h
        self.font = font
        self.vertical = vertical
        self.bitmap = displayio.Bitmap(w, h, 3)
        self.tile = displayio.TileGrid(self.bitmap, pixel_shader=palette("card"), x=x, y=y)
        self.what = None
        self.count = None
        self.selected = False
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
        """Show card id ``what`` or NONE / BACK / EMPTY; ``count`` on a back."""
        if what == self.what and count == self.count:
            return False
        self.what = what
        self.count = count
        self.tile.hidden = what == NONE
        if what == NONE:
            return True
        bm = self.bitmap
        w, h = self.w, self.h
        bm.fill(0)
        for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            bm[x, y] = 2
        if what == EMPTY:
            frame(bm, 0, 0, w - 1, h - 1, 1, True)
            return True
        frame(bm, 0, 0, w - 1, h - 1)
        if what == BACK:
            for y in range(2, h - 2):
                for x in range(2, w - 2):
                    if (x + y) % 3 == 0:
                        bm[x, y] = 1
            if count is not None:
                self._count(str(count))
            return True
        c = what % 52
        self._face(RANK_TEXT[c >> 2], SUIT_TEXT[c & 3])
        return True

    def _count(self, text):
        bm = self.bitmap
        tw = ink_width("small", text)
        x = (self.w - tw) // 2
        y = (self.h - 7) // 2
        fill(bm, max(x - 1, 1), y - 1, min(x + tw + 1, self.w - 1), y + 7, 0)
        stamp_text(bm, "small", text, x, y - 1)

    def _face(self, rank, suit):
        f = self.font
        bm = self.bitmap
        gap = 0 if f == "medium" else 1  # "10" must fit a 14 px card
        rw = ink_width(f, rank, gap)
        sw = ink(f, suit)[3]
        if self.vertical:
            # Rank centred on top (ink from row 2), suit centred one row below it.
            stamp_text(bm, f, rank, (self.w - rw) // 2, 2 - ink(f, "A")[2], gap)
            stamp(bm, f, suit, (self.w - sw) // 2, 3 + ink(f, "A")[4])
        else:
            sep = 1 if len(rank) > 1 else 2
            x = (self.w - rw - sep - sw) // 2
            stamp_text(bm, f, rank, x, 2, gap)
            stamp_text(bm, f, suit, x + rw + sep, 2)
