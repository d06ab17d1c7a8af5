# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.pisti_obs`
======================

One seat's view of a Pişti hand (T-5), apart from the engine so that each
module compiles in a small heap.
"""

from pisti_core.cards import PTS


class PistiObs:
    """One seat's view of a Pişti hand (T-5): nothing the seat cannot see."""

    game = "pisti"

    def __init__(self, st, seat, totals=(0, 0), target=0):
        self.seat = seat
        self.side = seat & 1
        self.players = st.players
        self.dealer = st.dealer
        self.turn = st.turn
        self.ply = st.ply
        self.hand = st.hand(seat)
        self.hand_counts = bytes(st.hn[0:st.players])
        self.stock = st.stock
        self.bottom = st.deck[51]  # P-5: shown to every player from the first deal
        self.hidden = st.hidden  # face-down cards still in the pile
        self.pile_size = st.tn - st.tbase
        # The face-up part of the pile, bottom to top.
        self.pile = bytes(st.table[st.tbase + st.hidden:st.tn])
        # Centre cards turned face up by the deal (P-5), then every card played.
        self.revealed = bytes(st.table[st.hidden0:4])
        self.played = bytes(st.actions)
        self.hidden_side = st.hidden_side
        # P-8: the face-down centre cards only for the side that took them.
        self.hidden_cards = bytes(st.table[0:st.hidden0]) if st.hidden_side == self.side else b""
        self.cards = tuple(st.cards)
        pts = list(st.pts)
        hs = st.hidden_side
        if hs >= 0 and hs != self.side:  # T-5: the other side's face-down cards stay unknown
            for c in st.table[0:st.hidden0]:
                pts[hs] -= PTS[c]
        self.pts = tuple(pts)  # points so far as far as this seat can tell
        self.pistis = tuple(st.pistis)
        self.jpistis = tuple(st.jpistis)
        self.last_cap = st.last_cap
        self.totals = tuple(totals)
        self.target = target

    def key(self):
        """Everything in the observation, as one comparable list."""
        return sorted(self.__dict__.items())

    def __eq__(self, other):
        return isinstance(other, PistiObs) and self.key() == other.key()

    def __ne__(self, other):
        return not self == other

    def legal(self):
        """The seat's legal actions when it is to move."""
        return sorted(self.hand) if self.turn == self.seat else []
