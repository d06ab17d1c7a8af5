# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.record`
===================

Matches and decks as plain data at the edges (T-6, R-1): card codes in,
card ids out, and a whole match to and from a JSON-ready record. Kept apart
from the engines so a board that only plays never compiles or holds it.
"""

from pisti_core.cards import InvalidDeckError, card_str, decks, parse_card
from pisti_core.match import Match, new_hand


def parse_deck(codes, decks=1):
    """Card ids for a list of card names, top first (R-1).

    With two decks the first copy of a name gets its identity, the second
    ``identity + 52``. Raises InvalidDeckError unless every card of ``decks``
    decks appears exactly ``decks`` times.
    """
    if not isinstance(codes, (list, tuple)):
        raise InvalidDeckError("the deck must be a list of card codes")
    want = 52 * decks
    if len(codes) != want:
        raise InvalidDeckError(
            "the deck has %d cards, a %s has %d"
            % (len(codes), "single deck" if decks == 1 else "double deck", want)
        )
    seen = bytearray(52)
    out = bytearray(want)
    for i in range(want):
        try:
            c = parse_card(codes[i])
        except ValueError:
            raise InvalidDeckError("deck position %d is not a card: %r" % (i, codes[i]))
        if seen[c] >= decks:
            raise InvalidDeckError("card %s appears more than %d time%s in the deck"
                                   % (card_str(c), decks, "" if decks == 1 else "s"))
        out[i] = c + 52 * seen[c]
        seen[c] += 1
    return out


def to_record(m):
    """The whole match ``m`` as plain data (T-6): replays to the same state."""
    hands = []
    for d, deck, acts, _ in m.history:
        hands.append(_hand_record(m, d, deck, acts))
    if m.hand is not None:
        h = m.hand
        hands.append(_hand_record(m, h.dealer, h.deck, h.actions))
    return {"game": m.game, "players": m.players, "target": m.target,
            "dealer": m.first_dealer, "hands": hands}


def _hand_record(m, dealer, deck, acts):
    st = new_hand(m.game, m.players, dealer, deck)
    return {"dealer": dealer, "deck": [card_str(c) for c in deck],
            "moves": [st.action_str(a) for a in acts]}


def from_record(rec):
    """Rebuild a match from :func:`to_record` data, checking every action."""
    m = Match(rec["game"], rec["players"], rec["target"], rec["dealer"])
    n = decks(m.game, m.players)
    for hr in rec["hands"]:
        if hr["dealer"] != m.dealer:
            raise ValueError("hand dealt by seat %r, expected %d (P-3)" % (hr["dealer"], m.dealer))
        h = m.deal(parse_deck(hr["deck"], n))
        for mv in hr["moves"]:
            h.apply(h.parse_action(mv))
        if h.over:
            m.end_hand()
    return m
