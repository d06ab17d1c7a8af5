# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.yedili_obs`
=======================

Pis Yedili at the edges: R-2 action notation and the per-seat observation
(T-5). Kept apart from the engine so each module compiles in a small heap.
"""

from pisti_core.cards import RANK, SUITS, IllegalActionError, card_str, parse_card
from pisti_core.yedili import DRAW, JACK_BASE, PASS, PICK, decks_for

_JACK = 10


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


def _ids(buf, n):
    return bytes([buf[i] % 52 for i in range(n)])


class YediliObs:
    """One seat's view of a Pis Yedili hand (T-5), card identities only."""

    game = "yedili"

    def __init__(self, st, seat, totals=None, target=0):
        self.seat = seat
        self.players = st.players
        self.decks = decks_for(st.players)
        self.dealer = st.dealer
        self.turn = st.turn
        self.phase = st.phase
        self.ply = st.ply
        self.hand = bytes(sorted(_ids(st.hands[seat], st.hn[seat])))
        self.hand_counts = bytes(st.hn)
        self.stock = st.stock
        self.discard = _ids(st.discard, st.dn)
        self.top = st.top
        self.named = st.named
        self.pending = st.pending
        self.chain = st.chain
        self.opening = st.opening
        self.winner = st.winner
        self.picks = st.picks if st.turn == seat else 0
        self.muamele = tuple([bytes([c % 52 for c in m]) for m in st.muamele])
        self.totals = tuple(totals) if totals else tuple([0] * st.players)
        self.target = target
        self._legal = st.legal() if st.turn == seat else []

    def key(self):
        """Everything in the observation, as one comparable tuple."""
        return (self.seat, self.players, self.dealer, self.turn, self.phase, self.ply,
                self.hand, self.hand_counts, self.stock, self.discard, self.top, self.named,
                self.pending, self.chain, self.opening, self.winner, self.picks,
                self.muamele, self.totals, self.target, tuple(self._legal))

    def __eq__(self, other):
        return isinstance(other, YediliObs) and self.key() == other.key()

    def __ne__(self, other):
        return not self == other

    def legal(self):
        """The seat's legal actions when it is to move."""
        return list(self._legal)
