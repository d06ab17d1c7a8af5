# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Link play in the desktop simulator: ``sim.py --link``
runs two consoles in one process over a virtual cable (headless with a key
script each, the terminal side by side, the window), and ``sim.py --link
HOST:PORT`` links two processes over TCP. The menus are the firmware's own
(Main menu > Link play > Host / Join, RULES.md L-2); the deal is the link's
(L-3), each console shows its own hand (T-5)."""

import fcntl
import io
import json
import os
import pty
import socket
import struct
import subprocess
import sys
import termios

import pytest

from tools import sim
from tools.shims import active_rig
from tools.simlib.linkfront import choose_pair_cells, compose_pair, pair_help, pair_keymap
from tools.simlib.script import profile_buttons

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
PICO = profile_buttons("pico")
# Main menu > Link play (the sixth row) > Host > A (the Host screen offers its game); the guest:
# > Join, then A on the offer.
HOST = "A,DOWN*5,A,A,A"
JOIN = "A,DOWN*5,A,DOWN,A,WAIT:2000,A"


def run_sim(*args):
    out, err = io.StringIO(), io.StringIO()
    code = sim.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_each_console_names_the_other_person_friend_not_bot(lang):
    # The host waits for the guest's play: its message line names the other person.
    code, out, err = run_sim("--headless", "--link", "--lang", lang, "--lang2", lang, "--keys",
                             HOST + ",UNTIL:table,A,WAIT:3000", "--keys2", JOIN + ",UNTIL:table,WAIT:2000,A,WAIT:3000",
                             "--status")
    assert code == 0, err
    st = json.loads(out)
    friend = {"en": "Friend", "tr": "Arkadaş"}[lang]
    messages = (st["a"]["message"], st["b"]["message"])
    assert any(friend in m for m in messages), messages
    assert not any("Bot" in m for m in messages), messages


def test_L2_L3_two_consoles_in_one_process_host_join_and_play_the_same_game(tmp_path):
    """Headless: A hosts, B joins (A on the offer); both sit at the same
    Pişti table (the link's deal: the same bottom card and pile), each plays
    a card when its turn comes, and --status gives both consoles."""
    code, out, err = run_sim("--headless", "--link", "--keys", HOST + ",WAIT:4000,A", "--keys2",
                             JOIN + ",WAIT:2500,A", "--status", "--shot", str(tmp_path / "a.png"),
                             "--shot2", str(tmp_path / "b.png"))
    assert code == 0, err
    st = json.loads(out)
    a, b = st["a"], st["b"]
    assert a["screen"] == b["screen"] == "table", (a["screen"], b["screen"], err)
    assert a["game"] == b["game"] and a["players"] == b["players"] == 2
    assert a["bottom"] == b["bottom"] and a["pile"] == b["pile"]  # L-3: one deal on both
    assert a["ply"] == b["ply"] >= 2  # each console's person played, and the other saw it (L-4)
    assert not set(a["your_hand"]) & set(b["your_hand"])  # T-5: each shows its own hand
    assert st["cable"]["written"] > 100 and st["cable"]["dropped"] == 0
    assert os.path.getsize(tmp_path / "a.png") > 0 and os.path.getsize(tmp_path / "b.png") > 0
    assert active_rig() is None  # both rigs closed, the process as it was


def test_L6_a_lossy_virtual_cable_still_links_the_two_consoles():
    code, out, err = run_sim("--headless", "--link", "--link-loss", "0.01", "--seed", "3",
                             "--keys", HOST + ",WAIT:6000,A", "--keys2", JOIN + ",WAIT:3000,A", "--status")
    assert code == 0, err
    st = json.loads(out)
    assert st["cable"]["dropped"] > 0
    assert st["a"]["screen"] == st["b"]["screen"] == "table" and st["a"]["pile"] == st["b"]["pile"]


def test_a_128x64_console_links_with_a_128x32_featherwing(tmp_path):
    """Console B is a FeatherWing (three buttons: C moves down, B selects):
    it joins the Pico's game; each draws the same table on its own panel."""
    code, out, err = run_sim("--headless", "--link", "--profile2", "featherwing", "--keys", HOST + ",WAIT:5000",
                             "--keys2", "B,C*5,B,C,B,WAIT:2000,B,WAIT:1000", "--status",
                             "--shot2", str(tmp_path / "b.png"))
    assert code == 0, err
    st = json.loads(out)
    assert st["a"]["screen"] == st["b"]["screen"] == "table" and st["a"]["pile"] == st["b"]["pile"]
    from PIL import Image
    assert Image.open(tmp_path / "b.png").size == (128 * 4, 32 * 4)


def test_the_guest_declines_and_both_are_back_at_the_menu():
    code, out, err = run_sim("--headless", "--link", "--keys", HOST + ",WAIT:3000", "--keys2",
                             "A,DOWN*5,A,DOWN,A,WAIT:2000,B", "--status", "--lang2", "tr")
    assert code == 0, err
    st = json.loads(out)
    assert st["b"]["lang"] == "tr" and st["a"]["lang"] == "en"
    assert st["b"]["screen"] == "menu" and st["a"]["screen"] != "table"


@pytest.mark.parametrize("args, words", [
    (["--headless", "--keys2", "A"], "--keys2 needs --link"),
    (["--headless", "--link", "nohost"], "give HOST:PORT"),
    (["--headless", "--link", "127.0.0.1:99999"], "give HOST:PORT"),
    (["--headless", "--link", "--nvm", "x.nvm", "--nvm2", "x.nvm"], "the same file"),
    (["--headless", "--link", "--link-loss", "1.5"], "--link-loss"),
    (["--link", "--keys2", "A"], "--keys2 needs --headless"),
])
def test_link_usage_errors_say_what_is_wrong(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_sim(*args)
    assert code == 2 and words in err and not out


def test_each_console_has_its_own_keys_and_the_help_names_them():
    for buttons in (PICO, profile_buttons("featherwing")):
        a, b = pair_keymap(buttons, 0), pair_keymap(buttons, 1)
        assert not set(a) & set(b)  # one key never presses both consoles
        assert {v[0] for v in a.values()} == set(buttons) == {v[0] for v in b.values()}
        assert any(long for _, long in a.values()) and any(long for _, long in b.values())
    text = pair_help(PICO, PICO)
    for words in ("A (left): w a s d move", "f = A", "g = B", "B (right): arrows move", "Enter l = A",
                  "Bksp k = B", "q quit"):
        assert words in text
    # The README's table gives the same keys.
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()
    assert "w a s d" in readme and "--link 127.0.0.1:" in readme and "--keys2" in readme


def test_the_two_screens_are_drawn_side_by_side():
    rows64 = [[1] * 128 for _ in range(64)]
    rows32 = [[0] * 128 for _ in range(32)]
    pics = [(rows64, 128, 64, 1), (rows32, 128, 32, 1)]  # a 128x64 console and a FeatherWing
    lines = compose_pair(pics, "auto", 270, 50, pair_help(PICO, profile_buttons("featherwing")), ["a", "b"],
                         ["", ""], color=False)
    assert lines[0].count("\u250c") == 2 and len(lines[0]) == 130 + 2 + 130
    assert lines[1].startswith("\u2502" + "\u2588" * 128 + "\u2502")
    two = [(rows64, 128, 64, 1), (rows64, 128, 64, 1)]
    assert choose_pair_cells("auto", two, 262, 40) == "half"  # the README's 262x40
    assert choose_pair_cells("auto", two, 261, 40) == choose_pair_cells("auto", two, 262, 39) == "braille"
    assert "(262x40 for half blocks" in open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    small = compose_pair(pics, "auto", 140, 30, "help", ["a", "b"], ["", ""], color=False)
    assert len(small[0]) == 66 + 2 + 66  # braille: both still fit a 140-column terminal


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_the_terminal_shows_both_consoles_and_routes_each_ones_keys():
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 270, 0, 0))
    proc = subprocess.Popen([sys.executable, SIM, "--link", "--seed", "1", "--status"], stdin=slave,
                            stdout=slave, stderr=slave, cwd=ROOT, close_fds=True)
    out = b""
    try:
        out = _read_until(master, b"B: screen splash", out)
        os.write(master, b"f")  # console A's A button: A leaves the splash, B stays
        out = _read_until(master, b"A: screen menu", out)
        assert b"B: screen splash" in out[out.rindex(b"\x1b[H"):]
        os.write(master, b"\r")  # console B's A (Enter)
        out = _read_until(master, b"B: screen menu", out)
        os.write(master, b"q")
        out = _read_until(master, b'"b": {', out)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    assert b"A (left): w a s d move" in out and "\u2588".encode() in out
    # Played by hand, each console keeps its saves in a file of its own (tests/conftest.py's data folder).
    folder = os.path.join(os.environ["XDG_DATA_HOME"], "pisti")
    for name in ("A", "B"):
        path = os.path.join(folder, "sim-pico-link-%s.nvm" % name.lower())
        assert ("sim: console %s: saves kept in %s" % (name, path)).encode() in out


def _read_until(fd, needle, buffer, timeout=60):
    import select
    import time

    end = time.time() + timeout
    while needle not in buffer:
        left = end - time.time()
        assert left > 0, "never saw %r in %r" % (needle, buffer[-2000:])
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            buffer += os.read(fd, 65536)
    return buffer


def test_the_window_plays_both_consoles_by_script(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    proc = subprocess.run([sys.executable, SIM, "--window", "--link", "--keys", HOST + ",WAIT:4000",
                           "--keys2", JOIN, "--status"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    st = json.loads(proc.stdout)
    assert st["a"]["screen"] == st["b"]["screen"] == "table" and st["a"]["pile"] == st["b"]["pile"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_L6_two_processes_link_over_loopback_tcp_and_play():
    """python tools/sim.py --link 127.0.0.1:PORT twice: the first listens,
    the second connects; the consoles host, join and play a few plies (in
    real time: each press well after the other console's, with margins for
    a slow start under load)."""
    addr = "127.0.0.1:%d" % _free_port()
    host = subprocess.Popen([sys.executable, SIM, "--headless", "--link", addr, "--keys",
                             HOST + ",UNTIL:table:90000,A,WAIT:1500,A,WAIT:3000", "--status"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = host.stderr.readline()  # the host is there before the guest starts: it listens
        assert "listening on " + addr in first, first
        guest = subprocess.run([sys.executable, SIM, "--headless", "--link", addr, "--keys",
                                "A,DOWN*5,A,DOWN,A,UNTIL:confirm:60000,A,WAIT:5000,A,WAIT:1500,A,WAIT:4000",
                                "--status"], cwd=ROOT, capture_output=True, text=True,
                               timeout=120)
        hout, herr = host.communicate(timeout=120)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert host.returncode == 0 and guest.returncode == 0, (herr, guest.stderr)
    # the status line says when the two are connected
    assert "sim: link over TCP: connected on " + addr in herr
    assert "sim: link over TCP: connected to " + addr in guest.stderr
    a, b = json.loads(hout), json.loads(guest.stdout)
    assert a["screen"] == b["screen"] == "table"
    assert a["bottom"] == b["bottom"] and a["pile"] == b["pile"] and a["ply"] == b["ply"] >= 1


def test_the_window_routes_each_keys_to_its_console(monkeypatch):
    """Key down and up in the linked window: f presses console A's A button,
    Enter console B's; a key up releases it (a held key is a long press)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from types import SimpleNamespace

    from tools.shims.ssd1306 import Ssd1306
    from tools.simlib.linkfront import PairWindow

    sessions = [SimpleNamespace(rig=SimpleNamespace(oled=Ssd1306(128, h)), frame_serial=0) for h in (64, 32)]
    pair = SimpleNamespace(sessions=sessions)
    front = PairWindow([PICO, profile_buttons("featherwing")], steps=[[], []])
    front.start(pair)
    try:
        pg = front.pg
        for kind, key in ((pg.KEYDOWN, pg.K_f), (pg.KEYDOWN, pg.K_k), (pg.KEYUP, pg.K_f), (pg.KEYDOWN, pg.K_w)):
            pg.event.post(pg.event.Event(kind, key=key, mod=0, unicode=""))
        front.between(pair)
        assert front._pending == [(0, True, "A"), (1, True, "B"), (0, False, "A"), (0, True, "UP")]
        assert front.surface.get_size() == (256 * 4 + PairWindow.GAP, 64 * 4 + 60)
    finally:
        front.close(pair)


def test_L7_the_tcp_status_line_says_connected_and_again_listening_or_reconnecting_when_the_other_leaves():
    """What ``sim: link over TCP: ...`` says as the connection comes and goes
    (the terminal shows the latest line under the screen)."""
    import time

    from tools.simlib.tcplink import TcpEnd

    address = ("127.0.0.1", _free_port())
    where = "127.0.0.1:%d" % address[1]

    def until(end, heard, text):
        deadline = time.monotonic() + 10
        while not heard or heard[-1] != text:
            assert time.monotonic() < deadline, heard
            end.read()
            time.sleep(0.01)

    host = TcpEnd(address)
    heard_host = []
    host.on_change = heard_host.append
    assert host.state() == "listening on " + where
    guest = TcpEnd(address)
    heard_guest = []
    guest.on_change = heard_guest.append
    try:
        assert guest.state() == "connected to " + where
        until(host, heard_host, "connected on " + where)  # the host takes the connection
        guest.close()  # the guest's process quits: a pulled cable
        until(host, heard_host, "the other console left; listening on " + where)
        assert heard_guest == []  # (its own end: nothing to tell)
        guest = TcpEnd(address)  # started again, it connects
        guest.on_change = heard_guest.append
        until(host, heard_host, "connected on " + where)
        host.close()  # now the host quits
        until(guest, heard_guest, "the other console left; reconnecting to " + where)
    finally:
        host.close()
        guest.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_two_terminals_linked_over_tcp_say_connected_and_keep_a_saves_file_each(tmp_path):
    """Two processes on one machine, each in its terminal: the line under each
    screen says when they are connected, and each keeps its own flash."""
    addr = "127.0.0.1:%d" % _free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    ends = []
    try:
        for _ in range(2):
            master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 132, 0, 0))
            proc = subprocess.Popen([sys.executable, SIM, "--link", addr], stdin=slave, stdout=slave, stderr=slave,
                                    cwd=ROOT, close_fds=True, env=env)
            ends.append((proc, master, slave))
            if len(ends) == 1:
                _read_until(master, b"serial> sim: link over TCP: listening on " + addr.encode(), b"")
        _read_until(ends[0][1], b"serial> sim: link over TCP: connected on " + addr.encode(), b"")
        _read_until(ends[1][1], b"serial> sim: link over TCP: connected to " + addr.encode(), b"")
        for (proc, master, _), role in zip(ends, ("listen", "connect"), strict=True):
            if role == "connect":  # the first has quit: a pulled cable
                _read_until(master, b"serial> sim: link over TCP: the other console left; reconnecting to "
                            + addr.encode(), b"")
            os.write(master, b"q")
            path = os.path.join(str(tmp_path), "pisti", "sim-pico-tcp-%s-%s.nvm" % (addr.split(":")[1], role))
            _read_until(master, ("sim: saves kept in %s" % path).encode(), b"")
            assert proc.wait(timeout=30) == 0
    finally:
        for proc, master, slave in ends:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(master)
            os.close(slave)
