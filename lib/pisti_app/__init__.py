# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app`
===========

The handheld's application: screens, input, rendering and hardware set-up
for Pişti and Pis Yedili on a 128x64 SSD1306 with six buttons. ``code.py``
calls :func:`run`; the same code runs on a desktop through Blinka and the
shims in ``tools/shims``.

``current`` holds the running :class:`pisti_app.app.App` (the simulator
reads it).
"""

__version__ = "0.2.0"

current = None


def boot(resume=False):
    """Build the hardware from ``settings.toml`` and the App; store it in
    :data:`current` and return it. ``resume``: straight back into the game
    kept in the saves, if there is one (the restart after running out of
    memory)."""
    global current  # pylint: disable=global-statement
    from pisti_app.app import App
    from pisti_app.hw import Hardware

    current = None
    app = App(Hardware())
    App.forget("pisti_app.hw")  # its work is done: the App keeps what it built
    if resume and app.kept is not None and app.screen.name != "table":
        app.continue_game()
    current = app
    return app


def _reloaded():
    # True when code.py runs again after supervisor.reload() (the restart below).
    try:
        import supervisor
        return supervisor.runtime.run_reason == supervisor.RunReason.SUPERVISOR_RELOAD
    except (ImportError, AttributeError):
        return False


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


def out_of_memory(app, err):
    """The heap ran out (``err``): drop the app, log the error on the console,
    and show, in the app's language, that the game is saved (T-6: every
    action was written before it was shown) until OK is pressed."""
    global current  # pylint: disable=global-statement
    import gc
    import time

    from pisti_app import strings

    hw = app.hw
    display = hw.display
    keys = hw.keys
    ok = hw.key_names.index("B" if app.input.three else "A")
    app.stack = []
    app.session = None
    app = None
    current = None
    gc.collect()
    print("pisti: out of memory (%s); restarting into the saved game" % (err,))
    try:
        from traceback import print_exception  # CircuitPython
        print_exception(err)
    except ImportError:
        import sys
        if hasattr(sys, "print_exception"):  # MicroPython
            sys.print_exception(err)
    import displayio

    from pisti_app import gfx

    g = displayio.Group()
    text = strings.t("oom")
    current = Notice(text, strings.lang())
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
    import displayio as dio
    dio.release_displays()
    if hw.i2c is not None:
        hw.i2c.deinit()


def run():
    """Boot, then tick about every 10 ms, forever. Out of memory, the
    player sees :func:`out_of_memory`'s notice, never a traceback, and the
    console restarts into the saved game (on the board by
    ``supervisor.reload()``, on a desktop rig in this process)."""
    import time

    resume = _reloaded()
    while True:
        app = boot(resume)
        try:
            while True:
                app.tick()
                time.sleep(0.01)
        except MemoryError as e:
            out_of_memory(app, e)
        app = None
        resume = True
        try:
            import supervisor
            supervisor.reload()  # the board: code.py again, on a fresh heap
            while True:
                time.sleep(1)  # (the reload comes at the next bytecode)
        except (ImportError, AttributeError):
            pass
        except Exception:  # pylint: disable=broad-except
            pass  # a desktop rig's supervisor: boot again here
