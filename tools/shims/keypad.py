# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Thread-free ``keypad`` with CircuitPython's API, driven by the rig.

Installed as ``sys.modules["keypad"]`` in place of Blinka's (which scans in a
thread, hangs in ``deinit`` and has no ``Event.timestamp``). API as
documented for CircuitPython 9/10: ``Event(key_number=0, pressed=True,
timestamp=None)``, ``EventQueue`` (``get``, ``get_into``, ``clear``,
``len``, ``bool``, ``overflowed``), ``Keys(pins, *, value_when_pressed,
pull=True, interval=0.020, max_events=64, debounce_threshold=1)`` with
``events``, ``key_count``, ``reset()``, ``deinit()`` and context manager.

There is no scanning: when a test or the simulator presses a button through
the rig (``rig.keys.press("A")``), every live ``Keys`` object holding that
pin compares the pin level with ``value_when_pressed`` and queues an event
at once, stamped with the rig clock's ``ticks_ms()``. Pin levels follow the
wiring: a pressed button pulls its pin low (``PISTI_BUTTON_PRESSED_LOW=1``)
or high; a released one reads the internal pull chosen by ``Keys`` (up when
``value_when_pressed`` is False, down when True), so a wrong
``value_when_pressed`` misbehaves as it would on the board. ``interval`` and
``debounce_threshold`` are validated but not emulated.
"""

import threading

from . import _active

_DEINITED = "Object has been deinitialized and can no longer be used. Create a new object."


class Event:
    """A key transition event."""

    __slots__ = ("_key_number", "_pressed", "_timestamp")

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if not isinstance(key_number, int) or key_number < 0:
            raise ValueError("key_number must be a non-negative int")
        if timestamp is None:
            rig = _active.RIG
            timestamp = rig.clock.ticks_ms() if rig is not None else 0
        self._key_number = key_number
        self._pressed = bool(pressed)
        self._timestamp = int(timestamp)

    @property
    def key_number(self):
        """The key number."""
        return self._key_number

    @property
    def pressed(self):
        """True for a key-down transition."""
        return self._pressed

    @property
    def released(self):
        """True for a key-up transition."""
        return not self._pressed

    @property
    def timestamp(self):
        """``supervisor.ticks_ms()`` when the transition was seen."""
        return self._timestamp

    def __eq__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        return self._key_number == other._key_number and self._pressed == other._pressed

    def __hash__(self):
        return hash((self._key_number, self._pressed))

    def __repr__(self):
        return "<Event: key_number %d %s>" % (
            self._key_number,
            "pressed" if self._pressed else "released",
        )


class EventQueue:
    """Queue of ``Event`` filled by a scanner; not constructed by user code."""

    def __init__(self, max_events):
        self._max = max_events
        self._items = []  # (key_number, pressed, timestamp)
        self._overflowed = False
        self._lock = threading.Lock()

    def _record(self, key_number, pressed, timestamp):
        with self._lock:
            if len(self._items) >= self._max:
                self._overflowed = True  # the new event is dropped, as on the device
                return False
            self._items.append((key_number, pressed, timestamp))
            return True

    def get(self):
        """Remove and return the next Event, or None if there is none."""
        with self._lock:
            if not self._items:
                return None
            key_number, pressed, timestamp = self._items.pop(0)
        return Event(key_number, pressed, timestamp)

    def get_into(self, event):
        """Move the next event into ``event``; return False if there is none."""
        if not isinstance(event, Event):
            raise TypeError("get_into needs a keypad.Event")
        with self._lock:
            if not self._items:
                return False
            key_number, pressed, timestamp = self._items.pop(0)
        event._key_number = key_number
        event._pressed = pressed
        event._timestamp = timestamp
        return True

    def clear(self):
        """Drop queued events and reset ``overflowed``."""
        with self._lock:
            self._items.clear()
            self._overflowed = False

    def __len__(self):
        return len(self._items)

    def __bool__(self):
        return bool(self._items)

    @property
    def overflowed(self):
        """True if an event was dropped because the queue was full."""
        return self._overflowed


class Keys:
    """A set of independent keys, one pin each."""

    def __init__(
        self,
        pins,
        *,
        value_when_pressed,
        pull=True,
        interval=0.020,
        max_events=64,
        debounce_threshold=1,
    ):
        rig = _active.require()
        pins = tuple(pins)
        if not pins:
            raise ValueError("pins must not be empty")
        for pin in pins:
            rig.check_pin(pin, "pins")
        if len(set(map(id, pins))) != len(pins):
            raise ValueError("a pin appears twice in pins")
        interval = float(interval)
        if not 0.0 <= interval <= 1000.0:
            raise ValueError("interval must be 0-1000")
        if not isinstance(max_events, int) or max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not isinstance(debounce_threshold, int) or not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        claimed = []
        try:
            for pin in pins:
                rig.claim(pin, self)
                claimed.append(pin)
        except ValueError:
            for pin in claimed:
                rig.release(pin, self)
            raise
        self._rig = rig
        self._pins = pins
        self._value_when_pressed = bool(value_when_pressed)
        self._pull = bool(pull)
        self.interval = interval
        self.debounce_threshold = debounce_threshold
        self._events = EventQueue(max_events)
        self._state = [False] * len(pins)
        self._deinited = False
        if not self._pull:
            rig.warn(
                "keypad.Keys(pull=False): the buttons have no external pull resistors; "
                "released pins float on the board"
            )
        rig.keys.attach(self)
        self._scan()

    def _reads_pressed(self, index):
        pin = self._pins[index]
        level = self._rig.keys.pin_level(pin, self._pull, self._value_when_pressed)
        return level == self._value_when_pressed

    def _scan(self):
        """Compare pin levels with the reported state; queue the changes."""
        if self._deinited:
            return
        stamp = None
        for index in range(len(self._pins)):
            now = self._reads_pressed(index)
            if now != self._state[index]:
                self._state[index] = now
                if stamp is None:
                    stamp = self._rig.clock.ticks_ms()
                self._events._record(index, now, stamp)

    def _check(self):
        if self._deinited:
            raise ValueError(_DEINITED)

    @property
    def events(self):
        """The EventQueue of this scanner."""
        self._check()
        return self._events

    @property
    def key_count(self):
        """Number of keys scanned."""
        self._check()
        return len(self._pins)

    def reset(self):
        """Forget key states: keys held now produce new pressed events."""
        self._check()
        self._state = [False] * len(self._pins)
        self._scan()

    def deinit(self):
        """Stop scanning and release the pins (returns at once)."""
        if self._deinited:
            return
        self._deinited = True
        self._rig.keys.detach(self)
        for pin in self._pins:
            self._rig.release(pin, self)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.deinit()
