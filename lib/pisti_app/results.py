# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.results`
===================

The end-of-hand breakdown and the match end. Pişti: per side the cards
taken and the points for aces, jacks, 2♣, 10♦, the majority, piştis and
Jack piştis (P-12), then the hand and match totals. Pis Yedili: per seat the
hand's penalty (multiplied, Y-14), the Muamele points (Y-15) and the total,
the multiplier and the Muamele cards. On a 32-px display three rows show at
a time under the title bar; UP/DOWN (A/C on three buttons) scroll, the
title bar's arrows say there is more.
"""

from pisti_app import gfx
from pisti_app import keys as K
from pisti_app.names import card_text, seat_name, side_name
from pisti_app.screen import Screen
from pisti_app.strings import t
from pisti_app.util import const

_C_ROWS = const(3)  # 32-px layout: rows shown at once


class _Rows(Screen):
    """A title bar and up to seven rows of small text in columns."""

    def __init__(self, app):
        super().__init__(app)
        g = self.group
        self.title, self.title_r = gfx.title_bar(g)
        self.cells = []

        self.spec = []  # 32 px: every (row, x, text, right), shown _C_ROWS rows at a time
        self.first = 0
        self.more = None
        if self.compact:
            self.more = gfx.label("small", "", 127, 0, anchor=(1.0, 0.0))
            self.more.color = gfx.BLACK
            g.append(self.more)

    def cell(self, x, row, text, right=False):
        """A label at column ``x`` (right-aligned if ``right``) of ``row`` 1..7
        (32 px: any row; :meth:`draw` shows them)."""
        if self.compact:
            self.spec.append((row, x, text, right))
            return None
        lbl = gfx.label("small", text, x, 8 * row, anchor=(1.0 if right else 0.0, 0.0))
        self.group.append(lbl)
        self.cells.append(lbl)
        return lbl

    def rows_total(self):
        """32 px: the number of rows in :attr:`spec`."""
        n = 0
        for sp in self.spec:
            n = max(n, sp[0])
        return n

    def draw(self):
        """32 px: (re)make the labels of rows ``first + 1 .. first + 3``."""
        g = self.group
        for lbl in self.cells:
            g.remove(lbl)
        self.cells = []
        n = self.rows_total()
        self.first = max(0, min(self.first, n - _C_ROWS))
        for row, x, text, right in self.spec:
            k = row - 1 - self.first
            if 0 <= k < _C_ROWS and text:
                lbl = gfx.label("small", text, x, 8 + 8 * k, anchor=(1.0 if right else 0.0, 0.0))
                g.append(lbl)
                self.cells.append(lbl)
        self.more.text = ("\u25b2" if self.first > 0 else "") + ("\u25bc" if self.first + _C_ROWS < n else "")
        ay = self.title_r.anchored_position[1]
        self.title_r.anchored_position = (127 - (11 if self.more.text else 0), ay)
        self.app.dirty = True

    def scroll(self, code):
        """32 px: UP/DOWN move the rows shown; True if ``code`` was one."""
        if self.more is None or code not in (K.UP, K.DOWN):
            return False
        self.first += 1 if code == K.DOWN else -1
        self.draw()
        return True

    def texts(self):
        """Every text on the screen (for status and tests)."""
        if self.compact:
            return [self.title.text, self.title_r.text] + [sp[2] for sp in self.spec]
        return [self.title.text, self.title_r.text] + [c.text for c in self.cells]

    def status(self, st):
        st["texts"] = self.texts()


class HandEnd(_Rows):
    """The breakdown of the hand that just ended; OK goes on."""

    name = "hand_end"

    def __init__(self, app):
        super().__init__(app)
        s = app.session
        self.s = s
        h = s.last
        self.hand_no = s.hands_done
        self.title.text = t("hand_n") % self.hand_no
        self.title_r.text = t("ok_next")
        if s.game == "pisti":
            self.pisti(h)
        else:
            self.yedili(h)
        if self.compact:
            self.draw()
        app.dirty = True

    def pisti(self, h):
        s = self.s
        r = h.result()
        m = s.match
        self.title.text = "%s: %s:%s" % (t("hand_n") % self.hand_no, side_name(s, 0), side_name(s, 1))
        left = (("cards", "cards"), ("aces", "aces"), ("jacks", "jacks"),
                ("two_clubs", "two_clubs"), ("ten_diamonds", "ten_diamonds"))
        right = (("majority", "majority"), ("pisti", "pistis"), ("jack_pisti", "jack_pistis"))
        if self.compact:  # one column: hand and match totals first, then the P-12 lines
            self.cell(0, 1, t("r_hand"))
            self.cell(127, 1, "%d:%d" % (r[0]["total"], r[1]["total"]), True)
            self.cell(0, 2, t("r_match") % m.target)
            self.cell(127, 2, "%d:%d" % (m.totals[0], m.totals[1]), True)
            both = left + right
            for i in range(len(both)):
                key, label = both[i]
                self.cell(0, i + 3, t("r_" + label))
                self.cell(127, i + 3, self.pair(r, key), True)
            return
        for i in range(len(left)):
            key, label = left[i]
            self.cell(0, i + 1, t("r_" + label))
            self.cell(62, i + 1, self.pair(r, key), True)
        for i in range(len(right)):
            key, label = right[i]
            self.cell(68, i + 1, t("r_" + label))
            self.cell(127, i + 1, self.pair(r, key), True)
        self.group.append(gfx.box(1, 38, 65, 9))  # between the two blocks
        self.cell(0, 6, t("r_hand"))
        self.cell(127, 6, "%d:%d" % (r[0]["total"], r[1]["total"]), True)
        self.cell(0, 7, t("r_match") % m.target)
        self.cell(127, 7, "%d:%d" % (m.totals[0], m.totals[1]), True)

    @staticmethod
    def pair(r, key):
        """'a:b' for one line of the P-12 breakdown (points; cards counted)."""
        mul = 10 if key == "pisti" else 20 if key == "jack_pisti" else 1
        return "%d:%d" % (r[0][key] * mul, r[1][key] * mul)

    def yedili(self, h):
        from pisti_core.yedili import VALUE
        s = self.s
        m = s.match
        if h.winner >= 0:
            head = t("r_out") % seat_name(s, h.winner)
            if h.mult > 1:
                head += " \u00d7%d" % h.mult
        else:
            head = t("stock_out")
        self.title.text = "%s: %s" % (t("hand_n") % self.hand_no, head)
        self.cell(52, 1, t("r_hand"), True)
        self.cell(78, 1, t("r_muamele"), True)
        self.cell(103, 1, "=", True)
        self.cell(127, 1, t("r_total"), True)
        pens = h.penalties()
        mu_text = []
        for seat in range(s.players):
            mu = 0
            for c in h.muamele[seat]:
                mu += VALUE[(c % 52) >> 2]
            row = seat + 2
            self.cell(0, row, seat_name(s, seat))
            self.cell(52, row, str(pens[seat] - mu), True)
            self.cell(78, row, str(mu) if h.muamele[seat] else "-", True)
            self.cell(103, row, str(pens[seat]), True)
            self.cell(127, row, str(m.totals[seat]), True)
            if h.muamele[seat]:
                mu_text.append("%s %s" % (seat_name(s, seat),
                                          " ".join([card_text(c) for c in h.muamele[seat]])))
        row = s.players + 2
        if mu_text:
            from pisti_app.info import wrap
            for line in wrap(t("muamele") + ": " + ", ".join(mu_text)):
                if row > 7 and not self.compact:
                    break
                self.cell(0, row, line)
                row += 1

    def key(self, code):
        if self.scroll(code):
            return
        if code == K.OK:
            self.app.next_hand()

    def status(self, st):
        super().status(st)
        st["hand"] = self.hand_no


class MatchEnd(_Rows):
    """Who won the match, the totals, and the ranking points (T-2; ``points``
    None for a practice match)."""

    name = "match_end"

    def __init__(self, app, points):
        super().__init__(app)
        s = app.session
        m = s.match
        self.title.text = t("match_over")
        self.title_r.text = t("ok_menu")
        win = m.winners()
        mine = 0 in win  # side 0 (Pişti) or seat 0: the person
        if len(win) > 1 or (s.game == "pisti" and m.totals[0] == m.totals[1]):
            head = t("shared_win")
        elif mine:
            head = t("you_won")
        else:
            head = t("winner_is") % (side_name(s, win[0]) if s.game == "pisti" else seat_name(s, win[0]))
        c = self.compact
        if c:
            self.cell(0, 1, head)
        else:
            big = gfx.label("medium", head, 64, 10, anchor=(0.5, 0.0))
            self.group.append(big)
            self.cells.append(big)
        row = 2 if c else 3
        for i in range(m.sides):
            name = side_name(s, i) if s.game == "pisti" else seat_name(s, i)
            x = 0 if i % 2 == 0 else 66
            self.cell(x, row + i // 2, name)
            self.cell(x + 60, row + i // 2, str(m.totals[i]), True)
        row = row + (m.sides + 1) // 2 if c else 6
        if points is None:  # T-1: practice is never recorded
            self.cell(0, row, t("practice_end"))
        else:
            self.cell(0, row, t("rank_points") % (t(s.game), points))
        self.cell(0, row + 1, t("hands_played") % s.hands_done)
        if c:
            self.draw()
        won = points > 0 if points is not None else mine and len(win) == 1
        app.sound.play("win" if won else "lose", app.now)
        app.dirty = True

    def key(self, code):
        if self.scroll(code):
            return
        if code == K.OK or code == K.BACK:
            self.app.end_match()
