# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Three or four linked consoles in the desktop simulator (RULES.md L-11 ..
L-17's ring): ``sim.py --link --consoles N`` runs them in one process,
console ``i``'s first UART cabled to console ``i+1``'s second (two
consoles: their first UARTs, one cable, the second UARTs hearing nothing);
the terminal shows them in a 2x2 grid (braille when small) with the keys
going to the console in focus; ``sim.py --link HOST:PORT --consoles N
--seat I`` makes a ring of N processes over TCP. Which UART a
``busio.UART(tx, rx)`` is, the shim tells by its pins against the
console's settings (``PISTI_LINK_TX``, ``PISTI_LINK2_TX``)."""

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
import time

import pytest

from tools import shims, sim
from tools.shims import uart
from tools.simlib.script import profile_buttons

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim.py")
PICO = profile_buttons("pico")
WING = profile_buttons("featherwing")
UART_ARGS = {"baudrate": 115200, "timeout": 0, "receiver_buffer_size": 256}
# The link pins of each profile: (first TX, first RX), (second TX, second RX).
PINS = {"pico": (("GP0", "GP1"), ("GP8", "GP9")), "featherwing": (("TX", "RX"), ("D24", "D25"))}

# A firmware that only talks on its link UARTs (as the ring's will: busio.UART on the settings' pins):
# it writes <its seed> on its first UART every fifth tick, prints what each UART heard, then idles
# (in one process: a console that ends ends the run) or ends (a process of its own).
CHATTY = '''
import os
import time

import board
import busio

me = "<%%s>" %% os.getenv("PISTI_SEED")
kw = dict(baudrate=115200, timeout=0, receiver_buffer_size=256)
pins = ("GP0", "GP1", "GP8", "GP9") if hasattr(board, "GP0") else ("TX", "RX", "D24", "D25")
first = busio.UART(getattr(board, pins[0]), getattr(board, pins[1]), **kw)
second = busio.UART(getattr(board, pins[2]), getattr(board, pins[3]), **kw)
heard = {"first": b"", "second": b""}
for i in range(%(ticks)d):
    if i %% 5 == 0:
        first.write(me.encode())
    time.sleep(%(tick)s)
    for name, port in (("first", first), ("second", second)):
        data = port.read(port.in_waiting or 1)
        if data:
            heard[name] += data
print("console %%s first heard %%r second heard %%r" %% (me, heard["first"], heard["second"]))
while %(idle)s:
    time.sleep(0.01)
'''


def run_sim(*args):
    out, err = io.StringIO(), io.StringIO()
    code = sim.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def chatty(tmp_path, ticks=20, tick=0.01, idle=True):
    path = tmp_path / "code.py"
    path.write_text(CHATTY % {"ticks": ticks, "tick": tick, "idle": idle}, encoding="utf-8")
    return str(path)


def heard(err):
    """{console's seed text: (what its first UART heard, its second's)} from CHATTY's lines."""
    out = {}
    for line in err.splitlines():
        if line.startswith("console <"):
            words = line.split(" ")
            out[words[1]] = (eval(words[4]), eval(words[7]))  # (the reprs of two bytes objects)
    return out


# -- the shim: which UART, which cable ------------------------------------------------


def _open_links(profile, ends, tmp_path, **settings):
    """Install a console of ``profile`` with cable ``ends`` (first, second),
    open busio.UART on its first and second link pins and on two other
    pins; returns the three UARTs (the rig is closed again)."""
    from console import PICO as PICO_TOML
    from console import WING as WING_TOML
    from console import settings_file

    path = settings_file(tmp_path / ("settings-%s.toml" % profile), settings,
                         PICO_TOML if profile == "pico" else WING_TOML)
    rig = shims.install(profile, settings_path=path, nvm=bytearray(4096))
    try:
        rig.link_end, rig.link_end2 = ends
        import board
        import busio

        (tx1, rx1), (tx2, rx2) = PINS[profile]
        tx1, tx2 = settings.get("PISTI_LINK_TX", tx1), settings.get("PISTI_LINK2_TX", tx2)
        first = busio.UART(getattr(board, tx1), getattr(board, rx1), **UART_ARGS)
        second = busio.UART(getattr(board, tx2), getattr(board, rx2), **UART_ARGS)
        other = busio.UART(board.A0, board.A1, **UART_ARGS)
        return first, second, other
    finally:
        rig.close()


@pytest.mark.parametrize("count", [3, 4])
def test_in_a_ring_each_first_uart_reaches_the_next_consoles_second_uart_only(count, tmp_path):
    """The pins of busio.UART choose the cable: a console's first UART is
    cable i's end a, its second cable i-1's end b; bytes written on console
    i's first UART arrive on console i+1's second and nowhere else (a
    FeatherWing in the ring uses its own pins, TX and D24)."""
    clock = [0]
    cables, ends = uart.wire(count, lambda: clock[0])
    assert len(cables) == count
    opened = []
    for i in range(count):
        profile = "featherwing" if i == 1 else "pico"
        first, second, other = _open_links(profile, ends[i], tmp_path)
        assert first is ends[i][0] is cables[i].a and second is ends[i][1] is cables[i - 1].b
        assert other not in (first, second) and other.cable.cut  # pins of no link: unplugged
        opened.append((first, second, other))
    for i, (first, _, _) in enumerate(opened):
        first.write(b"from %d" % i)
    clock[0] += 10  # ms: a few bytes' time on the line
    for j, (first, second, other) in enumerate(opened):
        assert second.read() == b"from %d" % ((j - 1) % count)
        assert first.read() is None and other.read() is None


def test_two_consoles_join_their_first_uarts_and_the_second_uarts_hear_nothing(tmp_path):
    clock = [0]
    cables, ends = uart.wire(2, lambda: clock[0])
    assert len(cables) == 1 and ends == [(cables[0].a, None), (cables[0].b, None)]
    a = _open_links("pico", ends[0], tmp_path)
    b = _open_links("featherwing", ends[1], tmp_path)
    assert a[0] is cables[0].a and b[0] is cables[0].b
    for first, second, _ in (a, b):
        first.write(b"hello")
        second.write(b"lost")
    clock[0] += 10
    assert (a[0].read(), b[0].read()) == (b"hello", b"hello")
    for _, second, _ in (a, b):
        assert second.cable.cut and second.read() is None


def test_the_link_pins_are_the_consoles_own_settings(tmp_path):
    """PISTI_LINK_TX and PISTI_LINK2_TX as the console's settings.toml gives
    them (a test's or a board's wiring), the profiles' defaults when unset."""
    clock = [0]
    _, ends = uart.wire(3, lambda: clock[0])
    first, second, _ = _open_links("pico", ends[0], tmp_path, PISTI_LINK_TX="GP4", PISTI_LINK2_TX="GP12")
    assert first is ends[0][0] and second is ends[0][1]
    assert uart.link_pins({}, shims.boards.make_pins("featherwing")[1]) == {
        "PISTI_LINK_TX": 0, "PISTI_LINK_RX": 1, "PISTI_LINK2_TX": 24, "PISTI_LINK2_RX": 25}


def test_a_plugged_cable_goes_to_the_first_uart_even_when_the_second_opens_first(tmp_path):
    """A test's one cable (uart.plug) stays the first link's while the
    firmware listens on both UARTs; plug(end, uart.SECOND) is the second's."""
    clock = [0]
    cable, other = uart.Cable(lambda: clock[0]), uart.Cable(lambda: clock[0])
    uart.plug(cable.a)
    uart.plug(other.b, uart.SECOND)
    from console import settings_file

    rig = shims.install("pico", settings_path=settings_file(tmp_path / "s.toml"), nvm=bytearray(4096))
    try:
        import board
        import busio

        second = busio.UART(board.GP8, board.GP9, **UART_ARGS)
        first = busio.UART(board.GP0, board.GP1, **UART_ARGS)
    finally:
        rig.close()
    assert first is cable.a and second is other.b and not uart._PLUGGED


# -- sim.py --link --consoles N ------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
def test_each_consoles_firmware_hears_its_neighbour_on_the_right_uart(count, tmp_path):
    """The whole plumbing: N consoles in one process, each firmware opening
    busio.UART on its settings' pins; console i's bytes reach console i+1's
    second UART (two consoles: each other's first UART), console C a
    FeatherWing."""
    keys = ["--keys", "WAIT:400"] + sum((["--keys%d" % k, "WAIT:400"] for k in range(2, count + 1)), [])
    extra = ["--consoles", str(count), "--profile3", "featherwing"] if count > 2 else []
    code, out, err = run_sim("--headless", "--code", chatty(tmp_path), "--link", "--seed", "10", *keys, *extra)
    assert code == 0, err
    got = heard(err)
    seeds = ["<%d>" % (10 + i) for i in range(count)]
    assert sorted(got) == sorted(seeds), err
    for i, me in enumerate(seeds):
        first, second = got[me]
        previous = seeds[(i - 1) % count]
        if count == 2:
            assert first.startswith(seeds[1 - i].encode()) and set(first.split(b">")) == {seeds[1 - i][:-1].encode(),
                                                                                          b""}
            assert second == b""
        else:
            assert first == b"" and second.startswith(previous.encode())
            assert set(second.split(b">")) == {previous[:-1].encode(), b""}


def test_four_consoles_boot_to_the_main_menu_and_status_gives_each_and_the_cables():
    code, out, err = run_sim("--headless", "--link", "--consoles", "4", "--profile4", "featherwing",
                             "--lang3", "tr", "--keys", "A,WAIT:500", "--keys2", "A,WAIT:500", "--keys3",
                             "A,WAIT:500", "--keys4", "A,WAIT:500", "--status")
    assert code == 0, err
    st = json.loads(out)
    assert sorted(st) == ["a", "b", "c", "cable", "cables", "d"]
    assert [st[k]["screen"] for k in "abcd"] == ["menu"] * 4
    assert [st[k]["lang"] for k in "abcd"] == ["en", "en", "tr", "en"]
    assert [(c["from"], c["to"]) for c in st["cables"]] == [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]
    assert st["cable"] == {"written": 0, "dropped": 0, "corrupted": 0}  # (the menus leave the UARTs alone)


def test_two_consoles_status_is_as_before():
    code, out, err = run_sim("--headless", "--link", "--keys", "WAIT:100", "--status")
    assert code == 0, err
    assert sorted(json.loads(out)) == ["a", "b", "cable"]


@pytest.mark.parametrize("args, words", [
    (["--headless", "--link", "--consoles", "5"], "--consoles takes 2, 3 or 4"),
    (["--headless", "--link", "--consoles", "1"], "--consoles takes 2, 3 or 4"),
    (["--headless", "--consoles", "3"], "--consoles needs --link"),
    (["--headless", "--keys3", "A"], "--keys3 needs --link"),
    (["--headless", "--link", "--keys3", "A"], "--keys3 needs --consoles 3 or 4"),
    (["--headless", "--link", "--consoles", "3", "--shot4", "d.png"], "--shot4 needs --consoles 4"),
    (["--link", "--consoles", "3", "--keys3", "A"], "--keys3 needs --headless"),
    (["--headless", "--link", "--consoles", "3", "--nvm2", "x.nvm", "--nvm3", "x.nvm"],
     "--nvm2 and --nvm3 name the same file"),
    (["--headless", "--link", "--consoles", "4", "--no-nvm", "--nvm4", "x.nvm"], "--no-nvm and --nvm4"),
    (["--headless", "--link", "--seat", "1"], "--seat needs --link HOST:PORT --consoles 3 or 4"),
    (["--headless", "--link", "127.0.0.1:7000", "--seat", "1"], "--seat needs --link HOST:PORT"),
    (["--headless", "--link", "127.0.0.1:7000", "--consoles", "3"], "give this process's --seat (0 .. 2)"),
    (["--headless", "--link", "127.0.0.1:7000", "--consoles", "3", "--seat", "3"], "has the seats 0 .. 2"),
    (["--headless", "--link", "127.0.0.1:65534", "--consoles", "4", "--seat", "0"], "past 65535"),
])
def test_ring_usage_errors_say_what_is_wrong(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_sim(*args)
    assert code == 2 and words in err and not out, err


# -- the terminal's 2x2 grid and keys ---------------------------------------------------------


def _pictures(count, lit=None, heights=None):
    """``count`` blank frames (128 wide; ``heights`` or 64 high); ``lit`` (console, x, y) one pixel on."""
    pics = []
    for i in range(count):
        height = heights[i] if heights else 64
        rows = [[0] * 128 for _ in range(height)]
        if lit and lit[0] == i:
            rows[lit[2]][lit[1]] = 1
        pics.append((rows, 128, height, 1))
    return pics


def test_four_screens_fit_a_131x38_terminal_in_braille_and_a_pixel_is_its_dot():
    from tools.simlib.linkfront import choose_grid_cells, compose_grid, grid_size, ring_help

    pics = _pictures(4, lit=(3, 5, 6))  # console D, pixel x=5, y=6
    assert grid_size(pics, "braille") == (131, 35) and grid_size(pics, "half") == (259, 67)
    assert choose_grid_cells("auto", pics, 259, 70) == "half"
    assert choose_grid_cells("auto", pics, 258, 70) == choose_grid_cells("auto", pics, 259, 69) == "braille"
    lines = compose_grid(pics, "auto", 131, 38, ring_help(PICO, 2, 4), ["screen menu"] * 4, [""] * 4, 2,
                         color=False)
    grid, under = lines[:35], lines[35:]
    assert all(len(line) == 131 for line in grid)
    assert len(under) <= 3 and all(len(line) <= 131 for line in under)
    # D is bottom right: the frame's top line, A's 16 lines, the middle line, then D's cell (2x4 pixels a character)
    row, column = 1 + 16 + 1 + 6 // 4, 1 + 64 + 1 + 5 // 2
    assert grid[row][column] == "\u2820"  # dot 6: the right column (x odd), the third row (y % 4 == 2)
    dots = [(r, c) for r, line in enumerate(grid) for c, ch in enumerate(line) if "\u2801" <= ch <= "\u28ff"]
    assert dots == [(row, column)]
    assert grid[0].startswith("\u250c\u2500\u2500 A: screen menu \u2500")
    assert grid[17].startswith("\u251c\u2500\u25b6 C: screen menu \u2500")  # C is in focus
    assert "keys go to C" in "\n".join(under)


def test_three_screens_leave_the_fourth_cell_empty_and_a_featherwing_fits_its_cell():
    from tools.simlib.linkfront import compose_grid

    pics = _pictures(3, lit=(2, 127, 31), heights=(64, 64, 32))  # C: a FeatherWing, its last pixel
    lines = compose_grid(pics, "braille", 131, 38, "help", ["a", "b", "c"], ["", "", ""], 0, color=False)
    assert len(lines) == 35 + 1 and all(len(line) == 131 for line in lines[:35])
    assert lines[1 + 16 + 1 + 7][1 + 63] == "\u2880"  # dot 8: x odd, y % 4 == 3
    assert lines[18][66:] == " " * 64 + "\u2502"  # the empty cell
    assert lines[17].endswith("\u2500" * 64 + "\u2524")


def test_the_ring_terminal_sends_keys_to_the_console_in_focus():
    from tools.simlib.linkfront import PairTerminal
    from tools.simlib.session import SimQuit

    t = PairTerminal([PICO, PICO, WING, PICO], hold_ms=60, long_ms=1000)
    t.feed(["z"])  # A's A button (the one-console keys)
    t.feed(["\t", "ENTER", "X"])  # Tab: B in focus; Enter = A, X = long B
    t.feed(["3", "a", "c"])  # 3: C, a FeatherWing (a = A, c = C)
    t.feed(["\t", "\t", "UP"])  # D, then round to A
    assert [list(q) for q in t.queues] == [[("A", 60), ("UP", 60)], [("A", 60), ("B", 1000)],
                                           [("A", 60), ("C", 60)], []]
    assert t.focus == 0 and "keys go to A" in t.help
    with pytest.raises(SimQuit):
        t.feed(["q"])
    two = PairTerminal([PICO, PICO])
    two.feed(["\t", "w", "UP"])  # two consoles: each has its own keys, Tab does nothing
    assert [list(q) for q in two.queues] == [[("UP", 60)], [("UP", 60)]]


def test_the_ring_window_sends_keys_to_the_console_in_focus(monkeypatch):
    """A key's up goes where its down went, even after Tab moved the focus."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from types import SimpleNamespace

    from tools.shims.ssd1306 import Ssd1306
    from tools.simlib.linkfront import PairWindow

    sessions = [SimpleNamespace(rig=SimpleNamespace(oled=Ssd1306(128, h)), frame_serial=0) for h in (64, 64, 32, 64)]
    pair = SimpleNamespace(sessions=sessions)
    front = PairWindow([PICO, PICO, WING, PICO], steps=[[], [], [], []])
    front.start(pair)
    try:
        pg = front.pg
        for kind, key in ((pg.KEYDOWN, pg.K_z), (pg.KEYDOWN, pg.K_TAB), (pg.KEYUP, pg.K_z), (pg.KEYDOWN, pg.K_RETURN),
                          (pg.KEYDOWN, pg.K_3), (pg.KEYDOWN, pg.K_c), (pg.KEYUP, pg.K_RETURN)):
            pg.event.post(pg.event.Event(kind, key=key, mod=0, unicode=""))
        front.between(pair)
        assert front._pending == [(0, True, "A"), (0, False, "A"), (1, True, "A"), (2, True, "C"), (1, False, "A")]
        assert front.focus == 2
        w, h = 128 * 4, 64 * 4 + PairWindow.LABEL
        assert front.surface.get_size() == (2 * w + PairWindow.GAP, 2 * h + PairWindow.GAP + 40)
    finally:
        front.close(pair)


def _read_until(fd, needle, buffer, timeout=60):
    import select

    end = time.time() + timeout
    while needle not in buffer:
        left = end - time.time()
        assert left > 0, "never saw %r in %r" % (needle, buffer[-2000:])
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            buffer += os.read(fd, 65536)
    return buffer


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_four_consoles_in_a_small_terminal_tab_moves_the_keys_on(tmp_path):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 38, 131, 0, 0))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, SIM, "--link", "--consoles", "4", "--seed", "1"], stdin=slave,
                            stdout=slave, stderr=slave, cwd=ROOT, close_fds=True, env=env)
    out = b""
    try:
        out = _read_until(master, "D: screen splash".encode(), out)
        os.write(master, b"z")  # A is in focus
        out = _read_until(master, "\u25b6 A: screen menu".encode(), out)
        os.write(master, b"\t\t")
        out = _read_until(master, "\u25b6 C: screen splash".encode(), out)
        os.write(master, b"\r")
        out = _read_until(master, "\u25b6 C: screen menu".encode(), out)
        shown = out[out.rindex(b"\x1b[H"):].decode("utf-8", "replace")
        assert "B: screen splash" in shown and "D: screen splash" in shown
        assert "\u28ff" in shown or any("\u2801" <= ch <= "\u28fe" for ch in shown)  # braille: 131x38
        os.write(master, b"q")
        out = _read_until(master, b"sim: console D: saves kept", out)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    folder = os.path.join(str(tmp_path), "pisti")
    for name in "cd":
        assert os.path.exists(os.path.join(folder, "sim-pico-link-%s.nvm" % name))


# -- a ring over TCP -----------------------------------------------------------------------------


def _free_ports(count):
    """A base port with ``count`` free ports from it."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + count > 65535:
            continue
        try:
            held = []
            for i in range(count):
                t = socket.socket()
                held.append(t)
                t.bind(("127.0.0.1", base + i))
            return base
        except OSError:
            continue
        finally:
            for t in held:
                t.close()
    raise AssertionError("no %d free ports in a row" % count)


def test_tcp_ring_addresses_and_the_bytes_round_the_ring():
    """Seat I listens on PORT+I (its second UART) and connects to
    PORT+(I+1)%N (its first): each first UART's bytes reach the next seat's
    second UART and nowhere else."""
    from tools.simlib.tcplink import TcpEnd, listen_host, ring_addresses

    assert ring_addresses(("127.0.0.1", 7000), 2, 3) == (("127.0.0.1", 7000), ("127.0.0.1", 7002))
    assert ring_addresses(("pi-4.local", 7000), 0, 4) == (("pi-4.local", 7001), ("", 7000))
    assert listen_host("localhost") == "localhost" and listen_host("192.168.1.5") == ""
    count = 3
    base = _free_ports(count)
    seats = []
    try:
        for seat in range(count):
            first, second = ring_addresses(("127.0.0.1", base), seat, count)
            listener = TcpEnd(second, role="listen")
            seats.append((TcpEnd(first, role="connect"), listener))
        deadline = time.monotonic() + 10
        while not all(end.sock is not None for pair in seats for end in pair):
            assert time.monotonic() < deadline, [end.state() for pair in seats for end in pair]
            for pair in seats:
                for end in pair:
                    end.next_poll = 0
                    end.poll()
            time.sleep(0.02)
        for seat, (first, _) in enumerate(seats):
            first.write(b"seat %d" % seat)
        got = [b""] * count
        deadline = time.monotonic() + 10
        while any(len(g) < 6 for g in got):
            assert time.monotonic() < deadline, got
            for seat, (_, second) in enumerate(seats):
                got[seat] += second.read() or b""
            time.sleep(0.01)
        assert got == [b"seat %d" % ((seat - 1) % count) for seat in range(count)]
        assert all(first.read() is None for first, _ in seats)
    finally:
        for pair in seats:
            for end in pair:
                end.close()


def test_three_processes_make_a_ring_over_tcp(tmp_path):
    """python tools/sim.py --link 127.0.0.1:PORT --consoles 3 --seat I, for
    I = 0, 1, 2: each says both its UARTs are connected, and each firmware
    hears its neighbour on its second UART."""
    base = _free_ports(3)
    code = chatty(tmp_path, ticks=60, tick=0.05, idle=False)  # real time: 3 s of writes, then code.py ends
    procs = []
    try:
        for seat in range(3):
            procs.append(subprocess.Popen(
                [sys.executable, SIM, "--headless", "--code", code, "--link", "127.0.0.1:%d" % base, "--consoles",
                 "3", "--seat", str(seat), "--seed", str(10 + seat), "--keys", "WAIT:30000"], cwd=ROOT,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        results = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for seat, ((_, err), p) in enumerate(zip(results, procs, strict=True)):
        assert p.returncode == 0, err
        for text in ("(seat %d, first UART, to seat %d): connected to 127.0.0.1:%d" % (seat, (seat + 1) % 3,
                                                                                    base + (seat + 1) % 3),
                     "(seat %d, second UART, from seat %d): connected on 127.0.0.1:%d" % (seat, (seat - 1) % 3,
                                                                                       base + seat)):
            assert text in err, err
        first, second = heard(err)["<%d>" % (10 + seat)]
        assert first == b"" and ("<%d>" % (10 + (seat - 1) % 3)).encode() in second, err
