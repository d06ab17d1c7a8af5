# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The committed fonts (assets/fonts), lib/fonts.py and tools/make_fonts.py.

The character sets are written out here on purpose, not imported from the
tool: they are what the screens are promised.
"""

import os
import shutil
import subprocess
import sys

import displayio
import pytest
from adafruit_bitmap_font import bitmap_font
from adafruit_display_text import label
from PIL import Image

from lib import fonts
from tools import font_sheets, make_fonts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT_DIR = os.path.join(ROOT, "assets", "fonts")

ASCII = "".join(chr(c) for c in range(32, 127))
TURKISH = "çÇğĞıİöÖşŞüÜ"
SUITS = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠
UI = "▲▼◀▶◄►←→↑↓•·×…°✓✗"
TEXT = ASCII + TURKISH + SUITS + UI
RANKS = " A23456789" + "10JQK" + SUITS
SAMPLE = "Pişti ♣♦♥♠ İĞÜŞÖÇ ığüşöç 10♦ 2♣"
SAMPLE_LARGE = "A 10♦ 2♣ J♥ Q♠ K"

# name: (file, cell width, cell height, characters, sample)
SPECS = {
    "small": ("small-5x8.pcf", 5, 8, TEXT, SAMPLE),
    "medium": ("medium-6x10.pcf", 6, 10, TEXT, SAMPLE),
    "large": ("large-9x11.pcf", 9, 11, RANKS, SAMPLE_LARGE),
}


@pytest.fixture(scope="module", params=sorted(SPECS))
def font_case(request):
    name = request.param
    file, width, height, chars, sample = SPECS[name]
    font = bitmap_font.load_font(os.path.join(FONT_DIR, file))
    return name, font, width, height, chars, sample


def ink(bitmap):
    return sum(1 for y in range(bitmap.height) for x in range(bitmap.width) if bitmap[x, y])


def rows(glyph):
    b = glyph.bitmap
    return tuple(tuple(b[x, y] for x in range(b.width)) for y in range(b.height))


def tilegrids(group):
    if isinstance(group, displayio.TileGrid):
        return [group]
    return [t for i in range(len(group)) for t in tilegrids(group[i])]


def test_committed_fonts_are_pcf_and_complete(font_case):
    name, font, _, _, chars, _ = font_case
    assert type(font).__name__ == "PCF", name
    assert fonts.missing(font, chars) == "", name


def test_glyphs_fit_the_claimed_cell(font_case):
    name, font, width, height, chars, _ = font_case
    assert font.get_bounding_box()[:2] == (width, height), name
    assert font.ascent + font.descent == height, name
    for ch in chars:
        g = font.get_glyph(ord(ch))
        assert g.shift_x == width, (name, ch)  # monospace: columns line up
        assert 0 <= g.dx and g.dx + g.width <= width, (name, ch)
        assert -font.descent <= g.dy and g.dy + g.height <= font.ascent, (name, ch)


# Pairs the source fonts draw alike on purpose (6x10's multiplication sign is its x).
SAME = {("medium", "x", "×")}


def test_glyphs_have_ink_and_are_all_different(font_case):
    name, font, _, _, chars, _ = font_case
    seen = {}
    for ch in sorted(set(chars)):
        g = font.get_glyph(ord(ch))
        if ch == " ":
            assert ink(g.bitmap) == 0, name
            continue
        assert ink(g.bitmap) > 0, (name, ch)
        shape = (g.dx, g.dy, rows(g))
        assert shape not in seen or (name, seen[shape], ch) in SAME, (name, ch, seen.get(shape))
        seen[shape] = ch


def test_sample_label_draws_every_character(font_case):
    name, font, _, _, _, sample = font_case
    text = label.Label(font, text=sample, color=0xFFFFFF)
    grids = tilegrids(text)
    assert len(grids) == len(sample), name  # one per character, spaces too
    for ch, grid in zip(sample, grids, strict=True):
        assert (ink(grid.bitmap) > 0) == (ch != " "), (name, ch)


def test_large_font_has_ranks_and_suits_only():
    large = bitmap_font.load_font(os.path.join(FONT_DIR, "large-9x11.pcf"))
    assert fonts.missing(large, SAMPLE) == "PiştİĞÜŞÖÇığüöç"
    assert fonts.missing(large, "BbZz?!") == "BbZz?!"


def test_preview_png_is_white_on_black_at_4x(font_case, tmp_path):
    name, _, width, height, _, sample = font_case
    png = tmp_path / (name + ".png")
    make_fonts.preview(os.path.join(FONT_DIR, SPECS[name][0]), sample, str(png))
    image = Image.open(png)
    assert sorted(c for _, c in image.getcolors()) == [0, 255]
    assert image.getpixel((0, 0)) == 0
    assert image.width >= 4 * (width * (len(sample) - 1)), name
    assert 4 * height // 2 <= image.height <= 4 * (height + 4), name


def _pcf(name):
    return bitmap_font.load_font(os.path.join(FONT_DIR, SPECS[name][0]))


def test_suits_are_four_distinct_shapes_in_every_font():
    for name in SPECS:
        font = _pcf(name)
        shapes = {rows(font.get_glyph(ord(s))) for s in SUITS}
        assert len(shapes) == 4, name


def test_turkish_letters_differ_from_their_ascii_bases():
    pairs = ("çc", "ÇC", "ğg", "ĞG", "ıi", "İI", "öo", "ÖO", "şs", "ŞS", "üu", "ÜU")
    for name in ("small", "medium"):
        font = _pcf(name)
        for tr, base in pairs:
            assert rows(font.get_glyph(ord(tr))) != rows(font.get_glyph(ord(base))), (name, tr)


# lib/fonts.py


def test_load_caches_and_rejects_unknown_names():
    small = fonts.load("small")
    assert fonts.load("small") is small
    assert fonts.load("medium") is not small
    with pytest.raises(ValueError, match="unknown font 'huge'"):
        fonts.load("huge")


def test_load_finds_the_files_from_another_working_directory(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "_cache", {})
    monkeypatch.chdir(tmp_path)
    assert fonts.missing(fonts.load("medium"), SAMPLE) == ""


def test_load_says_which_file_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "_cache", {})
    monkeypatch.setattr(fonts, "_FILES", {"small": "nope.fnt"})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OSError, match="nope.fnt not found"):
        fonts.load("small")
    assert fonts._cache == {}


def test_missing_lists_each_absent_character_once_in_order():
    small = fonts.load("small")
    assert fonts.missing(small, "aé♣€é\nb€") == "é€"
    assert fonts.missing(small, "") == ""


_STUB = '''
class Bitmap:
    def __init__(self, w, h, n):
        self.width = w
        self.height = h
        self.px = bytearray(w * h)
    def __setitem__(self, xy, v):
        self.px[xy if isinstance(xy, int) else xy[1] * self.width + xy[0]] = v
    def __getitem__(self, xy):
        return self.px[xy if isinstance(xy, int) else xy[1] * self.width + xy[0]]
'''

_SCRIPT = '''
import fonts
f = fonts.load("large")
print(f is fonts.load("large"), f.width, f.height, f.cols, f.n)
print(fonts.missing(f, "A10\\u2663a\\u4e00b\\u4e00"))
s = fonts.load("small")
i = s.index(ord("\\u015f"))
print(s.index(ord("A")) == 33, i > 94, sum(s.bitmap[x, y] for x in range(80) for y in range(64)) > 500)
try:
    fonts.load("tiny")
except ValueError as e:
    print("ValueError", e)
'''


def test_lib_fonts_runs_under_micropython(tmp_path):
    """lib/fonts.py reads the committed sheets under micropython, with a
    stand-in displayio and no bitmaptools (its pixel-loop fallback)."""
    exe = shutil.which("micropython", path=os.path.dirname(sys.executable) + os.pathsep
                       + os.environ.get("PATH", ""))
    if exe is None:
        pytest.skip("the micropython command is not installed")
    (tmp_path / "displayio.py").write_text(_STUB)
    script = tmp_path / "run.py"
    script.write_text(_SCRIPT, encoding="utf-8")
    env = dict(os.environ, MICROPYPATH="%s:%s" % (tmp_path, os.path.join(ROOT, "lib")))
    out = subprocess.run([exe, str(script)], cwd=str(ROOT), env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "True 9 11 16 19",
        "a\u4e00b",
        "True True True",
        "ValueError unknown font 'tiny': use 'small', 'medium' or 'large'",
    ]


def test_sheets_draw_each_glyph_as_the_pcf_does(font_case):
    """Every cell of the device's glyph sheet is the PCF glyph in its cell."""
    name, font, width, height, chars, _ = font_case
    sheet = fonts.load(name)
    assert (sheet.width, sheet.height, sheet.descent) == (width, height, font.descent)
    for ch in chars:
        i = sheet.index(ord(ch))
        assert i >= 0, (name, ch)
        g = font.get_glyph(ord(ch))
        ox, oy = (i % sheet.cols) * width, (i // sheet.cols) * height
        top = font.ascent - g.height - g.dy
        for y in range(height):
            for x in range(width):
                gx, gy = x - g.dx, y - top
                want = g.bitmap[gx, gy] if 0 <= gx < g.width and 0 <= gy < g.height else 0
                assert sheet.bitmap[ox + x, oy + y] == want, (name, ch, x, y)
    # A character the font lacks shows as "?" (large has none: a blank).
    assert sheet.unknown == (sheet.index(ord("?")) if "?" in chars else sheet.index(32))
    assert sheet.index(0x4E00) == -1


def _word_ink(sheet, word):
    """{row: [ink columns]} of ``word`` drawn cell by cell from a glyph sheet,
    as gfx.Text puts the tiles side by side."""
    out = {}
    for k, ch in enumerate(word):
        i = sheet.index(ord(ch))
        ox, oy = (i % sheet.cols) * sheet.width, (i // sheet.cols) * sheet.height
        for y in range(sheet.height):
            for x in range(sheet.width):
                if sheet.bitmap[ox + x, oy + y]:
                    out.setdefault(y, []).append(k * sheet.width + x)
    return out


def _gaps(sheet, left, mid, right):
    """Mean blank columns before and after ``mid`` between its neighbours,
    over the rows where all three have ink."""
    a, m, b = (_word_ink(sheet, ch) for ch in (left, mid, right))
    w = sheet.width
    both = [y for y in m if y in a and y in b]
    before = [min(m[y]) + w - max(a[y]) - 1 for y in both]
    after = [min(b[y]) + w - max(m[y]) - 1 for y in both]
    return sum(before) / len(both), sum(after) / len(both)


def test_small_r_sits_evenly_between_its_neighbours():
    """"Ayarlar" must not read "Ayar lar" in the small font (title bars,
    the message line): 5x8's 'r' stands in the cell's first column with
    nothing under its arm, so it leans on the letter before it and leaves
    a hole before a centred 'l'. The drawn 'r' (tools/make_fonts.py) has
    about as much room on both sides."""
    sheet = fonts.load("small")
    for word in ("arl", "arı", "ırl"):
        before, after = _gaps(sheet, *word)
        assert abs(after - before) <= 2, (word, before, after)
    ink = _word_ink(sheet, "Ayarlar")
    assert len({x // 5 for y in ink for x in ink[y]}) == 7  # every letter drawn


def test_committed_sheets_are_up_to_date():
    assert subprocess.run([sys.executable, os.path.join(ROOT, "tools", "font_sheets.py"), "--check"],
                          capture_output=True, text=True).returncode == 0


# tools/make_fonts.py, the parts that need no apt packages

_TINY_BDF = """STARTFONT 2.1
FONT -Misc-Fixed-Medium-R-Normal--4-40-75-75-C-30-ISO10646-1
SIZE 4 75 75
FONTBOUNDINGBOX 3 4 0 -1
STARTPROPERTIES 3
COPYRIGHT "Public domain font.  Share and enjoy."
FONT_ASCENT 3
FONT_DESCENT 1
ENDPROPERTIES
CHARS 2
STARTCHAR A
ENCODING 65
SWIDTH 500 0
DWIDTH 3 0
BBX 3 4 0 -1
BITMAP
40
A0
E0
00
ENDCHAR
STARTCHAR dot
ENCODING 46
SWIDTH 500 0
DWIDTH 3 0
BBX 1 1 1 0
BITMAP
80
ENDCHAR
ENDFONT
"""


def test_parse_bdf_places_glyphs_in_the_cell_and_write_bdf_round_trips():
    font = make_fonts.parse_bdf(_TINY_BDF)
    assert (font.width, font.height, font.ascent) == (3, 4, 3)
    assert font.glyphs[65] == (0b010, 0b101, 0b111, 0)
    assert font.glyphs[46] == (0, 0, 0b010, 0)  # 1x1 at x=1, on the baseline row
    spec = {"name": "tiny", "source": "tiny"}
    again = make_fonts.parse_bdf(make_fonts.write_bdf(spec, font, font.glyphs))
    assert again.glyphs == font.glyphs
    assert dict(again.props)["COPYRIGHT"] == '"Public domain font.  Share and enjoy."'


def test_parse_bdf_marks_glyphs_with_ink_outside_the_cell():
    bad = _TINY_BDF.replace("BBX 1 1 1 0\nBITMAP\n80", "BBX 1 1 3 0\nBITMAP\n80")
    assert make_fonts.parse_bdf(bad).glyphs[46] is None


def test_fit_aligns_baselines_and_refuses_what_does_not_fit():
    small = make_fonts.parse_bdf(_TINY_BDF)
    tall = make_fonts.parse_bdf(_TINY_BDF.replace("FONTBOUNDINGBOX 3 4 0 -1", "FONTBOUNDINGBOX 3 6 0 -1"))
    # tall has ascent 5: its rows 2..5 are small's rows 0..3.
    assert make_fonts.fit((0, 0, 1, 2, 3, 0), tall, small, "x") == (1, 2, 3, 0)
    with pytest.raises(make_fonts.FontError, match="does not fit"):
        make_fonts.fit((4, 0, 0, 0, 0, 0), tall, small, "x")
    wide = make_fonts.parse_bdf(_TINY_BDF.replace("FONTBOUNDINGBOX 3 4", "FONTBOUNDINGBOX 4 4"))
    with pytest.raises(make_fonts.FontError, match="wide"):
        make_fonts.fit((0, 0, 0, 0), wide, small, "x")


def test_drawn_and_trim():
    font = make_fonts.parse_bdf(_TINY_BDF)
    assert make_fonts.drawn(("#..", ".#.", "..#", "..."), font, "x") == (4, 2, 1, 0)
    with pytest.raises(make_fonts.FontError, match="not 3x4"):
        make_fonts.drawn(("#..",), font, "x")
    cut, glyphs = make_fonts.trim(font, {65: font.glyphs[65], 46: font.glyphs[46]})
    assert (cut.height, cut.ascent, cut.yoff) == (3, 3, 0)
    assert glyphs[65] == (0b010, 0b101, 0b111)
    assert dict(cut.props)["FONT_DESCENT"] == "0"


def test_every_font_spec_lists_the_promised_characters():
    by_name = {spec["name"]: spec for spec in make_fonts.FONTS}
    for name, (file, _, _, chars, _) in SPECS.items():
        assert by_name[name]["file"] == file
        assert set(chars) <= set(by_name[name]["chars"]), name
        assert fonts._FILES[name] == name + ".fnt"  # the sheet made from that PCF
        assert font_sheets.SOURCES[name] == file


def _have_sources():
    tools_ok = shutil.which("pcf2bdf") and shutil.which("bdftopcf")
    stems = {spec["source"] for spec in make_fonts.FONTS}
    stems |= {stem for spec in make_fonts.FONTS for stem, _ in spec.get("borrow", ())}
    files = all(os.path.exists(os.path.join(make_fonts.SOURCE_DIR, s + ".pcf.gz")) for s in stems)
    return bool(tools_ok and files)


@pytest.mark.skipif(not _have_sources() and os.environ.get("CI") != "true",
                    reason="needs apt: " + make_fonts.APT_HINT)
def test_committed_fonts_match_a_fresh_build(tmp_path):
    for path in make_fonts.build_all(str(tmp_path)):
        with open(path, "rb") as new, open(os.path.join(FONT_DIR, os.path.basename(path)), "rb") as old:
            assert new.read() == old.read(), os.path.basename(path)
