# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.yedili_text`
========================

Pis Yedili in words: R-2 action notation and one-line position
descriptions for error messages. Only edges (replays, the screen, errors)
load it; self-play never does.
"""

from pisti_core.cards import RANK, SUITS, IllegalActionError, card_str, cards_str, parse_card

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The engine's action codes (pisti_core.yedili), repeated so that this module
# compiles without the engine's source in the same heap; a test keeps them equal.
JACK_BASE = const(64)
DRAW = const(80)
PASS = const(81)
PICK = const(128)

_JACK = 10


PHASES = ("opening", "normal", "drawn", "again", "muamele", "over")


def describe(st):
    """A one-line description of a Pis Yedili position for error messages."""
    if st.over:
        return "yedili %dp hand after ply %d (over)" % (st.players, st.ply)
    t = st.top
    return "yedili %dp hand, ply %d, seat %d to move (%s), top %s%s%s, hand [%s]" % (
        st.players, st.ply, st.turn, PHASES[st.phase],
        card_str(t) if t >= 0 else "none",
        " named %s" % SUITS[st.named] if st.named >= 0 else "",
        " pending %d" % st.pending if st.pending else "",
        cards_str(st.hand(st.turn)))


def _where(st):
    return st.describe() if st is not None else "Pis Yedili"


def action_str(a):
    """R-2 notation of an action (Muamele picks as ``pick:N``)."""
    if not isinstance(a, int) or isinstance(a, bool):
        return repr(a)
    if 0 <= a < 52:
        return card_str(a)
    if JACK_BASE <= a < JACK_BASE + 16:
        return "J%s:%s" % (SUITS[(a - JACK_BASE) >> 2], SUITS[(a - JACK_BASE) & 3])
    if a == DRAW:
        return "draw"
    if a == PASS:
        return "pass"
    if PICK <= a < 256:
        return "pick:%d" % (a - PICK)
    return repr(a)

def parse_action(text, st=None):
    """The action for an R-2 string; IllegalActionError if it is none."""
    if text == "draw":
        return DRAW
    if text == "pass":
        return PASS
    if isinstance(text, str) and text.startswith("pick:") and text[5:].isdigit():
        p = int(text[5:])
        if p < 128:
            return PICK + p
    try:
        if isinstance(text, str) and len(text) == 4 and text[2] == ":":
            c = parse_card(text[0:2])
            s = SUITS.find(text[3])
            if RANK[c] == _JACK and s >= 0:
                return JACK_BASE + (c & 3) * 4 + s
        else:
            c = parse_card(text)
            if RANK[c] != _JACK:
                return c
            raise IllegalActionError("a Jack names a suit: %r should be like '%s:S' in %s"
                                     % (text, text, _where(st)))
    except ValueError as e:
        if isinstance(e, IllegalActionError):
            raise
    raise IllegalActionError("not a Pis Yedili action: %r in %s" % (text, _where(st)))
