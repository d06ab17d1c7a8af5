# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.keys`
================

Button events from ``keypad.Keys`` (debounced by the core) turned into the
app's logical keys: a press, repeats while a direction is held, and a long
press. Screens see only the logical codes below, so one button map covers
both builds:

* six buttons (reference build): UP DOWN LEFT RIGHT move (and repeat), A is
  OK, B is BACK on release and MENU when held (pause from the table);
* three buttons (FeatherWing, ``A:D9,B:D6,C:D5``): A is PREV, C is NEXT
  (each screen reads them along its own axis), B is OK, a long B is BACK.
"""

import keypad

from pisti_app.util import const, ticks_add, ticks_diff

UP = const(1)
DOWN = const(2)
LEFT = const(3)
RIGHT = const(4)
OK = const(5)
BACK = const(6)
MENU = const(7)
PREV = const(8)
NEXT = const(9)
NAMES = ("", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "MENU", "PREV", "NEXT")

_REPEAT_DELAY = const(400)  # ms held before the first repeat
_REPEAT_EVERY = const(120)
_LONG = const(600)  # ms held for a long press

# Physical name -> (code, long-press code or 0, repeats)
_SIX = {"UP": (UP, 0, 1), "DOWN": (DOWN, 0, 1), "LEFT": (LEFT, 0, 1),
        "RIGHT": (RIGHT, 0, 1), "A": (OK, 0, 0), "B": (BACK, MENU, 0)}
_THREE = {"A": (PREV, 0, 1), "C": (NEXT, 0, 1), "B": (OK, BACK, 0)}


def button_map(names):
    """The map for a board's button names (six-button or three-button)."""
    if "UP" in names and "DOWN" in names:
        table = _SIX
    else:
        table = _THREE
    out = []
    for n in names:
        out.append(table.get(n, (0, 0, 0)))
    if not any(m[0] == OK for m in out):
        raise ValueError("PISTI_BUTTONS %s has no select button (A, or B on three buttons)"
                         % ",".join(names))
    return out


class Input:
    """Logical key codes from one ``keypad.Keys``; call :meth:`poll` each tick."""

    def __init__(self, keys, names):
        self.keys = keys
        self.map = button_map(names)
        self.three = "UP" not in names
        n = len(names)
        self._ev = keypad.Event()
        self._down = bytearray(n)
        self._long_done = bytearray(n)
        self._at = [0] * n  # ticks of the press
        self._next = [0] * n  # ticks of the next repeat
        self.mute_until = None  # ticks until which keys are dropped (pisti_app.screens.splash)
        self.mute_for = 0  # ms of keys to drop from the next screen's first frame on (pisti_app.screens.results)

    def muted(self, now):
        """Drop the keys while muted (:attr:`mute_until`; :attr:`mute_for`
        counts from the tick after it was set, the first frame's)."""
        if self.mute_for:
            self.mute_until = ticks_add(now, self.mute_for)
            self.mute_for = 0
        if self.mute_until is not None:
            if ticks_diff(now, self.mute_until) < 0:
                self.reset()
            else:
                self.mute_until = None

    def poll(self, now, out):
        """Append the logical codes since the last poll to ``out``; True if
        a button was pressed meanwhile."""
        ev = self._ev
        got = False
        events = self.keys.events
        while events.get_into(ev):
            k = ev.key_number
            if k >= len(self.map):
                continue
            code, long_code, rep = self.map[k]
            if not code:
                continue
            t = getattr(ev, "timestamp", None)
            if t is None:
                t = now
            if ev.pressed:
                got = True
                self._down[k] = 1
                self._long_done[k] = 0
                self._at[k] = t
                self._next[k] = ticks_add(t, _REPEAT_DELAY)
                if not long_code:
                    out.append(code)
            else:
                if self._down[k] and long_code and not self._long_done[k]:
                    out.append(long_code if ticks_diff(t, self._at[k]) >= _LONG else code)
                self._down[k] = 0
        for k in range(len(self.map)):
            if not self._down[k]:
                continue
            code, long_code, rep = self.map[k]
            if long_code:
                if not self._long_done[k] and ticks_diff(now, self._at[k]) >= _LONG:
                    self._long_done[k] = 1
                    out.append(long_code)
            elif rep and ticks_diff(now, self._next[k]) >= 0:
                self._next[k] = ticks_add(now, _REPEAT_EVERY)
                out.append(code)
        return got

    def reset(self):
        """Forget held keys (after a screen change that must not inherit them)."""
        self.keys.events.clear()
        for k in range(len(self._down)):
            self._down[k] = 0

    def held(self):
        """True while a key is held down."""
        return any(self._down)
