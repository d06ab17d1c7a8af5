# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Screen sleep and brightness: after a time
without a key (Settings' Screen sleep: 30 s, 1 min, 2 min, 5 min, never;
1 min on a new console) the screen dims, after as long again the SSD1306 is
switched off (0xAE, the driver's ``sleep()``); any key wakes it and does
nothing else. A rated game's move clock runs on (T-3) and the screen wakes
for its last 10 seconds; while bots play it stays on. Brightness (three
levels, the SSD1306 contrast) is kept in the saves and applied at boot.
What the panel does is read from the SSD1306 emulator's registers
(``--status``'s ``display``)."""

import io
import json

import pytest


from tools import sim
from pisti_app import prefs

FULL = {"on": True, "contrast": 255, "brightness": 1.0}
DIM = {"on": True, "contrast": 0, "brightness": 0.0}


def run_sim(*args):
    """tools/sim.py headless in this process: its --status dict."""
    out, err = io.StringIO(), io.StringIO()
    code = sim.main(["--headless", "--seed", "1", "--status"] + list(args), out=out, err=err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_left_alone_at_a_table_the_panel_is_off_but_for_its_first_two_minutes():
    # (the screen's time on, dimmed and off on the virtual clock, tools/simlib/README.md)
    st = run_sim("--start", "pisti:2:kalfa", "--keys", "WAIT:600000")
    ms = st["screen_ms"]
    assert st["screen"] == "table" and st["display"]["on"] is False
    assert ms["dim"] == 60000 and 60000 <= ms["on"] <= 63000, ms  # a minute lit, a minute dimmed
    assert ms["on"] + ms["dim"] + ms["off"] == st["ms"] and ms["off"] >= 475000, ms


def test_the_screen_dims_after_a_minute_then_goes_off_and_a_key_only_wakes_it():
    # (on the New game screen: the main menu left alone starts the demo, tests/test_demo.py)
    st = run_sim("--keys", "A,A,WAIT:58000")
    assert st["screen"] == "new_game" and st["display"] == FULL
    st = run_sim("--keys", "A,A,WAIT:61000")
    assert st["display"] == DIM and st["cursor"] == "game"
    dimmed = run_sim("--keys", "A,A,WAIT:119000")
    off = run_sim("--keys", "A,A,WAIT:121000")
    assert dimmed["display"]["on"] and not off["display"]["on"]
    # off: no frame is sent (a dimmed frame is the same picture)
    assert run_sim("--keys", "A,A,WAIT:400000")["frames"] == off["frames"]
    woke = run_sim("--keys", "A,A,WAIT:121000,DOWN")
    assert woke["display"] == FULL and woke["cursor"] == "game"  # the key did nothing else
    assert run_sim("--keys", "A,A,WAIT:121000,DOWN,DOWN")["cursor"] == "mode"
    # a dimmed screen too: the key only brightens it
    st = run_sim("--keys", "A,A,WAIT:61000,A")
    assert st["screen"] == "new_game" and st["display"] == FULL


def test_screen_sleep_and_brightness_rows_change_save_and_apply_at_boot(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    # Settings: Brightness LEFT twice (High -> Low) shows at once; Screen sleep RIGHT*3 (1 min -> Never); A keeps
    st = run_sim("--nvm", nvm, "--keys", "A,DOWN*2,A,DOWN*5,LEFT*2")
    assert st["screen"] == "settings" and st["cursor"] == "bright" and st["display"]["contrast"] == 15
    st = run_sim("--nvm", nvm, "--keys", "A,DOWN*2,A,DOWN*5,LEFT*2,DOWN,RIGHT*3,A,UP*2,A,WAIT:700000")
    assert st["screen"] == "new_game" and st["display"] == {"on": True, "contrast": 15, "brightness": 0.059}
    # the next boot: the saved brightness from the first frame, and Never still holds
    st = run_sim("--nvm", nvm, "--wait", "300")
    assert st["screen"] == "splash" and st["display"]["contrast"] == 15
    st = run_sim("--nvm", nvm, "--keys", "A,DOWN*2,A,WAIT:700000")
    assert st["display"]["on"] and st["display"]["contrast"] == 15
    assert st["menu"][-2:] == ["bright", "sleep"]


def test_30_seconds_and_5_minutes(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    run_sim("--nvm", nvm, "--keys", "A,DOWN*2,A,DOWN*6,LEFT,A")  # 1 min -> 30 s
    assert run_sim("--nvm", nvm, "--keys", "A,A,WAIT:31000")["display"] == DIM
    assert not run_sim("--nvm", nvm, "--keys", "A,A,WAIT:61000")["display"]["on"]
    run_sim("--nvm", nvm, "--keys", "A,DOWN*2,A,DOWN*6,RIGHT*3,A")  # 30 s -> 5 min
    assert run_sim("--nvm", nvm, "--keys", "A,A,WAIT:299000")["display"] == FULL
    assert run_sim("--nvm", nvm, "--keys", "A,A,WAIT:301000")["display"] == DIM


def test_a_rated_clock_runs_on_while_off_and_wakes_the_screen_for_its_last_10_s():
    """T-3: the move timer counts down while the screen is off; its last 10
    seconds (blinking, beeping) are shown."""
    game = ("--start", "pisti:2:kalfa", "--rated", "--set", "PISTI_TIMER=300")
    st = run_sim(*game, "--keys", "WAIT:125000")
    assert st["screen"] == "table" and not st["display"]["on"]
    assert 170 <= st["timer"] <= 180  # still running
    st = run_sim(*game, "--keys", "WAIT:293000")
    assert st["screen"] == "table" and st["display"] == FULL and 1 <= st["timer"] <= 10


def test_the_screen_stays_on_while_bots_play(device):
    """4 players, each play shown 10 s: the bots take longer than the 30-s
    sleep, and the screen stays at full brightness until the person is to
    play again (then the count starts)."""
    d = device(PISTI_START="pisti:4:usta", PISTI_SEED=3, PISTI_DELAY=10000)
    d.app.prefs["sleep"] = 0  # 30 s
    d.wait(lambda st: st["turn"] == 0 and d.app.idle(), limit_ms=60000)
    d.press("A")  # the person plays: three bots follow, 10 s a play
    assert not d.app.idle()
    bots = 0
    while not d.app.idle():
        assert d.app.hw.nap == 0 and d.rig.oled.contrast == 255 and d.rig.oled.display_on
        d.run(1000)
        bots += 1000
    assert bots > 30000
    d.run(29000)
    assert d.app.hw.nap == 0
    d.run(2000)
    assert d.app.hw.nap == 1 and d.rig.oled.contrast == 0


def test_old_settings_blobs_still_load_with_the_new_defaults():
    # 15 bytes: the settings blob without sleep and brightness
    old = bytes((0x53, 1, 1, 0, 2, 0, 90, 1, 1, 3, 101, 0, 1, 2, 1))
    p = prefs.defaults()
    assert prefs.unpack(old, p)
    assert p["lang"] == "tr" and p["timer"] == 90 and p["players"] == 3 and p["rated"]
    assert p["sleep"] == 1 and p["bright"] == 2  # 1 min, High
    p["sleep"], p["bright"] = 4, 0
    blob = prefs.pack(p)
    assert len(blob) == 18  # (the last byte: the link's seats, pisti_app.prefs)
    q = prefs.defaults()
    assert prefs.unpack(blob, q) and q == p
    for bad in (blob[:15] + bytes((5, 0)), blob[:15] + bytes((0, 3)), blob[:16]):
        q = prefs.defaults()
        assert not prefs.unpack(bad, q) and q == prefs.defaults()


@pytest.mark.parametrize("keys, row", [("B,C,C,B,C*5", "bright"), ("B,C,C,B,C*6", "sleep")])
def test_featherwing_edits_the_new_rows_like_the_others(keys, row):
    """Three buttons: B edits the row, A/C change it, B confirms (Settings
    keep and go back)."""
    fw = ("--profile", "featherwing")
    st = run_sim(*fw, "--keys", keys)
    assert st["screen"] == "settings" and st["cursor"] == row
    st = run_sim(*fw, "--keys", keys + ",B,A")
    assert st["editing"]
    if row == "bright":
        assert st["display"]["contrast"] == 89  # High -> Medium, at once
    st = run_sim(*fw, "--keys", keys + ",B,A,B,B,WAIT:%d" % (40000 if row == "sleep" else 61000))
    assert st["screen"] == "settings" and st["display"] == DIM  # (sleep: 1 min -> 30 s; Settings again, B)
