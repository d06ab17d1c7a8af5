# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Re-deal helpers for the fair-play proof (T-5).

A re-deal keeps everything a seat may know and re-shuffles the rest: the
positions of the deck the seat cannot see get their cards shuffled among
themselves, then the hand's actions are replayed on the new deck. The seat's
observation must not change, and neither may any bot's decision.

Pişti (P-5, P-8, P-10): a seat sees its own dealt cards, the centre cards
turned face up, the bottom card ``deck[51]``, every played card, and the
face-down centre cards only once its side has taken them.
"""

from pisti_core.pisti import PistiHand


def shuffle_positions(deck, positions, rng):
    """A copy of ``deck`` whose cards at ``positions`` are shuffled among
    those positions (Fisher-Yates with ``rng.randrange``)."""
    out = bytearray(deck)
    cards = [deck[p] for p in positions]
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randrange(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    for p, c in zip(positions, cards, strict=True):
        out[p] = c
    return out


def pisti_unseen_positions(st, seat):
    """Deck positions of a Pişti hand whose cards ``seat`` cannot see."""
    n = st.players
    played = set(st.actions)
    out = []
    if st.hidden_side != (seat & 1):  # P-8: face-down centre cards
        out.extend(range(st.hidden0))
    p = 4
    while p < 52:
        for j in range(n):
            owner = (st.dealer + 1 + j) % n
            for q in range(p, p + 4):
                if q == 51:  # P-5: the bottom card is shown to everybody
                    continue
                if q >= st.pos:  # still in the stock
                    out.append(q)
                elif owner != seat and st.deck[q] not in played:
                    out.append(q)  # in another seat's hand
            p += 4
    return out


def pisti_redeal(st, seat, rng):
    """A Pişti hand in the same position as ``st`` for ``seat``: what the
    seat cannot see is dealt anew, the actions are replayed."""
    deck = shuffle_positions(st.deck, pisti_unseen_positions(st, seat), rng)
    new = PistiHand(st.players, st.dealer, deck)
    for a in st.actions:
        new.play(a)
    return new
