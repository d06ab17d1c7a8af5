# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.startup`
===================

The settings read once at boot (``settings.toml`` through ``os.getenv``;
the hardware's in :mod:`pisti_app.hw`): a module of its own,
unloaded once read. A setting that is not what the firmware understands
never stops it: its default is used, and the :class:`Reader` notes the key
and the value it ignored (``bad``), which the splash then names on the
screen, one line each (:func:`notices`), and the serial console in full.
(CircuitPython returns an int for a bare value up to early 10.x and a str
after; both are accepted.)

The app's settings override the saved ones for this run: ``PISTI_START``
("pisti:2:usta", "yedili:4:kalfa", levels per bot seat as
"yedili:4:usta,kalfa,acemi"): straight into a new game, or back into the
saved one; ``PISTI_TARGET`` (101 or 151 with PISTI_START); ``PISTI_RATED``
(1: the PISTI_START game is rated; default 0, practice); ``PISTI_TIMER``
(seconds a move in rated games, 30 to 300); ``PISTI_LANG`` ("en" or "tr");
``PISTI_SEED`` (an int: seeds ``random`` for bots and shuffles; otherwise
deals come from ``os.urandom``, T-6); ``PISTI_DELAY`` (ms a play stays on
screen, overriding the speed setting); ``PISTI_MEMLOG`` (1, or 2 to list
the modules loaded too: after ``gc.collect()`` at every screen change the
serial console gets ``mem <screen> free=<bytes> ms=<ticks>``, and ``bot
<seat> <level> <ms>`` for every bot decision; off by default, and then it
costs nothing).
"""

import os
import sys

from pisti_core import GAMES, PLAYERS, TARGETS

from pisti_app.util import forget

SETTINGS_FILE = "/settings.toml"  # where CircuitPython's os.getenv reads them
_LINE = 25  # small characters on the message line
_LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def raw_text(key):
    """The text after ``key =`` in :data:`SETTINGS_FILE` (for a value
    ``os.getenv`` cannot read), or "?"."""
    try:
        with open(SETTINGS_FILE) as f:
            for line in f:
                k = line.find("=")
                if k > 0 and line[:k].strip() == key:
                    v = line[k + 1:].strip()
                    c = v.find("#") if v[:1] != '"' else -1
                    return (v[:c] if c >= 0 else v).strip() or "?"
    except (OSError, UnicodeError):
        pass
    return "?"


class Reader:
    """Typed reads of the settings; a bad value gives the default and is
    noted in ``bad`` as (key, value text, what the key takes)."""

    def __init__(self, bad=None):
        self.bad = [] if bad is None else bad

    def note(self, key, value, why):
        """Remember that ``key``'s ``value`` was ignored."""
        self.bad.append((key, value, why))

    def get(self, key):
        """``os.getenv(key)``, looked up at each call (the desktop shims and
        the heap gauge's stand-in put theirs in ``os``); None when absent
        or empty, or (noted) when getenv cannot read it."""
        try:
            v = os.getenv(key)
        except ValueError:  # a bare value that is not a number (CircuitPython up to 10.x)
            self.note(key, raw_text(key), "a number, or text in quotes")
            return None
        if v is None or isinstance(v, int):
            return v
        v = str(v).strip()
        return v if v else None

    def has(self, key):
        """Whether ``key`` is in the settings at all (even empty)."""
        try:
            return os.getenv(key) is not None
        except ValueError:
            return True

    def text(self, key, default=None):
        """The setting ``key`` as a str (``default`` when absent or empty)."""
        v = self.get(key)
        return default if v is None else str(v)

    def num(self, key, default, ok, why):
        """The setting ``key`` as a whole number for which ``ok(n)`` holds;
        otherwise (noted as written, ``why`` saying what it takes) ``default``."""
        v = self.get(key)
        if v is None:
            return default
        n = v
        if not isinstance(v, int):
            try:
                n = int(v, 0)
            except ValueError:
                self.note(key, v, why)
                return default
        n = int(n)  # (True and False)
        if not ok(n):
            if isinstance(v, int):  # getenv parsed a bare 0x99: the file has it as written
                w = raw_text(key)
                v = str(v) if w == "?" else w
            self.note(key, v, why)
            return default
        return n


def parse_start(text):
    """``"pisti:2:usta"`` -> (game, players, levels per seat); ValueError if bad."""
    parts = text.split(":")
    if len(parts) != 3 or parts[0] not in GAMES:
        raise ValueError("PISTI_START %r is not like 'pisti:2:usta' or 'yedili:4:kalfa'" % text)
    game = parts[0]
    try:
        players = int(parts[1])
    except ValueError:
        raise ValueError("PISTI_START %r: the player count is not a number" % text)
    ok = PLAYERS[GAMES.index(game)]
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


def boot_settings(rd):
    """(start, target, rated, lang, timer, delay, seed, memlog) from the
    settings, read with the :class:`Reader` ``rd``: ``start`` None or (game,
    players, levels per seat); a bad value is noted and its default used."""
    from pisti_core.table import TIMER_MAX, TIMER_MIN
    start = rd.text("PISTI_START")
    if start is not None:
        try:
            start = parse_start(start)
        except ValueError as e:
            rd.note("PISTI_START", start, str(e))
            start = None
    # Pişti's targets (P-2): Pis Yedili has one (Y-16)
    target = rd.num("PISTI_TARGET", None, lambda v: v in TARGETS[0], " or ".join(map(str, TARGETS[0])) + ", P-2")
    if start is None or target not in TARGETS[GAMES.index(start[0])]:
        target = None  # (a game without that target: its own, the Match's default)
    rated = rd.num("PISTI_RATED", 0, lambda v: v in (0, 1), "0 practice or 1 rated, T-1") == 1
    lang = rd.text("PISTI_LANG")
    if lang is not None and lang not in ("en", "tr"):
        rd.note("PISTI_LANG", lang, '"en" or "tr"')
        lang = None
    timer = rd.num("PISTI_TIMER", None, lambda v: TIMER_MIN <= v <= TIMER_MAX,
                   "%d to %d seconds, T-3" % (TIMER_MIN, TIMER_MAX))
    delay = rd.num("PISTI_DELAY", None, lambda v: 0 <= v <= 10000, "0 to 10000 ms")
    seed = rd.num("PISTI_SEED", None, lambda v: True, "a whole number")
    memlog = rd.num("PISTI_MEMLOG", 0, lambda v: 0 <= v <= 2, "0, 1 or 2")
    return start, target, rated, lang, timer, delay, seed, memlog


def notices(bad, template, short):
    """One line for each ignored setting in ``bad``: ``template`` ("%s
    ignored") around "KEY=value", fitted to the message line: without the
    PISTI_ prefix, then in the ``short`` template ("Bad %s"), then cut,
    when too long. The full story goes to the serial console."""
    out = []
    for key, value, why in bad:
        # ``why`` may be a parser's own error, which names the file and key too.
        if why.startswith("settings.toml: "):
            why = why[15:]
        if why.startswith(key):
            why = why[len(key):].lstrip(" :")
        print("settings.toml: %s = %s ignored (the default is used): %s" % (key, value, why))
        s = key + "=" + value
        tpl = template
        if len(s) > _LINE + 2 - len(tpl) and key.startswith("PISTI_"):
            s = key[6:] + "=" + value
        if len(s) > _LINE + 2 - len(tpl):
            tpl = short
        room = _LINE + 2 - len(tpl)
        if len(s) > room:
            s = s[:room - 1] + "\u2026"
        out.append(tpl % s)
    return out


def saved(app):
    """The boot's notices about the saves (``app.nvm_state`` and
    ``nvm_notice`` set); statistics that do not read are reset here, alone,
    and said so (:func:`pisti_app.match.stats.load`)."""
    from pisti_app.texts import strings
    sv = app.saves
    k = "nvm_" + sv.state
    if sv.store.stats is not None:
        from pisti_app.match import stats
        if stats.load(sv)[1]:
            k = "stats_reset"
        app.forget("pisti_app.match.stats")
    st = app.nvm_state = sv.state  # as boot found the nvm
    app.nvm_notice = sv.notice
    return [] if st == "ok" else [strings.t(k)]


def init(app, hw):
    """The :class:`pisti_app.app.App`'s boot, after its screens' state: the
    settings, the saves and the preferences, the language, the random
    seed, the game kept, the notices. Returns (start, target, rated, the
    settings ignored) for the first screen."""
    # The App's own boot, kept out of its class (loaded only to boot).
    import random
    from pisti_app.texts import strings
    from pisti_app.match.saves import default_prefs
    rd = Reader(list(hw.bad or ()))  # a bad setting: its default, and a notice
    start, target, rated, lang, timer, delay, seed, memlog = boot_settings(rd)
    app.memlog = memlog
    nvm = getattr(hw, "nvm", None)
    if nvm is None:  # a board without nvm: saves last until power off
        nvm = bytearray(4096)
        ff = b"\xff" * 64
        for i in range(0, 4096, 64):
            nvm[i:i + 64] = ff
    from pisti_app.match.records import Records
    app.records = Records(nvm)
    prefs = app.prefs = default_prefs()
    app.saves.read_prefs(prefs)
    if lang is not None:
        prefs["lang"] = lang
    if timer is not None:
        prefs["timer"] = timer
    app.sound.enabled = prefs["sound"]
    app.hw.wake(app)  # the saved brightness
    app.delay_override = delay
    if seed is not None:
        random.seed(seed)
        from pisti_app.util import seeded_below
        app.below = seeded_below
    else:
        b = os.urandom(4)
        random.seed((b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) & 0x3FFFFFFF)
    strings.set_lang(prefs["lang"])
    stamp = app.rankings.stamp
    before = set(sys.modules)
    kept = app.saves.kept(app.below, stamp)
    if kept is not None:
        from pisti_app.match.saves import keep
        kept = keep(kept)
    app.kept = kept
    # The game's code, loaded to read it, goes again (the menus come first).
    forget(*[name for name in sys.modules if name not in before])
    app.notices = saved(app)
    app.notices += notices(rd.bad, strings.t("bad_setting"), strings.t("bad_setting_short"))
    return start, target, rated, rd.bad
