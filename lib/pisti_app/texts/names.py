# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.texts.names`
=======================

How seats, sides and cards are named on screen (in the current language).
"""

from pisti_app.texts.strings import t

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_TEXT = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠ (C D H S)


def card_text(c):
    """A card id as its rank and suit symbol: ``'10♦'``."""
    c %= 52
    return RANK_TEXT[c >> 2] + SUIT_TEXT[c & 3]


def seat_name(session, seat):
    """'You', 'Friend' (the other console's person in a link game), 'Bot'
    (two players) or 'Bot 2'; in a demo 'Bot 1' to 'Bot 4', seat 0 first."""
    if session.demo:
        return t("bot_n") % (seat + 1)
    if seat == 0:
        return t("you")
    li = getattr(session, "link_info", None) if getattr(session, "linked", False) else None
    if li and (li[6][(seat + li[1]) % session.players] if len(li) > 4  # a ring's people (RingPlay.person)
               else seat == (li[1] if li[0] == 0 else -li[1] % session.players)):  # (as LinkPlay.person)
        return t("friend")
    if session.players == 2:
        return t("bot")
    return t("bot_n") % seat


def side_name(session, side):
    """A Pişti side in partnerships ('Us' / 'Them'; in a demo 'Team 1' /
    'Team 2'), otherwise the seat."""
    if session.match.sides < session.players:  # partners (P-1)
        if session.demo:
            return t("team_n") % (side + 1)
        return t("us") if side == 0 else t("them")
    return seat_name(session, side)


def bar_name(session, side):
    """A side's name in a top bar (room for three letters beside a total):
    in a demo 'B1' to 'B4' (Pişti in teams '1+3', '2+4'), else :func:`side_name`."""
    if not session.demo:
        return side_name(session, side)
    if session.match.sides < session.players:  # partners (P-1)
        return "%d+%d" % (side + 1, side + 3)
    return t("bot_short") % (side + 1)
