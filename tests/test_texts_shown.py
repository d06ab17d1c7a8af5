# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Every text of both languages (and of both button sets) against the code
that asks for it and the font cells it is drawn in: no key the
code asks for is missing, no text is left that nothing shows, and every
text, with its widest values filled in, goes through the firmware's own
``gfx.Text`` to glyphs the font has, within the 25 small (or 21 medium)
columns of its place. The screens that show the newcomer's wordings are
tested in test_wording.py."""

import os
import re

import pytest

from test_app_strings import TABLES, filled

from pisti_app.screens import gfx
from pisti_app.texts import str_en, str_tr
from pisti_app.texts.wrap import wrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE_DIRS = ("lib", "pisti_core")
TEXT_FILES = ("str_en.py", "str_tr.py")

# Keys made at run time: "lv_" + a level (menus.LEVELS), "cost_" + a branch
# of pisti_core.table.leave_branch, "nvm_" + the saves' state (app.py),
# "r_" + a P-12 row of results_pisti, t(game) for "pisti" / "yedili", a
# menu's help key + "_edit" (pisti_app.screens.menu: three buttons editing a value).
DYNAMIC = (r"r_(cards|aces|jacks|two_clubs|ten_diamonds|majority|pistis|jack_pistis)", r"help_(settings|new|host)_edit",
           r"lv_(acemi|kalfa|usta|person)", r"cost_\w+", r"nvm_(reset|recovered)", r"pisti|yedili")

# Drawn in the medium font (menu rows, the match end's head line): 21 columns.
MEDIUM = ("continue", "new_game", "rankings", "settings", "rules", "about", "game", "players",
          "target", "bot_level", "bot_n", "start", "pisti", "yedili", "lv_acemi", "lv_kalfa",
          "lv_usta", "language", "sound", "on", "off", "bot_speed", "sp_slow", "sp_normal",
          "sp_fast", "sp_vfast", "resume", "scores", "leave", "buttons", "mode", "rated",
          "practice", "timer", "secs", "undo_opt", "undo", "leave_table", "you_won", "winner_is",
          "shared_win", "match_over", "brightness", "br_low", "br_mid", "br_high", "screen_sleep",
          "mins", "never", "link_host", "link_join", "link_seats", "link_partners_v", "link_opponents_v", "link_go",
          "ring_consoles", "ring_bot_seat")
# Word-wrapped over several lines of 25 (text pages, confirmations, toasts).
WRAPPED = ("no_rankings", "stats_empty", "exit_leaves", "new_leaves", "new_replaces", "time_left", "oom", "oom_resume",
           "link_offer", "link_wait", "link_gone",
           "link_gone_bot", "link_left", "link_quit", "link_away", "link_partners", "link_leave_q", "link_in_play",
           "link_busy",
           "link_opponents", "link_silent", "link_asked", "link_noise", "link_declined",
           "ring_wait", "ring_wait_host", "ring_joined", "ring_watching", "ring_offer", "ring_teams", "ring_declined")


def code_sources():
    """(path, text) of every device source file except the texts themselves."""
    out = []
    for top in CODE_DIRS:
        for base, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if name.endswith(".py") and name not in TEXT_FILES:
                    with open(os.path.join(base, name), encoding="utf-8") as f:
                        out.append((os.path.join(base, name), f.read()))
    with open(os.path.join(ROOT, "code.py"), encoding="utf-8") as f:
        out.append(("code.py", f.read()))
    return out


def asked_keys():
    """Keys passed literally to t() / strings.t() anywhere in the device code."""
    keys = set()
    for _, src in code_sources():
        keys.update(re.findall(r"\bt\(\s*\"([a-z0-9_]+)\"\s*\)", src))
    return keys


def literals():
    """Every double-quoted identifier-like literal of the device code."""
    out = set()
    for _, src in code_sources():
        out.update(re.findall(r"\"([a-z0-9_]+)\"", src))
    return out


def test_every_key_the_code_asks_for_exists_in_both_languages():
    keys = asked_keys()
    assert len(keys) > 50  # the scan found the calls
    for key in sorted(keys):
        assert key in str_en.S, key
        assert key in str_tr.S, key


def test_every_text_is_shown_by_some_code():
    """A text no code names is dead (or its screen lost it): each key is a
    literal of the device code or one of the keys made at run time."""
    seen = literals()
    for key in sorted(str_en.S):
        assert key in seen or any(re.fullmatch(p, key) for p in DYNAMIC), key
    for key in str_en.S3:
        assert key in str_en.S, key  # a three-button text replaces one of the six-button set


def lines_of(s, key):
    text = filled(s, key)
    if key in WRAPPED or key.startswith("cost_"):
        return wrap(text)
    return text.split("\n")


@pytest.mark.parametrize("lang", ["en", "tr", "en3", "tr3"])
def test_every_text_draws_in_its_font_within_its_place(lang):
    """Each line of each text through gfx.Text: every character a glyph of
    the font (none shown as "?"), the line within its place's columns."""
    s = TABLES[lang]
    for key in sorted(s):
        font = "medium" if key in MEDIUM else "small"
        cols = 21 if font == "medium" else 25
        for line in lines_of(s, key):
            lbl = gfx.label(font, line, 0, 0)
            sheet = lbl._f
            grid = lbl._grid
            assert len(line) <= cols, (lang, key, line)
            for i, ch in enumerate(line):
                want = sheet.index(ord(ch))
                assert want >= 0 and grid[i] == want, (lang, key, line, ch)
