# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Outside bots: any program that speaks JSON Lines on stdin/stdout takes a seat
(tools/botlab/README.md describes the protocol).

For every decision the program receives one line, a JSON object with its
seat's observation (T-5: nothing more) and the legal actions in R-2 notation,
and answers with one line holding one action (``5H``, ``"5H"`` or
``{"action": "5H"}``; Pis Yedili also ``JH:S``, ``draw``, ``pass``,
``pick:N``). :class:`ExternalBot` behaves like an in-process bot
(``choose(obs) -> action``); a bad answer, a crash or a silence past the time
limit raises :class:`BotFailure` naming the seat and the offending line, and
the program is started afresh on the next decision.

:func:`player` turns a name into a bot: a level name gives a built-in bot,
anything that looks like a program (``./mybot.py``, ``bots/x``, ``"node b.js"``)
an ExternalBot.
"""

import json
import os
import selectors
import shlex
import shutil
import subprocess
import sys
import time

from pisti_core.bots import LEVELS, REFERENCE, make_bot
from pisti_core.cards import SUITS, card_str

PROTOCOL = 1
DEFAULT_TIMEOUT = 5.0
_MAX_LINE = 1 << 16


class BotFailure(Exception):
    """An outside bot broke the protocol: ``seat``, ``line`` (what it sent,
    or None) and ``reason``; the match it plays in is scored as lost."""

    def __init__(self, reason, seat=None, line=None, command=None):
        self.reason = reason
        self.seat = seat
        self.line = line
        self.command = command
        Exception.__init__(self, self.describe())

    def describe(self):
        """One sentence: who failed, how, and the offending line."""
        who = "the outside bot %s" % (self.command or "?")
        if self.seat is not None:
            who += " in seat %d" % self.seat
        text = "%s %s" % (who, self.reason)
        if self.line is not None:
            text += "; it sent: %r" % (self.line[:200],)
        return text


def _is_lab(name):
    from tools.botlab import is_lab
    return is_lab(name)


def is_program(name):
    """Whether a bot name names an outside program rather than a level."""
    return name not in LEVELS and name not in REFERENCE and not _is_lab(name) and (
        "/" in name or " " in name or name.endswith(".py") or os.path.exists(name))


def program_problem(command):
    """Why the outside-bot ``command`` cannot be started, as one phrase, or None
    when it can: a ``.py`` file or a program path that is no file, a program
    that may not be run, a command word not on PATH, or unbalanced quotes.
    sim.py --bot and arena.py --bots refuse such a bot before anything plays."""
    if command.endswith(".py") and os.path.isfile(command):
        return None  # run with this Python (ExternalBot._argv)
    try:
        words = shlex.split(command)
    except ValueError as e:
        return "cannot split %r into words (%s)" % (command, e)
    if not words:
        return "no program given"
    prog = words[0]
    if os.sep in prog or "/" in prog or prog.endswith(".py"):
        if not os.path.isfile(prog):
            return "no such file %s" % prog
        if not os.access(prog, os.X_OK):
            return "%s may not be run (no execute permission; name a .py file or chmod +x)" % prog
        return None
    if shutil.which(prog) is None:
        return "no such command %s (not on PATH)" % prog
    return None


def player(name, game, rng, timeout=DEFAULT_TIMEOUT, seat=None):
    """A bot for ``name``: a built-in level, or an :class:`ExternalBot`."""
    if is_program(name):
        return ExternalBot(name, game, timeout=timeout, seat=seat)
    if _is_lab(name):  # the desktop-only reference bots (tools/botlab)
        from tools.botlab import make
        return make(name, game, rng)
    return make_bot(game, name, rng)


def _action_str(game, a):
    if game == "pisti":
        return card_str(a)
    from pisti_core.yedili_text import action_str
    return action_str(a)


def _parse_action(game, text):
    # The core's own R-2 parsers; raises ValueError on anything else.
    if game == "pisti":
        from pisti_core.cards import parse_card
        return parse_card(text)
    from pisti_core.yedili_text import parse_action
    return parse_action(text)


def _cards(b):
    return [card_str(c) for c in b]


def _card(c):
    return card_str(c) if c is not None and c >= 0 else None


# Observation fields that hold card ids (the rest are counts and seats).
_CARD_LISTS = ("hand", "pile", "revealed", "played", "hidden_cards", "discard")
_CARD_ONE = ("bottom", "top")


def obs_json(obs):
    """The observation as a plain dict: card ids as R-2 codes, byte strings
    of counts as lists of ints, plus ``legal`` (sorted R-2 strings)."""
    game = obs.game
    out = {"type": "decide", "protocol": PROTOCOL, "game": game}
    for k in sorted(vars(obs)):
        if k.startswith("_"):
            continue
        v = getattr(obs, k)
        if k in _CARD_LISTS:
            v = _cards(v)
        elif k in _CARD_ONE:
            v = _card(v)
        elif k == "muamele":
            v = [_cards(m) for m in v]
        elif k == "named":
            v = SUITS[v] if v >= 0 else None
        elif k == "phase":
            from pisti_core.yedili_text import PHASES
            v = PHASES[v]
        elif isinstance(v, (bytes, bytearray, tuple)):
            v = list(v)
        out[k] = v
    out["legal"] = sorted([_action_str(game, a) for a in obs.legal()])
    return out


def parse_answer(obs, line):
    """The action an answer line names, checked against ``obs.legal()``;
    raises BotFailure (seat, line) when it is malformed or illegal."""
    text = line.strip()
    try:
        if text[:1] in ('"', "{"):
            v = json.loads(text)
            if isinstance(v, dict):
                v = v.get("action")
            if not isinstance(v, str):
                raise ValueError("no action")
            text = v.strip()
        a = _parse_action(obs.game, text)
    except ValueError:
        raise BotFailure("answered with something that is not an action in R-2 notation",
                         obs.seat, line) from None
    if a not in obs.legal():
        raise BotFailure("answered with an illegal action %s" % _action_str(obs.game, a),
                         obs.seat, line)
    return a


class ExternalBot:
    """A seat played by an outside program: ``choose(obs) -> action``.

    ``command`` is a path (``.py`` files run under this Python) or a command
    line; the program is started on the first decision and kept running.
    ``timeout`` (seconds) bounds every answer. ``stderr``: a file the
    program's error output is appended to (each start under a header line),
    instead of this process's stderr.
    """

    def __init__(self, command, game=None, timeout=DEFAULT_TIMEOUT, seat=None, stderr=None):
        self.command = command
        self.game = game
        self.timeout = timeout
        self.seat = seat
        self.stderr = stderr
        self.proc = None
        self._buf = b""
        self._sel = None

    def _argv(self):
        if self.command.endswith(".py") and os.path.exists(self.command):
            return [sys.executable, self.command]
        return shlex.split(self.command)

    def _start(self):
        log = None
        try:
            if self.stderr is not None:
                log = open(self.stderr, "ab")
                log.write(("--- seat %s: %s (started %s)\n" % (
                    "?" if self.seat is None else self.seat, self.command,
                    time.strftime("%H:%M:%S"))).encode())
                log.flush()
            self.proc = subprocess.Popen(self._argv(), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=log, bufsize=0)
        except OSError as e:
            raise BotFailure("could not be started (%s)" % e, self.seat, None, self.command) from None
        finally:
            if log is not None:
                log.close()  # the program has its own copy
        self._buf = b""
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)

    def close(self):
        """Stop the program (it is started again on the next decision)."""
        p = self.proc
        self.proc = None
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        if p is None:
            return
        for f in (p.stdin, p.stdout):
            try:
                f.close()
            except OSError:
                pass
        try:
            p.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    def _fail(self, reason, line=None, seat=None):
        self.close()
        return BotFailure(reason, self.seat if seat is None else seat, line, self.command)

    def _readline(self, seat):
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not self._sel.select(left):
                raise self._fail("gave no answer within %.3g s" % self.timeout,
                                 self._buf.decode("utf-8", "replace") or None, seat)
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            if not chunk:
                code = self.proc.poll()
                if code is None:
                    try:
                        code = self.proc.wait(timeout=0.5)
                    except subprocess.TimeoutExpired:
                        code = "?"
                raise self._fail("stopped (exit code %s) instead of answering" % (code,),
                                 self._buf.decode("utf-8", "replace") or None, seat)
            self._buf += chunk
            if len(self._buf) > _MAX_LINE:
                raise self._fail("sent a line longer than %d bytes" % _MAX_LINE,
                                 self._buf[:200].decode("utf-8", "replace"), seat)
        line, self._buf = self._buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def choose(self, obs):
        """The program's action for ``obs``; raises BotFailure on any fault."""
        seat = obs.seat
        if self.proc is None:
            self._start()
        msg = (json.dumps(obs_json(obs), separators=(",", ":")) + "\n").encode()
        try:
            self.proc.stdin.write(msg)
            self.proc.stdin.flush()
        except OSError:
            raise self._fail("stopped (it no longer reads its input)", None, seat) from None
        line = self._readline(seat)
        try:
            return parse_answer(obs, line)
        except BotFailure as e:
            e.command = self.command
            self.close()
            raise BotFailure(e.reason, seat, line, self.command) from None
