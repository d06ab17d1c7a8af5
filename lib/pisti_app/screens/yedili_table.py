# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.yedili_table`
================================

The Pis Yedili table (Y-1 .. Y-15) at 128x64: the top card, the suit named
after a Jack, the pending draw after sevens, the stock, each opponent's
count (inverted with '!' at one card), a message line, and the person's
hand sorted by suit, eight cards at a time with arrows when there are
more (and, right of the stock, how many cards the hand holds: "17▶");
cards drawn since the person's last play are marked (a filled
bottom-right corner). UP focuses the Draw / Pass button (also reached past
the last card), offered only when legal (no Draw beside a card to play in
the opening or after an Ace, Y-3, Y-9), a Jack opens the suit picker, and
after a hand with a winner the person picks Muamele cards from a face-down
row (Y-15). A card that cannot be played says why; an Ace, a ten that turns
the play back and a twin say their effect after the card (Y-8 to Y-10).

At 128x32 (``compact``) four cards of the hand show at a time::

    You 12  7  5!  30         Hand 3    score, opponents' counts, timer
    message line (or the Draw / Pass button, inverted, when focused)
    [7♥] +4  ◀[2♥][5♥][9♥][K♥]▶       top card, pending draw or named
         ▯40                            suit, stock, the hand
"""

from pisti_core.cards import RANK
from pisti_core.yedili import DRAW, DRAWN, JACK_BASE, MUAMELE, NORMAL, OPENING, OVER, PASS, PICK

from pisti_app.screens import gfx
from pisti_app.screens import sprites
from pisti_app import keys as K
from pisti_app.texts.names import bar_name
from pisti_app.texts.strings import t
from pisti_app.screens.table import TableBase
from pisti_app.util import const
from pisti_app.screens.yedili_parts import (SuitPicker, best_suit, hint, play_text, sort_key, why_not)

_SLOTS = const(8)
_X0 = const(5)
_PITCH = const(15)
_HAND_Y = const(44)
_JACK = const(10)


class YediliTable(TableBase):
    """The Pis Yedili table screen."""

    MSG_Y = 35  # descenders a row above the hand's cards (y 44)
    BADGE_Y = 14
    TOAST_H = 33  # over the whole top card and the message line

    def __init__(self, app):
        super().__init__(app)
        g = self.group
        if self.compact:  # (32 px: the layout's code in a module of its own, loaded for this only)
            from pisti_app.screens.yedili_compact import compact_parts
            compact_parts(self, g)
            app.forget("pisti_app.screens.yedili_compact")
        else:
            self.pending = gfx.label("medium", "", 46, 12, anchor=(1.0, 0.0), inverse=True, pad=1)
            g.append(self.pending)
            self.top = sprites.Card(sprites.BIG, 50, 10)
            g.append(self.top.tile)
            self.named = gfx.label("medium", "", 71, 11)
            g.append(self.named)
            self.stock = sprites.Card(sprites.MED, 92, 12)
            g.append(self.stock.tile)
            self.stock_n = None
            self.action = gfx.label("small", "", 0, 26)
            g.append(self.action)
            self.slots = _SLOTS
            self.cards = []
            for i in range(_SLOTS):
                c = sprites.Card(sprites.MED, _X0 + i * _PITCH, _HAND_Y)
                g.append(c.tile)
                self.cards.append(c)
            self.larrow = gfx.label("small", "", 0, 50)
            self.rarrow = gfx.label("small", "", 123, 50)
        self.held = None  # 64 px: the count of a hand past 8 cards, made when first needed
        self.action_inv = False
        g.append(self.larrow)
        g.append(self.rarrow)
        self.picker = SuitPicker(g, self.compact)
        self.focus = "hand"  # hand, action, suit or pick
        self.cursor = 0
        self.first = 0
        self.suit = 0
        self.shown = None  # a Muamele card on show in the top card's place
        self.base = self.hand.hn[0]  # cards held at the person's last play: the rest are new
        self.finish()

    # -- helpers -----------------------------------------------------------------
    def my_cards(self):
        """The person's cards in display order."""
        return sorted(self.hand.hand(0), key=sort_key)

    def action_text(self):
        """The Draw / Pass button's text for the phase, or ''."""
        h = self.hand
        if not self.my_turn() or h.phase == MUAMELE:
            return ""
        if h.phase == DRAWN:
            return t("pass")
        if h.phase != NORMAL and DRAW not in h.legal():  # Y-3, Y-9: only without a card
            return ""
        if h.pending:
            return t("draw_n") % h.pending
        return t("draw")

    def fresh(self):
        """The person's cards drawn since their last play (marked, Y-5, Y-6, Y-9)."""
        return self.hand.hand(0)[self.base:]

    def row_len(self):
        """Entries in the cursor row (cards or Muamele positions)."""
        return self.hand.stock if self.focus == "pick" else len(self.hand.hand(0))

    # -- drawing -----------------------------------------------------------------
    def sync(self, first=False):
        h = self.hand
        s = self.s
        m = s.match
        mine = self.my_turn()
        if mine and h.phase == MUAMELE:
            if self.focus != "pick":
                self.focus = "pick"
                self.cursor = 0
        elif self.focus == "pick" or (not mine and self.focus in ("action", "suit")):
            self.focus = "hand"
            self.cursor = 0
        if self.focus != "suit":
            self.picker.hide()
        else:
            self.picker.show(self.suit)
        for seat in range(1, s.players):
            n = h.hn[seat]
            self.badges[seat].set(n, h.turn == seat, n == 1 and h.phase != OPENING)
        if self.shown is not None:
            self.top.show(self.shown)
            self.top.select(True)
        else:
            self.top.select(False)
            self.top.show(h.top if h.top >= 0 else sprites.EMPTY)
        named = h.named >= 0 and self.shown is None and not (self.compact and h.pending)
        _set(self.named, ("\u2192" + sprites.SUIT_TEXT[h.named]) if named else "")
        _set(self.pending, ("+%d" % h.pending) if h.pending else "")
        self.app.dirty = True
        if first:  # the scores, the message line, the stock, the action button and this seat's row at the next tick
            self.rest = True
            return
        self.score_l.text = "%s %d" % (bar_name(self.s, 0), m.totals[0])
        self.score_r.text = t("hand_n") % s.hand_no
        act = self.action_text()
        if not act and self.focus == "action":
            self.focus = "hand"
        if not self.flash:
            self.set_msg(hint(h, self.focus, mine, self.who(h.turn)))
        if self.stock_n is not None:  # 32 px: a small back and the number
            self.stock.show(sprites.BACK if h.stock else sprites.EMPTY)
            _set(self.stock_n, str(h.stock))
        elif h.stock:
            self.stock.show(sprites.BACK, h.stock)
        else:
            self.stock.show(sprites.EMPTY)
        inv = self.focus == "action"
        if self.compact:  # the button takes the message line while focused
            _set(self.action, (" " + act + " ") if inv else "")
            self.msg.hidden = inv
        else:
            up = "" if self.app.input.three else "\u25b2"  # no UP key on three buttons
            _set(self.action, (" " + act + " ") if inv else ((up + act) if act else ""))
        if inv != self.action_inv:
            self.action_inv = inv
            self.action.background_color = gfx.WHITE if inv else None
            self.action.color = gfx.BLACK if inv else gfx.WHITE
        self.draw_row()

    def draw_row(self):
        """The hand (or the Muamele row) with the cursor kept in view."""
        n = self.row_len()
        slots = self.slots
        if self.cursor >= n:
            self.cursor = max(0, n - 1)
        if self.cursor < self.first:
            self.first = self.cursor
        elif self.cursor >= self.first + slots:
            self.first = self.cursor - slots + 1
        self.first = max(0, min(self.first, n - slots))
        pick = self.focus == "pick"
        cards = () if pick else self.my_cards()
        fresh = self.fresh()
        show_cursor = self.my_turn() and self.focus in ("hand", "pick", "suit")
        for i in range(slots):
            k = self.first + i
            spr = self.cards[i]
            if k < n:
                spr.show(sprites.BACK if pick else cards[k], 1 if not pick and cards[k] in fresh else None)
            else:
                spr.show(sprites.NONE)
            spr.select(show_cursor and k == self.cursor and k < n)
        more = self.first + slots < n
        _set(self.larrow, "\u25c0" if self.first > 0 else "")
        _set(self.rarrow, "\u25b6" if more else "")
        text = "" if pick or n <= slots or self.compact else ("%d\u25b6" % n if more else "%d" % n)
        if text or self.held is not None:  # 64 px: how many cards, when they do not all show
            self.show_held(text)

    def show_held(self, text):
        """64 px: ``text`` right of the stock (how many cards the hand holds);
        its label is made the first time, under the suit picker."""
        lbl = self.held
        if lbl is None:
            lbl = self.held = gfx.label("small", "", 127, 26, anchor=(1.0, 0.0))
            p = self.picker
            self.group.insert(p.at, lbl)
            p.at += 1
        _set(lbl, text)

    refused = None  # the text of the toast that explains a refused key, while it shows

    def key(self, code):
        # it goes with the next key, not at a moment of its own (a play then is not held up: L-4)
        if self.refused is not None:
            if self.toast.text == self.refused and self.toast_until is not None:
                self.toast_until = self.now  # (its time is up: this tick's TableBase.tick closes it)
            self.refused = None
        f = self.focus
        if f == "suit":
            if code == K.LEFT or code == K.RIGHT:
                self.suit = (self.suit + (1 if code == K.RIGHT else -1)) % 4
                self.picker.show(self.suit)
                self.app.dirty = True
            elif code == K.OK:
                jack = self.my_cards()[self.cursor] % 52
                self.focus = "hand"
                self.decide(JACK_BASE + (jack & 3) * 4 + self.suit)
            elif code == K.BACK:
                self.focus = "hand"
                self.sync()
            elif code == K.MENU:
                super().key(code)
            return
        has_action = bool(self.action_text())
        n = self.row_len()
        if code == K.LEFT or code == K.RIGHT:
            step = 1 if code == K.RIGHT else -1
            if f == "action":
                self.focus = "hand"
                self.cursor = 0 if step > 0 else n - 1
            elif has_action and f == "hand" and (self.cursor + step >= n or self.cursor + step < 0):
                self.focus = "action"  # the button sits past either end of the hand
            elif n:
                self.cursor = (self.cursor + step) % n
            self.sync()
        elif code == K.UP and f == "hand" and has_action:
            self.focus = "action"
            self.sync()
        elif code == K.DOWN and f == "action":
            self.focus = "hand"
            self.sync()
        elif code == K.OK:
            self.ok()
        elif code == K.BACK and f == "action":
            self.focus = "hand"
            self.sync()
        elif code in (K.MENU, K.BACK):
            super().key(code)

    def ok(self):
        h = self.hand
        if not self.my_turn():
            if not h.over:
                self.why(t("not_your_turn"))
            return
        legal = h.legal()
        if self.focus == "pick":
            self.decide(PICK + self.cursor)
        elif self.focus == "action":
            a = PASS if h.phase == DRAWN else DRAW
            if a in legal:  # (offered only then: action_text)
                self.decide(a)
        else:
            cards = self.my_cards()
            if not cards:
                return
            c = cards[self.cursor] % 52
            if RANK[c] == _JACK and JACK_BASE + (c & 3) * 4 in legal:
                self.focus = "suit"
                self.suit = best_suit(h.hand(0))
                self.flash = ""
                self.flash_until = None
                self.sync()
            elif c in legal:
                self.decide(c)
            else:
                self.why(why_not(h))

    def why(self, text):
        """Explain a refused key: a toast for a moment and a low beep."""
        self.message = text
        self.pop_toast(text, 2000)
        self.refused = text
        self.app.sound.play("error", self.now)

    # -- applying actions --------------------------------------------------------
    def act(self, seat, a):
        h = self.hand
        # The other console's play (L-4): the play first, the rest (a toast
        # too) a tick later.
        self.rest = seat != 0 and self.play.link is not None
        ph = h.phase
        before = bytes(h.hn)
        h.apply(a)
        who = self.who(seat)
        snd = self.app.sound
        now = self.now
        self.shown = None
        if ph == MUAMELE:
            self.shown = h.muamele[seat][-1]
        elif seat == 0 and a < DRAW:  # a card played: no card is new any more
            self.base = h.hn[0]
        elif a == DRAW and seat == 0 and h.hn[0] > before[0]:
            mine = self.my_cards()
            new = h.hand(0)[h.hn[0] - 1]  # the last card drawn gets the cursor
            for i in range(len(mine)):
                if mine[i] == new:
                    self.cursor = i
            self.focus = "hand"
        self.say(play_text(h, ph, seat, a, who, before, seat == 0 and not self.s.demo))
        if ph != MUAMELE and h.phase in (MUAMELE, OVER):
            if h.winner < 0:
                self.pop_toast(t("stock_out"), self.app.delay() * 2)
            elif h.winner == 0 and not self.s.demo:
                self.pop_toast(t("you_out"), self.app.delay() * 2, True)
                snd.play("win", now)
            else:
                self.pop_toast(t("went_out") % self.who(h.winner)
                               + ("\n\u00d7%d" % h.mult if h.mult > 1 else ""), self.app.delay() * 2)
                snd.play("lose", now)
        elif ph != MUAMELE:
            for s in range(1, self.s.players):
                if h.hn[s] == 1 and before[s] != 1 and h.phase != OPENING:
                    snd.play("warn", now)
                    self.say(t("one_card") % self.who(s))
            if h.pending and h.turn == 0 and self.play.seats[0] is None:
                snd.play("warn", now)
        self.hold(self.app.delay())
        self.sync(self.rest)

    def after_hold(self):
        self.shown = None


def _set(lbl, text):
    if lbl.text != text:
        lbl.text = text
