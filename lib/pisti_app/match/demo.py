# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.demo`
======================

The demo that plays itself: "Watch" in the main menu, or 30 s
without a key there (``App.tick``). Bots sit at every seat and play whole
matches, the games in turn (:data:`MODES`: Pişti 2p, Pis Yedili 3p,
Pişti 4p, Pis Yedili 4p, again), on the usual tables with a DEMO banner
in the top bar and the hand's events on the message line; a breakdown
and the match end stay a few seconds, then the demo goes on by itself.

Nothing of it is kept: the saves are swapped for :class:`NoSaves` while it
runs (the game kept to Continue, the ranking and the settings are not
touched), the sound is off. Any key ends it and does nothing else (the main
menu again, ``App.tick``). For its first minutes it keeps the screen on;
after that screen sleep applies as anywhere (dim, then off), and once the
screen is off the demo ends (the main menu waits, off, for a key).

This module is loaded for a demo and unloaded when it ends.
"""

import gc
import random

from pisti_app.texts.strings import t
from pisti_app.util import const, ticks_diff

#: (game, players) in the order the demos go.
MODES = (("pisti", 2), ("yedili", 3), ("pisti", 4), ("yedili", 4))
LEVEL = "usta"
# The modules only one game loads (a match releases both games' with Play.NEEDS): the
# other game's go when the demo changes game, this one's are reused.
_PISTI = ("pisti_app.screens.pisti_table", "pisti_core.bots.pisti_end", "pisti_core.bots.pisti_bots",
          "pisti_core.pisti_obs", "pisti_core.pisti")
_YEDILI = ("pisti_app.screens.yedili_table", "pisti_app.screens.yedili_parts", "pisti_core.bots.yedili_bots",
           "pisti_core.bots.yedili_heur", "pisti_core.yedili_obs", "pisti_core.yedili_text", "pisti_core.yedili")
_AWAKE_MS = const(180000)  # the screen kept on this long, then screen sleep applies
_READ_MS = const(4000)  # a breakdown or the match end stays this long (at most 8 plays' time)


class NoSaves:
    """Where a demo's actions go (:attr:`pisti_app.match.play.Play.saves`): nowhere."""

    def add(self, data):
        """An action: not kept."""

    def start(self, session):
        """A hand dealt: not kept."""

    def end(self):
        """The match over: nothing was kept."""


class Demo:
    """The demo in progress: ``app.demo`` while it runs."""

    def __init__(self, app):
        self.app = app
        self.began = app.now
        self.at = app.now  # when the screen on top came
        self.next = False  # the next step (hand, match) is asked for
        app.sound.stop()
        app.sound.enabled = False
        self.play()

    def awake(self, now):
        """True while the demo keeps the screen on (its first minutes)."""
        return ticks_diff(now, self.began) < _AWAKE_MS

    def play(self):
        """A new match of the next mode, bots at every seat."""
        app = self.app
        game, players = MODES[app.demos % len(MODES)]
        app.demos += 1
        app.release()
        app.drop_menus()
        app.play = None
        # The last match's screens and the other game's modules go; this
        # game's stay (a match after a match of the same game reuses them).
        app.forget("pisti_app.screens.match_end", "pisti_app.screens.results",
                   *(_PISTI if game == "yedili" else _YEDILI))
        gc.collect()
        from pisti_app.match.play import Play
        from pisti_app.match.session import GameSession
        from pisti_core import GAMES, TARGETS
        short = min(TARGETS[GAMES.index(game)])  # the nearest target (P-2, Y-16)
        s = GameSession.new(game, players, [LEVEL] * players, short, app.below)
        s.demo = True  # no person at the table: every seat is named a bot (pisti_app.texts.names)
        p = app.play = Play(app, s, NoSaves())
        from pisti_core.bots import make_bot
        for seat in range(players):
            p.seats[seat] = make_bot(game, LEVEL, random)
        self.next = False
        app.show(p.table())

    def tick(self, now):
        """After the screen's tick: the banner on a new screen, a breakdown
        or match end left after a while, the end once the screen is off."""
        app = self.app
        if app.hw.nap > 1:
            self.stop()
            return
        top = app.stack[-1]
        if not getattr(top, "demo", False):  # a new screen (marked: no reference kept, it must be freed)
            top.demo = True
            self.at = now
            self.next = False
            banner(top)
            return
        if self.next or top.name == "table" or ticks_diff(now, self.at) < min(_READ_MS, 8 * app.delay()):
            return
        if app.todo is None:
            self.next = True
            if top.name == "hand_end":
                app.play.next_hand()
            else:
                app.later(self.play)

    def stop(self):
        """Back to the main menu (a key, or the screen gone off)."""
        app = self.app
        app.demo = None
        app.todo = None
        app.sound.enabled = app.prefs["sound"]
        app.main_menu()
        app.forget("pisti_app.match.demo")


def banner(top):
    """The DEMO banner on screen ``top``: in a table's top bar (where a
    rated game's move timer goes), in the title bar of a breakdown or the
    match end (instead of their keys, as is the match end's key line)."""
    text = t("demo")
    if top.name == "table":
        top.show_timer(text, True)
        if top.compact and top.s.game == "yedili":  # 128x32: in the hand number's place (four counts leave no room)
            top.score_r.hidden = True
            lbl = top.clock
            lbl.anchored_position = (128 - lbl.bounding_box[2], 0)
        return
    right = getattr(top, "title_r", None)
    if right is None:
        return
    right.text = text
    spec = top.spec
    keys = t("keys_rematch")
    for i in range(len(spec)):
        if spec[i][2] == keys:
            sp = spec[i]
            spec[i] = (sp[0], sp[1], t("demo_keys"), sp[3])
            top.draw()
    top.app.dirty = True
