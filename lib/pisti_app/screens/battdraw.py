# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.battdraw`
============================

The battery mark of the title bars: a 9x6 battery, black on white, its
charge drawn while on battery power and left out when the battery is low.
Loaded by :func:`pisti_app.screens.gfx.title_bar` and the list menus while a title
bar is built (only on battery power, ``gfx.batt``), and unloaded after each
use; it imports nothing of the app but the unloading.
"""

import displayio


def draw(group, value, palette, x, y):
    """Append the mark at (``x``, ``y``) to ``group`` (``value`` 1 on battery,
    2 low) and unload this module; returns the room it takes."""
    bm = displayio.Bitmap(9, 6, 2)
    for k in (0, 1):  # pixels y * 9 + x of rows 0-2, then 3-5: the case and its terminal, the charge
        v = (0x60502FF, 0x3FD0381)[k] | ((0xF00000, 0x3C)[k] if value == 1 else 0)
        for i in range(27):
            bm[27 * k + i] = v >> i & 1
    group.append(displayio.TileGrid(bm, pixel_shader=palette, x=x, y=y))
    from pisti_app.util import drop_module
    drop_module("pisti_app.screens.battdraw")  # (as App.forget: loaded again when next needed)
    return 11
