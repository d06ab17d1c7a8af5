# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.names`
=================

How seats, sides and cards are named on screen (in the current language).
"""

from pisti_app.strings import t

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_TEXT = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠ (C D H S)


def card_text(c):
    """A card id as its rank and suit symbol: ``'10♦'``."""
    c %= 52
    return RANK_TEXT[c >> 2] + SUIT_TEXT[c & 3]


def seat_name(session, seat):
    """'You', 'Friend' (the other console's person in a link game), 'Bot'
    (two players) or 'Bot 2'."""
    if seat == 0:
        return t("you")
    li = getattr(session, "link_info", None) if getattr(session, "linked", False) else None
    if li and seat == (li[1] if li[0] == 0 else -li[1] % session.players):  # (as LinkPlay.person)
        return t("friend")
    if session.players == 2:
        return t("bot")
    return t("bot_n") % seat


def side_name(session, side):
    """A Pişti side in partnerships ('Us' / 'Them'), otherwise the seat."""
    if session.game == "pisti" and session.players == 4:
        return t("us") if side == 0 else t("them")
    return seat_name(session, side)
