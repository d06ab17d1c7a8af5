# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.screen`
==========================

The base of every screen: a ``displayio.Group`` built once, logical keys
in, a tick for timers, and a few fields for ``App.status()``. Screens that
list things vertically read PREV/NEXT (three-button boards) as UP/DOWN,
the card tables read them as LEFT/RIGHT.

``compact`` is True on a display less than 64 px high (the FeatherWing's
128x32): each screen picks its 32-px layout once, when it is made.
"""

import displayio

from pisti_app import keys as K


class Screen:
    """A full-screen view; subclasses fill ``self.group`` and handle keys."""

    name = "?"
    horizontal = False  # True: PREV/NEXT move left/right
    clock_on_white = True  # the timer's label sits on a white title bar

    def __init__(self, app):
        self.app = app
        self.compact = app.height < 64  # the 128x32 layout (FeatherWing OLED)
        self.group = displayio.Group()
        self.message = ""
        self.clock = None  # a label for the move timer, if the screen has a top bar
        self._clock_inv = False

    def handle(self, code):
        """Dispatch one logical key (PREV/NEXT mapped along the screen's axis)."""
        if code == K.PREV:
            code = K.LEFT if self.horizontal else K.UP
        elif code == K.NEXT:
            code = K.RIGHT if self.horizontal else K.DOWN
        self.key(code)

    def key(self, code):
        """React to a logical key."""

    def tick(self, now):
        """Advance timers; ``now`` is ``supervisor.ticks_ms()``."""

    def resume(self):
        """Shown again after the screen on top of it closed (texts may have
        changed language)."""

    def close(self):
        """Leaving for good: drop references."""

    def show_timer(self, text, inverted):
        """Show the move timer's ``text`` (T-3) in the top bar, ``inverted``
        while it blinks; screens without a ``clock`` label ignore it."""
        lbl = self.clock
        if lbl is None:
            return
        if lbl.text != text:
            lbl.text = text
            self.app.dirty = True
        if inverted != self._clock_inv:
            self._clock_inv = inverted
            ink, paper = (0x000000, 0xFFFFFF) if self.clock_on_white else (0xFFFFFF, 0x000000)
            lbl.color = paper if inverted else ink
            lbl.background_color = ink if inverted else None
            self.app.dirty = True

    def link_lost(self, text):
        """L-7 in a link game: the other console silent, ``text`` (its
        countdown, "?2:55") where the move timer shows; "" once heard again."""
        self.show_timer(text, text != "")

    def status(self, st):
        """Add this screen's fields to the ``App.status()`` dict ``st``."""
