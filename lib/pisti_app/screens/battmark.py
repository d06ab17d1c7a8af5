# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.battmark`
============================

The battery, what is not read every 10 s: what a change of the supply does
to the mark the title bars show (:func:`tick`, from ``App.tick``). The
mark is ``gfx.batt``, drawn by :mod:`pisti_app.screens.battdraw`. Unloaded after
each use.
"""


def tick(app, p, value):
    """The supply read ``value`` (0 on USB, 1 on battery, 2 low) where the
    title bars show another, or a low battery is still to be said and the
    table is on (``p``: ``hw.supply``): the title bars built from now on
    show it, and the table says "Battery low" once (``p[4]`` keeps it
    until a table shows); then unloads this module."""
    from pisti_app.screens import gfx
    if value != gfx.batt:
        p[4] = value == 2
        gfx.batt = value
        app.dirty = True
    top = app.stack[-1]
    if p[4] and top.name == "table":
        p[4] = False
        from pisti_app.texts.strings import t
        top.say(t("battery_low"), 4000)
    from pisti_app.util import drop_module
    drop_module("pisti_app.screens.battmark")  # (as App.forget: loaded again when next needed)
