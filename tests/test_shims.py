# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Tests of the desktop hardware shims (tools/shims): the real displayio and
SSD1306 driver into the emulator, keypad, clock, settings, nvm, buzzer, and
install/uninstall hygiene."""

import os
import sys
import threading
import time

import pytest

import tools.shims as shims
from tools.shims.clock import CIRCUITPY_TICKS_START, TICKS_PERIOD, ticks_diff
from tools.shims.ssd1306 import Ssd1306

PNG_PATH = "/tmp/pisti_shims_frame.png"


def _nvm_kwargs():
    """FlashNvm when tools/shims/nvm.py exists; else a plain bytearray."""
    try:
        import tools.shims.nvm  # noqa: F401 (only whether it imports)
    except ImportError:
        return {"nvm": bytearray(b"\xff" * 4096)}
    return {}


@pytest.fixture
def make_rig():
    """Install shims; whatever happens, close the rig at the end of the test."""
    made = []

    def make(profile="pico", **kwargs):
        for key, value in _nvm_kwargs().items():
            kwargs.setdefault(key, value)
        rig = shims.install(profile, **kwargs)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.close()
    assert shims.active_rig() is None


def build_display(width=128, height=64, scl="GP5", sda="GP4"):
    """Make the display exactly as device code does."""
    import adafruit_displayio_ssd1306
    import board
    import busio
    import displayio
    import i2cdisplaybus

    displayio.release_displays()
    i2c = busio.I2C(getattr(board, scl), getattr(board, sda))
    bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C)
    return adafruit_displayio_ssd1306.SSD1306(bus, width=width, height=height, auto_refresh=False)


def rect_group(width, height, rects):
    """A Group with one full-screen 1-bit Bitmap with filled ``rects`` (x, y, w, h)."""
    import displayio

    bitmap = displayio.Bitmap(width, height, 2)
    palette = displayio.Palette(2)
    palette[0] = 0x000000
    palette[1] = 0xFFFFFF
    expected = set()
    for x0, y0, w, h in rects:
        for x in range(x0, x0 + w):
            for y in range(y0, y0 + h):
                bitmap[x, y] = 1
                expected.add((x, y))
    group = displayio.Group()
    group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
    return group, bitmap, expected


def set_pixels(oled):
    """Panel pixels set in RAM, as a set of (x, y)."""
    rows = oled.rows()
    return {(x, y) for y, row in enumerate(rows) for x, v in enumerate(row) if v}


def page_layout(width, height, pixels):
    """The framebuffer bytes expected for ``pixels``: bit y%8 of byte (y//8)*width + x."""
    out = bytearray(width * height // 8)
    for x, y in pixels:
        out[(y // 8) * width + x] |= 1 << (y % 8)
    return bytes(out)


# -- display through the real driver ---------------------------------------------


def test_pico_full_frame_pixels_and_byte_counts(make_rig):
    rig = make_rig("pico")
    display = build_display()
    oled = rig.oled
    # The driver's init sequence, decoded (NOTES.md lists it).
    assert oled.display_on and oled.charge_pump
    assert (oled.multiplex, oled.com_pins) == (0x3F, 0x12)
    assert oled.segment_remap and oled.com_remap and oled.addressing_mode == 0
    assert oled.contrast == 0xFF  # brightness=1.0 sends 0x81 0xFF after the init's 0xCF
    assert oled.problems() == []
    assert oled.frames == 0 and oled.bytes_total == 46  # 13 init commands + brightness

    group, _, expected = rect_group(128, 64, [(10, 5, 20, 12), (0, 0, 1, 1), (127, 63, 1, 1), (60, 30, 3, 9)])
    display.root_group = group
    before = oled.bytes_total
    display.refresh()
    assert set_pixels(oled) == expected
    assert oled.framebuffer == page_layout(128, 64, expected)
    assert oled.pixel(10, 5) == 1 and oled.pixel(9, 5) == 0 and oled.pixel(30, 5) == 0
    # A full 128x64 frame: 0x21 and 0x22 windows (6 bytes each) + 0x40 and 1024 data bytes.
    assert (oled.bytes_last_frame, oled.writes_last_frame) == (1037, 3)
    assert oled.bytes_total - before == 1037
    assert (oled.column_window, oled.page_window) == ((0, 127), (0, 7))
    assert oled.frames == 1


def test_refresh_without_change_sends_nothing(make_rig):
    rig = make_rig("pico")
    display = build_display()
    oled = rig.oled
    group, bitmap, _ = rect_group(128, 64, [(4, 4, 8, 8)])
    display.root_group = group
    display.refresh()
    # Blinka quirk, measured: the first refresh after setting root_group draws the
    # whole screen and leaves the TileGrid dirty, so the second one repeats its area.
    display.refresh()
    assert oled.bytes_last_refresh == 1037
    frames, total = oled.frames, oled.bytes_total
    seen = []
    oled.on_frame = lambda o: seen.append(o.bytes_last_frame)
    display.refresh()
    assert oled.bytes_last_refresh == 0 and oled.writes_last_refresh == 0
    assert oled.bytes_total == total and oled.frames == frames
    assert oled.refreshes == 3
    # One changed pixel: one column of one page (6 + 6 window bytes + 0x40 + 1 data byte).
    bitmap[100, 50] = 1
    display.refresh()
    assert (oled.bytes_last_frame, oled.writes_last_frame) == (14, 3)
    assert oled.frames == frames + 1 and seen == [14]  # on_frame: only frames that sent bytes
    assert oled.pixel(100, 50) == 1
    assert oled.column_window == (100, 100) and oled.page_window == (6, 6)


def test_label_pixels_match_the_label_bitmap(make_rig):
    import displayio
    import terminalio
    from adafruit_display_text import bitmap_label

    rig = make_rig("pico")
    display = build_display()
    text = bitmap_label.Label(terminalio.FONT, text="PISTI 7", color=0xFFFFFF, x=3, y=20)
    group = displayio.Group()
    group.append(text)
    display.root_group = group
    display.refresh()
    grid = text.tilegrid
    ox, oy = text.x + grid.x, text.y + grid.y
    bitmap = text.bitmap
    expected = {
        (ox + x, oy + y)
        for y in range(bitmap.height)
        for x in range(bitmap.width)
        if bitmap[x, y]
    }
    assert len(expected) > 40  # the label really drew glyphs
    assert set_pixels(rig.oled) == expected


def test_featherwing_128x32(make_rig):
    rig = make_rig("featherwing")
    display = build_display(128, 32, scl="SCL", sda="SDA")
    oled = rig.oled
    assert (oled.width, oled.height) == (128, 32)
    assert (oled.multiplex, oled.com_pins) == (0x1F, 0x02)
    assert oled.problems() == []
    group, _, expected = rect_group(128, 32, [(0, 0, 128, 1), (0, 31, 128, 1), (50, 8, 7, 16)])
    display.root_group = group
    display.refresh()
    assert set_pixels(oled) == expected
    assert oled.framebuffer == page_layout(128, 32, expected)
    assert oled.page_window == (0, 3)
    assert (oled.bytes_last_frame, oled.writes_last_frame) == (12 + 1 + 512, 3)


def test_wrong_panel_height_is_reported(make_rig):
    rig = make_rig("featherwing")
    build_display(128, 64, scl="SCL", sda="SDA")  # a 128x64 init on the 128x32 wing
    problems = rig.oled.problems()
    assert any("multiplex" in p for p in problems)
    assert any("COM pins" in p for p in problems)


def test_png_and_text_rendering(make_rig):
    rig = make_rig("pico")
    display = build_display()
    group, _, _ = rect_group(128, 64, [(8, 8, 32, 16), (0, 0, 128, 1), (0, 63, 128, 1), (64, 40, 1, 1)])
    display.root_group = group
    display.refresh()
    image = rig.oled.to_image(scale=4)
    assert image.size == (512, 256)
    assert image.getpixel((8 * 4 + 1, 8 * 4 + 1)) == 255
    assert image.getpixel((4, 4 * 4)) == 0
    rig.oled.save_png(PNG_PATH)
    assert os.path.getsize(PNG_PATH) > 0
    lines = rig.oled.to_text().split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][0] == "\u2580" and lines[31][0] == "\u2584"  # rows 0 and 63
    assert lines[4][8:40] == "\u2588" * 32 and lines[4][40] == " "
    assert lines[20][64] == "\u2580"  # (64, 40): top half of line 20
    display.brightness = 0.5
    assert rig.oled.contrast == 128
    display.sleep()
    assert not rig.oled.display_on and set(rig.oled.to_text()) <= {" ", "\n"}
    display.wake()
    assert rig.oled.display_on


# -- the emulator alone ---------------------------------------------------------------


def test_emulator_addressing_modes_and_control_bytes():
    oled = Ssd1306(128, 64)
    # 0x00: a stream of commands; horizontal mode, window columns 2..3 pages 1..2.
    oled.i2c_write(b"\x00\x20\x00\x21\x02\x03\x22\x01\x02\xa1\xc8\xaf\x8d\x14")
    oled.i2c_write(b"\x40\x01\x02\x03\x04\x05")  # wraps: (2,1) (3,1) (2,2) (3,2) then (2,1) again
    assert oled.ram[1 * 128 + 2] == 0x05 and oled.ram[1 * 128 + 3] == 0x02
    assert oled.ram[2 * 128 + 2] == 0x03 and oled.ram[2 * 128 + 3] == 0x04
    # Vertical mode: pages advance first.
    oled.i2c_write(b"\x80\x20\x80\x01\x80\x21\x80\x10\x80\x11\x80\x22\x80\x00\x80\x01")
    oled.i2c_write(b"\x40\xaa\xbb\xcc")
    assert (oled.ram[16], oled.ram[128 + 16], oled.ram[17]) == (0xAA, 0xBB, 0xCC)
    # Page mode with 0xB0-0xB7 and the column nibbles; 0xC0 = one data byte then a control byte.
    oled.i2c_write(b"\x00\x20\x02\xb5\x04\x17")
    oled.i2c_write(b"\xc0\x81\x40\x7e")
    assert oled.ram[5 * 128 + 0x74] == 0x81 and oled.ram[5 * 128 + 0x75] == 0x7E
    assert oled.pixel(0x74, 40) == 1 and oled.pixel(0x74, 41) == 0
    assert oled.bytes_total == 14 + 6 + 16 + 4 + 6 + 4 and oled.writes_total == 6
    assert oled.unknown_commands == []


def test_emulator_mapping_invert_and_text_cells():
    oled = Ssd1306(128, 64)
    oled.i2c_write(b"\x00\x20\x00\x21\x00\x7f\x22\x00\x07\xa1\xc8\x8d\x14\xaf")
    oled.i2c_write(b"\x40\x01")  # pixel (0, 0)
    assert oled.pixel(0, 0) == 1 and oled.lit(0, 0) == 1
    oled.i2c_write(b"\x80\xa0")  # segment remap off mirrors columns
    assert oled.pixel(127, 0) == 1 and oled.pixel(0, 0) == 0
    oled.i2c_write(b"\x80\xa1\x80\xc0")  # COM scan normal mirrors rows
    assert oled.pixel(0, 63) == 1 and oled.pixel(0, 0) == 0
    oled.i2c_write(b"\x80\xc8\x80\xa7")  # back to normal, inverted
    assert oled.pixel(0, 0) == 1 and oled.lit(0, 0) == 0 and oled.lit(5, 5) == 1
    oled.i2c_write(b"\x80\xa6\x80\xae")  # normal, off
    assert oled.pixel(0, 0) == 1 and oled.lit(0, 0) == 0
    oled.i2c_write(b"\x80\xaf\x40\x02\x03")  # column 1: row 1; column 2: rows 0 and 1
    text = oled.to_text().split("\n")[0]
    assert text[:4] == "\u2580\u2584\u2588 "
    with pytest.raises(IndexError):
        oled.pixel(128, 0)
    with pytest.raises(ValueError):
        Ssd1306(96, 16)


# -- keypad, clock, supervisor ----------------------------------------------------------


def _pico_keys(**kwargs):
    import board
    import keypad

    pins = (board.GP10, board.GP11, board.GP12, board.GP13, board.GP14, board.GP15)
    return keypad.Keys(pins, value_when_pressed=False, pull=True, **kwargs)


def test_keypad_events_in_order_with_virtual_timestamps(make_rig):
    rig = make_rig("pico")
    import keypad
    import supervisor

    assert keypad.__name__ == "tools.shims.keypad"
    keys = _pico_keys()
    assert keys.key_count == 6 and len(keys.events) == 0 and not keys.events
    t0 = supervisor.ticks_ms()
    rig.keys.press("A")  # GP14 = key 4
    rig.clock.advance(30)
    rig.keys.release("A")
    rig.keys.tap("UP", hold_ms=40)  # GP10 = key 0
    rig.keys.press("A")
    rig.keys.press("A")  # already held: no new edge
    assert len(keys.events) == 5 and keys.events
    got = []
    event = keypad.Event()
    while keys.events.get_into(event):
        got.append((event.key_number, event.pressed, event.released, ticks_diff(event.timestamp, t0)))
    assert got == [
        (4, True, False, 0),
        (4, False, True, 30),
        (0, True, False, 30),
        (0, False, True, 70),
        (4, True, False, 70),
    ]
    assert keys.events.get() is None and keys.events.get_into(event) is False
    assert keypad.Event(4, True, timestamp=1) == keypad.Event(4, True, timestamp=2)
    assert keypad.Event(4, True) != keypad.Event(4, False)
    assert hash(keypad.Event(3, False, 1)) == hash(keypad.Event(3, False, 9))
    assert keypad.Event().timestamp == supervisor.ticks_ms()
    # reset(): a held key reports a new press.
    keys.reset()
    pressed = keys.events.get()
    assert (pressed.key_number, pressed.pressed) == (4, True)
    rig.keys.release_all()
    assert rig.keys.held == ()


def test_keypad_overflow_deinit_and_pins(make_rig):
    rig = make_rig("pico")
    import board
    import keypad

    rig.keys.press("B")  # held before the scanner exists: first scan reports it
    keys = _pico_keys(max_events=2)
    assert keys.events.get() == keypad.Event(5, True)
    rig.keys.release("B")
    rig.keys.tap("DOWN")
    assert len(keys.events) == 2 and keys.events.overflowed
    assert [keys.events.get(), keys.events.get()] == [keypad.Event(5, False), keypad.Event(1, True)]
    keys.events.clear()
    assert not keys.events.overflowed
    with pytest.raises(ValueError, match="GP10 in use"):
        keypad.Keys((board.GP10,), value_when_pressed=False)
    keys.deinit()
    keys.deinit()  # twice is fine
    with pytest.raises(ValueError):
        _ = keys.events
    again = keypad.Keys((board.GP10,), value_when_pressed=False)
    rig.keys.tap("UP")
    assert [e.pressed for e in (again.events.get(), again.events.get())] == [True, False]
    with pytest.raises(KeyError, match="UP, DOWN, LEFT, RIGHT, A, B"):
        rig.keys.press("START")
    with pytest.raises(TypeError):
        keypad.Keys(("GP11",), value_when_pressed=False)
    with pytest.raises(ValueError):
        keypad.Keys((board.GP11,), value_when_pressed=False, max_events=0)


def test_keypad_wrong_polarity_never_presses(make_rig):
    rig = make_rig("pico")
    import board
    import keypad

    # Buttons pull to GND; value_when_pressed=True with pull=True means a pull-down.
    keys = keypad.Keys((board.GP14,), value_when_pressed=True, pull=True)
    rig.keys.tap("A")
    assert len(keys.events) == 0


def test_clock_sleep_wrap_and_scheduled_input(make_rig):
    rig = make_rig("pico", ticks_start=TICKS_PERIOD - 100)
    import keypad
    import supervisor

    assert supervisor.ticks_ms() == TICKS_PERIOD - 100
    time.sleep(0.25)  # the device thread's time.sleep is virtual
    assert rig.clock.now_ms == 250 and supervisor.ticks_ms() == 150  # wrapped at 2**29
    keys = _pico_keys()
    rig.clock.call_later(120, lambda: rig.keys.tap("RIGHT", hold_ms=30))
    event = keypad.Event()
    loops = 0
    while not keys.events.get_into(event):  # a device-style polling loop
        time.sleep(0.01)
        loops += 1
    assert loops == 12 and event.key_number == 3 and event.pressed
    assert event.timestamp == 150 + 120
    assert rig.clock.now_ms == 250 + 120 + 30  # tap advanced the clock while holding
    # Other threads sleep for real and leave the virtual clock alone.
    before = rig.clock.now_ms
    worker = threading.Thread(target=time.sleep, args=(0.001,))
    worker.start()
    worker.join()
    assert rig.clock.now_ms == before
    assert supervisor.runtime.serial_connected is True
    with pytest.raises(supervisor.ReloadRequested):
        supervisor.reload()
    assert rig.reloads == 1


def test_auto_refresh_runs_in_the_device_threads_sleeps_not_in_blinkas_thread(make_rig):
    # On the virtual clock Blinka's real-time refresh thread (a wake-up every
    # millisecond) is stopped; an auto_refresh display is refreshed by the
    # device thread's sleeps, as CircuitPython's background tasks are.
    rig = make_rig("pico")
    import adafruit_displayio_ssd1306
    import board
    import busio
    import displayio
    import i2cdisplaybus

    assert not displayio.background_thread.is_alive()
    displayio.release_displays()
    bus = i2cdisplaybus.I2CDisplayBus(busio.I2C(board.GP5, board.GP4), device_address=0x3C)
    display = adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64)  # auto_refresh on
    display.root_group = rect_group(128, 64, [(10, 5, 3, 2)])[0]
    frames = rig.oled.frames
    threading.Thread(target=time.sleep, args=(0.05,)).start()  # another thread's sleep: no refresh
    time.sleep(0.05)
    assert rig.oled.frames == frames + 1 and rig.oled.pixel(10, 5) == 1
    display.auto_refresh = False
    display.root_group = rect_group(128, 64, [(20, 5, 3, 2)])[0]
    time.sleep(0.05)
    assert rig.oled.frames == frames + 1 and rig.oled.pixel(20, 5) == 0


def test_the_firmwares_gc_collect_takes_the_youngest_generation(make_rig):
    # A full collection of a test worker's heap costs 50-100 ms and the
    # firmware collects at every screen change: under the rig gc.collect()
    # collects generation 0 (young cycles still go), and is itself again after.
    import gc
    import weakref

    builtin = gc.collect
    rig = make_rig("pico")
    assert gc.collect is not builtin
    seen = []
    gc.callbacks.append(lambda phase, info: seen.append(info["generation"]) if phase == "start" else None)
    try:
        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect()
    finally:
        gc.callbacks.pop()
    assert gone() is None and seen and seen[-1] == 0  # (an automatic collection may come before)
    rig.close()
    assert gc.collect is builtin


def test_default_ticks_start_like_circuitpython(make_rig):
    make_rig("pico")
    import supervisor

    assert supervisor.ticks_ms() == CIRCUITPY_TICKS_START == 2**29 - 65536


def test_realtime_clock_leaves_time_sleep_alone(make_rig):
    real_sleep = time.sleep
    rig = make_rig("pico", realtime=True, ticks_start=0)
    import supervisor

    assert time.sleep is real_sleep
    before = supervisor.ticks_ms()
    rig.clock.advance(5000)  # skip ahead without waiting
    assert ticks_diff(supervisor.ticks_ms(), before) >= 5000


def test_board_pins_follow_the_profile(make_rig):
    make_rig("featherwing")
    import board
    import microcontroller

    assert board.board_id == "adafruit_feather_rp2040"
    assert board.D13 is board.LED and isinstance(board.D9, microcontroller.Pin)
    assert repr(board.D9) == "board.D9" and not hasattr(board, "GP5")
    i2c = board.I2C()
    assert board.I2C() is i2c  # a singleton, as on CircuitPython
    shims.uninstall()
    make_rig("pico")
    assert board.board_id == "raspberry_pi_pico" and board.GP25 is board.LED
    assert not hasattr(board, "I2C") and not hasattr(board, "D9")


# -- settings, nvm, buzzer ----------------------------------------------------------------


def test_getenv_reads_both_profiles(make_rig):
    make_rig("pico")
    assert os.getenv("PISTI_I2C_SDA") == "GP4" and os.getenv("PISTI_I2C_SCL") == "GP5"
    assert os.getenv("PISTI_DISPLAY_ADDR") == 0x3C
    assert (os.getenv("PISTI_DISPLAY_WIDTH"), os.getenv("PISTI_DISPLAY_HEIGHT")) == (128, 64)
    assert os.getenv("PISTI_DISPLAY_ROTATION") == 0
    assert os.getenv("PISTI_BUTTONS") == "UP:GP10,DOWN:GP11,LEFT:GP12,RIGHT:GP13,A:GP14,B:GP15"
    assert os.getenv("PISTI_BUTTON_PRESSED_LOW") == 1
    assert os.getenv("PISTI_BUZZER") == "GP16"
    assert os.getenv("PISTI_NOT_THERE") is None and os.getenv("PISTI_NOT_THERE", 7) == 7
    shims.uninstall()
    rig = make_rig("featherwing")
    assert os.getenv("PISTI_PROFILE") == "featherwing"
    assert (os.getenv("PISTI_I2C_SDA"), os.getenv("PISTI_I2C_SCL")) == ("SDA", "SCL")
    assert os.getenv("PISTI_DISPLAY_HEIGHT") == 32
    assert os.getenv("PISTI_BUTTONS") == "A:D9,B:D6,C:D5"
    assert os.getenv("PISTI_BUZZER") == ""
    assert rig.settings["PISTI_DISPLAY_ADDR"] == 0x3C and rig.buzzer.pin is None
    assert rig.keys.names == ("A", "B", "C")


def test_getenv_string_style_and_get_setting(make_rig):
    make_rig("pico", getenv_style="str")
    import supervisor

    assert os.getenv("PISTI_DISPLAY_ADDR") == "0x3C"
    assert os.getenv("PISTI_I2C_SDA") == "GP4"
    assert supervisor.get_setting("PISTI_DISPLAY_ADDR") == 60
    assert supervisor.get_setting("PISTI_NOT_THERE", "x") == "x"
    shims.uninstall()
    make_rig("pico")
    assert not hasattr(sys.modules["supervisor"], "get_setting")


# Each line a grammar case, read as CircuitPython reads settings.toml. A lone \r is not a line end
# there, nor is a form feed; a line the board cannot read (no "=") is skipped, not an error.
GRAMMAR = (
    "\ufeffFIRST = 1\n"  # a byte order mark is part of the first key
    "# comment\n"
    'S = "a \\"q\\" \\u0130 \\t#x \\x\\q" # trailing\n'
    'U = "\\u0x41\\u 042"\n'  # the \u digits go through C's strtoul(..., 16)
    "FF = \"a\fb\"\n"
    "H = 0X1f\n"
    "N=-12  # negative\n"
    "P = +5\r\n"
    "Z = 00\n"
    "LEAD = 011\n"
    "LEAD8 = 08\n"
    "OCT = 0o17\n"
    "UNDER = 1_000\n"
    "ALONE = _\n"
    "BIG = 99999999999\n"
    "WORD = GP16\n"
    "BOOL = true\n"
    "FLOAT = 0.75\n"
    "EMPTY =\n"
    "EMPTYC = # nothing\n"
    'OPEN = "no end\n'
    'UBIG = "\\U00110000"\n'
    "CR = 1\rLOST = 2\n"
    "oops I pasted this\n"
    "   IND\t=\t3\n"
    'S = "second S is ignored"\n'
    "[table]\n"
    'T = "unreachable"\n'
)


def test_getenv_follows_circuitpython_grammar(make_rig, tmp_path, monkeypatch):
    path = tmp_path / "settings.toml"
    path.write_bytes(GRAMMAR.encode("utf-8"))
    monkeypatch.setenv("PISTI_SHIM_TEST_OTHER", "from-env")
    monkeypatch.setenv("SHIM_TEST_OTHER", "from-env")
    absent = object()
    make_rig("pico", settings_path=path)  # up to CircuitPython 10.1: bare values are int(text, 0)
    assert os.getenv("S") == 'a "q" \u0130 \t#x xq'
    assert (os.getenv("U"), os.getenv("FF"), os.getenv("IND")) == ("AB", "a\fb", 3)
    assert [os.getenv(k) for k in ("H", "N", "P", "Z", "OCT", "UNDER", "ALONE", "BIG")] == [
        31, -12, 5, 0, 15, 1000, 0, 99999999999]
    for key in ("LEAD", "LEAD8", "WORD", "BOOL", "FLOAT", "EMPTY", "EMPTYC", "OPEN", "UBIG", "CR"):
        with pytest.raises(ValueError, match=key):
            os.getenv(key)
    for key in ("FIRST", "LOST", "T"):  # not readable, and not from os.environ either
        assert os.getenv(key, absent) is absent
    assert os.getenv("PISTI_SHIM_TEST_OTHER") is None  # device namespace: settings only
    assert os.getenv("SHIM_TEST_OTHER") == "from-env"  # desktop libraries keep os.environ
    shims.uninstall()

    make_rig("pico", settings_path=path, getenv_style="str")  # 10.2 on: the text; the default if unreadable
    import supervisor

    assert [os.getenv(k) for k in ("H", "LEAD", "UNDER", "WORD", "FLOAT", "EMPTYC")] == [
        "0X1f", "011", "1_000", "GP16", "0.75", ""]
    for key in ("EMPTY", "OPEN", "UBIG"):
        assert os.getenv(key, absent) is absent
    get = supervisor.get_setting  # true/false, then C's strtol (0 is octal; 32 bits), then a float
    assert [get(k) for k in ("H", "Z", "LEAD", "LEAD8", "UNDER", "ALONE", "BIG", "BOOL", "FLOAT", "S")] == [
        31, 0, 9, 8.0, 1000.0, 0.0, 2**31 - 1, True, 0.75, 'a "q" \u0130 \t#x xq']
    assert isinstance(get("LEAD8"), float) and isinstance(get("UNDER"), float)
    for key in ("OCT", "WORD", "EMPTY", "EMPTYC", "OPEN", "CR"):
        with pytest.raises(ValueError, match=key):
            get(key)


def test_a_bad_profile_changes_nothing(tmp_path, monkeypatch):
    import busio

    original_i2c, original_getenv = busio.I2C, os.getenv
    profile = (shims.BOARDS_DIR / "pico.toml").read_text(encoding="utf-8")
    (tmp_path / "pico.toml").write_text(profile.replace("PISTI_DISPLAY_WIDTH = 128", "PISTI_DISPLAY_WIDTH = 128px"),
                                        encoding="utf-8")
    monkeypatch.setattr(shims, "BOARDS_DIR", tmp_path)
    with pytest.raises(ValueError, match=r"pico.toml line \d+: PISTI_DISPLAY_WIDTH = 128px: '128px' is not a number"):
        shims.install("pico", **_nvm_kwargs())
    with pytest.raises(ValueError, match="unknown profile"):
        shims.install("esp32", **_nvm_kwargs())
    assert shims.active_rig() is None
    assert busio.I2C is original_i2c and os.getenv is original_getenv


def test_nvm_is_added_to_blinkas_microcontroller(make_rig):
    rig = make_rig("pico")
    import microcontroller

    assert microcontroller.nvm is rig.nvm and len(microcontroller.nvm) == 4096
    assert hasattr(microcontroller, "Pin")  # still Blinka's module
    microcontroller.nvm[0:3] = b"abc"
    assert bytes(microcontroller.nvm[0:3]) == b"abc"


def test_nvm_file_survives_a_reinstall(make_rig, tmp_path):
    pytest.importorskip("tools.shims.nvm")
    path = tmp_path / "nvm.bin"
    make_rig("pico", nvm_path=str(path))
    import microcontroller

    microcontroller.nvm[10:12] = b"\x01\x02"
    shims.uninstall()
    rig = make_rig("pico", nvm_path=str(path))
    assert bytes(microcontroller.nvm[10:12]) == b"\x01\x02" and microcontroller.nvm is rig.nvm


def test_buzzer_records_tones(make_rig):
    rig = make_rig("pico")
    import board
    import pwmio
    import supervisor

    start_tick = supervisor.ticks_ms()
    piezo = pwmio.PWMOut(board.GP16, frequency=440, duty_cycle=0, variable_frequency=True)
    assert rig.buzzer.tones == [] and rig.buzzer.sounding is None
    piezo.duty_cycle = 0x8000
    rig.clock.advance(100)
    piezo.frequency = 880
    assert rig.buzzer.sounding == 880
    rig.clock.advance(50)
    piezo.duty_cycle = 0
    tones = [(t.frequency, t.start_ms, t.duration_ms) for t in rig.buzzer.tones]
    assert tones == [(440, 0, 100), (880, 100, 50)]
    assert rig.buzzer.tones[0].start_tick == start_tick
    with pytest.raises(ValueError, match="GP16 in use"):
        pwmio.PWMOut(board.GP16)
    piezo.deinit()
    fixed = pwmio.PWMOut(board.GP16, frequency=1000)
    with pytest.raises(AttributeError):
        fixed.frequency = 2000
    with pytest.raises(ValueError):
        fixed.duty_cycle = 70000
    other = pwmio.PWMOut(board.GP17, frequency=500, duty_cycle=0x8000)  # no piezo there
    assert rig.buzzer.frequencies == [440, 880] and other.duty_cycle == 0x8000


# -- I2C wiring and install hygiene ---------------------------------------------------


def test_i2c_wiring_lock_and_absent_device(make_rig):
    rig = make_rig("pico")
    import board
    import busio

    with pytest.raises(RuntimeError, match="No pull up"):
        busio.I2C(board.GP1, board.GP0)
    i2c = busio.I2C(board.GP5, board.GP4)
    with pytest.raises(ValueError, match="GP5 in use"):
        busio.I2C(board.GP5, board.GP4)
    with pytest.raises(RuntimeError, match="requires lock"):
        i2c.writeto(0x3C, b"\x80\xaf")
    assert i2c.try_lock() and not i2c.try_lock()
    assert i2c.scan() == [0x3C]
    i2c.writeto(0x3C, b"\x00\xaf\x8d\x14")
    assert rig.oled.display_on
    rig.oled.connected = False
    with pytest.raises(OSError) as info:
        i2c.writeto(0x3C, b"\x80\xae")
    assert info.value.errno == 19
    with pytest.raises(OSError):
        i2c.writeto(0x3D, b"\x80\xae")
    i2c.unlock()
    i2c.deinit()
    with pytest.raises(ValueError):
        i2c.try_lock()
    busio.I2C(board.GP5, board.GP4)  # pins are free again


def test_install_uninstall_twice_in_one_process(make_rig):
    import board
    import busdisplay
    import busio
    import microcontroller

    originals = (
        busio.I2C,
        os.getenv,
        time.sleep,
        sys.modules.get("keypad"),
        sys.modules.get("supervisor"),
        busdisplay.BusDisplay.__dict__["_refresh_display"],
        getattr(microcontroller, "nvm", None),
    )
    for profile, height, scl, sda in (("pico", 64, "GP5", "GP4"), ("featherwing", 32, "SCL", "SDA")) * 2:
        rig = make_rig(profile)
        with pytest.raises(RuntimeError, match="already installed"):
            shims.install(profile, **_nvm_kwargs())
        display = build_display(128, height, scl=scl, sda=sda)
        group, _, expected = rect_group(128, height, [(1, 1, 5, 5)])
        display.root_group = group
        display.refresh()
        assert set_pixels(rig.oled) == expected and rig.oled.frames == 1
        rig.close()
        rig.close()  # idempotent
        assert shims.active_rig() is None
        now = (
            busio.I2C,
            os.getenv,
            time.sleep,
            sys.modules.get("keypad"),
            sys.modules.get("supervisor"),
            busdisplay.BusDisplay.__dict__["_refresh_display"],
            getattr(microcontroller, "nvm", None),
        )
        assert now == originals
        assert not hasattr(board, "GP5") and not hasattr(board, "D9")
