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

# Each note three bytes: its frequency in Hz (high byte, low byte; 0 a
# rest) and its length in tens of ms. (Bytes, not tuples of tuples: one
# object a tune on the heap, not one per note.)
TUNES = {
    "capture": b"\x04\x17\x07",  # 1047 Hz 70 ms
    "capture_them": b"\x02\x0b\x07",  # 523 Hz 70 ms
    "pisti": b"\x04\x17\x08\x05\x27\x08\x06\x20\x10",  # 1047 Hz 80 ms, 1319 Hz 80 ms, 1568 Hz 160 ms
    "jack_pisti": b"\x04\x17\x07\x05\x27\x07\x06\x20\x07\x08\x2d\x14",  # 1047, 1319, 1568 Hz 70 ms, 2093 Hz 200 ms
    "warn": b"\x03\x70\x09\x00\x00\x06\x03\x70\x09",  # 880 Hz 90 ms, rest 60 ms, 880 Hz 90 ms
    "error": b"\x00\xc4\x0c",  # 196 Hz 120 ms
    "tick": b"\x06\xe0\x04",  # 1760 Hz 40 ms: T-3, each second of the move timer's last ten
    "win": b"\x03\x10\x0c\x03\xdc\x0c\x04\x97\x18",  # 784 Hz 120 ms, 988 Hz 120 ms, 1175 Hz 240 ms
    "lose": b"\x01\x88\x10\x01\x4a\x1a",  # 392 Hz 160 ms, 330 Hz 260 ms
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
        q = self._seq
        k = 3 * self._i
        f = q[k] << 8 | q[k + 1]
        ms = 10 * q[k + 2]
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
        if 3 * self._i >= len(self._seq):
            self.stop()
        else:
            self._note(now)

    def stop(self):
        """Silence now."""
        self._seq = None
        if self.pwm is not None:
            self.pwm.duty_cycle = 0
