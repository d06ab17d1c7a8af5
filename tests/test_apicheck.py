# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The CircuitPython API check: ``tools/apicheck.py`` -- pyright
in basic mode on ``code.py``, ``lib/`` and ``pisti_core/`` against
circuitpython-stubs 10.x (``board`` set to the Pico) and the SSD1306
driver, in ``.venv/apicheck`` without Blinka -- finds 0 errors.

And the check really checks: misuses of CircuitPython's API in a scratch
file (an argument missing, a pin the Pico has not got, a module only Blinka
has, a CircuitPython 8 name gone in 10) are each reported, while the same
file's correct calls, including the ones the local stub corrections in
``tools/pyright/typings`` allow (``gc.mem_free``, ``micropython.qstr_info``,
the ``const`` fallback), are not.
"""

import os

from tools import apicheck

_GOOD = '''\
import gc
import board
import busio
import displayio
import keypad
import supervisor
from i2cdisplaybus import I2CDisplayBus
import adafruit_displayio_ssd1306

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_N = const(4)
i2c = busio.I2C(board.GP5, board.GP4, frequency=400000)
bus = I2CDisplayBus(i2c, device_address=0x3C)
display = adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64, auto_refresh=False)
display.root_group = displayio.Group()
keys = keypad.Keys((board.GP10, board.GP11), value_when_pressed=False, pull=True)
free = gc.mem_free() + supervisor.ticks_ms() + _N


def qstrs():
    import micropython
    micropython.qstr_info()
'''

# Each misuse: the line's text, and the rule pyright must report on it.
_BAD = (
    ("i2c2 = busio.I2C(board.GP5)", "reportCallIssue"),  # sda is required
    ("pin = board.D13", "reportAttributeAccessIssue"),  # a Feather's pin name; the Pico has GPn
    ("import adafruit_blinka", "reportMissingImports"),  # Blinka is desktop-only
    ("from displayio import I2CDisplay", "reportAttributeAccessIssue"),  # CircuitPython 8; 10 has i2cdisplaybus
    ("keys.events.get().pressed.foo", "reportAttributeAccessIssue"),  # Event | None, and a bool has no foo
    ("supervisor.ticks_ms(1)", "reportCallIssue"),  # no arguments
)


def _check(tmp_path, text):
    path = tmp_path / "scratch.py"
    path.write_text(text)
    errors, summary = apicheck.run([str(path)])
    assert summary.get("filesAnalyzed") == 1
    return errors


def test_device_code_has_no_api_errors():
    errors, summary = apicheck.run()
    assert summary.get("filesAnalyzed", 0) > 40  # code.py, lib/, pisti_core/ (not an empty include)
    listing = "\n".join("%(file)s:%(line)d:%(col)d: %(rule)s: %(message)s" % e for e in errors)
    assert not errors, "%d CircuitPython API errors:\n%s" % (len(errors), listing)


def test_correct_circuitpython_code_passes(tmp_path):
    assert _check(tmp_path, _GOOD) == []


def test_each_misuse_is_reported(tmp_path):
    start = _GOOD.count("\n") + 1  # the first misuse's line
    text = _GOOD + "\n".join(line for line, _ in _BAD) + "\n"
    errors = _check(tmp_path, text)
    found = {(e["line"], e["rule"]) for e in errors}
    for i, (line, rule) in enumerate(_BAD):
        assert (start + i, rule) in found, (line, rule, errors)
    assert all(e["line"] >= start for e in errors), errors  # nothing in the correct part


def test_the_check_sees_circuitpython_not_blinka():
    """The check's environment has CircuitPython's stubs and no Blinka: on
    the desktop ``board`` is Blinka's module, there it is the Pico's stub."""
    site = os.path.join(apicheck.ENV, "lib")
    found = {}
    for dirpath, dirnames, _ in os.walk(site):
        for d in dirnames:
            found[d] = os.path.join(dirpath, d)
        dirnames[:] = [d for d in dirnames if d in ("lib",) or d.startswith("python")
                       or d == "site-packages"]
    assert "board-stubs" in found and "busio-stubs" in found and "displayio-stubs" in found
    assert "adafruit_blinka" not in found and "board" not in found and "busio" not in found
    with open(os.path.join(found["board-stubs"], "__init__.pyi")) as f:
        assert "board_id: raspberry_pi_pico" in f.read()
