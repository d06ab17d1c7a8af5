# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.results`
===========================

The end-of-hand breakdown and the match end. Pişti: per side the cards
taken and the points for aces, jacks, 2♣, 10♦, the majority, piştis and
Jack piştis (P-12), then the hand and match totals. Pis Yedili: per seat the
hand's penalty (multiplied, Y-14), the Muamele points (Y-15) and the total,
the multiplier and the Muamele cards (:mod:`pisti_app.screens.results_pisti`,
:mod:`pisti_app.screens.results_yedili`). On a 32-px display three rows show at a
time under the title bar; UP/DOWN (A/C on three buttons) scroll, the title
bar's arrows say there is more. The match end is :mod:`pisti_app.screens.match_end`.

Both ignore the keys pressed before they came and for a moment after
(``Input.mute_for``, counted from its first frame), outside a demo: presses meant for the last plays
must not skip the result, so the next hand or a rematch is one deliberate
press.
"""

from pisti_app.screens import gfx
from pisti_app import keys as K
from pisti_app.screens.screen import Screen
from pisti_app.texts.strings import t
from pisti_app.util import const, release

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
_C_ROWS = const(3)  # 32-px layout: rows shown at once
_SEE_MS = const(700)  # keys dropped after a hand end or the match end comes


class Rows(Screen):
    """A result screen, the hand end's (:class:`HandEnd`) and the match
    end's (:class:`pisti_app.screens.match_end.MatchEnd`): a title bar and up to
    seven rows of small text in columns."""

    def __init__(self, app):
        super().__init__(app)
        if app.demo is None:  # (in a demo any key ends it at once: App.tick)
            app.input.mute_for = _SEE_MS  # keys dropped until it has been on the screen that long (App.tick)
        g = self.group
        self.title, self.title_r = gfx.title_bar(g)
        self.cells = []  # the row labels shown
        self.extra = []  # labels of their own (the match end's headline)
        self.spec = []  # every (row, x, text, right); 32 px: shown _C_ROWS rows at a time
        self.first = 0
        self.more = None
        if self.compact:
            self.more = gfx.label("small", "", 127, 0, anchor=(1.0, 0.0))
            self.more.color = gfx.BLACK
            g.append(self.more)

    def cell(self, x, row, text, right=False):
        """Text at column ``x`` (right-aligned if ``right``) of ``row`` 1..7
        (32 px: any row); :meth:`draw` shows them."""
        self.spec.append((row, x, text, right))

    def rows_total(self):
        """32 px: the number of rows in :attr:`spec`."""
        n = 0
        for sp in self.spec:
            n = max(n, sp[0])
        return n

    def draw(self):
        """Show the cells: 64 px, one text a row, each cell at the character
        column nearest its ``x`` (a label a cell cost ~330 bytes each on the
        Pico: 27 of them for a 4-player breakdown); 32 px, (re)make the
        labels of rows ``first + 1 .. first + 3``."""
        g = self.group
        for lbl in self.cells:
            g.remove(lbl)
        self.cells = []
        if not self.compact:
            rows = {}
            for row, x, text, right in self.spec:
                line = rows.get(row) or [" "] * 25  # 25 cells of 5 px
                if right:
                    at = (x + 1) // 5 - len(text)  # ending in the cell x is in
                else:
                    at = (x + 2) // 5
                for i in range(len(text)):
                    if 0 <= at + i < 25:
                        line[at + i] = text[i]
                rows[row] = line
            for row in sorted(rows):
                lbl = gfx.label("small", "".join(rows[row]).rstrip(), 0, 8 * row)
                g.append(lbl)
                self.cells.append(lbl)
            self.app.dirty = True
            return
        n = self.rows_total()
        self.first = max(0, min(self.first, n - _C_ROWS))
        for row, x, text, right in self.spec:
            k = row - 1 - self.first
            if 0 <= k < _C_ROWS and text:
                lbl = gfx.label("small", text, x, 8 + 8 * k, anchor=(1.0 if right else 0.0, 0.0))
                g.append(lbl)
                self.cells.append(lbl)
        if _CHECKING:
            assert self.more  # made for the 32-px layout, the only one here
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
        """Every text on the screen, cell by cell (for status and tests)."""
        return [self.title.text, self.title_r.text] + [c.text for c in self.extra] + [sp[2] for sp in self.spec]

    def status(self, st):
        st["texts"] = self.texts()

    def link_lost(self, text):
        # L-7: no timer here: the countdown takes the title bar's right end.
        keep = getattr(self, "_keep_r", None)
        if keep is None:
            keep = self._keep_r = self.title_r.text
        self.title_r.text = text or keep
        if not text:
            self._keep_r = None
        self.app.dirty = True


class HandEnd(Rows):
    """The breakdown of the hand that just ended; OK goes on."""

    name = "hand_end"
    NEEDS = "screens.results_pisti screens.results_yedili"  # its game's rows, released once drawn

    def __init__(self, app):
        super().__init__(app)
        s = app.session
        self.s = s
        h = s.last
        self.hand_no = s.hands_done
        self.title.text = t("hand_n") % self.hand_no
        self.title_r.text = t("ok_next")
        # The game's own rows come from a module of their own (small modules
        # compile in a small heap on the device), unloaded again at once.
        if s.game == "pisti":
            from pisti_app.screens import results_pisti as rows
        else:
            from pisti_app.screens import results_yedili as rows
        rows.fill(self, h)
        release(self)
        self.draw()
        app.dirty = True

    def key(self, code):
        if self.scroll(code):
            return
        if code == K.OK:
            self.app.play.next_hand()

    def status(self, st):
        super().status(st)
        st["hand"] = self.hand_no
