# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The desktop simulator (tools/sim.py): headless runs of the real firmware,
key scripts, PNG / GIF / status output, outside bots, the window and terminal
front ends. The golden screenshots are tests/test_gallery.py's (every scene
in tools/gallery.py; ``python tools/gallery.py`` makes them again).
"""

import io
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import time

import pytest
from PIL import Image

from tools import sim
from tools.shims.ssd1306 import Ssd1306
from tools.simlib import render
from tools.simlib.script import UsageError, parse_keys, parse_start, profile_buttons
from tools.simlib.terminal import QUIT, compose, parse_input, terminal_keymap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
GOLDEN = os.path.join(ROOT, "tests", "golden")
EXAMPLE_BOT = os.path.join(ROOT, "tools", "examples", "example_bot.py")
PICO = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
FIELDS = ("screen", "game", "players", "hand", "ply", "totals")


def run_sim(*args):
    """tools/sim.py in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = sim.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def status_of(stdout):
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert len(lines) == 1, stdout
    return json.loads(lines[0])


def lit_pixels(path):
    image = Image.open(path).convert("L")
    return sum(1 for v in image.tobytes() if v)


# -- key scripts and options ------------------------------------------------------------


def test_key_script_parsing():
    assert parse_keys("A*3,RIGHT,A", PICO) == [("A", 60)] * 3 + [("RIGHT", 60), ("A", 60)]
    assert parse_keys(" up , b:900 ,down*2", PICO, hold_ms=80) == [("UP", 80), ("B", 900), ("DOWN", 80), ("DOWN", 80)]
    assert parse_keys("B:700*2", PICO) == [("B", 700), ("B", 700)]
    assert parse_keys("", PICO) == [] and parse_keys(None, PICO) == []
    assert profile_buttons("pico") == PICO
    assert profile_buttons("featherwing") == ("A", "B", "C")
    assert parse_keys("C*2", profile_buttons("featherwing")) == [("C", 60), ("C", 60)]
    for bad, words in (("JUMP", "unknown key 'JUMP'"), ("A*0", "repeat count"), ("A**2", "bad step"),
                       ("A,,B", "empty step"), ("A*", "bad step"), ("B:0", "hold time"), ("A*1001", "repeat")):
        with pytest.raises(UsageError, match=words.replace("*", r"\*")):
            parse_keys(bad, PICO)
    with pytest.raises(UsageError, match="buttons: A B C"):
        parse_keys("UP", profile_buttons("featherwing"))


def test_start_parsing():
    assert parse_start("pisti:2:usta") == ("pisti", 2, "usta")
    assert parse_start("yedili:4:usta,kalfa,acemi") == ("yedili", 4, "usta,kalfa,acemi")
    for bad in ("chess:2:usta", "pisti:3:usta", "yedili:5:kalfa", "pisti:2:grandmaster", "pisti:2",
                "yedili:4:usta,kalfa", "pisti:two:usta"):
        with pytest.raises(UsageError):
            parse_start(bad)


@pytest.mark.parametrize("args, words", [
    (["--headless", "--keys", "A,JUMP"], "unknown key 'JUMP'"),
    (["--headless", "--start", "pisti:3:usta"], "2 or 4 players"),
    (["--headless", "--start", "backgammon:2:usta"], "pisti or yedili"),
    (["--headless", "--profile", "uno"], "invalid choice"),
    (["--headless", "--target", "99"], "invalid choice"),
    (["--headless", "--bot", "one=./x.py"], "SEAT=PROGRAM"),
    (["--headless", "--start", "pisti:2:usta", "--bot", "2=" + EXAMPLE_BOT], "seats 0..1"),
    (["--headless", "--bot", "1=/nonexistent/bot.py"], "no such file"),
    (["--headless", "--shot", "/nonexistent/dir/out.png"], "does not exist"),
    (["--window", "--headless"], "not allowed with"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, words):
    shot = tmp_path / "never.png"
    extra = ["--status"] if "--shot" in args else ["--status", "--shot", str(shot)]
    code, out, err = run_sim(*args, *extra)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert not shot.exists()


# -- headless runs of the firmware -------------------------------------------------------


def test_readme_headless_command_end_to_end(tmp_path):
    """The README's example, as a subprocess, exactly as a script would run it."""
    proc = subprocess.run(
        [sys.executable, SIM, "--headless", "--start", "pisti:2:usta", "--keys", "A*3,RIGHT,A",
         "--shot", "out.png", "--status"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    status = status_of(proc.stdout)
    for key in FIELDS + ("level", "turn", "your_hand", "legal", "message", "frames", "i2c_bytes"):
        assert key in status, key
    assert status["screen"] == "table"
    assert (status["game"], status["players"], status["level"]) == ("pisti", 2, "usta")
    assert status["hand"] == 1 and status["ply"] >= 1 and len(status["totals"]) == 2
    assert status["frames"] >= 2 and status["i2c_bytes"] > 1037
    image = Image.open(tmp_path / "out.png")
    assert image.size == (512, 256)
    assert 500 < lit_pixels(tmp_path / "out.png") < 512 * 256 - 500


def test_same_seed_same_run_and_another_seed_differs(tmp_path):
    args = ["--headless", "--start", "pisti:2:usta", "--keys", "A,RIGHT,A,A", "--status"]
    runs = []
    for index, seed in enumerate(("11", "11", "12")):
        shot = tmp_path / ("%d.png" % index)
        code, out, err = run_sim(*args, "--seed", seed, "--shot", str(shot))
        assert code == 0, err
        runs.append((status_of(out), shot.read_bytes()))
    assert runs[0] == runs[1]
    assert runs[0][0]["your_hand"] != runs[2][0]["your_hand"] or runs[0][0]["bottom"] != runs[2][0]["bottom"]


def test_record_gif_has_the_frames_and_ends_on_the_shot(tmp_path):
    gif, png = tmp_path / "run.gif", tmp_path / "end.png"
    code, out, err = run_sim("--headless", "--start", "yedili:3:kalfa", "--seed", "5", "--keys", "RIGHT,A,A",
                             "--record", str(gif), "--shot", str(png), "--status")
    assert code == 0, err
    status = status_of(out)
    image = Image.open(gif)
    assert image.size == (512, 256)
    assert image.n_frames >= 3
    durations, pictures = [], []
    for index in range(image.n_frames):
        image.seek(index)
        durations.append(image.info["duration"])
        pictures.append(image.convert("L").tobytes())
    assert all(d >= 20 for d in durations)
    assert all(a != b for a, b in zip(pictures, pictures[1:], strict=False))  # identical neighbours are merged
    assert sum(durations) <= status["ms"] + 500  # virtual-time durations, not wall time
    assert pictures[-1] == Image.open(png).convert("L").tobytes()


def test_settle_waits_for_the_bots_and_max_ms_stops(tmp_path):
    # Yedili with 4 players: after the person's play three bots move, each held
    # on screen for the bot delay; the script must not press on before.
    code, out, err = run_sim("--headless", "--start", "yedili:4:acemi", "--seed", "3", "--status")
    assert code == 0, err
    status = status_of(out)
    assert status["screen"] == "table" and status["turn"] == 0 and not status["holding"]
    code, out, err = run_sim("--headless", "--seed", "3", "--keys", "A*50", "--max-ms", "3000", "--status")
    assert code == 1
    assert "--max-ms 3000" in err and "of 50 keys" in err
    assert status_of(out)["ms"] == 3000


def test_featherwing_profile_and_overrides(tmp_path):
    shot, nvm = tmp_path / "wing.png", tmp_path / "nvm.bin"
    code, out, err = run_sim("--headless", "--profile", "featherwing", "--start", "pisti:2:kalfa", "--seed", "2",
                             "--lang", "tr", "--target", "101", "--nvm", str(nvm), "--shot", str(shot), "--status")
    assert code == 0, err
    status = status_of(out)
    assert (status["screen"], status["lang"], status["target"]) == ("table", "tr", 101)
    assert Image.open(shot).size == (512, 128)
    assert nvm.stat().st_size == 4096  # --nvm reached microcontroller.nvm


MINI_APP = """\
import time
import board, keypad

current = None


class App:
    def __init__(self):
        pins = (board.GP10, board.GP11, board.GP12, board.GP13, board.GP14, board.GP15)
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.log = []

    def tick(self):
        event = self.keys.events.get()
        while event:
            self.log.append([event.key_number, event.pressed, event.timestamp])
            event = self.keys.events.get()

    def status(self):
        return {"screen": "log", "log": self.log}


def run():
    global current
    current = App()
    while True:
        current.tick()
        time.sleep(0.01)
"""


@pytest.mark.parametrize("idle", [None, 500])
def test_key_script_timing_without_app_idle(tmp_path, idle):
    """A firmware with no display and no app.idle(): each key is pressed once the
    screen has been still for --idle ms, held its hold time, then released."""
    (tmp_path / "lib" / "pisti_app").mkdir(parents=True)
    (tmp_path / "lib" / "pisti_app" / "__init__.py").write_text(MINI_APP)
    (tmp_path / "code.py").write_text("import pisti_app\npisti_app.run()\n")
    extra = [] if idle is None else ["--idle", str(idle)]
    code, out, err = run_sim("--headless", "--code", str(tmp_path / "code.py"), "--keys", "A,B:900,UP*2",
                             "--status", *extra)
    assert code == 0, err
    status = status_of(out)
    log = status["log"]
    assert [(k, p) for k, p, _ in log] == [(4, True), (4, False), (5, True), (5, False),
                                           (0, True), (0, False), (0, True), (0, False)]
    stamps = [t for _, _, t in log]
    holds = [stamps[i + 1] - stamps[i] for i in range(0, 8, 2)]
    gaps = [stamps[i + 1] - stamps[i] for i in range(1, 7, 2)]
    assert holds == [60, 900, 60, 60]
    assert gaps == [idle or 1200] * 3
    assert status["frames"] == 0 and status["ms"] == stamps[-1] - stamps[0] + log_start(stamps[0]) + (idle or 1200)


def log_start(first_stamp):
    """Virtual ms of the first press, from its ticks_ms stamp (CircuitPython's start)."""
    from tools.shims.clock import CIRCUITPY_TICKS_START

    return first_stamp - CIRCUITPY_TICKS_START


def test_firmware_crash_is_reported(tmp_path):
    code_py = tmp_path / "code.py"
    code_py.write_text("import time\ntime.sleep(0.5)\nraise RuntimeError('display on fire')\n")
    code, out, err = run_sim("--headless", "--code", str(code_py), "--status")
    assert code == 1
    assert "RuntimeError: display on fire" in err and "the firmware crashed" in err
    assert status_of(out)["screen"] is None


# -- outside bots -------------------------------------------------------------------------


LOG_BOT = """\
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    msg = json.loads(line)
    log.write(json.dumps([msg["seat"], msg["legal"][-1], msg["legal"]]) + "\\n")
    log.flush()
    print(msg["legal"][-1], flush=True)
"""


def test_outside_bot_takes_its_seat_from_the_first_move(tmp_path):
    bot, log = tmp_path / "logbot.py", tmp_path / "decisions.jsonl"
    bot.write_text(LOG_BOT)
    command = "%s %s %s" % (sys.executable, bot, log)
    code, out, err = run_sim("--headless", "--start", "pisti:2:usta", "--seed", "3", "--bot", "1=" + command,
                             "--keys", "A*4", "--status")
    assert code == 0, err
    assert "seat 1 is played by" in err
    status = status_of(out)
    decisions = [json.loads(line) for line in log.read_text().splitlines()]
    # Seed 3 deals with seat 0 dealing, so seat 1 leads (P-6): every bot
    # move of the run, the first included, came from the outside program.
    assert status["dealer"] == 0
    assert len(decisions) == (status["ply"] + 1) // 2
    assert all(seat == 1 and action in legal for seat, action, legal in decisions)


# Outside bots that fail, each its own way: a built-in bot takes the seat and the game goes on.
FAILING_BOTS = {
    "crashes_at_start": "raise SystemExit(3)\n",
    "crashes_mid_game": ("import json, sys\n"
                         "for n, line in enumerate(sys.stdin):\n"
                         "    if n == 2:\n"
                         "        raise RuntimeError('my bot broke mid-game')\n"
                         "    print(json.loads(line)['legal'][0], flush=True)\n"),
    "answers_garbage": "import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n",
    "answers_illegal": ("import json, sys\n"
                        "for line in sys.stdin:\n"
                        "    legal = json.loads(line)['legal']\n"
                        "    cards = [r + s for r in 'A23456789TJQK' for s in 'CDHS']\n"
                        "    print([c for c in cards if c not in legal][0], flush=True)\n"),
    "hangs": "import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n",
    "cannot_start": None,
}
FAILURE_WORDS = {"crashes_at_start": "stopped (exit code 3)", "crashes_mid_game": "stopped (exit code 1)",
                 "answers_garbage": "answered with something that is not an action",
                 "answers_illegal": "answered with an illegal action", "hangs": "gave no answer within 0.5 s",
                 "cannot_start": "could not be started"}


@pytest.mark.parametrize("how", sorted(FAILING_BOTS))
def test_a_failing_outside_bot_gives_its_seat_to_a_built_in_bot_and_the_game_goes_on(how, tmp_path, monkeypatch):
    from tools import botproto

    # a short wait for the bot that hangs; the others get time to start on a busy machine, so that
    # each fails its own way and not by silence
    monkeypatch.setattr(botproto, "DEFAULT_TIMEOUT", 0.5 if how == "hangs" else 10.0)
    if FAILING_BOTS[how] is None:  # a program that is there but cannot run (its interpreter is missing)
        command = str(tmp_path / "bad-interpreter")
        (tmp_path / "bad-interpreter").write_text("#!/no/such/interpreter\n")
        (tmp_path / "bad-interpreter").chmod(0o755)
    else:
        command = str(tmp_path / "bad.py")
        (tmp_path / "bad.py").write_text(FAILING_BOTS[how])
    log = tmp_path / "bots.log"
    code, out, err = run_sim("--headless", "--start", "pisti:2:kalfa", "--seed", "3", "--bot", "1=" + command,
                             "--bot-log", str(log), "--keys", "A*4", "--status")
    assert code == 1, err  # the run says a bot failed ...
    status = status_of(out)
    assert status["screen"] == "table" and status["ply"] >= 8, err  # ... and the game went on: 4 plays each side
    notice = [line for line in err.splitlines() if "the outside bot failed" in line]
    assert len(notice) == 1, err  # one line, once
    assert notice[0].startswith("sim: the outside bot failed, kalfa plays seat 1 on; its error output is in %s; "
                                % log), notice  # the seat's own level
    assert FAILURE_WORDS[how] in notice[0] and "in seat 1" in notice[0]
    assert "Traceback" not in err


def test_a_failing_bot_in_the_persons_seat_gives_it_to_usta(tmp_path):
    bot = tmp_path / "chatty.py"
    bot.write_text(FAILING_BOTS["answers_garbage"])
    code, out, err = run_sim("--headless", "--start", "pisti:2:acemi", "--seed", "4", "--bot", "0=" + str(bot),
                             "--wait", "20000", "--status")
    assert code == 1
    assert "sim: the outside bot failed, usta plays seat 0 on; the outside bot %s in seat 0 answered" % bot in err
    assert "'hello'" in err
    assert status_of(out)["ply"] >= 8  # nobody pressed a key: seat 0 played on by itself


def test_example_bot_plays_for_the_person(tmp_path):
    if not os.path.exists(EXAMPLE_BOT):
        pytest.skip("tools/examples/example_bot.py is not there")
    code, out, err = run_sim("--headless", "--start", "pisti:2:acemi", "--seed", "4", "--bot", "0=" + EXAMPLE_BOT,
                             "--wait", "20000", "--status")
    assert code == 0, err
    status = status_of(out)
    assert status["ply"] >= 8  # nobody pressed a key: seat 0 played by itself


# -- front ends ----------------------------------------------------------------------------


def test_window_scripted_matches_headless(tmp_path):
    """--window with a key script: the keys go through pygame's event queue and
    the window's key map, on the virtual clock, and end where headless ends."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    args = ["--start", "pisti:2:usta", "--seed", "21", "--keys", "RIGHT*2,A,B,DOWN,A", "--status"]
    proc = subprocess.run([sys.executable, SIM, "--window", "--shot", "w.png"] + args, cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    window = status_of(proc.stdout)
    code, out, err = run_sim("--headless", "--shot", str(tmp_path / "h.png"), *args)
    assert code == 0, err
    headless = status_of(out)
    assert window == headless
    assert (tmp_path / "w.png").read_bytes() == (tmp_path / "h.png").read_bytes()


def test_window_without_a_display_is_one_line_of_our_own():
    # SDL's "XDG_RUNTIME_DIR is invalid" must not come before the project's message.
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "SDL_VIDEODRIVER")}
    proc = subprocess.run([sys.executable, SIM, "--window"], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 1
    assert proc.stderr == ("sim: no screen for a window (SDL video driver 'offscreen'): run it on a desktop, "
                           "or play in the terminal (bash tools/play.sh)\n")


def test_window_keymap():
    from tools.simlib.window import QUIT as WQUIT, window_keymap
    import pygame

    keymap = window_keymap(PICO)
    assert {name for name in keymap.values() if name != WQUIT} == set(PICO)
    assert keymap[pygame.K_LEFT] == "LEFT" and keymap[pygame.K_z] == "A" and keymap[pygame.K_ESCAPE] == "B"
    assert keymap[pygame.K_q] == WQUIT
    wing = window_keymap(("A", "B", "C"))
    assert wing[pygame.K_UP] == "A" and wing[pygame.K_DOWN] == "C" and wing[pygame.K_RETURN] == "B"


def test_terminal_input_and_keymap():
    assert parse_input(b"\x1b[A\x1b[B\x1b[C\x1b[D") == ["UP", "DOWN", "RIGHT", "LEFT"]
    assert parse_input(b"\x1bOA\x1b[1;2D") == ["UP", "LEFT"]  # SS3 arrows, Shift+Left
    assert parse_input(b"z \r\n\x7f\x1b") == ["z", "SPACE", "ENTER", "ENTER", "BACKSPACE", "ESC"]
    assert parse_input(b"\x1b[15~q\x03") == ["q", QUIT]  # F5 dropped
    assert parse_input("ş".encode()) == ["ş"]
    keymap = terminal_keymap(PICO)
    assert keymap["UP"] == ("UP", False) and keymap["ENTER"] == ("A", False) and keymap["z"] == ("A", False)
    assert keymap["ESC"] == ("B", False) and keymap["X"] == ("B", True) and keymap["B"] == ("B", True)
    assert keymap["q"] == QUIT
    wing = terminal_keymap(("A", "B", "C"))
    assert wing["c"] == ("C", False) and wing["RIGHT"] == ("C", False) and wing["ESC"] == ("B", True)


def test_terminal_renderer_known_frames():
    rows = [[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]]
    assert render.render_half(rows) == ["\u2580 \u2588\u2584", "\u2580\u2580\u2580\u2580"]
    assert render.render_braille(rows) == [chr(0x2800 + 0x01 + 0x04 + 0x20)
                                           + chr(0x2800 + 0x01 + 0x02 + 0x10 + 0x04 + 0x20)]
    assert render.render_braille([[0, 0], [0, 0]]) == [" "]
    # A whole frame from the SSD1306 emulator: the same text as its own to_text().
    oled = Ssd1306(128, 64)
    oled.i2c_write(b"\x00\x20\x00\x21\x00\x7f\x22\x00\x07\xa1\xc8\x8d\x14\xaf")
    oled.i2c_write(b"\x40" + bytes((x * 37 + 11) & 0xFF for x in range(1024)))
    rows = oled.rows(lit=True)
    assert render.render_half(rows) == oled.to_text().split("\n")
    lines = compose(rows, "half", 128, "help", "info", "serial", color=False)
    assert len(lines) == 32 + 2 + 3
    assert lines[0] == "\u250c" + "\u2500" * 128 + "\u2510" and lines[33] == "\u2514" + "\u2500" * 128 + "\u2518"
    assert all(len(line) == 130 and line[0] == line[-1] == "\u2502" for line in lines[1:33])
    assert lines[34:] == ["help", "info", "serial> serial"]
    small = compose(rows, "braille", 128, "h", color=False)
    assert len(small) == 16 + 2 + 2 and len(small[1]) == 66


def _read_until(fd, needle, buffer, deadline_s=60):
    end = time.monotonic() + deadline_s
    while needle not in buffer:
        left = end - time.monotonic()
        assert left > 0, "no %r in the terminal output: %r" % (needle, buffer[-400:])
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            assert chunk, "the simulator closed the terminal: %r" % buffer[-400:]
            buffer += chunk
    return buffer


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_terminal_mode_in_a_pty():
    """The default front end in a real (pseudo) terminal: draws, takes a key, quits, restores."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 132, 0, 0))
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, SIM, "--seed", "1", "--status"], stdin=slave, stdout=slave,
                            stderr=slave, cwd=ROOT, close_fds=True)
    try:
        out = _read_until(master, b"screen splash", b"")
        assert b"\x1b[?1049h" in out and "\u2588".encode() in out and b"q quit" in out
        os.write(master, b"z")  # A: leave the splash for the main menu
        out = _read_until(master, b"screen menu", out)
        os.write(master, b"q")
        out = _read_until(master, b'"screen": "menu"', out)
        assert proc.wait(timeout=30) == 0
        assert termios.tcgetattr(slave)[3] == before[3]  # echo and canonical mode are back
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    assert b"\x1b[?1049l" in out and b"\x1b[?25h" in out


def test_the_key_help_wraps_at_the_terminal_width():
    from tools.simlib.terminal import help_line, wrap_help

    for buttons in (PICO, profile_buttons("featherwing")):
        text = help_line(buttons)
        for columns in (40, 80, 200):
            lines = wrap_help(text, columns)
            assert all(len(line) <= columns for line in lines), lines
            assert " | ".join(lines) == text  # nothing lost, items whole
    assert wrap_help("abcdef | gh", 4) == ["abcd", "gh"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_an_80x24_terminal_shows_all_the_key_help_and_how_to_get_the_larger_picture():
    # In 80x24 the key help must not be cut at column 80 ("q quit" shown).
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, SIM, "--seed", "1"], stdin=slave, stdout=slave, stderr=slave,
                            cwd=ROOT, close_fds=True)
    try:
        out = _read_until(master, b"screen splash", b"")
        os.write(master, b"q")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    text = out.decode("utf-8", "replace")
    assert "X = long B (menu) | Z = long A | q quit" in text
    assert "a 130x36 terminal (or --window) shows the larger picture" in text
    frame = text[text.rindex("\x1b[H"):]
    shown = [line for line in frame.replace("\x1b[K", "").split("\r\n")]
    assert len(shown) <= 24 and all(len(line) <= 80 for line in shown if "\x1b" not in line), shown


CRASHING_BOT = "import sys\nsys.stdin.readline()\nraise RuntimeError('my bot broke here')\n"


def test_an_outside_bots_traceback_goes_to_the_bot_log(tmp_path):
    bot = tmp_path / "crash.py"
    bot.write_text(CRASHING_BOT)
    log = tmp_path / "bots.log"
    code, out, err = run_sim("--headless", "--start", "pisti:2:usta", "--seed", "3", "--bot", "1=" + str(bot),
                             "--bot-log", str(log))
    assert code == 1 and "Traceback" not in err, err
    assert "in seat 1 stopped (exit code 1)" in err and "its error output is in %s;" % log in err
    text = log.read_text()
    assert text.startswith("--- seat 1: %s (started " % bot)
    assert "Traceback" in text and "RuntimeError: my bot broke here" in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_in_the_terminal_a_failed_bot_is_named_under_the_screen_with_its_log_and_the_game_goes_on():
    # The interactive simulator's screen would wipe the bot's traceback: it is kept in a log the notice names.
    import fcntl
    import termios
    import tempfile

    tmp = tempfile.mkdtemp(prefix="pisti-botlog-")
    bot = os.path.join(tmp, "crash.py")
    with open(bot, "w", encoding="utf-8") as f:
        f.write(CRASHING_BOT)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    proc = subprocess.Popen([sys.executable, SIM, "--start", "pisti:2:usta", "--seed", "3", "--bot", "1=" + bot],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, close_fds=True)
    log = os.path.join(tempfile.gettempdir(), "pisti-bots-%d.log" % proc.pid)
    try:
        notice = b"serial> sim: the outside bot failed, usta plays seat 1 on; its error output is in " + log.encode()
        out = _read_until(master, notice, b"")
        os.write(master, b"a")  # the game goes on: the person plays a card, usta answers
        out = _read_until(master, b"ply 3", out)
        assert proc.poll() is None
        os.write(master, b"q")
        out = _read_until(master, b"start again and choose Continue", out)
        assert proc.wait(timeout=30) == 1
        with open(log, encoding="utf-8") as f:
            text = f.read()
        assert "RuntimeError: my bot broke here" in text and "Traceback" in text
        # on the terminal after the screen is gone: the failure in one line, not the traceback
        after = out.split(b"\x1b[?1049l")[-1]
        assert b"my bot broke here" not in after
        assert b"in seat 1 stopped (exit code 1) instead of answering; usta played seat 1 on; " \
               b"its error output is in " + log.encode() in after
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
        shutil.rmtree(tmp, ignore_errors=True)
        if os.path.exists(log):
            os.remove(log)


def test_play_sh_runs_the_simulator(tmp_path):
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    proc = subprocess.run([bash, os.path.join(ROOT, "tools", "play.sh"), "--headless", "--keys", "NOPE"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 2 and "unknown key 'NOPE'" in proc.stderr


# -- golden screenshots: tests/test_gallery.py (the scenes are in tools/gallery.py) --------


def test_T1_T4_rated_game_saved_to_nvm_resumes_after_a_restart(tmp_path):
    """--rated and --nvm: a rated game is saved as it goes; switching off and on
    (a new run on the same nvm file) continues the same hand at the same point
    (T-4: losing power is not leaving; T-6)."""
    nvm = str(tmp_path / "nvm.bin")
    code, out, err = run_sim("--headless", "--start", "pisti:2:usta", "--rated", "--seed", "5",
                             "--nvm", nvm, "--keys", "A*6", "--status")
    assert code == 0, err
    first = status_of(out)
    assert first["rated"] is True and first["screen"] == "table" and first["ply"] > 0
    assert first["nvm"]["state"] == "ok" and isinstance(first["nvm"]["erases"], int)
    assert first["rankings"] == {}
    code, out, err = run_sim("--headless", "--nvm", nvm, "--seed", "9", "--keys", "A,A", "--status")
    assert code == 0, err
    again = status_of(out)
    assert again["screen"] == "table" and again["rated"] is True
    for key in ("ply", "your_hand", "pile", "totals", "hand"):
        assert again[key] == first[key], key


def test_power_cut_after_bytes_ends_the_run_and_the_next_boot_recovers(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    code, out, err = run_sim("--headless", "--start", "pisti:2:usta", "--rated", "--seed", "5",
                             "--nvm", nvm, "--keys", "A*6", "--power-cut-after-bytes", "40", "--status")
    assert code == 0 and "power cut after 40 bytes" in err
    assert status_of(out)["power_cut"] is True
    code, out, err = run_sim("--headless", "--nvm", nvm, "--keys", "", "--status")
    assert code == 0, err
    st = status_of(out)
    assert st["power_cut"] is False and st["nvm"]["state"] in ("ok", "recovered")
    assert st["screen"] in ("splash", "menu")


def test_rated_needs_start_and_cut_must_not_be_negative():
    for args in (["--headless", "--rated"], ["--headless", "--power-cut-after-bytes", "-1"]):
        code, out, err = run_sim(*args)
        assert code == 2 and err.count("\n") == 1


# -- the saves file of a console played by hand -------------------------------------------


def _play_in_a_pty(args, keys, env):
    """tools/sim.py ``args`` in a 132x40 pty: press each of ``keys`` (a byte string) once the
    screen shows its needle ((needle, key) pairs), then q; returns (exit status, all output)."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 132, 0, 0))
    proc = subprocess.Popen([sys.executable, SIM] + args, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                            close_fds=True, env=env)
    out = b""
    try:
        for needle, key in keys:
            out = _read_until(master, needle, out)
            os.write(master, key)
        code = proc.wait(timeout=30)
        while True:  # what it wrote after the screen was gone
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    return code, out.split(b"\x1b[?1049l")[-1].decode("utf-8", "replace")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_the_terminal_keeps_its_saves_in_the_data_folder_and_q_mid_game_says_the_game_is_kept(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    nvm = tmp_path / "data" / "pisti" / "sim-pico.nvm"
    # Seat 1 leads (seed 3): the person plays a card, then quits mid-game with q.
    code, after = _play_in_a_pty(["--start", "pisti:2:usta", "--seed", "3"],
                                 [(b"serial> sim: saves in %s" % str(nvm).encode(), b""), (b"ply 1", b"z"),
                                  (b"ply 3", b"q")], env)
    assert code == 0, after
    assert "sim: the game is kept in %s: start again and choose Continue" % nvm in after
    # Started again (on the same file), the console has the game to Continue.
    code, out, err = run_sim("--headless", "--nvm", str(nvm), "--keys", "A", "--status")
    assert code == 0, err
    assert status_of(out)["saved"] is True
    # Quit at the menu: where the saves are.
    code, after = _play_in_a_pty(["--seed", "3"], [(b"screen splash", b"z"), (b"screen menu", b"q")], env)
    assert code == 0 and "sim: saves kept in %s" % nvm in after, after
    assert os.listdir(tmp_path / "data" / "pisti") == ["sim-pico.nvm"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
@pytest.mark.parametrize("flag", ["--no-nvm", "--fresh"])
def test_no_nvm_keeps_no_saves_file_and_q_mid_game_says_the_game_is_not_kept(flag, tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    code, after = _play_in_a_pty(["--start", "pisti:2:usta", "--seed", "3", flag],
                                 [(b"ply 1", b"z"), (b"ply 3", b"q")], env)
    assert code == 0 and "sim: the game is not kept: this run has no saves file" in after, after
    assert not (tmp_path / "data").exists()


def test_headless_runs_keep_no_saves_file_unless_told(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    code, out, err = run_sim("--headless", "--start", "pisti:2:usta", "--seed", "3", "--keys", "A*2", "--status")
    assert code == 0, err
    assert not (tmp_path / "data").exists() and "saves" not in err


def test_the_help_names_the_saves_file_and_how_to_keep_none(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "2000")  # (argparse would wrap the path at its hyphens)
    text = " ".join(sim.build_parser().format_help().split())
    assert "the default is %s" % os.path.join(str(tmp_path), "pisti", "sim-pico.nvm") in text
    assert "--no-nvm, --fresh" in text and "sim-PROFILE-link-a.nvm" in text
    assert "sim-PROFILE-tcp-PORT-listen.nvm" in text and "$XDG_DATA_HOME/pisti, else ~/.local/share/pisti" in text
    code, out, err = run_sim("--headless", "--no-nvm", "--nvm", str(tmp_path / "x.nvm"))
    assert code == 2 and "--no-nvm and --nvm: give one" in err


def test_each_console_has_a_saves_file_of_its_own(tmp_path, monkeypatch):
    from tools.simlib import nvmfile

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    names = [nvmfile.default_path("pico", console) for console in
             (None, "link-a", "link-b", "tcp-7777-listen", "tcp-7777-connect")]
    assert len(set(names)) == 5 and all(os.path.dirname(n) == str(tmp_path / "pisti") for n in names)
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # not absolute: ignored, as XDG says
    assert nvmfile.default_path("pico") == str(tmp_path / "home" / ".local" / "share" / "pisti" / "sim-pico.nvm")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    # Two simulators on one machine never share a flash: a default file in use gives way to the next ...
    first = nvmfile.claim(names[0], spares=True)
    second = nvmfile.claim(names[0], spares=True)
    try:
        assert first.path == names[0] and second.path == str(tmp_path / "pisti" / "sim-pico-2.nvm")
        # ... and a file named with --nvm that another simulator has open is refused in one line.
        code, out, err = run_sim("--headless", "--nvm", names[0], "--status")
        assert code == 2 and not out
        assert err == "sim.py: --nvm %s: another simulator has this file open (each console has its own flash)\n" \
            % names[0]
    finally:
        first.close()
        second.close()
    code, out, err = run_sim("--headless", "--nvm", names[0], "--status")  # let go: free again
    assert code == 0, err
