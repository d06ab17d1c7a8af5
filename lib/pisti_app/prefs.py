# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.prefs`
=================

The console's settings as a small blob for the nvm (see
:mod:`pisti_app.match.saves`); imported only while they are read or written.

Settings blob (version 1)::

    0x53 1  lang(0 en, 1 tr)  sound  speed  timer(2)  undo
    game(0 pisti, 1 yedili)  players  target  seat level x3  rated
    [sleep(index in board.SLEEPS)  bright(index in board.BRIGHT: low, medium, high)
    [link(bit 0: a linked Pişti 4p seats two people as partners, 1, or opponents, 0;
          bits 1-2: the consoles a Host offers a table to, less 2: 0 two, 1 three, 2 four;
          bits 3-4: three consoles at four seats: the bot's seat, less 1)]]

A 15- or 17-byte blob (an older save, without the bracketed bytes) reads
with their defaults. A blob that does not read is ignored (the defaults stay).
"""

from pisti_core import GAMES, PLAYERS, TARGETS

from pisti_app.util import const

_MAGIC = const(0x53)
_VERSION = const(1)
_LEN = const(18)
_OLD_LEN = const(15)  # before screen sleep and brightness
_MID_LEN = const(17)  # without the link's seats
SEAT_LEVELS = ("acemi", "kalfa", "usta")


def defaults(lang="en"):
    """The settings of a new console: new games in practice (T-1) until the
    person chooses Rated (then remembered), so pressing A through the new
    game menu never starts a timed, ranked game by surprise."""
    from pisti_core.table import TIMER_DEFAULT
    return {"lang": lang, "sound": True, "speed": 1, "timer": TIMER_DEFAULT, "undo": False,
            "game": GAMES[0], "players": PLAYERS[0][0], "target": TARGETS[0][-1],  # Pişti for two, its default target
            "seats": ["kalfa", "kalfa", "kalfa"], "rated": False, "sleep": 1, "bright": 2, "partners": True,
            "consoles": 2, "bot_seat": 3}


def pack(p):
    """The settings blob of the prefs dict ``p``."""
    t = p["timer"]
    out = bytearray((_MAGIC, _VERSION, 1 if p["lang"] == "tr" else 0, 1 if p["sound"] else 0,
                     p["speed"], t >> 8, t & 255, 1 if p["undo"] else 0,
                     GAMES.index(p["game"]), p["players"], p["target"]))
    for lv in p["seats"]:
        out.append(SEAT_LEVELS.index(lv))
    out.append(1 if p["rated"] else 0)
    out.append(p["sleep"])
    out.append(p["bright"])
    out.append((1 if p["partners"] else 0) | (p["consoles"] - 2) << 1 | (p["bot_seat"] - 1) << 3)
    return bytes(out)


def unpack(data, p):
    """Fill the prefs dict ``p`` from a settings blob; False (``p``
    untouched) when the blob is not one this build reads."""
    from pisti_core.table import TIMER_MAX, TIMER_MIN
    if data is None or len(data) not in (_LEN, _MID_LEN, _OLD_LEN) or data[0] != _MAGIC or data[1] != _VERSION:
        return False
    n = len(data)
    sleep, bright = (data[15], data[16]) if n > _OLD_LEN else (1, 2)
    link = data[17] if n == _LEN else 1
    timer = data[5] << 8 | data[6]
    g = data[8]
    ok = (data[2] < 2 and data[3] < 2 and data[4] < 4 and TIMER_MIN <= timer <= TIMER_MAX
          and data[7] < 2 and g < len(GAMES) and data[14] < 2
          and data[9] in PLAYERS[g] and data[10] in TARGETS[0]  # (the target row: Pişti's, P-2)
          and data[11] < 3 and data[12] < 3 and data[13] < 3 and sleep < 5 and bright < 3
          and (link & 6) < 6 and link < 24)
    if not ok:
        return False
    p["lang"] = "tr" if data[2] else "en"
    p["sound"] = bool(data[3])
    p["speed"] = data[4]
    p["timer"] = timer
    p["undo"] = bool(data[7])
    p["game"] = GAMES[g]
    p["players"] = data[9]
    p["target"] = data[10]
    p["seats"] = [SEAT_LEVELS[data[11]], SEAT_LEVELS[data[12]], SEAT_LEVELS[data[13]]]
    p["rated"] = bool(data[14])
    p["sleep"] = sleep
    p["bright"] = bright
    p["partners"] = bool(link & 1)
    p["consoles"] = (link >> 1 & 3) + 2
    p["bot_seat"] = (link >> 3) + 1
    return True
