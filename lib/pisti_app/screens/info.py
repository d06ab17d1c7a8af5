# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.info`
========================

Text screens: paged, word-wrapped text in the small font (rules, About,
Rankings, the scores of the game in play): seven lines under the title bar,
three on a 32-px display. UP/DOWN scroll a line (on past a page's end to
the next page), LEFT/RIGHT turn the page, B goes back. With more than one
page the title bar counts them ("2/7") and its arrows say where scrolling
still leads (another line or another page). On 64 px the last line says
which keys to use: ``help_pages`` with pages to turn, else ``help_page``
(About, Rankings, Scores: scroll and back; three buttons: A/C).
"""

import gc
import os
import sys

from pisti_app.screens import gfx
from pisti_app import keys as K
from pisti_app.screens.screen import Screen
from pisti_app.texts.strings import t
from pisti_app.util import const, release
from pisti_app.texts.wrap import wrap

_LINES = const(7)
_C_LINES = const(3)  # 32-px layout


class TextPages(Screen):
    """Pages of (title, text); ``source()`` rebuilds them (language change)."""

    def __init__(self, app, name, source):
        super().__init__(app)
        self.name = name
        self.source = source
        g = self.group
        self.title, self.mark = gfx.title_bar(g)
        self.rows = []
        self.nlines = _C_LINES if self.compact else _LINES
        for i in range(self.nlines):
            lbl = gfx.label("small", "", 0, 8 + 8 * i)
            g.append(lbl)
            self.rows.append(lbl)
        self.page = 0
        self.top = 0
        self.timer_text = ""  # T-3: the move timer, before the page marks
        self.load()

    def load(self):
        """(Re)build the wrapped pages from the source."""
        self.pages = [(title, wrap(text)) for title, text in self.source()]
        self.page = min(self.page, len(self.pages) - 1)
        self.draw()

    def shown(self):
        """Text lines a page shows (on 64 px the last row is the key help)."""
        return self.nlines if self.compact else self.nlines - 1

    def draw(self):
        """Show the current page from line ``top``."""
        title, lines = self.pages[self.page]
        n = self.shown()
        pages = len(self.pages)
        self.top = max(0, min(self.top, len(lines) - n))
        _set(self.title, title)
        more = self.timer_text + " " if self.timer_text else ""
        if self.top > 0 or self.page > 0:
            more += "\u25b2"
        if self.top + n < len(lines) or self.page + 1 < pages:
            more += "\u25bc"
        if pages > 1:
            more += " %d/%d" % (self.page + 1, pages)
        _set(self.mark, more)
        for i in range(n):
            k = self.top + i
            _set(self.rows[i], lines[k] if k < len(lines) else "")
        if n < self.nlines:
            _set(self.rows[n], t("help_pages" if pages > 1 else "help_page"))
        self.app.dirty = True

    def key(self, code):
        lines = self.pages[self.page][1]
        if code == K.DOWN:
            if self.top + self.shown() < len(lines):
                self.top += 1
            elif self.page + 1 < len(self.pages):
                self.page += 1
                self.top = 0
            self.draw()
        elif code == K.UP:
            if self.top > 0:
                self.top -= 1
            elif self.page > 0:
                self.page -= 1
                self.top = 99
            self.draw()
        elif code == K.RIGHT or code == K.LEFT:
            self.page = (self.page + (1 if code == K.RIGHT else -1)) % len(self.pages)
            self.top = 0
            self.draw()
        elif code in (K.OK, K.BACK, K.MENU):
            self.app.pop()

    def resume(self):
        self.load()

    def show_timer(self, text, inverted):
        if text != self.timer_text:
            self.timer_text = text
            self.draw()

    NEEDS = "texts.rules_en texts.rules_tr"  # the rules' pages it may load, released when it closes

    def close(self):
        release(self)

    def status(self, st):
        st["page"] = self.page
        st["pages"] = len(self.pages)
        st["title"] = self.pages[self.page][0]
        st["lines"] = [r.text for r in self.rows[:self.shown()]]
        st["footer"] = self.rows[-1].text if self.shown() < self.nlines else None


def _set(lbl, text):
    if lbl.text != text:
        lbl.text = text


def rules_pages(app, which):
    """The rules of 'pisti' or 'yedili', or the button guide ('buttons')."""

    def source():
        from pisti_app.texts import strings
        mod = strings.rules_module()
        if which == "buttons":
            return mod.BUTTONS_3 if app.input.three else mod.BUTTONS_6
        if which == "pisti":
            return mod.PISTI
        return mod.YEDILI_3 if app.input.three else mod.YEDILI

    return TextPages(app, "rules", source)


def About(app):
    """The About screen: version, free memory, platform, display, buttons."""
    from pisti_app.util import __version__

    def source():
        gc.collect()
        free = getattr(gc, "mem_free", None)
        mem = ("%d B" % free()) if free is not None else "-"
        impl = sys.implementation
        ver = ".".join([str(v) for v in impl.version[:3]])
        try:
            machine = os.uname().machine
        except (AttributeError, OSError):
            machine = sys.platform
        text = "%s %s\n%s: %s\n%s %s\n%s\n%s: %dx%d\n%s: %s" % (
            t("app_title"), __version__, t("free_mem"), mem, impl.name, ver, machine,
            t("display"), app.width, app.height, t("buttons"), " ".join(app.hw.key_names))
        return ((t("about"), text),)

    return TextPages(app, "about", source)


def Rankings(app):
    """T-2: per game, player count and bot level the rated matches played,
    won, drawn, lost and the ranking points (kept in nvm); then a page a
    game of statistics (:mod:`pisti_app.screens.stats_page`)."""

    def source():
        from pisti_app.screens import stats_page
        out = stats_page.pages(app)  # the statistics pages beside it
        app.forget("pisti_app.screens.stats_page")
        rows = app.rankings.as_dict()
        if not rows:
            return [(t("rankings"), t("no_rankings"))] + out
        lines = []
        head = False
        for person in (False, True):  # L-10: the link games' table comes after the bots'
            for key in sorted(rows):
                game, players, level = key.split(":")
                if (level == "person") != person:
                    continue
                if person and not head:
                    head = True
                    lines.append(t("rank_person"))
                r = rows[key]
                lines.append("%s %s %s" % (t(game), players, t("lv_" + level)))
                lines.append(t("rank_row") % r)  # (named fields: each language its own order)
        return [(t("rankings"), "\n".join(lines))] + out

    return TextPages(app, "rankings", source)


def Scores(app):
    """The totals of the match in play, from the game menu; in Pişti also
    the hand in play: cards taken and piştis per side (P-9, P-12: most
    cards 3 points), what everyone has seen (T-5: no points, which would
    tell the value of the hidden centre cards)."""

    def source():
        s = app.session
        m = s.match
        lines = [t("hand_n") % s.hand_no + "  " + t("target_n") % m.target]
        from pisti_app.texts.names import side_name
        for i in range(m.sides):
            lines.append("%s: %d" % (side_name(s, i), m.totals[i]))
        h = m.hand
        if s.game == "pisti" and h is not None:
            lines.append(t("this_hand"))
            for i in range(2):
                line = t("hand_cards") % (side_name(s, i), _count(h.cards[i], "w_card"),
                                          _count(h.pistis[i], "w_pisti"))
                if h.jpistis[i]:
                    line += ", " + _count(h.jpistis[i], "w_jpisti")
                lines.append(line)
        return ((t("scores"), "\n".join(lines)),)

    return TextPages(app, "scores", source)


def _count(n, key):
    """'1 card', '2 cards' ('plural_s' is empty in Turkish, which keeps the
    singular after a number: '2 kart')."""
    return "%d %s%s" % (n, t(key), t("plural_s") if n != 1 else "")
