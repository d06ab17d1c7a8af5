# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""What a newcomer meets first. A bad value in
settings.toml never stops the board: its default is used and the splash
names the key and the value, one line each (the console says why); keys
around the splash act only on it; a new console's new game is practice
(T-1) with the mode on the first screen; the rules pages say how to turn
them."""

import os

import pytest

import tools.shims as shims
from console import Device, settings_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WING = os.path.join(ROOT, "tools", "boards", "featherwing.toml")


# -- a bad setting gives its default and a notice ---------------------------------------------
@pytest.mark.parametrize("key,value,shown,check", [
    ("PISTI_START", "foo", "PISTI_START=foo ignored", lambda a: a.session is None),
    ("PISTI_TIMER", "-5", "PISTI_TIMER=-5 ignored", lambda a: a.prefs["timer"] == 60),  # T-3
    ("PISTI_TIMER", -5, "PISTI_TIMER=-5 ignored", lambda a: a.prefs["timer"] == 60),
    ("PISTI_TIMER", "abc", "PISTI_TIMER=abc ignored", lambda a: a.prefs["timer"] == 60),
    ("PISTI_LANG", "xx", "PISTI_LANG=xx ignored", lambda a: a.prefs["lang"] == "en"),
    ("PISTI_SEED", "xyz", "PISTI_SEED=xyz ignored", lambda a: a.below is None),  # os.urandom, T-6
    ("PISTI_DELAY", -1, "PISTI_DELAY=-1 ignored", lambda a: a.delay_override is None),
    ("PISTI_RATED", 2, "PISTI_RATED=2 ignored", lambda a: True),
    ("PISTI_TARGET", 120, "PISTI_TARGET=120 ignored", lambda a: True),
    ("PISTI_MEMLOG", 7, "PISTI_MEMLOG=7 ignored", lambda a: a.memlog == 0),
    ("PISTI_DISPLAY_ROTATION", 90, "Bad DISPLAY_ROTATION=90", lambda a: a.display.rotation == 0),
    ("PISTI_DISPLAY_ADDR", 0x50, "DISPLAY_ADDR=80 ignored", lambda a: True),
    ("PISTI_DISPLAY_WIDTH", 96, "DISPLAY_WIDTH=96 ignored", lambda a: a.width == 128),
    ("PISTI_DISPLAY_HEIGHT", 48, "DISPLAY_HEIGHT=48 ignored", lambda a: a.height == 64),
    ("PISTI_I2C_SCL", "GP77", "I2C_SCL=GP77 ignored", lambda a: True),
    ("PISTI_BUTTONS", "X:GP10,Y:GP11", "Bad BUTTONS=X:GP10,Y:GP11",  # no select button
     lambda a: a.hw.key_names == ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")),
    ("PISTI_BUTTON_PRESSED_LOW", 3, "Bad BUTTON_PRESSED_LOW=3", lambda a: True),
    ("PISTI_BUZZER", "GP99", "PISTI_BUZZER=GP99 ignored", lambda a: a.hw.buzzer is None),
])
def test_a_bad_setting_gives_the_default_and_a_notice_on_the_splash(device, capsys, key, value, shown,
                                                                   check):
    d = device(**{key: value})
    st = d.status()
    assert st["screen"] == "splash" and st["notices"] == [shown] and st["message"] == shown
    assert len(shown) <= 25 and check(d.app)
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("settings.toml: ")]
    assert len(said) == 1 and said[0].startswith("settings.toml: %s = %s ignored (the default is used): "
                                                 % (key, value))
    assert said[0].count("settings.toml") == 1 and said[0].count(key) == 1  # one clean message
    assert d.rig.problems() == []
    d.run(4500)  # the notice stays 4 s, then the menu
    assert d.status()["screen"] == "menu"
    d.press("A")
    assert d.status()["screen"] == "new_game"  # and the console plays on


def test_good_settings_give_no_notice(device):
    d = device(PISTI_TIMER=90, PISTI_LANG="tr", PISTI_DELAY=0, PISTI_SEED=3, PISTI_MEMLOG=0)
    st = d.status()
    assert st["screen"] == "splash" and st["notices"] == [] and st["lang"] == "tr"
    assert d.app.prefs["timer"] == 90
    assert d.app.hw.keys.interval == 0.01  # scanned every 10 ms: a press reaches the game sooner (L-4)


def test_a_bare_value_getenv_cannot_read_is_named_as_written(tmp_path, monkeypatch, capsys):
    """CircuitPython's getenv raises ValueError on ``PISTI_SEED = xyz``
    (neither quoted nor a number): the firmware reads the text from the file."""
    import pisti_app.startup as startup

    path = settings_file(tmp_path / "settings.toml")
    with open(path, "a", encoding="utf-8") as f:
        f.write("PISTI_SEED = xyz  # my lucky seed\nPISTI_START = pisti:2:usta\n")
    monkeypatch.setattr(startup, "SETTINGS_FILE", path)
    rig = shims.install("pico", settings_path=path, nvm=bytearray(b"\xff" * 4096))
    try:
        import pisti_app

        app = pisti_app.boot()
        st = app.status()
        assert st["screen"] == "splash"
        assert st["notices"] == ["Bad START=pisti:2:usta", "PISTI_SEED=xyz ignored"]
        assert app.below is None and app.session is None
        out = capsys.readouterr().out
        assert "PISTI_SEED = xyz ignored" in out and "PISTI_START = pisti:2:usta ignored" in out
    finally:
        rig.close()
    monkeypatch.setattr(startup, "SETTINGS_FILE", str(tmp_path / "none.toml"))
    assert startup.raw_text("PISTI_SEED") == "?"  # no file to read it from


@pytest.mark.parametrize("style", ["int", "str"])
def test_a_number_is_named_as_written(tmp_path, capsys, style):
    """``PISTI_DISPLAY_ADDR = 0x99`` is named "0x99", not 153, whether
    getenv parses the bare value (CircuitPython up to early 10.x) or returns its text."""
    path = tmp_path / "settings.toml"
    settings_file(path, {"PISTI_DISPLAY_ADDR": 0x99, "PISTI_MEMLOG": 7})
    path.write_text(path.read_text().replace("= 153", "= 0x99").replace("= 7", "= 0b111  # all of it"))
    rig = shims.install("pico", settings_path=path, nvm=bytearray(b"\xff" * 4096), getenv_style=style)
    try:
        import pisti_app

        app = pisti_app.boot()
        assert app.status()["notices"] == ["DISPLAY_ADDR=0x99 ignored", "MEMLOG=0b111 ignored"]
        assert rig.problems() == [] and app.memlog == 0  # the defaults: the display at 0x3C answered
    finally:
        rig.close()
    assert capsys.readouterr().out.splitlines()[:2] == [
        "settings.toml: PISTI_DISPLAY_ADDR = 0x99 ignored (the default is used): 0x3C or 0x3D",
        "settings.toml: PISTI_MEMLOG = 0b111 ignored (the default is used): 0, 1 or 2"]


@pytest.mark.parametrize("buttons,why", [
    ("garbage", "item 'garbage' is not NAME:PIN, like A:GP14"),
    ("A:GP99,B:GP15", "item 'A:GP99': GP99 is not a pin of this board"),
    ("A:GP14,a:GP15", "A is listed twice"),
    (",", "no buttons listed"),
])
def test_a_bad_button_list_is_one_clean_message(device, capsys, buttons, why):
    """The console names the file and the key once, then says what is wrong."""
    d = device(PISTI_BUTTONS=buttons)
    assert d.app.hw.key_names == ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
    assert "settings.toml: PISTI_BUTTONS = %s ignored (the default is used): %s\n" % (buttons, why) \
        in capsys.readouterr().out


def test_several_bad_settings_one_notice_each_a_key_shows_the_next(device):
    d = device(PISTI_TIMER="-5", PISTI_LANG="xx", PISTI_DELAY=-1,
               nvm=bytearray(4096))  # and the saves are garbage too
    st = d.status()
    want = ["Saves unreadable: reset", "PISTI_LANG=xx ignored", "PISTI_TIMER=-5 ignored",
            "PISTI_DELAY=-1 ignored"]
    assert st["notices"] == want and st["notice"] == 0
    d.run(3000)
    assert d.status()["notice"] == 0  # 4 s each
    d.run(1500)
    assert d.status()["notice"] == 1 and d.status()["message"] == want[1]
    d.run(600)  # (keys just after it changed by itself are dropped)
    d.press("A")  # a key: the next notice, used up by that
    st = d.status()
    assert st["screen"] == "splash" and st["notice"] == 2 and st["message"] == want[2]
    d.press("A")
    assert d.status()["notice"] == 3
    d.press("A")  # after the last one: the menu, the key used up
    st = d.status()
    assert st["screen"] == "menu" and st["cursor"] == "new_game"


def test_featherwing_notice_takes_the_whole_line(tmp_path):
    d = Device(tmp_path, profile="featherwing", **_wing(PISTI_TIMER="abc"))
    try:
        assert d.status()["notices"] == ["PISTI_TIMER=abc ignored"]
        assert d.app.screen.corner.hidden  # the version does not print over it
        from console import labels_out_of_bounds

        assert labels_out_of_bounds(d.app.display.root_group, 128, 32) == []
    finally:
        d.close()


def _wing(**extra):
    """Featherwing profile lines for Device(..., profile="featherwing")."""
    out = {}
    with open(WING, encoding="utf-8") as f:
        for line in f:
            k, eq, v = line.partition("=")
            if eq and not line.startswith("#"):
                v = v.strip()
                out[k.strip()] = v[1:-1] if v.startswith('"') else int(v, 0)
    out.update(extra)
    return out


def test_bad_setting_with_a_start_setting_the_splash_then_the_game(device):
    d = device(PISTI_START="yedili:3:acemi", PISTI_RATED=2, PISTI_TIMER=20)
    st = d.status()
    assert st["screen"] == "splash" and st["notices"] == ["PISTI_RATED=2 ignored", "PISTI_TIMER=20 ignored"]
    assert d.app.kept is None and d.app.session is None  # nothing written while the notices show
    d.press("A")
    d.press("A")
    st = d.status()
    assert st["screen"] == "table" and (st["game"], st["players"]) == ("yedili", 3)
    assert st["rated"] is False and d.app.prefs["timer"] == 60  # the defaults: practice, 60 s


# -- keys around the splash ----------------------------------------------------------------------
def test_keys_before_the_first_frame_are_dropped(device):
    d = device(nvm=bytearray(4096))
    d.rig.keys.tap("A", 40)  # pressed while the board boots
    d.run(10)  # the first tick draws the splash
    d.run(100)
    st = d.status()
    assert st["screen"] == "splash" and st["message"] == "Saves unreadable: reset"  # seen
    d.press("A")
    assert d.status()["screen"] == "menu"


def test_a_key_as_the_splash_times_out_does_not_act_on_the_menu(device):
    d = device()
    d.run(10)
    d.wait(lambda s: s["screen"] == "menu", limit_ms=2000)  # the splash went by itself
    d.press("A")  # meant for the splash: dropped
    st = d.status()
    assert st["screen"] == "menu" and st["cursor"] == "new_game"
    d.run(500)
    d.press("A")  # a deliberate press, after half a second
    assert d.status()["screen"] == "new_game"


def test_a_key_on_the_splash_leaves_it_and_is_used_up(device):
    d = device()
    d.run(100)
    d.rig.keys.tap("A", 40)
    d.rig.keys.tap("DOWN", 40)  # two keys in one tick: both the splash's
    d.run(60)
    st = d.status()
    assert st["screen"] == "menu" and st["cursor"] == "new_game"


# -- practice by default, the mode on the first screen -----------------------------------------
def test_T1_a_new_console_starts_practice_and_remembers_rated(device):
    d = device(PISTI_SEED=2)
    d.press("A")
    d.press("A")  # New game
    st = d.status()
    assert st["menu"][:2] == ["game", "mode"]  # on the first screen (four rows; two on 128x32)
    assert d.app.screen.item("mode").value == "Practice"
    d.menu_to("start")
    d.press("A")
    st = d.status()
    assert st["screen"] == "table" and st["rated"] is False and st["timer"] is None
    d.app.main_menu()
    d.run(20)
    d.press("A")
    d.menu_to("mode")
    d.press("RIGHT")
    assert d.app.screen.item("mode").value == "Rated"
    d.press("B")  # back: the choice is kept
    d.press("A")
    assert d.app.screen.item("mode").value == "Rated"
    assert d.app.saves.read_prefs(dict(d.app.prefs)) and d.app.prefs["rated"]


def test_T1_three_buttons_see_the_mode_on_the_first_screen(tmp_path):
    d = Device(tmp_path, profile="featherwing", **_wing())
    try:
        d.press("B")
        d.press("B")  # New game
        menu = d.app.screen
        assert menu.name == "new_game" and menu.rows == 2
        assert [lbl.text for lbl in menu.left] == ["Game", "Mode"]
        assert menu.right[1].text == "Practice"
    finally:
        d.close()


# -- the rules pages say how to turn them ----------------------------------------------------
@pytest.mark.parametrize("lang,footer", [("en", "\u25c0\u25b6 page  \u25b2\u25bc line  B back"),
                                         ("tr", "\u25c0\u25b6 sayfa \u25b2\u25bc sat\u0131r B geri")])
def test_rules_pages_show_how_to_turn_them(device, lang, footer):
    d = device(PISTI_LANG=lang)
    d.press("A")
    d.menu_to("rules")
    d.press("A")
    d.press("A")  # Pişti
    st = d.status()
    assert st["screen"] == "rules" and st["page"] == 0 and st["pages"] > 1
    assert st["footer"] == footer and len(st["lines"]) == 6
    assert d.app.screen.rows[6].text == footer  # the last line of the screen
    mark = d.app.screen.mark.text
    assert mark.endswith(" 1/%d" % st["pages"]) and "\u25bc" in mark and "\u25b2" not in mark
    for _ in range(40):  # to the end of the first page: ▼ still, the next page is below
        if d.status()["page"] == 1:
            break
        last = d.app.screen.mark.text
        d.press("DOWN")
    assert "\u25bc" in last and d.status()["page"] == 1 and "\u25b2" in d.app.screen.mark.text
    d.press("LEFT")
    d.press("LEFT")  # back past the first: the last page
    st = d.status()
    assert st["page"] == st["pages"] - 1
    for _ in range(40):
        d.press("DOWN")
    assert "\u25bc" not in d.app.screen.mark.text  # the very end


def test_one_page_texts_say_their_keys_and_scroll_to_every_line(device):
    d = device()
    d.press("A")
    d.menu_to("about")
    d.press("A")
    st = d.status()
    # About (and Rankings) say their keys on the last line, as paged texts do
    assert st["pages"] == 1 and st["footer"] == "\u25b2\u25bc line  B back" and len(st["lines"]) == 6
    lines = d.app.screen.pages[0][1]
    for _ in range(len(lines)):  # every line of the text is reached with DOWN
        d.press("DOWN")
    assert d.status()["lines"][-1] == lines[-1]


def test_rules_pages_on_three_buttons_say_a_c_and_keep_three_lines(tmp_path):
    d = Device(tmp_path, profile="featherwing", **_wing())
    try:
        d.press("B")
        for _ in range(3):
            d.press("C")  # next: New game, Rankings, Settings, Rules
        assert d.status()["cursor"] == "rules"
        d.press("B")
        d.press("B")
        st = d.status()
        assert st["screen"] == "rules" and len(st["lines"]) == 3 and st["footer"] is None
        assert "\u25bc" in d.app.screen.mark.text
        from pisti_app.texts.strings import t

        assert t("help_pages") == "A/C line/page  B close"  # (a 64-px three-button board's footer)
    finally:
        d.close()


def test_the_new_texts_fit_their_line():
    from pisti_app.texts import str_en, str_tr

    for table in (str_en.S, str_tr.S, dict(str_en.S, **str_en.S3), dict(str_tr.S, **str_tr.S3)):
        assert len(table["help_pages"]) <= 25, table["help_pages"]  # the last line of a 64-px page
        # the notice line: room for a short key and its value (fitted by pisti_app.startup.notices)
        assert len(table["bad_setting"] % "") <= 12 and len(table["bad_setting_short"] % "") <= 7
    for s in (str_en, str_tr):
        assert "help_pages" in s.S3  # three buttons turn pages with A/C
