# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The battery: a board that reads its supply
(``PISTI_BATTERY``: VSYS/3 on the Pico's GP29, USB present on GP24) shows a
mark in the title bar on battery power, an empty one below the threshold,
and the table says "Battery low" once; read every 10 s, not every frame.
The simulator's supply (``rig.supply``: ``mv``, ``usb``; ``tools/sim.py
--battery MV``) makes the marks golden frames (``tests/golden/batt_*.png``,
``PISTI_UPDATE_GOLDEN=1`` writes them). Saving is untouched (T-6)."""

import os
import shutil

import pytest
from PIL import Image

from test_sim import GOLDEN

from tools.shims import supply as supply_shim


def check_golden(d, name):
    """The screen against tests/golden/``name``.png, pixel for pixel."""
    shot = d.shot(name)
    golden = os.path.join(GOLDEN, name + ".png")
    if os.environ.get("PISTI_UPDATE_GOLDEN") == "1":
        shutil.copyfile(str(shot), golden)
    if not os.path.exists(golden):
        pytest.fail("no golden %s: run with PISTI_UPDATE_GOLDEN=1 to make it" % golden)
    got, want = Image.open(str(shot)).convert("L"), Image.open(golden).convert("L")
    assert got.size == want.size
    assert got.tobytes() == want.tobytes(), "%s differs from %s (new picture: %s)" % (name, golden, shot)


def on_battery(d, mv):
    d.rig.supply.mv = mv
    d.rig.supply.usb = False


def test_the_main_menu_on_battery_power_has_the_mark(device):
    d = device()
    on_battery(d, 3900)
    d.press("A")  # past the splash
    st = d.status()
    assert st["screen"] == "menu" and st["battery"] == {"mv": 3899, "mark": "battery"}
    check_golden(d, "batt_menu")


def test_a_low_battery_shows_an_empty_mark_and_the_table_says_so(device):
    d = device(PISTI_SEED=4, PISTI_DELAY=0)
    on_battery(d, 3300)
    d.press("A")
    assert d.status()["battery"]["mark"] == "low"
    d.menu_to("rankings")
    d.press("A")  # a page's title bar
    check_golden(d, "batt_low_rankings")
    d.press("B")
    d.app.start_game("pisti", 2, [None, "kalfa"], 151, False)
    st = d.wait(lambda s: s["screen"] == "table" and "Battery" in s["message"], limit_ms=15000)
    assert st["message"] == "Battery low: plug in USB"
    d.run(20000)  # said once, not at every reading
    assert "Battery" not in d.status()["message"]


def test_the_featherwing_shows_the_mark_when_its_pins_are_named(wing):
    d = wing(PISTI_BATTERY="A3,D24")
    on_battery(d, 3900)
    d.press("B")
    assert d.status()["battery"]["mark"] == "battery"
    check_golden(d, "batt_fw_menu")


def test_on_usb_there_is_no_mark_and_the_frame_is_the_usual_one(device, tmp_path):
    d = device()
    d.press("A")
    assert d.status()["battery"] == {"mv": 4799, "mark": "usb"}
    usual = d.rig.oled.framebuffer
    d.close()
    d = device(PISTI_BATTERY="")
    d.press("A")
    assert "battery" not in d.status()
    assert d.rig.oled.framebuffer == usual


def test_the_supply_is_read_every_10_s_not_every_frame(device, monkeypatch):
    reads = []
    real = supply_shim.AnalogIn.value

    def counted(self):
        reads.append(1)
        return real.fget(self)

    monkeypatch.setattr(supply_shim.AnalogIn, "value", property(counted))
    d = device()
    on_battery(d, 3900)
    d.press("A")
    n = len(reads)
    d.run(60000)  # a minute: 6000 ticks
    assert 5 <= len(reads) - n <= 7
    d.rig.supply.usb = True  # USB plugged in: the mark goes at the next reading
    d.run(10000)
    assert d.status()["battery"]["mark"] == "usb"


@pytest.mark.parametrize("value", ["GP99", "VOLTAGE_MONITOR", "VOLTAGE_MONITOR,VBUS_SENSE,GP25", "NOPE,VBUS_SENSE"])
def test_a_bad_battery_setting_is_named_and_the_default_used(device, value):
    d = device(PISTI_BATTERY=value)
    assert d.status()["screen"] == "splash" and any("BATTERY" in n for n in d.app.notices)
    d.press("A")
    d.press("A")
    assert d.status()["battery"]["mark"] == "usb"
