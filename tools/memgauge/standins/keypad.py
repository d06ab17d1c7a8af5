# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's keypad (C) in the heap gauge: the driver feeds
# presses and releases with press(); events carry supervisor.ticks_ms().
import supervisor

_last = None  # the Keys made last (the app's)


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = timestamp


class EventQueue:
    def __init__(self, max_events=64):
        self._q = []
        self._max = max_events
        self.overflowed = False

    def get(self):
        if not self._q:
            return None
        k, p, t = self._q.pop(0)
        return Event(k, p, t)

    def get_into(self, event):
        if not self._q:
            return False
        event.key_number, event.pressed, event.timestamp = self._q.pop(0)
        event.released = not event.pressed
        return True

    def clear(self):
        self._q.clear()
        self.overflowed = False

    def __len__(self):
        return len(self._q)

    def __bool__(self):
        return bool(self._q)

    def _put(self, k, pressed):
        if len(self._q) >= self._max:
            self.overflowed = True
        else:
            self._q.append((k, pressed, supervisor.ticks_ms()))


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64,
                 debounce_threshold=1):
        global _last
        self.key_count = len(pins)
        self.events = EventQueue(max_events)
        _last = self

    def reset(self):
        self.events.clear()

    def deinit(self):
        pass


def press(k, pressed=True):
    """For the driver: button k goes down (or up)."""
    _last.events._put(k, pressed)
