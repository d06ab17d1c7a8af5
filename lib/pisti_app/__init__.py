# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app`
===========

The handheld's application for Pişti and Pis Yedili on a 128x64 SSD1306
with six buttons. ``code.py`` calls :func:`run`; the same code runs on a
desktop through Blinka and the shims in ``tools/shims``.

Here, at the top, is the shell: ``app`` (:class:`pisti_app.app.App`: the
screen stack, the tick loop, the prefs), ``board`` (the parts, screen
sleep, the battery), ``hw`` (the board built from ``settings.toml``),
``keys``, ``sound``, ``startup`` (the boot's settings), ``prefs``, ``oom``
(running out of memory), ``util`` (ticks, assets, the modules' lifetimes)
and ``status`` (what scripts and the simulator read). The rest, by job:

* ``match``: the match in play, in one place (:class:`pisti_app.match.play.Play`:
  the session, the seats, the saves, the move timer, the link), how it
  begins, ends and is left, and what it keeps (saves, records, statistics);
* ``screens``: the views: each draws what the app and the match hold and
  turns keys into requests, and what they draw with (``gfx``, ``sprites``);
* ``texts``: every text shown, in English and Turkish, and the rules pages;
* ``link``: link play over the cable, loaded only for it.

A screen or scene that loads modules of its own names them in ``NEEDS``;
:func:`pisti_app.util.release` unloads them when it goes (their code is
heap on the board).

``current`` holds the running :class:`pisti_app.app.App` (the simulator
reads it).
"""

from pisti_app.util import __version__  # noqa: F401 (the package's version, read by tools/deploy.py)

current = None


def boot(resume=False):
    """Build the hardware from ``settings.toml`` and the App; store it in
    :data:`current` and return it. ``resume``: straight back into the game
    kept in the saves, if there is one (the restart after running out of
    memory)."""
    global current
    from pisti_app.app import App
    from pisti_app.hw import Hardware

    current = None
    app = App(Hardware(), resume)  # (resume: straight back into the kept game, no splash; out of memory
    App.forget("pisti_app.hw")     # even on a fresh heap, the main menu, whose Continue tries again)
    current = app
    return app


def _reloaded():
    # True when code.py runs again after supervisor.reload() (the restart below).
    try:
        import supervisor
        return supervisor.runtime.run_reason == supervisor.RunReason.SUPERVISOR_RELOAD
    except (ImportError, AttributeError):
        return False


def run():
    """Boot, then tick about every 10 ms (4 ms in a link game, every 50 ms while the screen is
    off: a tick then only reads the keys and the timers), forever. Out of memory, the
    player sees :func:`pisti_app.oom.out_of_memory`'s notice, never a
    traceback, and the console restarts into the saved game (on the board
    by ``supervisor.reload()``, on a desktop rig in this process). The
    app's ``restart`` (a link game's start on the board) restarts the same
    way, without a notice."""
    global current
    import gc
    import time

    resume = _reloaded()
    while True:
        app = boot(resume)
        err = None
        try:
            while not app.restart:
                app.tick()
                # (a link game ticks more often: what comes on the cable shows sooner, L-4)
                time.sleep(0.05 if app.hw.nap > 1 else 0.004 if app.link is not None else 0.01)
        except MemoryError as e:
            err = e
        resume = True
        if err is not None:
            hw = app.hw  # what the notice needs; the rest of the app goes now
            three = app.input.three
            app.stack = []
            app.play = None
            app = None
            current = None
            gc.collect()
            try:
                from pisti_app.oom import out_of_memory
                import pisti_app
                out_of_memory(hw, three, err, pisti_app)
            except MemoryError:  # not even the notice fits: the restart alone
                pass
        # else: the app asked (a link game starts on a fresh heap, linkmenu.restarts)
        try:
            import supervisor
            supervisor.reload()  # the board: code.py again, on a fresh heap
            while True:
                time.sleep(1)  # (the reload comes at the next bytecode)
        except (ImportError, AttributeError):
            pass
        except Exception:
            pass  # a desktop rig's supervisor: boot again here
