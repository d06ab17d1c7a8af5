# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.app`
===============

:class:`App` is the console's shell: the stack of screens, the tick loop, the hardware (display, keys, sound,
battery, screen sleep), the prefs and the saves. The match in play is :attr:`App.play`
(:class:`pisti_app.match.play.Play`, loaded while a game is on); the screens only show it. ``tick()`` is called
about every 10 ms by :func:`pisti_app.run`. Saves (:mod:`pisti_app.match.saves`) live in ``hw.nvm``
(``microcontroller.nvm``): settings, ranking and the game in progress (T-6). The settings read at boot
(``settings.toml``) are :mod:`pisti_app.startup`'s.
"""

import gc

import displayio
import supervisor

from pisti_app.texts import strings
from pisti_app import util
from pisti_app.board import Board
from pisti_app.keys import Input
from pisti_app.sound import Sound
from pisti_app.util import const, forget, log_mem, release, ticks_diff

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # (names the board has interned already: an import here costs nothing)
    import pisti_app.match.play
    import pisti_app.match.records
    import pisti_app.match.demo  # noqa: F401 (named in a type comment only: the board has no typing module)

SPEEDS = (1200, 800, 450, 150)  # ms a bot's play stays before the next step, by speed setting
_DEMO_IDLE = const(30000)  # ms without a key (at the main menu) before the demo starts (pisti_app.match.demo)
_SPARE = const(16384)  # B free under which a link game collects after a frame (a play's showing makes less garbage)
_mem_free = getattr(gc, "mem_free", None)  # (a desktop CPython has none: no heap to keep room in)


class App:
    """The console application on hardware ``hw`` (see :mod:`pisti_app.hw`)."""

    demos = 0  # demos started since boot: the next one's game (pisti_app.match.demo.MODES)
    # The menus' scene: the modules only they use, released at a table (one string: see pisti_app.match.play).
    NEEDS = "screens.menus screens.menu screens.info screens.confirm screens.splash texts.wrap match.leaving"
    forget = staticmethod(forget)  # unload modules no longer used (pisti_app.util.forget)

    def __init__(self, hw, resume=False):
        self.now = supervisor.ticks_ms()
        hw = self.hw = Board(hw, self.now)  # (hw's own module is unloaded once the app runs)
        self.display, self.width, self.height = hw.display, hw.width, hw.height
        self.input = Input(hw.keys, hw.key_names)
        strings.set_buttons(self.input.three)  # key help for this board's buttons
        self.sound = Sound(hw.buzzer)
        self.outside_bots = {}  # seat -> bot or factory: see seat_bot()
        self.play = None  # type: pisti_app.match.play.Play | None  # the match in play (or a link game's set-up)
        self.resumed = False  # this boot went back into the kept game (pisti_app.match.begin.resume_kept)
        self.restart = False  # run() restarts the board into the saved game (a link game's start)
        self.linked_boot = False  # a link game was played since this boot
        self.kept = None  # a game left to Continue (pisti_app.match.saves.Kept), saved in nvm
        self.refreshes = 0  # display refreshes since boot
        self.dirty = True  # the display is refreshed at the end of the tick
        self._blank = displayio.Group()  # shown while one screen is replaced by another
        self.stack = []
        self._codes = []
        self._changed = False  # a screen change to collect (and log) at the next tick
        self.todo = None  # (function, args) to run at the end of this tick: later()
        # Set at boot by pisti_app.startup.init (whose code is not kept once the console runs):
        self.memlog = 0  # PISTI_MEMLOG (2: also the modules loaded)
        self.shown = None  # PISTI_MEMLOG, link play: the position of another console's play this tick draws
        self.records = None  # type: pisti_app.match.records.Records  # pyright: ignore[reportAttributeAccessIssue] (set by init)
        self.prefs = {}  # type: dict
        self.demo = None  # type: pisti_app.match.demo.Demo | None  # the demo while one plays (watch())
        self.delay_override = None  # type: int | None  # PISTI_DELAY
        self.below = None  # Match's default, os.urandom (T-6); pisti_app.startup.seeded_below with PISTI_SEED
        self.notices = []  # type: list  # this boot's, one line each: the saves, then the settings ignored
        self._menus = None
        from pisti_app.startup import init
        start, target, rated, bad = init(self, hw)
        init = None
        forget("pisti_app.startup")  # read once
        go = None if start is None else (start[0], start[1], start[2], target, rated)
        first = resume and self.kept is not None  # a restart (out of memory, a link game's start): no splash
        if first or (go and not bad and self.kept is not None):
            self.continue_game(True)  # (T-4: losing power is not leaving)
        elif go and not bad:
            self.start_game(*go)
        else:  # (with PISTI_START, the splash only to name the settings ignored)
            from pisti_app.screens.splash import Splash
            self.show(Splash(self, self.now, go))
        if not first and go and not bad and self.notices and self.screen.name == "table":
            self.screen.say(self.notices[0], 3000)
        if self.play is not None:
            self.play.tick(self.now)

    # The match in play as scripts read it: its session, its seats' players, its link.
    session = property(lambda self: None if self.play is None else self.play.session)
    bots = property(lambda self: [None, None, None, None] if self.play is None else self.play.seats)
    link = property(lambda self: None if self.play is None else self.play.link)

    # -- the loop ----------------------------------------------------------------
    def tick(self):
        """One step: keys, the screen, the match, sound, the board, the display if needed. An nvm
        write error (a power cut on the desktop rig) leaves it: the next start resumes from the saves."""
        if self._changed:  # the screen changed in the last tick: its garbage goes now
            self._changed = False
            gc.collect()
            if self.memlog:
                log_mem(self.stack[-1].name, self.memlog)
        now = supervisor.ticks_ms()
        self.now = now
        self.input.muted(now)  # (keys just after a screen moved on by itself)
        codes = self._codes
        if self.input.poll(now, codes) or codes:
            self.hw.woke = now
            if self.hw.nap or self.demo is not None:  # the key that wakes the screen (or ends a demo) does nothing else
                if self.demo is not None:
                    self.demo.stop()
                self.hw.wake(self)
                del codes[:]
                self.input.reset()
        for code in codes:
            self.stack[-1].handle(code)
        del codes[:]
        p = self.play
        if p is not None and p.link is not None:
            p.link.lock.poll(now)  # (what came on the cable, before the table looks: L-4's 100 ms)
        self.stack[-1].tick(now)
        p = self.play
        if p is not None:
            p.tick(now)  # the link, the move timer
        nxt = self.todo
        if nxt is not None:  # a screen change asked for: now that no screen code runs
            self.todo = None
            nxt[0](*nxt[1])
        if (self.demo is None and self.hw.nap < 2 and self.stack[-1].name == "menu" and len(self.stack) == 1
                and ticks_diff(now, self.hw.woke) >= _DEMO_IDLE and not self.input.held()):
            self.watch()  # 30 s alone at the main menu (and no key held): the demo
        if self.demo is not None:
            self.demo.tick(now)
        self.sound.tick(now)
        tm = self.play.timer if self.play is not None else None
        dm = self.demo  # (the screen stays on while the game moves, or a clock's last 10 s run, T-3)
        self.hw.tick(self, now, (dm.awake(now) if dm is not None else not self.idle()) or (tm is not None and tm.warn))
        if self.dirty and self.hw.nap < 2:  # (off: the frame waits for the wake)
            self.dirty = False
            self.display.refresh()
            self.refreshes += 1
            if self.shown is not None:  # (another console's play is on the screen now: its latency, L-4; print: None)
                self.shown = print("shown %s ms=%d" % (self.shown, supervisor.ticks_ms()))
            p = self.play
            if p is not None and p.link is not None and _mem_free is not None and _mem_free() < _SPARE:
                gc.collect()  # (now, with the frame out, not in the middle of showing the next play: L-4's 100 ms)

    def idle(self):
        """True when nothing happens until a key is pressed (for the simulator)."""
        top = self.stack[-1]
        if top.name != "table":  # (a result drops keys for a moment, pisti_app.screens.results: no key awaited yet)
            return (self.input.mute_until is None and not self.input.mute_for) or top.name == "menu"
        return not top.holding and top.toast_until is None and self.play.idle()  # pyright: ignore[reportOptionalMemberAccess] (a table has its match)

    def delay(self):
        """Milliseconds a play stays on screen before the next bot step."""
        return SPEEDS[self.prefs["speed"]] if self.delay_override is None else self.delay_override

    # -- screens -----------------------------------------------------------------
    screen = property(lambda self: self.stack[-1])  # the screen on top

    def show(self, screen):
        """Make ``screen`` the only one."""
        while self.stack:
            self.stack.pop().close()
        self.push(screen)
        gc.collect()

    def push(self, screen):
        """Open ``screen`` over the current one."""
        self.stack.append(screen)
        self.display.root_group = screen.group
        self.dirty = True
        self._changed = True

    def pop(self):
        """Close the top screen and show the one under it again."""
        if len(self.stack) < 2:
            return
        self.stack.pop().close()
        top = self.stack[-1]
        if top.name == "table":  # back at the table from its menus
            self.drop_menus()
        elif top.name == "menu":
            self.records.close()
        self.display.root_group = top.group
        top.resume()
        self.dirty = True
        self._changed = True
        gc.collect()

    def later(self, fn, *args):
        """Call ``fn(*args)`` at the end of this tick, once the screen that asked has returned and been freed."""
        self.todo = (fn, args)

    def release(self):
        """Close every screen and collect before the next is built (the heap's peak: one screen)."""
        while self.stack:
            self.stack.pop().close()
        self.display.root_group = self._blank
        p = self.play
        if p is not None and p.timer is not None:
            p.timer.forget_screens()
        gc.collect()

    def ask(self, title, text, on_yes, keys_text, on_no=None):
        """A question (or, without ``on_no``, a notice) over the screen."""
        from pisti_app.screens.confirm import Confirm
        self.push(Confirm(self, title, text, on_yes, keys_text, on_no))

    # What the console keeps (pisti_app.match.records), as scripts and screens read it.
    saves = property(lambda self: self.records.saves)
    rankings = property(lambda self: self.records.rankings)

    # -- menus and games -----------------------------------------------------------
    @property
    def menus(self):
        """The menus (:class:`pisti_app.screens.menus.Menus`), loaded when first needed."""
        m = self._menus
        if m is None:
            from pisti_app.screens.menus import Menus
            m = self._menus = Menus(self)
        return m

    def drop_menus(self):
        """Unload the menus' modules (:attr:`NEEDS`: their code is heap on the device)."""
        self._menus = None
        release(self)

    def main_menu(self):
        """Back to the main menu, the match's modules gone; after a link game on
        the board, by a restart (nothing kept to resume: the menu on a fresh heap)."""
        p = self.play
        if self.linked_boot and self.kept is None and (p is None or p.link is None) and util.restarts():
            self.restart = True  # (the screen stays until run() restarts)
            return
        self.play = None
        self.release()
        if p is not None:
            release(p)
        self.records.close()
        self.show(self.menus.main())

    def start_game(self, game, players, levels, target=None, rated=False):
        """A new match (:func:`pisti_app.match.begin.start_game`)."""
        from pisti_app.match.begin import start_game
        start_game(self, game, players, levels, target, rated)
        forget("pisti_app.match.begin")

    def continue_game(self, boot=False):
        """Back to the game kept (:func:`pisti_app.match.begin.continue_game`); at
        ``boot``, :func:`pisti_app.match.begin.resume_kept`."""
        from pisti_app.match import begin
        (begin.resume_kept if boot else begin.continue_game)(self)
        forget("pisti_app.match.begin")

    def seat_bot(self, seat, bot):
        """The outside-bot hook: ``bot`` (with ``choose(obs)``, or a factory
        ``bot(game, seat, players)``) plays ``seat`` in this game and every
        later one (:meth:`pisti_app.match.play.Play.sit`); ``None`` gives it back."""
        if bot is None:
            self.outside_bots.pop(seat, None)
        else:
            self.outside_bots[seat] = bot
            if self.play is not None:
                self.play.sit_outside(seat, bot)

    def watch(self):
        """The demo (:mod:`pisti_app.match.demo`): bots play until a key is pressed."""
        from pisti_app.match.demo import Demo
        self.demo = Demo(self)

    # -- settings ----------------------------------------------------------------
    def set_lang(self, lang):
        """Switch the language of every text ('en' or 'tr')."""
        strings.set_lang(lang)
        self.prefs["lang"] = lang

    def set_sound(self, on):
        """Sound on or off."""
        self.prefs["sound"] = self.sound.enabled = bool(on)
        if not on:
            self.sound.stop()

    def save_prefs(self):
        """Keep the settings in nvm (nothing is written if they did not change)."""
        self.saves.write_prefs(self.prefs)

    def status(self, rankings=True):
        """What is on screen and the game state, for scripts and the simulator
        (:func:`pisti_app.status.app_status`, not loaded on a board that nobody asks)."""
        from pisti_app.status import app_status
        return app_status(self, rankings)
