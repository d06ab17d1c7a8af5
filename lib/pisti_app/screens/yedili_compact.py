# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.yedili_compact`
==================================

The Pis Yedili table's sprites and labels on a 32-px display (see
:mod:`pisti_app.screens.yedili_table`), in a module of its own: loaded only by a
table built on such a display, and unloaded once it is built (a 64-px
board never holds this code).
"""

from pisti_app.screens import gfx
from pisti_app.screens import sprites
from pisti_app.screens.table import C_MSG_Y, CARD_Y, INFO_X, hand_x
from pisti_app.util import const

_C_SLOTS = const(4)


def compact_parts(tbl, g):
    """The 32-px layout's sprites and labels of table ``tbl`` in its group ``g``."""
    tbl.top = sprites.Card(sprites.MINI, 0, CARD_Y)
    g.append(tbl.top.tile)
    tbl.named = gfx.label("small", "", INFO_X, 16)
    g.append(tbl.named)
    tbl.pending = gfx.label("small", "", INFO_X + 1, 16, inverse=True, pad=1)
    g.append(tbl.pending)
    tbl.stock = sprites.Card(sprites.NANO, INFO_X, 24)
    g.append(tbl.stock.tile)
    tbl.stock_n = gfx.label("small", "", INFO_X + 8, 24)
    g.append(tbl.stock_n)
    tbl.action = gfx.label("small", "", 0, C_MSG_Y)
    g.append(tbl.action)
    tbl.slots = _C_SLOTS
    tbl.cards = []
    for i in range(_C_SLOTS):
        c = sprites.Card(sprites.MINI, hand_x(i), CARD_Y)
        g.append(c.tile)
        tbl.cards.append(c)
    tbl.larrow = gfx.label("small", "", 41, 21)
    tbl.rarrow = gfx.label("small", "", 128, 21, anchor=(1.0, 0.0))
