# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Generate the project's bitmap fonts into ``assets/fonts/``.

The device draws text with its own PCF fonts (CircuitPython's built-in
``terminalio.FONT`` has printable ASCII only).  They are subsets of the
public-domain X11 "misc-fixed" fonts: ``small`` from 5x8 with the suits of
5x7, ``medium`` from 6x10 with the suits, black triangles and check marks
of 6x12, ``large`` (card ranks and suits) from 9x15B with the suits of
9x15.  A sibling of the same width is used (``borrow``) where the source
lacks a glyph or its glyph reads worse at that size (5x8's and 6x10's
clubs); the small font's check and cross marks, which neither 5x7 nor 5x8
has, and its 'r' (5x8's leaves a gap before 'l': "Ayar lar") are drawn in
this file (``drawn``).

The committed ``assets/fonts/*.pcf`` are what the device and the tests
use; this tool only regenerates them.  It needs, on Debian/Ubuntu::

    apt-get install -y xfonts-base xfonts-utils pcf2bdf

(``xfonts-base`` has the sources as .pcf.gz, ``pcf2bdf`` turns them into
BDF text, ``bdftopcf`` from ``xfonts-utils`` writes the PCF files in the
layout ``adafruit_bitmap_font`` reads: big-endian, MSB bit first, rows
padded to 4 bytes.)

Usage::

    python tools/make_fonts.py            # write assets/fonts/*.pcf
    python tools/make_fonts.py --check    # exit 1 if the committed files differ
    python tools/make_fonts.py --out DIR --bdf   # elsewhere, keep the BDF too
    python tools/make_fonts.py --preview /tmp    # sample text as PNGs (no apt needed)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "assets", "fonts")
SOURCE_DIR = "/usr/share/fonts/X11/misc"
APT_HINT = "apt-get install -y xfonts-base xfonts-utils pcf2bdf"

ASCII = "".join(chr(c) for c in range(32, 127))
TURKISH = "çÇğĞıİöÖşŞüÜ"
SUITS = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠ (clubs, diamonds, hearts, spades)
# Triangles (both Unicode pairs), arrows, bullet, middle dot, times,
# ellipsis, degree, check mark, ballot x.
UI = "▲▼◀▶◄►←→↑↓•·×…°✓✗"
TEXT = ASCII + TURKISH + SUITS + UI
RANKS = " 0123456789AJQK"  # A 2-9 10 J Q K, and a space
SAMPLE = "Pişti ♣♦♥♠ İĞÜŞÖÇ ığüşöç 10♦ 2♣"
SAMPLE_LARGE = "A 10♦ 2♣ J♥ Q♠ K"

# Rows of the small font's drawn glyphs, top row first, over the whole
# 5x8 cell (ascent 7, descent 1): '#' is ink.
_DRAWN_SMALL = {
    # 5x8's own 'r' has its stem in the cell's first column and nothing
    # under its arm: next to the centred 'l' and 'i' it leaves a hole
    # ("Ayar lar"). This one stands in the second column, like 'l' and 'i'.
    "r": (".....", ".....", ".....", ".#.#.", ".##..", ".#...", ".#...", "....."),
    # 5x8's own '.' is a 3x3 cross under the baseline: at the end of a
    # word it reads as '+' ("game+"). This one is the 2x2 dot of its ':'.
    ".": (".....", ".....", ".....", ".....", ".....", ".##..", ".##..", "....."),
    "✓": (".....", ".....", "....#", "...#.", "#.#..", ".#...", ".....", "....."),
    "✗": (".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", ".....", "....."),
}

# name, output file, source font, characters; "borrow": (sibling, characters
# taken from it), "drawn": {character: rows}, "trim": cut blank rows.
FONTS = (
    {"name": "small", "file": "small-5x8.pcf", "source": "5x8", "chars": TEXT,
     "borrow": (("5x7", SUITS),), "drawn": _DRAWN_SMALL},
    {"name": "medium", "file": "medium-6x10.pcf", "source": "6x10", "chars": TEXT,
     "borrow": (("6x12", SUITS + "◀▶✓✗"),)},
    {"name": "large", "file": "large-9x11.pcf", "source": "9x15B", "chars": RANKS + SUITS,
     "borrow": (("9x15", SUITS),), "trim": True},
)


class FontError(Exception):
    """The sources or tools cannot make a font as specified."""


class Bdf:
    """A parsed monospace BDF font: cell metrics, properties, glyph rows."""

    def __init__(self, name, props, width, height, xoff, yoff, glyphs):
        self.name = name  # XLFD name
        self.props = props  # list of (key, raw value text), in file order
        self.width, self.height, self.xoff, self.yoff = width, height, xoff, yoff
        self.glyphs = glyphs  # code point -> tuple of cell rows (ints, MSB = left)

    @property
    def ascent(self):
        """Rows above the baseline."""
        return self.height + self.yoff


def parse_bdf(text: str) -> Bdf:
    """Parse BDF text; every glyph is placed into the font's bounding cell."""
    lines = text.splitlines()
    name, props, box, glyphs = "", [], None, {}
    i, in_props = 0, False
    while i < len(lines):
        words = lines[i].split(None, 1)
        key = words[0] if words else ""
        rest = words[1] if len(words) > 1 else ""
        if key == "FONT":
            name = rest
        elif key == "FONTBOUNDINGBOX":
            box = tuple(int(v) for v in rest.split())
        elif key == "STARTPROPERTIES":
            in_props = True
        elif key == "ENDPROPERTIES":
            in_props = False
        elif in_props and key:
            props.append((key, rest))
        elif key == "STARTCHAR":
            i, code, rows = _parse_char(lines, i, box)
            if code >= 0:
                glyphs[code] = rows
        i += 1
    if box is None:
        raise FontError("BDF has no FONTBOUNDINGBOX")
    return Bdf(name, props, box[0], box[1], box[2], box[3], glyphs)


def _parse_char(lines, i, box):
    """Read one STARTCHAR..ENDCHAR block at line i; rows fill the font cell."""
    cell_w, cell_h, cell_x, cell_y = box
    code, bbx = -1, None
    while True:
        i += 1
        words = lines[i].split()
        if words[0] == "ENCODING":
            code = int(words[-1])
        elif words[0] == "BBX":
            bbx = tuple(int(v) for v in words[1:5])
        elif words[0] == "BITMAP":
            break
    w, h, x, y = bbx
    rows = [0] * cell_h
    shift = cell_w - (x - cell_x) - w  # from the glyph's columns to the cell's
    for r in range(h):
        raw = lines[i + 1 + r].strip()
        bits = int(raw, 16) >> (len(raw) * 4 - w) if raw else 0
        cell_row = (cell_h + cell_y) - (y + h) + r
        if not bits:
            continue
        if not 0 <= cell_row < cell_h or shift < 0 or (bits << shift) >> cell_w:
            rows = None  # ink outside the cell: unusable (build_glyphs says so if asked)
            break
        rows[cell_row] = bits << shift
    while lines[i].strip() != "ENDCHAR":
        i += 1
    return i, code, rows and tuple(rows)


def fit(rows, src: Bdf, dst: Bdf, what: str):
    """Move a glyph of ``src`` into ``dst``'s cell, aligned on the baseline."""
    if src.width != dst.width:
        raise FontError("%s: %s is %d wide, %s is %d" % (what, src.name, src.width, dst.name, dst.width))
    out = [0] * dst.height
    shift = dst.ascent - src.ascent  # source row r lands on r + shift
    for r, bits in enumerate(rows):
        if not bits:
            continue
        if not 0 <= r + shift < dst.height:
            raise FontError("%s: ink of %s does not fit in %s" % (what, src.name, dst.name))
        out[r + shift] = bits
    return tuple(out)


def drawn(pattern, dst: Bdf, what: str):
    """Rows from strings of '.' and '#', one per cell row."""
    if len(pattern) != dst.height or any(len(p) != dst.width for p in pattern):
        raise FontError("%s: drawing is not %dx%d" % (what, dst.width, dst.height))
    return tuple(int(p.replace(".", "0").replace("#", "1"), 2) for p in pattern)


def read_source(stem: str, source_dir: str = SOURCE_DIR) -> Bdf:
    """Read ``<source_dir>/<stem>.pcf.gz`` through pcf2bdf."""
    path = os.path.join(source_dir, stem + ".pcf.gz")
    if not os.path.exists(path):
        raise FontError("missing %s (%s)" % (path, APT_HINT))
    tool = _tool("pcf2bdf")
    out = subprocess.run([tool, path], capture_output=True, check=True)
    return parse_bdf(out.stdout.decode("latin-1"))


def _tool(name):
    found = shutil.which(name)
    if not found:
        raise FontError("%s not found (%s)" % (name, APT_HINT))
    return found


def build_glyphs(spec, source_dir: str = SOURCE_DIR):
    """The base font and {code point: rows} for one entry of FONTS.

    A character listed in ``drawn`` is drawn, one listed in ``borrow`` comes
    from that sibling font, any other from the source font; missing is an error.
    """
    base = read_source(spec["source"], source_dir)
    lenders = [(read_source(stem, source_dir), chars) for stem, chars in spec.get("borrow", ())]
    draw = spec.get("drawn", {})
    out = {}
    for ch in sorted(set(spec["chars"])):
        code, what = ord(ch), "%s U+%04X" % (spec["name"], ord(ch))
        font = next((f for f, chars in lenders if ch in chars), base)
        if ch in draw:
            out[code] = drawn(draw[ch], base, what)
        elif code not in font.glyphs:
            raise FontError("%s: %s has no glyph for it" % (what, font.name))
        elif font.glyphs[code] is None:
            raise FontError("%s: %s has ink outside its cell" % (what, font.name))
        else:
            out[code] = fit(font.glyphs[code], font, base, what)
    return base, out


def trim(base: Bdf, glyphs):
    """Cut the rows blank in every glyph off the cell (ascent/descent follow)."""
    used = 0
    for rows in glyphs.values():
        used |= sum(1 << (base.height - 1 - r) for r, bits in enumerate(rows) if bits)
    if not used:
        return base, glyphs
    top = base.height - used.bit_length()
    bottom = base.height - 1 - _lowest_bit(used)
    height = bottom - top + 1
    descent = -base.yoff - (base.height - 1 - bottom)
    props = [(k, v) for k, v in base.props if k not in ("FONT_ASCENT", "FONT_DESCENT")]
    props += [("FONT_ASCENT", str(height - descent)), ("FONT_DESCENT", str(descent))]
    cut = Bdf(base.name, props, base.width, height, base.xoff, -descent, {})
    return cut, {code: rows[top:bottom + 1] for code, rows in glyphs.items()}


def _lowest_bit(n):
    return (n & -n).bit_length() - 1


_SKIP_PROPS = ("DEFAULT_CHAR", "_XMBDFED_INFO")


def write_bdf(spec, base: Bdf, glyphs) -> str:
    """BDF text for the subset; every glyph spans the whole cell."""
    w, h, x, y = base.width, base.height, base.xoff, base.yoff
    props = [(k, v) for k, v in base.props if k not in _SKIP_PROPS]
    size = dict(props).get("PIXEL_SIZE", str(h))
    lines = [
        "STARTFONT 2.1",
        "COMMENT pisti %s font: subset of X11 misc-fixed %s (public domain)," % (spec["name"], spec["source"]),
        "COMMENT made by tools/make_fonts.py; see assets/fonts/LICENSE-fonts.txt",
        "FONT " + base.name,
        "SIZE %s 75 75" % size,
        "FONTBOUNDINGBOX %d %d %d %d" % (w, h, x, y),
        "STARTPROPERTIES %d" % len(props),
    ]
    lines += ["%s %s" % kv for kv in props]
    lines += ["ENDPROPERTIES", "CHARS %d" % len(glyphs)]
    digits = (w + 7) // 8 * 2
    for code in sorted(glyphs):
        lines += [
            "STARTCHAR uni%04X" % code,
            "ENCODING %d" % code,
            "SWIDTH %d 0" % (w * 72000 // (int(size) * 75)),
            "DWIDTH %d 0" % w,
            "BBX %d %d %d %d" % (w, h, x, y),
            "BITMAP",
        ]
        pad = digits * 4 - w
        lines += ["%0*X" % (digits, bits << pad) for bits in glyphs[code]]
        lines.append("ENDCHAR")
    lines.append("ENDFONT")
    return "\n".join(lines) + "\n"


def build_all(out_dir: str, keep_bdf: bool = False, source_dir: str = SOURCE_DIR):
    """Write every font of FONTS into out_dir; returns the PCF paths."""
    bdftopcf = _tool("bdftopcf")
    built = []  # everything is read and checked before anything is written
    for spec in FONTS:
        base, glyphs = build_glyphs(spec, source_dir)
        if spec.get("trim"):
            base, glyphs = trim(base, glyphs)
        built.append((spec, base, glyphs))
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec, base, glyphs in built:
            bdf = os.path.join(keep_bdf and out_dir or tmp, spec["file"][:-4] + ".bdf")
            with open(bdf, "w", encoding="latin-1", newline="\n") as f:
                f.write(write_bdf(spec, base, glyphs))
            pcf = os.path.join(out_dir, spec["file"])
            # -m/-M: MSB byte and bit first; -p4: rows padded to 4 bytes; -u1: byte units.
            subprocess.run([bdftopcf, "-m", "-M", "-p4", "-u1", "-o", pcf, bdf], check=True)
            paths.append(pcf)
    return paths


def group_pixels(group, x=0, y=0, scale=1, out=None):
    """{(x, y): 1} of the ink a displayio Group (a Label) draws, in screen pixels."""
    import displayio  # desktop: Blinka's displayio

    out = {} if out is None else out
    if group.hidden:
        return out
    x, y = x + group.x * scale, y + group.y * scale
    if isinstance(group, displayio.TileGrid):
        bitmap = group.bitmap
        for by in range(bitmap.height):
            for bx in range(bitmap.width):
                if bitmap[bx, by]:
                    for sy in range(scale):
                        for sx in range(scale):
                            out[(x + bx * scale + sx, y + by * scale + sy)] = 1
        return out
    scale *= group.scale
    for i in range(len(group)):
        group_pixels(group[i], x, y, scale, out)
    return out


def preview(font_path: str, text: str, png_path: str, zoom: int = 4):
    """Draw text with adafruit_display_text's Label into a white-on-black PNG."""
    from adafruit_bitmap_font import bitmap_font
    from adafruit_display_text import label
    from PIL import Image

    font = bitmap_font.load_font(font_path)
    ink = group_pixels(label.Label(font, text=text, color=0xFFFFFF))
    if not ink:
        raise FontError("%s drew nothing for %r" % (font_path, text))
    left = min(p[0] for p in ink) - 2
    top = min(p[1] for p in ink) - 2
    width = max(p[0] for p in ink) - left + 3
    height = max(p[1] for p in ink) - top + 3
    image = Image.new("1", (width, height), 0)
    for px, py in ink:
        image.putpixel((px - left, py - top), 1)
    image = image.resize((width * zoom, height * zoom), Image.NEAREST)
    image.save(png_path)
    return image


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=OUT_DIR, help="output folder (default assets/fonts)")
    parser.add_argument("--bdf", action="store_true", help="keep the BDF files next to the PCF")
    parser.add_argument("--check", action="store_true",
                        help="build in a temporary folder and compare with --out")
    parser.add_argument("--source-dir", default=SOURCE_DIR, help="where the misc-fixed .pcf.gz are")
    parser.add_argument("--preview", metavar="DIR",
                        help="only draw the sample text with each committed font into DIR/*.png")
    args = parser.parse_args(argv)
    try:
        if args.preview:
            os.makedirs(args.preview, exist_ok=True)
            for spec in FONTS:
                text = SAMPLE_LARGE if spec["name"] == "large" else SAMPLE
                png = os.path.join(args.preview, spec["file"][:-4] + ".png")
                preview(os.path.join(args.out, spec["file"]), text, png)
                print(png)
            return 0
        if args.check:
            with tempfile.TemporaryDirectory() as tmp:
                stale = []
                for path in build_all(tmp, source_dir=args.source_dir):
                    old = os.path.join(args.out, os.path.basename(path))
                    if not os.path.exists(old) or _read(old) != _read(path):
                        stale.append(old)
            for path in stale:
                print("out of date: %s" % path, file=sys.stderr)
            return 1 if stale else 0
        for path in build_all(args.out, args.bdf, args.source_dir):
            print("%s  %d bytes" % (os.path.relpath(path), os.path.getsize(path)))
    except (FontError, subprocess.CalledProcessError) as exc:
        print("make_fonts: %s" % exc, file=sys.stderr)
        return 2
    return 0


def _read(path):
    with open(path, "rb") as f:
        return f.read()


if __name__ == "__main__":
    sys.exit(main())
