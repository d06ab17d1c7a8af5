# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.menus`
=================

The contents of the list menus and what choosing in them does: the main
menu, new game, settings, the pause menu and the rules index.
"""

from pisti_app.menu import Item, ListMenu
from pisti_app.strings import t

LEVELS = ("acemi", "kalfa", "usta")
SPEEDS = (1200, 800, 450, 150)  # ms a bot's play stays before the next step
GAMES = ("pisti", "yedili")


def level_names():
    """Level names in the current language, in LEVELS order."""
    return (t("lv_acemi"), t("lv_kalfa"), t("lv_usta"))


class Menus:
    """Builds the menus and answers them (the ListMenu owner)."""

    def __init__(self, app):
        self.app = app

    # -- builders ----------------------------------------------------------------
    def main(self):
        """The main menu screen."""
        return ListMenu(self.app, "menu", t("app_title"), self._main_items(), self)

    def _main_items(self):
        items = []
        if self.app.saved is not None:
            items.append(Item("continue", t("continue")))
        for k in ("new_game", "rankings", "settings", "rules", "about"):
            items.append(Item(k, t(k)))
        return items

    def new_game(self):
        """The new game screen."""
        return ListMenu(self.app, "new_game", t("new_game"), self._new_items(), self,
                        "help_values")

    def _new_items(self):
        p = self.app.prefs
        game = p["game"]
        counts = (2, 4) if game == "pisti" else (2, 3, 4)
        if p["players"] not in counts:
            p["players"] = 2
        items = [Item("game", t("game"), (t("pisti"), t("yedili")), GAMES.index(game)),
                 Item("players", t("players"), tuple([str(n) for n in counts]),
                      counts.index(p["players"]))]
        if game == "pisti":
            items.append(Item("target", t("target"), ("101", "151"), 0 if p["target"] == 101 else 1))
        names = level_names()
        seats = p["seats"]
        if p["players"] == 2:
            items.append(Item("level", t("bot_level"), names, LEVELS.index(seats[0])))
        else:
            for i in range(p["players"] - 1):
                items.append(Item("seat%d" % (i + 1), t("bot_n") % (i + 1), names,
                                  LEVELS.index(seats[i])))
        items.append(Item("start", t("start")))
        return items

    def settings(self):
        """The settings screen."""
        return ListMenu(self.app, "settings", t("settings"), self._settings_items(), self,
                        "help_values")

    def _settings_items(self):
        p = self.app.prefs
        return [Item("lang", t("language"), ("English", "Türkçe"), 0 if p["lang"] == "en" else 1),
                Item("sound", t("sound"), (t("off"), t("on")), 1 if p["sound"] else 0),
                Item("speed", t("bot_speed"), (t("sp_slow"), t("sp_normal"), t("sp_fast"),
                                               t("sp_vfast")), p["speed"])]

    def pause(self):
        """The pause menu over a table."""
        return ListMenu(self.app, "pause", self._pause_title(), self._pause_items(), self)

    def _pause_title(self):
        s = self.app.session
        if s is None:
            return t("paused")
        tot = s.match.totals
        return "%s  %s" % (t("paused"), "-".join([str(v) for v in tot]))

    def _pause_items(self):
        return [Item("resume", t("resume")), Item("scores", t("scores")),
                Item("rules", t("rules")), Item("settings", t("settings")),
                Item("leave", t("leave"))]

    def rules(self):
        """The rules index."""
        return ListMenu(self.app, "rules", t("rules"),
                        [Item("pisti", t("pisti")), Item("yedili", t("yedili")),
                         Item("buttons", t("buttons"))], self)

    # -- answers -----------------------------------------------------------------
    def menu_select(self, menu, it):
        """OK on a row without values."""
        app = self.app
        n = menu.name
        k = it.key
        if n == "menu":
            if k == "continue":
                app.continue_game()
            elif k == "new_game":
                app.push(self.new_game())
            elif k == "settings":
                app.push(self.settings())
            elif k == "rules":
                app.push(self.rules())
            else:
                from pisti_app import info
                app.push(info.Rankings(app) if k == "rankings" else info.About(app))
        elif n == "new_game" and k == "start":
            p = app.prefs
            levels = [None] + [p["seats"][i] for i in range(p["players"] - 1)]
            app.start_game(p["game"], p["players"], levels,
                           p["target"] if p["game"] == "pisti" else None)
        elif n == "pause":
            if k == "resume":
                app.pop()
            elif k == "rules":
                app.push(self.rules())
            elif k == "settings":
                app.push(self.settings())
            elif k == "scores":
                from pisti_app import info
                app.push(info.Scores(app))
            elif k == "leave":
                app.leave_game()
        elif n == "rules":
            from pisti_app import info
            app.push(info.rules_pages(app, k))

    def menu_change(self, menu, it):
        """A value row changed."""
        app = self.app
        p = app.prefs
        k = it.key
        if menu.name == "new_game":
            if k == "game":
                p["game"] = GAMES[it.index]
            elif k == "players":
                p["players"] = int(it.value)
            elif k == "target":
                p["target"] = 101 if it.index == 0 else 151
            elif k == "level":
                p["seats"] = [LEVELS[it.index]] * 3
            elif k.startswith("seat"):
                p["seats"][int(k[4:]) - 1] = LEVELS[it.index]
            if k in ("game", "players"):
                menu.set(menu.title_text, self._new_items())
        elif menu.name == "settings":
            if k == "lang":
                app.set_lang("en" if it.index == 0 else "tr")
                menu.set(t("settings"), self._settings_items())
            elif k == "sound":
                app.set_sound(it.index == 1)
            elif k == "speed":
                p["speed"] = it.index

    def menu_back(self, menu):
        """BACK (or a long press) in a menu."""
        if menu.name == "menu":
            return  # the main menu is the bottom of the stack
        self.app.pop()

    def menu_refresh(self, menu):
        """Rebuild a menu's texts (shown again, maybe in another language)."""
        n = menu.name
        if n == "menu":
            menu.set(t("app_title"), self._main_items())
        elif n == "new_game":
            menu.set(t("new_game"), self._new_items())
        elif n == "settings":
            menu.set(t("settings"), self._settings_items())
        elif n == "pause":
            menu.set(self._pause_title(), self._pause_items())
        elif n == "rules":
            menu.set(t("rules"), [Item("pisti", t("pisti")), Item("yedili", t("yedili")),
                                  Item("buttons", t("buttons"))])
