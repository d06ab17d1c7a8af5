# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Out of memory on the device: the player never sees a
traceback and loses nothing (T-6). A MemoryError is injected, once, into
the real firmware running in the simulator: inside a bot's move, and at a
screen change (opening the pause menu). The firmware drops the app, logs
the error on the console, shows the notice in the current language until
A (B on three buttons) is pressed, and restarts into the saved game."""

import json
import os
import subprocess
import sys

import pytest
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A code.py that injects one MemoryError, then runs the device's own code.py.
WRAPPER = '''
import sys
sys.path.append("lib")
import pisti_app
from pisti_app import app as app_mod
from pisti_app.match import begin, play
WHERE = %r
done = []
if WHERE == "bot":
    _make = play.Play.sit
    def _make_bots(self):
        _make(self)
        bot = self.seats[1]
        real = bot.choose
        def choose(obs):
            if not done:
                done.append(1)
                raise MemoryError("injected in a bot's move")
            return real(obs)
        bot.choose = choose
    play.Play.sit = _make_bots
else:
    if WHERE == "resume":  # and then again on the way back into the saved game
        _sit = begin.sit
        def sit(app, session, saved=False, link=None):
            if saved and len(done) == 1:
                done.append(2)
                raise MemoryError("injected resuming the game")
            _sit(app, session, saved, link)
        begin.sit = sit
    _push = app_mod.App.push
    def push(self, screen):
        if screen.name == "pause" and not done:
            done.append(1)
            raise MemoryError("injected at a screen change")
        _push(self, screen)
    app_mod.App.push = push
exec(open("code.py.real").read(), {"__name__": "__main__", "__file__": "code.py"})
'''


def firmware(tmp_path, where):
    """A CIRCUITPY-like folder: the repo's firmware and the injecting code.py."""
    d = tmp_path / ("fw_" + where)
    d.mkdir()
    for part in ("lib", "pisti_core", "assets"):
        os.symlink(os.path.join(ROOT, part), str(d / part))
    (d / "code.py.real").write_text(open(os.path.join(ROOT, "code.py")).read())
    (d / "code.py").write_text(WRAPPER % where)
    return str(d / "code.py")


def sim(*args):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless"] + list(args),
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


def lit(png):
    img = Image.open(png).convert("L")
    return sum(1 for p in img.get_flattened_data() if p > 128)


@pytest.mark.parametrize("lang,words", [("en", "Out of memory"), ("tr", "Bellek yetmedi")])
def test_memory_error_in_a_bot_move_shows_the_notice_then_resumes_the_game(tmp_path, lang, words):
    code = firmware(tmp_path, "bot")
    base = ["--code", code, "--start", "pisti:2:usta", "--seed", "3", "--set", "PISTI_LANG=" + lang,
            "--status"]
    shot = str(tmp_path / "oom.png")
    st, err = sim(*(base + ["--shot", shot]))
    assert st["screen"] == "oom" and st["message"].startswith(words)
    assert "out of memory" in err and "MemoryError: injected in a bot's move" in err  # the console log
    assert lit(shot) > 500  # the notice is drawn, not a blank or a frozen table
    st, _ = sim(*(base + ["--keys", "A"]))
    # Seat 1 leads (dealer 0); its move failed before it was saved: after the
    # restart it plays again from the same saved deal, and it is our turn.
    assert st["screen"] == "table" and st["game"] == "pisti" and st["hand"] == 1
    assert st["ply"] == 1 and st["turn"] == 0 and len(st["your_hand"]) == 4


def test_memory_error_at_a_screen_change_loses_nothing(tmp_path):
    code = firmware(tmp_path, "screen")
    base = ["--code", code, "--start", "pisti:2:kalfa", "--seed", "3", "--status"]
    before, _ = sim(*(base + ["--keys", "A"]))  # one card played, the bot answered
    assert before["screen"] == "table" and before["ply"] >= 2
    st, err = sim(*(base + ["--keys", "A,B:900"]))  # the pause menu: MemoryError
    assert st["screen"] == "oom" and "injected at a screen change" in err
    st, _ = sim(*(base + ["--keys", "A,B:900,A"]))  # A: restart, straight into the game
    assert st["screen"] == "table"
    for key in ("ply", "turn", "your_hand", "totals", "hand", "dealer"):
        assert st[key] == before[key], key


def test_memory_error_going_back_into_the_game_gives_the_menu_with_continue(tmp_path):
    """Out of memory again while the restart goes back into the saved game
    (a Pis Yedili 4p link game comes close on a Pico): no traceback and no
    loop of restarts, the main menu with Continue under a notice; Continue
    then plays on at the same ply (T-6: nothing saved was touched)."""
    code = firmware(tmp_path, "resume")
    base = ["--code", code, "--start", "pisti:2:kalfa", "--seed", "3", "--status"]
    before, _ = sim(*(base + ["--keys", "A"]))
    st, err = sim(*(base + ["--keys", "A,B:900,A"]))  # the pause menu: out of memory; A: the restart fails too
    assert "injected at a screen change" in err and "out of memory going back into the game" in err
    assert st["screen"] == "confirm" and st["message"].startswith("Out of memory going back"), st
    st, _ = sim(*(base + ["--keys", "A,B:900,A,WAIT:500,A"]))  # OK: the main menu, Continue first
    assert st["screen"] == "menu" and st["menu"][0] == st["cursor"] == "continue", st
    st, _ = sim(*(base + ["--keys", "A,B:900,A,WAIT:500,A,WAIT:500,A"]))  # Continue
    assert st["screen"] == "table"
    for key in ("ply", "turn", "your_hand", "totals", "hand", "dealer"):
        assert st[key] == before[key], key
