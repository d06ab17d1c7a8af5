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


def boot():
    """Build the hardware from ``settings.toml`` and the App; store it in
    :data:`current` and return it."""
    global current  # pylint: disable=global-statement
    from pisti_app.app import App
    from pisti_app.hw import Hardware

    current = None
    app = App(Hardware())
    current = app
    return app


def run():
    """Boot, then tick about every 10 ms, forever."""
    import time

    app = boot()
    while True:
        app.tick()
        time.sleep(0.01)
