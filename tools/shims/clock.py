# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Virtual (or real-time) millisecond clock behind ``supervisor.ticks_ms``.

Virtual mode (the default, for tests): time stands still until someone calls
:meth:`Clock.advance` or :meth:`Clock.sleep`; nothing ever really sleeps.
Real-time mode (for the interactive simulator): time follows the host's
monotonic clock; :meth:`Clock.advance` still works and skips ahead.

Like CircuitPython, ``ticks_ms()`` wraps at 2**29 and by default starts
65,536 ms before the first wrap (CircuitPython starts it there on purpose, so
that code which mishandles the wrap fails within about a minute of boot).
Callbacks scheduled with :meth:`Clock.call_at` / :meth:`Clock.call_later`
run when the clock passes their time, in time order, with the clock showing
exactly their time while they run: this is how tests script button presses
into a device main loop that only ever calls ``time.sleep``.
"""

import heapq
import itertools
import threading
import time

TICKS_PERIOD = 1 << 29
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALFPERIOD = TICKS_PERIOD // 2
#: CircuitPython's ticks_ms() at power-on: the first wrap comes 65,536 ms later.
CIRCUITPY_TICKS_START = TICKS_PERIOD - 0x10000


def ticks_add(ticks, delta):
    """``ticks + delta`` modulo 2**29, as adafruit_ticks does."""
    return (ticks + delta) % TICKS_PERIOD


def ticks_diff(ticks1, ticks2):
    """Signed ``ticks1 - ticks2`` for values less than 2**28 ms apart."""
    diff = (ticks1 - ticks2) & TICKS_MAX
    return ((diff + TICKS_HALFPERIOD) & TICKS_MAX) - TICKS_HALFPERIOD


class Clock:
    """Milliseconds since the simulated power-on, plus wrapped ticks."""

    def __init__(self, *, realtime=False, ticks_start=CIRCUITPY_TICKS_START):
        if not isinstance(ticks_start, int) or not 0 <= ticks_start < TICKS_PERIOD:
            raise ValueError(
                "ticks_start must be an int in 0..2**29-1, got %r" % (ticks_start,)
            )
        self.realtime = bool(realtime)
        self.ticks_start = ticks_start
        self._lock = threading.RLock()
        self._virtual_ms = 0  # virtual mode: the time; real-time mode: skip-ahead
        self._t0 = time.monotonic()
        self._queue = []  # heap of (when_ms, seq, fn)
        self._seq = itertools.count()

    # -- reading ---------------------------------------------------------------
    @property
    def now_ms(self):
        """Milliseconds since power-on (never wraps; int)."""
        if self.realtime:
            return int((time.monotonic() - self._t0) * 1000) + self._virtual_ms
        return self._virtual_ms

    def ticks_ms(self):
        """``supervisor.ticks_ms()``: now, wrapped at 2**29."""
        if self.realtime:
            self._run_due(self.now_ms)
        return (self.ticks_start + self.now_ms) % TICKS_PERIOD

    def monotonic(self):
        """Seconds since power-on as a float (for desktop-side tools only)."""
        return self.now_ms / 1000.0

    # -- moving ----------------------------------------------------------------
    def advance(self, ms):
        """Move time forward by ``ms`` milliseconds, running due callbacks."""
        if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
            raise ValueError("advance() needs a non-negative int of ms, got %r" % (ms,))
        with self._lock:
            target = self.now_ms + ms
            self._run_due(target)
            if self.realtime:
                self._virtual_ms += max(0, target - self.now_ms)
            else:
                self._virtual_ms = max(self._virtual_ms, target)

    def sleep(self, seconds):
        """``time.sleep`` for device code: virtual time, or a real sleep."""
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if self.realtime:
            end = self.now_ms + int(round(seconds * 1000))
            while True:
                self._run_due(self.now_ms)
                left = end - self.now_ms
                if left <= 0:
                    break
                nxt = self._next_due()
                if nxt is not None:
                    left = min(left, max(0, nxt - self.now_ms))
                _REAL_SLEEP(left / 1000.0)
            return
        self.advance(int(round(seconds * 1000)))

    # -- scheduling ------------------------------------------------------------
    def call_at(self, when_ms, fn):
        """Run ``fn()`` once the clock reaches ``when_ms`` (ms since power-on)."""
        if not callable(fn):
            raise TypeError("call_at needs a callable, got %r" % (fn,))
        with self._lock:
            heapq.heappush(self._queue, (int(when_ms), next(self._seq), fn))

    def call_later(self, delay_ms, fn):
        """Run ``fn()`` ``delay_ms`` milliseconds from now."""
        if delay_ms < 0:
            raise ValueError("delay_ms must be non-negative")
        self.call_at(self.now_ms + int(delay_ms), fn)

    @property
    def pending(self):
        """Number of scheduled callbacks not yet run."""
        return len(self._queue)

    def cancel_all(self):
        """Drop every scheduled callback."""
        with self._lock:
            self._queue.clear()

    def _next_due(self):
        with self._lock:
            return self._queue[0][0] if self._queue else None

    def _run_due(self, target):
        while True:
            with self._lock:
                if not self._queue or self._queue[0][0] > target:
                    return
                when, _, fn = heapq.heappop(self._queue)
                if not self.realtime and when > self._virtual_ms:
                    self._virtual_ms = when
            fn()


# time.sleep as it was before any patching (the rig may replace time.sleep).
_REAL_SLEEP = time.sleep
