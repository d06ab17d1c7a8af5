# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.yedili`
===================

One hand of Pis Yedili for 2 to 4 players (RULES.md Y-1 to Y-15).

Actions are ints below 256 (one byte in a record): a card identity ``0..51``
for a plain play, ``JACK_BASE + jack_suit * 4 + named_suit`` for a Jack,
``DRAW``, ``PASS``, and ``PICK + position`` for a Muamele pick (Y-15). The
hand is its deck order plus its actions (T-6): ``undo()`` replays the record.
"""

from pisti_core import GAMES, PLAYERS
from pisti_core.cards import RANK, SUIT, IllegalActionError, InvalidDeckError, as_deck, decks

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


JACK_BASE = const(64)
DRAW = const(80)
PASS = const(81)
PICK = const(128)

_ACE = const(0)
_SEVEN = const(6)
_TEN = const(9)
_JACK = const(10)

# Phases of the seat to move.
OPENING = const(0)  # Y-3: a plain club, or draw until holding one
NORMAL = const(1)  # Y-5 (Y-6 when a draw is pending)
DRAWN = const(2)  # Y-5 after drawing: play a matching card or pass
AGAIN = const(3)  # Y-9 / Y-10: play again at once
MUAMELE = const(4)  # Y-15 picks
OVER = const(5)

# Y-14 penalty values by rank: A 11, 2-10 face value, J 25, Q K 10.
VALUE = bytes([11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 10, 10])
# Y-3 plain clubs: clubs that are not J 7 T A.  Y-10 plain ranks: 2-6, 8, 9, Q, K.
_PLAIN = bytes([0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1])


def check_deck(deck, players):
    """A copy of ``deck`` (card ids, top first) if it is the deck Y-1 wants."""
    n = 52 * decks("yedili", players)
    deck = as_deck(deck, n)
    if deck is None:
        raise InvalidDeckError("a Pis Yedili deck for %d players holds %d distinct card ids"
                               % (players, n))
    return deck


class YediliHand:
    """One hand of Pis Yedili: ``YediliHand(players, dealer, deck)``."""

    game = "yedili"

    def __init__(self, players, dealer, deck):
        ok = PLAYERS[GAMES.index(self.game)]
        if players not in ok:
            raise ValueError("Pis Yedili is for %r players (Y-1), not %r" % (ok, players))
        if not 0 <= dealer < players:
            raise ValueError("dealer %r is not a seat of %d players" % (dealer, players))
        self.players = players
        self.sides = players
        self.dealer = dealer
        self.deck = check_deck(deck, players)
        self.size = len(self.deck)
        self.actions = bytearray()
        self._reset()

    def _reset(self):
        n = self.players
        size = self.size
        # The stock is stockbuf[pos:]: the deck itself until a Muamele pick
        # (Y-15) takes a card from the middle; then a copy to reorder.
        self.stockbuf = self.deck
        self.hands = [bytearray(size) for _ in range(n)]
        self.hn = bytearray(n)
        self.discard = bytearray(size)
        self.dn = 0
        self.named = -1  # Y-7 suit named by the Jack on top
        self.pending = 0  # Y-6 cards the seat to move must draw unless it plays a 7
        self.chain = -1  # Y-8 seat that played the first ten of a chain
        self.opening = n  # Y-3 opening turns still to play
        self.phase = OPENING
        self.winner = -1
        self.mult = 1
        self.picks = 0  # Y-15 picks left for the seat to move
        self.muamele = [bytearray() for _ in range(n)]
        self.ply = 0
        self.over = False
        # Y-2: seven each in blocks of seven, from the seat after the dealer.
        p = 0
        for k in range(1, n + 1):
            s = (self.dealer + k) % n
            h = self.hands[s]
            for i in range(7):
                h[i] = self.stockbuf[p + i]
            self.hn[s] = 7
            p += 7
        self.pos = p
        self.turn = (self.dealer + 1) % n

    # -- helpers ---------------------------------------------------------------
    @property
    def stock(self):
        """Cards left in the stock."""
        return self.size - self.pos

    @property
    def top(self):
        """Identity of the discard pile's top card, or -1 when it is empty."""
        return self.discard[self.dn - 1] % 52 if self.dn else -1

    def hand(self, seat):
        """The card ids held by ``seat``, in the order they came."""
        return bytes(self.hands[seat][0:self.hn[seat]])

    def _matches(self, c):
        # Y-4 / Y-6 / Y-7: may card identity c be played on the pile now?
        r = RANK[c]
        if self.pending:
            return r == _SEVEN
        if r == _JACK:
            return True
        if self.named >= 0:
            return SUIT[c] == self.named
        t = self.top
        return SUIT[c] == SUIT[t] or r == RANK[t]

    def _draw(self, s, k):
        # Draw k cards for seat s; Y-13: taking the stock's last card ends the hand.
        h = self.hands[s]
        while k and self.pos < self.size:
            h[self.hn[s]] = self.stockbuf[self.pos]
            self.hn[s] += 1
            self.pos += 1
            k -= 1
        if self.pos >= self.size:
            self._finish(-1, 1)
            return False
        return True

    def _take(self, s, c):
        # Remove a card of identity c from seat s's hand; returns its id.
        h = self.hands[s]
        e = self.hn[s] - 1
        i = 0
        while h[i] % 52 != c:
            i += 1
        cid = h[i]
        while i < e:
            h[i] = h[i + 1]
            i += 1
        self.hn[s] = e
        return cid

    def _finish(self, winner, mult):
        self.winner = winner
        self.mult = mult
        self.pending = 0  # Y-12: a draw set by the last card is not carried out
        if winner >= 0:
            self.phase = MUAMELE
            self.turn = winner
            self._next_picker()
        else:
            self._end()

    def _end(self):
        self.phase = OVER
        self.over = True
        self.turn = -1

    def _next_picker(self):
        # Y-15: after the seat that just picked, the next holder of sevens picks.
        n = self.players
        s = self.turn
        while self.stock:
            s = (s + 1) % n
            if s == self.winner:
                break
            sevens = 0
            h = self.hands[s]
            for i in range(self.hn[s]):
                if RANK[h[i]] == _SEVEN:
                    sevens += 1
            if sevens:
                self.turn = s
                self.picks = 3 * sevens
                return
        self.picks = 0
        self._end()

    def _end_turn(self, s, last):
        # The turn of seat s ends; last is the identity of its last card, or -1.
        n = self.players
        if not self.hn[s]:  # Y-12 going out
            r = RANK[last] if last >= 0 else -1
            self._finish(s, 2 if r == _JACK else 3 if r == _SEVEN else 1)  # Y-14
            return
        if n > 2 and last >= 0 and RANK[last] == _TEN:  # Y-8
            if self.chain < 0:
                self.chain = s
            nxt = (s - 1) % n
        elif self.chain >= 0:
            nxt = (self.chain + 1) % n
            self.chain = -1
        else:
            nxt = (s + 1) % n
        self.turn = nxt
        self.phase = NORMAL

    # -- the fast, unchecked door ----------------------------------------------
    def play(self, a):
        """Apply action ``a`` for the seat to move, unchecked (it must be legal)."""
        self.actions.append(a)
        self.ply += 1
        s = self.turn
        ph = self.phase
        if ph == MUAMELE:  # Y-15: take the stock card at position a - PICK
            if not isinstance(self.stockbuf, bytearray):
                self.stockbuf = bytearray(self.deck)
            p = self.pos
            i = p + a - PICK
            cid = self.stockbuf[i]
            while i > p:
                self.stockbuf[i] = self.stockbuf[i - 1]
                i -= 1
            self.pos = p + 1
            self.muamele[s].append(cid)
            self.picks -= 1
            if RANK[cid] == _SEVEN:
                self.picks += 3
            if not self.picks or not self.stock:
                self._next_picker()
            return
        if a == DRAW:
            if self.pending:  # Y-6: take the whole pending draw, then a normal turn
                k = self.pending
                self.pending = 0
                self._draw(s, k)
            elif self._draw(s, 1) and ph != OPENING:
                self.phase = DRAWN
            return
        if a == PASS:
            self._end_turn(s, -1)
            return
        if a >= JACK_BASE:
            c = 40 + ((a - JACK_BASE) >> 2)
            named = (a - JACK_BASE) & 3
        else:
            c = a
            named = -1
        prev = self.top
        self.discard[self.dn] = self._take(s, c)
        self.dn += 1
        self.named = named
        if ph == OPENING:  # Y-3: no effects; the round ends with the dealer
            self.opening -= 1
            self.turn = (s + 1) % self.players
            if not self.opening:
                self.phase = NORMAL
            return
        r = RANK[c]
        if r == _SEVEN:  # Y-6
            self.pending += 3
        elif r == _ACE:  # Y-9: every other player draws one, in play order
            n = self.players
            for k in range(1, n):
                if not self._draw((s + k) % n, 1):
                    return
            self.phase = AGAIN
            return
        elif _PLAIN[r] and c == prev:  # Y-10 twin
            self.phase = AGAIN
            return
        self._end_turn(s, c)

    # -- the checked door and the State API ------------------------------------
    def legal(self):
        """Every legal action, each once, sorted."""
        ph = self.phase
        if ph == OVER:
            return []
        if ph == MUAMELE:
            return list(range(PICK, PICK + self.stock))
        out = []
        seen = bytearray(52)
        h = self.hands[self.turn]
        for i in range(self.hn[self.turn]):
            c = h[i] % 52
            if seen[c]:
                continue
            seen[c] = 1
            if ph == OPENING:
                if SUIT[c] == 0 and _PLAIN[RANK[c]]:  # a plain club
                    out.append(c)
            elif self._matches(c):
                if RANK[c] == _JACK:
                    b = JACK_BASE + (c & 3) * 4
                    out.extend((b, b + 1, b + 2, b + 3))
                else:
                    out.append(c)
        if ph == OPENING or ph == AGAIN:
            if not out:  # Y-3 / Y-9: draw only without a card to play
                out.append(DRAW)
        elif ph == NORMAL:
            out.append(DRAW)
        else:
            out.append(PASS)
        out.sort()
        return out

    def is_legal(self, a):
        """Whether action ``a`` may be applied now."""
        return isinstance(a, int) and not isinstance(a, bool) and a in self.legal()

    def apply(self, a):
        """Apply ``a``; raises IllegalActionError (state unchanged) if illegal."""
        if not self.is_legal(a):
            who = "seat %d" % self.turn if self.turn >= 0 else "no seat (the hand is over)"
            raise IllegalActionError("illegal action %s for %s in %s"
                                     % (self.action_str(a), who, self.describe()))
        self.play(a)

    def undo(self):
        """Take back the last action (by replaying the record); returns it."""
        if not self.actions:
            raise IllegalActionError("nothing to undo in " + self.describe())
        acts = self.actions
        self.actions = bytearray()
        self._reset()
        for i in range(len(acts) - 1):
            self.play(acts[i])
        return acts[-1]

    def copy(self):
        """An independent copy (replays the record)."""
        other = YediliHand(self.players, self.dealer, self.deck)
        for a in self.actions:
            other.play(a)
        return other

    @property
    def terminal(self):
        """True when the hand is over."""
        return self.over

    def action_str(self, a):
        """R-2 notation of an action (Muamele picks as ``pick:N``)."""
        from pisti_core.yedili_text import action_str
        return action_str(a)

    def parse_action(self, text):
        """The action for an R-2 string; IllegalActionError if it is none."""
        from pisti_core.yedili_text import parse_action
        return parse_action(text, self)

    def describe(self):
        """A one-line description of the position for error messages."""
        from pisti_core.yedili_text import describe
        return describe(self)

    # -- results ---------------------------------------------------------------
    def penalties(self):
        """Y-14 / Y-15 penalty per seat (final once the hand is over)."""
        out = []
        for s in range(self.players):
            if s == self.winner:
                out.append(0)
                continue
            h = self.hands[s]
            v = 0
            for i in range(self.hn[s]):
                v += VALUE[RANK[h[i]]]
            m = 0
            for c in self.muamele[s]:
                m += VALUE[RANK[c]]
            out.append(v * self.mult + m)
        return out

    def result(self):
        """``winner`` (seat or -1), ``multiplier``, ``penalties`` (R-3)."""
        return {"winner": self.winner, "multiplier": self.mult, "penalties": self.penalties()}

    def points(self):
        """Per seat penalty points (what the match adds up, Y-16)."""
        return self.penalties()

    def returns(self):
        """Per seat: minus its penalty."""
        return [-p for p in self.penalties()]

    def observe(self, seat, totals=None, target=0):
        """What ``seat`` may know (T-5), as a :class:`YediliObs`."""
        from pisti_core.yedili_obs import YediliObs
        return YediliObs(self, seat, totals, target)
