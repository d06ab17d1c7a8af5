# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.yedili_obs`
=======================

One seat's view of a Pis Yedili hand (T-5). Kept apart from the engine so
each module compiles in a small heap.
"""

from pisti_core.cards import decks


def _ids(buf, n, ordered=False):
    # Card identities of buf[0:n] in a new bytearray, sorted when asked
    # (insertion sort in place: no temporary lists on a small heap).
    out = bytearray(n)
    for i in range(n):
        c = buf[i] % 52
        j = i
        if ordered:
            while j and out[j - 1] > c:
                out[j] = out[j - 1]
                j -= 1
        out[j] = c
    return out


class YediliObs:
    """One seat's view of a Pis Yedili hand (T-5), card identities only."""

    game = "yedili"

    def __init__(self, st, seat, totals=None, target=0):
        self.seat = seat
        self.players = st.players
        self.decks = decks(self.game, st.players)
        self.dealer = st.dealer
        self.turn = st.turn
        self.phase = st.phase
        self.ply = st.ply
        self.hand = _ids(st.hands[seat], st.hn[seat], True)
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
        self.muamele = tuple([_ids(m, len(m)) for m in st.muamele])
        self.totals = tuple(totals) if totals else tuple([0] * st.players)
        self.target = target
        if st.turn != seat:
            self._legal = []
        elif st.phase == 4:  # Y-15 Muamele: every stock position (no long list)
            self._legal = range(128, 128 + st.stock)
        else:
            self._legal = st.legal()

    def key(self):
        """Everything in the observation, as one comparable list."""
        return sorted(self.__dict__.items())

    def __eq__(self, other):
        return isinstance(other, YediliObs) and self.key() == other.key()

    def __ne__(self, other):
        return not self == other

    def legal(self):
        """The seat's legal actions when it is to move, sorted: the
        observation's own sequence (a small heap has no room for copies), so
        read it, don't change it."""
        return self._legal
