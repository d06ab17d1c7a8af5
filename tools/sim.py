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
    python tools/sim.py --link --consoles 4              # four consoles in a ring, a 2x2 grid (Tab: keys to the next)
    python tools/sim.py --headless --link --consoles 3 --keys A,WAIT:500 --keys2 A,WAIT:500 --keys3 A,WAIT:500 --status
    python tools/sim.py --link 127.0.0.1:7777 --consoles 3 --seat 0   # and --seat 1, --seat 2: a ring over TCP

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
NAMES = "ABCD"  # the consoles of --link, by index
PER_CONSOLE = ("keys", "profile", "lang", "nvm", "shot")  # console B's end in 2 (--keys2), C's in 3, D's in 4


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
                        "sim-PROFILE-link-a.nvm and -link-b.nvm (-link-c.nvm, -link-d.nvm with --consoles 3 or 4), "
                        "with --link HOST:PORT sim-PROFILE-tcp-PORT-listen.nvm or -connect.nvm (in a ring "
                        "-tcp-PORT-seatI.nvm); the folder is $XDG_DATA_HOME/pisti, else ~/.local/share/pisti); "
                        "headless and key-script runs keep no file unless given one"
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
        "link play (RULES.md L-1 .. L-17)",
        "--link alone: two consoles in this process joined by a virtual cable, side by side (terminal or "
        "--window; A on the left plays with w a s d, f = A, g = B; B on the right with the arrows, "
        "Enter = A, Backspace = B), or headless with --keys for console A and --keys2 for console B "
        "(--status prints {\"a\": ..., \"b\": ...}). --link --consoles 3 (or 4): three (four) consoles "
        "in a ring, console A's first UART cabled to B's second, B's first to C's second, ..., the last's "
        "first to A's second (two consoles: their first UARTs, one cable); in the terminal or the window a "
        "2x2 grid (braille when the terminal is small), the keys going to the console in focus: Tab moves "
        "the focus on, 1-4 pick a console; --keys3, --keys4 and the other options ending in 3 or 4 are "
        "consoles C's and D's, --status adds \"c\" and \"d\". --link HOST:PORT: this console's UART is "
        "a TCP connection: the first process started on HOST:PORT listens, the second connects (start the "
        "same command twice, e.g. --link 127.0.0.1:7777 in two terminals); the bytes go as over the cable. "
        "--link HOST:PORT --consoles N --seat I: process I of a ring of N processes: its second UART "
        "listens on PORT+I, its first connects to HOST:PORT+(I+1)%N (start N processes with the same "
        "HOST:PORT and the seats 0 .. N-1; on several machines give each the next seat's machine as HOST).")
    link.add_argument("--link", nargs="?", const=PAIR, metavar="HOST:PORT",
                      help="two (--consoles N: N) linked consoles in this process, or this one linked over TCP to "
                           "HOST:PORT")
    link.add_argument("--consoles", type=int, metavar="N",
                      help="with --link: the consoles of the link, 2 (a cable) or 3 or 4 (a ring; default 2)")
    link.add_argument("--seat", type=int, metavar="I",
                      help="with --link HOST:PORT --consoles 3 or 4: this process's place in the ring, 0 .. N-1")
    link.add_argument("--keys2", metavar="SCRIPT", help="with --link: console B's key script")
    link.add_argument("--profile2", choices=scriptlib.PROFILES, help="with --link: console B's board (default: A's)")
    link.add_argument("--lang2", choices=("en", "tr"), help="with --link: console B's language")
    link.add_argument("--nvm2", metavar="PATH", help="with --link: the file behind console B's nvm (its saves)")
    link.add_argument("--shot2", metavar="FILE.png", help="with --link: console B's last frame as a PNG, 4x")
    link.add_argument("--keys3", metavar="SCRIPT", help="with --link --consoles 3 or 4: console C's key script")
    link.add_argument("--profile3", choices=scriptlib.PROFILES, help="console C's board (default: A's)")
    link.add_argument("--lang3", choices=("en", "tr"), help="console C's language")
    link.add_argument("--nvm3", metavar="PATH", help="the file behind console C's nvm (its saves)")
    link.add_argument("--shot3", metavar="FILE.png", help="console C's last frame as a PNG, 4x")
    link.add_argument("--keys4", metavar="SCRIPT", help="with --link --consoles 4: console D's key script")
    link.add_argument("--profile4", choices=scriptlib.PROFILES, help="console D's board (default: A's)")
    link.add_argument("--lang4", choices=("en", "tr"), help="console D's language")
    link.add_argument("--nvm4", metavar="PATH", help="the file behind console D's nvm (its saves)")
    link.add_argument("--shot4", metavar="FILE.png", help="console D's last frame as a PNG, 4x")
    link.add_argument("--link-loss", type=float, default=0.0, metavar="P",
                      help="with --link: chance a byte on a virtual cable is lost (default 0)")
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
    nvms = [name for name in ("nvm", "nvm2", "nvm3", "nvm4") if getattr(opts, name)]
    if opts.no_nvm and nvms:
        raise UsageError("--no-nvm and --%s: give one (no saves file, or that file)" % nvms[0])
    scripts = [name for name in ("keys", "keys2", "keys3", "keys4") if getattr(opts, name) is not None]
    # played by hand: the console keeps its saves in the data folder unless told otherwise
    opts.keep = not opts.no_nvm and not opts.headless and not (opts.window and scripts)
    opts.auto_max_ms = opts.max_ms is None and (opts.headless or (opts.window and opts.keys is not None))
    if opts.auto_max_ms:
        opts.max_ms = HEADLESS_MAX_MS + sum(ms if name == scriptlib.WAIT else ms[1] for name, ms in opts.steps
                                            if name in (scriptlib.WAIT, scriptlib.UNTIL))
    _link_args(opts)
    for name in ("keys2", "keys3", "keys4"):
        if getattr(opts, name) is not None and not (opts.headless or opts.window):
            raise UsageError("--%s needs --headless (or --window); in the terminal you press the keys" % name)
    if not opts.headless and not opts.window and not sys.stdin.isatty():
        raise UsageError("the terminal simulator needs a terminal on stdin: use --headless (or --window)")
    return opts


def _given(opts, k):
    """The options of console ``k`` (1 = B, 2 = C, 3 = D) given, e.g. ["keys3", "shot3"]."""
    return [name for name in ("%s%d" % (option, k + 1) for option in PER_CONSOLE) if getattr(opts, name)]


def _link_args(opts):
    """--link and its companions, checked; each console's settings in
    ``opts.ring`` (A's from the main options, then B's, C's, D's), B's also
    in ``opts.b``; ``opts.consoles`` the number of consoles."""
    for k in (1, 2, 3):
        given = _given(opts, k)
        if opts.link != PAIR and given:
            where = "two consoles" if k == 1 else "--consoles %d" % (k + 1) + (" or 4" if k == 2 else "")
            raise UsageError("--%s needs --link (%s in this process)" % (given[0], where))
    if not 0 <= opts.link_loss < 1:
        raise UsageError("--link-loss is a probability below 1, not %r" % opts.link_loss)
    if opts.consoles is not None:
        if not 2 <= opts.consoles <= 4:
            raise UsageError("--consoles takes 2, 3 or 4 (the consoles of a link: a cable, or a ring), not %d"
                             % opts.consoles)
        if opts.link is None:
            raise UsageError("--consoles needs --link (alone: the consoles in this process; HOST:PORT: over TCP)")
    count = opts.consoles or 2
    for k in (2, 3):
        given = _given(opts, k)
        if given and k >= count:
            raise UsageError("--%s needs --consoles %s (console %s is the %s of the ring)"
                             % (given[0], "3 or 4" if k == 2 else "4", NAMES[k], ("third", "fourth")[k - 2]))
    if opts.seat is not None and (opts.link in (None, PAIR) or count < 3):
        raise UsageError("--seat needs --link HOST:PORT --consoles 3 or 4 (this process's place in a ring over "
                         "TCP; two processes need no seat)")
    opts.consoles = count
    opts.b = None
    opts.ring = None
    if opts.link is None:
        return
    if opts.link != PAIR:
        from tools.simlib.tcplink import parse_address

        opts.link_address = parse_address(opts.link)
        if count >= 3:
            if opts.seat is None:
                raise UsageError("--link %s --consoles %d: give this process's --seat (0 .. %d), one process "
                                 "for each seat" % (opts.link, count, count - 1))
            if not 0 <= opts.seat < count:
                raise UsageError("--seat %d: a ring of %d consoles has the seats 0 .. %d"
                                 % (opts.seat, count, count - 1))
            if opts.link_address[1] + count - 1 > 65535:
                raise UsageError("--link %s --consoles %d: the ring uses the ports %d .. %d, past 65535"
                                 % (opts.link, count, opts.link_address[1], opts.link_address[1] + count - 1))
        return
    if opts.bots:
        raise UsageError("--bot and --link: outside bots are for one console")
    if opts.drive:
        raise UsageError("--drive and --link: both consoles run this checkout")
    ring = [argparse.Namespace(name="A", profile=opts.profile, buttons=opts.buttons, steps=opts.steps,
                               overrides=opts.overrides, keys=opts.keys, nvm=opts.nvm, nvm_option="--nvm",
                               shot=opts.shot)]
    for k in range(1, count):
        suffix = str(k + 1)
        c = argparse.Namespace(name=NAMES[k], profile=getattr(opts, "profile" + suffix) or opts.profile,
                               keys=getattr(opts, "keys" + suffix), nvm_option="--nvm" + suffix)
        c.buttons = scriptlib.profile_buttons(c.profile)
        c.steps = scriptlib.parse_keys(c.keys, c.buttons, hold_ms=opts.hold)
        c.overrides = dict(opts.overrides)
        lang = getattr(opts, "lang" + suffix)
        if lang:
            c.overrides["PISTI_LANG"] = lang
        if opts.seed is not None:
            c.overrides["PISTI_SEED"] = (opts.seed + k) % 2**30
        for name in ("nvm", "shot"):
            value = getattr(opts, name + suffix)
            if value:
                folder = os.path.dirname(os.path.abspath(value))
                if not os.path.isdir(folder):
                    raise UsageError("--%s%s %s: folder %s does not exist" % (name, suffix, value, folder))
                value = os.path.abspath(value)
            setattr(c, name, value)
        ring.append(c)
    for i, c in enumerate(ring):
        for other in ring[i + 1:]:
            if c.nvm and c.nvm == other.nvm:
                raise UsageError("%s and %s name the same file: each console has its own flash"
                                 % (c.nvm_option, other.nvm_option))
    if opts.auto_max_ms or (opts.max_ms is None and opts.window and any(c.keys is not None for c in ring[1:])):
        waits = [sum(ms if name == scriptlib.WAIT else ms[1] for name, ms in c.steps
                     if name in (scriptlib.WAIT, scriptlib.UNTIL)) for c in ring]
        opts.max_ms = HEADLESS_MAX_MS + max(waits)
    opts.ring = ring
    opts.b = ring[1]


def run_pair(opts, out=None, err=None):
    """--link: two to four consoles in this process; return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    ring = opts.ring
    scripted = any(c.keys is not None for c in ring)
    if opts.headless:
        from tools.simlib.linkfront import PairHeadless

        front = PairHeadless([c.steps for c in ring], wait_ms=opts.wait, idle_ms=opts.idle)
    elif opts.window:
        from tools.simlib.linkfront import PairWindow

        front = PairWindow([c.buttons for c in ring], zoom=opts.zoom,
                           steps=[c.steps for c in ring] if scripted else None,
                           wait_ms=opts.wait, idle_ms=opts.idle)
    else:
        from tools.simlib.linkfront import PairTerminal

        front = PairTerminal([c.buttons for c in ring], cells=opts.cells, hold_ms=opts.hold,
                             long_ms=opts.long_ms)
    realtime = not opts.headless and not scripted
    held = []
    try:
        for c in ring:
            held.append(_saves(opts, c.nvm, c.nvm_option, c.profile, "link-" + c.name.lower(), err))
        return _run_pair(opts, front, realtime, held, out, err)
    finally:
        for claim in held:
            if claim is not None:
                claim.close()


def _cable_status(cables):
    """The bytes on ``cables``: written (at both ends), dropped, corrupted."""
    return {"written": sum(c.a.written + c.b.written for c in cables), "dropped": sum(c.dropped for c in cables),
            "corrupted": sum(c.corrupted for c in cables)}


def _run_pair(opts, front, realtime, held, out, err):
    """run_pair(), its front end made and the consoles' saves files held."""
    from tools.simlib.pair import Pair

    ring = opts.ring
    sessions = []
    for c, claim in zip(ring, held, strict=True):
        console = Console(echo=err if opts.headless else None)
        sessions.append(Session(profile=c.profile, code=opts.code, overrides=c.overrides,
                                nvm_path=claim.path if claim is not None else None, realtime=realtime,
                                getenv_style=opts.getenv_style, max_ms=opts.max_ms, console=console,
                                log=err, power_cut=opts.power_cut if c.name == "A" else None))
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
    drivers = getattr(front, "drivers", None) or [None] * len(ring)
    for c, twin in zip(ring, pair.twins, strict=True):
        name = c.name
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
            driver = drivers[twin.index]
            left = "" if driver is None else " with %d of %d keys played" % (driver.index, len(driver.steps))
            err.write("sim: console %s: stopped at --max-ms %d ms%s\n" % (name, opts.max_ms, left))
            code = 1 if driver is not None else code
        elif s.outcome == "power_cut":
            err.write("sim: console %s: power cut after %d bytes written to nvm\n" % (name, opts.power_cut))
        if realtime and twin.error is None and s.outcome != "crashed":
            _goodbye(s, held[twin.index], err, name)
    for c, twin in zip(ring, pair.twins, strict=True):
        if c.shot:
            twin.session.rig.oled.save_png(c.shot, scale=4)
    if opts.status:
        status = {c.name.lower(): final for c, final in zip(ring, pair.final, strict=True)}
        status["cable"] = _cable_status(pair.cables)
        if len(ring) > 2:  # a ring: cable i from console i's first UART to console i+1's second
            status["cables"] = [dict(_cable_status([cable]), **{"from": NAMES[i].lower(),
                                                               "to": NAMES[(i + 1) % len(ring)].lower()})
                                for i, cable in enumerate(pair.cables)]
        out.write(status_line(status) + "\n")
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


def _tcp_ends(opts, err):
    """--link HOST:PORT: this console's UARTs over TCP, [(end, label, rig
    attribute)]: the one UART of two processes (label ""), or a ring's first
    and second UART (labels naming the seat each goes to); [] without
    --link HOST:PORT. Raises OSError (said on ``err``)."""
    tcp = getattr(opts, "link_address", None)
    if tcp is None:
        return []
    from tools.simlib.tcplink import TcpEnd, ring_addresses

    if opts.consoles < 3:
        try:
            return [(TcpEnd(tcp), "", "link_end")]
        except OSError as exc:
            err.write("sim: --link %s:%d: %s\n" % (tcp[0], tcp[1], exc))
            raise
    count, seat = opts.consoles, opts.seat
    first, second = ring_addresses(tcp, seat, count)
    try:
        listener = TcpEnd(second, role="listen")
    except OSError as exc:
        err.write("sim: --link %s:%d --seat %d: cannot listen on port %d for the second UART (is another "
                  "process seat %d?): %s\n" % (tcp[0], tcp[1], seat, second[1], seat, exc))
        raise
    return [(TcpEnd(first, role="connect"), " (seat %d, first UART, to seat %d)" % (seat, (seat + 1) % count),
             "link_end"),
            (listener, " (seat %d, second UART, from seat %d)" % (seat, (seat - 1) % count), "link_end2")]


def run(opts, out=None, err=None):
    """Boot the firmware with ``opts`` (from :func:`parse_args`); return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        ends = _tcp_ends(opts, err)
    except OSError:
        return 1
    held = None
    try:
        frontend = make_frontend(opts)
        # The terminal shows device output and notes under the screen, not on stderr.
        console = getattr(frontend, "console", None)
        log = console or err
        if not ends:
            name = None
        elif len(ends) == 1:
            name = "tcp-%d-%s" % (ends[0][0].address[1], ends[0][0].role)
        else:
            name = "tcp-%d-seat%d" % (opts.link_address[1], opts.seat)
        held = _saves(opts, opts.nvm, "--nvm", opts.profile, name, log)
        return _run(opts, frontend, console or Console(echo=err), log, ends, held, out, err)
    finally:
        for end, _, _ in ends:
            end.close()
        if held is not None:
            held.close()


def _run(opts, frontend, console, log, ends, held, out, err):
    """run(), its front end, link ends and saves file made."""
    by_hand = not opts.headless and opts.keys is None
    realtime = by_hand or bool(ends)  # processes linked: each clock follows real time, so the link's timers agree
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
        if ends:
            for end, label, attribute in ends:
                setattr(session.rig, attribute, end)
                log.write("sim: link over TCP%s: %s\n" % (label, end.state()))
                log.flush()

                def changed(text, label=label):
                    log.write("sim: link over TCP%s: %s\n" % (label, text))
                    log.flush()

                end.on_change = changed
            update = frontend.update

            def update_and_poll(running, now):
                for end, _, _ in ends:
                    end.poll()  # the status line follows the connections in the menus too
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
