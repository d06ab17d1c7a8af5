# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Desktop hardware shims: run the device's code.py and lib/ unchanged on CPython.

``install(profile)`` builds a :class:`Rig` (a simulated board wired like the
profile in ``tools/boards/<profile>.toml``) and patches, in this process::

    board            Blinka's OS-agnostic mock board, its pins replaced by the
                     real board's names (board.GP4, board.D9, ...)
    busio.I2C        tools.shims.i2c.FakeI2C, wired to an SSD1306 emulator
    busio.UART       tools.shims.uart.UART (an end of a virtual cable: by its pins the
                     rig.link_end or link_end2, or uart.plug)
    keypad           tools.shims.keypad (thread-free, scripted by rig.keys)
    supervisor       tools.shims.supervisor (ticks_ms from rig.clock)
    microcontroller  Blinka's, plus .nvm (tools.shims.nvm.FlashNvm)
    pwmio.PWMOut     tools.shims.pwm.FakePWMOut (the piezo: rig.buzzer)
    analogio         tools.shims.supply (the supply: rig.supply, VSYS on
    digitalio        GP29/3 and USB present on GP24, settable)
    os.getenv        reads the settings.toml, CircuitPython style
    time.sleep       virtual mode only, in the device thread: advances rig.clock
    busdisplay       BusDisplay._refresh_display wrapped to mark frames

``rig.close()`` (or ``uninstall()``) releases displays and undoes all of it,
so install/close can repeat in one pytest process. See README.md here.
"""

import gc
import os
import sys
import threading
import time
from pathlib import Path

# Blinka must see this before ``import board`` anywhere in the process.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from . import _active
from .clock import CIRCUITPY_TICKS_START, Clock

__all__ = ["install", "uninstall", "active_rig", "Rig", "ROOT", "BOARDS_DIR"]

ROOT = Path(__file__).resolve().parents[2]
BOARDS_DIR = ROOT / "tools" / "boards"
NVM_SIZE = 4096


def active_rig():
    """The installed Rig, or None."""
    return _active.RIG


def uninstall():
    """Close the installed rig, if any."""
    if _active.RIG is not None:
        _active.RIG.close()


def _wiring(settings, pins, source):
    """Hardware facts from a profile: pins, display, buttons, buzzer."""
    from .buttons import parse_buttons
    from .ssd1306 import PANELS

    def need(key):
        if key not in settings:
            raise ValueError("%s: %s is missing" % (source, key))
        return settings[key]

    def pin(key):
        setting = need(key)
        if not setting.quoted or setting.text not in pins:
            raise ValueError("%s: %s must name a board pin, got %s" % (setting.where(), key, setting.text))
        return setting.text

    def number(key):
        value = need(key).getenv("int")
        if not isinstance(value, int):
            raise ValueError("%s: %s must be a number, got %r" % (need(key).where(), key, value))
        return value

    wiring = {
        "i2c_scl": pin("PISTI_I2C_SCL"),
        "i2c_sda": pin("PISTI_I2C_SDA"),
        "display_addr": number("PISTI_DISPLAY_ADDR"),
        "display_width": number("PISTI_DISPLAY_WIDTH"),
        "display_height": number("PISTI_DISPLAY_HEIGHT"),
        "buttons": parse_buttons(need("PISTI_BUTTONS").text, pins, source=need("PISTI_BUTTONS").where()),
        "pressed_low": bool(number("PISTI_BUTTON_PRESSED_LOW")),
        "buzzer": None,
    }
    if not 0x08 <= wiring["display_addr"] <= 0x77:
        raise ValueError("%s: PISTI_DISPLAY_ADDR 0x%X is not a 7-bit I2C address" % (source, wiring["display_addr"]))
    if (wiring["display_width"], wiring["display_height"]) not in PANELS:
        raise ValueError(
            "%s: display %dx%d is not a supported panel" % (source, wiring["display_width"], wiring["display_height"])
        )
    if "PISTI_BUZZER" in settings and settings["PISTI_BUZZER"].text:
        wiring["buzzer"] = pin("PISTI_BUZZER")
    return wiring


class Rig:
    """A simulated board: clock, buttons, OLED, nvm, buzzer, settings.

    Made by :func:`install`; close it with :meth:`close` (or use ``with``).
    """

    def __init__(self, profile, settings_path, settings, wiring, pins, board_id, clock, nvm, getenv_style):
        from tools.settingstoml import values

        from .buttons import Buttons
        from .pwm import Buzzer
        from .ssd1306 import Ssd1306

        self.profile = profile
        self.board_id = board_id
        self.settings_path = Path(settings_path)
        self.settings_raw = settings
        self.settings = values(settings)
        self.wiring = wiring
        self.getenv_style = getenv_style
        self.pins = pins
        self.clock = clock
        self.nvm = nvm
        self.keys = Buttons(clock, wiring["buttons"], pins, wiring["pressed_low"])
        self.oled = Ssd1306(wiring["display_width"], wiring["display_height"], address=wiring["display_addr"])
        self.oled.clock = lambda: clock.now_ms
        self.oled.screen_ms()  # (the panel's time counts from here)
        self.i2c_pins = (pins[wiring["i2c_scl"]], pins[wiring["i2c_sda"]])
        self.i2c_devices = {wiring["display_addr"]: self.oled}
        buzzer_pin = pins[wiring["buzzer"]] if wiring["buzzer"] else None
        self.buzzer = Buzzer(clock, buzzer_pin)
        from .supply import Supply
        self.supply = Supply()  # what the supply pins read: set mv and usb
        self.warnings = []
        self.reloads = 0
        self.next_code_file = None
        self.device_thread = threading.get_ident()
        self.closed = False
        self._claims = {}
        self._live = []
        self._undo = []

    # -- pins ----------------------------------------------------------------
    def check_pin(self, pin, argument):
        """Raise unless ``pin`` is one of this board's Pin objects."""
        for candidate in self.pins.values():
            if candidate is pin:
                return
        import microcontroller

        if isinstance(pin, microcontroller.Pin):
            raise ValueError("%s: %r is not a pin of this board (from an earlier install?)" % (argument, pin))
        raise TypeError("%s must be of type Pin, not %s" % (argument, type(pin).__name__))

    def claim(self, pin, owner):
        """Mark ``pin`` used by ``owner``; ValueError('GP5 in use') if taken."""
        holder = self._claims.get(pin.gpio)
        if holder is not None and holder is not owner:
            raise ValueError("%s in use" % pin.name)
        self._claims[pin.gpio] = owner

    def release(self, pin, owner):
        """Free ``pin`` if ``owner`` holds it."""
        if self._claims.get(pin.gpio) is owner:
            del self._claims[pin.gpio]

    def in_use(self, pin):
        """True if a live object holds ``pin``."""
        return pin.gpio in self._claims

    def track(self, obj):
        """Remember a hardware object so close() can deinit it."""
        self._live.append(obj)

    def warn(self, message):
        """Record a hardware-misuse warning once."""
        if message not in self.warnings:
            self.warnings.append(message)

    def problems(self):
        """Warnings plus the OLED's configuration problems."""
        return list(self.warnings) + self.oled.problems()

    # -- frames --------------------------------------------------------------
    def _display_device(self, display):
        from .i2c import FakeI2C

        core = getattr(display, "_core", None)
        bus = getattr(core, "_bus", None)
        i2c = getattr(bus, "_i2c", None)
        if isinstance(i2c, FakeI2C) and getattr(i2c, "_rig", None) is self:
            return self.i2c_devices.get(getattr(bus, "_dev_addr", None))
        return None

    # -- teardown ------------------------------------------------------------
    def close(self):
        """Release displays, deinit hardware objects, undo every patch."""
        if self.closed:
            return
        self.closed = True
        try:
            import displayio

            displayio.release_displays()
        finally:
            try:
                for obj in reversed(self._live):
                    obj.deinit()
                self._live.clear()
                self.clock.cancel_all()
                closer = getattr(self.nvm, "close", None)
                if callable(closer):
                    closer()
            finally:
                while self._undo:
                    self._undo.pop()()
                if _active.RIG is self:
                    _active.RIG = None

    uninstall = close

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __repr__(self):
        return "<Rig %s %s%s>" % (self.profile, self.board_id, " closed" if self.closed else "")

    # -- patching helpers (used by install) ----------------------------------
    def _set_attr(self, obj, name, value):
        missing = object()
        old = getattr(obj, name, missing)
        if isinstance(obj, type):
            old = obj.__dict__.get(name, missing)
        setattr(obj, name, value)

        def undo():
            if old is missing:
                try:
                    delattr(obj, name)
                except AttributeError:
                    pass
            else:
                setattr(obj, name, old)

        self._undo.append(undo)

    def _set_module(self, name, module):
        old = sys.modules.get(name)
        sys.modules[name] = module

        def undo():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old

        self._undo.append(undo)


def _load_nvm(nvm_path):
    try:
        from .nvm import FlashNvm
    except ImportError as exc:
        raise RuntimeError(
            "tools/shims/nvm.py (FlashNvm) is not available (%s); pass nvm=bytearray(4096) to install()" % exc
        ) from exc
    return FlashNvm(path=nvm_path, size=NVM_SIZE)


def _patch_board(rig, board, board_id, pins):
    saved = {k: v for k, v in vars(board).items() if not k.startswith("__")}
    for key in saved:
        delattr(board, key)
    board.board_id = board_id
    for name, pin in pins.items():
        setattr(board, name, pin)
    if "SCL" in pins and "SDA" in pins:
        cache = {}

        def I2C():
            """The board's default I2C bus (a singleton, as on CircuitPython)."""
            import busio

            bus = cache.get("bus")
            if bus is None or bus.deinited():
                bus = cache["bus"] = busio.I2C(pins["SCL"], pins["SDA"])
            return bus

        board.I2C = I2C
        board.STEMMA_I2C = I2C

    def undo():
        for key in [k for k in vars(board) if not k.startswith("__")]:
            delattr(board, key)
        for key, value in saved.items():
            setattr(board, key, value)

    rig._undo.append(undo)


def _background_on_the_virtual_clock(displayio):
    """Blinka refreshes ``auto_refresh`` displays from a thread of its own
    that wakes every real millisecond. On the virtual clock the device
    thread's sleeps refresh them instead (CircuitPython runs its background
    tasks while code sleeps; the content cannot change within one sleep, so
    once a sleep draws what ~60 frames a second would), and the thread is
    stopped, for the rest of the
    process: its thousand wake-ups a second cost every simulated console
    about a tenth of its time, and it could read a display the firmware was
    still constructing (``'SSD1306' object has no attribute
    '_auto_refresh'``). The firmware turns ``auto_refresh`` off; a real-time
    rig (``tools/sim.py`` in a window, one rig a process) keeps the thread."""
    displayio._stop_background()


def _young_collections(rig):
    """``gc.collect()`` collects the youngest generation while the rig is
    installed. The firmware collects at every screen change, for a device's
    heap; on CPython reference counting has freed its garbage already, and a
    full collection of a large process (a test worker, with pytest,
    Hypothesis and every module it imported) costs 50-100 ms, a third of
    the time of a test that plays whole matches. Its own young cycles are
    still collected; the older generations by CPython itself, as always."""
    full = gc.collect

    def collect(generation=0):  # (a caller that names a generation gets it)
        return full(generation)

    rig._set_attr(gc, "collect", collect)


def _wrap_refresh(rig, busdisplay):
    original = busdisplay.BusDisplay.__dict__["_refresh_display"]

    def _refresh_display(display):
        device = rig._display_device(display)
        if device is None:
            return original(display)
        device.begin_refresh()
        try:
            return original(display)
        finally:
            device.end_refresh()

    rig._set_attr(busdisplay.BusDisplay, "_refresh_display", _refresh_display)


def _firmware_startup():
    """The firmware's ``pisti_app.startup`` (it reads ``/settings.toml`` on the
    board), or None where lib/ is not on the path."""
    try:
        import pisti_app.startup as startup
    except ImportError:
        return None
    return startup


def install(
    profile="pico",
    settings_path=None,
    nvm_path=None,
    *,
    nvm=None,
    realtime=False,
    ticks_start=CIRCUITPY_TICKS_START,
    getenv_style="int",
    patch_sleep=True,
):
    """Install the shims for ``profile`` and return the :class:`Rig`.

    :param profile: ``"pico"`` or ``"featherwing"``: the board and its wiring
        (``tools/boards/<profile>.toml``).
    :param settings_path: the settings.toml that ``os.getenv`` reads
        (default: the profile file itself).
    :param nvm_path: file backing ``microcontroller.nvm`` (None: in memory).
    :param nvm: an object to use as ``microcontroller.nvm`` instead of FlashNvm.
    :param realtime: clock follows real time (simulator) instead of virtual time.
    :param ticks_start: ``supervisor.ticks_ms()`` at power-on.
    :param getenv_style: ``"int"`` (CircuitPython 8.0 .. 10.1: bare integers
        come back as int) or ``"str"`` (10.2 on: always str, plus
        ``supervisor.get_setting``).
    :param patch_sleep: in virtual mode, make ``time.sleep`` in the device
        thread (``rig.device_thread``, the installing thread) advance the clock.
    """
    from tools import settingstoml

    from . import settings as settings_mod
    from .boards import BOARDS, make_pins

    if _active.RIG is not None:
        raise RuntimeError("shims already installed (%r): close that rig first" % (_active.RIG,))
    if profile not in BOARDS:
        raise ValueError("unknown profile %r; known: %s" % (profile, ", ".join(sorted(BOARDS))))
    if getenv_style not in settings_mod.STYLES:
        raise ValueError("getenv_style must be one of %s, got %r" % (settings_mod.STYLES, getenv_style))
    profile_path = BOARDS_DIR / ("%s.toml" % profile)
    settings_path = Path(settings_path) if settings_path is not None else profile_path

    # Everything that can fail on bad input happens before anything is patched.
    board_id, pins = make_pins(profile)
    wiring = _wiring(settingstoml.load(profile_path, strict=True), pins, str(profile_path))
    settings = settingstoml.load(settings_path)  # read as the board reads it: a bad value fails at os.getenv
    clock = Clock(realtime=realtime, ticks_start=ticks_start)
    if nvm is None:
        nvm = _load_nvm(nvm_path)

    from adafruit_blinka import agnostic

    if agnostic.board_id != "OS_AGNOSTIC_BOARD":
        raise RuntimeError(
            "Blinka was imported before BLINKA_OS_AGNOSTIC=1 was set (board %r): "
            "import tools.shims before board/busio, or set the variable in the environment" % agnostic.board_id
        )
    import board
    import busdisplay
    import busio
    import displayio

    if not realtime:
        _background_on_the_virtual_clock(displayio)
    import microcontroller
    import pwmio

    from . import keypad as keypad_mod
    from . import supervisor as supervisor_mod
    from .i2c import FakeI2C
    from .pwm import FakePWMOut

    rig = Rig(profile, settings_path, settings, wiring, pins, board_id, clock, nvm, getenv_style)
    try:
        _patch_board(rig, board, board_id, pins)
        rig._set_attr(busio, "I2C", FakeI2C)
        from .uart import UART
        rig._set_attr(busio, "UART", UART)  # link play's cable (uart.plug)
        rig._set_attr(pwmio, "PWMOut", FakePWMOut)
        from . import fastfill
        if fastfill.np is not None:  # Blinka's mono-OLED pixel loop over arrays (same pixels, faster)
            from displayio import _tilegrid
            rig._set_attr(_tilegrid, "_fill_pixels_packed", fastfill.fill_pixels_packed)
        rig._set_attr(microcontroller, "nvm", nvm)
        rig._set_module("keypad", keypad_mod)
        from .supply import modules as supply_modules
        analogio_mod, digitalio_mod = supply_modules()
        rig._set_module("analogio", analogio_mod)
        rig._set_module("digitalio", digitalio_mod)
        rig._set_module("supervisor", supervisor_mod)
        rig._set_attr(supervisor_mod, "runtime", supervisor_mod.Runtime())
        if getenv_style == "str":
            rig._set_attr(
                supervisor_mod, "get_setting", settings_mod.make_get_setting(settings)
            )
        getenv = settings_mod.make_getenv(settings, getenv_style, os.getenv)
        rig._set_attr(os, "getenv", getenv)
        startup = _firmware_startup()
        if startup is not None:  # a value getenv parsed is named as written in the file: this one
            rig._set_attr(startup, "SETTINGS_FILE", str(settings_path))
        if patch_sleep and not realtime:
            real_sleep = time.sleep

            def sleep(seconds):
                """time.sleep: virtual in the device thread while the rig is installed."""
                if _active.RIG is rig and threading.get_ident() == rig.device_thread:
                    rig.clock.sleep(seconds)
                    for display in displayio.displays:  # a sleep's background task: auto_refresh
                        if display.auto_refresh:
                            display.refresh()
                else:
                    real_sleep(seconds)

            rig._set_attr(time, "sleep", sleep)
        _wrap_refresh(rig, busdisplay)
        _young_collections(rig)
        _active.RIG = rig
    except BaseException:
        while rig._undo:
            rig._undo.pop()()
        raise
    if settings_path != profile_path:
        profile_setting = settings.get("PISTI_PROFILE")
        if profile_setting is not None and profile_setting.text != profile:
            rig.warn("settings PISTI_PROFILE=%r on a %s board" % (profile_setting.text, profile))
    return rig
