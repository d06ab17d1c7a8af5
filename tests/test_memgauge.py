# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device app's heap budgets on the 32-bit gauge,
``tools/memgauge.py``: the whole app (code.py, lib/, pisti_core/, assets/,
the device libraries as .mpy) in MicroPython's WebAssembly VM, played by
its buttons through every mode against Usta, a rated match cut by a power
cut and resumed, a language switch, the demo that plays itself; link play
of two consoles, and of three or four in a ring, a VM a console.

* at most MENU_MAX live at the main menu, at most MATCH_MAX anywhere in a match,
  on each console of a linked one too (the board's figures set them: below);
* every mode completes a match;
* the same run with the heap capped at the Pico's 171,264 B (growth refused)
  neither raises MemoryError nor stops answering.

Plus checks of the instrument itself: the cap is real (the heap never grows)
and the stand-ins size and read bitmaps like CircuitPython's C modules.
"""

import importlib.util
import io
import json
import os
import random
import sys

import pytest

from tools import memgauge

# One worker runs every test of this file under pytest-xdist (tools/test.sh):
# they share the module fixture's one long run.
pytestmark = pytest.mark.xdist_group("memgauge")

# The board decides these caps (tests/test_device.py: the firmware's own mem lines on
# the emulated Pico, tools/device/memory.md): each is what this gauge reads today plus
# 85% of the room the Pico still has at the same point, its lowest free heap there
# less the device budget. The margin, 15% of that room, covers the gauge's scale
# against the board (0.87-1.0 of the Pico's bytes, from screen to screen), so a change
# that fills the board's room fills the gauge's first. A change that passes the gauge
# and fails on the board fails tests/test_device.py.
BOARD_ROOM = 0.85
# Main menu after a game: the Pico 107,440 B free (.mpy deploy; budget 100 KB =
# 102,400), the gauge 59,336 B live (its menu after the matches).
MENU_MAX = 59336 + int(BOARD_ROOM * (107440 - 102400))  # 63,620 B live
# A game: the lowest screen, a Pis Yedili 4p link host's hand end, the Pico 53,240 B
# free (budget 48 KB = 49,152), the gauge 112,104 B live (the same host's peak).
MATCH_MAX = 112104 + int(BOARD_ROOM * (53240 - 49152))  # 115,578 B live
DEVICE_HEAP = memgauge.DEVICE_HEAP  # 171,264 B free at a fresh REPL on the Pico


def _table(res):
    buf = io.StringIO()
    memgauge.print_table(res, file=buf)
    return buf.getvalue()


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The deploy tree the VMs boot from."""
    path = str(tmp_path_factory.mktemp("memgauge") / "tree")
    memgauge.build(path)
    return path


@pytest.fixture(scope="module")
def gauge(tree):
    """(uncapped run, capped run) of the whole scenario, every mode."""
    first, capped = memgauge.capped_run(tree, DEVICE_HEAP, memgauge.MODES, stall=60.0,
                                        timeout=600.0)
    return first, capped


def test_the_gauge_plays_the_whole_scenario(gauge):
    first, _ = gauge
    assert first["ok"], "%s: %s\n%s" % (first.get("kind"), first.get("error"), _table(first))
    notes = " | ".join(e.get("text", "") for e in first["events"] if e.get("ev") == "note")
    assert "power cut in" in notes and "resumed" in notes, notes


@pytest.mark.parametrize("mode", memgauge.MODES)
def test_every_mode_completes_a_match(gauge, mode):
    first, _ = gauge
    m = (first.get("modes") or {}).get(mode, {})
    assert m.get("matches", 0) >= 1, "no %s match completed: %s: %s\n%s" % (
        mode, first.get("kind"), first.get("error"), _table(first))


def test_main_menu_within_its_cap(gauge):
    first, _ = gauge
    assert first.get("menu_peak"), "the main menu was never measured: %s" % first.get("error")
    assert first["menu_peak"] <= MENU_MAX, "%d B live at the main menu (budget %d)\n%s" % (
        first["menu_peak"], MENU_MAX, _table(first))


def test_every_match_within_its_cap(gauge):
    first, _ = gauge
    peaks = {m: (first.get("modes") or {}).get(m, {}).get("peak", 0) for m in memgauge.MODES}
    assert first.get("game_peak"), "no match was measured: %s" % first.get("error")
    over = {m: p for m, p in peaks.items() if p > MATCH_MAX}
    assert first["game_peak"] <= MATCH_MAX and not over, \
        "%d B live in a match (budget %d), per mode %s\n%s" % (
            first["game_peak"], MATCH_MAX, peaks, _table(first))


def test_the_demo_within_the_match_cap(gauge):
    """The demo that plays itself (started by 30 s alone at the main
    menu, then by Watch) in each of its modes, bots at every seat, within
    the match budget; a key brings the main menu back within its own."""
    first, _ = gauge
    demo = (first.get("modes") or {}).get("demo") or {}
    assert demo.get("seen") == ["pisti2", "yedili3", "pisti4", "yedili4"] and demo.get("matches", 0) >= 1, \
        "the demo was not watched through its modes: %s: %s\n%s" % (first.get("kind"), first.get("error"),
                                                                     _table(first))
    assert 0 < demo["peak"] <= MATCH_MAX, "%d B live in the demo (budget %d)\n%s" % (
        demo["peak"], MATCH_MAX, _table(first))
    after = [r for r in first["rows"] if r[0] == "demo>" and r[1] == "menu"]
    assert after and after[0][4] <= MENU_MAX, after


def test_no_memory_error_or_hang_in_the_picos_heap(gauge):
    _, capped = gauge
    assert capped["ok"], "heap capped at %d B: %s at %s/%s after %s ticks: %s\n%s" % (
        DEVICE_HEAP, capped.get("kind"), capped.get("phase"), capped.get("screen"),
        capped.get("ticks"), (capped.get("error") or "")[-1500:], _table(capped))


@pytest.fixture(scope="module")
def link_gauge(tree):
    """Link play: a Pis Yedili 4p link match, two consoles (a VM
    each) joined by the stand-in UART, played by their buttons."""
    return memgauge.run_node(tree, modes=["link_yedili4"], stall=60.0, timeout=600.0)


def test_L2_L3_a_link_match_completes_on_both_consoles(link_gauge):
    res = link_gauge
    assert res["ok"], "%s: %s\n%s" % (res.get("kind"), res.get("error"), _table(res))
    m = res["modes"]["link_yedili4"]
    assert m["host"]["matches"] == m["guest"]["matches"] == 1, m
    notes = " | ".join(e.get("text", "") for e in res["events"] if e.get("ev") == "note")
    assert "host at the link_yedili4 table" in notes and "guest at the link_yedili4 table" in notes, notes
    # As on the board (pisti_app.run): each console restarts into the link game on a
    # fresh heap (a new VM on the same nvm), and again for the main menu after it.
    for role in ("host", "guest"):
        for where in ("link_yedili4/link", "link_yedili4/match_end"):
            assert "%s restarts (%s)" % (role, where) in notes, notes
    line = memgauge.summary(res, ["link_yedili4"])
    assert set(line["modes"]["link_yedili4"]) == {"peak", "matches", "host", "guest"}


def test_a_yedili_4p_link_match_within_the_match_cap_on_each_console(link_gauge):
    res = link_gauge
    m = (res.get("modes") or {}).get("link_yedili4") or {}
    peaks = {role: (m.get(role) or {}).get("peak", 0) for role in ("host", "guest")}
    assert all(peaks.values()), "not measured: %s: %s" % (res.get("kind"), res.get("error"))
    assert max(peaks.values()) <= MATCH_MAX, "%s B live in a Pis Yedili 4p link match (budget %d)\n%s" % (
        peaks, MATCH_MAX, _table(res))


@pytest.fixture(scope="module")
def ring_gauge(tree):
    """Link play of three and four consoles in a ring (a VM each, console
    i's first UART joined to console i+1's second): Pişti 4p of four people,
    Pis Yedili 3p of three and 4p of four, the host hosting and the guests
    joining by their buttons, each person playing its seat to the match end."""
    return memgauge.run_node(tree, modes=list(memgauge.RING_MODES), stall=60.0, timeout=900.0)


def _ring_roles(mode):
    return ["host"] + ["guest%d" % k for k in range(1, memgauge.RING_CONSOLES[mode])]


@pytest.mark.parametrize("mode", memgauge.RING_MODES)
def test_L11_L14_a_ring_match_completes_on_every_console(ring_gauge, mode):
    """Every console sat down to the same game (the host's, as its person
    set it up) and played the one match to its end: each console's totals
    are the host's seen from its own seat. Each restarts into the ring game
    and back to the main menu after it, as on the board."""
    res = ring_gauge
    m = (res.get("modes") or {}).get(mode) or {}
    assert m and not m.get("error"), "%s: %s\n%s" % (mode, m.get("error") or res.get("error"), _table(res))
    roles = _ring_roles(mode)
    line = memgauge.summary(res, [mode])
    assert set(line["modes"][mode]) == {"peak", "matches"} | set(roles), line["modes"][mode]
    notes = " | ".join(e.get("text", "") for e in res["events"] if e.get("ev") == "note")
    host = m["host"]["totals"]
    for role in roles:
        assert "%s at the %s table" % (role, mode) in notes, notes
        for where in ("%s/link" % mode, "%s/match_end" % mode):
            assert "%s restarts (%s)" % (role, where) in notes, notes
        c = m[role]
        assert c["matches"] == 1 and c["game"] == mode[len("ring_"):], (role, c)
        k = len(host)
        assert host and any(c["totals"] == host[i:] + host[:i] for i in range(k)), (role, c["totals"], host)
    assert m["peak"] == max(m[role]["peak"] for role in roles) > 0, m


# A ring console's caps, from the board's rings the same way (python tools/devicetest.py ring_pisti4_match,
# ring_yedili4, ring_yedili3: four or three emulated Picos, not in the test command): what the gauge reads
# for the tree the board ran plus 85% of the room the board had, its lowest free heap in the game less
# 48 KB. A ring console holds more than a two-console one (both cables, the ring's lock and view), so it
# has caps of its own; the board's room is what keeps them honest.
RING_MAX = {
    # a whole match of four: the gauge 118,970 B live; the board's lowest, a table: 53,336 free
    "ring_pisti4": 118970 + int(BOARD_ROOM * (53336 - 49152)),  # 122,526 B live
    # a hand of four: the gauge 119,472 B live; the board's lowest, a table: 49,752 free
    "ring_yedili4": 119472 + int(BOARD_ROOM * (49752 - 49152)),  # 119,982 B live
    # a hand of three: the gauge 123,574 B live; the board's lowest, a table: 51,560 free
    "ring_yedili3": 123574 + int(BOARD_ROOM * (51560 - 49152)),  # 125,620 B live
}


@pytest.mark.parametrize("mode", memgauge.RING_MODES)
def test_a_ring_match_within_its_cap_on_each_console(ring_gauge, mode):
    """Every console of a ring match within its mode's cap (RING_MAX, from
    the board's own ring figures), in every screen of the match."""
    res = ring_gauge
    m = (res.get("modes") or {}).get(mode) or {}
    peaks = {role: (m.get(role) or {}).get("peak", 0) for role in _ring_roles(mode)}
    assert all(peaks.values()), "not measured: %s: %s" % (res.get("kind"), res.get("error"))
    assert max(peaks.values()) <= RING_MAX[mode], "%s B live in a %s ring match (budget %d)\n%s" % (
        peaks, mode, RING_MAX[mode], _table(res))


def test_the_uart_stand_in_is_sized_like_circuitpythons(monkeypatch):
    monkeypatch.setitem(sys.modules, "board", _standin("board"))  # (the gauge's Pico: its pins are their names)
    b = _standin("busio")
    u = b.UART("GP0", "GP1", baudrate=115200, timeout=0, receiver_buffer_size=256)
    assert len(u._buf) == 256 and u.in_waiting == 0 and u.read(10) is None
    assert b.arrive(bytes(range(200)) + bytes(100)) == 300
    assert u.in_waiting == 256 and u.dropped == 44  # a full buffer drops what comes next, as on the board
    assert u.read(10) == bytes(range(10)) and u.in_waiting == 246
    u.write(b"abc")
    u.write(b"de")
    assert b.sent() == b"abcde" and b.sent() == b""


def test_the_uart_stand_in_tells_the_two_links_apart_by_their_pins(monkeypatch):
    """A UART is the first link's on PISTI_LINK_TX/RX, the second's on
    PISTI_LINK2_TX/RX (the settings, else the Pico's GP0/GP1 and GP8/GP9),
    else no link's; each link's bytes arrive and leave on its own UART, and
    a link with no cable (the second, until a ring plugs both) hears nothing
    and sends nowhere."""
    monkeypatch.setitem(sys.modules, "board", _standin("board"))
    for key in ("PISTI_LINK_TX", "PISTI_LINK_RX", "PISTI_LINK2_TX", "PISTI_LINK2_RX"):
        monkeypatch.delenv(key, raising=False)
    b = _standin("busio")
    first = b.UART("GP0", "GP1", timeout=0, receiver_buffer_size=64)
    second = b.UART("GP8", "GP9", timeout=0, receiver_buffer_size=64)
    other = b.UART("GP20", "GP21", timeout=0, receiver_buffer_size=64)
    assert (first.link, second.link, other.link) == (b.FIRST, b.SECOND, 0)
    assert b.arrive(b"two", b.SECOND) == 0 and second.in_waiting == 0  # no cable on the second yet
    second.write(b"lost")
    other.write(b"nowhere")
    assert b.sent(b.SECOND) == b"" and b.sent(b.FIRST) == b""
    b.cables(1, 1)  # a ring: both plugged
    assert b.arrive(b"one", b.FIRST) == 3 and b.arrive(b"two", b.SECOND) == 3
    assert first.read(8) == b"one" and second.read(8) == b"two" and other.in_waiting == 0
    first.write(b"a")
    second.write(b"b")
    assert b.sent(b.FIRST) == b"a" and b.sent(b.SECOND) == b"b"
    second.deinit()
    assert b.arrive(b"gone", b.SECOND) == 0  # no UART open there: lost, as on a line nobody listens to
    monkeypatch.setenv("PISTI_LINK2_TX", "GP4")  # the settings move the second link's TX
    assert b.UART("GP4", "GP5").link == b.SECOND and b.UART("GP8", "GP3").link == 0


def test_the_cap_is_real(gauge):
    # The capped VM starts with the Pico's free heap and never grows (NOTES.md:
    # heapsize alone is no cap in this port).
    _, capped = gauge
    start, end = capped.get("heap_total_start"), capped.get("heap_total_end")
    if capped.get("kind") == "hang":
        pytest.fail("the capped run stopped answering: %s" % capped.get("error"))
    assert start and start == end, (start, end)
    assert capped["cap"] == DEVICE_HEAP


# -- the stand-ins, in this CPython (loaded under other names: Blinka's
#    displayio and bitmaptools stay the ones the other tests import) ----------

def _standin(name):
    path = os.path.join(memgauge.HERE, "standins", name + ".py")
    spec = importlib.util.spec_from_file_location("memgauge_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_stand_in_bitmaps_are_sized_like_circuitpythons():
    d = _standin("displayio")
    # one buffer, rows padded to 32-bit words, bits per value a power of two
    assert len(d.Bitmap(128, 64, 2)._buf) == 128 * 64 // 8
    assert len(d.Bitmap(5, 8, 2)._buf) == 8 * 4
    assert len(d.Bitmap(96, 80, 3)._buf) == 96 * 2 // 8 * 80
    assert d.Bitmap(3, 3, 16).bits_per_value == 4
    b = d.Bitmap(33, 2, 4)
    b[32, 1] = 3
    b[0] = 2
    assert (b[32, 1], b[33 + 32], b[0, 0], b[1, 0]) == (3, 3, 2, 0)
    b.fill(1)
    assert all(b[x, y] == 1 for x in range(33) for y in range(2))
    g = d.TileGrid(d.Bitmap(25, 8, 2), pixel_shader=d.Palette(2), width=21, height=1,
                   tile_width=5, tile_height=8, default_tile=3)
    assert len(g._t) == 21 and g[20] == 3
    g[4, 0] = 2
    assert g[4] == 2
    grp = d.Group(scale=2)
    grp.append(g)
    with pytest.raises(ValueError):
        d.Group().append(g)  # a layer has one parent, as in C
    assert grp.scale == 2 and grp.pop() is g


def test_stand_in_readinto_reads_like_blinkas():
    import bitmaptools as blinka_bt  # Blinka's pure-Python one: the same semantics as C
    import displayio as blinka_d

    d = _standin("displayio")
    bt = _standin("bitmaptools")
    rng = random.Random(5)
    for bpp, w, h in ((1, 37, 5), (2, 30, 4), (4, 9, 3), (8, 7, 2)):
        data = bytes(rng.randrange(256) for _ in range(((w * bpp + 7) // 8) * h))
        ours = d.Bitmap(w, h, 1 << bpp)
        theirs = blinka_d.Bitmap(w, h, 1 << bpp)
        bt.readinto(ours, io.BytesIO(data), bits_per_pixel=bpp, element_size=1,
                    reverse_pixels_in_element=False)
        blinka_bt.readinto(theirs, io.BytesIO(data), bpp, 1, False)
        assert [ours[x, y] for y in range(h) for x in range(w)] == \
            [theirs[x, y] for y in range(h) for x in range(w)], bpp


def test_the_settings_the_gauge_boots_with():
    text = memgauge.settings_text({"PISTI_SEED": 7, "PISTI_DELAY": 0})
    assert 'PISTI_BUTTONS = "UP:GP10,DOWN:GP11,LEFT:GP12,RIGHT:GP13,A:GP14,B:GP15"' in text
    assert "PISTI_SEED = 7" in text and "PISTI_DELAY = 0" in text
    assert json.loads(json.dumps(memgauge.MODES)) == list(memgauge.MODES)
