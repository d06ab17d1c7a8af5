# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.oom`
===============

What the player sees when the heap runs out anyway: never a
traceback, a notice in the current language that the game is saved, and,
once OK is pressed, a restart into that game (:func:`pisti_app.run`).
Imported only then, after the app has been dropped, so it costs no heap
the rest of the time.
"""

import time

import displayio

from pisti_app.screens import gfx
from pisti_app.util import release


class Notice:
    """What :data:`current` is while the out-of-memory notice is shown."""

    def __init__(self, text, lang):
        self.text = text
        self.lang = lang

    def status(self):
        """For scripts and the simulator, as ``App.status()``."""
        return {"screen": "oom", "message": self.text.replace("\n", " "), "lang": self.lang}

    @staticmethod
    def idle():
        """Waiting for a key."""
        return True


def out_of_memory(hw, three, err, where):
    """The heap ran out (``err``; the app is gone already, ``hw`` is what it
    kept of the board, ``three`` whether it has three buttons): log the
    error on the console and show, in the app's language, that the game is
    saved (T-6: every action was written before it was shown) until OK is
    pressed, then free the pins for the next boot. ``where``: the package
    :mod:`pisti_app`, whose ``current`` is the :class:`Notice` meanwhile."""
    from pisti_app.texts import strings

    display = hw.display
    keys = hw.keys
    ok = hw.key_names.index("B" if three else "A")
    print("pisti: out of memory (%s); restarting into the saved game" % (err,))
    try:
        from traceback import print_exception  # CircuitPython
        print_exception(err)
    except ImportError:
        import sys
        if hasattr(sys, "print_exception"):  # MicroPython
            # typeshed's sys is CPython's (circuitpython-stubs has none): MicroPython's has this
            sys.print_exception(err)  # pyright: ignore[reportAttributeAccessIssue]
    g = displayio.Group()
    text = strings.t("oom")
    where.current = Notice(text, strings.lang())  # for scripts and the simulator
    lines = text.split("\n")
    h = hw.height
    top = (h - 8 * len(lines)) // 2 if h < 64 else 16
    for i in range(len(lines)):
        g.append(gfx.label("small", lines[i], 64, top + (8 if h < 64 else 10) * i, anchor=(0.5, 0.0)))
    display.root_group = g
    display.refresh()
    keys.events.clear()
    down = False
    while True:  # OK pressed and let go: the restart must not see it again
        ev = keys.events.get()
        if ev is not None and ev.key_number == ok:
            if ev.pressed:
                down = True
            elif down:
                break
        time.sleep(0.02)
    display.root_group = None
    for part in (keys, hw.buzzer):  # free their pins for the next boot
        if part is not None:
            part.deinit()
    displayio.release_displays()
    if hw.i2c is not None:
        hw.i2c.deinit()


def resume_failed(app, err, kept):
    """The boot's way back into the kept game (after running out of memory)
    ran out of memory again: the main menu instead, the game still kept to
    Continue (nothing saved is touched), and a notice saying so; never a
    traceback, never a loop of restarts."""
    from pisti_app.texts import strings

    print("pisti: out of memory going back into the game (%s)" % (err,))
    link = app.link
    if link is not None:  # (the cable's pins go back: Continue opens it again; no goodbye, L-9)
        app.play.link = None
        port = link.lock.chan.port
        if hasattr(port, "deinit"):
            port.deinit()
        release(link)
        link = None
    app.outside_bots = {}
    app.kept = kept  # (the main menu offers Continue)
    app.main_menu()
    app.forget("pisti_app.oom")
    app.ask(strings.t("app_title"), strings.t("oom_resume"), app.pop, strings.t("keys_ok"))
