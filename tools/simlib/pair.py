# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Two to four consoles in one process, joined by link cables (RULES.md
L-1 .. L-9 for two, L-11 .. L-17 for a ring of three or four).

Each console is a whole :class:`~tools.simlib.session.Session` (its own
``code.py`` boot, rig, nvm, settings, screen and buttons) running in a thread
of its own. Only one of them runs at a time: a console runs one firmware tick
(up to its ``time.sleep``), then hands the baton on. The hardware
shims and the firmware's modules are process-wide (``board``, ``os.getenv``,
``microcontroller.nvm``, ``sys.modules['pisti_app']``, ...), so at every
hand-over the running console's *world* (:class:`World`) is put aside and the
next one's put back: each firmware sees only its own board.

The cables are :func:`tools.shims.uart.wire`'s: two consoles' first UARTs are
the two ends of one :class:`tools.shims.uart.Cable` (``rig.link_end``); in a
ring console ``i``'s first UART is joined to console ``i+1``'s second
(``rig.link_end2``). A byte written at one end arrives at the other after
its time on the line, on the virtual clock (the clocks run in step: the
console furthest behind always runs next).

A *pair front end* (headless scripts, the terminal, the window) gets each
console's turn through :meth:`PairFront.sleep` and :meth:`PairFront.update`
with the console's index (0 = A, 1 = B, 2 = C, 3 = D).
"""

import os
import random
import sys
import threading
import time

from tools.shims import _active
from tools.shims.uart import wire

from .session import SimDone, SimQuit

_MISSING = object()
NAMES = "ABCD"  # the consoles, by index


class PairDone(SimDone):
    """The run is over (every script done, a quit, another console ended)."""


def _patched():
    """(object, attribute) pairs the shims and the sessions set per console."""
    import busdisplay
    import busio
    import microcontroller
    import pwmio

    from tools.shims import supervisor as supervisor_mod

    return [(busio, "I2C"), (busio, "UART"), (pwmio, "PWMOut"), (microcontroller, "nvm"),
            (supervisor_mod, "runtime"), (supervisor_mod, "get_setting"), (os, "getenv"), (time, "sleep"),
            (busdisplay.BusDisplay, "_refresh_display"), (_active, "RIG"), (sys, "stdout")]


class World:
    """What one console's firmware sees of the process: the shims' patches,
    its modules, its random state, its displays."""

    def __init__(self, is_device):
        self._is_device = is_device  # name, module -> whether the module is the firmware's
        self._known = {}
        self._patched = None

    def is_device(self, name, module):
        """Whether ``name`` is one of the firmware's modules (decided once a name)."""
        known = self._known.get(name)
        if known is None:
            known = bool(self._is_device(name, module))
            if module is not None:
                self._known[name] = known
        return known

    def capture(self):
        """The process's state now."""
        import board
        import displayio

        if self._patched is None:
            self._patched = _patched()
        attrs = []
        for obj, name in self._patched:
            value = obj.__dict__.get(name, _MISSING) if isinstance(obj, type) else getattr(obj, name, _MISSING)
            attrs.append((obj, name, value))
        return {
            "attrs": attrs,
            "modules": {n: m for n, m in list(sys.modules.items()) if self.is_device(n, m)},
            "mods": {n: sys.modules.get(n) for n in ("keypad", "supervisor")},
            "board": {k: v for k, v in vars(board).items() if not k.startswith("__")},
            "displays": (list(displayio.displays), list(displayio.display_buses)),
            "random": random.getstate(),
        }

    def restore(self, state):
        """Put ``state`` (from :meth:`capture`) back."""
        import board
        import displayio

        for obj, name, value in state["attrs"]:
            if value is _MISSING:
                if name in vars(obj):
                    delattr(obj, name)
            else:
                setattr(obj, name, value)
        for n in [n for n, m in list(sys.modules.items()) if self.is_device(n, m)]:
            del sys.modules[n]
        sys.modules.update(state["modules"])
        for n, m in state["mods"].items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
        for k in [k for k in vars(board) if not k.startswith("__")]:
            delattr(board, k)
        for k, v in state["board"].items():
            setattr(board, k, v)
        displayio.displays[:] = state["displays"][0]
        displayio.display_buses[:] = state["displays"][1]
        random.setstate(state["random"])


class _Built(list):
    """``displayio.displays`` while a pair runs: Blinka's background thread
    walks it at any moment, and sees only displays whose ``__init__`` has
    finished (a console's display may be half made when the baton passes)."""

    def __iter__(self):
        return iter([d for d in list.__iter__(self) if hasattr(d, "_auto_refresh")])


class Twin:
    """One console of the run: its session, its thread, its world."""

    def __init__(self, pair, index, session):
        self.pair = pair
        self.index = index
        self.session = session
        self.state = None
        self.go = threading.Event()
        self.back = threading.Event()
        self.thread = None
        self.ended = False  # its boot returned (a crash, a limit, the end)
        self.finished = False  # its front end has nothing more to do (a script done)
        self.final = None  # status() at the end
        self.error = None

    @property
    def now(self):
        """Its virtual (or real) clock, ms."""
        return self.session.rig.clock.now_ms

    def main(self):
        """The console's thread: boot when first given the baton."""
        self.go.wait()
        self.go.clear()
        self.pair.world.restore(self.state)
        self.session.rig.device_thread = threading.get_ident()
        try:
            try:
                self.session.boot(_Front(self))
            finally:
                try:
                    self.final = self.session.status()
                except Exception as exc:
                    self.final = {"error": "status() failed: %s" % exc}
        except BaseException as exc:
            self.error = exc
        finally:
            self.ended = True
            self.state = self.pair.world.capture()
            self.back.set()

    def turn(self):
        """Main thread: let the console run one tick."""
        self.go.set()
        self.back.wait()
        self.back.clear()

    def yield_baton(self):
        """Device thread: the tick is over; wait for the next turn."""
        self.state = self.pair.world.capture()
        self.back.set()
        self.go.wait()
        self.go.clear()
        self.pair.world.restore(self.state)
        if self.pair.stop is not None:
            raise self.pair.stop


class _Front:
    """A session's front end: its turns go to the pair's front end."""

    def __init__(self, twin):
        self.twin = twin
        drivers = getattr(twin.pair.front, "drivers", None) or ()
        self.driver = drivers[twin.index] if twin.index < len(drivers) else None

    def start(self, session):
        """Nothing: the pair front end started in the main thread (signals, windows)."""

    def stop(self, session):
        """Buttons released."""
        if session.rig is not None:
            session.rig.keys.release_all()

    def sleep(self, session, seconds):
        """The pair front end's sleep, then the next console's turn."""
        self.twin.pair.front.sleep(self.twin.index, session, seconds)
        self.twin.yield_baton()

    def update(self, session, now):
        """The pair front end's turn for this console."""
        if self.twin.pair.front.update(self.twin.index, session, now):
            self.twin.finished = True


class Pair:
    """Two to four sessions (A, B, C, D: one hosts, the others join) and a
    pair front end, the consoles wired as :func:`tools.shims.uart.wire` says.

    ::

        pair = Pair([session_a, session_b], front, loss=0.0)
        pair.run()                      # until the front end is done or a console ends
        pair.final                      # [status A, status B]
        pair.cables                     # one cable for two consoles, a ring of N for N

    ``cable`` (two consoles only) is a cable of the caller's instead of a new one.
    """

    def __init__(self, sessions, front, *, loss=0.0, corrupt=0.0, delay_ms=0, seed=0, cable=None):
        self.sessions = sessions
        self.front = front
        self.stop = None
        if cable is not None:
            if len(sessions) != 2:
                raise ValueError("one cable joins two consoles, not %d" % len(sessions))
            self.cables, self.ends = [cable], [(cable.a, None), (cable.b, None)]
        else:
            self.cables, self.ends = wire(len(sessions), self._clock, loss=loss, corrupt=corrupt,
                                          delay_ms=delay_ms, seed=seed)
        self.cable = self.cables[0] if len(sessions) == 2 else None  # the two consoles' one cable

        def is_device(name, module):
            return any(s._is_device(name, module) for s in sessions)

        self.world = World(is_device)
        self.twins = [Twin(self, i, s) for i, s in enumerate(sessions)]

    @staticmethod
    def _clock():
        rig = _active.RIG
        return rig.clock.now_ms if rig is not None else 0

    @property
    def final(self):
        """Each console's status at the end."""
        return [t.final for t in self.twins]

    def run(self):
        """Boot every console, run them in step until the front end is done or one ends."""
        import displayio

        plain = displayio.displays
        displayio.displays = _Built(plain)
        try:
            self._run()
        finally:
            plain[:] = displayio.displays
            displayio.displays = plain

    def _run(self):
        world = self.world
        pristine = world.capture()
        entered = []
        try:
            for twin, (first, second) in zip(self.twins, self.ends, strict=True):
                twin.session.__enter__()
                entered.append(twin)
                twin.session.rig.link_end = first
                twin.session.rig.link_end2 = second
                twin.state = world.capture()
                world.restore(pristine)
            self.front.start(self)
            for twin in self.twins:
                twin.thread = threading.Thread(target=twin.main, name="console-%s" % NAMES[twin.index], daemon=True)
                twin.thread.start()
            self._loop()
        finally:
            self._finish(entered, pristine)

    def _loop(self):
        twins = self.twins
        two = len(twins) == 2
        while True:
            if any(t.ended for t in twins):
                self.stop = self.stop or PairDone("the other console ended" if two else "another console ended")
            elif all(t.finished for t in twins):
                self.stop = PairDone("both consoles are done" if two else "every console is done")
            if self.stop is not None:
                for t in twins:
                    if not t.ended:
                        t.turn()  # it raises the stop inside its sleep and ends
                return
            if twins[0].session.realtime:  # real clocks (started apart): turn about
                for t in twins:
                    t.turn()
            else:  # virtual clocks: the one furthest behind runs (the first of those level)
                min(twins, key=lambda t: t.now).turn()
            try:
                self.front.between(self)
            except SimDone as done:
                self.stop = done

    def _finish(self, entered, pristine):
        if self.stop is None:
            self.stop = PairDone("stopped")
        for t in self.twins:
            if t.thread is not None and not t.ended:
                t.turn()
        for t in reversed(entered):
            if t.state is not None:
                self.world.restore(t.state)
            t.session.close()
        self.world.restore(pristine)
        self.front.close(self)


class PairFront:
    """The pair front end's interface (headless: :class:`tools.simlib.linkfront.PairHeadless`)."""

    drivers = [None, None]

    def start(self, pair):
        """Before the first tick."""

    def sleep(self, index, session, seconds):
        """Console ``index`` sleeps ``seconds`` (virtual: its clock advances)."""
        session.wait(seconds)

    def update(self, index, session, now):
        """Console ``index``'s turn after its sleep; True once it has nothing more to do."""
        return True

    def between(self, pair):
        """In the main thread between two turns (every console parked): a
        window's events and drawing; raise SimDone (SimQuit) to end the run."""

    def close(self, pair):
        """After every session closed."""


__all__ = ["Pair", "PairFront", "PairDone", "World", "SimQuit", "NAMES"]
