# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Key scripts on the virtual clock: the headless front end.

:class:`ScriptDriver` plays a parsed key script (see
:func:`tools.simlib.script.parse_keys`) into a running session. Before the
first key and after each one it lets the virtual clock run until the app has
settled (:meth:`Session.settled`: the firmware's ``app.idle()`` and a short
quiet, or, without it, no new frame for ``idle_ms`` and no bot still to
move), or ``wait_ms`` at most. Then it presses the next
button, holds it ``hold`` ms (the app runs meanwhile, so long presses work)
and releases it; a burst step (``"A+LEFT"``) presses and releases each of
its buttons in turn within one tick. A ``WAIT`` step (``WAIT:MS``) presses
nothing: it does not wait for the app to settle, the clock just runs ``MS``
ms from the end of the step before (a key's release, or the first tick),
so a test knows exactly how long the console was left alone; the next step
then waits for the app to settle as usual, and a script that ends with a
wait ends the run when the wait is over. An ``UNTIL`` step
(``UNTIL:SCREEN[:MS]``) presses nothing until the app shows that screen
(:class:`UntilTimeout` after ``MS``). After the last key has settled it
raises :class:`~tools.simlib.session.SimDone`.
"""

from .script import UNTIL, WAIT
from .session import IDLE_MS, WAIT_MS, SimDone, SimLimit


class UntilTimeout(SimLimit):
    """An ``UNTIL:SCREEN:MS`` step's screen did not come within MS ms."""


class ScriptDone(SimDone):
    """The key script is done and the screen has settled."""


class ScriptDriver:
    """Presses the buttons of a key script at the right moments."""

    def __init__(self, steps, *, wait_ms=WAIT_MS, idle_ms=IDLE_MS, press=None, release=None):
        self.steps = list(steps)
        self.wait_ms = wait_ms
        self.idle_ms = idle_ms
        self._press = press
        self._release = release
        self.index = 0
        self.holding = None
        self.release_at = 0
        self.wait_until = None  # a WAIT step: no key before this virtual ms
        self.until_from = None  # an UNTIL step: when it began waiting for its screen
        self.since = None  # when the current settle began
        self.log = []  # (ms, "press"/"release", name)

    def ready(self, session, now):
        """Whether the next step may come (no button held): the firmware has
        settled, or ``wait_ms`` has passed since the last step."""
        if self.since is None:
            self.since = now
        if now - self.since < self.wait_ms:
            quiet = now - max(session.last_frame_ms, self.since)
            if not session.settled(quiet, self.idle_ms):
                return False
        return True

    def update(self, session, now):
        """Called after every device sleep."""
        if self.holding is not None:
            if now >= self.release_at:
                self.log.append((now, "release", self.holding))
                (self._release or session.rig.keys.release)(self.holding)
                self.holding = None
                self.since = now
            return
        if self.wait_until is not None:
            if now < self.wait_until:
                return
            self.log.append((now, "waited", WAIT))
            self.wait_until = None
            self.since = now
            if self.index >= len(self.steps):
                raise ScriptDone("key script done (it ended with a wait)")
        if self.index < len(self.steps) and self.steps[self.index][0] == UNTIL:
            screen, limit = self.steps[self.index][1]
            if self.until_from is None:
                self.until_from = now
                self.log.append((now, "until", screen))
            app = session.app
            stack = getattr(app, "stack", None)
            shown = stack[-1].name if stack else None
            if shown == screen:
                self.index += 1
                self.until_from = None
                self.since = now
                self.log.append((now, "shown", screen))
                return
            if now - self.until_from >= limit:
                raise UntilTimeout("UNTIL:%s:%d: the screen was still %s after %d ms (step %d of %d)"
                                   % (screen, limit, shown, limit, self.index + 1, len(self.steps)))
            return
        if self.index < len(self.steps) and self.steps[self.index][0] == WAIT:
            start = now if self.since is None else self.since
            self.wait_until = start + self.steps[self.index][1]
            self.index += 1
            self.log.append((now, "wait", WAIT))
            return
        if not self.ready(session, now):
            return
        if self.index >= len(self.steps):
            raise ScriptDone("key script done")
        name, hold = self.steps[self.index]
        self.index += 1
        if "+" in name:  # a burst: every button down and up again before the next tick
            for part in name.split("+"):
                self.log.append((now, "press", part))
                (self._press or session.rig.keys.press)(part)
                self.log.append((now, "release", part))
                (self._release or session.rig.keys.release)(part)
            self.since = now
            return
        self.log.append((now, "press", name))
        (self._press or session.rig.keys.press)(name)
        self.holding = name
        self.release_at = now + hold


class Headless:
    """No screen, no keyboard: the key script on the virtual clock."""

    def __init__(self, driver):
        self.driver = driver

    def start(self, session):
        """Nothing to open."""

    def stop(self, session):
        """Nothing to close."""

    def sleep(self, session, seconds):
        """Virtual time passes."""
        session.wait(seconds)

    def update(self, session, now):
        """The script's turn."""
        self.driver.update(session, now)
