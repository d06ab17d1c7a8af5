# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.session`
=========================

:class:`GameSession` is the whole state of a game in play, in ONE object:
the match (game, players, target, first dealer, totals, the hand in play as
its deck order and actions, T-6), the bot level of every seat, rated or
practice (T-1) and the rated game's number. It saves as a *header* (written
when a hand is dealt, before it is shown) plus the hand's *action bytes*
(appended as they are taken); restoring replays every action through the
checked door, so a corrupt record is refused rather than played.

This module writes the save (:meth:`GameSession.header`, at every deal);
reading it back is :mod:`pisti_app.match.session_io` (at boot and on Continue),
loaded for that only, which takes the layout's bytes from here
(:data:`MAGIC`, :data:`VERSION`, :data:`HUMAN`, :data:`LEVELS`,
:data:`UNDO`).

Header layout (version 2), integers unsigned big-endian unless said::

    0xA7 2  flags (bit 0 Pis Yedili, bit 1 rated)  players  target
    first_dealer  hands_done(2)  game_number(2)
    level per seat (255: the person)  totals per side (2, signed)
    deck of the hand in play (52 ids; 104 for 3-4 player Pis Yedili)
    a link game (flag bit 2, L-9) only: role (0 host, 1 guest), the
    guest's seat in the host's numbering, move timer (2), key (16, L-3)
    a ring game (flag bits 2 and 3, L-17) then: its seat in place of the
    guest's, its ring id, its session byte, a console id per seat (0: a bot)

Actions are one byte each, as the engines number them (a card 0..51, a
Jack naming a suit, draw, pass, a Muamele pick: all below 255). The byte
255 (:data:`UNDO`) in an action stream takes the hand back to the
person's previous decision (practice games, by replaying the record).
"""

from pisti_core import GAMES
from pisti_core.match import Match, new_hand

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")  # a bot's level byte: its index here
UNDO = 255
HUMAN = 255  # the level byte of the person's seat
MAGIC = 0xA7
VERSION = 2


def undo_point(hand):
    """Index in ``hand.actions`` of the person's (seat 0's) last decision,
    found by replaying the hand's record; -1 when seat 0 has not acted."""
    h = new_hand(hand.game, hand.players, hand.dealer, hand.deck)
    last = -1
    acts = hand.actions
    for i in range(len(acts)):
        if h.turn == 0:
            last = i
        h.play(acts[i])
    return last


class GameSession:
    """A match with bots: ``GameSession(match, levels, rated, number, base)``;
    ``levels[seat]`` is a bot level, or None for the person's seat; ``base``
    counts hands finished before this object was restored from a save."""

    demo = False  # True for a demo's match (pisti_app.match.demo): bots at every seat, no person

    def __init__(self, match, levels, rated=False, number=0, base=0):
        if len(levels) != match.players:
            raise ValueError("one level per seat: %d seats, %d levels" % (match.players, len(levels)))
        for lv in levels:
            if lv is not None and lv not in LEVELS:
                raise ValueError("unknown bot level %r" % (lv,))
        self.match = match
        self.levels = tuple(levels)
        self.rated = bool(rated)
        self.number = number  # a rated game's number (the ranking's stamp + 1)
        self.base = base
        self.last = None  # the hand just finished, for the end-of-hand screen
        self.outcome = None  # type: tuple | None  # (points, result) once a rated match is over (T-2)
        self.linked = False  # a link game: the link deals each hand (L-3), see deal_from()
        self.link_info = None  # type: tuple | None  # a link game's (role, guest seat, timer, key), saved (L-9)

    @classmethod
    def new(cls, game, players, levels, target=None, below=None, rated=False, number=0):
        """A new match, its first hand dealt; ``below(n)`` draws the chance."""
        if below is None:
            m = Match(game, players, target)
        else:
            m = Match(game, players, target, below=below)
        s = cls(m, levels, rated, number)
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
    def totals(self):
        """The match totals per side (the match's own list)."""
        return self.match.totals

    @property
    def hands_done(self):
        """Hands finished (and scored) in this match."""
        return self.base + len(self.match.history)

    @property
    def hand_no(self):
        """1-based number of the hand in play (or of the last one)."""
        return self.hands_done + (1 if self.match.hand is not None else 0)

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
        hs = m.history
        if len(hs) > 1:  # only the last hand's entry is read (statistics): the rest are counted in base
            self.base += len(hs) - 1
            del hs[:-1]
        if not m.over and not self.linked:
            m.deal()
        return pts

    def deal_from(self, deck):
        """A link game's next hand, from the deck both consoles drew (L-3)."""
        if self.match.hand is not None or self.match.over:
            raise ValueError("no hand to deal: one is in play or the match is over")
        self.match.deal(deck)

    def undo(self):
        """Take the hand in play back to the person's previous decision (by
        replaying its record); False when there is none."""
        m = self.match
        h = m.hand
        i = undo_point(h)
        if i < 0:
            return False
        acts = bytes(h.actions[0:i])
        m.hand = None
        h = m.deal(h.deck)
        for a in acts:
            h.play(a)
        return True

    # -- bytes -----------------------------------------------------------------
    def header(self):
        """The save header of the hand in play (see the module docstring)."""
        m = self.match
        li = self.link_info if self.linked else None
        out = bytearray((MAGIC, VERSION, GAMES.index(m.game) | (2 if self.rated else 0)
                         | (4 if li else 0) | (8 if li and li[4:] else 0), m.players, m.target, m.first_dealer))
        n = self.hands_done
        out.append(n >> 8)
        out.append(n & 255)
        out.append(self.number >> 8 & 255)
        out.append(self.number & 255)
        for lv in self.levels:
            out.append(HUMAN if lv is None else LEVELS.index(lv))
        for v in m.totals:
            v &= 0xFFFF
            out.append(v >> 8)
            out.append(v & 255)
        out.extend(m.hand.deck)
        if li:
            out.extend(bytes((li[0], li[1], li[2] >> 8 & 255, li[2] & 255)))
            out.extend(li[3])
            if li[4:]:  # a ring (L-17): this console's ring id, session byte, the people per seat
                out.append(li[4])
                out.append(li[5])
                out.extend(li[6])
        return bytes(out)

    def to_bytes(self):
        """The session as bytes: header length, header, the hand's actions."""
        h = self.header()
        return bytes((len(h),)) + h + bytes(self.match.hand.actions)
