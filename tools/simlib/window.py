# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The pygame window front end: the OLED scaled up, keys with real key-up.

The picture is the SSD1306 emulator's panel (what the real driver sent over
I2C), drawn with pygame directly; blinka-displayio-pygamedisplay is not
needed (it would replace the display the firmware builds, and its 4.1.0
wheel lacks ``keypad_pygame.py``). Key down presses a button, key up
releases it, so holding a key is a long press. Several keys may map to one
button; it is released when the last of them goes up. Losing focus
releases everything.

With a key script (``--window --keys ...``) the window runs on the virtual
clock and the script's presses go through pygame's event queue and this
key map, exactly like typed keys (headless tests use SDL_VIDEODRIVER=dummy).
"""

import os
import sys
import tempfile

from .headless import ScriptDriver
from .session import IDLE_MS, WAIT_MS, SimQuit

QUIT = "quit"
BAR = 40  # pixels under the screen for the help and status lines


def _pygame():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


def window_keymap(buttons):
    """{pygame key code: button name or QUIT} for a board's ``buttons``.

    Pico: arrows; z, a, Return, Space = A; x, b, Escape, Backspace = B.
    FeatherWing (A B C): a, up, left = A; c, down, right = C; b, Return,
    Space = B. q quits; so does closing the window.
    """
    pg = _pygame()
    keymap = {}
    for name in buttons:
        if len(name) == 1 and name.isalpha():
            keymap[ord(name.lower())] = name
    if all(a in buttons for a in ("UP", "DOWN", "LEFT", "RIGHT")):
        keymap.update({pg.K_UP: "UP", pg.K_DOWN: "DOWN", pg.K_LEFT: "LEFT", pg.K_RIGHT: "RIGHT"})
        if "A" in buttons:
            keymap.update({pg.K_z: "A", pg.K_RETURN: "A", pg.K_KP_ENTER: "A", pg.K_SPACE: "A"})
        if "B" in buttons:
            keymap.update({pg.K_x: "B", pg.K_ESCAPE: "B", pg.K_BACKSPACE: "B"})
    elif all(b in buttons for b in ("A", "B", "C")):
        keymap.update({pg.K_UP: "A", pg.K_LEFT: "A", pg.K_DOWN: "C", pg.K_RIGHT: "C",
                       pg.K_RETURN: "B", pg.K_SPACE: "B", pg.K_ESCAPE: "B", pg.K_BACKSPACE: "B"})
    keymap[pg.K_q] = QUIT
    return keymap


def window_help(buttons):
    """The help line under the window's screen."""
    if "UP" in buttons:
        return "arrows move  Z/Enter = A (ok)  X/Esc = B (back; hold: menu)  Q quit"
    return "A/up = prev  C/down = next  B/Enter = ok (hold: back)  Q quit"


class NoDisplay(RuntimeError):
    """pygame found no screen to open a window on."""


class _Fd2Aside:
    """Within the block, what is written to file descriptor 2 (C libraries
    too) goes to a temporary file; :meth:`text` reads it."""

    def __init__(self):
        self._saved = None
        self._file = None

    def __enter__(self):
        try:
            sys.stderr.flush()
        except (AttributeError, ValueError):
            pass
        try:
            self._saved = os.dup(2)
        except OSError:  # no descriptor 2: nothing to keep aside
            return self
        self._file = tempfile.TemporaryFile()
        os.dup2(self._file.fileno(), 2)
        return self

    def text(self):
        """The bytes written so far."""
        if self._file is None:
            return b""
        self._file.seek(0)
        return self._file.read()

    def __exit__(self, *exc):
        if self._saved is not None:
            os.dup2(self._saved, 2)
            os.close(self._saved)
            self._saved = None
        if self._file is not None:
            self._file.close()
            self._file = None


class Window:
    """Plays the firmware in a pygame window."""

    def __init__(self, buttons, *, zoom=5, steps=None, wait_ms=WAIT_MS, idle_ms=IDLE_MS, unattended=False):
        self.buttons = buttons
        self.keymap = window_keymap(buttons)
        self.help = window_help(buttons)
        self.zoom = zoom
        self.driver = None
        self.unattended = unattended or steps is not None  # nobody needs to see it
        if steps is not None:
            self.driver = ScriptDriver(steps, wait_ms=wait_ms, idle_ms=idle_ms,
                                       press=self._post_down, release=self._post_up)
        self.down = {}  # button -> set of key codes holding it
        self.pg = None
        self.surface = None
        self.font = None
        self._drawn = None
        self.events_seen = 0

    # -- set-up -----------------------------------------------------------------------
    def start(self, session):
        """Open the window."""
        pg = self.pg = _pygame()
        # SDL writes its own complaints (e.g. "XDG_RUNTIME_DIR is invalid")
        # straight to file descriptor 2 while it looks for a screen: they are
        # kept aside, and shown only when a window did open.
        noise = b""
        try:
            with _Fd2Aside() as aside:
                try:
                    pg.display.init()
                    driver = pg.display.get_driver()
                finally:
                    noise = aside.text()
        except pg.error as exc:
            raise NoDisplay("cannot open a window: %s" % exc) from None
        if driver in ("offscreen", "dummy") and not self.unattended:
            pg.display.quit()
            raise NoDisplay("no screen for a window (SDL video driver %r): run it on a desktop, "
                            "or play in the terminal (bash tools/play.sh)" % driver)
        if noise and driver not in ("offscreen", "dummy"):
            os.write(2, noise)
        pg.font.init()
        oled = session.rig.oled
        size = (oled.width * self.zoom, oled.height * self.zoom + BAR)
        self.surface = pg.display.set_mode(size)
        pg.display.set_caption("pisti (%s)" % session.profile)
        self.font = pg.font.Font(None, 18)
        self._drawn = None

    def stop(self, session):
        """Close the window, let go of every button."""
        if session.rig is not None:
            session.rig.keys.release_all()
        if self.pg is not None:
            self.pg.display.quit()
            self.pg.font.quit()

    # -- scripted keys go through the event queue -------------------------------------
    def key_for(self, button):
        """A key code that presses ``button`` (the first in key-code order)."""
        codes = sorted(code for code, name in self.keymap.items() if name == button)
        if not codes:
            raise KeyError("no key is mapped to button %r" % button)
        return codes[0]

    def _post_down(self, button):
        self.pg.event.post(self.pg.event.Event(self.pg.KEYDOWN, key=self.key_for(button), mod=0, unicode=""))

    def _post_up(self, button):
        self.pg.event.post(self.pg.event.Event(self.pg.KEYUP, key=self.key_for(button), mod=0, unicode=""))

    # -- the loop ---------------------------------------------------------------------
    def sleep(self, session, seconds):
        """Real (or, with a script, virtual) time passes."""
        session.wait(seconds)

    def update(self, session, now):
        """Script, events, drawing."""
        if self.driver is not None:
            self.driver.update(session, now)
        self.handle(session, self.pg.event.get())
        key = (session.frame_serial, tuple(sorted(self.down)))
        if key != self._drawn:
            self._drawn = key
            self.draw(session)

    def handle(self, session, events):
        """Turn pygame events into button presses and releases."""
        pg = self.pg
        keys = session.rig.keys
        for event in events:
            self.events_seen += 1
            if event.type == pg.QUIT:
                raise SimQuit("window closed")
            if event.type == pg.WINDOWFOCUSLOST:
                self.down.clear()
                keys.release_all()
                continue
            if event.type in (pg.VIDEOEXPOSE, pg.WINDOWEXPOSED):
                self._drawn = None  # draw again after being covered
                continue
            if event.type not in (pg.KEYDOWN, pg.KEYUP):
                continue
            button = self.keymap.get(event.key)
            if button is None:
                continue
            if button == QUIT:
                if event.type == pg.KEYDOWN:
                    raise SimQuit("quit")
                continue
            holders = self.down.setdefault(button, set())
            if event.type == pg.KEYDOWN:
                holders.add(event.key)
                keys.press(button)
            else:
                holders.discard(event.key)
                if not holders:
                    del self.down[button]
                    keys.release(button)

    def draw(self, session):
        """The panel, scaled, and the help bar."""
        pg = self.pg
        oled = session.rig.oled
        image = oled.to_image(scale=1).convert("RGB")
        frame = pg.image.frombytes(image.tobytes(), image.size, "RGB")
        width, height = oled.width * self.zoom, oled.height * self.zoom
        self.surface.fill((40, 40, 40))
        self.surface.blit(pg.transform.scale(frame, (width, height)), (0, 0))
        try:
            status = session.app_status()
        except Exception:
            status = {}
        from .terminal import summary

        held = " ".join("[%s]" % b for b in sorted(self.down))
        lines = (self.help, (held + " " + summary(status)).strip())
        for index, text in enumerate(lines):
            picture = self.font.render(text, True, (200, 200, 200))
            self.surface.blit(picture, (6, height + 4 + index * 17))
        pg.display.flip()
