# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.texts.rules_en`
==========================

The rules pages in English, (title, text) pairs, word-wrapped on screen.
They follow /work/shared/RULES.md (P-1 .. P-13, Y-1 .. Y-16).
"""

PISTI = (
    ("Pişti: the aim",
     "Two players, or four in two teams with partners opposite. Take cards "
     "from the pile to score. Play to 101 or 151 points."),
    ("Pişti: the deal",
     "Four cards go to the middle, only the top one face up. Everyone gets "
     "four cards; when all hands are empty, four more each until the stock "
     "is used up. The stock's bottom card is shown to all."),
    ("Pişti: playing",
     "In turn, play one card on the pile. A card of the same rank as the top "
     "card, or any Jack, takes the whole pile. The face-down middle cards go "
     "to the first side that takes the pile."),
    ("Pişti: piştis",
     "Taking a pile of one single card with the same rank is a pişti: 10 "
     "points. A Jack on a lone Jack is a Jack pişti: 20. The last card of a "
     "hand never makes a pişti. The last taker gets the cards left over."),
    ("Pişti: points",
     "Each Ace 1, each Jack 1, 2\u2663 2, 10\u2666 3, most cards 3 (nobody on a "
     "tie), pişti 10, Jack pişti 20. Once a side reaches the target with "
     "more points than the other, it wins."),
)

_YEDILI = (
    ("Pis Yedili: the aim",
     "2 to 4 players, each alone. Be the first to get rid of your cards; the "
     "others score penalty points. When anybody reaches 101, the lowest "
     "total wins."),
    ("Opening round",
     "Everybody's first turn: play a plain club (not J, 7, 10 or A). "
     "Without one, draw until you have one."),
    ("Playing",
     "Play a card of the top card's suit or rank, or a Jack. Or draw one "
     "card, then play a matching card or pass."),
    ("Special cards",
     "7: the next player draws 3 unless they play a 7 too (then 6, 9 ...). "
     "Jack: plays on anything but a 7 to answer; name a suit. Ace: everybody "
     "else draws one, and you play again. 10: with 3 or 4 players play turns "
     "back for a turn. Twin: the same card on itself (two decks) plays again."),
    ("Penalties",
     "Out of cards: you win the hand. The others count their cards: 2-10 as "
     "marked, Q and K 10, A 11, J 25; double if you went out on a Jack, "
     "triple on a 7. An empty stock ends the hand with no winner."),
    ("Muamele",
     "After a hand with a winner, each other player picks 3 face-down stock "
     "cards for each 7 they hold; each 7 picked gives 3 more picks. The "
     "picked cards' values are added to their penalty."),
)

# The last page, about the buttons: six-button build, three buttons.
YEDILI = _YEDILI + (
    ("On this console",
     "\u25c0\u25b6 choose a card, A plays it. \u25b2 (or going past the last card) "
     "reaches Draw and Pass. A Jack asks for a suit. A card that cannot be "
     "played tells you why."),
)

YEDILI_3 = _YEDILI + (
    ("On this console",
     "A and C choose a card, B plays it. Draw and Pass sit past either end "
     "of your hand. A Jack asks for a suit. A card that cannot be played "
     "tells you why."),
)

BUTTONS_6 = (
    ("Buttons",
     "\u25c0 \u25b6 move the cursor. \u25b2 \u25bc move in menus; \u25c0 \u25b6 change "
     "a value and A confirms: Settings keep it, New game starts. A selects "
     "or plays. B goes back; at the table B, or holding "
     "B, opens the game menu. In Pis Yedili \u25b2 reaches Draw and Pass."),
)

BUTTONS_3 = (
    ("Buttons",
     "A and C move, B selects or plays, holding B goes back and opens the "
     "game menu at the table. In a menu B on a value edits it: A and C "
     "change it, B confirms (Settings keep it, New game starts), holding B "
     "ends the edit. In Pis Yedili Draw and Pass sit past the ends of your "
     "hand."),
)
