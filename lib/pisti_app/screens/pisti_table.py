# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.pisti_table`
===============================

The Pişti table (P-1 .. P-12) at 128x64::

    Sen 12        [back]3        Bot 34     scores; the top seat's cards
    [3]  [ 10 ] x7      [40][7]  3/6        hidden centre, pile top and
         [  ♦ ]         stock, bottom card  size, stock and bottom card
    message line (turn, last play, help)
    [A♣] [10♦] [J♠] [K♦]                    your hand, cursor inverted

At 128x32 (``compact``)::

    You 12  3  45            Bot 34     scores, the opponents' counts, timer
    message line
    [6♠] x2   [10♠][7♠][J♠]             pile top, its size and the bottom
         7♣                             card (P-5), your hand

Partners (4 players) sit right, top and left. A capture shows the capturing
card on the pile for a moment; a pişti pops a toast and a tune.
"""

from pisti_app.screens import gfx
from pisti_app.screens import sprites
from pisti_app import keys as K
from pisti_app.texts.names import bar_name, card_text, side_name
from pisti_app.texts.strings import t
from pisti_app.screens.table import CARD_Y, INFO_X, TableBase, hand_x
from pisti_app.util import const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away

_CHIP_X = (2, 34, 66, 98)


class PistiTable(TableBase):
    """The Pişti table screen."""

    MSG_Y = 40
    BADGE_Y = 17
    BADGE_PITCH = 8  # 32 px: Pişti hands hold at most 4 cards

    def __init__(self, app):
        super().__init__(app)
        g = self.group
        self.cursor = 0
        self.capture = None  # (card, cards taken, side) while a capture is held
        if self.compact:
            self.under = ()
            self.pile = sprites.Card(sprites.MINI, 0, CARD_Y)
            g.append(self.pile.tile)
            self.pile_n = gfx.label("small", "", INFO_X, 16)
            g.append(self.pile_n)
            self.bottom = self.stock = None  # P-5: the bottom card as text
            self.deal_n = gfx.label("small", "", INFO_X, 24)
            g.append(self.deal_n)
            self.chips = []
            for i in range(4):
                c = sprites.Card(sprites.MINI, hand_x(i), CARD_Y)
                g.append(c.tile)
                self.chips.append(c)
            self.finish()
            return
        self.under = []  # P-8: the face-down centre cards peek out under the pile
        for i in range(3):
            c = sprites.Card(sprites.TINY, 38 + 4 * i, 14 + i)
            g.append(c.tile)
            self.under.append(c)
        self.pile = sprites.Card(sprites.BIG, 50, 10)
        g.append(self.pile.tile)
        self.pile_n = gfx.label("small", "", 71, 11)
        g.append(self.pile_n)
        self.bottom = sprites.Card(sprites.MED, 98, 12)
        g.append(self.bottom.tile)
        self.stock = sprites.Card(sprites.MED, 85, 12)
        g.append(self.stock.tile)
        self.deal = 0  # the deal number shown ("Deal 1/6")
        self.deal_n = gfx.label("small", "", 99, 32, anchor=(0.5, 0.0))
        g.append(self.deal_n)
        self.chips = []
        for x in _CHIP_X:
            c = sprites.Card(sprites.CHIP, x, 49)
            g.append(c.tile)
            self.chips.append(c)
        self.finish()

    # -- drawing -------------------------------------------------------------------
    def sync(self, first=False):
        h = self.hand
        s = self.s
        for seat in range(1, s.players):
            self.badges[seat].set(h.hn[seat], h.turn == seat)
        pile = h.pile
        if self.capture is not None:
            self.pile.show(self.capture[0])
            self.pile.select(True)
            self.pile_n.text = "+%d" % self.capture[1]
        else:
            self.pile.select(False)
            self.pile.show(pile[-1] if pile else sprites.EMPTY)
            self.pile_n.text = ("\u00d7%d" % len(pile)) if len(pile) > 1 else ""
        for i in range(len(self.under)):
            self.under[i].show(sprites.BACK if i < h.hidden else sprites.NONE)
        self.app.dirty = True
        if first:  # the scores, the message line, the stock, the deal and this seat's cards at the next tick
            self.rest = True
            return
        m = s.match
        self.score_l.text = "%s %d" % (bar_name(s, 0), m.totals[0])
        self.score_r.text = "%s %d" % (bar_name(s, 1), m.totals[1])
        mine = self.my_turn()
        if not self.flash:
            if h.over:
                self.set_msg(t("hand_over"))
            elif mine:
                self.set_msg(t("help_pisti_link") if self.play.link is not None else t("help_pisti"))  # (B: leave)
            else:
                self.set_msg(t("waiting") % self.who(h.turn))
        if self.stock is None:  # 32 px: the bottom card while the stock lasts
            self.deal_n.text = card_text(h.deck[51]) if h.stock else ""
        else:
            if _CHECKING:
                assert self.bottom  # made with the stock
            per = 4 * s.players
            if h.stock:
                self.stock.show(sprites.BACK, h.stock)
                self.bottom.show(h.deck[51])  # P-5: the bottom card is shown to all
            else:
                self.stock.show(sprites.NONE)
                self.bottom.show(sprites.NONE)
            deal = (52 - h.stock - 4) // per  # P-10: deal n of 6 (2 players) or 3
            if deal != self.deal:
                self.deal = deal
                self.deal_n.text = t("deal_n") % (deal, 48 // per)
        cards = h.hand(0)
        if self.cursor >= len(cards):
            self.cursor = max(0, len(cards) - 1)
        for i in range(4):
            c = self.chips[i]
            c.show(cards[i] if i < len(cards) else sprites.NONE)
            c.select(mine and i == self.cursor)

    # -- playing -------------------------------------------------------------------
    def act(self, seat, c):
        h = self.hand
        # The other console's play (L-4): the play first, the rest (a toast
        # too) a tick later.
        self.rest = seat != 0 and self.play.link is not None
        side = seat & 1
        before = len(h.pile)
        pis = h.pistis[side]
        jpis = h.jpistis[side]
        h.apply(c)
        snd = self.app.sound
        if before and not h.pile:  # P-7 capture
            self.capture = (c, before + 1, side)
            name = side_name(self.s, side)
            text = t("took") % (self.who(seat), card_text(c), before + 1)
            if h.jpistis[side] > jpis:  # P-9
                self.pop_toast(t("jack_pisti"), self.app.delay() * 2, True)
                snd.play("jack_pisti", self.now)
                text = "%s: %s +20" % (name, t("pisti_bang"))
            elif h.pistis[side] > pis:
                self.pop_toast(t("pisti_bang"), self.app.delay() * 2, True)
                snd.play("pisti", self.now)
                text = "%s: %s +10" % (name, t("pisti_bang"))
            else:
                snd.play("capture" if side == 0 else "capture_them", self.now)
            self.say(text)
        else:
            self.capture = None
            self.say("%s: %s" % (self.who(seat), card_text(c)))
        self.hold(self.app.delay())
        self.sync(self.rest)

    def after_hold(self):
        self.capture = None

    def resume(self):
        self.deal = 0  # its label again, maybe in another language
        super().resume()

    def key(self, code):
        h = self.hand
        n = len(h.hand(0))
        if code == K.LEFT or code == K.RIGHT:
            if n:
                self.cursor = (self.cursor + (1 if code == K.RIGHT else -1)) % n
                self.sync()
        elif code == K.OK:
            if self.my_turn():
                self.flash = ""
                self.flash_until = None
                self.decide(h.hand(0)[self.cursor])
            elif not h.over:
                self.say(t("not_your_turn"))
                self.app.sound.play("error", self.now)
        else:
            super().key(code)
