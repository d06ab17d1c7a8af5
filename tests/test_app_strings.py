# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Texts in English and Turkish: the same keys and placeholders, glyphs for
every character in the fonts they are drawn with, lengths that fit their
places, and a language switch that really puts Turkish on the screen."""

import os
import re

import pytest

from console import labels_out_of_bounds

import fonts
from pisti_app.texts import rules_en, rules_tr, str_en, str_tr
from pisti_app.texts.names import card_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TABLES = {"en": str_en.S, "tr": str_tr.S}
# The texts as the three-button board shows them (strings.set_buttons(True)).
TABLES.update({"en3": dict(list(str_en.S.items()) + list(str_en.S3.items())),
               "tr3": dict(list(str_tr.S.items()) + list(str_tr.S3.items()))})
RULES = {"en": rules_en, "tr": rules_tr, "en3": rules_en, "tr3": rules_tr}
PAGES = ("PISTI", "YEDILI", "YEDILI_3", "BUTTONS_6", "BUTTONS_3")
# The widest values each placeholder takes on screen.
WORST = {"took": ("Bot 3", "10\u2666", 52), "drew": ("Bot 3", 12), "passed": ("Bot 3",),
         "picked": ("Bot 3", "10\u2666"), "muamele_pick": (12,), "hint_pending": (12,),
         "one_card": ("Bot 3",), "went_out": ("Bot 3",), "waiting": ("Bot 3",),
         "rank_points": ("Pis Yedili", -1), "hands_played": (99,), "hand_played": (1,), "why_pending": (12,),
         "why_named": ("\u2663", "\u2663"), "why_match": ("\u2663", "10"),
         "winner_is": ("Onlar",), "bot_n": (3,), "bot_short": (4,), "team_n": (2,), "hand_n": (99,), "target_n": (151,),
         "r_match": (151,), "r_out": ("Bot 3",), "draw_n": (12,),
         "rank_row": {"played": 999, "won": 99, "drawn": 99, "lost": 99, "points": -99}, "secs": (300,), "mins": (5,),
         "you_drew": (12,), "you_picked": ("10\u2666",), "deal_n": (6, 6), "clock": (300,),
         "hand_cards": ("Onlar", "52 cards", "9 piştis"),
         "stats_lines": (9999, 9999, 9999, 9999, 9999, 9999), "stats_pistis": (999, 99),
         # (fitted to the line by pisti_app.startup.notices: tests/test_app_settings.py)
         "bad_setting": ("PISTI_TIMER=-5",), "link_offer": ("Pis Yedili", 4, 151, "practice"),
         "link_lost": (2, 59), "link_wait": ("Oyun kur",), "link_silent": ("Oyun kur",), "link_clock": (2, 59),
         "link_in_play": (99,), "bad_setting_short": ("DISPLAY_HEIGHT=48",), "ring_wait": (4, 4), "ring_joined": (4, 4),
         "ring_offer": ("Pis Yedili", 4, 151, "practice", "1 Kurucu, 2 Arkadaş, 3 Sen, 4 Acemi")}


def placeholders(text):
    """The blanks of ``text`` in order; named ones (``%(won)d``: each
    language puts them where its sentence wants them) sorted."""
    found = re.findall(r"%(?:\([a-z_]+\))?[+]?[ds]", text)
    return sorted(found) if "%(" in text else found


def filled(s, key):
    """Text ``key`` of table ``s`` with its widest values filled in."""
    return s[key] % WORST[key] if key in WORST else s[key]


def test_both_languages_have_the_same_keys_and_placeholders():
    assert sorted(str_en.S) == sorted(str_tr.S)
    for key, text in str_en.S.items():
        assert placeholders(text) == placeholders(str_tr.S[key]), key
        if placeholders(text):
            assert key in WORST, key  # every text with blanks is checked for length
    assert sorted(str_en.S3) == sorted(str_tr.S3)
    for mod in (rules_en, rules_tr):
        for name in PAGES:
            assert len(getattr(mod, name)) == len(getattr(rules_en, name)), name


@pytest.mark.parametrize("lang", ["en", "tr", "en3", "tr3"])
def test_every_string_has_glyphs_in_the_fonts(lang):
    small = fonts.load("small")
    medium = fonts.load("medium")
    texts = list(TABLES[lang].values())
    for name in PAGES:
        for title, body in getattr(RULES[lang], name):
            texts += [title, body]
    texts += [card_text(c) for c in range(52)] + ["English", "Türkçe", "\u00d7\u2192\u25b2\u25bc\u25c0\u25b6!"]
    for text in texts:
        assert fonts.missing(small, text) == "", text
        assert fonts.missing(medium, text) == "", text
    large = fonts.load("large")
    assert fonts.missing(large, "A2345678910JQK\u2663\u2666\u2665\u2660") == ""


@pytest.mark.parametrize("lang", ["en", "tr", "en3", "tr3"])
def test_texts_fit_where_they_are_shown(lang):
    s = TABLES[lang]
    line = ("help_menu", "help_main", "help_settings", "help_settings_edit", "help_new", "help_new_edit",
            "help_host", "help_host_edit", "help_pisti_link", "help_page", "help_pages", "keys_rematch",
            "r_mu_legend", "hand_played", "help_pisti", "help_yedili", "help_action", "waiting",
            "hand_over", "not_your_turn", "took", "drew", "passed", "picked", "muamele_pick",
            "choose_suit", "hint_opening", "hint_pending", "hint_drawn", "hint_again", "hint_no_card",
            "one_card", "stock_out", "went_out", "rank_points", "hands_played", "app_title",
            "leave_q", "new_q", "time_up", "keys_leave", "keys_new", "keys_ok", "practice_end",
            "nothing_to_undo", "nvm_reset", "nvm_recovered", "press_a",
            "ok_rematch", "you_drew", "you_passed", "you_picked", "this_hand", "hand_cards",
            "stats", "stats_pistis", "stats_reset", "battery_low")
    for key in line:  # the message line and title bars: 25 small characters
        assert len(filled(s, key)) <= 25, (key, filled(s, key))
    for key in ("stats_lines", "rank_row"):  # a statistics page's lines, a ranking's
        for line in filled(s, key).split("\n"):
            assert len(line) <= 25, line
    for key in ("pisti_bang", "jack_pisti", "you_out"):  # a double-size toast line
        assert len(s[key]) <= 10, key
    for key in ("why_opening", "why_pending", "why_named", "why_match"):  # toast: up to three lines of 25
        lines = filled(s, key).split("\n")
        assert len(lines) <= 3 and max(len(x) for x in lines) <= 25, key
    rows = (("game", "yedili"), ("players", "start"), ("target", "start"), ("bot_level", "lv_kalfa"),
            ("bot_n", "lv_kalfa"), ("language", "language"), ("sound", "off"),
            ("bot_speed", "sp_vfast"), ("leave", "start"), ("continue", "start"),
            ("mode", "practice"), ("timer", "secs"), ("undo_opt", "off"), ("brightness", "br_mid"),
            ("brightness", "br_high"), ("screen_sleep", "mins"), ("screen_sleep", "never"),
            ("link_seats", "link_opponents_v"), ("link_seats", "link_partners_v"))
    for label, value in rows:  # a menu row: 21 medium characters with the value's arrows
        shown = "Türkçe" if value == "language" else filled(s, value) if value in ("secs", "mins") else s[value]
        text = filled(s, label) + " " + shown + "\u25c0\u25b6"
        assert len(text) <= 21, text
    for key in ("undo", "leave_table", "resume", "scores", "link_go"):  # a menu row without a value
        assert len(s[key]) <= 21, key
    for key in ("you_won", "winner_is", "shared_win", "match_over"):
        assert len(filled(s, key)) <= 21, key
    # Pis Yedili effects said after the card, on the message line (Y-8, Y-9, Y-10)
    for key, card in (("eff_ace", "A\u2660"), ("eff_ten", "10\u2666"), ("eff_twin", "Q\u2666")):
        said = "Bot 3: %s %s" % (card, s[key])
        assert len(said) <= 25, said
    # The Pis Yedili hand end's title bar (pisti_app.screens.results_yedili): "Hand N: outcome"
    # when it ends a cell left of the prompt (19 cells at 32 px with the scroll
    # arrows, 21 at 64 px), else the outcome alone, which always fits.
    for head in (s["r_out"] % "Bot 3" + " \u00d73", s["r_you_out"] + " \u00d73", s["r_stock"]):
        assert len(head) <= 19 and len(s["ok_next"]) == 3, head
    assert len(s["hand_n"] % 9 + ": " + s["r_stock"]) <= 21  # Y-13 with its hand number at 64 px
    mine = (s["hand_n"] % 9) + ": " + s["r_you_out"] + " \u00d73" + " " + s["ok_next"]
    assert len(mine) <= 25, mine  # the person went out (Y-12)
    # The game menu's title bar: the totals of four seats, and the move timer
    # (T-3, right-aligned at x 114) with its unit.
    menu_title = s["game_menu"] + "  " + "-".join(["99"] * 4)
    assert 5 * len(menu_title) <= 114 - 5 * len(s["clock"] % 99) - 4, menu_title
    # The Pişti table's deal (P-10) under the stock, centred at x 99: clear
    # of the pile card (x 50-71) and of the screen's edge.
    assert 99 - 5 * len(s["deal_n"] % (6, 6)) / 2 >= 71 and 99 + 5 * len(s["deal_n"] % (6, 6)) / 2 <= 128


_PCF = {"small": "small-5x8.pcf", "medium": "medium-6x10.pcf"}


_PCF = {"small": "small-5x8.pcf", "medium": "medium-6x10.pcf"}


def region_matches_text(oled, text, x0, top, font_name="medium", inverse=False):
    """Do the panel's pixels at (x0, top) show ``text`` in the monospaced
    font, glyph cell by glyph cell? (An independent rendering: the PCF the
    device's glyph sheets are made from, through adafruit_bitmap_font.)"""
    from adafruit_bitmap_font import bitmap_font

    font = bitmap_font.load_font(os.path.join(ROOT, "assets", "fonts", _PCF[font_name]))
    cell_w, cell_h = font.get_bounding_box()[0:2]
    rows = oled.rows()
    for i, ch in enumerate(text):
        g = font.get_glyph(ord(ch))
        for y in range(cell_h):
            for x in range(cell_w):
                ink = g.bitmap[x, y] if x < g.bitmap.width and y < g.bitmap.height else 0
                if rows[top + y][x0 + i * cell_w + x] != (ink ^ (1 if inverse else 0)):
                    return False
    return True


def test_switching_to_turkish_in_settings_puts_turkish_on_the_screen(device):
    d = device()
    d.press("A")
    d.run(20)
    oled = d.rig.oled
    assert region_matches_text(oled, "New game", 3, 11, inverse=True)
    d.menu_to("settings")
    d.press("A")
    st = d.status()
    assert st["screen"] == "settings" and st["menu"] == ["lang", "sound", "speed", "timer", "undo", "bright", "sleep"]
    d.press("RIGHT")  # English -> Türkçe, at once
    st = d.status()
    assert st["lang"] == "tr" and st["title"] == "Ayarlar"
    labels = [lbl.text for lbl in d.app.screen.left]
    assert labels == ["Dil", "Ses", "Hız", "Hamle süresi"]
    assert region_matches_text(oled, "Ses", 3, 22)
    assert region_matches_text(oled, "Hız", 3, 33)
    d.shot("settings_tr")
    d.press("B")
    st = d.status()
    assert st["screen"] == "menu" and st["title"] == "Pişti & Pis Yedili"
    assert [lbl.text for lbl in d.app.screen.left] == ["Yeni oyun", "Sıralama", "Ayarlar", "Kurallar"]
    assert region_matches_text(oled, "Yeni oyun", 3, 11)
    assert region_matches_text(oled, "Sıralama", 3, 22)
    assert region_matches_text(oled, "Ayarlar", 3, 33, inverse=True)  # the cursor's row
    assert region_matches_text(oled, "\u25b2\u25bc seç  A tamam", 0, 56, "small")  # nothing to go back to
    d.shot("menu_tr")


def test_a_turkish_game_from_settings_toml(device):
    d = device(PISTI_START="yedili:3:acemi", PISTI_LANG="tr", PISTI_SEED=1, PISTI_DELAY=100)
    d.run(20)
    st = d.status()
    assert st["lang"] == "tr" and st["message"] in ("İlk tur: düz \u2663 oyna", "Sıra: Bot 1\u2026",
                                                    "Sıra: Bot 2\u2026")
    assert d.app.screen.score_r.text == "El 1"
    assert region_matches_text(d.rig.oled, "El 1", 107, 0, "small")
    assert labels_out_of_bounds(d.app.display.root_group) == []
    d.shot("yedili3_tr")
    d.long("B")  # pause, then switch language mid-game
    d.menu_to("settings")
    d.press("A")
    d.press("LEFT")
    d.press("B")
    d.press("B")
    st = d.status()
    assert st["screen"] == "table" and st["lang"] == "en"
    assert d.app.screen.score_r.text == "Hand 1"


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_leaving_confirmations_fit_their_screen(lang):
    """T-4: every 'what it costs' question or notice wraps into the five
    lines of the confirmation screen, its title into the title bar."""
    from pisti_app.screens.info import wrap

    s = TABLES[lang]
    for head in ("exit_leaves", "new_leaves", "time_left"):
        for cost in [k for k in s if k.startswith("cost_")]:
            lines = wrap(s[head] + "\n" + s[cost])
            assert len(lines) <= 5 and max(len(x) for x in lines) <= 25, (head, cost, lines)
    lines = wrap(s["new_replaces"])  # a new game over a practice game kept
    assert len(lines) <= 5 and max(len(x) for x in lines) <= 25, lines
    for key in ("new_q", "time_up"):
        assert len(s[key]) <= 22, key  # the timer is not running behind them
    # T-3: room for the running timer, the widest with its unit, on the right of the bar
    assert len(s["leave_q"]) + 1 + len(s["clock"] % 300) <= 25, s["leave_q"]


# -- the texts on flash (assets/strings, tools/make_strings.py) ---------------------------


def test_committed_text_files_are_up_to_date():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_strings.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_every_text_reads_back_from_the_files_in_both_languages_and_button_sets():
    from pisti_app.texts import strings

    was_lang, was_three = strings.lang(), strings.three_buttons()
    try:
        for lang, mod in (("en", str_en), ("tr", str_tr)):
            strings.set_lang(lang)
            for three in (False, True):
                strings.set_buttons(three)
                for key, text in mod.S.items():
                    assert strings.t(key) == (mod.S3.get(key, text) if three else text), (lang, key)
        with pytest.raises(KeyError):
            strings.t("no_such_text")
    finally:
        strings.set_lang(was_lang or "en")
        strings.set_buttons(was_three)
