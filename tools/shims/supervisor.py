# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``supervisor`` for the rig (installed as ``sys.modules["supervisor"]``).

``ticks_ms()`` reads the rig clock (wraps at 2**29). ``runtime`` has the
plain attributes of CircuitPython's ``supervisor.runtime``. ``reload()``
raises :class:`ReloadRequested` so a simulator can restart ``code.py``.
``get_setting`` exists only when the rig emulates a CircuitPython whose
``os.getenv`` returns strings (``install(getenv_style="str")``).
"""

from . import _active


class ReloadRequested(Exception):
    """Raised by ``supervisor.reload()``: the device would restart code.py."""


class Runtime:
    """Current status of runtime objects (plain attributes, settable by tests)."""

    def __init__(self):
        self.usb_connected = True
        self.serial_connected = True
        self.serial_bytes_available = 0
        self.autoreload = True
        self.ble_workflow = False
        self.rgb_status_brightness = 255
        self.display = None


runtime = Runtime()


def ticks_ms():
    """Milliseconds since an unspecified point, wrapping after 2**29 ms."""
    return _active.require().clock.ticks_ms()


def reload():
    """Ask for code.py to be restarted (raises ReloadRequested)."""
    rig = _active.require()
    rig.reloads += 1
    raise ReloadRequested("supervisor.reload() called")


def set_next_code_file(filename, **_kwargs):
    """Record the file the next reload should run (rig.next_code_file)."""
    _active.require().next_code_file = filename
