# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Glyph sheets for the device: one 1-bit bitmap a font plus a code table.

The PCF fonts in ``assets/fonts`` (made by ``tools/make_fonts.py``) hold
one glyph object per character once loaded; on the device that costs
~140-160 B a glyph of heap (../shared/DEVICE.md). A sheet is what the
firmware's own ``terminalio.FONT`` is: every glyph as a cell of one bitmap,
so a text is a ``displayio.TileGrid`` of tile indices and a font costs its
pixels (~1 KB).

File layout (``assets/fonts/<name>.fnt``, little endian)::

    0  b"PFS1"
    4  cell width, cell height, descent, tiles a sheet row   (4 x u8)
    8  glyph count n (u16), first code of the fast run (u16),
       its length (u16), its first glyph index (u16), index of "?" (u16)
   18  n codes (u16 each), ascending; glyph i is tile i
    .  the sheet: ceil(n / cols) * height rows of pixels, each row
       ceil(cols * width / 8) bytes, 1 bit a pixel, first pixel in the
       lowest bit (``bitmaptools.readinto(bm, f, 1)``).

The fast run is the longest run of consecutive codes (printable ASCII in
the text fonts): its glyph index is ``at + code - first`` with no search.

``python tools/font_sheets.py`` writes the three sheets from the PCFs;
``--check`` exits 1 when a committed sheet differs from what it would write.
"""

import argparse
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from tools.generated import write_or_check

FONT_DIR = os.path.join(ROOT, "assets", "fonts")
COLS = 16
#: sheet name: PCF file
SOURCES = {"small": "small-5x8.pcf", "medium": "medium-6x10.pcf", "large": "large-9x11.pcf"}


def sheet_bytes(pcf_path):
    """The .fnt file for the PCF font at ``pcf_path``, as bytes."""
    from adafruit_bitmap_font import bitmap_font

    font = bitmap_font.load_font(pcf_path)
    cw, ch, _, _ = font.get_bounding_box()
    ascent, descent = font.ascent, font.descent
    font.load_glyphs(range(0x10000))
    codes = sorted(c for c, g in font._glyphs.items() if g is not None)
    n = len(codes)
    # The longest run of consecutive codes.
    best = (0, 0)
    start = 0
    for i in range(1, n + 1):
        if i == n or codes[i] != codes[i - 1] + 1:
            if i - start > best[1]:
                best = (start, i - start)
            start = i
    at, run = best
    first = codes[at]
    qmark = codes.index(ord("?")) if ord("?") in codes else 0
    rows = (n + COLS - 1) // COLS
    width = COLS * cw
    height = rows * ch
    pixels = bytearray(width * height)
    for i, code in enumerate(codes):
        g = font.get_glyph(code)
        ox = (i % COLS) * cw + g.dx
        oy = (i // COLS) * ch + ascent - g.height - g.dy  # glyph box inside its cell
        for y in range(g.height):
            for x in range(g.width):
                if g.bitmap[x, y]:
                    pixels[(oy + y) * width + ox + x] = 1
    stride = (width + 7) // 8
    sheet = bytearray(stride * height)
    for y in range(height):
        for x in range(width):
            if pixels[y * width + x]:
                sheet[y * stride + x // 8] |= 1 << (x % 8)
    head = b"PFS1" + bytes((cw, ch, descent, COLS)) + struct.pack("<HHHHH", n, first, run, at, qmark)
    return head + struct.pack("<%dH" % n, *codes) + bytes(sheet)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed sheets")
    parser.add_argument("--out", default=FONT_DIR, help="folder to write (default assets/fonts)")
    args = parser.parse_args(argv)
    bad = 0
    for name, pcf in sorted(SOURCES.items()):
        data = sheet_bytes(os.path.join(FONT_DIR, pcf))
        path = os.path.join(args.out, name + ".fnt")
        if not write_or_check(path, data, "tools/font_sheets.py", args.check):
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
