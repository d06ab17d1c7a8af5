# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.splash`
==================

The title screen: the name in double-size letters over a fan of cards, the
version, and a blinking prompt (on a 32-px display the name and the prompt
on the left, the fan on the right) (or, steady, the one-line notice about the
saves when the nvm was found damaged or foreign). Any key, or a few
seconds, opens the menu.
"""

from pisti_app import gfx
from pisti_app import sprites
from pisti_app.screen import Screen
from pisti_app.strings import t
from pisti_app.util import const, ticks_add, ticks_diff

_SHOW_MS = const(400)  # then the menu: power on to the main menu in under 4 s (issue 11)
_NOTICE_MS = const(4000)  # long enough to read a notice about the saves
_BLINK_MS = const(500)
_FAN = (40, 37, 6, 0, 51)  # J♣ 10♦ 2♥ A♣ K♠


class Splash(Screen):
    """Shown at boot."""

    name = "splash"

    def __init__(self, app, now):
        super().__init__(app)
        g = self.group
        c = self.compact
        cx = 32 if c else 64
        title = gfx.label("medium", "P\u0130\u015eT\u0130", cx, 2 if c else 1, anchor=(0.5, 0.0), scale=2)
        g.append(title)
        for i in range(len(_FAN)):
            if c:
                card = sprites.Card(sprites.MED, 66 + i * 12, 0)
            else:
                card = sprites.Card(sprites.MED, 28 + i * 15, 24)
            card.show(_FAN[i])
            g.append(card.tile)
        self.prompt = gfx.label("small", "", 0 if c else 64, 24 if c else 56,
                                anchor=(0.0 if c else 0.5, 0.0))
        g.append(self.prompt)
        from pisti_app import __version__
        g.append(gfx.label("small", "v" + __version__, 127, 24 if c else 46, anchor=(1.0, 0.0)))
        self.until = None  # counted from the first tick, when the splash is first drawn
        self.show_ms = _NOTICE_MS if app.notice else _SHOW_MS
        self.blink = ticks_add(now, _BLINK_MS)
        self.on = True
        self.prompt.text = app.notice or t("press_a")
        self.message = app.notice

    def key(self, code):
        self.app.main_menu()

    def close(self):
        self.app.forget("pisti_app.splash")

    def tick(self, now):
        if self.until is None:  # this tick draws the splash; the next loads the menus
            self.until = ticks_add(now, self.show_ms)
            return
        if self.app._menus is None:  # pylint: disable=protected-access
            self.app.menus  # pylint: disable=pointless-statement
            return  # (compiled while the splash is on the screen)
        if ticks_diff(now, self.until) >= 0:
            self.app.main_menu()
            return
        if ticks_diff(now, self.blink) >= 0 and not self.message:
            self.blink = ticks_add(now, _BLINK_MS)
            self.on = not self.on
            self.prompt.hidden = not self.on
            self.app.dirty = True
