# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Key help that is right for the board's buttons: on the three-button
FeatherWing (A previous, C next, B select, a long B back) no help line, key
line, prompt or rules page shown names an arrow key or gives A or a short B
the six-button meaning; on the six-button Pico the texts are the six-button
ones, unchanged. Checked in both languages, on the strings and on what the
screens really show (``app.status()`` and the labels)."""

import random
import re

import pytest

from test_app_yedili import GoOut, muamele_session

from pisti_app.texts import rules_en, rules_tr, str_en, str_tr
from console import sit as sit_down

TABLES = {"en": (str_en.S, str_en.S3), "tr": (str_tr.S, str_tr.S3)}
RULES = {"en": rules_en, "tr": rules_tr}
ARROWS = "\u25b2\u25bc\u25c0\u25b6"
# What A selects / plays / confirms in the six-button texts.
_VERBS = ("play|plays|select|selects|ok|leave|start|do|menu|"
          "oyna|oynar|tamam|çık|başla|uygula|menü|seç|seçer")
_A_SIX = re.compile(r"(?<![\w/])A(?![\w/])[:, ]*(?:(?:%s)\b|[%s]|$)" % (_VERBS, ARROWS))
# A short B that goes back (on three buttons a short B selects; back is a long B).
_B_BACK = re.compile(r"(?<!hold )(?<!uzun )(?<![\w'])B[:, ]+(?:back|stay|geri|kal)\b")


def wrong_for_three(text):
    """What in ``text`` is wrong on three buttons (None: nothing). 'B ▶'
    (B goes on) is the one arrow allowed: it names no arrow key."""
    rest = text.replace("B \u25b6", "")
    for a in ARROWS:
        if a in rest:
            return a
    for rx in (_A_SIX, _B_BACK):
        m = rx.search(text)
        if m:
            return m.group(0)
    return None


def names_six_button_keys(text):
    """Does ``text`` give keys their six-button meaning (arrows, A selects)?"""
    return any(a in text for a in ARROWS) or _A_SIX.search(text) is not None


def test_the_detector_tells_six_button_texts_from_three_button_ones():
    for bad in ("A leave   B stay", "press A", "A: menü", "\u25c0\u25b6 choose", "A \u25b6",
                "Name a suit: A, B back", "A tamam", "B geri", "7 oyna ya da \u25b2 3 çek"):
        assert wrong_for_three(bad), bad
    for good in ("B leave   hold B stay", "press B", "B \u25b6", "A/C  B play  hold B menu",
                 "A 7 is on you:", "(not J, 7, 10 or A)", "A and C move", "uzun B geri",
                 "A Jack asks for a suit."):
        assert wrong_for_three(good) is None, good


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_every_text_naming_a_key_has_a_three_button_version(lang):
    six, three = TABLES[lang]
    assert set(three) <= set(six)
    for key, text in six.items():
        if names_six_button_keys(text):
            assert key in three, (key, text)
    for key, text in three.items():
        assert re.findall(r"%[+]?[ds]", text) == re.findall(r"%[+]?[ds]", six[key]), key
        assert wrong_for_three(text) is None, (key, text, wrong_for_three(text))
        assert text != six[key], key
    mod = RULES[lang]
    assert len(mod.YEDILI_3) == len(mod.YEDILI) and mod.YEDILI_3[:-1] == mod.YEDILI[:-1]
    for pages in (mod.YEDILI_3, mod.BUTTONS_3):
        for title, body in pages:
            assert wrong_for_three(title + " " + body) is None, (title, body)
    assert names_six_button_keys(mod.YEDILI[-1][1]) and names_six_button_keys(mod.BUTTONS_6[0][1])


def test_t_takes_the_three_button_texts_only_when_set():
    from pisti_app.texts import strings

    strings.set_lang("en")
    try:
        strings.set_buttons(True)
        assert strings.t("keys_leave") == "B leave   hold B stay" and strings.t("you") == "You"
        strings.set_lang("tr")  # the other language's three-button texts come with it
        assert strings.t("keys_leave") == "B çık   uzun B kal"
        strings.set_buttons(False)
        assert strings.t("keys_leave") == "A çık   B kal"
    finally:
        strings.set_buttons(False)
        strings.set_lang("en")


# -- what the screens show ---------------------------------------------------------------------

SIX = {"ok": "A", "next": "RIGHT", "prev": "LEFT", "down": "DOWN"}
THREE = {"ok": "B", "next": "C", "prev": "A", "down": "C"}


def _back(d, keys):
    if keys is THREE:
        d.long("B")
    else:
        d.press("B")


def _my_turn(d):
    return d.wait(lambda s: s["screen"] != "table" or (s["turn"] == 0 and s["legal"] and not s["holding"]
                                                     and not s["queued"] and not s["toast"]), 60000)


def _shown(d, keys):
    """{place: text} of the key help the screens show, walked with ``keys``."""
    app = d.app
    out = {"splash": app.screen.prompt.text}
    d.press(keys["ok"])
    assert d.status()["screen"] == "menu"
    out["menu_help"] = app.screen.help.text if app.screen.help is not None else None
    # Rules: every line of the Pis Yedili pages and the button guide, page by page.
    from pisti_app.screens.info import rules_pages

    for which in ("yedili", "buttons"):
        app.push(rules_pages(app, which))
        d.run(20)
        lines = []
        for _ in range(60):
            st = d.status()
            if st["page"] == st["pages"] - 1:
                lines += [x for x in st["lines"] if x not in lines]
            d.press(keys["down"])
        out["rules_" + which] = " ".join(lines)
        _back(d, keys)
    # Pişti, rated: the help line at the person's turn, then the leaving question.
    app.start_game("pisti", 2, [None, "acemi"], 101, True)
    _my_turn(d)
    out["help_pisti"] = d.status()["message"]
    _back(d, keys)
    for _ in range(8):
        if d.status()["cursor"] == "leave":
            break
        d.press(keys["down"])
    d.press(keys["ok"])
    st = d.status()
    assert st["screen"] == "confirm", st
    out["keys_leave"] = st["keys"]
    d.press(keys["ok"])  # leave (T-4)
    # Pis Yedili: the Muamele pick row after a bot goes out (Y-15), then the breakdown.
    s, h = muamele_session()
    sit_down(app, s)
    app.bots[h.turn] = GoOut()
    st = d.wait(lambda s: s.get("focus") == "pick" and not s["toast"], 30000)
    out["muamele_pick"] = st["message"]
    while d.status()["screen"] == "table" and d.status().get("focus") == "pick":
        d.press(keys["ok"], after=20)
        d.wait(lambda s: s["screen"] != "table" or s.get("focus") == "pick" or s["turn"] != 0, 30000)
    st = d.wait(lambda s: s["screen"] == "hand_end", 60000)
    out["ok_next"] = app.screen.title_r.text
    # Pis Yedili for two: the hints, the Draw button and the suit picker, as they come.
    app.start_game("yedili", 2, [None, "acemi"])
    rng = random.Random(5)
    for _ in range(300):
        st = _my_turn(d)
        if st["screen"] != "table":
            break
        legal = st["legal"]
        out["msg_%s_%s" % (st["phase"], "pending" if st["pending"] else "-")] = st["message"]
        if "draw" in legal or "pass" in legal:
            out["action_label"] = app.screen.action.text
        jacks = [a for a in legal if ":" in a]
        if jacks:
            while (d.status()["focus"] != "hand"
                   or d.status()["your_hand"][d.status()["cursor"]] != jacks[0][:2]):
                d.press(keys["next"], after=20)
            d.press(keys["ok"], after=20)
            out["choose_suit"] = d.status()["message"]
            d.press(keys["ok"], after=20)
            continue
        cards = [a for a in legal if a not in ("draw", "pass")]
        # (Draw is offered only when legal: not beside a card to play in the opening or after an Ace, Y-3, Y-9)
        if cards and ("drawn" in st["phase"] or rng.random() < 0.7 or legal[-1] not in ("draw", "pass")):
            i = st["your_hand"].index(rng.choice(cards))
            while d.status()["focus"] != "hand" or d.status()["cursor"] != i:
                d.press(keys["next"], after=20)
            d.press(keys["ok"], after=20)
        else:
            while d.status()["focus"] != "action":  # past the first card, or UP on six buttons
                d.press(keys["prev"] if keys is THREE else "UP", after=20)
            out["help_action"] = app.screen.msg.text if not app.screen.msg.hidden else None
            d.press(keys["ok"], after=20)
    return out


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_featherwing_shows_only_three_button_key_help(wing, lang):
    d = wing(PISTI_LANG=lang, PISTI_SEED=3, PISTI_DELAY=0)
    shown = _shown(d, THREE)
    _, three = TABLES[lang]
    for k in ("choose_suit", "msg_drawn_-", "msg_normal_-", "action_label"):
        assert k in shown, (k, sorted(shown))  # the walk reached these screens
    assert shown["splash"] == three["press_a"] and shown["menu_help"] is None  # no help row at 32 px
    assert shown["help_pisti"] == three["help_pisti"] and shown["keys_leave"] == three["keys_leave"]
    assert shown["ok_next"] == three["ok_next"] and shown["choose_suit"] == three["choose_suit"]
    assert shown["muamele_pick"].startswith(three["muamele_pick"].split("%")[0])
    assert shown["msg_drawn_-"] == three["hint_drawn"]
    for place, text in sorted(shown.items()):
        if text is not None:
            assert wrong_for_three(text) is None, (place, text)
    assert RULES[lang].YEDILI_3[-1][1].split(" ")[0] in shown["rules_yedili"]


def test_pico_keeps_the_six_button_texts(device):
    d = device(PISTI_SEED=3, PISTI_DELAY=0)
    shown = _shown(d, SIX)
    six, _ = TABLES["en"]
    assert shown["splash"] == "press A"
    assert shown["menu_help"] == "\u25b2\u25bc move  A select"  # the main menu: nothing to go back to
    assert shown["help_pisti"] == "\u25c0\u25b6 choose  A play  B menu"
    assert shown["keys_leave"] == "A leave   B stay"
    assert shown["ok_next"] == "A \u25b6"
    assert shown["choose_suit"] == "Name a suit: \u25c0\u25b6 A, B back"
    assert shown["muamele_pick"].startswith("Muamele: pick ") and shown["muamele_pick"].endswith(" \u25c0\u25b6 A")
    assert shown["action_label"].startswith("\u25b2") or shown["action_label"].startswith(" ")
    assert shown["msg_normal_-"] == six["help_yedili"]
    assert rules_en.YEDILI[-1][1].startswith("\u25c0\u25b6 choose a card, A plays it.")
    assert "choose a card, A plays it." in shown["rules_yedili"]
