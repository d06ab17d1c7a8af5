# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The desktop simulator: the device's own ``code.py`` on the hardware shims.

Three front ends:

* terminal (default): the OLED drawn with half-block characters (braille
  when the terminal is too small), keys mapped to the buttons, a help line;
  real time. ``bash tools/play.sh`` starts it.
* ``--window``: a pygame window with the OLED scaled up; real key up/down,
  so holding a key is a long press.
* ``--headless``: virtual time; plays ``--keys`` and exits once the screen
  has settled after the last key.

Examples::

    python tools/sim.py                                  # play in the terminal
    python tools/sim.py --window --start yedili:4:kalfa
    python tools/sim.py --headless --start pisti:2:usta --keys "A*3,RIGHT,A" --shot out.png --status
    python tools/sim.py --headless --start pisti:2:usta --seed 7 --keys "A*8" --record run.gif
    python tools/sim.py --start pisti:2:usta --bot 1=tools/examples/example_bot.py
    python tools/sim.py --headless --drive "unzipped/CircuitPython 10.x" --status   # a bundle, as copied to CIRCUITPY
    python tools/sim.py --link                           # two linked consoles side by side
    python tools/sim.py --headless --link --keys "A,DOWN*5,A,A,A,WAIT:4000" \\
        --keys2 "A,DOWN*5,A,DOWN,A,WAIT:2000,A" --status
    python tools/sim.py --link 127.0.0.1:7777            # twice: the first listens, the second connects (TCP)

``--keys`` is a comma list of ``NAME[:HOLD_MS][*N]`` (``A*3``, ``B:900``
is a 900 ms long press, ``A+LEFT+A`` a burst: the three taps within one
tick, ``WAIT:MS`` no key for MS ms of virtual time). ``--status`` prints one
JSON line at exit: ``app.status()`` plus ``display`` (the panel: ``on``,
``brightness``, ``contrast``), ``demo``, ``frames``, ``i2c_bytes`` and ``ms``
(virtual time).
Exit status: 0 done, 1 the firmware crashed, an outside bot failed (a
built-in bot played its seat on) or --max-ms cut a key script short, 2 bad
usage, 130 Ctrl-C.

Played by hand (the terminal, the window without a key script) a console
keeps its saves in a file of its own in the user's data folder
(:mod:`tools.simlib.nvmfile`); ``--nvm PATH`` picks the file, ``--no-nvm``
keeps none, and headless or scripted runs keep none unless ``--nvm`` asks.
"""

import argparse
import os
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
if __name__ == "__main__":  # typed as python tools/sim.py: the project's .venv
    from tools import useenv

    useenv.reexec("adafruit_blinka")

import tools.shims  # noqa: F401 (sets BLINKA_OS_AGNOSTIC before anything imports board)
from tools.botproto import program_problem
from tools.simlib import nvmfile
from tools.simlib import script as scriptlib
from tools.simlib.headless import UntilTimeout
from tools.simlib.script import UsageError
from tools.simlib.session import (
    HOLD_MS, IDLE_MS, WAIT_MS, Console, Session, SimLimit, SimQuit, status_line)

HEADLESS_MAX_MS = 600000
PAIR = "pair"  # --link without an address
LONG_MS = 1000


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def build_parser():
    """The command line."""
    p = _Parser(prog="sim.py", description="Play the pisti firmware on the desktop (terminal, window or headless).",
                epilog="Keys: comma list of NAME[:HOLD_MS][*N], names UP DOWN LEFT RIGHT A B (FeatherWing: A B C); "
                       "NAME+NAME+... is a burst, every key tapped within one tick; WAIT:MS leaves the console "
                       "alone for MS ms of virtual time (e.g. WAIT:200000); UNTIL:SCREEN[:MS] presses nothing "
                       "until that screen shows (e.g. UNTIL:table; at most MS ms, default 60000).")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--headless", action="store_true", help="no screen: virtual time, play --keys, then exit")
    mode.add_argument("--window", action="store_true", help="a pygame window instead of the terminal")
    p.add_argument("--profile", default=None, choices=scriptlib.PROFILES,
                   help="board profile (tools/boards/; default pico, or the --drive's PISTI_PROFILE)")
    p.add_argument("--drive", metavar="DIR",
                   help="boot a CIRCUITPY folder (an unzipped deploy --zip bundle): its code.py, lib/ and other "
                   "modules, assets/ and settings.toml instead of this checkout's")
    p.add_argument("--start", metavar="GAME:PLAYERS:LEVEL", help="skip the menus into a new game, e.g. pisti:2:usta")
    p.add_argument("--seed", type=int, help="PISTI_SEED: repeatable bots and shuffles")
    p.add_argument("--lang", choices=("en", "tr"), help="PISTI_LANG")
    p.add_argument("--target", type=int, choices=(101, 151), help="PISTI_TARGET (Pişti, P-2)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="any other setting (repeatable)")
    p.add_argument("--keys", metavar="SCRIPT", help='headless (or --window) key script, e.g. "A*3,RIGHT,A"')
    p.add_argument("--script-keys", dest="keys", help=argparse.SUPPRESS)
    p.add_argument("--hold", type=int, default=HOLD_MS, metavar="MS",
                   help="how long a key-script tap holds (%(default)s)")
    p.add_argument("--wait", type=int, default=WAIT_MS, metavar="MS",
                   help="after each key, let the app run at most this long (virtual ms, %(default)s)")
    p.add_argument("--idle", type=int, default=IDLE_MS, metavar="MS",
                   help="firmware without app.idle(): settled after this long without a frame (%(default)s)")
    p.add_argument("--max-ms", type=int, metavar="MS",
                   help="stop after this much virtual time (headless default %d, plus the script's WAIT steps)"
                   % HEADLESS_MAX_MS)
    p.add_argument("--shot", metavar="FILE.png", help="write the final frame as a PNG, 4x")
    p.add_argument("--record", metavar="FILE.gif", help="write every frame as an animated GIF, 4x")
    p.add_argument("--status", action="store_true",
                   help="print one JSON line with the app's status at exit (and the display's: on, brightness)")
    p.add_argument("--bot", action="append", default=[], metavar="SEAT=PROGRAM",
                   help="an outside bot (JSON Lines, tools/botlab/README.md) plays SEAT")
    p.add_argument("--bot-log", metavar="PATH",
                   help="append the outside bots' error output (stderr) to PATH; in the terminal it goes to "
                        "pisti-bots-PID.log in the temporary folder by default (the screen would wipe it)")
    p.add_argument("--nvm", metavar="PATH",
                   help="the file behind microcontroller.nvm: the console's saves (the game kept to Continue, the "
                        "settings, the statistics, the rankings), kept across runs. Played in the terminal or the "
                        "window the default is %s (%s with --profile featherwing; with --link "
                        "sim-PROFILE-link-a.nvm and -link-b.nvm, with --link HOST:PORT sim-PROFILE-tcp-PORT-listen.nvm "
                        "or -connect.nvm; the folder is $XDG_DATA_HOME/pisti, else ~/.local/share/pisti); headless "
                        "and key-script runs keep no file unless given one"
                        % (nvmfile.default_path("pico").replace("%", "%%"),
                           os.path.basename(nvmfile.default_path("featherwing"))))
    p.add_argument("--no-nvm", "--fresh", dest="no_nvm", action="store_true",
                   help="no saves file: start with an empty flash and keep nothing")
    p.add_argument("--rated", action="store_true", help="with --start: a rated game (T-1, PISTI_RATED)")
    p.add_argument("--power-cut-after-bytes", type=int, metavar="N", dest="power_cut",
                   help="end the run as a power loss would after N bytes written to nvm")
    p.add_argument("--battery", type=int, metavar="MV",
                   help="on battery power (USB out), VSYS at MV millivolts: the supply pins PISTI_BATTERY reads")
    p.add_argument("--getenv-style", default="int", choices=("int", "str"), help="CircuitPython os.getenv flavour")
    p.add_argument("--long-ms", type=int, default=LONG_MS, metavar="MS", help="terminal long press (%(default)s)")
    p.add_argument("--cells", default="auto", choices=("auto", "half", "braille"), help="terminal drawing")
    p.add_argument("--zoom", type=int, default=5, metavar="N", help="window scale (%(default)s)")
    p.add_argument("--code", help=argparse.SUPPRESS)  # another code.py (development)
    link = p.add_argument_group(
        "link play (RULES.md L-1 .. L-9)",
        "--link alone: two consoles in this process joined by a virtual cable, side by side (terminal or "
        "--window; A on the left plays with w a s d, f = A, g = B; B on the right with the arrows, "
        "Enter = A, Backspace = B), or headless with --keys for console A and --keys2 for console B "
        "(--status prints {\"a\": ..., \"b\": ...}). --link HOST:PORT: this console's UART is a TCP "
        "connection: the first process started on HOST:PORT listens, the second connects (start the same "
        "command twice, e.g. --link 127.0.0.1:7777 in two terminals); the bytes go as over the cable.")
    link.add_argument("--link", nargs="?", const=PAIR, metavar="HOST:PORT",
                      help="two linked consoles in this process, or this one linked over TCP to HOST:PORT")
    link.add_argument("--keys2", metavar="SCRIPT", help="with --link: console B's key script")
    link.add_argument("--profile2", choices=scriptlib.PROFILES, help="with --link: console B's board (default: A's)")
    link.add_argument("--lang2", choices=("en", "tr"), help="with --link: console B's language")
    link.add_argument("--nvm2", metavar="PATH", help="with --link: the file behind console B's nvm (its saves)")
    link.add_argument("--shot2", metavar="FILE.png", help="with --link: console B's last frame as a PNG, 4x")
    link.add_argument("--link-loss", type=float, default=0.0, metavar="P",
                      help="with --link: chance a byte on the virtual cable is lost (default 0)")
    return p


def _setting(text):
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key or not all(c.isalnum() or c in "_-" for c in key):
        raise UsageError("--set %r: use KEY=VALUE, e.g. --set PISTI_TIMER=60" % text)
    value = value.strip()
    if value.lstrip("-").isdigit():
        return key, int(value)
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return key, value


def _drive(opts):
    """--drive DIR: its code.py and settings.toml; the profile its PISTI_PROFILE names."""
    drive = os.path.abspath(opts.drive)
    if opts.code:
        raise UsageError("--drive and --code both name the firmware; give one")
    if not os.path.isfile(os.path.join(drive, "code.py")):
        raise UsageError("--drive %s: no code.py there (give the folder whose contents go onto CIRCUITPY)"
                         % opts.drive)
    opts.code = os.path.join(drive, "code.py")
    settings = os.path.join(drive, "settings.toml")
    if not os.path.isfile(settings):
        return
    opts.settings_file = settings
    from tools import settingstoml

    named = settingstoml.load(settings).get("PISTI_PROFILE")
    named = named.getenv("str") if named is not None else None  # (None: a value the board cannot read)
    if named and named not in scriptlib.PROFILES:
        raise UsageError("--drive %s: its settings.toml names the profile %r (use --profile %s)"
                         % (opts.drive, named, " or ".join(scriptlib.PROFILES)))
    opts.profile = opts.profile or named


def parse_args(argv):
    """Parsed and checked options; raises UsageError with one sentence."""
    opts = build_parser().parse_args(argv)
    opts.settings_file = None
    if opts.drive:
        _drive(opts)
    opts.profile = opts.profile or "pico"
    opts.buttons = scriptlib.profile_buttons(opts.profile)
    opts.steps = scriptlib.parse_keys(opts.keys, opts.buttons, hold_ms=opts.hold)
    if opts.keys is not None and not (opts.headless or opts.window):
        raise UsageError("--keys needs --headless (or --window); in the terminal you press the keys")
    for name, value in (("--hold", opts.hold), ("--wait", opts.wait), ("--idle", opts.idle),
                        ("--long-ms", opts.long_ms), ("--zoom", opts.zoom)):
        if value < 1:
            raise UsageError("%s must be a positive number, got %d" % (name, value))
    overrides = {}
    if opts.start:
        game, players, level = scriptlib.parse_start(opts.start)
        overrides["PISTI_START"] = "%s:%d:%s" % (game, players, level)
        opts.players = players
    else:
        opts.players = None
    if opts.rated:
        if not opts.start:
            raise UsageError("--rated needs --start (a rated game begins there)")
        overrides["PISTI_RATED"] = 1
    if opts.battery is not None and not 0 <= opts.battery <= 9900:
        raise UsageError("--battery takes VSYS in millivolts, 0 to 9900, got %d" % opts.battery)
    if opts.power_cut is not None and opts.power_cut < 0:
        raise UsageError("--power-cut-after-bytes must be 0 or more, got %d" % opts.power_cut)
    if opts.seed is not None:
        if not 0 <= opts.seed < 2**30:
            raise UsageError("--seed must be 0 .. 2**30-1, got %d" % opts.seed)
        overrides["PISTI_SEED"] = opts.seed
    if opts.lang:
        overrides["PISTI_LANG"] = opts.lang
    if opts.target:
        overrides["PISTI_TARGET"] = opts.target
    for text in opts.set:
        key, value = _setting(text)
        overrides[key] = value
    opts.overrides = overrides
    opts.bots = {}
    for text in opts.bot:
        seat, command = scriptlib.parse_bot(text)
        if opts.players is not None and seat >= opts.players:
            raise UsageError("--bot %s: a %d-player game has seats 0..%d" % (text, opts.players, opts.players - 1))
        if seat in opts.bots:
            raise UsageError("--bot: seat %d is given twice" % seat)
        problem = program_problem(command)
        if problem:
            raise UsageError("--bot %s: %s" % (text, problem))
        if os.path.exists(command):
            command = os.path.abspath(command)
        opts.bots[seat] = command
    for name in ("shot", "record", "nvm", "code"):
        value = getattr(opts, name)
        if value:
            folder = os.path.dirname(os.path.abspath(value))
            if not os.path.isdir(folder):
                raise UsageError("--%s %s: folder %s does not exist" % (name, value, folder))
            setattr(opts, name, os.path.abspath(value))
    if opts.code and not os.path.isfile(opts.code):
        raise UsageError("--code %s: no such file" % opts.code)
    if opts.no_nvm and (opts.nvm or opts.nvm2):
        raise UsageError("--no-nvm and --%s: give one (no saves file, or that file)" % ("nvm" if opts.nvm else "nvm2"))
    # played by hand: the console keeps its saves in the data folder unless told otherwise
    opts.keep = not opts.no_nvm and not opts.headless and not (
        opts.window and (opts.keys is not None or opts.keys2 is not None))
    opts.auto_max_ms = opts.max_ms is None and (opts.headless or (opts.window and opts.keys is not None))
    if opts.auto_max_ms:
        opts.max_ms = HEADLESS_MAX_MS + sum(ms if name == scriptlib.WAIT else ms[1] for name, ms in opts.steps
                                            if name in (scriptlib.WAIT, scriptlib.UNTIL))
    _link_args(opts)
    if opts.keys2 is not None and not (opts.headless or opts.window):
        raise UsageError("--keys2 needs --headless (or --window); in the terminal you press the keys")
    if not opts.headless and not opts.window and not sys.stdin.isatty():
        raise UsageError("the terminal simulator needs a terminal on stdin: use --headless (or --window)")
    return opts


def _link_args(opts):
    """--link and its companions, checked; console B's settings in ``opts.b``."""
    pair_only = [name for name in ("keys2", "profile2", "lang2", "nvm2", "shot2") if getattr(opts, name)]
    if opts.link != PAIR and pair_only:
        raise UsageError("--%s needs --link (two consoles in this process)" % pair_only[0])
    if not 0 <= opts.link_loss < 1:
        raise UsageError("--link-loss is a probability below 1, not %r" % opts.link_loss)
    opts.b = None
    if opts.link is None:
        return
    if opts.link != PAIR:
        from tools.simlib.tcplink import parse_address

        opts.link_address = parse_address(opts.link)
        return
    if opts.bots:
        raise UsageError("--bot and --link: outside bots are for one console")
    if opts.drive:
        raise UsageError("--drive and --link: both consoles run this checkout")
    b = argparse.Namespace(profile=opts.profile2 or opts.profile)
    b.buttons = scriptlib.profile_buttons(b.profile)
    b.steps = scriptlib.parse_keys(opts.keys2, b.buttons, hold_ms=opts.hold)
    b.overrides = dict(opts.overrides)
    if opts.lang2:
        b.overrides["PISTI_LANG"] = opts.lang2
    if opts.seed is not None:
        b.overrides["PISTI_SEED"] = (opts.seed + 1) % 2**30
    for name in ("nvm2", "shot2"):
        value = getattr(opts, name)
        if value:
            folder = os.path.dirname(os.path.abspath(value))
            if not os.path.isdir(folder):
                raise UsageError("--%s %s: folder %s does not exist" % (name, value, folder))
            setattr(opts, name, os.path.abspath(value))
    if opts.nvm and opts.nvm == opts.nvm2:
        raise UsageError("--nvm and --nvm2 name the same file: each console has its own flash")
    if opts.auto_max_ms or (opts.max_ms is None and opts.window and opts.keys2 is not None):
        waits = [sum(ms if name == scriptlib.WAIT else ms[1] for name, ms in steps
                     if name in (scriptlib.WAIT, scriptlib.UNTIL)) for steps in (opts.steps, b.steps)]
        opts.max_ms = HEADLESS_MAX_MS + max(waits)
    opts.b = b


def run_pair(opts, out=None, err=None):
    """--link: two consoles in this process; return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    if opts.headless:
        from tools.simlib.linkfront import PairHeadless

        front = PairHeadless([opts.steps, opts.b.steps], wait_ms=opts.wait, idle_ms=opts.idle)
    elif opts.window:
        from tools.simlib.linkfront import PairWindow

        front = PairWindow([opts.buttons, opts.b.buttons], zoom=opts.zoom,
                           steps=[opts.steps, opts.b.steps] if (opts.keys or opts.keys2) is not None else None,
                           wait_ms=opts.wait, idle_ms=opts.idle)
    else:
        from tools.simlib.linkfront import PairTerminal

        front = PairTerminal([opts.buttons, opts.b.buttons], cells=opts.cells, hold_ms=opts.hold,
                             long_ms=opts.long_ms)
    realtime = not opts.headless and opts.keys is None and opts.keys2 is None
    held = []
    try:
        for explicit, option, profile, console in ((opts.nvm, "--nvm", opts.profile, "link-a"),
                                                   (opts.nvm2, "--nvm2", opts.b.profile, "link-b")):
            held.append(_saves(opts, explicit, option, profile, console, err))
        return _run_pair(opts, front, realtime, held, out, err)
    finally:
        for claim in held:
            if claim is not None:
                claim.close()


def _run_pair(opts, front, realtime, held, out, err):
    """run_pair(), its front end made and the consoles' saves files held."""
    from tools.simlib.pair import Pair

    sessions = []
    for name, profile, overrides, claim in (("A", opts.profile, opts.overrides, held[0]),
                                            ("B", opts.b.profile, opts.b.overrides, held[1])):
        console = Console(echo=err if opts.headless else None)
        sessions.append(Session(profile=profile, code=opts.code, overrides=overrides,
                                nvm_path=claim.path if claim is not None else None, realtime=realtime,
                                getenv_style=opts.getenv_style, max_ms=opts.max_ms, console=console,
                                log=err, power_cut=opts.power_cut if name == "A" else None))
    pair = Pair(sessions, front, loss=opts.link_loss, corrupt=opts.link_loss / 5, seed=opts.seed or 0)
    try:
        pair.run()
    except RuntimeError as exc:
        if type(exc).__name__ != "NoDisplay":
            raise
        err.write("sim: %s\n" % exc)
        return 1
    except KeyboardInterrupt:
        err.write("sim: interrupted\n")
        return 130
    code = 0
    for name, twin in zip("AB", pair.twins, strict=True):
        s = twin.session
        if twin.error is not None:
            err.write("sim: console %s: %s: %s\n" % (name, type(twin.error).__name__, twin.error))
            code = 1
        elif s.outcome == "crashed":
            err.write(s.error or "")
            err.write("sim: console %s: the firmware crashed (%s)\n" % (name, type(s.exception).__name__))
            code = 1
        elif isinstance(s.outcome, UntilTimeout):
            err.write("sim: console %s: %s\n" % (name, s.outcome))
            code = 1
        elif isinstance(s.outcome, SimLimit):
            driver = (getattr(front, "drivers", None) or [None, None])[twin.index]
            left = "" if driver is None else " with %d of %d keys played" % (driver.index, len(driver.steps))
            err.write("sim: console %s: stopped at --max-ms %d ms%s\n" % (name, opts.max_ms, left))
            code = 1 if driver is not None else code
        elif s.outcome == "power_cut":
            err.write("sim: console %s: power cut after %d bytes written to nvm\n" % (name, opts.power_cut))
        if realtime and twin.error is None and s.outcome != "crashed":
            _goodbye(s, held[twin.index], err, name)
    for path, twin in ((opts.shot, pair.twins[0]), (opts.shot2, pair.twins[1])):
        if path:
            twin.session.rig.oled.save_png(path, scale=4)
    if opts.status:
        cable = pair.cable
        out.write(status_line({"a": pair.final[0], "b": pair.final[1],
                               "cable": {"written": cable.a.written + cable.b.written, "dropped": cable.dropped,
                                         "corrupted": cable.corrupted}}) + "\n")
        out.flush()
    return code


def make_frontend(opts):
    """The front end the options ask for."""
    if opts.headless:
        from tools.simlib.headless import Headless, ScriptDriver

        return Headless(ScriptDriver(opts.steps, wait_ms=opts.wait, idle_ms=opts.idle))
    if opts.window:
        from tools.simlib.window import Window

        return Window(opts.buttons, zoom=opts.zoom, steps=opts.steps if opts.keys is not None else None,
                      wait_ms=opts.wait, idle_ms=opts.idle, unattended=opts.max_ms is not None)
    from tools.simlib.terminal import Terminal

    return Terminal(opts.buttons, cells=opts.cells, hold_ms=opts.hold, long_ms=opts.long_ms)


def _report_outcome(session, frontend, opts, err):
    """One line about how the run ended; returns the exit status."""
    outcome = session.outcome
    driver = getattr(frontend, "driver", None)
    if outcome == "power_cut":
        err.write("sim: power cut after %d bytes written to nvm (run again with the same --nvm "
                  "to switch on)\n" % opts.power_cut)
        return 0
    if outcome == "crashed":
        err.write(session.error)
        err.write("sim: the firmware crashed (%s)\n" % type(session.exception).__name__)
        return 1
    if isinstance(outcome, UntilTimeout):
        err.write("sim: %s\n" % outcome)
        return 1
    if isinstance(outcome, SimLimit):
        if driver is None:
            err.write("sim: stopped at --max-ms %d ms\n" % opts.max_ms)
            return 0
        err.write("sim: stopped at --max-ms %d ms of virtual time with %d of %d keys played\n"
                  % (opts.max_ms, driver.index, len(driver.steps)))
        return 1
    if outcome == "returned":
        if driver is not None and driver.index < len(driver.steps):
            err.write("sim: code.py ended after %d of %d keys\n" % (driver.index, len(driver.steps)))
            return 1
        err.write("sim: code.py ended\n")
    return 0


def _saves(opts, explicit, option, profile, console, log):
    """The Claim on a console's saves file: ``explicit`` (the file ``option``,
    --nvm or --nvm2, names), else, for a console played by hand, its own file
    in the data folder (``console`` tells the consoles of a link apart); None
    keeps the flash in memory. Raises UsageError when another simulator has
    the named file open."""
    if explicit:
        try:
            return nvmfile.claim(explicit)
        except nvmfile.InUse:
            raise UsageError("%s %s: another simulator has this file open (each console has its own flash)"
                             % (option, explicit)) from None
        except OSError as exc:
            raise UsageError("%s %s: %s" % (option, explicit, exc.strerror or exc)) from None
    if not opts.keep:
        return None
    try:
        return nvmfile.claim(nvmfile.default_path(profile, console), spares=True)
    except (OSError, nvmfile.InUse) as exc:
        log.write("sim: this run keeps no saves (%s)\n" % exc)
        return None


def _goodbye(session, held, err, name=""):
    """A console played by hand has stopped: where its saves are, and whether
    the game on its table is kept to Continue."""
    try:
        status = session.app_status()
    except Exception:
        status = {}
    playing = bool(status.get("game")) and not status.get("over") and not status.get("demo")
    who = "console %s: " % name if name else ""
    if held is None:
        if playing:
            err.write("sim: %sthe game is not kept: this run has no saves file\n" % who)
    elif playing:
        err.write("sim: %sthe game is kept in %s: start again and choose Continue\n" % (who, held.path))
    else:
        err.write("sim: %ssaves kept in %s\n" % (who, held.path))


def _tcp_end(opts, err):
    """--link HOST:PORT: this console's UART over TCP (None without it); raises OSError."""
    tcp = getattr(opts, "link_address", None)
    if tcp is None:
        return None
    from tools.simlib.tcplink import TcpEnd

    try:
        return TcpEnd(tcp)
    except OSError as exc:
        err.write("sim: --link %s:%d: %s\n" % (tcp[0], tcp[1], exc))
        raise


def run(opts, out=None, err=None):
    """Boot the firmware with ``opts`` (from :func:`parse_args`); return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        end = _tcp_end(opts, err)
    except OSError:
        return 1
    held = None
    try:
        frontend = make_frontend(opts)
        # The terminal shows device output and notes under the screen, not on stderr.
        console = getattr(frontend, "console", None)
        log = console or err
        held = _saves(opts, opts.nvm, "--nvm", opts.profile,
                      None if end is None else "tcp-%d-%s" % (end.address[1], end.role), log)
        return _run(opts, frontend, console or Console(echo=err), log, end, held, out, err)
    finally:
        if end is not None:
            end.close()
        if held is not None:
            held.close()


def _run(opts, frontend, console, log, end, held, out, err):
    """run(), its front end, link end and saves file made."""
    by_hand = not opts.headless and opts.keys is None
    realtime = by_hand or end is not None  # two processes: each clock follows real time, so the link's timers agree
    bot_log = opts.bot_log
    if bot_log is None and opts.bots and not (opts.headless or opts.window):
        bot_log = os.path.join(tempfile.gettempdir(), "pisti-bots-%d.log" % os.getpid())
    session = Session(profile=opts.profile, code=opts.code, settings_file=getattr(opts, "settings_file", None),
                      overrides=opts.overrides, nvm_path=held.path if held is not None else None,
                      realtime=realtime, getenv_style=opts.getenv_style, max_ms=opts.max_ms,
                      record=bool(opts.record), bots=opts.bots, console=console, log=log,
                      power_cut=opts.power_cut, bot_log=bot_log, battery=opts.battery)
    with session:
        if held is not None and by_hand and log is not err:  # (the terminal's line under the screen)
            log.write("sim: saves in %s\n" % held.path)
        if end is not None:
            session.rig.link_end = end
            log.write("sim: link over TCP: %s\n" % end.state())
            log.flush()

            def changed(text):
                log.write("sim: link over TCP: %s\n" % text)
                log.flush()

            end.on_change = changed
            update = frontend.update

            def update_and_poll(running, now):
                end.poll()  # the status line follows the connection in the menus too
                return update(running, now)

            frontend.update = update_and_poll
        try:
            session.boot(frontend)
            code = _report_outcome(session, frontend, opts, err)
        except (FileNotFoundError, RuntimeError) as exc:
            if not isinstance(exc, FileNotFoundError) and type(exc).__name__ != "NoDisplay":
                raise
            err.write("sim: %s\n" % exc)
            return 1
        except KeyboardInterrupt:
            session.outcome = SimQuit("interrupted")
            err.write("sim: interrupted\n")
            code = 130
        if session.failures:
            if log is not err:  # the line under the screen is gone with the screen
                for bot in session.failures:
                    where = "; its error output is in %s" % bot_log if bot_log else ""
                    err.write("sim: %s; %s played seat %d on%s\n" % (bot.describe(), bot.level, bot.seat, where))
            code = code or 1
        if by_hand and session.outcome != "crashed":
            _goodbye(session, held, err)
        if opts.shot:
            session.save_png(opts.shot, scale=4)
        if opts.record:
            session.save_gif(opts.record, scale=4)
        if opts.status:
            out.write(status_line(session.status()) + "\n")
            out.flush()
    return code


def main(argv=None, out=None, err=None):
    """Command-line entry point; returns the exit status."""
    err = err or sys.stderr
    try:
        opts = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as exc:
        err.write("sim.py: %s\n" % exc)
        return 2
    try:
        if opts.link == PAIR:
            return run_pair(opts, out=out, err=err)
        return run(opts, out=out, err=err)
    except UsageError as exc:
        err.write("sim.py: %s\n" % exc)
        return 2


if __name__ == "__main__":
    sys.exit(main())
