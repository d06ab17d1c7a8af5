# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.session`
===================

:class:`GameSession` is the whole state of a game in play, in ONE object
that serialises to bytes and back (T-6): the match (game, players, target,
first dealer, and per hand the deck order and the actions) plus the bot
level of every seat. Restoring replays every action through the checked
door, so a corrupt record is refused rather than played.

Byte layout (version 1), all integers unsigned, big-endian::

    b"PS" 1  game(0 pisti, 1 yedili)  players  target(2)  first_dealer
    level per seat (255: the person)  hands(2)
    per hand: dealer  deck (52 ids, 104 for 3-4 player Pis Yedili)
              actions(2)  action bytes
"""

from pisti_core.match import Match, decks_for

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
_HUMAN = 255
_MAGIC = b"PS"
_VERSION = 1


def _deck_len(game, players):
    return 52 * (decks_for(players) if game == "yedili" else 1)


class GameSession:
    """A match with bots: ``GameSession(match, levels)``; ``levels[seat]``
    is a bot level, or None for the person's seat."""

    def __init__(self, match, levels):
        if len(levels) != match.players:
            raise ValueError("one level per seat: %d seats, %d levels" % (match.players, len(levels)))
        for lv in levels:
            if lv is not None and lv not in LEVELS:
                raise ValueError("unknown bot level %r" % (lv,))
        self.match = match
        self.levels = tuple(levels)
        self.last = None  # the hand just finished, for the end-of-hand screen

    @classmethod
    def new(cls, game, players, levels, target=None, below=None):
        """A new match, its first hand dealt; ``below(n)`` draws the chance."""
        if below is None:
            m = Match(game, players, target)
        else:
            m = Match(game, players, target, below=below)
        s = cls(m, levels)
        m.deal()
        return s

    @property
    def game(self):
        """'pisti' or 'yedili'."""
        return self.match.game

    @property
    def players(self):
        """Number of seats."""
        return self.match.players

    @property
    def hand(self):
        """The hand in play (None once the match is over)."""
        return self.match.hand

    @property
    def hand_no(self):
        """1-based number of the hand in play (or of the last one)."""
        m = self.match
        return len(m.history) + (1 if m.hand is not None else 0)

    @property
    def over(self):
        """True when the match is over."""
        return self.match.over

    def level(self):
        """The bots' level as one string ('usta', or 'usta,kalfa,acemi' when mixed)."""
        bots = [lv for lv in self.levels if lv is not None]
        if bots and all(lv == bots[0] for lv in bots):
            return bots[0]
        return ",".join(bots)

    def end_hand(self):
        """Score the finished hand (P-13, Y-16) and deal the next one unless
        the match is over; returns the hand's points."""
        m = self.match
        self.last = m.hand
        pts = m.end_hand()
        if not m.over:
            m.deal()
        return pts

    # -- bytes -----------------------------------------------------------------
    def to_bytes(self):
        """The session as bytes (see the module docstring)."""
        m = self.match
        out = bytearray(_MAGIC)
        out.append(_VERSION)
        out.append(0 if m.game == "pisti" else 1)
        out.append(m.players)
        out.append(m.target >> 8)
        out.append(m.target & 255)
        out.append(m.first_dealer)
        for lv in self.levels:
            out.append(_HUMAN if lv is None else LEVELS.index(lv))
        hands = [(d, deck, acts) for d, deck, acts, _ in m.history]
        if m.hand is not None:
            hands.append((m.hand.dealer, m.hand.deck, m.hand.actions))
        out.append(len(hands) >> 8)
        out.append(len(hands) & 255)
        for d, deck, acts in hands:
            out.append(d)
            out.extend(deck)
            out.append(len(acts) >> 8)
            out.append(len(acts) & 255)
            out.extend(acts)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data, below=None):
        """Rebuild a session from :meth:`to_bytes`; ValueError if it is not one."""
        data = bytes(data)
        if len(data) < 10 or data[0:2] != _MAGIC:
            raise ValueError("not a saved pisti game")
        if data[2] != _VERSION:
            raise ValueError("saved game version %d is not supported" % data[2])
        if data[3] > 1:
            raise ValueError("saved game names an unknown game")
        game = "pisti" if data[3] == 0 else "yedili"
        players = data[4]
        target = data[5] << 8 | data[6]
        if players < 2 or players > 4:
            raise ValueError("saved game has %d players" % players)
        if below is None:
            m = Match(game, players, target, data[7])
        else:
            m = Match(game, players, target, data[7], below=below)
        p = 8
        levels = []
        for _ in range(players):
            if p >= len(data):
                raise ValueError("saved game is cut short")
            v = data[p]
            if v != _HUMAN and v >= len(LEVELS):
                raise ValueError("saved game names an unknown bot level")
            levels.append(None if v == _HUMAN else LEVELS[v])
            p += 1
        s = cls(m, levels)
        if p + 2 > len(data):
            raise ValueError("saved game is cut short")
        n = data[p] << 8 | data[p + 1]
        p += 2
        size = _deck_len(game, players)
        for _ in range(n):
            if p + 1 + size + 2 > len(data):
                raise ValueError("saved game is cut short")
            if data[p] != m.dealer:
                raise ValueError("saved hand dealt by seat %d, expected %d (P-3)" % (data[p], m.dealer))
            h = m.deal(data[p + 1:p + 1 + size])
            p += 1 + size
            k = data[p] << 8 | data[p + 1]
            p += 2
            if p + k > len(data):
                raise ValueError("saved game is cut short")
            for i in range(p, p + k):
                h.apply(data[i])
            p += k
            if h.over:
                s.last = h
                m.end_hand()
        if p != len(data):
            raise ValueError("saved game has %d extra bytes" % (len(data) - p))
        if m.hand is None and not m.over:
            m.deal()  # only if saved between a hand's end and the next deal
        return s

