# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The project's bitmap fonts (``assets/fonts/*.pcf``), loaded once each.

``load('small')`` 5x8 cell (25 columns on 128 px), ``load('medium')`` 6x10
(21 columns), ``load('large')`` 9x11, card ranks A 2-9 10 J Q K and the
suits only.  small and medium hold printable ASCII, the Turkish letters,
the suits and UI symbols (tools/make_fonts.py lists them).
"""

from adafruit_bitmap_font import bitmap_font

_FILES = {"small": "small-5x8.pcf", "medium": "medium-6x10.pcf", "large": "large-9x11.pcf"}
_cache = {}


def _folders():
    # Next to this module's folder first (the repo root on a desktop, / on the
    # device), then the device root, then the current directory.
    out = []
    here = globals().get("__file__", "")
    cut = here.replace("\\", "/").rfind("/lib/")
    if cut >= 0:
        out.append(here[:cut] + "/assets/fonts/")
    out.append("/assets/fonts/")
    out.append("assets/fonts/")
    return out


def load(name):
    """The font object for 'small', 'medium' or 'large', loaded on first use."""
    font = _cache.get(name)
    if font is not None:
        return font
    file = _FILES.get(name)
    if file is None:
        raise ValueError("unknown font %r: use 'small', 'medium' or 'large'" % (name,))
    for folder in _folders():
        try:
            font = bitmap_font.load_font(folder + file)
        except OSError:
            continue
        _cache[name] = font
        return font
    raise OSError("font file %s not found in /assets/fonts/ or assets/fonts/" % file)


def missing(font, text):
    """The characters of text that font has no glyph for, each once, in order."""
    if hasattr(font, "load_glyphs"):
        font.load_glyphs(text)  # one pass over the file instead of one per character
    out = ""
    for ch in text:
        if ch not in out and ch != "\n" and font.get_glyph(ord(ch)) is None:
            out += ch
    return out
