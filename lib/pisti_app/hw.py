# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.hw`
==============

The console's hardware, built from ``settings.toml`` (read with
``os.getenv``, the CircuitPython way): the SSD1306 display on I2C through
``displayio`` (``auto_refresh`` off), the buttons through ``keypad.Keys``
and an optional piezo on a ``pwmio.PWMOut``. Defaults are the reference
build (Raspberry Pi Pico, 128x64 at 0x3C on GP5/GP4 at 400 kHz
(``PISTI_I2C_FREQUENCY``), six buttons, piezo on GP16): see
``tools/boards/pico.toml``. A refresh sends only what changed (displayio
keeps the dirty area; the app refreshes only when something changed).
"""


from pisti_app.util import getenv, setting_int, setting_str

DEFAULT_BUTTONS = "UP:GP10,DOWN:GP11,LEFT:GP12,RIGHT:GP13,A:GP14,B:GP15"


def board_pin(board, name, key):
    """The ``board`` pin called ``name``; ValueError naming the setting if none."""
    pin = getattr(board, name, None) if name else None
    if pin is None:
        raise ValueError("settings.toml: %s = %r is not a pin of this board" % (key, name))
    return pin


def parse_buttons(text, board):
    """``"A:GP14,B:GP15"`` -> (names, pins), checked against ``board``."""
    names = []
    pins = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        k = item.find(":")
        if k <= 0 or k == len(item) - 1:
            raise ValueError("settings.toml: PISTI_BUTTONS item %r is not NAME:PIN" % item)
        name = item[:k].strip().upper()
        if name in names:
            raise ValueError("settings.toml: PISTI_BUTTONS lists %s twice" % name)
        names.append(name)
        pins.append(board_pin(board, item[k + 1:].strip(), "PISTI_BUTTONS (" + name + ")"))
    if not names:
        raise ValueError("settings.toml: PISTI_BUTTONS lists no buttons")
    return tuple(names), tuple(pins)


class Hardware:
    """Display, buttons, buzzer and nvm of this board, as ``settings.toml`` says."""

    def __init__(self):
        import board
        import busio
        import displayio
        import keypad

        self.width = setting_int("PISTI_DISPLAY_WIDTH", 128)
        self.height = setting_int("PISTI_DISPLAY_HEIGHT", 64)
        rotation = setting_int("PISTI_DISPLAY_ROTATION", 0)
        if rotation not in (0, 180):
            raise ValueError("settings.toml: PISTI_DISPLAY_ROTATION must be 0 or 180")
        addr = setting_int("PISTI_DISPLAY_ADDR", 0x3C)
        freq = setting_int("PISTI_I2C_FREQUENCY", 400000)  # the SSD1306's fast mode
        if not 10000 <= freq <= 1000000:
            raise ValueError("settings.toml: PISTI_I2C_FREQUENCY must be 10000 to 1000000 (Hz)")
        scl = board_pin(board, setting_str("PISTI_I2C_SCL", "GP5"), "PISTI_I2C_SCL")
        sda = board_pin(board, setting_str("PISTI_I2C_SDA", "GP4"), "PISTI_I2C_SDA")
        # Names and pins first: a bad setting fails before anything is claimed.
        self.key_names, pins = parse_buttons(setting_str("PISTI_BUTTONS", DEFAULT_BUTTONS), board)
        buzzer = setting_str("PISTI_BUZZER", None)
        if buzzer is None and getenv("PISTI_BUZZER") is None:
            # No key at all: the reference build's pin, when this board has it.
            buzzer = "GP16" if hasattr(board, "GP16") else None
        buzzer_pin = board_pin(board, buzzer, "PISTI_BUZZER") if buzzer else None

        displayio.release_displays()
        try:
            from i2cdisplaybus import I2CDisplayBus
        except ImportError:  # CircuitPython 8
            from displayio import I2CDisplay as I2CDisplayBus
        import adafruit_displayio_ssd1306

        self.i2c = busio.I2C(scl, sda, frequency=freq)
        bus = I2CDisplayBus(self.i2c, device_address=addr)
        self.display = adafruit_displayio_ssd1306.SSD1306(
            bus, width=self.width, height=self.height, rotation=rotation, auto_refresh=False)
        low = setting_int("PISTI_BUTTON_PRESSED_LOW", 1)
        self.keys = keypad.Keys(pins, value_when_pressed=not low, pull=True)
        import microcontroller
        self.nvm = getattr(microcontroller, "nvm", None)  # the saves (T-6); None: none
        self.buzzer = None
        if buzzer_pin is not None:
            import pwmio
            self.buzzer = pwmio.PWMOut(buzzer_pin, frequency=440, duty_cycle=0,
                                       variable_frequency=True)
