# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.menus`
=========================

The contents of the list menus and what choosing in them does: the main
menu, new game (rated or practice, T-1), Link play's Host screen (the new
game rows for a link game, L-2), settings (move timer T-3, undo,
brightness, screen sleep: see ``App.wake``),
the pause menu (undo in practice, leaving T-4) and the rules index.
A value changes with LEFT/RIGHT at once; OK confirms: Settings keep and go
back, New game starts (from any row), Host offers; BACK leaves. Settings are saved to
nvm when their menu closes (only if they changed).
"""

from pisti_core import GAMES, PLAYERS, TARGETS, TEAMS

from pisti_app.screens.menu import Item, ListMenu
from pisti_app.texts.strings import t

LEVELS = ("acemi", "kalfa", "usta")
TIMERS = (30, 45, 60, 90, 120, 180, 240, 300)  # T-3 choices (PISTI_TIMER may set another)


def timer_choices(now):
    """The move timer values offered, ``now`` among them."""
    if now in TIMERS:
        return TIMERS
    return tuple(sorted(TIMERS + (now,)))


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
        return ListMenu(self.app, "menu", t("app_title"), self._main_items(), self, "help_main")

    def _main_items(self):
        items = []
        if self.app.kept is not None:
            items.append(Item("continue", t("continue")))
        for k in ("new_game", "rankings", "settings", "rules", "about", "link_play", "watch"):
            items.append(Item(k, t(k)))
        return items

    def new_game(self):
        """The new game screen."""
        return ListMenu(self.app, "new_game", t("new_game"), self._new_items(), self, "help_new")

    def host(self):
        """Link play's Host screen: the game it offers (L-2), as the New game
        rows set it, and changed there the same way."""
        return ListMenu(self.app, "host", t("link_host"), self._new_items(True), self, "help_host")

    def _new_items(self, link=False):
        """The New game rows; ``link``: the Host screen's (the other console's
        person takes a seat, the bots the others: in a Pişti 4p the People row
        says which)."""
        p = self.app.prefs
        g = GAMES.index(p["game"])
        counts = PLAYERS[g]
        if p["players"] not in counts:
            p["players"] = counts[0]
        # Mode second: on the first screen of both displays (T-1: rated or practice).
        items = [Item("game", t("game"), (t("pisti"), t("yedili")), g),
                 Item("mode", t("mode"), (t("rated"), t("practice")), 0 if p["rated"] else 1),
                 Item("players", t("players"), tuple(map(str, counts)), counts.index(p["players"]))]
        targets = TARGETS[g]
        if len(targets) > 1:  # a choice of targets (P-2)
            items.append(Item("target", t("target"), tuple(map(str, targets)), targets.index(p["target"])))
        names = level_names()
        seats = p["seats"]
        bots = p["players"] - 1
        if link:
            n = p["players"]
            people = min(p["consoles"], n)
            if n > 2:  # L-12: three or four consoles in a ring, the first people the host's, the rest bots
                items.append(Item("consoles", t("ring_consoles"), tuple(map(str, range(2, n + 1))), people - 2))
            if people == 3 and n == 4:  # the one bot's seat, in the host's round (the host at 1)
                items.append(Item("bot_seat", t("ring_bot_seat"), ("2", "3", "4"), p["bot_seat"] - 1))
            bots -= people - 1
            if people == 2 and n in TEAMS[g]:  # partners: seats 0 and 2 (pisti_app.link.linkmenu.host)
                items.append(Item("link_seats", t("link_seats"), (t("link_partners_v"), t("link_opponents_v")),
                                  0 if p["partners"] else 1))
        if bots == 1 and not link:
            items.append(Item("level", t("bot_level"), names, LEVELS.index(seats[0])))
        else:
            for i in range(bots):
                items.append(Item("seat%d" % (i + 1), t("bot_n") % (i + 1), names,
                                  LEVELS.index(seats[i])))
        items.append(Item("start", t("link_go") if link else t("start")))
        return items

    def settings(self):
        """The settings screen."""
        return ListMenu(self.app, "settings", t("settings"), self._settings_items(), self,
                        "help_settings")

    def _settings_items(self):
        p = self.app.prefs
        timers = timer_choices(p["timer"])
        return [Item("lang", t("language"), ("English", "Türkçe"), 0 if p["lang"] == "en" else 1),
                Item("sound", t("sound"), (t("off"), t("on")), 1 if p["sound"] else 0),
                Item("speed", t("bot_speed"), (t("sp_slow"), t("sp_normal"), t("sp_fast"),
                                               t("sp_vfast")), p["speed"]),
                Item("timer", t("timer"), tuple([t("secs") % v for v in timers]),
                     timers.index(p["timer"])),
                Item("undo", t("undo_opt"), (t("off"), t("on")), 1 if p["undo"] else 0),
                Item("bright", t("brightness"), (t("br_low"), t("br_mid"), t("br_high")), p["bright"]),
                Item("sleep", t("screen_sleep"), (t("secs") % 30, t("mins") % 1, t("mins") % 2,
                                                  t("mins") % 5, t("never")), p["sleep"])]

    def pause(self):
        """The game menu over a table ("Menu", not "Paused": a rated game's
        move timer runs on and shows in its top bar, T-3)."""
        return ListMenu(self.app, "pause", self._pause_title(), self._pause_items(), self)

    def _pause_title(self):
        s = self.app.session
        if s is None:
            return t("game_menu")
        tot = s.match.totals
        return "%s  %s" % (t("game_menu"), "-".join([str(v) for v in tot]))

    def _pause_items(self):
        s = self.app.session
        rated = s is not None and s.rated
        items = [Item("resume", t("resume"))]
        if not rated and self.app.prefs["undo"]:  # T-1: undo in practice, when on
            items.append(Item("undo", t("undo")))
        items += [Item("scores", t("scores")), Item("rules", t("rules")),
                  Item("settings", t("settings")),
                  Item("leave", t("leave_table") if rated else t("leave"))]
        return items

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
                app.later(app.continue_game)  # built once the menu is gone
            elif k == "new_game":
                app.push(self.new_game())
            elif k == "link_play":  # L-2: host a game (set up on the Host screen), or join one
                app.push(ListMenu(app, "link", t("link_play"),
                                  [Item("link_host", t("link_host")), Item("link_join", t("link_join"))], self))
            elif k == "settings":
                app.push(self.settings())
            elif k == "rules":
                app.push(self.rules())
            elif k == "watch":  # the demo that plays itself
                app.later(app.watch)
            else:
                from pisti_app.screens import info
                app.push(info.Rankings(app) if k == "rankings" else info.About(app))
        elif k == "start":  # (New game, Host)
            self.menu_confirm(menu)
        elif n == "pause":
            if k == "resume":
                app.pop()
            elif k == "rules":
                app.push(self.rules())
            elif k == "settings":
                app.push(self.settings())
            elif k == "scores":
                from pisti_app.screens import info
                app.push(info.Scores(app))
            elif k == "leave":
                from pisti_app.match import leaving
                leaving.leave(app.play)
            elif k == "undo":
                from pisti_app.match import leaving
                if not leaving.undo(app.play):
                    app.pop()
                    app.screen.say(t("nothing_to_undo"), 1500)
        elif n == "rules":
            from pisti_app.screens import info
            app.push(info.rules_pages(app, k))
        elif k == "link_host":
            app.push(self.host())
        elif n == "link":
            self._over_kept(self._join)

    def _join(self):
        from pisti_app.link import ringmenu  # (both cables listened to: the host's hello names the link)
        self.app.later(ringmenu.listen, self.app)

    def _offer(self):
        app = self.app
        from pisti_app.link import linkmenu
        if app.screen.name == "confirm":  # (the question over it, if one was asked)
            app.pop()
        app.pop()  # closed first, and the saves: the wait and the link's set-up get their heap
        app.records.close()
        p = app.prefs
        if p["players"] > 2 and p["consoles"] > 2:  # three or four consoles in a ring (L-11)
            from pisti_app.link import ringmenu
            app.later(ringmenu.host, app)
        else:
            app.later(linkmenu.host, app)

    def _over_kept(self, go):
        """``go()`` at once, or, with a game kept to Continue, once the person
        says yes: a new game (a link game too) ends a rated game kept (T-4,
        its cost named) and replaces a practice one."""
        app = self.app
        kept = app.kept
        if kept is not None:
            from pisti_app.match import leaving
            text = t("new_leaves") + "\n" + leaving.cost(app, kept)[1] if kept.rated else t("new_replaces")
            app.ask(t("new_q"), text, go, t("keys_new"), app.pop)
        else:
            go()

    def menu_confirm(self, menu):
        """OK on a value row (and Start): Settings keep and go back, New game
        starts the game set up, Host offers it."""
        app = self.app
        app.save_prefs()
        if menu.name == "host":
            self._over_kept(self._offer)
            return
        if menu.name != "new_game":
            app.pop()
            return
        self._over_kept(self.start)

    def start(self):
        """Start the game set up in the new game menu."""
        p = self.app.prefs
        levels = [None] + [p["seats"][i] for i in range(p["players"] - 1)]
        target = p["target"]  # (a game without that target: its own, the Match's default)
        self.app.later(self.app.start_game, p["game"], p["players"], levels,
                       target if target in TARGETS[GAMES.index(p["game"])] else None, p["rated"])

    def menu_change(self, menu, it):
        """A value row changed."""
        app = self.app
        p = app.prefs
        k = it.key
        if menu.name in ("new_game", "host"):
            if k == "game":
                p["game"] = GAMES[it.index]
            elif k == "players":
                p["players"] = int(it.value)
            elif k == "target":
                p["target"] = int(it.value)
            elif k == "level":
                p["seats"] = [LEVELS[it.index]] * 3
            elif k.startswith("seat"):
                p["seats"][int(k[4:]) - 1] = LEVELS[it.index]
            elif k == "mode":
                p["rated"] = it.index == 0
            elif k == "link_seats":
                p["partners"] = it.index == 0
            elif k == "consoles":
                p["consoles"] = it.index + 2
            elif k == "bot_seat":
                p["bot_seat"] = it.index + 1
            if k in ("game", "players", "consoles"):
                menu.set(menu.title_text, self._new_items(menu.name == "host"))
        elif menu.name == "settings":
            if k == "lang":
                app.set_lang("en" if it.index == 0 else "tr")
                menu.set(t("settings"), self._settings_items())
            elif k == "sound":
                app.set_sound(it.index == 1)
            elif k == "speed":
                p["speed"] = it.index
            elif k == "timer":
                p["timer"] = timer_choices(p["timer"])[it.index]
            elif k == "undo":
                p["undo"] = it.index == 1
            elif k == "bright":
                p["bright"] = it.index
                app.hw.wake(app)  # seen at once
            elif k == "sleep":
                p["sleep"] = it.index

    def menu_back(self, menu):
        """BACK (or a long press) in a menu."""
        if menu.name == "menu":
            return  # the main menu is the bottom of the stack
        if menu.name in ("settings", "new_game", "host"):
            self.app.save_prefs()
        self.app.pop()

    def menu_refresh(self, menu):
        """Rebuild a menu's texts (shown again, maybe in another language)."""
        n = menu.name
        if n == "menu":
            menu.set(t("app_title"), self._main_items())
        elif n == "new_game":
            menu.set(t("new_game"), self._new_items())
        elif n == "host":
            menu.set(t("link_host"), self._new_items(True))
        elif n == "settings":
            menu.set(t("settings"), self._settings_items())
        elif n == "pause":
            menu.set(self._pause_title(), self._pause_items())
        elif n == "rules":
            menu.set(t("rules"), [Item("pisti", t("pisti")), Item("yedili", t("yedili")),
                                  Item("buttons", t("buttons"))])
