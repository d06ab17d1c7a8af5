# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.board`
=================

The board as the app runs it: its parts (copied from the hardware object
of :mod:`pisti_app.hw`, which can then be unloaded), the screen's sleep
and brightness, and the battery's reading (PISTI_BATTERY).

Screen sleep: the screen dims after ``SLEEPS[prefs['sleep']]`` seconds
without a key and goes off after as long again; it stays on while bots
play or a screen moves by itself, and for a rated game's last 10 s (T-3:
its clock runs on meanwhile).
"""

from pisti_app.screens import gfx
from pisti_app.util import const, ticks_add, ticks_diff

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away

SLEEPS = (30, 60, 120, 300, 0)  # s without a key before the screen dims, off after as long again; 0 never
BRIGHT = (0.06, 0.35, 1.0)  # the display's brightness (SSD1306 contrast 15, 89, 255) by setting
_DIM = 0.0  # brightness of a dimmed screen (contrast 0: still readable)


class Board:
    """The parts of the board ``hw`` the app uses, and the screen's state:
    ``nap`` 0 on, 1 dimmed, 2 off; ``woke`` the ticks of the last key (or
    of the last thing that kept the screen on)."""

    def __init__(self, hw, now):
        for k in ("display", "width", "height", "keys", "key_names", "nvm", "buzzer", "i2c", "bad", "supply"):
            setattr(self, k, getattr(hw, k, None))
        self.nap = 0
        self.woke = now

    if _CHECKING:  # the attributes copied above, for the checker (of any type)
        display = width = height = keys = key_names = nvm = buzzer = i2c = bad = supply = getattr(object, "")

    def wake(self, app):
        """The screen on at the Brightness setting (after a nap, or a new setting)."""
        if self.nap > 1:
            self.display.wake()
        self.nap = 0
        self.display.brightness = BRIGHT[app.prefs["bright"]]
        app.dirty = True

    def tick(self, app, now, busy):
        """The battery every 10 s, then the screen's sleep; ``busy``: the
        screen is kept on (a bot plays, a clock runs out)."""
        p = self.supply
        if p is not None and ticks_diff(now, p[2]) >= 0:
            # Allocating nothing. ``p``: [AnalogIn of VSYS/3 (0..65535 for 0..3.3 V),
            # the USB sense input, next reading (ticks), VSYS (mV), the low warning
            # still to say]. Below 3.4 V the battery is low.
            p[2] = ticks_add(now, 10000)
            v = p[3] = p[0].value * 9900 >> 16
            v = 0 if p[1].value else 2 if v < 3400 else 1
            if v != gfx.batt or (p[4] and app.stack[-1].name == "table"):
                from pisti_app.screens import battmark  # (a change: rare)
                battmark.tick(app, p, v)
        if busy:
            self.woke = now
            if self.nap:
                self.wake(app)
            return
        s = SLEEPS[app.prefs["sleep"]]
        if not s:
            return
        d = ticks_diff(now, self.woke) // 1000
        if d >= 2 * s:
            if self.nap < 2:
                self.nap = 2
                self.display.sleep()  # the SSD1306's display off (0xAE): RAM and settings kept
        elif d >= s and not self.nap:
            self.nap = 1
            self.display.brightness = _DIM
