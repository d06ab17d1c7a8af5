# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.yedili_parts`
================================

Pieces of the Pis Yedili table kept apart so each module compiles in a
small heap: hand order, the suit picker, the default suit for a Jack, the
hint line and the why-not explanations (Y-3, Y-4, Y-6, Y-7).
"""

import displayio

from pisti_core.cards import RANK, SUIT
from pisti_core.yedili import AGAIN, DRAW, DRAWN, JACK_BASE, MUAMELE, NORMAL, OPENING, PASS

from pisti_app.screens import gfx
from pisti_app.screens import sprites
from pisti_app.texts.names import card_text
from pisti_app.texts.strings import t
from pisti_app.util import const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
_ACE = const(0)
_SEVEN = const(6)
_TEN = const(9)
_JACK = const(10)


def sort_key(c):
    """Hand order: by suit, then rank."""
    c %= 52
    return (c & 3) * 16 + (c >> 2)


class SuitPicker:
    """Four suits in a framed panel; the chosen one inverted (``compact``:
    the panel covers the message line and the cards of a 32-px table)."""

    def __init__(self, group, compact=False):
        self.h = 24 if compact else 26
        self.y = 8 if compact else 10
        self.group = group
        self.at = len(group)  # its place among the table's layers
        self.bm = None  # made while it shows (~0.6 KB otherwise unused)
        self.tile = None
        self.sel = -1

    def show(self, sel):
        """Show the panel with suit ``sel`` chosen."""
        if self.tile is None:
            self.bm = displayio.Bitmap(128, self.h, 2)
            self.tile = displayio.TileGrid(self.bm, pixel_shader=gfx.palette("text"), x=0, y=self.y)
            self.group.insert(self.at, self.tile)
        self.tile.hidden = False
        if sel == self.sel:
            return
        self.sel = sel
        bm = self.bm
        if _CHECKING:
            assert bm  # made with the tile above
        bm.fill(0)
        h = self.h
        y = (h - 20) // 2
        sprites.frame(bm, 0, 0, 127, h - 1)
        for i in range(4):
            x = 10 + i * 30
            v = 1
            if i == sel:
                sprites.fill(bm, x, y, x + 20, y + 20, 1)
                v = 0
            g = sprites.ink("large", sprites.SUIT_TEXT[i])
            sprites.stamp(bm, "large", sprites.SUIT_TEXT[i], x + (20 - g[3]) // 2, y + (20 - g[4]) // 2, v)

    def hide(self):
        """Take the panel away, and its bitmap with it."""
        tile = self.tile
        if tile is not None:
            self.group.remove(tile)
            self.tile = self.bm = None
            self.sel = -1


def best_suit(hand):
    """Default suit for the picker: the one held most, Jacks aside."""
    n = [0, 0, 0, 0]
    for c in hand:
        if RANK[c % 52] != _JACK:
            n[SUIT[c % 52]] += 1
    best = 0
    for s in range(4):
        if n[s] > n[best]:
            best = s
    return best


def why_not(h):
    """Why the person's card cannot be played now (Y-3, Y-4, Y-6, Y-7)."""
    if h.phase == OPENING:
        return t("why_opening")
    if h.pending:
        return t("why_pending") % h.pending
    if h.named >= 0:
        s = sprites.SUIT_TEXT[h.named]
        return t("why_named") % (s, s)
    top = h.top
    return t("why_match") % (sprites.SUIT_TEXT[top & 3], sprites.RANK_TEXT[top >> 2])


def hint(h, focus, mine, who):
    """The message line when nothing else is to say."""
    if h.over:
        return t("hand_over")
    if not mine:
        return t("waiting") % who
    if focus == "pick":
        return t("muamele_pick") % h.picks
    if focus == "suit":
        return t("choose_suit")
    if focus == "action":
        return t("help_action")
    ph = h.phase
    if ph == OPENING or ph == AGAIN:  # Y-3, Y-9: a draw only without a card to play
        if DRAW in h.legal():
            return t("hint_no_card")
        return t("hint_opening") if ph == OPENING else t("hint_again")
    if h.pending:
        return t("hint_pending") % h.pending
    if ph == DRAWN:
        return t("hint_drawn")
    return t("help_yedili")


def play_text(h, ph, seat, a, who, before, mine=False):
    """The message line for action ``a`` of ``seat`` just applied (``ph``
    the phase it was played in, ``before`` the hand sizes before it;
    ``mine``: the person's own, in their own verb forms, "3 kart çektin")."""
    if ph == MUAMELE:
        cid = h.muamele[seat][-1]
        c = card_text(cid)
        return (t("you_picked") % c if mine else t("picked") % (who, c)) + (
            " +3" if RANK[cid % 52] == _SEVEN else "")
    if a == DRAW:
        n = h.hn[seat] - before[seat]
        return t("you_drew") % n if mine else t("drew") % (who, n)
    if a == PASS:
        return t("you_passed") if mine else t("passed") % who
    c = a if a < 52 else 40 + ((a - JACK_BASE) >> 2)
    text = "%s: %s" % (who, card_text(c))
    r = RANK[c]
    if a >= JACK_BASE:
        text += " \u2192" + sprites.SUIT_TEXT[(a - JACK_BASE) & 3]
    elif h.pending and r == _SEVEN:
        text += " +%d" % h.pending
    elif h.phase == AGAIN:  # Y-9 the others drew one; Y-10 a twin: play again
        text += " " + (t("eff_ace") if r == _ACE else t("eff_twin"))
    elif r == _TEN and h.players > 2 and h.phase == NORMAL:  # Y-8 (not going out)
        text += " " + t("eff_ten")
    return text
