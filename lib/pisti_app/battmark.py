# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.battmark`
====================

The battery, what is not read every 10 s: the mark of the
title bars (a 9x6 battery, black on white, its charge drawn while on
battery power and left out when the battery is low), loaded by
:func:`pisti_app.gfx.title_bar` and the list menus while a title bar is built; and what a
change of the supply does (:func:`tick`). Unloaded after each use.
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
    forget()
    return 11


def tick(app, p, value):
    """The supply read ``value`` (0 on USB, 1 on battery, 2 low) where the
    title bars show another, or a low battery is still to be said and the
    table is on (``p``: ``hw.supply``): the title bars built from now on
    show it, and the table says "Battery low" once (``p[4]`` keeps it
    until a table shows)."""
    from pisti_app import gfx
    if value != gfx.batt:
        p[4] = value == 2
        gfx.batt = value
        app.dirty = True
    top = app.stack[-1]
    if p[4] and top.name == "table":
        p[4] = False
        from pisti_app.strings import t
        top.say(t("battery_low"), 4000)
    forget()


def forget():
    """Unload this module (as App.forget): loaded again when next needed."""
    from pisti_app.util import drop_module
    drop_module("pisti_app.battmark")
