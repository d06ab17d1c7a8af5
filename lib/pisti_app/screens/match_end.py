# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.match_end`
=============================

The match end: who won, the totals, the ranking points of a rated match
(T-2) or that a practice match is not recorded (T-1), the hands played,
and the way on: OK a rematch (the same game, players, levels, target and
mode), BACK the main menu.
"""

from pisti_app.screens import gfx
from pisti_app import keys as K
from pisti_app.texts.names import side_name
from pisti_app.screens.results import Rows
from pisti_app.texts.strings import t
from pisti_app.util import release


class MatchEnd(Rows):
    """Who won the match, the totals, and the ranking points (T-2; ``points``
    None for a practice match)."""

    name = "match_end"
    NEEDS = "screens.match_end screens.results"  # released when a rematch starts

    def __init__(self, app, points):
        super().__init__(app)
        s = app.session
        m = s.match
        self.title.text = t("match_over")
        c = self.compact
        self.title_r.text = t("ok_rematch") if c else ""  # 64 px: the key line at the bottom
        win = m.winners()
        mine = 0 in win and not s.demo  # side 0 (Pişti) or seat 0: the person (a demo has none)
        if len(win) > 1:
            head = t("shared_win")
        elif mine:
            head = t("you_won")
        else:
            head = t("winner_is") % side_name(s, win[0])
        if c:
            self.cell(0, 1, head)
        else:
            big = gfx.label("medium", head, 64, 10, anchor=(0.5, 0.0))
            self.group.append(big)
            self.extra.append(big)
        row = 2 if c else 3
        two = m.sides > 2  # two a row, a dot between them; else one a row, centred
        for i in range(m.sides):  # the name, then its total right-aligned
            name = side_name(s, i)
            r = row + (i // 2 if two else i)
            x = 68 * (i % 2) if two else 34
            self.cell(x, r, name)
            self.cell(x + 57, r, str(m.totals[i]), True)
            if two and i % 2:
                self.cell(60, r, "\u00b7")
        row = 4 if c else 5
        if points is None:  # T-1: practice is never recorded
            self.cell(0, row, t("practice_end"))
        else:
            self.cell(0, row, t("rank_points") % (t(s.game), points))
        n = s.hands_done
        self.cell(0, row + 1, t("hand_played" if n == 1 else "hands_played") % n)
        self.cell(0, row + 2, t("keys_rematch"))
        self.draw()
        won = points > 0 if points is not None else mine and len(win) == 1
        app.sound.play("win" if won else "lose", app.now)
        app.dirty = True

    def key(self, code):
        if self.scroll(code):
            return
        if code == K.OK:
            self.app.later(rematch, self.app)
        elif code == K.BACK or code == K.MENU:
            self.app.play.end_match()


def rematch(app):
    """The same game again, with the same players, bot levels, target and
    mode (rated or practice, T-1): called once the match end is gone
    (``app.later``); a rated one is numbered anew (T-2 counted the last)."""
    s = app.session
    args = (s.game, s.players, list(s.levels), s.match.target, s.rated)
    app.release()
    release(MatchEnd)
    app.start_game(*args)
