# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.match`
==================

A match of either game: hands one after another, the dealer passing on
(P-3, Y-2), totals adding up to the target (P-13, Y-16). A match is fully
described by its first dealer and, per hand, the deck order and the actions
(T-6), so it can be saved, replayed and resumed.
"""

import sys

from pisti_core import GAMES, PLAYERS, TARGETS, TEAMS
from pisti_core.cards import const, decks, randbelow, shuffle_and_cut

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away

# The device and the micropython command collect between hands; CPython (tools,
# tests, simulator) does not: there gc.collect() is slow and changes nothing.
_COLLECT = sys.implementation.name in ("micropython", "circuitpython")


def new_hand(game, players, dealer, deck):
    """A hand of ``game`` from a known deck order (card ids, top first)."""
    # Imported here so that the device compiles only the game it plays.
    if game == "pisti":
        from pisti_core.pisti import PistiHand
        return PistiHand(players, dealer, deck)
    if game == "yedili":
        from pisti_core.yedili import YediliHand
        return YediliHand(players, dealer, deck)
    raise ValueError("unknown game %r (pisti or yedili)" % (game,))


def deal_deck(game, players, below=randbelow):
    """A deck for a new hand: shuffled from the secure source and cut (P-4,
    T-6); for Pişti never a Jack at the bottom, and a deck whose four centre
    cards are Jacks is shuffled again (P-5 redeal, same dealer)."""
    if game == "pisti":
        while True:
            deck = shuffle_and_cut(1, below, True)
            if deck[3] >> 2 != 10:  # P-5: no Jack on top (imports nothing: the arena's speed)
                return deck
            from pisti_core.pisti import centre
            if centre(deck) is not None:  # P-5: no redeal
                return deck
    return shuffle_and_cut(decks(game, players), below, False)



class Match:
    """``Match(game, players, target=None, dealer=None)``; call :meth:`deal`
    for each hand, :meth:`end_hand` when it is over."""

    def __init__(self, game, players, target=None, dealer=None, below=randbelow):
        if game not in GAMES:
            raise ValueError("unknown game %r (pisti or yedili)" % (game,))
        g = GAMES.index(game)
        if players not in PLAYERS[g]:
            raise ValueError("%s is for %r players (P-1, Y-1), not %r" % (game, PLAYERS[g], players))
        if target is None:
            target = TARGETS[g][-1]  # the default (P-2, Y-16)
        if target not in TARGETS[g]:
            raise ValueError("a %s match goes to %r (P-2, Y-16), not %r" % (game, TARGETS[g], target))
        self.game = game
        self.players = players
        self.sides = 2 if players in TEAMS[g] else players  # P-1: partners are one side
        self.target = target
        self.below = below
        if dealer is None:
            dealer = below(players)  # P-3: the first dealer is random
        if not 0 <= dealer < players:
            raise ValueError("dealer %r is not a seat of %d players" % (dealer, players))
        self.first_dealer = dealer
        self.dealer = dealer
        self.totals = [0] * self.sides
        self.history = []  # finished hands: (dealer, deck, actions, points)
        self.hand = None
        self.over = False

    def deal(self, deck=None):
        """Start the next hand, from ``deck`` (ids) or a fresh secure shuffle."""
        if self.over:
            raise ValueError("the match is over")
        if self.hand is not None and not self.hand.over:
            raise ValueError("the hand in play is not over")
        # The finished hand goes, and its garbage with it, before the next is
        # built: the new hand's buffers then sit in the lowest free blocks, not
        # among a match's leftovers (at the core's 40K cap a match otherwise
        # fragmented the heap until a 464-byte block could not be found). On
        # MicroPython only: there a collection of the whole heap costs ~1 ms.
        self.hand = None
        if _COLLECT:
            import gc
            gc.collect()
        if deck is None:
            deck = deal_deck(self.game, self.players, self.below)
        self.hand = new_hand(self.game, self.players, self.dealer, deck)
        return self.hand

    def end_hand(self):
        """Add the finished hand to the totals; returns its points per side."""
        h = self.hand
        if h is None or not h.over:
            raise ValueError("no finished hand to score")
        pts = h.points()
        for i in range(self.sides):
            self.totals[i] += pts[i]
        self.history.append((h.dealer, bytes(h.deck), bytes(h.actions), pts))
        self.hand = None
        self.dealer = (self.dealer + 1) % self.players  # P-3: the deal passes on
        t = self.totals
        if self.game == "pisti":
            # P-13: a side at the target and the totals not equal ends the match.
            self.over = max(t) >= self.target and t[0] != t[1]
        else:
            self.over = max(t) >= self.target  # Y-16
        return pts

    def winners(self):
        """Winning sides (Pişti) or seats (Pis Yedili, all sharing the lowest)."""
        if not self.over:
            return []
        t = self.totals
        best = max(t) if self.game == "pisti" else min(t)
        return [i for i in range(self.sides) if t[i] == best]

    def observe(self, seat):
        """The observation of ``seat`` in the hand in play, with the totals."""
        if _CHECKING:
            assert self.hand  # observed only while a hand is in play
        return self.hand.observe(seat, self.totals, self.target)

