# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Self-play under the ``micropython`` command: complete matches (or hands) of
one mode with random legal play, for heap caps and speed figures.

    micropython tools/mp_selfplay.py GAME PLAYERS MATCHES|hands:N [SEED]

Prints one line: ``ok GAME PLAYERS hands=H ms=T`` (T: wall time in ms).
Runs under CPython too.
"""

import sys

import random

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from time import perf_counter

    def ticks_ms():
        return int(perf_counter() * 1000)

    def ticks_diff(a, b):
        return a - b

from pisti_core.match import Match, deal_deck, new_hand


def below(n):
    return random.getrandbits(8) % n if n < 64 else random.randrange(n)


def hands_only(game, players, count, below=below, picks=None):
    """``count`` random hands, no match bookkeeping (the speed figure);
    ``below(n)`` draws the random choices and shuffles. For Pişti,
    ``picks()`` (if given; tools/bench.py on CPython) draws a hand's 48
    choices at once instead: 48 ints uniform in 0..11, so that ``r % n`` is
    uniform for a hand of n = 1..4 cards."""
    done = 0
    if game == "pisti":  # the hot loop of the speed figure: names bound once
        from pisti_core.pisti import PistiHand
        for i in range(count):
            h = PistiHand(players, i % players, deal_deck(game, players, below))
            hands = h.hands
            hn = h.hn
            play = h.play
            if picks is None:
                for _ in range(48):  # 52 cards less the 4 in the centre: 48 plays (P-5, P-11)
                    s = h.turn
                    play(hands[(s << 2) + below(hn[s])])
            else:
                for r in picks():  # 48 of them
                    s = h.turn
                    play(hands[(s << 2) + r % hn[s]])
            if not h.over:
                raise RuntimeError("a Pişti hand is 48 plays: " + h.describe())
            h.points()
        return count
    for i in range(count):
        h = new_hand(game, players, i % players, deal_deck(game, players, below))
        while not h.over:
            acts = h.legal()
            h.play(acts[below(len(acts))])
        h.points()
        done += 1
    return done


def matches(game, players, count):
    """``count`` complete random matches; returns the number of hands played."""
    played = 0
    for _ in range(count):
        m = Match(game, players, 101, below=below)
        while not m.over:
            h = m.deal()
            while not h.over:
                acts = h.legal()
                h.apply(acts[below(len(acts))])
            m.end_hand()
            played += 1
    return played


def main(argv):
    game = argv[0]
    players = int(argv[1])
    what = argv[2]
    if len(argv) > 3:
        random.seed(int(argv[3]))
    t = ticks_ms()
    if what.startswith("hands:"):
        n = hands_only(game, players, int(what[6:]))
    else:
        n = matches(game, players, int(what))
    print("ok %s %d hands=%d ms=%d" % (game, players, n, ticks_diff(ticks_ms(), t)))


if __name__ == "__main__":
    main(sys.argv[1:])
