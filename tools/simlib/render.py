# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The OLED framebuffer as terminal text.

``half``: one character per 1x2 pixels with ``' ▀ ▄ █'`` (128x64 -> 128
columns x 32 lines; square pixels in a usual terminal font). ``braille``:
one character per 2x4 pixels (U+2801..U+28FF, a space when all are
dark; 64 columns x 16 lines), for terminals too small for ``half``. Input is ``rows``: ``height`` lists (or
bytes) of 0/1, as ``rig.oled.rows(lit=True)`` returns.
"""

HALF = (" ", "\u2580", "\u2584", "\u2588")
# Braille dot bits for (dx, dy) within a 2x4 cell.
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
CELLS = {"half": (1, 2), "braille": (2, 4)}


def render_half(rows):
    """Lines of half-block characters, two pixel rows per line."""
    lines = []
    height = len(rows)
    for y in range(0, height, 2):
        top = rows[y]
        bottom = rows[y + 1] if y + 1 < height else [0] * len(top)
        lines.append("".join(HALF[(1 if t else 0) | (2 if b else 0)] for t, b in zip(top, bottom, strict=True)))
    return lines


def render_braille(rows):
    """Lines of braille characters, 2x4 pixels each."""
    lines = []
    height = len(rows)
    width = len(rows[0]) if rows else 0
    for y0 in range(0, height, 4):
        out = []
        for x0 in range(0, width, 2):
            code = 0
            for dy in range(4):
                y = y0 + dy
                if y >= height:
                    break
                row = rows[y]
                bits = _BRAILLE_BITS[dy]
                if row[x0]:
                    code |= bits[0]
                if x0 + 1 < width and row[x0 + 1]:
                    code |= bits[1]
            out.append(chr(0x2800 + code) if code else " ")
        lines.append("".join(out))
    return lines


def render(rows, cells="half"):
    """The frame as text lines with ``cells`` ("half" or "braille")."""
    if cells == "half":
        return render_half(rows)
    if cells == "braille":
        return render_braille(rows)
    raise ValueError("cells must be 'half' or 'braille', got %r" % (cells,))


def text_size(width, height, cells):
    """(columns, lines) that a ``width`` x ``height`` frame takes."""
    cw, ch = CELLS[cells]
    return (width + cw - 1) // cw, (height + ch - 1) // ch


def framed(lines, width):
    """``lines`` inside a box drawn with box characters (``width`` columns inside)."""
    out = ["\u250c" + "\u2500" * width + "\u2510"]
    out.extend("\u2502" + line + "\u2502" for line in lines)
    out.append("\u2514" + "\u2500" * width + "\u2518")
    return out
