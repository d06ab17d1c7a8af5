# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.sound`
=================

Short tunes on the optional piezo, never blocking: :meth:`Sound.play`
starts the first note and :meth:`Sound.tick` (called from the app's tick
loop) moves on by the clock and stops the tone at the end.
"""

from pisti_app.util import const, ticks_add, ticks_diff

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away

# (frequency Hz, ms) notes; 0 Hz is a rest.
TUNES = {
    "capture": ((1047, 70),),
    "capture_them": ((523, 70),),
    "pisti": ((1047, 80), (1319, 80), (1568, 160)),
    "jack_pisti": ((1047, 70), (1319, 70), (1568, 70), (2093, 200)),
    "warn": ((880, 90), (0, 60), (880, 90)),
    "error": ((196, 120),),
    "tick": ((1760, 40),),  # T-3: each second of the move timer's last ten
    "win": ((784, 120), (988, 120), (1175, 240)),
    "lose": ((392, 160), (330, 260)),
}
_DUTY = 0x8000


class Sound:
    """Tunes on a ``pwmio.PWMOut`` (or silence when there is none)."""

    def __init__(self, pwm):
        self.pwm = pwm
        self.enabled = True
        self.played = []  # names of the tunes started (kept short; for status)
        self._seq = None
        self._i = 0
        self._until = 0

    def play(self, name, now):
        """Start tune ``name`` (replacing one that is playing), if sound is on."""
        if not self.enabled or self.pwm is None:
            return
        self._seq = TUNES[name]
        self._i = 0
        self.played.append(name)
        if len(self.played) > 8:
            self.played.pop(0)
        self._note(now)

    def _note(self, now):
        if _CHECKING:
            assert self._seq  # play() set it, tick() checked it
        f, ms = self._seq[self._i]
        if f:
            self.pwm.frequency = f
            self.pwm.duty_cycle = _DUTY
        else:
            self.pwm.duty_cycle = 0
        self._until = ticks_add(now, ms)

    def tick(self, now):
        """Advance the tune playing, if any."""
        if self._seq is None or ticks_diff(now, self._until) < 0:
            return
        self._i += 1
        if self._i >= len(self._seq):
            self.stop()
        else:
            self._note(now)

    def stop(self):
        """Silence now."""
        self._seq = None
        if self.pwm is not None:
            self.pwm.duty_cycle = 0
