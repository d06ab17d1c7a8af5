# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``os.getenv`` and ``supervisor.get_setting`` over a settings file read by
tools/settingstoml.py (CircuitPython's grammar, its two ``os.getenv`` styles)."""

from tools.settingstoml import STYLES


def make_getenv(settings, style, fallback):
    """Build the ``os.getenv`` replacement for ``settings`` (``{key: Setting}``).

    Keys present in the file answer as the board's ``os.getenv`` of that
    style does (style ``"int"`` raises ``ValueError`` for a value it cannot
    read; ``"str"`` gives ``default``). Missing keys that start with
    ``PISTI_`` or ``CIRCUITPY_`` return ``default`` (device semantics); any
    other missing key falls through to ``fallback`` (CPython's own
    ``os.getenv``) so desktop libraries reading ``HOME`` and friends still work.
    """
    if style not in STYLES:
        raise ValueError("getenv style must be one of %s, got %r" % (STYLES, style))

    def getenv(key, default=None):
        """Return the settings.toml value for ``key`` (CircuitPython semantics)."""
        if not isinstance(key, str):
            raise TypeError("getenv key must be str, not %s" % type(key).__name__)
        setting = settings.get(key)
        if setting is None:
            if key.startswith(("PISTI_", "CIRCUITPY_")):
                return default
            return fallback(key, default)
        value = setting.getenv(style)
        return default if value is None else value

    return getenv


def make_get_setting(settings):
    """Build ``supervisor.get_setting(key, default=None)`` (CircuitPython 10.2 on)."""

    def get_setting(key, default=None):
        """Return the parsed settings.toml value for ``key``."""
        setting = settings.get(key)
        if setting is None:
            return default
        return setting.get_setting()

    return get_setting
