# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device app on the desktop shims with the virtual clock, for the tests
that drive it: :class:`Device` (a simulated Pico: buttons in,
``app.status()`` and pixels out), :class:`Wing` (the FeatherWing's 128x32
layout and three buttons), their settings.toml and the screen bounds check.
The ``device`` and ``wing`` fixtures (tests/conftest.py) make them."""

import os
import sys
import time

import tools.shims as shims

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = "/tmp/pisti_shots"
WING = os.path.join(ROOT, "tools", "boards", "featherwing.toml")
PICO = os.path.join(ROOT, "tools", "boards", "pico.toml")
LIB = os.path.join(ROOT, "lib")
if LIB not in sys.path:  # as on the device (code.py does the same on a desktop)
    sys.path.append(LIB)


def settings_file(path, extra=None, base=PICO):
    """A settings.toml: the profile's lines plus ``extra`` {KEY: value}."""
    extra = extra or {}
    with open(base, encoding="utf-8") as f:
        # The device reads the first occurrence of a key: drop the overridden ones.
        text = "".join([line for line in f if line.split("=")[0].strip() not in extra])
    for k, v in extra.items():
        text += "\n%s = %s" % (k, ('"%s"' % v) if isinstance(v, str) else v)
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


class Device:
    """The app on a simulated Pico: ``press()`` buttons, ``run()`` the loop.
    ``nvm``: what ``microcontroller.nvm`` is (default: a blank bytearray; a
    ``tools.shims.nvm.FlashNvm`` counts erases and can cut the power)."""

    def __init__(self, tmp_path, profile="pico", nvm=None, **extra):
        if nvm is None:
            nvm = bytearray(b"\xff" * 4096)
        self.rig = shims.install(profile, settings_path=settings_file(tmp_path / "settings.toml", extra),
                                 nvm=nvm)
        try:
            import pisti_app

            self.app = pisti_app.boot()
            assert pisti_app.current is self.app
        except BaseException:
            self.rig.close()
            raise

    def run(self, ms):
        """The main loop of pisti_app.run() for ``ms`` of virtual time."""
        for _ in range(max(1, ms // 10)):
            self.app.tick()
            time.sleep(0.01)

    def press(self, name, hold=40, after=60):
        """Tap a button and let the loop run (after the first frame: keys
        pressed while the board boots are dropped)."""
        self.first_frame()
        self.rig.keys.tap(name, hold)
        self.run(after)

    def long(self, name, ms=800):
        """A long press."""
        self.first_frame()
        self.rig.keys.hold(name, ms)
        self.run(60)

    def first_frame(self):
        """One tick, if the loop has not run yet: the first screen is drawn."""
        if self.app.refreshes == 0:
            self.run(10)

    def status(self):
        """app.status()."""
        return self.app.status()

    def wait(self, cond, limit_ms=20000, step=10):
        """Run until ``cond(status)`` holds; fail after ``limit_ms``."""
        waited = 0
        while True:
            st = self.app.status()
            if cond(st):
                return st
            if waited >= limit_ms:
                raise AssertionError("still waiting after %d ms: %r" % (limit_ms, st))
            self.run(step)
            waited += step

    def beside(self, peer, until, limit_ms, clock=None):
        """Run this console and ``peer`` (the console at the other end of its
        cable: anything with ``poll(ms)``, polled at ``clock()``, by default
        this console's ticks) 10 ms at a time until ``until()`` holds or
        ``limit_ms`` pass; the status then."""
        clock = clock or self.rig.clock.ticks_ms
        for _ in range(limit_ms // 10):
            if until():
                break
            self.run(10)
            peer.poll(clock())
        return self.app.status()

    def settle(self, limit_ms=3000):
        """Run until the app waits for a key (``App.idle()``): a hand end or
        the match end drops keys for a moment after it comes (as the splash
        does when it moves on by itself); a person reads it, then presses."""
        return self.wait(lambda s: self.app.idle(), limit_ms)

    def menu_to(self, key):
        """Move the cursor of the list menu on screen to the row ``key``."""
        for _ in range(12):
            st = self.app.status()
            if st["cursor"] == key:
                return
            self.press("DOWN")
        raise AssertionError("no row %r in %r" % (key, self.app.status().get("menu")))

    def shot(self, name):
        """Save the screen as a 4x PNG under /tmp/pisti_shots; return the path."""
        os.makedirs(SHOTS, exist_ok=True)
        return self.rig.oled.save_png(os.path.join(SHOTS, name + ".png"), 4)

    def close(self):
        """Release the rig."""
        self.rig.close()


def labels_out_of_bounds(group, width=128, height=64, ox=0, oy=0):
    """Visible text labels (and tiles) reaching outside the screen."""
    import displayio

    bad = []
    if group.hidden:
        return bad
    ox += group.x
    oy += group.y
    for item in group:
        if getattr(item, "hidden", False):
            continue
        if hasattr(item, "bounding_box") and hasattr(item, "text"):
            if item.text:
                bx, by, bw, bh = item.bounding_box
                x0 = ox + item.x + bx * item.scale
                y0 = oy + item.y + by * item.scale
                w = bw * item.scale
                h = bh * item.scale
                # The box's blank top row (the font's descent) may sit off screen.
                if x0 < 0 or x0 + w > width or y0 < -2 or y0 + h > height + 1:
                    bad.append((item.text, x0, y0, w, h))
        elif isinstance(item, displayio.Group):
            bad.extend(labels_out_of_bounds(item, width, height, ox, oy))
        elif isinstance(item, displayio.TileGrid):
            x0, y0 = ox + item.x, oy + item.y
            w = item.tile_width * item.width
            h = item.tile_height * item.height
            if x0 < 0 or y0 < 0 or x0 + w > width or y0 + h > height:
                bad.append(("tile", x0, y0, w, h))
    return bad



class Wing(Device):
    """:class:`Device` on the FeatherWing profile (its own
    settings.toml: 128x32 display, buttons A B C)."""

    def __init__(self, tmp_path, **extra):
        nvm = bytearray(b"\xff" * 4096)
        self.rig = shims.install("featherwing", nvm=nvm,
                                 settings_path=settings_file(tmp_path / "settings.toml", extra, WING))
        try:
            import pisti_app

            self.app = pisti_app.boot()
        except BaseException:
            self.rig.close()
            raise

    def long(self, name="B", ms=800):
        """A long press (long B is BACK on three buttons)."""
        self.first_frame()
        self.rig.keys.hold(name, ms)
        self.run(60)

    def out_of_bounds(self):
        """Labels and tiles of the screen on top reaching past 128x32."""
        return labels_out_of_bounds(self.app.display.root_group, 128, 32)

    def png(self, path):
        """The screen as a 4x PNG."""
        self.rig.oled.save_png(str(path), 4)
        return str(path)


def sit(app, session, saved=False, link=None):
    """Sit ``app`` down at ``session`` (:func:`pisti_app.match.begin.sit`)."""
    from pisti_app.match.begin import sit as sit_down
    sit_down(app, session, saved, link)


def forgets(monkeypatch):
    """The modules the app unloads from now on, in order (a desktop CPython
    keeps every module: here they are recorded, and still kept)."""
    from pisti_app import util
    names = []
    monkeypatch.setattr(util, "KEEP", False)
    monkeypatch.setattr(util, "drop_module", names.append)
    return names

