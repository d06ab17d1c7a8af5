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
(``PISTI_I2C_FREQUENCY``), six buttons, piezo on GP16, the supply read
on GP29 (VSYS/3) and GP24 (USB present), ``PISTI_BATTERY``): see
``tools/boards/pico.toml``. A refresh sends only what changed (displayio
keeps the dirty area; the app refreshes only when something changed).
"""


from pisti_app.startup import Reader

DEFAULT_BUTTONS = "UP:GP10,DOWN:GP11,LEFT:GP12,RIGHT:GP13,A:GP14,B:GP15"
WING_BUTTONS = "A:D9,B:D6,C:D5"  # tools/boards/featherwing.toml


def board_pin(board, name, key):
    """The ``board`` pin called ``name``; ValueError naming the setting if none."""
    pin = getattr(board, name, None) if name else None
    if pin is None:
        raise ValueError("settings.toml: %s = %r is not a pin of this board" % (key, name))
    return pin


def parse_buttons(text, board):
    """``"A:GP14,B:GP15"`` -> (names, pins), checked against ``board`` (and
    that one of them selects, :func:`pisti_app.keys.button_map`)."""
    from pisti_app.keys import button_map
    names = []
    pins = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        k = item.find(":")
        if k <= 0 or k == len(item) - 1:
            raise ValueError("settings.toml: PISTI_BUTTONS: item %r is not NAME:PIN, like A:GP14" % item)
        name = item[:k].strip().upper()
        if name in names:
            raise ValueError("settings.toml: PISTI_BUTTONS: %s is listed twice" % name)
        names.append(name)
        pin = item[k + 1:].strip()
        if getattr(board, pin, None) is None:
            raise ValueError("settings.toml: PISTI_BUTTONS: item %r: %s is not a pin of this board" % (item, pin))
        pins.append(getattr(board, pin))
    if not names:
        raise ValueError("settings.toml: PISTI_BUTTONS: no buttons listed")
    button_map(names)
    return tuple(names), tuple(pins)


def _pin(rd, board, key, defaults):
    """The pin the setting ``key`` names, else (noted if it named another)
    the first of ``defaults`` this board has."""
    name = rd.text(key)
    if name is not None:
        pin = getattr(board, name, None)
        if pin is not None:
            return pin
        rd.note(key, name, "a pin of this board")
    for name in defaults:
        pin = getattr(board, name, None)
        if pin is not None:
            return pin
    return board_pin(board, defaults[0], key)  # none: nothing to show a notice on


def _supply(rd, board, gp):
    # PISTI_BATTERY = "ADC,USB": the analog pin reading VSYS/3, then the pin
    # that reads high while USB powers the board. Returns [adc pin, usb
    # pin], or None: "" (none), or the default on a
    # board without those pins. A Pico names GP29 VOLTAGE_MONITOR, GP24
    # VBUS_SENSE. A bad value is noted and the default used.
    key = "PISTI_BATTERY"
    text = rd.text(key)
    if text is None and rd.has(key):
        return None
    for names in (text, "VOLTAGE_MONITOR,VBUS_SENSE" if gp else None):
        if names is not None:
            pins = [getattr(board, n.strip(), None) for n in names.split(",")]
            if len(pins) == 2 and None not in pins:
                return pins
            if names is text:
                rd.note(key, text, 'an analog pin and the USB sense pin ("VOLTAGE_MONITOR,VBUS_SENSE"), or ""')
    return None


class Hardware:
    """Display, buttons, buzzer and nvm of this board, as ``settings.toml``
    says. A bad setting gives the reference build's value (the FeatherWing's
    on a board without ``GPxx`` pins) and is noted in ``bad`` (see
    :class:`pisti_app.startup.Reader`) for the splash to name."""

    def __init__(self):
        import board
        import busio
        import displayio
        import keypad

        rd = Reader()
        self.bad = rd.bad
        gp = hasattr(board, "GP10")  # a Pico, not a Feather
        self.width = rd.num("PISTI_DISPLAY_WIDTH", 128, lambda v: v == 128, "128")
        self.height = rd.num("PISTI_DISPLAY_HEIGHT", 64 if gp else 32, lambda v: v in (32, 64), "32 or 64")
        rotation = rd.num("PISTI_DISPLAY_ROTATION", 0, lambda v: v in (0, 180), "0 or 180")
        addr = rd.num("PISTI_DISPLAY_ADDR", 0x3C, lambda v: v in (0x3C, 0x3D), "0x3C or 0x3D")
        freq = rd.num("PISTI_I2C_FREQUENCY", 400000, lambda v: 10000 <= v <= 1000000,
                      "10000 to 1000000 (Hz)")  # default: the SSD1306's fast mode
        scl = _pin(rd, board, "PISTI_I2C_SCL", ("GP5", "SCL"))
        sda = _pin(rd, board, "PISTI_I2C_SDA", ("GP4", "SDA"))
        # Names and pins first: nothing is claimed before every setting is read.
        text = rd.text("PISTI_BUTTONS")
        parsed = None
        if text is not None:
            try:
                parsed = parse_buttons(text, board)
            except ValueError as e:
                rd.note("PISTI_BUTTONS", text, str(e))
        if parsed is None:
            parsed = parse_buttons(DEFAULT_BUTTONS if gp else WING_BUTTONS, board)
        self.key_names, pins = parsed
        buzzer = rd.text("PISTI_BUZZER")
        buzzer_pin = None
        if buzzer is not None:
            buzzer_pin = getattr(board, buzzer, None)
            if buzzer_pin is None:  # a wrong pin: no sound rather than a pin nobody named
                rd.note("PISTI_BUZZER", buzzer, 'a pin of this board, or "" for none')
        elif not rd.has("PISTI_BUZZER"):  # no key at all: the reference build's piezo, if any
            buzzer_pin = getattr(board, "GP16", None)
        low = rd.num("PISTI_BUTTON_PRESSED_LOW", 1, lambda v: v in (0, 1), "0 or 1")
        supply = _supply(rd, board, gp)
        from pisti_app.screens import gfx
        gfx.batt = 0  # no battery mark until the supply is read (a desktop rig boots again)

        displayio.release_displays()
        from i2cdisplaybus import I2CDisplayBus  # CircuitPython 9+ (deploy refuses 8)
        import adafruit_displayio_ssd1306

        self.i2c = busio.I2C(scl, sda, frequency=freq)
        bus = I2CDisplayBus(self.i2c, device_address=addr)
        self.display = adafruit_displayio_ssd1306.SSD1306(
            bus, width=self.width, height=self.height, rotation=rotation, auto_refresh=False)
        # Scanned every 10 ms, not the core's 20: a press reaches the game
        # sooner (L-4's 100 ms), and a key still settles for a whole scan.
        self.keys = keypad.Keys(pins, value_when_pressed=not low, pull=True, interval=0.01)
        # The battery: [AnalogIn of VSYS/3, DigitalInOut of USB present, next
        # reading (ticks), VSYS mV, warning due] (App.tick reads it).
        self.supply = None
        adc, usb = supply or (None, None)
        if adc is not None and usb is not None:
            import analogio
            import digitalio
            import supervisor
            self.supply = [analogio.AnalogIn(adc), digitalio.DigitalInOut(usb), supervisor.ticks_ms(), 0, False]
        import microcontroller
        self.nvm = getattr(microcontroller, "nvm", None)  # the saves (T-6); None: none
        self.buzzer = None
        if buzzer_pin is not None:
            import pwmio
            self.buzzer = pwmio.PWMOut(buzzer_pin, frequency=440, duty_cycle=0,
                                       variable_frequency=True)
