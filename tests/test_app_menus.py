# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Menus that confirm: LEFT/RIGHT change a value,
A confirms (Settings keep and go back, New game starts from any row), B
leaves, and the footers say exactly that in both languages; the three
FeatherWing buttons do the same through an edit mode (B edits a value, A/C
change it, B confirms, a long B ends the edit). The 128x32 menus keep a
1-px gap under the title bar, every row not under the cursor drawn alike.
About and Rankings say their keys; the main menu offers no "B back"."""

import pytest


FOOTERS = {"en": {"menu": "\u25b2\u25bc move  A select",
                  "settings": "\u25c0\u25b6 change  A ok  B back",
                  "new_game": "\u25c0\u25b6 change A start B back",
                  "about": "\u25b2\u25bc line  B back"},
           "tr": {"menu": "\u25b2\u25bc seç  A tamam",
                  "settings": "\u25c0\u25b6 ayarla A tamam B geri",
                  "new_game": "\u25c0\u25b6 ayarla A başla B geri",
                  "about": "\u25b2\u25bc satır  B geri"}}


def _to(d, key, down="DOWN"):
    """Move the list menu's cursor to the row ``key`` (a bounded walk)."""
    for _ in range(12):
        if d.status()["cursor"] == key:
            return d.status()
        d.press(down)
    raise AssertionError("no row %r in %r" % (key, d.status().get("menu")))


# -- six buttons ------------------------------------------------------------------------------

def test_settings_a_keeps_the_value_and_goes_back(device):
    d = device()
    d.press("A")
    _to(d, "settings")
    d.press("A")
    assert d.status()["screen"] == "settings"
    d.press("RIGHT")  # English -> Türkçe
    assert d.status()["lang"] == "tr"
    d.press("A")  # confirms: kept, and back (the menu stays in Turkish)
    st = d.status()
    assert st["screen"] == "menu" and st["lang"] == "tr" and st["title"] == "Pişti & Pis Yedili"
    prefs = dict(d.app.prefs)
    assert d.app.saves.read_prefs(prefs) and prefs["lang"] == "tr"  # in nvm too


def test_settings_a_on_any_row_keeps_every_change(device):
    d = device()
    d.press("A")
    _to(d, "settings")
    d.press("A")
    sound, undo = d.app.prefs["sound"], d.app.prefs["undo"]
    _to(d, "sound")
    d.press("RIGHT")  # sound on <-> off
    _to(d, "undo")
    d.press("LEFT")  # undo on <-> off
    d.press("A")
    assert d.status()["screen"] == "menu"
    p = dict(d.app.prefs)
    assert p["sound"] is not sound and p["undo"] is not undo and p["lang"] == "en"
    assert d.app.saves.read_prefs(p) and (p["sound"], p["undo"]) == (not sound, not undo)


@pytest.mark.parametrize("row", ["game", "mode", "players", "target", "level", "start"])
def test_new_game_a_starts_from_any_row(device, row):
    d = device(PISTI_SEED=4)
    d.press("A")
    d.press("A")  # New game: Pişti for 2, practice
    assert d.status()["screen"] == "new_game"
    _to(d, row)
    d.press("A")
    st = d.status()
    assert st["screen"] == "table", st  # not a changed value: the game itself
    assert (st["game"], st["players"], st["rated"]) == ("pisti", 2, False)


def test_new_game_values_change_with_left_right_then_a_starts(device):
    d = device(PISTI_SEED=4)
    d.press("A")
    d.press("A")
    d.press("RIGHT")  # Pis Yedili
    _to(d, "players")
    d.press("RIGHT")  # 3 players
    assert d.status()["menu"] == ["game", "mode", "players", "seat1", "seat2", "start"]
    d.press("A")  # from the Players row
    st = d.status()
    assert (st["screen"], st["game"], st["players"]) == ("table", "yedili", 3)


def test_b_leaves_new_game_and_settings(device):
    d = device()
    d.press("A")
    d.press("A")
    d.press("RIGHT")  # Pis Yedili: remembered for the next time
    d.press("B")
    assert d.status()["screen"] == "menu" and d.app.prefs["game"] == "yedili"
    d.press("B")  # the main menu is the bottom: B does nothing there
    assert d.status()["screen"] == "menu"
    _to(d, "settings")
    d.press("A")
    d.press("B")
    assert d.status()["screen"] == "menu"


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_footers_say_what_the_keys_do(device, lang):
    d = device(PISTI_LANG=lang)
    d.press("A")
    shown = {"menu": d.status()["footer"]}
    assert "B" not in shown["menu"]  # nothing to go back to from the main menu
    d.press("A")
    shown["new_game"] = d.status()["footer"]
    d.press("B")
    _to(d, "settings")
    d.press("A")
    shown["settings"] = d.status()["footer"]
    d.press("B")
    _to(d, "about")
    d.press("A")
    shown["about"] = d.status()["footer"]
    d.press("B")
    _to(d, "rankings", "UP")
    d.press("A")
    assert d.status()["screen"] == "rankings"
    # Rankings say their keys too: pages to turn, the statistics after the ranking.
    assert d.status()["footer"] == {"en": "\u25c0\u25b6 page  \u25b2\u25bc line  B back",
                                    "tr": "\u25c0\u25b6 sayfa \u25b2\u25bc sat\u0131r B geri"}[lang]
    assert shown == FOOTERS[lang]
    for text in shown.values():
        assert len(text) <= 25, text  # the small font's line


# -- three buttons ----------------------------------------------------------------------------

def _wing_menu(wing, **extra):
    d = wing(**extra)
    d.press("B")
    assert d.status()["screen"] == "menu"
    return d


def test_three_buttons_settings_edit_change_and_confirm(wing):
    d = _wing_menu(wing)
    _to(d, "settings", "C")
    d.press("B")
    st = d.status()
    assert st["screen"] == "settings" and st["cursor"] == "lang" and not st["editing"]
    assert d.app.screen.right[0].text == "English"  # no arrows: A/C move between rows
    d.press("C")
    assert d.status()["cursor"] == "sound" and d.status()["lang"] == "en"
    d.press("A")
    d.press("B")  # edit the language
    st = d.status()
    assert st["editing"] and st["cursor"] == "lang"
    assert d.app.screen.right[0].text == "\u25c0English\u25b6"
    d.press("C")  # change it
    assert d.status()["lang"] == "tr" and d.status()["cursor"] == "lang"
    d.press("B")  # confirm: kept, and back
    st = d.status()
    assert st["screen"] == "menu" and st["lang"] == "tr"


def test_three_buttons_a_long_b_ends_the_edit_keeping_the_value(wing):
    d = _wing_menu(wing)
    d.press("B")  # New game
    d.press("B")  # edit the game
    d.press("C")  # Pis Yedili
    d.long("B")  # the edit ends, the value stays
    st = d.status()
    assert st["screen"] == "new_game" and not st["editing"] and d.app.prefs["game"] == "yedili"
    d.press("C")
    d.press("C")
    assert d.status()["cursor"] == "players"  # A/C move again
    d.long("B")  # and a long B leaves
    assert d.status()["screen"] == "menu"


@pytest.mark.parametrize("row", ["game", "players", "level", "start"])
def test_three_buttons_start_from_any_row(wing, row):
    d = _wing_menu(wing, PISTI_SEED=4)
    d.press("B")
    _to(d, row, "C")
    if row != "start":
        d.press("B")  # edit
        assert d.status()["editing"]
    d.press("B")  # confirm: the game starts
    st = d.status()
    assert st["screen"] == "table" and st["game"] == "pisti", st


def test_three_buttons_rules_page_tells_the_edit_mode(wing):
    _wing_menu(wing)
    from pisti_app.texts import rules_en, rules_tr

    for mod in (rules_en, rules_tr):
        body = mod.BUTTONS_3[0][1]
        assert ("edits" in body) if mod is rules_en else ("ayarlamaya" in body)
    assert "A confirms" in rules_en.BUTTONS_6[0][1]
    from pisti_app.texts.strings import t

    assert t("help_settings") == "A/C move B edit hold back"
    assert t("help_settings_edit") == "A/C change B ok hold done"


# -- the 128x32 layout ------------------------------------------------------------------------

def _rows(d):
    return d.rig.oled.rows()


@pytest.mark.parametrize("screen_keys", [("B",), ("B", "B"), ("B", "C", "C", "B")])
def test_128x32_menus_have_a_gap_under_the_title_bar(wing, screen_keys):
    d = wing()
    for k in screen_keys:
        d.press(k)
    d.run(20)
    rows = _rows(d)
    assert sum(rows[7]) > 100  # the title bar (white)
    assert sum(rows[8]) == 0, rows[8]  # one black row between it and the highlighted row
    assert sum(rows[9]) == 128  # the highlighted first row starts under the gap
    assert sum(rows[31]) == 0


def test_128x32_every_row_off_the_cursor_is_drawn_alike(wing):
    d = _wing_menu(wing)
    # The main menu: the cursor on New game, then on Rankings; the row that is not
    # under the cursor has a black background (its edges and its last pixel row).
    for cursor, off_band in (("new_game", range(20, 31)), ("rankings", range(9, 20))):
        _to(d, cursor, "C")
        d.run(20)
        rows = _rows(d)
        on_band = range(9, 20) if off_band.start == 20 else range(20, 31)
        for y in off_band:
            assert rows[y][0] == 0 and rows[y][127] == 0, (cursor, y)
        for y in on_band:
            assert rows[y][0] == 1 and rows[y][127] == 1, (cursor, y)
        assert sum(rows[8]) == 0
