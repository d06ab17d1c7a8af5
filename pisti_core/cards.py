# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.cards`
==================

Cards are small ints. ``c % 52`` is the card's identity, ``rank * 4 + suit``
with ranks ``A 2 .. 9 T J Q K`` (0..12) and suits ``C D H S`` (0..3); with two
decks the second copy of a card is ``identity + 52``. Names are parsed and
printed at the edges only (RULES.md notation: ``TD`` is the ten of diamonds).

Also here: how many decks a hand is dealt from (as each game's description
in :mod:`pisti_core` says), the secure shuffle and cut (P-4, T-6) and the
typed errors.
"""

import os
import sys

from pisti_core import DECKS, GAMES, PLAYERS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"

_CPYTHON = sys.implementation.name == "cpython"
ACE = const(0)
SEVEN = const(6)
TEN = const(9)
JACK = const(10)
QUEEN = const(11)
KING = const(12)
CLUBS = const(0)
DIAMONDS = const(1)
HEARTS = const(2)
SPADES = const(3)

# Lookup tables over every card id of two decks (0..103).
RANK = bytes([(c % 52) >> 2 for c in range(104)])
# Pişti's card points by card id (P-12): aces 1, jacks 1, 2C 2, TD 3 (16 a deck).
PTS = bytes([1 if (c >> 2) in (ACE, JACK) else 2 if c == 4 else 3 if c == 37 else 0 for c in range(52)])
SUIT = bytes([c & 3 for c in range(104)])


class IllegalActionError(ValueError):
    """An action that is not legal in the position; the state is unchanged."""


class InvalidDeckError(ValueError):
    """A deck that is not a full deck (or two), or one the rules redeal."""


def card(rank, suit):
    """The identity of the card of ``rank`` and ``suit``."""
    return rank * 4 + suit


def card_str(c):
    """Two-character name of a card id: ``card_str(37) == 'TD'``."""
    c %= 52
    return RANKS[c >> 2] + SUITS[c & 3]


def parse_card(text):
    """The identity (0..51) of a two-character card name; ValueError if none."""
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError("not a card: %r" % (text,))
    r = RANKS.find(text[0])
    s = SUITS.find(text[1])
    if r < 0 or s < 0:
        raise ValueError("not a card: %r" % (text,))
    return r * 4 + s


def cards_str(cards):
    """Space-separated names of a sequence of card ids."""
    return " ".join([card_str(c) for c in cards])


def decks(game, players):
    """The decks a hand of ``game`` for ``players`` is dealt from (the
    games' description, :data:`pisti_core.DECKS`: Pis Yedili two for 3 and
    4 players, Y-1; otherwise one); ValueError for a count not allowed."""
    g = GAMES.index(game)
    return DECKS[g][PLAYERS[g].index(players)]


def as_deck(deck, n):
    """``deck`` as bytes if it holds each card id ``0 .. n-1`` exactly once,
    else None (no set: a small board has little heap)."""
    try:
        deck = bytes(deck)
    except (TypeError, ValueError):  # not card ids at all
        return None
    if len(deck) != n:
        return None
    if _CPYTHON:  # in C (the arena's speed): the ids 0 .. n-1 less the deck's are none
        return None if bytes(range(n)).translate(None, deck) else deck
    # n ids below n, none twice, is every id once: mark them, then look for
    # an id not marked (a branch-free loop: every new hand passes here).
    seen = bytearray(n)
    try:
        for c in deck:
            seen[c] = 1
    except IndexError:  # an id of n or more
        return None
    return deck if min(seen) else None


def new_deck(decks=1):
    """A fresh, unshuffled deck of ``decks`` decks as a bytearray of ids."""
    return bytearray(range(52 * decks))


def randbelow(n):
    """A uniformly random int in ``0 .. n-1`` from ``os.urandom`` (T-6)."""
    if n <= 1:
        return 0
    # Rejection sampling over 16-bit draws: no modulo bias. n <= 104 here.
    limit = 65536 - 65536 % n
    while True:
        b = os.urandom(2)
        v = b[0] << 8 | b[1]
        if v < limit:
            return v % n


def shuffle(buf, below=randbelow):
    """Fisher-Yates in place; ``below(n)`` gives a random int under n."""
    for i in range(len(buf) - 1, 0, -1):
        j = below(i + 1)
        buf[i], buf[j] = buf[j], buf[i]


def cut(buf, k):
    """Cut the deck in place: the top ``k`` cards go to the bottom."""
    buf[:] = buf[k:] + buf[:k]


def shuffle_and_cut(decks=1, below=randbelow, no_bottom_jack=False):
    """A shuffled and cut deck (P-4), a bytearray. With ``no_bottom_jack``
    the cut is repeated until the bottom card is not a Jack (Pişti)."""
    n = 52 * decks
    # On CPython shuffled as a list (it swaps list items faster: the arena's
    # speed); on the device as a bytearray (a list of 104 small ints is 416 B
    # of a fragmented heap). Cut as one rotation: the same draws and the same
    # deck as shuffle() and cut() on a bytearray.
    if _CPYTHON:
        order = list(range(n))
        shuffle(order, below)
        buf = bytearray(order)
    else:
        buf = bytearray(range(n))
        shuffle(buf, below)
    k = 0
    while True:
        k = (k + 1 + below(n - 1)) % n  # cuts add up
        if not no_bottom_jack or RANK[buf[k - 1]] != JACK:  # buf[k - 1]: the bottom card
            cut(buf, k)
            return buf
