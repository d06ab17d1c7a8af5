# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``rig.keys``: the physical buttons, pressed by name from tests or the simulator.

Names and pins come from the profile's ``PISTI_BUTTONS`` setting
(``"UP:GP10,DOWN:GP11,..."``). Pressing or releasing a button changes its
pin level; every live ``keypad.Keys`` holding that pin sees the change at
once and queues an event stamped with the rig clock.
"""

import threading


def parse_buttons(text, pins, source="PISTI_BUTTONS"):
    """``"A:GP14,B:GP15"`` -> ``[("A", "GP14"), ("B", "GP15")]``, checked."""
    if not isinstance(text, str):
        raise ValueError("%s must be a quoted string, got %r" % (source, text))
    out = []
    names = set()
    used = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, pin = item.partition(":")
        name, pin = name.strip(), pin.strip()
        if not sep or not name or not pin:
            raise ValueError("%s: %r is not NAME:PIN" % (source, item))
        if pin not in pins:
            raise ValueError("%s: %s uses pin %r, which this board does not have" % (source, name, pin))
        if name in names:
            raise ValueError("%s: button %s is listed twice" % (source, name))
        gpio = pins[pin].gpio
        if gpio in used:
            raise ValueError("%s: pin %s is used by two buttons" % (source, pin))
        names.add(name)
        used.add(gpio)
        out.append((name, pin))
    return out


class Buttons:
    """The profile's buttons and the keypad scanners that watch them."""

    def __init__(self, clock, buttons, pins, pressed_low=True):
        self._clock = clock
        self._lock = threading.RLock()
        self.pressed_low = bool(pressed_low)
        self._by_name = {name: pins[pin] for name, pin in buttons}
        self.names = tuple(name for name, _ in buttons)
        self.pin_names = {name: pin for name, pin in buttons}
        self._down = set()  # names currently held
        self._scanners = []

    # -- wiring --------------------------------------------------------------
    def pin(self, name):
        """The board Pin of button ``name``."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(
                "no button %r on this board; buttons: %s" % (name, ", ".join(self.names))
            ) from None

    def key_number(self, name, keys):
        """Index of button ``name`` in a ``keypad.Keys`` object, or None."""
        pin = self.pin(name)
        for index, candidate in enumerate(keys._pins):
            if candidate is pin:
                return index
        return None

    def pin_level(self, pin, pull, value_when_pressed):
        """Logic level a scanner reads on ``pin`` with its pull setting."""
        with self._lock:
            for name in self._down:
                if self._by_name[name] is pin:
                    return not self.pressed_low
        if pull:
            return not value_when_pressed  # the internal pull holds the idle level
        return not self.pressed_low  # floating: modelled as the idle level

    def attach(self, scanner):
        """Register a live keypad scanner (done by keypad.Keys)."""
        with self._lock:
            self._scanners.append(scanner)

    def detach(self, scanner):
        """Forget a scanner (done by its deinit)."""
        with self._lock:
            if scanner in self._scanners:
                self._scanners.remove(scanner)

    def _rescan(self):
        with self._lock:
            scanners = list(self._scanners)
        for scanner in scanners:
            scanner._scan()

    # -- actions -------------------------------------------------------------
    def press(self, name):
        """Hold button ``name`` down (no effect if it already is)."""
        self.pin(name)
        with self._lock:
            if name in self._down:
                return
            self._down.add(name)
        self._rescan()

    def release(self, name):
        """Let button ``name`` go (no effect if it is not held)."""
        self.pin(name)
        with self._lock:
            if name not in self._down:
                return
            self._down.discard(name)
        self._rescan()

    def tap(self, name, hold_ms=50):
        """Press, let the clock run ``hold_ms``, release."""
        self.press(name)
        self._clock.advance(hold_ms)
        self.release(name)

    def hold(self, name, ms):
        """A long press: press, advance ``ms``, release."""
        self.tap(name, hold_ms=ms)

    def release_all(self):
        """Release every held button."""
        with self._lock:
            held = sorted(self._down)
        for name in held:
            self.release(name)

    def is_pressed(self, name):
        """True while button ``name`` is held."""
        self.pin(name)
        return name in self._down

    @property
    def held(self):
        """Names of the buttons held now, sorted."""
        with self._lock:
            return tuple(sorted(self._down))

    @property
    def scanners(self):
        """Live keypad.Keys objects."""
        with self._lock:
            return tuple(self._scanners)
