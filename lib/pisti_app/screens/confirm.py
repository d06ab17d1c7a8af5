# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.confirm`
===========================

A question or a notice over the whole screen: a title bar (with the move
timer on the right while a rated game runs), up to five wrapped lines of
small text and a key line (on a 32-px display two lines at a time, scrolled
with UP/DOWN, the title bar's arrows saying there is more). With a
question, A answers yes and B no; a notice has only A (B does the same).
"""

from pisti_app.screens import gfx
from pisti_app import keys as K
from pisti_app.screens.screen import Screen
from pisti_app.util import const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
_LINES = const(5)
_C_LINES = const(2)  # 32-px layout


def _closed():
    """A closed question's answer: nothing."""


class Confirm(Screen):
    """``Confirm(app, title, text, on_yes, keys_text, on_no=None)``; ``on_no``
    None makes it a notice."""

    name = "confirm"

    def __init__(self, app, title, text, on_yes, keys_text, on_no=None):
        super().__init__(app)
        from pisti_app.texts.wrap import wrap
        self.on_yes = on_yes
        self.on_no = on_no
        self.text = text
        g = self.group
        c = self.compact
        self.title, self.clock = gfx.title_bar(g, 8 if c else 9, 2, 0 if c else 1, 126)
        self.title.text = title
        self.all_lines = wrap(text)
        self.top = 0
        self.lines = self.all_lines[0:_LINES]
        self.rows = []
        for i in range(_C_LINES if c else len(self.lines)):
            lbl = gfx.label("small", "" if c else self.lines[i], 0, (8 if c else 12) + 8 * i)
            g.append(lbl)
            self.rows.append(lbl)
        self.more = None
        if c:
            self.more = gfx.label("small", "", 127, 24, anchor=(1.0, 0.0))
            g.append(self.more)
        else:
            g.append(gfx.box(128, 1, 0, 54))
        self.keys_text = keys_text
        g.append(gfx.label("small", keys_text, 0 if c else 64, 24 if c else 56,
                           anchor=(0.0 if c else 0.5, 0.0)))
        if c:
            self.scroll(0)
        self.message = text.replace("\n", " ")
        app.dirty = True

    def close(self):
        # What it answered with (closures of the screen that asked, and their
        # module) and its labels go now, even if a stale word on a board's
        # stack still points at this object: about 1 KB at a link guest's table.
        self.on_yes = _closed
        if self.on_no is not None:
            self.on_no = _closed
        g = self.group
        while len(g):
            g.pop()
        self.app.forget("pisti_app.screens.confirm")

    def scroll(self, step):
        """32-px layout: show the wrapped text from line ``top + step``."""
        lines = self.all_lines
        n = len(self.rows)
        self.top = max(0, min(self.top + step, len(lines) - n))
        for i in range(n):
            k = self.top + i
            text = lines[k] if k < len(lines) else ""
            if self.rows[i].text != text:
                self.rows[i].text = text
        if _CHECKING:
            assert self.more  # made for the 32-px layout, the only one that scrolls
        self.more.text = ("\u25b2" if self.top > 0 else "") + ("\u25bc" if self.top + n < len(lines) else "")
        self.app.dirty = True

    def key(self, code):
        if self.more is not None and code in (K.UP, K.DOWN):
            self.scroll(1 if code == K.DOWN else -1)
        elif code == K.OK or (self.on_no is None and code in (K.BACK, K.MENU)):
            self.on_yes()
        elif code in (K.BACK, K.MENU):
            if _CHECKING:
                assert self.on_no  # without one, the branch above took BACK and MENU
            self.on_no()

    def status(self, st):
        st["title"] = self.title.text
        st["lines"] = list(self.lines)
        st["keys"] = self.keys_text
