# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Stacked decks for rule tests: say who gets what, the rest is filled in."""

from pisti_core.cards import JACK, RANK, parse_card


def ids(codes):
    """Card identities of a space-separated string or a list of codes."""
    if isinstance(codes, str):
        codes = codes.split()
    return [parse_card(c) for c in codes]


def pisti_deck(players, dealer, centre, rounds=(), bottom=None, fill_avoid_jacks=True):
    """A 52-card Pişti deck (ids, top first).

    ``centre``: the four centre cards deck[0..3] (bottom to top, P-5).
    ``rounds``: per deal a dict seat -> up to four codes for that seat.
    ``bottom``: the stock's bottom card deck[51].
    Unnamed places are filled with the unused cards, non-Jacks first, in id
    order (so fillers are predictable).
    """
    deck = [None] * 52
    used = set()

    def put(i, code):
        c = parse_card(code)
        assert c not in used, "card %s used twice" % code
        assert deck[i] is None, "deck position %d set twice" % i
        used.add(c)
        deck[i] = c

    for i, code in enumerate(centre.split() if isinstance(centre, str) else centre):
        put(i, code)
    for r, hands in enumerate(rounds):
        base = 4 + r * 4 * players
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            for j, code in enumerate(hands.get(seat, ()) if isinstance(hands.get(seat, ()), (list, tuple))
                                     else hands[seat].split()):
                put(base + (k - 1) * 4 + j, code)
    if bottom is not None:
        put(51, bottom)
    rest = [c for c in range(52) if c not in used]
    if fill_avoid_jacks:
        rest.sort(key=lambda c: (RANK[c] == JACK, c))
    # Fill the centre and the last position first with non-Jacks, then the rest.
    order = [i for i in (0, 1, 2, 3, 51) if deck[i] is None] + [i for i in range(4, 51) if deck[i] is None]
    for i in order:
        deck[i] = rest.pop(0)
    return bytes(deck)


def seat_cards(deck, players, dealer, seat, rnd):
    """The four cards ``seat`` is dealt in deal ``rnd`` (0-based)."""
    k = (seat - dealer - 1) % players
    b = 4 + rnd * 4 * players + k * 4
    return list(deck[b:b + 4])


def play_codes(st, codes):
    """Apply a space-separated list of actions (R-2 notation), checked."""
    for code in codes.split():
        st.apply(st.parse_action(code))
