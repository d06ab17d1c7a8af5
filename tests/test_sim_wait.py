# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The simulator leaves the console alone: the key script
step ``WAIT:MS`` runs the virtual clock that long with no key, and
``--status`` reports the display as the SSD1306 emulator's registers have it
(``on``, ``brightness``, ``contrast``) and ``demo``.
"""

import io
import json

import pytest

from tools import sim
from tools.simlib.script import UsageError, parse_keys

PICO = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
TICKS_PERIOD = 1 << 29


def run_sim(*args):
    """tools/sim.py in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = sim.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def status_of(stdout):
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert len(lines) == 1, stdout
    return json.loads(lines[0])


def test_wait_steps_parse_and_bad_ones_are_one_sentence():
    assert parse_keys("A,WAIT:200000,A", PICO) == [("A", 60), ("WAIT", 200000), ("A", 60)]
    assert parse_keys("wait:500*3", PICO) == [("WAIT", 500)] * 3
    for bad, words in (("WAIT", "say how long"), ("WAIT:0", "wait time"), ("WAIT:86400001", "wait time"),
                       ("A+WAIT", "step of its own"), ("WAIT:5*0", "repeat count")):
        with pytest.raises(UsageError, match=words):
            parse_keys(bad, PICO)


def test_a_bad_wait_changes_nothing_and_exits_2(tmp_path):
    shot = tmp_path / "never.png"
    code, out, err = run_sim("--headless", "--keys", "A,WAIT", "--shot", str(shot), "--status")
    assert code == 2 and out == "" and "WAIT:MS" in err and len(err.strip().splitlines()) == 1
    assert not shot.exists()


# A firmware with no screen that logs its key events and, on A, sets the real
# SSD1306 driver's brightness, on B puts the display to sleep, on UP wakes it.
MINI_APP = """\
import time
import board, busio, displayio, keypad
from i2cdisplaybus import I2CDisplayBus
import adafruit_displayio_ssd1306

current = None


class App:
    def __init__(self):
        displayio.release_displays()
        bus = I2CDisplayBus(busio.I2C(board.GP5, board.GP4), device_address=0x3C)
        self.display = adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64, auto_refresh=False)
        pins = (board.GP10, board.GP11, board.GP12, board.GP13, board.GP14, board.GP15)
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.log = []

    def tick(self):
        event = self.keys.events.get()
        while event:
            self.log.append([event.key_number, event.pressed, event.timestamp])
            if event.pressed and event.key_number == 4:
                self.display.brightness = 0.3
            elif event.pressed and event.key_number == 5:
                self.display.sleep()
            elif event.pressed and event.key_number == 0:
                self.display.wake()
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


def mini_firmware(tmp_path):
    (tmp_path / "lib" / "pisti_app").mkdir(parents=True, exist_ok=True)
    (tmp_path / "lib" / "pisti_app" / "__init__.py").write_text(MINI_APP)
    (tmp_path / "code.py").write_text("import pisti_app\npisti_app.run()\n")
    return str(tmp_path / "code.py")


def test_wait_runs_the_clock_exactly_that_long_with_no_key(tmp_path):
    """From A's release to B's press: the wait, then the usual settle (--idle,
    this firmware has no app.idle()); a script ending with a wait ends the run
    exactly when it is over."""
    code, out, err = run_sim("--headless", "--code", mini_firmware(tmp_path), "--idle", "500",
                             "--keys", "A,WAIT:200000,B,WAIT:1500*2", "--status")
    assert code == 0, err
    status = status_of(out)
    log = status["log"]
    assert [(k, p) for k, p, _ in log] == [(4, True), (4, False), (5, True), (5, False)]
    stamps = [t for _, _, t in log]
    since = [(t - stamps[0]) % TICKS_PERIOD for t in stamps]  # ticks_ms wraps at 2**29 (65 s after boot)
    assert since[2] - since[1] == 200000 + 500
    assert status["ms"] - since[3] - first_press_ms(stamps[0]) == 3000


def first_press_ms(stamp):
    """Virtual ms of the first press, from its ticks_ms stamp."""
    from tools.shims.clock import CIRCUITPY_TICKS_START

    return stamp - CIRCUITPY_TICKS_START


def test_long_waits_fit_the_default_time_limit(tmp_path):
    """The headless default --max-ms (10 minutes) grows by the script's waits."""
    code, out, err = run_sim("--headless", "--code", mini_firmware(tmp_path), "--keys", "WAIT:700000,A", "--status")
    assert code == 0, err
    assert [k for k, _p, _t in status_of(out)["log"]] == [4, 4]
    code, out, err = run_sim("--headless", "--code", mini_firmware(tmp_path), "--keys", "WAIT:700000,A",
                             "--max-ms", "600000", "--status")
    assert code == 1 and "--max-ms 600000" in err


def test_status_reports_the_panel_registers_not_the_firmware_intent(tmp_path):
    """display: what the SSD1306 emulator was sent (0x81 contrast, 0xAE/0xAF)."""
    firmware = mini_firmware(tmp_path)
    code, out, err = run_sim("--headless", "--code", firmware, "--idle", "100", "--status")
    assert code == 0, err
    # Blinka's BusDisplay sets brightness 1.0 at start (contrast 0xFF), as CircuitPython does.
    assert status_of(out)["display"] == {"on": True, "brightness": 1.0, "contrast": 255}
    code, out, err = run_sim("--headless", "--code", firmware, "--idle", "100", "--keys", "A", "--status")
    assert status_of(out)["display"] == {"on": True, "brightness": 0.298, "contrast": 76}
    code, out, err = run_sim("--headless", "--code", firmware, "--idle", "100", "--keys", "A,B", "--status")
    assert status_of(out)["display"] == {"on": False, "brightness": 0.298, "contrast": 76}
    code, out, err = run_sim("--headless", "--code", firmware, "--idle", "100", "--keys", "B,UP", "--status")
    assert status_of(out)["display"] == {"on": True, "brightness": 1.0, "contrast": 255}
    assert status_of(out)["demo"] is False


def test_the_firmware_left_alone_at_the_menu(tmp_path):
    """The real firmware, A to the main menu, then 40 s with no key: the
    status says where the clock is, the display as the panel has it (on: a
    demo keeps it on for its first minutes, tests/test_demo.py) and that the
    demo plays (it starts after 30 s alone at the main menu)."""
    code, out, err = run_sim("--headless", "--keys", "A,WAIT:40000", "--status")
    assert code == 0, err
    status = status_of(out)
    assert status["screen"] == "table" and status["game"] == "pisti"
    assert status["ms"] >= 40000
    assert status["display"]["on"] is True
    assert status["demo"] is True


def test_until_steps_parse_and_bad_ones_are_one_sentence():
    assert parse_keys("A,UNTIL:table,A", PICO) == [("A", 60), ("UNTIL", ("table", 60000)), ("A", 60)]
    assert parse_keys("until:Hand_End:2500", PICO) == [("UNTIL", ("hand_end", 2500))]
    for bad, words in (("UNTIL", "unknown key"), ("UNTIL:", "UNTIL:SCREEN"), ("UNTIL:table:0", "time limit"),
                       ("UNTIL:table:x", "UNTIL:SCREEN")):
        with pytest.raises(UsageError, match=words):
            parse_keys(bad, PICO)


def test_until_waits_for_its_screen_and_says_when_it_does_not_come():
    # left alone at the main menu, the demo's table comes after 30 s: UNTIL waits for it
    code, out, err = run_sim("--headless", "--seed", "3", "--keys", "UNTIL:table:40000", "--status")
    assert code == 0, err
    st = status_of(out)
    assert st["screen"] == "table" and st["demo"] and 30000 <= st["ms"] < 40000, st
    code, out, err = run_sim("--headless", "--seed", "3", "--keys", "UNTIL:match_end:3000", "--status")
    assert code == 1 and "UNTIL:match_end:3000: the screen was still menu after 3000 ms" in err, err
