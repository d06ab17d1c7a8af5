# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""One boot of the device's ``code.py`` on the desktop shims.

:class:`Session` writes a settings file (the profile's settings plus the
boot overrides ``PISTI_START``, ``PISTI_SEED``, ...), installs the shims
(``tools.shims.install``), puts the repo root and ``lib/`` on ``sys.path``
as CircuitPython does (``/`` then ``/lib``) and runs ``code.py`` as
``__main__``. The firmware loops ``app.tick(); time.sleep(0.01)`` forever;
the session wraps ``time.sleep`` so that after every sleep of the device
thread a *front end* (headless key script, terminal, window) gets a turn:
it presses buttons, draws, and ends the run by raising :class:`SimDone`
from inside that sleep (a BaseException, so ``except Exception`` in device
code does not swallow it).

The session also counts frames (``rig.oled.on_frame``), records them for a
GIF, seats outside bots (``--bot``; one that fails gives its seat to a
built-in bot, :class:`OutsideSeat`) and builds the ``--status`` line.
"""

import collections
import json
import os
import random
import runpy
import shutil
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from tools import shims
from tools.shims import BOARDS_DIR, ROOT
from tools.shims.nvm import PowerCut

#: Settle defaults for key scripts (virtual milliseconds).
HOLD_MS = 60
IDLE_MS = 1200
WAIT_MS = 8000
#: Quiet needed after the last frame when the firmware says it is idle.
SETTLE_MS = 250
#: Status fields every firmware status() must have (the --status contract).
STATUS_FIELDS = ("screen", "game", "players", "hand", "ply", "totals", "rated", "rankings", "nvm")


class SimDone(BaseException):
    """Raised inside the device's time.sleep: the run is over (not an error)."""


class SimQuit(SimDone):
    """The person at the terminal or window quit."""


class SimLimit(SimDone):
    """The virtual-time limit (--max-ms) was reached before the script ended."""


class Console:
    """``sys.stdout`` for device code: the serial console.

    Lines go to ``echo`` (a stream, or None) and the last few are kept for
    front ends that show them.
    """

    def __init__(self, echo=None, keep=20):
        self.echo = echo
        self.lines = collections.deque(maxlen=keep)
        self._partial = ""
        self.serial = 0  # bumps whenever a line completes

    def write(self, text):
        """Take device output."""
        if self.echo is not None:
            self.echo.write(text)
        text = self._partial + text
        *done, self._partial = text.split("\n")
        for line in done:
            self.lines.append(line)
            self.serial += 1
        return len(text)

    def flush(self):
        """Flush the echo stream."""
        if self.echo is not None:
            self.echo.flush()

    def isatty(self):
        """Device output is never a terminal."""
        return False

    @property
    def last(self):
        """The last complete line, or ''."""
        return self.lines[-1] if self.lines else ""


def settings_text(profile, overrides, settings_file=None):
    """The profile's settings.toml (or ``settings_file``, a drive's) with
    ``overrides`` ({KEY: str|int}) first.

    CircuitPython's getenv takes the first occurrence of a key, so the
    overrides go on top.
    """
    base = "the %s profile" % profile if settings_file is None else str(settings_file)
    lines = ["# Written by tools/sim.py: boot overrides, then %s." % base]
    for key in sorted(overrides):
        value = overrides[key]
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, int):
            lines.append("%s = %d" % (key, value))
        else:
            lines.append("%s = %s" % (key, json.dumps(str(value), ensure_ascii=True)))
    profile_text = Path(settings_file or BOARDS_DIR / ("%s.toml" % profile)).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n" + profile_text


def json_default(value):
    """JSON for what status() may hold besides plain types."""
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return str(value)


def status_line(status):
    """One JSON line (sorted keys) for ``--status``."""
    return json.dumps(status, sort_keys=True, ensure_ascii=False, default=json_default)


def failure_text(seat, command, exc):
    """One sentence about an outside bot's failure ``exc`` (a BotFailure says
    it; anything else is named with its type)."""
    if hasattr(exc, "describe"):
        return exc.describe()
    return "the outside bot %s in seat %d failed (%s: %s)" % (command, seat, type(exc).__name__, exc)


class OutsideSeat:
    """A ``--bot`` seat, ``choose(obs)`` as any bot: the outside program's
    action until it fails (does not start, stops, answers garbage or an
    illegal action, stays silent past its time limit), then, for the rest of
    the run, a built-in bot's at the level ``level_of(seat)`` gives, so the
    game goes on; ``notice(self)`` hears of the failure once. ``ask(call,
    *args)`` makes every call to the program (the session's: its waits for
    the process take real time)."""

    def __init__(self, program, level_of, notice, ask=None):
        self.program = program  # the tools.botproto.ExternalBot
        self.seat = program.seat
        self._level_of = level_of
        self._notice = notice
        self._ask = ask or (lambda call, *args: call(*args))
        self.failure = None  # what ended the program's play
        self.level = None  # the built-in bot's level once it plays
        self._standin = None
        self._game = None

    def choose(self, obs):
        """The program's action for ``obs``, or the built-in bot's once the program failed."""
        if self.failure is None:
            try:
                return self._ask(self.program.choose, obs)
            except Exception as exc:
                self.failure = exc
                self._ask(self.program.close)
                self.level = self._level_of(obs.seat)
                self._notice(self)
        if self._standin is None or self._game != obs.game:
            from pisti_core.bots import make_bot

            self._standin = make_bot(obs.game, self.level, random)  # the firmware's own seeded random
            self._game = obs.game
        return self._standin.choose(obs)

    def describe(self):
        """The failure in one sentence."""
        return failure_text(self.seat, self.program.command, self.failure)

    def close(self):
        """Stop the program."""
        self.program.close()


class Session:
    """A simulated device running ``code.py``; use as a context manager.

    ::

        with Session(profile="pico", overrides={"PISTI_START": "pisti:2:usta"}) as s:
            outcome = s.boot(frontend)      # runs until the front end ends it
            s.rig.oled.save_png("out.png")
            print(s.status())
    """

    def __init__(self, *, profile="pico", code=None, settings_file=None, overrides=None, nvm_path=None, realtime=False,
                 getenv_style="int", max_ms=None, record=False, bots=None, console=None, log=None,
                 power_cut=None, bot_log=None, battery=None):
        self.profile = profile
        self.battery = battery  # VSYS in mV on battery power (USB out), None: on USB
        self.code = Path(code) if code else ROOT / "code.py"
        self.code_dir = self.code.resolve().parent
        self.settings_file = settings_file  # a drive's settings.toml (--drive), else the profile's
        # Booted from a drive (not this checkout): every module the drive holds is the drive's,
        # even one the desktop tools imported already (pisti_core, the display driver).
        self._drive_modules = set()
        if self.code_dir != ROOT.resolve():
            for folder in (self.code_dir, self.code_dir / "lib"):
                for entry in folder.iterdir() if folder.is_dir() else ():
                    if entry.is_dir() or entry.suffix in (".py", ".mpy"):
                        self._drive_modules.add(entry.name.split(".", 1)[0])
            self._drive_modules.discard("code")
        self.overrides = dict(overrides or {})
        self.nvm_path = nvm_path
        self.realtime = realtime
        self.getenv_style = getenv_style
        self.max_ms = max_ms
        self.record = record
        self.bot_commands = dict(bots or {})
        self.bot_log = bot_log  # the outside bots' stderr goes to this file (None: inherited)
        self.power_cut = power_cut  # cut the power after this many nvm bytes (cut points)
        self.console = console if console is not None else Console(echo=sys.stderr)
        self.log = log if log is not None else sys.stderr
        self.rig = None
        self.frontend = None
        self.frames = []  # (virtual ms, Pillow "L" image at scale 1) when recording
        self.frame_serial = 0
        self.last_frame_ms = 0
        self.error = None  # traceback text when device code crashed
        self.exception = None  # the exception itself
        self.outcome = None
        self.outside = {}  # seat -> OutsideSeat
        self.failures = []  # the OutsideSeats whose program failed, in order
        self._warned = set()
        self._tmp = None
        self._aside = {}
        self._saved = None
        self._inner_sleep = None
        self._real_sleep = time.sleep
        self._outside_calls = 0  # > 0 while an outside program is asked: its sleeps are real
        self._device_files = {}

    # -- set up and tear down ---------------------------------------------------
    def __enter__(self):
        self._tmp = tempfile.mkdtemp(prefix="pisti-sim-")
        settings_path = os.path.join(self._tmp, "settings.toml")
        self._real_sleep = time.sleep  # (before the shims make the device thread's sleeps virtual)
        with open(settings_path, "w", encoding="utf-8") as handle:
            handle.write(settings_text(self.profile, self.overrides, self.settings_file))
        try:
            self.rig = shims.install(self.profile, settings_path=settings_path, nvm_path=self.nvm_path,
                                     realtime=self.realtime, getenv_style=self.getenv_style)
        except BaseException:
            shutil.rmtree(self._tmp, ignore_errors=True)
            raise
        self.rig.oled.on_frame = self._on_frame
        if self.power_cut is not None:
            self.rig.nvm.cut_after_bytes = self.power_cut
        if self.battery is not None:  # the supply pins (tools/shims/supply.py)
            self.rig.supply.mv = self.battery
            self.rig.supply.usb = False
        # A fresh boot: device modules imported before (by a test, or an
        # earlier session) are put aside and come back at close().
        self._aside = {name: module for name, module in sys.modules.items() if self._is_device(name, module)}
        for name in self._aside:
            del sys.modules[name]
        self._saved = (list(sys.path), set(sys.modules), os.getcwd(), time.sleep, sys.stdout)
        self._random_state = random.getstate()  # the firmware seeds the global random (PISTI_SEED)
        self._inner_sleep = time.sleep
        time.sleep = self._sleep
        lib = str(self.code_dir / "lib")
        for entry in (lib, str(self.code_dir)):  # device order: "/" then "/lib"
            if entry in sys.path:
                sys.path.remove(entry)
            sys.path.insert(0, entry)
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.close()

    def close(self):
        """Undo the hooks, stop outside bots, close the rig, forget device modules."""
        if self._saved is not None:
            path, modules, cwd, sleep, stdout = self._saved
            self._saved = None
            time.sleep = sleep
            sys.stdout = stdout
            os.chdir(cwd)
            sys.path[:] = path
            for name in sorted(set(sys.modules) - modules):
                if self._is_device(name, sys.modules.get(name)):
                    del sys.modules[name]
            sys.modules.update(self._aside)
            self._aside = {}
            random.setstate(self._random_state)
        for bot in self.outside.values():
            try:
                bot.close()
            except Exception:
                pass
        self.outside.clear()
        if self.rig is not None:
            self.rig.oled.on_frame = None
            self.rig.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def _is_device(self, name, module):
        """Whether ``module`` is device-side code from lib/ (pisti_app and friends)."""
        if name == "pisti_app" or name.startswith("pisti_app."):
            return True
        if name.split(".", 1)[0] in self._drive_modules:
            return True
        where = getattr(module, "__file__", None) or ""
        return where.startswith(str(self.code_dir / "lib") + os.sep)

    # -- running ---------------------------------------------------------------
    def boot(self, frontend):
        """Run code.py until ``frontend`` ends the run; return the outcome.

        The outcome is the SimDone raised (SimQuit, SimLimit, ...), the string
        ``"returned"`` when code.py ended by itself, or ``"crashed"`` (the
        traceback is in :attr:`error`).
        """
        if not self.code.is_file():
            raise FileNotFoundError("%s not found: the firmware is missing" % self.code)
        self.frontend = frontend
        frontend.start(self)
        try:
            os.chdir(self.code_dir)  # the CIRCUITPY root is the device's current folder
            self._hook_firmware()
            sys.stdout = self.console
            try:
                runpy.run_path(str(self.code), run_name="__main__")
                self.outcome = "returned"
            except SimDone as done:
                self.outcome = done
            except (KeyboardInterrupt, SystemExit):
                raise
            except PowerCut:
                self.outcome = "power_cut"  # as a pulled cable: the run just stops
            except BaseException as exc:
                self.exception = exc
                self.error = traceback.format_exc()
                self.outcome = "crashed"
        finally:
            sys.stdout = self._saved[4] if self._saved else sys.__stdout__
            frontend.stop(self)
        return self.outcome

    def _from_device(self, filename):
        """Whether code in ``filename`` is the firmware (code.py, lib/, pisti_core/)."""
        known = self._device_files.get(filename)
        if known is None:
            root = str(self.code_dir) + os.sep
            known = filename.startswith(root) and not filename.startswith(
                (root + "tools" + os.sep, root + "tests" + os.sep))
            self._device_files[filename] = known
        return known

    def _sleep(self, seconds):
        """time.sleep while the session runs: the front end's turn after each
        sleep of the firmware (other sleeps in the device thread just pass
        on the clock; subprocess waiting for an outside bot sleeps for real)."""
        rig = self.rig
        if self._outside_calls:  # subprocess waiting for an outside bot: the process needs real time
            return self._real_sleep(seconds)
        if (rig is None or self.frontend is None or threading.get_ident() != rig.device_thread
                or not self._from_device(sys._getframe(1).f_code.co_filename)):
            return self._inner_sleep(seconds)
        self.frontend.sleep(self, seconds)
        now = rig.clock.now_ms
        if self.max_ms is not None and now >= self.max_ms:
            raise SimLimit("stopped at --max-ms %d ms" % self.max_ms)
        self._seat_bots()
        self.frontend.update(self, now)
        return None

    def wait(self, seconds):
        """The sleep underneath: virtual time, or a real sleep in real-time mode."""
        self._inner_sleep(seconds)

    # -- frames ----------------------------------------------------------------
    def _on_frame(self, oled):
        self.frame_serial += 1
        self.last_frame_ms = self.rig.clock.now_ms
        if self.record:
            self.frames.append((self.last_frame_ms, oled.to_image(scale=1)))

    def rows(self):
        """The panel as the viewer sees it: ``height`` lists of 0/1."""
        return self.rig.oled.rows(lit=True)

    def save_png(self, path, scale=4):
        """The current frame as a PNG, ``scale`` times bigger."""
        self.rig.oled.save_png(str(path), scale=scale)

    def save_gif(self, path, scale=4, last_ms=500):
        """Every recorded frame as an animated GIF with virtual-time durations.

        Identical consecutive frames are merged; the last frame lasts until
        the end of the run (at least ``last_ms``). Returns the frame count.
        """
        from PIL import Image

        oled = self.rig.oled
        end = self.rig.clock.now_ms
        frames = list(self.frames) or [(end, oled.to_image(scale=1))]
        images, durations, last = [], [], None
        for index, (when, image) in enumerate(frames):
            following = frames[index + 1][0] if index + 1 < len(frames) else end
            length = max(0, following - when)
            data = image.tobytes()
            if data == last:
                durations[-1] += length
                continue
            last = data
            images.append(image)
            durations.append(length)
        durations = [max(20, d) for d in durations]
        durations[-1] = max(durations[-1], last_ms)
        size = (oled.width * scale, oled.height * scale)
        big = [image.resize(size, Image.NEAREST).convert("P") for image in images]
        big[0].save(str(path), format="GIF", save_all=True, append_images=big[1:], duration=durations,
                    loop=0, optimize=False)
        return len(big)

    # -- the firmware ------------------------------------------------------------
    @property
    def app(self):
        """``pisti_app.current`` (the running App), or None."""
        module = sys.modules.get("pisti_app")
        return getattr(module, "current", None)

    def app_status(self):
        """``app.status()``, or {} when there is no app yet."""
        app = self.app
        if app is None or not hasattr(app, "status"):
            return {}
        return app.status()

    def settled(self, quiet_ms, idle_ms=IDLE_MS):
        """Whether the app waits for a key, ``quiet_ms`` after the last frame.

        With the firmware's ``app.idle()`` ("nothing happens until a key is
        pressed") that, plus :data:`SETTLE_MS` of quiet, decides: a clock or
        a blinking prompt on screen does not hold the script up. Without it,
        ``idle_ms`` of quiet and :meth:`busy` decide.
        """
        app = self.app
        idle = getattr(app, "idle", None)
        if callable(idle):
            return quiet_ms >= SETTLE_MS and bool(idle())
        return quiet_ms >= idle_ms and not self.busy()

    def busy(self):
        """Without ``app.idle()``: whether bots are still to move.

        On the table screen a play being held on screen (``holding``), a
        toast, or a seat with a bot (``app.bots[turn]``) to move counts as busy.
        """
        app = self.app
        if app is None:
            return False
        try:
            status = app.status()
        except Exception:
            return False
        if status.get("screen") != "table" or status.get("over"):
            return False
        if status.get("holding") or status.get("toast"):
            return True
        turn = status.get("turn")
        bots = getattr(app, "bots", None)
        if not isinstance(turn, int) or bots is None:
            return False
        try:
            return bots[turn] is not None
        except (IndexError, KeyError, TypeError):
            return False

    def status(self):
        """``app.status()`` plus the emulator's ``display``, ``frames`` and ``i2c_bytes``, and ``ms``.

        ``display`` is what the SSD1306 emulator's registers say, whatever
        the firmware meant: ``on`` (0xAF display on, 0xAE off: the driver's
        ``sleep()``), ``contrast`` (0x81, 0-255: the driver's ``brightness``
        sends ``round(255 * brightness)``) and ``brightness`` (contrast / 255).
        ``demo`` is the app's own (false when it does not say).
        """
        out = {}
        try:
            out.update(self.app_status())
        except Exception as exc:
            out["error"] = "status() failed: %s: %s" % (type(exc).__name__, exc)
        if self.app is None:
            out.setdefault("error", "the firmware did not start an app (pisti_app.current is None)")
        for key in STATUS_FIELDS:
            out.setdefault(key, None)
        oled = self.rig.oled
        if out.get("nvm") is None:  # no app to ask: what the flash itself says
            out["nvm"] = {"erases": getattr(self.rig.nvm, "erases", None), "state": None}
        out["power_cut"] = self.outcome == "power_cut"
        out["display"] = {"on": bool(oled.display_on), "contrast": oled.contrast,
                          "brightness": round(oled.contrast / 255, 3)}
        out["screen_ms"] = oled.screen_ms()
        out["demo"] = bool(out.get("demo", False))
        out["frames"] = oled.frames
        out["i2c_bytes"] = oled.bytes_total
        out["ms"] = self.rig.clock.now_ms
        return out

    # -- outside bots ------------------------------------------------------------
    def _warn_once(self, text):
        if text not in self._warned:
            self._warned.add(text)
            self.log.write("sim: %s\n" % text)
            self.log.flush()

    def _hook_firmware(self):
        """Seat outside bots before the first tick and in every new game.

        ``pisti_app.run()`` calls the module's ``boot()``; wrapping it gives
        the App before its first tick (a bot may move on that tick), and the
        App's public hook ``seat_bot(seat, factory)`` seats the program now
        and in every game started or continued later (the factory makes the
        :class:`OutsideSeat` once the game is known). The
        after-sleep check in :meth:`_seat_bots` stays as a fallback for
        firmware without the hook, and warns about seats a game lacks.
        """
        if not self.bot_commands:
            return
        try:
            module = __import__("pisti_app")
        except ImportError:
            return
        boot = getattr(module, "boot", None)
        if not callable(boot):
            return

        def boot_and_seat(*args, **kwargs):
            app = boot(*args, **kwargs)
            seat_bot = getattr(app, "seat_bot", None)
            if callable(seat_bot):
                for seat in sorted(self.bot_commands):
                    seat_bot(seat, self._outside_factory)
            self._seat_bots(app)
            return app

        module.boot = boot_and_seat

    def _outside_factory(self, game, seat, players):
        """``App.seat_bot`` factory: the --bot program of ``seat`` (started once)."""
        del players  # the app only asks for seats the game has
        bot = self._outside_seat(seat, game)
        self._warn_once("seat %d is played by %s" % (seat, self.bot_commands[seat]))
        return bot

    def _outside_seat(self, seat, game):
        """The OutsideSeat of ``seat`` (made once a run: a program that failed stays replaced)."""
        bot = self.outside.get(seat)
        if bot is None:
            from tools import botproto

            program = botproto.ExternalBot(self.bot_commands[seat], game, timeout=botproto.DEFAULT_TIMEOUT,
                                           seat=seat, stderr=self.bot_log)
            bot = self.outside[seat] = OutsideSeat(program, self._standin_level, self._bot_failed, self._ask_outside)
        return bot

    def _ask_outside(self, call, *args):
        """``call(*args)``, a call to an outside program: the sleeps in it
        (subprocess waiting for the process to end) take real time, not the
        device thread's virtual time."""
        self._outside_calls += 1
        try:
            return call(*args)
        finally:
            self._outside_calls -= 1

    def _standin_level(self, seat):
        """The level of the built-in bot that takes a failed outside bot's
        seat: the seat's own in this game, usta for the person's seat."""
        from pisti_core.bots import LEVELS

        levels = getattr(getattr(self.app, "session", None), "levels", None) or ()
        level = levels[seat] if seat < len(levels) else None
        return level if level in LEVELS else "usta"

    def _bot_failed(self, bot):
        """One line on the console (the terminal's line under the screen): who
        plays the seat now, where the program's error output is, what it did."""
        self.failures.append(bot)
        where = "; its error output is in %s" % self.bot_log if self.bot_log else ""
        self.log.write("sim: the outside bot failed, %s plays seat %d on%s; %s\n"
                       % (bot.level, bot.seat, where, bot.describe()))
        self.log.flush()

    def _seat_bots(self, app=None):
        """Put the --bot programs in their seats whenever the app has bots."""
        if not self.bot_commands:
            return
        app = app if app is not None else self.app
        bots = getattr(app, "bots", None)
        if not bots:
            return
        status = None
        for seat in sorted(self.bot_commands):
            bot = self.outside.get(seat)
            try:
                current = bots[seat]
            except (IndexError, KeyError):
                current = None
            if current is not None and current is bot:
                continue
            if status is None:
                status = app.status()
            players = status.get("players")
            if players is None:
                continue  # no game on
            if seat >= players:
                self._warn_once("--bot %d: a %d-player game has no seat %d" % (seat, players, seat))
                continue
            if current is None and seat != 0:
                continue
            bots[seat] = self._outside_seat(seat, status.get("game"))
            self._warn_once("seat %d is played by %s" % (seat, self.bot_commands[seat]))
