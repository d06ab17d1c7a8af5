# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.startup`
===================

The settings read once at boot (``settings.toml``, see :mod:`pisti_app.app`),
checked before anything is written: a module of its own, unloaded once
read.
"""

from pisti_app.util import setting_int, setting_str

_LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def parse_start(text):
    """``"pisti:2:usta"`` -> (game, players, levels per seat); ValueError if bad."""
    parts = text.split(":")
    if len(parts) != 3 or parts[0] not in ("pisti", "yedili"):
        raise ValueError("PISTI_START %r is not like 'pisti:2:usta' or 'yedili:4:kalfa'" % text)
    game = parts[0]
    try:
        players = int(parts[1])
    except ValueError:
        raise ValueError("PISTI_START %r: the player count is not a number" % text)
    ok = (2, 4) if game == "pisti" else (2, 3, 4)
    if players not in ok:
        raise ValueError("PISTI_START %r: %s is for %s players" % (
            text, game, " or ".join([str(n) for n in ok])))
    names = parts[2].split(",")
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise ValueError("PISTI_START %r: give one level, or one per bot seat (%d)" % (text, players - 1))
    for lv in names:
        if lv not in _LEVELS:
            raise ValueError("PISTI_START %r: unknown bot level %r (acemi, kalfa, usta)" % (text, lv))
    return game, players, [None] + names


def boot_settings():
    """(start, target, rated, lang, timer, delay, seed) from the settings:
    ``start`` None or (game, players, levels per seat); ValueError naming
    the setting when one is bad."""
    target = None
    rated = False
    start = setting_str("PISTI_START", None)
    if start is not None:
        start = parse_start(start)
        target = setting_int("PISTI_TARGET", None) if start[0] == "pisti" else None
        if target not in (None, 101, 151):
            raise ValueError("settings.toml: PISTI_TARGET must be 101 or 151 (P-2)")
        r = setting_int("PISTI_RATED", 0)
        if r not in (0, 1):
            raise ValueError("settings.toml: PISTI_RATED must be 0 (practice) or 1 (rated)")
        rated = r == 1
    lang = setting_str("PISTI_LANG", None)
    timer = setting_int("PISTI_TIMER", None)
    if timer is not None:
        from pisti_core.table import TIMER_MAX, TIMER_MIN
        if not TIMER_MIN <= timer <= TIMER_MAX:
            raise ValueError("settings.toml: PISTI_TIMER must be %d to %d seconds"
                             % (TIMER_MIN, TIMER_MAX))
    delay = setting_int("PISTI_DELAY", None)
    if delay is not None and not 0 <= delay <= 10000:
        raise ValueError("settings.toml: PISTI_DELAY must be 0 to 10000 ms")
    return start, target, rated, lang, timer, delay, setting_int("PISTI_SEED", None)
