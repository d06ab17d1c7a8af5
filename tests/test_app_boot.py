# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device app booted the way code.py boots it, on the desktop shims with
the virtual clock: splash, menus, settings from settings.toml, the refresh
discipline and the layout (the harness is tests/console.py)."""

import os
import runpy
import sys
import time

import pytest

import tools.shims as shims
from console import ROOT, Device, labels_out_of_bounds, settings_file


class StopRun(BaseException):
    """Ends a code.py run from inside time.sleep (as the simulator does)."""


# -- code.py itself -------------------------------------------------------------


def test_code_py_boots_splash_then_menu(tmp_path, monkeypatch):
    rig = shims.install("pico", settings_path=settings_file(tmp_path / "s.toml"),
                        nvm=bytearray(b"\xff" * 4096))
    seen = {}
    try:
        def look(key):
            seen[key] = sys.modules["pisti_app"].current.status()

        rig.clock.call_later(300, lambda: look("boot"))
        rig.clock.call_later(5000, lambda: look("later"))

        def stop():
            raise StopRun()

        rig.clock.call_later(5100, stop)
        monkeypatch.chdir(ROOT)
        with pytest.raises(StopRun):
            runpy.run_path(os.path.join(ROOT, "code.py"), run_name="__main__")
        assert seen["boot"]["screen"] == "splash"
        # The splash gives way to the main menu by itself after a few seconds.
        assert seen["later"]["screen"] == "menu"
        assert seen["later"]["menu"] == ["new_game", "rankings", "settings", "rules", "about", "link_play", "watch"]
        for key in ("game", "players", "hand", "ply", "totals", "level", "turn",
                    "your_hand", "legal", "message"):
            assert key in seen["later"]
        assert rig.oled.display_on and rig.oled.frames >= 2 and rig.problems() == []
    finally:
        rig.close()


def test_a_key_skips_the_splash_and_menus_lead_to_a_new_game(device):
    d = device()
    d.run(100)
    assert d.status()["screen"] == "splash"
    d.shot("splash")
    d.press("A")
    assert d.status()["screen"] == "menu"
    d.shot("menu")
    d.press("A")  # New game
    st = d.status()
    assert st["screen"] == "new_game" and st["menu"] == ["game", "mode", "players", "target", "level",
                                                         "start"]
    d.menu_to("target")
    d.press("RIGHT")  # target 151 -> 101
    d.press("DOWN")
    d.press("RIGHT")  # level kalfa -> usta
    d.shot("new_game")
    d.menu_to("start")
    d.press("A")
    st = d.status()
    assert st["screen"] == "table"
    assert (st["game"], st["players"], st["level"], st["target"]) == ("pisti", 2, "usta", 101)
    assert st["hand"] == 1 and st["totals"] == [0, 0]


def test_new_game_menu_offers_the_player_counts_of_each_game(device):
    d = device()
    d.press("A")
    d.press("A")
    d.press("RIGHT")  # Pis Yedili
    assert d.status()["menu"] == ["game", "mode", "players", "level", "start"]
    d.menu_to("players")
    d.press("RIGHT")  # 3 players
    st = d.status()
    assert st["menu"] == ["game", "mode", "players", "seat1", "seat2", "start"]
    d.press("RIGHT")  # 4 players
    d.press("DOWN")
    d.press("LEFT")  # Bot 1: kalfa -> acemi
    d.press("DOWN")
    d.press("DOWN")
    d.press("RIGHT")  # Bot 3: kalfa -> usta
    d.menu_to("start")
    d.press("A")
    st = d.status()
    assert (st["game"], st["players"], st["levels"]) == ("yedili", 4, [None, "acemi", "kalfa", "usta"])
    assert st["level"] == "acemi,kalfa,usta" and st["target"] == 101


def test_pisti_start_setting_goes_straight_to_the_table(device):
    d = device(PISTI_START="pisti:4:acemi", PISTI_TARGET=101)
    st = d.status()
    assert st["screen"] == "table" and st["game"] == "pisti" and st["players"] == 4
    assert st["levels"] == [None, "acemi", "acemi", "acemi"] and st["target"] == 101
    assert [type(b).__name__ != "NoneType" for b in d.app.bots] == [False, True, True, True]


@pytest.mark.parametrize("start,shown,words", [
    ("pisti:3:usta", "Bad START=pisti:3:usta", "is for 2 or 4 players"),
    ("poker:2:usta", "Bad START=poker:2:usta", "is not like"),
    ("yedili:4:grandmaster", "Bad START=yedili:4:grand\u2026", "unknown bot level"),
    ("yedili:4:usta,kalfa", "Bad START=yedili:4:usta,\u2026", "one per bot seat"),
])
def test_bad_start_setting_is_named_on_the_splash_and_the_menu_follows(device, capsys, start, shown,
                                                                       words):
    """A bad PISTI_START does not stop the board: the splash names
    it (fitted to the line), the console says why, and the menu comes."""
    d = device(PISTI_START=start)
    st = d.status()
    assert st["screen"] == "splash" and st["notices"] == [shown] and st["message"] == shown
    assert len(shown) <= 25
    out = capsys.readouterr().out
    assert "settings.toml: PISTI_START = %s ignored" % start in out and words in out
    d.run(4500)
    assert d.status()["screen"] == "menu" and d.status()["game"] is None


def test_hardware_comes_from_settings(tmp_path, capsys):
    def boot(**extra):
        d = Device(tmp_path, **extra)
        try:
            return d.status()["notices"], d.app.hw, d.app.display.rotation, d.rig.oled.problems()
        finally:
            d.close()

    notices, hw, _, problems = boot(PISTI_I2C_SDA="GP99")  # not a pin: the default (GP4), a notice
    assert notices == ["I2C_SDA=GP99 ignored"] and problems == []
    assert "PISTI_I2C_SDA = GP99 ignored" in capsys.readouterr().out
    notices, hw, _, _ = boot(PISTI_BUTTONS="UP=GP10,A:GP14")
    assert hw.key_names == ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
    assert notices == ["Bad BUTTONS=UP=GP10,A:GP\u2026"]
    assert "is not NAME:PIN" in capsys.readouterr().out
    notices, hw, rotation, problems = boot(PISTI_DISPLAY_ROTATION=180)
    assert rotation == 180 and notices == []
    assert hw.key_names == ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
    assert hw.buzzer is not None and problems == []
    assert hw.i2c.frequency == 400000  # the profile's fast mode
    notices, hw, _, _ = boot(PISTI_I2C_FREQUENCY=5)
    assert hw.i2c.frequency == 400000 and notices == ["I2C_FREQUENCY=5 ignored"]
    assert "10000 to 1000000" in capsys.readouterr().out
    notices, hw, _, _ = boot(PISTI_I2C_FREQUENCY=100000)
    assert hw.i2c.frequency == 100000 and notices == []


def test_refresh_only_when_something_changed(device):
    d = device()
    d.press("A")
    d.run(200)
    frames = d.rig.oled.frames
    refreshes = d.app.refreshes
    d.run(3000)  # an idle menu sends nothing and does not even refresh
    assert d.rig.oled.frames == frames and d.app.refreshes == refreshes
    d.press("DOWN")
    assert d.app.refreshes == refreshes + 1
    # (Blinka repeats the whole screen once in the first frame after a
    # root_group change; the next ones are the changes alone.)
    d.press("DOWN")
    assert d.app.refreshes == refreshes + 2
    # Moving the bar repaints two rows, not the screen (a full frame is 1037 bytes).
    assert 0 < d.rig.oled.bytes_last_frame < 1037, d.rig.oled.bytes_last_frame


def test_held_direction_repeats_and_long_b_is_not_a_short_b(device):
    d = device()
    d.press("A")
    d.press("A")  # New game: game, mode, players, target, level, start
    d.rig.keys.press("DOWN")
    d.run(700)  # press + repeats after 400 ms, then every 120 ms
    d.rig.keys.release("DOWN")
    d.run(50)
    assert d.status()["cursor"] == "level"  # 1 + 3 repeats = 4 rows down
    d.long("B")  # a long B in a menu goes back once, like a short one
    assert d.status()["screen"] == "menu"


def test_about_shows_version_and_free_memory(device):
    d = device()
    d.press("A")
    d.menu_to("about")
    d.press("A")
    st = d.status()
    assert st["screen"] == "about"
    from pisti_app import __version__

    assert __version__ in " ".join(st["lines"]) and "Free memory:" in " ".join(st["lines"])
    for _ in range(4):  # the last lines come with DOWN (the bottom row says so)
        d.press("DOWN")
    assert "UP DOWN LEFT RIGHT A B" in " ".join(d.status()["lines"])
    assert d.status()["footer"] == "\u25b2\u25bc line  B back"
    d.shot("about")
    d.press("B")
    assert d.status()["screen"] == "menu"


def test_rules_pages_scroll_and_page(device):
    d = device()
    d.press("A")
    d.menu_to("rules")
    d.press("A")
    assert d.status()["menu"] == ["pisti", "yedili", "buttons"]
    d.press("DOWN")
    d.press("A")
    st = d.status()
    assert st["screen"] == "rules" and st["title"] == "Pis Yedili: the aim" and st["pages"] == 7
    d.press("RIGHT")
    assert d.status()["title"] == "Opening round"
    first = d.status()["lines"]
    d.press("DOWN")
    d.press("DOWN")
    d.press("DOWN")
    assert d.status()["lines"] != first or d.status()["page"] == 2
    d.shot("rules")
    d.press("B")
    d.press("B")
    assert d.status()["screen"] == "menu"


def test_no_text_leaves_the_screen_on_any_menu(device):
    d = device()
    d.press("A")
    for lang in ("en", "tr"):
        d.app.set_lang(lang)
        for key in ("new_game", "settings", "rules", "about", "rankings"):
            d.app.main_menu()
            d.run(20)
            d.menu_to(key)
            d.press("A")
            assert labels_out_of_bounds(d.app.display.root_group) == [], (lang, key)
        d.app.main_menu()
        d.run(20)
        assert labels_out_of_bounds(d.app.display.root_group) == []


def test_three_button_board_maps_prev_next_ok_and_long_back(tmp_path):
    base = os.path.join(ROOT, "tools", "boards", "featherwing.toml")
    rig = shims.install("featherwing", settings_path=settings_file(tmp_path / "fw.toml", base=base),
                        nvm=bytearray(b"\xff" * 4096))
    try:
        import pisti_app

        app = pisti_app.boot()
        assert app.input.three and app.hw.buzzer is None and (app.width, app.height) == (128, 32)

        def run(ms):
            for _ in range(ms // 10):
                app.tick()
                time.sleep(0.01)

        run(50)
        rig.keys.tap("B")  # select
        run(60)
        assert app.status()["screen"] == "menu"
        rig.keys.tap("C")  # next
        run(60)
        assert app.status()["cursor"] == "rankings"
        rig.keys.tap("A")  # previous
        run(60)
        assert app.status()["cursor"] == "new_game"
        rig.keys.tap("B")
        run(60)
        assert app.status()["screen"] == "new_game"
        rig.keys.tap("B")  # B on a value row edits it ...
        run(60)
        assert app.status()["editing"] and app.status()["cursor"] == "game"
        rig.keys.tap("C")  # ... C changes it: Pişti -> Pis Yedili
        run(60)
        assert app.status()["menu"][:3] == ["game", "mode", "players"] and "target" not in app.status()["menu"]
        rig.keys.hold("B", 800)  # a long B ends the edit
        run(60)
        assert app.status()["screen"] == "new_game" and not app.status()["editing"]
        rig.keys.hold("B", 800)  # a long B goes back
        run(60)
        assert app.status()["screen"] == "menu"
        assert rig.problems() == []
    finally:
        rig.close()


def test_button_maps():
    from pisti_app import keys as K

    six = K.button_map(("UP", "DOWN", "LEFT", "RIGHT", "A", "B"))
    assert [m[0] for m in six] == [K.UP, K.DOWN, K.LEFT, K.RIGHT, K.OK, K.BACK]
    assert six[5][1] == K.MENU and six[4][1] == 0  # long B: the pause menu
    three = K.button_map(("A", "B", "C"))
    assert [m[0] for m in three] == [K.PREV, K.OK, K.NEXT] and three[1][1] == K.BACK
    with pytest.raises(ValueError, match="no select button"):
        K.button_map(("UP", "DOWN", "X"))
