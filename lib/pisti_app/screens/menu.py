# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.menu`
========================

A scrolling list menu: a title bar, four rows in the medium font (a row may
carry a value) and a help line; on a 32-px display two rows and no help
line (the title bar's arrows say there is more), a 1-px gap under the
title bar on both. Labels are allocated once; scrolling only changes their
text.

Six buttons: UP/DOWN move, LEFT/RIGHT change the value of the row, OK
confirms (on a value row the owner's ``menu_confirm``: Settings keep and go
back, New game starts; on a plain row ``menu_select``), BACK leaves. Three
buttons have the same logic through an edit mode: A/C move, B on a value
row edits it (its value shows between arrows), then A/C change it, B
confirms as OK does on six buttons, and a long B ends the edit.
"""

from pisti_app.screens import gfx
from pisti_app import keys as K
from pisti_app.screens.screen import Screen
from pisti_app.texts.strings import t
from pisti_app.util import const

_ROWS = const(4)
_ROW_Y = const(10)
_ROW_H = const(11)
_C_ROWS = const(2)  # 32-px layout: two rows of 11 px, a 1-px gap under the 8-px title bar
_C_ROW_Y = const(9)
_C_ROW_H = const(11)


class Item:
    """One row: ``key`` (for the owner), ``text``, optional value choices."""

    def __init__(self, key, text, values=None, index=0):
        self.key = key
        self.text = text
        self.values = values
        self.index = index

    @property
    def value(self):
        """The shown value text, or None."""
        return self.values[self.index] if self.values else None


class ListMenu(Screen):
    """``ListMenu(app, name, title, items, owner)``; the owner gets
    ``menu_select(menu, item)``, ``menu_change(menu, item)``,
    ``menu_confirm(menu)`` (OK on a value row) and ``menu_back(menu)``.
    ``help_key`` names the help line's text (``help_key + "_edit"`` while
    a three-button edit is on)."""

    def __init__(self, app, name, title, items, owner, help_key="help_menu"):
        super().__init__(app)
        self.name = name
        self.owner = owner
        self.help_key = help_key
        self.three = app.input.three  # three buttons: values change in an edit mode
        self.editing = False
        g = self.group
        c = self.compact
        self.rows, self.row_y, self.row_h = (_C_ROWS, _C_ROW_Y, _C_ROW_H) if c else (_ROWS, _ROW_Y, _ROW_H)
        g.append(gfx.box(128, 8 if c else 9, 0, 0))
        self.title = gfx.label("small", "", 2, 0 if c else 1)
        self.title.color = gfx.BLACK
        g.append(self.title)
        self.bar = gfx.box(128, self.row_h, 0, self.row_y)
        g.append(self.bar)
        self.left = []
        self.right = []
        for i in range(self.rows):
            y = self.row_y + i * self.row_h
            a = gfx.label("medium", "", 3, y + 1)
            b = gfx.label("medium", "", 125, y + 1, anchor=(1.0, 0.0))
            g.append(a)
            g.append(b)
            self.left.append(a)
            self.right.append(b)
        ty = 0 if c else 1
        rx = 127
        if gfx.batt:  # on battery power: the mark (pisti_app.screens.battdraw)
            from pisti_app.screens import battdraw
            rx -= battdraw.draw(g, gfx.batt, gfx.palette("inverse"), 118, ty)
        self.more_up = gfx.label("small", "", rx, ty, anchor=(1.0, 0.0))
        self.more_up.color = gfx.BLACK
        g.append(self.more_up)
        self.clock = gfx.label("small", "", rx - 13, ty, anchor=(1.0, 0.0))  # T-3 move timer
        self.clock.color = gfx.BLACK
        g.append(self.clock)
        self.help = None if c else gfx.label("small", "", 0, 56)
        if self.help is not None:
            g.append(self.help)
        self.cursor = 0
        self.top = 0
        self.set(title, items)

    def set(self, title, items, cursor=None):
        """Replace the title and rows (keeps the cursor on the same key)."""
        key = self.items[self.cursor].key if cursor is None and getattr(self, "items", None) else None
        self.title_text = title
        self.items = items
        if cursor is not None:
            self.cursor = cursor
        elif key is not None:
            self.cursor = 0
            for i in range(len(items)):
                if items[i].key == key:
                    self.cursor = i
        self.cursor = min(self.cursor, len(items) - 1)
        self.draw()

    def item(self, key):
        """The row with ``key`` (or None)."""
        for it in self.items:
            if it.key == key:
                return it
        return None

    def draw(self):
        """Update every label from the items and the cursor."""
        rows = self.rows
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + rows:
            self.top = self.cursor - rows + 1
        self.top = max(0, min(self.top, len(self.items) - rows))
        _set(self.title, self.title_text)
        for i in range(rows):
            k = self.top + i
            a = self.left[i]
            b = self.right[i]
            if k < len(self.items):
                it = self.items[k]
                sel = k == self.cursor
                _set(a, it.text)
                v = it.value
                if v is None:
                    _set(b, "")
                else:  # the arrows: LEFT/RIGHT (three buttons: A/C while editing) change it
                    arrows = sel and (self.editing or not self.three)
                    _set(b, ("\u25c0" + v + "\u25b6") if arrows else v)
                c = gfx.BLACK if sel else gfx.WHITE
                if a.color != c:
                    a.color = c
                    b.color = c
            else:
                _set(a, "")
                _set(b, "")
        self.bar.y = self.row_y + (self.cursor - self.top) * self.row_h
        up = self.top > 0
        down = self.top + rows < len(self.items)
        _set(self.more_up, ("\u25b2" if up else "") + ("\u25bc" if down else ""))
        if self.help is not None:
            _set(self.help, t(self.help_key + "_edit" if self.editing else self.help_key))
        self.app.dirty = True

    def key(self, code):
        it = self.items[self.cursor]
        if self.editing:  # three buttons: A/C (UP/DOWN here) change the value
            if code == K.UP or code == K.DOWN:
                self.change(it, 1 if code == K.DOWN else -1)
            elif code == K.OK:
                self.editing = False
                self.draw()
                self.owner.menu_confirm(self)
            elif code == K.BACK or code == K.MENU:  # a long B: the edit ends, the value stays
                self.editing = False
                self.draw()
            return
        if code == K.UP or code == K.DOWN:
            n = len(self.items)
            self.cursor = (self.cursor + (1 if code == K.DOWN else -1)) % n
            self.draw()
        elif (code == K.LEFT or code == K.RIGHT) and it.values:
            self.change(it, 1 if code == K.RIGHT else -1)
        elif code == K.OK:
            if not it.values:
                self.owner.menu_select(self, it)
            elif self.three:
                self.editing = True
                self.draw()
            else:
                self.owner.menu_confirm(self)
        elif code == K.BACK or code == K.MENU:
            self.owner.menu_back(self)

    def change(self, it, step):
        """The value of row ``it`` one step on (``step`` 1 or -1)."""
        it.index = (it.index + step) % len(it.values)
        self.owner.menu_change(self, it)
        self.draw()

    def resume(self):
        self.owner.menu_refresh(self)
        self.draw()

    def status(self, st):
        st["menu"] = [it.key for it in self.items]
        st["cursor"] = self.items[self.cursor].key
        st["title"] = self.title_text
        st["editing"] = self.editing
        if self.help is not None:
            st["footer"] = self.help.text


def _set(lbl, text):
    if lbl.text != text:
        lbl.text = text
