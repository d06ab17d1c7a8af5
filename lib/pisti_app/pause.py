# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.pause`
=================

The game menu over a table ("Menu", not "Paused": a rated game's move timer
runs on and shows in its top bar, T-3): Resume, Undo (practice, when on,
T-1), Scores, Rules, Settings, Leave (T-4). A module of its own, far smaller
than :mod:`pisti_app.menus` (loaded only if Rules or Settings is chosen):
in a link game the heap at the table has little room to compile more.
"""

from pisti_app.menu import Item, ListMenu
from pisti_app.strings import t


class Pause:
    """What choosing in the game menu does (the :class:`ListMenu` owner)."""

    def __init__(self, app):
        self.app = app

    def menu(self):
        """The game menu, a :class:`ListMenu`."""
        return ListMenu(self.app, "pause", self._title(), self._items(), self)

    def _title(self):
        s = self.app.session
        if s is None:
            return t("game_menu")
        return "%s  %s" % (t("game_menu"), "-".join([str(v) for v in s.match.totals]))

    def _items(self):
        app = self.app
        s = app.session
        rated = s is not None and s.rated
        items = [Item("resume", t("resume"))]
        if not rated and app.prefs["undo"]:  # T-1: undo in practice, when on
            items.append(Item("undo", t("undo")))
        items += [Item("scores", t("scores")), Item("rules", t("rules")),
                  Item("settings", t("settings")),
                  Item("leave", t("leave_table") if rated else t("leave"))]
        return items

    def menu_select(self, menu, it):
        """A row chosen."""
        app = self.app
        k = it.key
        if k == "resume":
            app.pop()
        elif k == "rules":
            app.push(app.menus.rules())
        elif k == "settings":
            app.push(app.menus.settings())
        elif k == "scores":
            from pisti_app import info
            app.push(info.Scores(app))
        elif k == "leave":
            app.leave_game()
        elif k == "undo":
            if not app.undo():
                app.pop()
                app.screen.say(t("nothing_to_undo"), 1500)

    def menu_confirm(self, menu):
        """(No value rows here.)"""
        self.app.pop()

    def menu_change(self, menu, it):
        """(No value rows here.)"""

    def menu_back(self, menu):
        """BACK: the table again."""
        self.app.pop()

    def menu_refresh(self, menu):
        """Shown again (maybe in another language, after Settings)."""
        menu.set(self._title(), self._items())
