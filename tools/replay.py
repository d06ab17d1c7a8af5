# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Replay hands from known deck orders (RULES.md R-1 to R-4).

Reads JSON Lines from the file named, or from standard input when no file
(or ``-``) is named, one hand per line::

    {"game": "pisti", "players": 2, "dealer": 0, "deck": ["5H", ...], "moves": ["5H", ...]}

and writes one JSON line per input line, in order: the hand's result when the
moves finish it, what is legal next when they stop earlier, or
``{"error": "...", "index": K|null}``. Runs unchanged under CPython and under
the ``micropython`` command::

    python tools/replay.py hands.jsonl
    python tools/replay.py < hands.jsonl
    micropython tools/replay.py < hands.jsonl

A file that cannot be read, an unknown option or more than one file is one
line on standard error and exit status 2; ``--help`` prints the usage.
"""

import json
import sys

try:
    _HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
except NameError:  # pragma: no cover - frozen
    _HERE = "."
_ROOT = _HERE + "/.." if _HERE != "." else ".."
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from pisti_core import GAMES, PLAYERS
from pisti_core.cards import IllegalActionError, InvalidDeckError, decks
from pisti_core.record import parse_deck
from pisti_core.match import new_hand
from pisti_core.yedili import MUAMELE, PICK


def _str(s):
    # JSON string with every non-ASCII character escaped: same bytes everywhere.
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif o < 32 or o > 126:
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _val(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join([_val(x) for x in v]) + "]"
    return str(v)


def dumps(pairs):
    """One JSON object from (key, value) pairs, keys in the order given."""
    return "{" + ", ".join([_str(k) + ": " + _val(v) for k, v in pairs]) + "}"


def _error(msg, index=None):
    return dumps((("error", msg), ("index", index)))


def _field(obj, key, kinds, what):
    if key not in obj:
        raise ValueError("the line has no %r field" % key)
    v = obj[key]
    if not isinstance(v, kinds) or isinstance(v, bool):
        raise ValueError("the %r field must be %s" % (key, what))
    return v


def replay_line(line):
    """The output line (without newline) for one input line."""
    try:
        obj = json.loads(line)
    except ValueError:
        return _error("the line is not valid JSON")
    try:
        if not isinstance(obj, dict):
            raise ValueError("the line must be a JSON object")
        game = _field(obj, "game", str, "\"pisti\" or \"yedili\"")
        players = _field(obj, "players", int, "a whole number")
        dealer = _field(obj, "dealer", int, "a whole number")
        codes = _field(obj, "deck", list, "a list of card codes")
        moves = _field(obj, "moves", list, "a list of actions")
        if game not in GAMES:
            raise ValueError("unknown game %s: use \"pisti\" or \"yedili\"" % _str(game))
        ok = PLAYERS[GAMES.index(game)]
        if players not in ok:
            raise ValueError("%s is for %s players, not %d (P-1, Y-1)"
                             % (game, " or ".join([str(n) for n in ok]), players))
        if not 0 <= dealer < players:
            raise ValueError("dealer %d is not a seat of %d players" % (dealer, players))
        st = new_hand(game, players, dealer, parse_deck(codes, decks(game, players)))
    except (ValueError, InvalidDeckError) as e:
        return _error(str(e))
    for k in range(len(moves)):
        mv = moves[k]
        if st.over:
            return _error("move %d comes after the end of the hand" % k, k)
        if game == "yedili" and st.phase == MUAMELE:
            return _error("move %d comes after the end of play; Muamele picks are "
                          "taken from the top of the stock" % k, k)
        if not isinstance(mv, str):
            return _error("move %d is not an action string" % k, k)
        try:
            st.apply(st.parse_action(mv))
        except IllegalActionError as e:
            return _error("move %d: %s" % (k, e), k)
    if game == "yedili":
        while st.phase == MUAMELE:  # Muamele picks take stock cards from the top
            st.play(PICK)
    if not st.over:
        legal = [st.action_str(a) for a in st.legal()]
        legal.sort()
        return dumps((("complete", False), ("to_move", st.turn), ("legal", legal)))
    if game == "pisti":
        rows = st.result()
        return dumps((("complete", True),
                      ("points", [r["total"] for r in rows]),
                      ("cards", [r["cards"] for r in rows]),
                      ("pisti", [r["pisti"] for r in rows]),
                      ("jack_pisti", [r["jack_pisti"] for r in rows]),
                      ("last_capture", st.last_cap if st.last_cap >= 0 else None)))
    return dumps((("complete", True),
                  ("winner", st.winner if st.winner >= 0 else None),
                  ("multiplier", st.mult),
                  ("penalties", st.penalties())))


_USAGE = """usage: replay.py [FILE]

Replays hands from known deck orders (RULES.md R-1 to R-4): reads JSON Lines
from FILE, or from standard input when no FILE (or -) is given, one hand per
line, and writes one JSON line per line read:

  {"game": "pisti"|"yedili", "players": N, "dealer": D, "deck": [...], "moves": [...]}

A line that is not a hand gives {"error": "...", "index": K|null}.
Exit status: 0 once all input is read, 2 for bad usage or a FILE that cannot be read.
"""

_WHY = {2: "no such file", 13: "permission denied", 21: "it is a folder"}


def _usage_error(msg):
    sys.stderr.write("replay.py: %s\n" % msg)
    sys.exit(2)


def _unreadable(path, e):
    errno = e.args[0] if e.args and isinstance(e.args[0], int) else None
    _usage_error("cannot read %s: %s" % (path, _WHY.get(errno, str(e))))


def _lines(f, path):
    """Each line of the binary stream ``f`` as text without its line end, or
    None for a line that is not UTF-8."""
    while True:
        try:
            raw = f.readline()
        except OSError as e:
            if path is None:
                raise
            _unreadable(path, e)
        if not raw:
            return
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            yield raw.decode("utf-8")
        except UnicodeError:
            yield None


def main(argv):
    paths = []
    for a in argv:
        if a in ("-h", "--help"):
            sys.stdout.write(_USAGE)
            return
        if a.startswith("-") and a != "-":
            _usage_error("unknown option %s (see --help)" % a)
        paths.append(a)
    if len(paths) > 1:
        _usage_error("one FILE at most, not %d (see --help)" % len(paths))
    path = paths[0] if paths and paths[0] != "-" else None
    if path is None:
        f = sys.stdin.buffer
    else:
        try:
            f = open(path, "rb")
        except OSError as e:
            _unreadable(path, e)
    for line in _lines(f, path):
        if line is None:
            out = _error("the line is not UTF-8 text")
        else:
            out = replay_line(line)
        sys.stdout.write(out + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
