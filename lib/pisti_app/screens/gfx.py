# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.gfx`
=======================

Drawing on the 1-bit OLED: shared palettes, text as tiles (:class:`Text`:
one ``TileGrid`` of tile indices over a font's glyph sheet, the way
``terminalio`` draws, so a text costs a few dozen bytes and changing it
allocates nothing) and solid boxes. Card sprites are in
:mod:`pisti_app.screens.sprites` (loaded with the tables).
"""

import displayio

import fonts
from pisti_app.util import const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
WHITE = const(0xFFFFFF)
BLACK = const(0x000000)


_pal = {}


def palette(name):
    """Shared palettes: 'text', 'inverse', 'card', 'card_sel', 'solid', and
    'ink_white' / 'ink_black' (0 transparent, 1 the colour: text and boxes)."""
    p = _pal.get(name)
    if p is None:
        if name in ("card", "card_sel"):
            p = displayio.Palette(3)  # 0 paper, 1 ink, 2 outside the rounded corners
            p[0] = WHITE if name == "card_sel" else BLACK
            p[1] = BLACK if name == "card_sel" else WHITE
            p[2] = BLACK
        elif name in ("ink_white", "ink_black"):
            p = displayio.Palette(2)
            p[0] = BLACK
            p[1] = WHITE if name == "ink_white" else BLACK
            p.make_transparent(0)
        else:
            p = displayio.Palette(2)
            p[0] = WHITE if name == "inverse" else BLACK
            p[1] = BLACK if name == "inverse" else WHITE
        _pal[name] = p
    return p


def _ink_palette(color):
    return palette("ink_black" if color == BLACK else "ink_white")


_columns = {}


def _column(h):
    # A 2 x h bitmap: column 0 set, column 1 clear; tiles of a background box.
    bm = _columns.get(h)
    if bm is None:
        bm = displayio.Bitmap(2, h, 2)
        for y in range(h):
            bm[2 * y] = 1  # column 0 (an index, not [x, y]: no tuple to allocate)
        _columns[h] = bm
    return bm


def _half(w):
    # round(w / 2) as Python rounds (halves to even), the way labels anchor.
    q = w >> 1
    if w & 1 and q & 1:
        q += 1
    return q


class Text(displayio.Group):
    """One line of text in a font's cells, with its font cell's top-left at
    (x, y) for anchor x 0 (0.5 centred on x, 1 ending at x). ``text``,
    ``color``, ``background_color`` (None: transparent; a box from the
    font's descent above the cell to its bottom, ``pad`` columns wider on
    each side) and ``anchored_position`` may change; nothing is allocated
    then. Characters the font lacks show as "?"; a text longer than the
    screen is cut at its edge."""

    # Defaults in the class: an instance's attribute table grows only for
    # what differs (most texts are plain white), ~20 texts on a table.
    _anchor = 0
    _pad = 0
    _box = None
    _bg = None
    _color = WHITE
    _text = ""
    _n = 0

    def __init__(self, font, text, x, y, anchor, color, bg, pad, scale):
        super().__init__(scale=scale)
        self._f = fonts.load(font)
        self._ax = x
        self._ay = y
        if anchor:
            self._anchor = anchor
        if pad:
            self._pad = pad
        if color != WHITE:
            self._color = color
        self._room(max(len(text), 1))
        if bg is not None:
            self.background_color = bg
        self.text = text

    def _room(self, n):
        # A grid of n cells (as tight as the longest text yet: a refresh
        # repaints the grid's whole area when its colour changes).
        f = self._f
        old = getattr(self, "_grid", None)  # None: the first
        g = displayio.TileGrid(f.bitmap, pixel_shader=_ink_palette(self._color), width=n,
                               height=1, tile_width=f.width, tile_height=f.height,
                               default_tile=f.index(32))
        if old is not None:
            g.hidden = old.hidden
            self.pop()
        self.append(g)
        self._grid = g
        if self._n:
            self._n = 0
        if self._box is not None:
            self._box = None
            self.pop(0)
            self._make_box()

    @property
    def text(self):
        """The text shown."""
        return self._text

    @text.setter
    def text(self, text):
        # Only the cells that change are set: the firmware marks a cell it is
        # given for the next refresh even when it is the same, and a refresh
        # repaints (and sends) every marked area (L-4: a play shows sooner).
        if text == self._text and self._n == len(text):
            return
        f = self._f
        cap = self._grid.width
        if len(text) > cap:
            self._room(min(len(text), 128 // f.width + 1))
            cap = self._grid.width
        g = self._grid
        n = 0
        for ch in text:
            if n == cap:
                break
            i = f.index(ord(ch))
            if i < 0:
                i = f.unknown
            if g[n] != i:
                g[n] = i
            n += 1
        if n < self._n:
            space = f.index(32)
            for k in range(n, self._n):
                g[k] = space
        self._text = text
        if n != self._n:
            self._n = n
            self._place()

    @property
    def color(self):
        """The ink colour (WHITE or BLACK)."""
        return self._color

    @color.setter
    def color(self, color):
        if color != self._color:
            self._color = color
            self._grid.pixel_shader = _ink_palette(color)

    @property
    def background_color(self):
        """The box colour behind the text, or None."""
        return self._bg

    @background_color.setter
    def background_color(self, color):
        if color == self._bg:
            return
        self._bg = color
        box = self._box
        if color is None:
            if box is not None:
                box.hidden = True
            return
        if box is None:
            self._make_box()
        else:
            box.pixel_shader = _ink_palette(color)
            box.hidden = False

    def _make_box(self):
        f = self._f
        h = f.descent + f.height
        box = displayio.TileGrid(_column(h), pixel_shader=_ink_palette(self._bg),
                                 width=self._grid.width * f.width + 2 * self._pad, height=1,
                                 tile_width=1, tile_height=h, default_tile=1,
                                 x=-self._pad, y=-f.descent)
        self.insert(0, box)
        self._box = box
        self._fill_box()

    @property
    def anchored_position(self):
        """(x, y) of the anchor: y is the top row of the font cell."""
        return (self._ax, self._ay)

    @anchored_position.setter
    def anchored_position(self, xy):
        self._ax = xy[0]
        self._ay = xy[1]
        self._place()

    @property
    def bounding_box(self):
        """(x, y, width, height) of what the text covers, in its own units:
        from the font's descent above the cell (a box's blank top row)."""
        f = self._f
        pad = self._pad if self._bg is not None else 0
        return (-pad, -f.descent, self._n * f.width + 2 * pad, f.descent + f.height)

    def _place(self):
        w = self._n * self._f.width * self.scale
        a = self._anchor
        x = self._ax
        if a >= 1:
            x -= w
        elif a > 0:
            x -= _half(w)
        if self.x != x:
            self.x = x
        if self.y != self._ay:
            self.y = self._ay
        if self._box is not None:
            self._fill_box()

    def _fill_box(self):
        box = self._box
        if _CHECKING:
            assert box  # called once there is one
        w = self._n * self._f.width
        if w:
            w += 2 * self._pad
        for i in range(box.width):
            v = 0 if i < w else 1
            if box[i] != v:
                box[i] = v


def label(font, text="", x=0, y=0, anchor=(0.0, 0.0), inverse=False, pad=0, scale=1):
    """A :class:`Text` in font 'small' (5x8 cell) or 'medium' (6x10) whose
    font cell starts at row ``y`` (anchor x: 0 left, 0.5 centre, 1 right);
    ``inverse``: black on a white box ``pad`` columns wider each side."""
    if inverse:
        return Text(font, text, x, y, anchor[0], BLACK, WHITE, pad, scale)
    return Text(font, text, x, y, anchor[0], WHITE, None, 0, scale)


def box(w, h, x=0, y=0, value=1, hidden=False):
    """A solid rectangle as a TileGrid (value 1 white, 0 black): one tile
    at most 32 px wide, repeated across (a 128 x 29 toast's bitmap is 116
    bytes, not 464; up to 4 tiles' indexes live in the TileGrid itself)."""
    tw = 32
    while w % tw:
        tw -= 1
    bm = displayio.Bitmap(tw, h, 2)
    if value:
        bm.fill(value)
    tg = displayio.TileGrid(bm, pixel_shader=palette("text"), width=w // tw, height=1, tile_width=tw,
                            tile_height=h, x=x, y=y)
    tg.hidden = hidden
    return tg


batt = 0  # the battery mark (pisti_app.board.Board.tick, pisti_app.screens.battmark): 0 on USB or not read, 1 on
          # battery, 2 low


def title_bar(group, h=8, x=1, y=0, rx=127):
    """A white bar ``h`` rows high across the top with black small text: the
    left label at ``x`` and the right-aligned one ending at ``rx`` (left of
    the battery mark on battery power: :mod:`pisti_app.screens.battdraw`, loaded for
    this only), both appended to ``group``; returns (left, right)."""
    group.append(box(128, h, 0, 0))
    if batt:
        from pisti_app.screens import battdraw
        rx -= battdraw.draw(group, batt, palette("inverse"), rx - 9, y + 1)
    out = []
    for lx, anchor in ((x, (0.0, 0.0)), (rx, (1.0, 0.0))):
        lbl = label("small", "", lx, y, anchor=anchor)
        lbl.color = BLACK
        group.append(lbl)
        out.append(lbl)
    return out[0], out[1]
