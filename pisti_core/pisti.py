# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.pisti`
==================

One hand of Pişti for 2 players, or 4 in partnerships (RULES.md P-1 to P-12).

The state is a handful of bytearrays and small ints. The hand is fully
described by its deck order and its action list (T-6): ``undo()`` replays the
record, ``copy()`` is written by hand. An action is the id of the card the
player to move plays (R-2). ``apply()`` checks and raises
:class:`IllegalActionError`; ``play()`` is the unchecked fast door.
"""

from pisti_core import GAMES, PLAYERS
from pisti_core.cards import (PTS, RANK, IllegalActionError, InvalidDeckError, as_deck, card_str,
                              cards_str, parse_card)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
_JACK = const(10)
_TD = const(37)  # ten of diamonds
_C2 = const(4)  # two of clubs
_LAST_PLY = const(47)  # 52 cards - 4 in the centre = 48 plays a hand



def centre(deck):
    """P-5: the centre pile (bottom to top) and how many of it are face down,
    or None when all four centre cards are Jacks (the hand is redealt)."""
    down = [deck[0], deck[1], deck[2]]
    up = [deck[3]]
    while RANK[up[-1]] == _JACK:
        if not down:
            return None
        up.append(down.pop())
    return bytes(down + up), len(down)


def check_deck(deck):
    """A 52-byte copy of ``deck`` if it is a full deck that P-5 deals."""
    deck = as_deck(deck, 52)
    if deck is None:
        raise InvalidDeckError("a Pişti deck must hold each of the 52 cards once")
    if RANK[deck[3]] == _JACK and centre(deck) is None:
        raise InvalidDeckError("all four centre cards are Jacks: P-5 redeals this deck")
    return deck


class PistiHand:
    """One hand of Pişti: ``PistiHand(players, dealer, deck)``, deck top first."""

    game = "pisti"

    def __init__(self, players, dealer, deck):
        ok = PLAYERS[GAMES.index(self.game)]
        if players not in ok:
            raise ValueError("Pişti is for %r players (P-1), not %r" % (ok, players))
        if not 0 <= dealer < players:
            raise ValueError("dealer %r is not a seat of %d players" % (dealer, players))
        self.players = players
        self.sides = 2
        self.dealer = dealer
        self.deck = check_deck(deck)
        self.actions = bytearray()
        self._reset()

    def _reset(self):
        n = self.players
        d = self.deck
        if RANK[d[3]] != _JACK:  # P-5: the usual centre, three down and one up
            pile = d[0:4]
            down = 3
        else:
            c = centre(d)
            if _CHECKING:
                assert c  # check_deck refused the decks without a centre (four Jacks, P-5)
            pile, down = c
        self.table = t = bytearray(52)  # every card put on the pile or capturing, in order
        t[0:4] = pile
        self.tbase = 0  # the pile is table[tbase:tn]
        self.tn = 4
        self.hidden = down  # face-down cards still at the pile's bottom (P-8)
        self.hidden0 = down
        self.hidden_side = -1  # the side that took them
        self.pile_pts = PTS[pile[0]] + PTS[pile[1]] + PTS[pile[2]] + PTS[pile[3]]
        # table[i] closes a run captured by side capt[i] - 1 (0: no capture there)
        self.capt = bytearray(52)
        # Lists for the hands, which play() indexes most: faster on CPython
        # (the arena's many matches); the pile stays a bytearray (the 40K heap cap).
        self.hands = [0] * 16  # four slots a seat
        self.hn = [0, 0, 0, 0]
        self.pos = 4  # next deck card to deal
        self.end = 0  # the ply at which every hand is empty (the next deal, P-10)
        self.cards = [0, 0]
        self.pts = [0, 0]  # card and pişti points so far (no majority, no leftovers)
        self.pistis = [0, 0]
        self.jpistis = [0, 0]
        self.last_cap = -1
        self.ply = 0
        self.over = False
        self._deal()
        self.turn = (self.dealer + 1) % n  # P-6

    def _deal(self):
        # P-5 / P-10: four cards each in blocks, from the seat after the dealer.
        n = self.players
        d = self.deck
        p = self.pos
        h = self.hands
        hn = self.hn
        s = self.dealer
        for _ in range(n):
            s = (s + 1) & (n - 1)  # 2 or 4 players
            b = s << 2
            h[b] = d[p]
            h[b + 1] = d[p + 1]
            h[b + 2] = d[p + 2]
            h[b + 3] = d[p + 3]
            hn[s] = 4
            p += 4
        self.pos = p
        self.end = self.ply + 4 * n

    # -- the fast, unchecked door ------------------------------------------
    def play(self, c):
        """Play card ``c`` for the seat to move, unchecked (it must be legal)."""
        # The hot path of every search and arena: locals over attributes.
        s = self.turn
        h = self.hands
        hn = self.hn
        n = hn[s] - 1
        hn[s] = n
        e = (s << 2) + n
        x = h[e]  # the hand's last card: the cards after c move down one
        while x != c:  # (the hand keeps its order), found from the end
            e -= 1
            y = h[e]
            h[e] = x
            x = y
        self.actions.append(c)
        tn = self.tn
        table = self.table
        table[tn] = c  # on the pile; a capturing card closes the run it takes
        r = c >> 2  # rank (one deck: ids are identities)
        n = tn - self.tbase
        if n and (r == _JACK or r == table[tn - 1] >> 2):  # P-7 capture
            side = s & 1  # P-1: seats 0+2 side 0, 1+3 side 1; 2 players side = seat
            pts = self.pts
            if n == 1 and r == table[tn - 1] >> 2 and self.ply != _LAST_PLY:
                if r == _JACK:  # P-9 Jack pişti
                    self.jpistis[side] += 1
                    pts[side] += 20
                else:  # P-9 pişti
                    self.pistis[side] += 1
                    pts[side] += 10
            self.capt[tn] = side + 1
            self.tn = self.tbase = tn + 1
            self.cards[side] += n + 1
            pts[side] += self.pile_pts + PTS[c]
            self.pile_pts = 0
            self.last_cap = side
            if self.hidden:  # P-8: the face-down cards go to the first capturer
                self.hidden = 0
                self.hidden_side = side
        else:
            self.tn = tn + 1
            self.pile_pts += PTS[c]
        self.ply = ply = self.ply + 1
        if ply != self.end:  # players is 2 or 4: the next seat is a mask away
            self.turn = (s + 1) & (self.players - 1)
        elif self.pos < 52:
            self._deal()  # P-10
            self.turn = (s + 1) & (self.players - 1)
        else:
            self.over = True  # P-11: leftovers are settled in result()
            self.turn = -1

    # -- the checked door and the State API --------------------------------
    def legal(self):
        """The legal actions, sorted: the cards in the hand of the seat to move."""
        if self.over:
            return []
        b = self.turn * 4
        return sorted(self.hands[b:b + self.hn[self.turn]])

    def is_legal(self, c):
        """Whether card ``c`` may be played now."""
        if self.over or not isinstance(c, int):
            return False
        h = self.hands
        b = self.turn * 4
        for i in range(b, b + self.hn[self.turn]):
            if h[i] == c:
                return True
        return False

    def apply(self, c):
        """Play card ``c``; raises IllegalActionError (state unchanged) if illegal."""
        if not self.is_legal(c):
            raise IllegalActionError("illegal action %s for seat %s in %s"
                                     % (self.action_str(c) if isinstance(c, int) and 0 <= c < 52
                                        else repr(c), self.turn, self.describe()))
        self.play(c)

    def undo(self):
        """Take back the last action (by replaying the record); returns it."""
        if not self.actions:
            raise IllegalActionError("nothing to undo in " + self.describe())
        acts = self.actions
        last = acts[-1]
        self.actions = bytearray()
        self._reset()
        for i in range(len(acts) - 1):
            self.play(acts[i])
        return last

    def copy(self):
        """An independent copy (replays the record)."""
        other = PistiHand(self.players, self.dealer, self.deck)
        for a in self.actions:
            other.play(a)
        return other

    @property
    def terminal(self):
        """True when the hand is over."""
        return self.over

    def hand(self, seat):
        """The cards of ``seat``, in hand order."""
        b = seat * 4
        return bytes(self.hands[b:b + self.hn[seat]])

    @property
    def pile(self):
        """The pile, bottom to top (face-down cards included)."""
        return bytes(self.table[self.tbase:self.tn])

    @property
    def stock(self):
        """Cards left in the stock."""
        return 52 - self.pos

    def action_str(self, c):
        """R-2 notation of an action."""
        return card_str(c)

    def parse_action(self, text):
        """The action for an R-2 string; IllegalActionError if it is no card."""
        try:
            return parse_card(text)
        except ValueError:
            raise IllegalActionError("not a Pişti action: %r (a card like '5H') in %s"
                                     % (text, self.describe()))

    def describe(self):
        """A one-line description of the position for error messages."""
        if self.over:
            return "pisti %dp hand after ply %d (over)" % (self.players, self.ply)
        return "pisti %dp hand, ply %d, seat %d to move, pile [%s], hand [%s]" % (
            self.players, self.ply, self.turn, cards_str(self.pile), cards_str(self.hand(self.turn)))

    # -- results -------------------------------------------------------------
    def result(self):
        """The P-12 breakdown per side (leftovers to the last capturer, P-11)."""
        own = bytearray(52)  # side + 1 for every captured card
        table = self.table
        start = 0
        for i in range(self.tn):
            o = self.capt[i]
            if o:
                for j in range(start, i + 1):
                    own[table[j]] = o
                start = i + 1
        cards = list(self.cards)
        if self.over and self.last_cap >= 0:
            for i in range(self.tbase, self.tn):
                own[table[i]] = self.last_cap + 1
            cards[self.last_cap] += self.tn - self.tbase
        rows = []
        for side in range(2):
            o = side + 1
            aces = jacks = 0
            for c in range(4):
                if own[c] == o:  # aces are ids 0..3
                    aces += 1
                if own[40 + c] == o:  # jacks are ids 40..43
                    jacks += 1
            rows.append({"cards": cards[side], "aces": aces, "jacks": jacks,
                         "two_clubs": 2 if own[_C2] == o else 0,
                         "ten_diamonds": 3 if own[_TD] == o else 0,
                         "pisti": self.pistis[side], "jack_pisti": self.jpistis[side]})
        for side in range(2):
            r = rows[side]
            r["majority"] = 3 if cards[side] > cards[1 - side] else 0  # P-12, nobody on a tie
            r["total"] = (r["aces"] + r["jacks"] + r["two_clubs"] + r["ten_diamonds"]
                          + r["majority"] + 10 * r["pisti"] + 20 * r["jack_pisti"])
        return rows

    def points(self):
        """Hand points per side (P-12) so far; final once the hand is over."""
        p = list(self.pts)
        c = list(self.cards)
        lc = self.last_cap
        if self.over and lc >= 0:  # P-11 leftovers
            p[lc] += self.pile_pts
            c[lc] += self.tn - self.tbase
        if c[0] != c[1]:  # P-12 majority, nobody on a tie
            p[0 if c[0] > c[1] else 1] += 3
        return p

    def returns(self):
        """Per seat: its side's points minus the other side's (zero-sum)."""
        p = self.points()
        return [p[s & 1] - p[1 - (s & 1)] for s in range(self.players)]

    def observe(self, seat, totals=(0, 0), target=0):
        """What ``seat`` may know (T-5), as a :class:`PistiObs`."""
        from pisti_core.pisti_obs import PistiObs
        return PistiObs(self, seat, totals, target)
