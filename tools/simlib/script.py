# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Key scripts (``--keys "A*3,RIGHT,B:900"``), ``--start`` and the buttons.

A key script is a comma list of steps ``NAME[:HOLD_MS][*N]``: ``NAME`` is a
button of the profile (``UP DOWN LEFT RIGHT A B`` on the Pico, ``A B C`` on
the FeatherWing; any case), ``:HOLD_MS`` how long it is held (a long press;
default: a tap), ``*N`` how many times in a row. A burst ``A+LEFT+B`` presses
and releases its buttons one after another within one tick of the
firmware (a hold time does not apply to it): ``[("A+LEFT+B", 0)]``.
``WAIT:MS`` presses nothing: the virtual clock runs ``MS`` ms with no key
from the end of the step before (``[("WAIT", 200000)]``; a screen-sleep
test leaves the console alone so). ``UNTIL:SCREEN[:MS]`` presses nothing
until the firmware shows the screen named SCREEN (``--status``'s
``screen``: ``table``, ``menu``, ``link``, ...), ``MS`` at most (default
60000; then the run stops with an error): ``[("UNTIL", ("table", 60000))]``.
In real time (two processes linked over TCP) it waits for the other
console however slowly it starts.
"""

import re

from pisti_core import GAMES, PLAYERS
from pisti_core.bots import LEVELS, REFERENCE

from tools.shims import BOARDS_DIR
from tools import settingstoml

PROFILES = ("pico", "featherwing")
MAX_REPEAT = 1000
MAX_HOLD_MS = 60000
#: The step that presses nothing (``WAIT:MS``), and its longest wait: a day.
WAIT = "WAIT"
MAX_WAIT_MS = 86400000

#: The step that waits for a screen (``UNTIL:SCREEN[:MS]``), and its default limit.
UNTIL = "UNTIL"
UNTIL_MS = 60000
_UNTIL = re.compile(r"^until:([a-z_]+)(?::(\d+))?$", re.IGNORECASE)

_STEP = re.compile(r"^([A-Za-z]+(?:\+[A-Za-z]+)*)(?::(\d+))?(?:\*(\d+))?$")


class UsageError(ValueError):
    """Bad command-line input: one clear sentence, exit status 2."""


def profile_buttons(profile):
    """Button names of ``profile`` in ``PISTI_BUTTONS`` order, e.g. ('UP', ..., 'B')."""
    if profile not in PROFILES:
        raise UsageError("unknown profile %r (use %s)" % (profile, " or ".join(PROFILES)))
    setting = settingstoml.load(BOARDS_DIR / ("%s.toml" % profile), strict=True)["PISTI_BUTTONS"]
    return tuple(item.split(":", 1)[0].strip() for item in setting.text.split(",") if item.strip())


def parse_keys(text, buttons, hold_ms=60):
    """``"A*3,RIGHT,B:900"`` -> ``[("A", 60), ("A", 60), ("A", 60), ("RIGHT", 60), ("B", 900)]``;
    ``"WAIT:200000"`` -> ``[("WAIT", 200000)]`` (no key for that long).

    Raises :class:`UsageError` naming the bad step and the known buttons.
    """
    steps = []
    if text is None or not text.strip():
        return steps
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise UsageError("empty step in --keys %r (two commas in a row?)" % text)
        until = _UNTIL.match(item)
        if until:
            limit = int(until.group(2)) if until.group(2) else UNTIL_MS
            if not 1 <= limit <= MAX_WAIT_MS:
                raise UsageError("time limit in %r must be 1..%d ms" % (item, MAX_WAIT_MS))
            steps.append((UNTIL, (until.group(1).lower(), limit)))
            continue
        if item.upper().startswith(UNTIL + ":"):
            raise UsageError("bad step %r in --keys: use UNTIL:SCREEN or UNTIL:SCREEN:MS (e.g. UNTIL:table:30000)"
                             % item)
        match = _STEP.match(item)
        if not match:
            raise UsageError("bad step %r in --keys: use NAME, NAME*N or NAME:HOLD_MS (e.g. A*3, B:900)" % item)
        name = match.group(1).upper()
        if name == WAIT:
            if not match.group(2):
                raise UsageError("%r in --keys: say how long, WAIT:MS (e.g. WAIT:60000, a minute with no key)" % item)
            wait = int(match.group(2))
            if not 1 <= wait <= MAX_WAIT_MS:
                raise UsageError("wait time in %r must be 1..%d ms" % (item, MAX_WAIT_MS))
            count = int(match.group(3)) if match.group(3) else 1
            if not 1 <= count <= MAX_REPEAT:
                raise UsageError("repeat count in %r must be 1..%d" % (item, MAX_REPEAT))
            steps.extend([(WAIT, wait)] * count)
            continue
        for part in name.split("+"):
            if part == WAIT:
                raise UsageError("burst %r in --keys: WAIT is a step of its own (A,WAIT:1000,B)" % item)
            if part not in buttons:
                raise UsageError("unknown key %r in --keys; this board's buttons: %s (and WAIT:MS, no key; "
                                 "UNTIL:SCREEN, no key until that screen shows)"
                                 % (part, " ".join(buttons)))
        hold = int(match.group(2)) if match.group(2) else hold_ms
        if "+" in name:
            if match.group(2):
                raise UsageError("burst %r in --keys: its keys are tapped within one tick, no hold time" % item)
            hold = 0
        count = int(match.group(3)) if match.group(3) else 1
        if not 1 <= count <= MAX_REPEAT:
            raise UsageError("repeat count in %r must be 1..%d" % (item, MAX_REPEAT))
        if "+" not in name and not 1 <= hold <= MAX_HOLD_MS:
            raise UsageError("hold time in %r must be 1..%d ms" % (item, MAX_HOLD_MS))
        steps.extend([(name, hold)] * count)
    return steps


def parse_start(text):
    """``"pisti:2:usta"`` -> ``("pisti", 2, "usta")``, checked against P-1 / Y-1.

    LEVEL is one bot level for every bot seat, or one per bot seat separated
    by commas (``"yedili:4:usta,kalfa,acemi"``); the reference bots
    ``random`` and ``greedy`` are accepted too.
    """
    parts = text.split(":")
    if len(parts) != 3:
        raise UsageError("--start %r: use GAME:PLAYERS:LEVEL, e.g. pisti:2:usta or yedili:4:kalfa" % text)
    game, players, level = (p.strip().lower() for p in parts)
    if game not in GAMES:
        raise UsageError("--start %r: game must be pisti or yedili" % text)
    ok = PLAYERS[GAMES.index(game)]  # (P-1, Y-1)
    if not players.isdigit() or int(players) not in ok:
        raise UsageError(
            "--start %r: %s is played by %s players"
            % (text, game, " or ".join(str(n) for n in ok))
        )
    levels = [lv.strip() for lv in level.split(",")]
    if len(levels) not in (1, int(players) - 1):
        raise UsageError("--start %r: give one level, or one per bot seat (%d)" % (text, int(players) - 1))
    for lv in levels:
        if lv not in LEVELS and lv not in REFERENCE:
            raise UsageError("--start %r: level must be one of %s" % (text, ", ".join(LEVELS + REFERENCE)))
    return game, int(players), ",".join(levels)


def parse_bot(text):
    """``"2=./mybot.py"`` -> ``(2, "./mybot.py")``."""
    seat, sep, command = text.partition("=")
    seat = seat.strip()
    if not sep or not seat.isdigit() or not command.strip():
        raise UsageError("--bot %r: use SEAT=PROGRAM, e.g. --bot 1=./mybot.py" % text)
    if int(seat) > 3:
        raise UsageError("--bot %r: seats are 0 (you: the bot plays for you) to 3" % text)
    return int(seat), command.strip()
