# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.splash`
==========================

The title screen: the name in double-size letters over a fan of cards, the
version, and a blinking prompt (on a 32-px display the name and the prompt
on the left, the fan on the right). Instead of the prompt, steady, the
notices of the boot (``app.notices``: the saves found damaged or foreign,
each setting of ``settings.toml`` ignored), one after another, 4 s each.
Any key, or a moment, opens the menu (or, with ``go``, PISTI_START's
game: the splash comes first only to show notices).

Keys: those pressed before the splash is first drawn (while the board
boots) are dropped, so a notice is always seen; a key on the splash shows
the next notice or leaves it, and is used up by that; when the splash
moves on by itself, keys in the next half second are dropped
(``Input.mute_until``): the press that meant "skip the splash" must not act
on the screen that replaced it.
"""

from pisti_app.screens import gfx
from pisti_app.screens import sprites
from pisti_app.screens.screen import Screen
from pisti_app.texts.strings import t
from pisti_app.util import const, release, ticks_add, ticks_diff

_SHOW_MS = const(400)  # then the menu: power on to the main menu in under 4 s
_NOTICE_MS = const(4000)  # long enough to read a notice
_GRACE_MS = const(500)  # keys dropped after the splash moved on by itself
_BLINK_MS = const(500)
_FAN = (40, 37, 6, 0, 51)  # J♣ 10♦ 2♥ A♣ K♠


class Splash(Screen):
    """Shown at boot."""

    name = "splash"

    def __init__(self, app, now, go=None):
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
        from pisti_app.util import __version__
        self.notices = app.notices
        self.corner = gfx.label("small", "v" + __version__, 127, 24 if c else 46, anchor=(1.0, 0.0))
        self.corner.hidden = c and bool(self.notices)  # (the notice takes the whole line)
        g.append(self.corner)
        self.go = go  # PISTI_START's game, (game, players, levels, target, rated)
        self.until = None  # counted from the first tick, when the splash is first drawn
        self.blink = ticks_add(now, _BLINK_MS)
        self.on = True
        self.shown = -1
        self.gone = False
        self.show_notice(0)

    def show_notice(self, i):
        """Notice ``i`` on the prompt line (the prompt when there is none)."""
        n = len(self.notices)
        self.shown = i
        self.message = self.notices[i] if i < n else ""
        self.prompt.text = self.message or t("press_a")
        if n > 1 and not self.compact:
            self.corner.text = "%d/%d" % (i + 1, n)
        self.app.dirty = True

    def advance(self, timed):
        """The next notice, or leave (``timed``: by itself, not by a key)."""
        app = self.app
        now = app.now
        if timed:
            app.input.mute_until = ticks_add(now, _GRACE_MS)
        if self.shown + 1 < len(self.notices):
            self.show_notice(self.shown + 1)
            self.until = ticks_add(now, _NOTICE_MS)
            return
        self.gone = True
        app.later(self.leave)

    def leave(self):
        """To the main menu, or into PISTI_START's game."""
        app = self.app
        go = self.go
        if go is None:
            app.main_menu()
        elif app.kept is not None:
            app.continue_game()  # T-4: losing power is not leaving
        else:
            app.start_game(go[0], go[1], go[2], go[3], go[4])

    def key(self, code):
        if self.until is not None and not self.gone:  # (not drawn yet: dropped)
            self.advance(False)

    NEEDS = "screens.splash screens.sprites texts.names"  # its card fan: the menus draw no card

    def close(self):
        release(self)

    menus_built = False  # the menus' modules compiled (in a tick of their own)

    def tick(self, now):
        if self.gone:
            return
        if self.until is None:  # this tick draws the splash; the next loads the menus
            self.until = ticks_add(now, _NOTICE_MS if self.notices else _SHOW_MS)
            self.app.input.reset()  # keys held or pressed while the board booted
            return
        if self.go is None and not self.menus_built:
            self.menus_built = True
            self.app.menus  # noqa: B018 (the property compiles the menus' modules)
            return  # (compiled while the splash is on the screen)
        if ticks_diff(now, self.until) >= 0:
            self.advance(True)
            return
        if ticks_diff(now, self.blink) >= 0 and not self.message:
            self.blink = ticks_add(now, _BLINK_MS)
            self.on = not self.on
            self.prompt.hidden = not self.on
            self.app.dirty = True

    def status(self, st):
        st["notices"] = list(self.notices)
        st["notice"] = self.shown if self.notices else None
