# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.app`
===============

:class:`App` is the console's shell: the stack of screens, the tick loop,
the hardware (display, keys, sound, battery, screen sleep), the prefs and
the saves. The match in play is :attr:`App.play`
(:class:`pisti_app.play.Play`, loaded while a game is on); the screens
only show it. ``tick()`` is called about every 10 ms by :func:`pisti_app.run`.

Saves (:mod:`pisti_app.saves`) live in ``hw.nvm`` (``microcontroller.nvm``):
settings, ranking and the game in progress (T-6). The settings read at boot
(``settings.toml``) are :mod:`pisti_app.startup`'s.
"""

import gc

import supervisor

from pisti_app import gfx, strings, util
from pisti_app.keys import Input
from pisti_app.sound import Sound
from pisti_app.util import const, forget, release, ticks_add, ticks_diff

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # (names the board has interned already: an import here costs nothing)
    import pisti_app.play
    import pisti_app.demo  # noqa: F401 (named in a type comment only: the board has no typing module)

SPEEDS = (1200, 800, 450, 150)  # ms a bot's play stays before the next step, by speed setting
SLEEPS = (30, 60, 120, 300, 0)  # s without a key before the screen dims, off after as long again; 0 never
_DEMO_IDLE = const(30000)  # ms without a key (at the main menu) before the demo starts (pisti_app.demo)
BRIGHT = (0.06, 0.35, 1.0)  # the display's brightness (SSD1306 contrast 15, 89, 255) by setting
_DIM = 0.0  # brightness of a dimmed screen (contrast 0: still readable)


class Hardware:
    """What the app keeps of the board's hardware object (its attributes,
    copied: the module that built them can then be unloaded)."""

    def __init__(self, hw):
        for k in ("display", "width", "height", "keys", "key_names", "nvm", "buzzer", "i2c", "bad", "supply"):
            setattr(self, k, getattr(hw, k, None))

    if _CHECKING:  # the attributes copied above, for the checker (of any type)
        display = width = height = keys = key_names = nvm = buzzer = i2c = bad = supply = getattr(object, "")


class App:
    """The console application on hardware ``hw`` (see :mod:`pisti_app.hw`)."""

    demos = 0  # demos started since boot: the next one's game (pisti_app.demo.MODES)
    # The menus' scene: the modules only the menus use, released while a table is shown
    # (one string, split when used: on the board a long name in a tuple is a heap string of its own).
    NEEDS = "pisti_app.menus pisti_app.menu pisti_app.info pisti_app.confirm pisti_app.wrap pisti_app.splash"
    forget = staticmethod(forget)  # unload modules no longer used (pisti_app.util.forget)

    def __init__(self, hw, resume=False):
        hw = Hardware(hw)
        self.hw = hw
        self.display = hw.display
        self.width = hw.width
        self.height = hw.height
        self.now = supervisor.ticks_ms()
        self.input = Input(hw.keys, hw.key_names)
        strings.set_buttons(self.input.three)  # key help for this board's buttons
        self.sound = Sound(hw.buzzer)
        self.outside_bots = {}  # seat -> bot or factory: see seat_bot()
        self.play = None  # type: pisti_app.play.Play | None  # the match in play (or a link game's set-up)
        self.resumed = False  # this boot went back into the kept game (resume_kept)
        self.restart = False  # run() restarts the board into the saved game (a link game's start)
        self.linked_boot = False  # a link game was played since this boot
        self.kept = None  # a game left to Continue (pisti_app.saves.Kept), saved in nvm
        self.refreshes = 0
        self.dirty = True
        import displayio
        self._blank = displayio.Group()  # shown while one screen is replaced by another
        self.stack = []
        self._codes = []
        self._changed = False  # a screen change to collect (and log) at the next tick
        self.todo = None  # (function, args) to run at the end of this tick: later()
        self.mute_until = None  # ticks until which keys are dropped (pisti_app.splash, pisti_app.results)
        self.mute_for = 0  # ms of keys to drop from the next screen's first frame on (pisti_app.results)
        # Set at boot by pisti_app.startup.init (the settings, the saves, the language, the
        # game kept, the notices), whose code is not kept once the console runs:
        self.memlog = 0  # PISTI_MEMLOG (2: also the modules loaded)
        self.nvm = None  # the board's nvm, or a bytearray where it has none
        self._saves = None  # opened by the saves property (T-6: a foreign or garbled nvm gives a clean start)
        self._rankings = None
        self._erases = 0  # erases caused by saves objects closed since boot
        self.prefs = {}  # type: dict
        self.nap = 0  # the screen: 0 on, 1 dimmed, 2 off (no key for a while: wake())
        self._woke = self.now  # ticks of the last key (or of the last thing that kept the screen on)
        self.demo = None  # type: pisti_app.demo.Demo | None  # the demo while one plays (watch())
        self.delay_override = None  # type: int | None  # PISTI_DELAY
        self.below = None  # Match's default, os.urandom (T-6); pisti_app.startup.seeded_below with PISTI_SEED
        self.notices = []  # type: list  # this boot's, one line each: the saves, then the settings ignored
        from pisti_app.startup import init
        start, target, rated, bad = init(self, hw)
        init = None
        forget("pisti_app.startup")  # read once
        self._menus = None
        if resume and self.kept is not None:  # a restart (out of memory, a link game's start): no splash
            self.resume_kept()
        elif start is not None and not bad:
            if self.kept is not None:
                self.resume_kept()  # T-4: losing power is not leaving
            else:
                self.start_game(start[0], start[1], start[2], target, rated)
            if self.notices and self.screen.name == "table":
                self.screen.say(self.notices[0], 3000)
        else:  # (with PISTI_START, the splash only to name the settings ignored)
            from pisti_app.splash import Splash
            go = None if start is None else (start[0], start[1], start[2], target, rated)
            self.show(Splash(self, self.now, go))
        if self.play is not None:
            self.play.tick(self.now)

    # -- the match in play, as scripts read it ---------------------------------------
    @property
    def session(self):
        """The game in play (:class:`pisti_app.session.GameSession`), or None."""
        p = self.play
        return None if p is None else p.session

    @property
    def bots(self):
        """The players of the seats in play (None: this console's person)."""
        p = self.play
        return [None, None, None, None] if p is None else p.seats

    @property
    def link(self):
        """The link game's :class:`pisti_app.remote.LinkPlay`, or None."""
        p = self.play
        return None if p is None else p.link

    # -- the loop ----------------------------------------------------------------
    def tick(self):
        """One step: keys, timers, the match, sound; refresh the display if
        needed. Nothing here catches an nvm write error (a power cut on the
        desktop rig): it leaves ``tick``, and the next start resumes from the saves."""
        if self._changed:  # the screen changed in the last tick: its garbage goes now
            self._changed = False
            gc.collect()
            if self.memlog:
                self.log_mem()
        now = supervisor.ticks_ms()
        self.now = now
        if self.mute_for:  # (its first frame went out at the end of the last tick: counted from there)
            self.mute_until = ticks_add(now, self.mute_for)
            self.mute_for = 0
        if self.mute_until is not None:  # keys just after the splash moved on by itself
            if ticks_diff(now, self.mute_until) < 0:
                self.input.reset()
            else:
                self.mute_until = None
        codes = self._codes
        if self.input.poll(now, codes) or codes:
            self._woke = now
            if self.nap or self.demo is not None:  # the key that wakes the screen (or ends a demo) does nothing else
                if self.demo is not None:
                    self.demo.stop()
                self.wake()
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
        if (self.demo is None and self.nap < 2 and self.stack[-1].name == "menu" and len(self.stack) == 1
                and ticks_diff(now, self._woke) >= _DEMO_IDLE and not self.input.held()):
            self.watch()  # 30 s alone at the main menu (and no key held): the demo
        if self.demo is not None:
            self.demo.tick(now)
        self.sound.tick(now)
        p = self.hw.supply
        if p is not None and ticks_diff(now, p[2]) >= 0:
            # The battery (PISTI_BATTERY) every 10 s, allocating nothing. ``p``:
            # [AnalogIn of VSYS/3 (0..65535 for 0..3.3 V), the USB sense input,
            # next reading (ticks), VSYS (mV), the low warning still to say].
            # Below 3.4 V the battery is low.
            p[2] = ticks_add(now, 10000)
            v = p[3] = p[0].value * 9900 >> 16
            v = 0 if p[1].value else 2 if v < 3400 else 1
            if v != gfx.batt or (p[4] and self.stack[-1].name == "table"):
                from pisti_app import battmark  # (a change: rare)
                battmark.tick(self, p, v)
        self._tick_nap(now)
        if self.dirty and self.nap < 2:  # (off: the frame waits for the wake)
            self.dirty = False
            self.display.refresh()
            self.refreshes += 1

    def _tick_nap(self, now):
        # Screen sleep: dim after SLEEPS[...] s without a key, off after as
        # long again; on while bots play or a screen moves by itself, and for
        # a rated game's last 10 s (T-3: its clock runs on meanwhile).
        tm = self.play.timer if self.play is not None else None
        dm = self.demo
        if (dm.awake(now) if dm is not None else not self.idle()) or (tm is not None and tm.warn):
            self._woke = now
            if self.nap:
                self.wake()
            return
        s = SLEEPS[self.prefs["sleep"]]
        if not s:
            return
        d = ticks_diff(now, self._woke) // 1000
        if d >= 2 * s:
            if self.nap < 2:
                self.nap = 2
                self.display.sleep()  # the SSD1306's display off (0xAE): RAM and settings kept
        elif d >= s and not self.nap:
            self.nap = 1
            self.display.brightness = _DIM

    def wake(self):
        """Screen on at the Brightness setting (after a nap, or a new setting)."""
        if self.nap > 1:
            self.display.wake()
        self.nap = 0
        self.display.brightness = BRIGHT[self.prefs["bright"]]
        self.dirty = True

    def idle(self):
        """True when nothing happens until a key is pressed (for the simulator)."""
        top = self.stack[-1]
        if top.name != "table":  # (a result drops keys for a moment, pisti_app.results: no key awaited yet)
            return (self.mute_until is None and not self.mute_for) or top.name == "menu"
        p = self.play
        if _CHECKING:
            assert p
        return not top.holding and top.toast_until is None and p.idle()

    def delay(self):
        """Milliseconds a play stays on screen before the next bot step."""
        if self.delay_override is not None:
            return self.delay_override
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
        self.push(screen)
        gc.collect()

    def push(self, screen):
        """Open ``screen`` over the current one."""
        self.stack.append(screen)
        self.display.root_group = screen.group
        self.dirty = True
        self._changed = True

    def log_mem(self):
        """PISTI_MEMLOG: the free heap on the serial console (after a collection,
        at the start of the tick after a screen change)."""
        print("mem %s free=%d ms=%d" % (self.stack[-1].name, gc.mem_free(), supervisor.ticks_ms()))
        if self.memlog > 1:
            import sys
            print("mods", " ".join(sorted(sys.modules)))
            try:
                import micropython
                micropython.qstr_info()
            except (ImportError, AttributeError):
                pass

    def pop(self):
        """Close the top screen and show the one under it again."""
        if len(self.stack) < 2:
            return
        self.stack.pop().close()
        top = self.stack[-1]
        if top.name == "table":  # back at the table from its menus
            self.drop_menus()
        elif top.name == "menu":
            self.close_saves()
        self.display.root_group = top.group
        top.resume()
        self.dirty = True
        self._changed = True
        gc.collect()

    def later(self, fn, *args):
        """Call ``fn(*args)`` at the end of this tick, once the screen that
        asked has returned: a screen change that frees the old screen before
        the next is built (no frame of the old one still holds it)."""
        self.todo = (fn, args)

    def release(self):
        """Close every screen and collect, before the next screen is built:
        the heap's peak is then the new screen alone, not both."""
        while self.stack:
            self.stack.pop().close()
        self.display.root_group = self._blank
        p = self.play
        if p is not None and p.timer is not None:
            p.timer.forget_screens()
        gc.collect()

    def ask(self, title, text, on_yes, keys_text, on_no=None):
        """A question (or, without ``on_no``, a notice) over the screen."""
        from pisti_app.confirm import Confirm
        self.push(Confirm(self, title, text, on_yes, keys_text, on_no))

    # -- the saves ---------------------------------------------------------------
    @property
    def saves(self):
        """The saves (:class:`pisti_app.saves.Saves` on the nvm), opened when
        needed: at the menus they are closed (:meth:`close_saves`)."""
        sv = self._saves
        if sv is None:
            from pisti_app.saves import Saves
            sv = self._saves = Saves(self.nvm)
        return sv

    @property
    def rankings(self):
        """The ranking (T-2, per game, players and bot level), read from the saves when needed."""
        r = self._rankings
        if r is None:
            r = self._rankings = self.saves.read_ranking()
        return r

    @property
    def erases(self):
        """Sector erases so far: the nvm's own count when it keeps one (the
        desktop rig's), else those the saves caused since boot."""
        n = getattr(self.nvm, "erases", None)
        if n is not None:
            return n
        sv = self._saves
        return self._erases + (sv.store.erases_caused if sv is not None else 0)

    def drop_rankings(self):
        """Forget the ranking and its module until next needed (it is in the saves)."""
        self._rankings = None
        forget("pisti_core.table")

    def close_saves(self):
        """Drop the saves, the ranking and their modules (re-read from the nvm
        when next needed; nothing is lost: every change was written at once)."""
        sv = self._saves
        if sv is not None:
            self._erases += sv.store.erases_caused
            release(sv)
        self._saves = None
        self._rankings = None

    def leave_cost(self, s):
        """T-4: (outcome, words) of leaving the rated game ``s`` now."""
        from pisti_core.table import leave_terms
        out, branch = leave_terms(s)
        if self._rankings is None:
            forget("pisti_core.table")  # loaded for this only
        return out, strings.t("cost_" + branch)

    # -- menus and games -----------------------------------------------------------
    @property
    def menus(self):
        """The menus (:class:`pisti_app.menus.Menus`), imported when first
        needed and unloaded at the table (:meth:`drop_menus`)."""
        m = self._menus
        if m is None:
            from pisti_app.menus import Menus
            m = self._menus = Menus(self)
        return m

    def drop_menus(self):
        """Unload the menu screens' modules (their code is heap on the device)."""
        self._menus = None
        release(self)

    def main_menu(self):
        """Back to the main menu, the match's modules gone. After a link game,
        on the board, by a restart (nothing kept to resume: the menu on a
        fresh heap)."""
        p = self.play
        if self.linked_boot and self.kept is None and (p is None or p.link is None) and util.restarts():
            self.restart = True  # (the screen stays until run() restarts)
            return
        self.play = None
        self.release()
        if p is not None:
            release(p)
        self.close_saves()
        self.show(self.menus.main())

    def start_game(self, game, players, levels, target=None, rated=False):
        """A new match (:func:`pisti_app.play.start_game`)."""
        from pisti_app.play import start_game
        start_game(self, game, players, levels, target, rated)

    def continue_game(self):
        """Back to the game kept (:func:`pisti_app.play.continue_game`)."""
        from pisti_app.play import continue_game
        continue_game(self)

    def resume_kept(self):
        """At boot: back into the kept game (T-6); out of memory even so,
        :func:`pisti_app.oom.resume_failed`."""
        kept = self.kept
        self.resumed = True  # (once a boot)
        try:
            self.continue_game()
        except MemoryError as e:
            from pisti_app.oom import resume_failed
            resume_failed(self, e, kept)

    def seat_bot(self, seat, bot):
        """The outside-bot hook: ``bot`` plays ``seat`` (0 is the person's)
        in this game, if one is on, and in every game started or continued
        later; ``None`` gives the seat back. ``bot`` is anything with
        ``choose(obs)``, or a factory ``bot(game, seat, players)`` returning
        one (or None to leave the seat as it is), called when a game starts.
        Safe before the first bot move: the match moves bots on ``tick()`` only."""
        if bot is None:
            self.outside_bots.pop(seat, None)
            return
        self.outside_bots[seat] = bot
        if self.play is not None:
            self.play.sit_outside(seat, bot)

    def watch(self):
        """The demo: bots play both games in turn until a key is pressed
        (:mod:`pisti_app.demo`, loaded while it runs)."""
        from pisti_app.demo import Demo
        self.demo = Demo(self)

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

    def save_prefs(self):
        """Keep the settings in nvm (nothing is written if they did not change)."""
        self.saves.write_prefs(self.prefs)

    def status(self, rankings=True):
        """What is on screen and the game state, as a plain dict (for scripts
        and the simulator: :mod:`pisti_app.status`, not loaded on a board
        that nobody asks); ``rankings`` False leaves the ranking out."""
        from pisti_app.status import app_status
        return app_status(self, rankings)
