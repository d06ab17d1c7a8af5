# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``pwmio.PWMOut`` for the rig, and the piezo buzzer that listens to it.

A piezo is driven the usual CircuitPython way:
``PWMOut(pin, frequency=440, duty_cycle=0, variable_frequency=True)``, then
``duty_cycle = 0x8000`` to sound, ``frequency = f`` to change pitch and
``duty_cycle = 0`` to stop. The rig's :class:`Buzzer` sits on the profile's
``PISTI_BUZZER`` pin and records every tone (frequency, duty cycle, start
tick, duration) so tests can assert that a beep happened.
"""

from . import _active

_DEINITED = "Object has been deinitialized and can no longer be used. Create a new object."


class Tone:
    """One sounded note: ``end_ms`` is None while it still sounds."""

    __slots__ = ("frequency", "duty_cycle", "start_ms", "start_tick", "end_ms")

    def __init__(self, frequency, duty_cycle, start_ms, start_tick):
        self.frequency = frequency
        self.duty_cycle = duty_cycle
        self.start_ms = start_ms  # rig.clock.now_ms (since power-on, no wrap)
        self.start_tick = start_tick  # supervisor.ticks_ms() at the start
        self.end_ms = None

    @property
    def duration_ms(self):
        """Length in ms, or None while sounding."""
        return None if self.end_ms is None else self.end_ms - self.start_ms

    def __repr__(self):
        return "<Tone %d Hz at %d ms for %s ms>" % (
            self.frequency,
            self.start_ms,
            "?" if self.end_ms is None else self.end_ms - self.start_ms,
        )


class Buzzer:
    """A piezo on one pin (``pin`` None when the profile has none)."""

    def __init__(self, clock, pin=None):
        self._clock = clock
        self.pin = pin
        self.tones = []
        self._current = None

    def _update(self, frequency, duty_cycle):
        sounding = duty_cycle > 0 and frequency > 0
        current = self._current
        if current is not None:
            if sounding and current.frequency == frequency and current.duty_cycle == duty_cycle:
                return
            current.end_ms = self._clock.now_ms
            self._current = None
        if sounding:
            tone = Tone(frequency, duty_cycle, self._clock.now_ms, self._clock.ticks_ms())
            self.tones.append(tone)
            self._current = tone

    @property
    def sounding(self):
        """The frequency sounding now, or None."""
        return None if self._current is None else self._current.frequency

    @property
    def frequencies(self):
        """Frequencies of all recorded tones, in order."""
        return [t.frequency for t in self.tones]

    def clear(self):
        """Forget recorded tones (a sounding tone stays current)."""
        self.tones = [self._current] if self._current is not None else []


class FakePWMOut:
    """PWM output on a board pin; drives the rig's buzzer if on its pin."""

    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        rig = _active.require()
        rig.check_pin(pin, "pin")
        if not isinstance(frequency, int) or frequency < 1:
            raise ValueError("Invalid PWM frequency")
        self._check_duty(duty_cycle)
        rig.claim(pin, self)
        self._rig = rig
        self._pin = pin
        self._frequency = frequency
        self._duty_cycle = duty_cycle
        self._variable_frequency = bool(variable_frequency)
        self._deinited = False
        self._buzzer = rig.buzzer if rig.buzzer.pin is pin else None
        rig.track(self)
        self._changed()

    @staticmethod
    def _check_duty(value):
        if not isinstance(value, int) or not 0 <= value <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535, got %r" % (value,))

    def _check(self):
        if self._deinited:
            raise ValueError(_DEINITED)

    def _changed(self):
        if self._buzzer is not None:
            self._buzzer._update(self._frequency, self._duty_cycle)

    @property
    def duty_cycle(self):
        """16-bit duty cycle: 0 silent, 0x8000 loudest for a piezo."""
        self._check()
        return self._duty_cycle

    @duty_cycle.setter
    def duty_cycle(self, value):
        self._check()
        self._check_duty(value)
        self._duty_cycle = value
        self._changed()

    @property
    def frequency(self):
        """Frequency in Hz."""
        self._check()
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        self._check()
        if not self._variable_frequency:
            raise AttributeError(
                "PWM frequency not writable when variable_frequency is False on construction."
            )
        if not isinstance(value, int) or value < 1:
            raise ValueError("Invalid PWM frequency")
        self._frequency = value
        self._changed()

    def deinit(self):
        """Stop the output and release the pin."""
        if self._deinited:
            return
        self._duty_cycle = 0
        self._changed()
        self._deinited = True
        self._rig.release(self._pin, self)

    def deinited(self):
        """True once deinit() has run."""
        return self._deinited

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.deinit()
