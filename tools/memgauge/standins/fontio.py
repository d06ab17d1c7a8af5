# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's fontio (C) in the heap gauge.
from collections import namedtuple

Glyph = namedtuple("Glyph", ("bitmap", "tile_index", "width", "height", "dx", "dy",
                             "shift_x", "shift_y"))


class BuiltinFont:
    # terminalio.FONT: 6x12 cells over one sheet (in flash on the device: the
    # sheet here is made on first use, and it is blank).
    def __init__(self):
        self._sheet = None

    @property
    def bitmap(self):
        if self._sheet is None:
            import displayio
            self._sheet = displayio.Bitmap(6 * 95, 12, 2)
        return self._sheet

    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, codepoint):
        if not 32 <= codepoint < 127:
            return None
        return Glyph(self.bitmap, codepoint - 32, 6, 12, 0, 0, 6, 0)
