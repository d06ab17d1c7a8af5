# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.confirm`
===================

A question or a notice over the whole screen: a title bar (with the move
timer on the right while a rated game runs), up to five wrapped lines of
small text and a key line. With a question, A answers yes and B no; a
notice has only A (B does the same).
"""

from pisti_app import gfx
from pisti_app import keys as K
from pisti_app.screen import Screen
from pisti_app.util import const

_LINES = const(5)


class Confirm(Screen):
    """``Confirm(app, title, text, on_yes, keys_text, on_no=None)``; ``on_no``
    None makes it a notice."""

    name = "confirm"

    def __init__(self, app, title, text, on_yes, keys_text, on_no=None):
        super().__init__(app)
        from pisti_app.info import wrap
        self.on_yes = on_yes
        self.on_no = on_no
        self.text = text
        g = self.group
        g.append(gfx.box(128, 9, 0, 0))
        self.title = gfx.label("small", title, 2, 1)
        self.title.color = gfx.BLACK
        g.append(self.title)
        self.clock = gfx.label("small", "", 126, 1, anchor=(1.0, 0.0))
        self.clock.color = gfx.BLACK
        g.append(self.clock)
        self.lines = wrap(text)[0:_LINES]
        for i in range(len(self.lines)):
            g.append(gfx.label("small", self.lines[i], 0, 12 + 8 * i))
        self.keys_text = keys_text
        g.append(gfx.box(128, 1, 0, 54))
        g.append(gfx.label("small", keys_text, 64, 56, anchor=(0.5, 0.0)))
        self.message = text.replace("\n", " ")
        app.dirty = True

    def close(self):
        self.app.forget("pisti_app.confirm")

    def key(self, code):
        if code == K.OK or (self.on_no is None and code in (K.BACK, K.MENU)):
            self.on_yes()
        elif code in (K.BACK, K.MENU):
            self.on_no()

    def status(self, st):
        st["title"] = self.title.text
        st["lines"] = list(self.lines)
        st["keys"] = self.keys_text
