# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.app`
===============

:class:`App` ties the console together: a stack of screens, the logical
keys, the bots (``app.bots[seat]``, anything with ``choose(obs)``; an
outside program may replace one), the game session, sound, and a display
refresh only when something changed. ``tick()`` is called about every
10 ms by :func:`pisti_app.run`.

Settings read at boot (``settings.toml`` / ``os.getenv``): ``PISTI_START``
("pisti:2:usta", "yedili:4:kalfa", levels per bot seat as
"yedili:4:usta,kalfa,acemi"): straight into a new game; ``PISTI_TARGET``
(101 or 151 with PISTI_START); ``PISTI_LANG`` ("en" or "tr");
``PISTI_SEED`` (an int: seeds ``random`` for bots and shuffles; otherwise
deals come from ``os.urandom``, T-6); ``PISTI_DELAY`` (ms a play stays on
screen, overriding the speed setting).
"""

import gc
import os
import random

import supervisor

from pisti_app import strings
from pisti_app.keys import Input
from pisti_app.sound import Sound
from pisti_app.util import setting_int, setting_str

_LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def seeded_below(n):
    """A uniformly random int below ``n`` from the seeded ``random`` module."""
    return random.randrange(n) if n > 1 else 0


def parse_start(text):
    """``"pisti:2:usta"`` -> (game, players, levels per seat); ValueError if bad."""
    parts = text.split(":")
    if len(parts) != 3 or parts[0] not in ("pisti", "yedili"):
        raise ValueError("PISTI_START %r is not like 'pisti:2:usta' or 'yedili:4:kalfa'" % text)
    game = parts[0]
    try:
        players = int(parts[1])
    except ValueError:
        raise ValueError("PISTI_START %r: the player count is not a number" % text)
    ok = (2, 4) if game == "pisti" else (2, 3, 4)
    if players not in ok:
        raise ValueError("PISTI_START %r: %s is for %s players" % (
            text, game, " or ".join([str(n) for n in ok])))
    names = parts[2].split(",")
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise ValueError("PISTI_START %r: give one level, or one per bot seat (%d)" % (text, players - 1))
    for lv in names:
        if lv not in _LEVELS:
            raise ValueError("PISTI_START %r: unknown bot level %r (acemi, kalfa, usta)" % (text, lv))
    return game, players, [None] + names


class App:
    """The console application on hardware ``hw`` (see :mod:`pisti_app.hw`)."""

    def __init__(self, hw):
        self.hw = hw
        self.display = hw.display
        self.width = hw.width
        self.height = hw.height
        self.now = supervisor.ticks_ms()
        self.input = Input(hw.keys, hw.key_names)
        self.sound = Sound(hw.buzzer)
        self.bots = [None, None, None, None]
        self.session = None
        self.saved = None  # bytes of a game left mid-way (GameSession.to_bytes)
        from pisti_core.table import Ranking
        self.rankings = Ranking()  # T-2, per game, players and bot level
        self.refreshes = 0
        self.dirty = True
        self.stack = []
        self._codes = []
        lang = setting_str("PISTI_LANG", "en")
        self.prefs = {"lang": lang, "sound": True, "speed": 1, "game": "pisti",
                      "players": 2, "target": 151, "seats": ["kalfa", "kalfa", "kalfa"]}
        self.delay_override = setting_int("PISTI_DELAY", None)
        if self.delay_override is not None and not 0 <= self.delay_override <= 10000:
            raise ValueError("settings.toml: PISTI_DELAY must be 0 to 10000 ms")
        seed = setting_int("PISTI_SEED", None)
        if seed is not None:
            random.seed(seed)
            self.below = seeded_below
        else:
            b = os.urandom(4)
            random.seed((b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) & 0x3FFFFFFF)
            self.below = None  # Match's default: os.urandom (T-6)
        strings.set_lang(lang)
        from pisti_app.menus import Menus
        self.menus = Menus(self)
        start = setting_str("PISTI_START", None)
        if start is not None:
            game, players, levels = parse_start(start)
            target = setting_int("PISTI_TARGET", None) if game == "pisti" else None
            self.start_game(game, players, levels, target)
        else:
            from pisti_app.splash import Splash
            self.show(Splash(self, self.now))

    # -- the loop ----------------------------------------------------------------
    def tick(self):
        """One step: keys, timers, bots, sound; refresh the display if needed."""
        now = supervisor.ticks_ms()
        self.now = now
        codes = self._codes
        self.input.poll(now, codes)
        for code in codes:
            self.stack[-1].handle(code)
        del codes[:]
        self.stack[-1].tick(self.now)
        self.sound.tick(now)
        if self.dirty:
            self.dirty = False
            self.display.refresh()
            self.refreshes += 1

    def delay(self):
        """Milliseconds a play stays on screen before the next bot step."""
        if self.delay_override is not None:
            return self.delay_override
        from pisti_app.menus import SPEEDS
        return SPEEDS[self.prefs["speed"]]

    # -- screens -----------------------------------------------------------------
    @property
    def screen(self):
        """The screen on top."""
        return self.stack[-1]

    def show(self, screen):
        """Make ``screen`` the only one."""
        while self.stack:
            self.stack.pop().close()
        self.stack.append(screen)
        self.display.root_group = screen.group
        self.dirty = True
        gc.collect()

    def push(self, screen):
        """Open ``screen`` over the current one."""
        self.stack.append(screen)
        self.display.root_group = screen.group
        self.dirty = True

    def pop(self):
        """Close the top screen and show the one under it again."""
        if len(self.stack) < 2:
            return
        self.stack.pop().close()
        top = self.stack[-1]
        self.display.root_group = top.group
        top.resume()
        self.dirty = True
        gc.collect()

    @staticmethod
    def forget(*names):
        """Unload modules of screens that are gone (their code is heap on the device)."""
        import sys
        pkg = sys.modules.get("pisti_app")
        for name in names:
            if name in sys.modules:
                del sys.modules[name]
            short = name.split(".")[-1]
            if pkg is not None and hasattr(pkg, short):
                delattr(pkg, short)

    def main_menu(self):
        """Back to the main menu (everything else closed)."""
        self.show(self.menus.main())

    def pause(self):
        """The pause menu over the table."""
        self.push(self.menus.pause())

    # -- settings ----------------------------------------------------------------
    def set_lang(self, lang):
        """Switch the language of every text ('en' or 'tr')."""
        strings.set_lang(lang)
        self.prefs["lang"] = lang

    def set_sound(self, on):
        """Sound on or off."""
        self.prefs["sound"] = bool(on)
        self.sound.enabled = bool(on)
        if not on:
            self.sound.stop()

    # -- games -------------------------------------------------------------------
    def _make_bots(self):
        from pisti_core.bots import make_bot
        s = self.session
        self.bots = [None, None, None, None]
        for seat in range(s.players):
            lv = s.levels[seat]
            if lv is not None:
                self.bots[seat] = make_bot(s.game, lv, random)

    def _table(self):
        if self.session.game == "pisti":
            from pisti_app.pisti_table import PistiTable
            return PistiTable(self)
        from pisti_app.yedili_table import YediliTable
        return YediliTable(self)

    def start_game(self, game, players, levels, target=None):
        """A new match: the person at seat 0, bots at ``levels[1:]``."""
        from pisti_app.session import GameSession
        if self.saved is not None:  # T-4: a new game leaves the one kept
            self._leave_saved()
        self.session = None
        gc.collect()
        self.play_session(GameSession.new(game, players, levels, target, self.below))

    def play_session(self, session):
        """Sit down at ``session`` (a GameSession with a hand in play)."""
        self.session = session
        self._make_bots()
        self.show(self._table())

    def _leave_saved(self):
        from pisti_app.session import GameSession
        from pisti_core.table import leave_outcome
        old = GameSession.from_bytes(self.saved)
        m = old.match
        self.saved = None
        self._rank(old, leave_outcome(old.game, old.players, m.totals, len(m.history), 0))

    def leave_game(self):
        """Leave the table; the game stays to Continue (as bytes)."""
        self.saved = self.session.to_bytes()
        self.session = None
        self.bots = [None, None, None, None]
        self.main_menu()

    def continue_game(self):
        """Restore the game left with :meth:`leave_game`."""
        from pisti_app.session import GameSession
        s = GameSession.from_bytes(self.saved, self.below)
        self.saved = None
        self.play_session(s)

    def hand_over(self):
        """The hand in play ended: score it, deal the next, show the breakdown."""
        self.session.end_hand()
        from pisti_app.results import HandEnd
        self.show(HandEnd(self))

    def next_hand(self):
        """From the breakdown: the next hand's table, or the match end."""
        s = self.session
        if s.over:
            from pisti_core.table import match_outcome
            m = s.match
            outcome = match_outcome(s.game, s.players, m.totals, 0)  # T-2
            self._rank(s, outcome)
            from pisti_app.results import MatchEnd
            self.show(MatchEnd(self, outcome[0]))
        else:
            self.show(self._table())

    def end_match(self):
        """From the match end back to the main menu."""
        self.session = None
        self.bots = [None, None, None, None]
        self.main_menu()

    def _rank(self, s, outcome):
        """Record a rated result (T-1) under the game, players and bot level;
        a match against mixed levels counts under its strongest bot."""
        if outcome is None:
            return
        lv = "acemi"
        for v in s.levels:
            if v in ("kalfa", "usta") and (lv == "acemi" or v == "usta"):
                lv = v
        self.rankings.record(s.game, s.players, lv, outcome)

    # -- for scripts and the simulator -------------------------------------------
    def status(self):
        """What is on screen and the game state, as a plain dict."""
        top = self.stack[-1]
        s = self.session
        st = {"screen": top.name, "game": None, "players": None, "hand": None, "ply": None,
              "totals": None, "level": None, "levels": None, "turn": None, "your_hand": [],
              "legal": [], "message": top.message, "lang": strings.lang(),
              "saved": self.saved is not None, "refreshes": self.refreshes,
              "sound": self.prefs["sound"], "delay": self.delay()}
        if s is not None:
            m = s.match
            st["game"] = s.game
            st["players"] = s.players
            st["hand"] = s.hand_no
            st["totals"] = list(m.totals)
            st["target"] = m.target
            st["level"] = s.level()
            st["levels"] = list(s.levels)
            st["over"] = m.over
            if m.hand is not None:
                st["ply"] = m.hand.ply
                st["turn"] = m.hand.turn
                st["dealer"] = m.hand.dealer
        top.status(st)
        return st
