# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The newcomer's wordings on the screens that show them, in both
languages and on both boards: the person's own verb forms in Pis Yedili
("3 kart çektin", "Pas geçtin", "El N: Bitirdin"), Turkish addressed as
*sen* throughout, the game menu that is no pause (T-3: a rated game's
clock runs on, shown with its unit there and on the rules read from it),
the move timer's unit on the table, the Pişti deal under the stock (P-10)
and the hand in play on the Scores page (cards taken and piştis, P-9,
P-12)."""

import random
import re

import pytest

from console import labels_out_of_bounds
from test_app_strings import region_matches_text
from test_app_yedili import play as yedili_play

from pisti_app.texts import rules_tr, str_tr
from console import sit as sit_down

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

TR_CLOCK = re.compile(r"^\d+sn$")
EN_CLOCK = re.compile(r"^\d+s$")


def my_turn(d, limit_ms=60000):
    return d.wait(lambda s: s["screen"] != "table" or (s["legal"] and not s["holding"]), limit_ms=limit_ms)


# -- Turkish: sen, not siz -------------------------------------------------------------------
_SIZ = re.compile(r"\b(siz|size|sizi|sizin|sizde)\b|[ıiuü]n[ıiuü]z\b|s[ıiuü]n[ıiuü]z\b", re.IGNORECASE)


def test_turkish_addresses_the_player_as_sen_everywhere():
    texts = list(str_tr.S.values()) + list(str_tr.S3.values())
    for name in ("PISTI", "YEDILI", "YEDILI_3", "BUTTONS_6", "BUTTONS_3"):
        for title, body in getattr(rules_tr, name):
            texts += [title, body]
    assert _SIZ.search("Takımınız önde: size kayıt yok.")  # what the check catches
    for text in texts:
        assert not _SIZ.search(text), text
    # T-4 costs and the timer's notice in the second person singular
    assert str_tr.S["time_left"].endswith("masadan kalktın.")
    assert str_tr.S["cost_team_ahead"] == "Takımın önde: sana kayıt yok."
    # The rankings in words: galibiyet, beraberlik, yenilgi
    assert "Galibiyet %(won)d" in str_tr.S["rank_row"] and "yenilgi %(lost)d" in str_tr.S["rank_row"]
    assert "yenilgi -1" in str_tr.S["no_rankings"]
    assert str_tr.S["leave_q"].endswith(" mı?")  # a question, not "çık?"


# -- Pis Yedili: the person's own verbs ------------------------------------------------------
@pytest.mark.parametrize("lang,drew,passed", [("tr", "%d kart çektin", "Pas geçtin"),
                                              ("en", "You drew %d", "You pass")])
def test_the_persons_draw_and_pass_are_in_the_second_person(device, lang, drew, passed):
    d = device(PISTI_START="yedili:2:acemi", PISTI_LANG=lang, PISTI_SEED=5, PISTI_DELAY=3000)
    seen = {}
    for _ in range(60):
        st = my_turn(d)
        if st["screen"] != "table":
            break
        legal = st["legal"]
        if "pass" in legal and "pass" not in seen:
            action = "pass"
        elif "draw" in legal and "draw" not in seen:
            action = "draw"
        else:
            cards = [a for a in legal if a not in ("draw", "pass")]
            action = cards[0] if cards else legal[0]
        before = st["counts"][0]
        st = yedili_play(d, action)
        if action == "draw":
            want = drew % (st["counts"][0] - before)
        elif action == "pass":
            want = passed
        else:
            continue
        assert st["message"] == want and d.app.screen.msg.text == want, (action, st)
        assert region_matches_text(d.rig.oled, want, 0, 35, "small")  # on the panel
        seen[action] = True
        if len(seen) == 2:
            break
    assert seen == {"draw": True, "pass": True}, seen
    # A bot's draw stays in the third person
    from pisti_app.screens.yedili_parts import play_text
    from pisti_core.yedili import DRAW

    h = d.app.session.match.hand
    text = play_text(h, h.phase, 1, DRAW, "Bot", bytes([h.hn[0], h.hn[1] - 2]))
    assert text == ("Bot 2 kart çekti" if lang == "tr" else "Bot drew 2")


def test_the_persons_muamele_pick_is_in_the_second_person(device):
    """Y-15: the person's pick reads "7\u2663 çektin", not "Sen: 7\u2663 çekti"."""
    from test_app_yedili import GoOut, move_cursor, muamele_session

    d = device(PISTI_DELAY=100, PISTI_SEED=9, PISTI_LANG="tr")
    d.press("A")
    s, h = muamele_session()
    winner = h.turn
    sit_down(d.app, s)
    d.app.bots[winner] = GoOut()
    st = d.wait(lambda s: s["screen"] != "table" or s.get("focus") == "pick", limit_ms=30000)
    assert st["phase"] == "muamele" and st["turn"] == 0
    assert st["toast"] == "Bot %d bitirdi" % winner
    move_cursor(d, 0)
    d.press("A", after=20)
    card = h.muamele[0][-1]
    from pisti_app.texts.names import card_text

    want = "%s çektin" % card_text(card) + (" +3" if (card % 52) >> 2 == 6 else "")
    assert d.status()["message"] == want and d.app.screen.msg.text == want


def went_out(make):
    """Y-12: the person went out: "El 1: Bitirdin", not "El 1: Sen çıktı"."""
    from pisti_core.bots import make_bot

    for seed in range(1, 12):
        d = make(PISTI_START="yedili:2:acemi", PISTI_LANG="tr", PISTI_SEED=seed, PISTI_DELAY=0)
        d.app.bots[0] = make_bot("yedili", "usta", random.Random(seed))  # seat 0 by the bot hook
        st = d.wait(lambda s: s["screen"] != "table", limit_ms=300000)
        if st["screen"] == "hand_end" and d.app.session.last.winner == 0:
            break
        d.close()
    else:
        raise AssertionError("seat 0 never went out")
    title = d.app.screen.title.text
    assert title in ("El 1: Bitirdin", "Bitirdin") and st["texts"][0] == title, title
    assert "çıktı" not in " ".join(st["texts"])
    assert labels_out_of_bounds(d.app.display.root_group, 128, d.app.height) == []


def test_the_hand_end_says_bitirdin_when_the_person_went_out(device):
    went_out(device)


def test_the_hand_end_says_bitirdin_on_three_buttons(wing):
    went_out(wing)


# -- T-3: the game menu, the clock's unit ----------------------------------------------------
@pytest.mark.parametrize("lang,title,clock", [("tr", "Menü  0-0", TR_CLOCK), ("en", "Menu  0-0", EN_CLOCK)])
def test_the_game_menu_is_a_menu_with_the_clock_running_and_labelled(device, lang, title, clock):
    d = device(PISTI_START="pisti:2:kalfa", PISTI_LANG=lang, PISTI_SEED=3, PISTI_DELAY=100,
               PISTI_RATED=1, PISTI_TIMER=45)
    my_turn(d)
    d.run(20)
    table_clock = d.app.screen.clock.text
    assert table_clock == ("45sn" if lang == "tr" else "45s")  # T-3, not a bare "45"
    assert region_matches_text(d.rig.oled, table_clock, 54 - 5 * len(table_clock), 0, "small")
    d.press("B")
    st = d.status()
    assert st["screen"] == "pause" and st["title"] == title  # no "Paused" / "Mola"
    assert "Paused" not in st["title"] and "Mola" not in st["title"]
    shown = d.app.screen.clock.text
    assert clock.match(shown), shown
    assert region_matches_text(d.rig.oled, shown, 114 - 5 * len(shown), 1, "small", inverse=True)
    d.run(2000)  # it runs on in the menu
    later = d.app.screen.clock.text
    assert clock.match(later) and int(later.rstrip("sn")) < int(shown.rstrip("sn"))
    d.menu_to("rules")
    d.press("A")
    d.press("A")  # Pişti's rules
    st = d.status()
    assert st["screen"] == "rules" and st["pages"] > 1
    mark = d.app.screen.mark.text
    assert clock.match(mark.split(" ")[0]) and mark.endswith(" 1/%d" % st["pages"]), mark


def test_the_clock_and_menu_on_three_buttons(wing):
    d = wing(PISTI_START="pisti:2:kalfa", PISTI_LANG="tr", PISTI_SEED=3, PISTI_DELAY=100, PISTI_RATED=1)
    my_turn(d)
    d.run(20)
    assert TR_CLOCK.match(d.app.screen.clock.text)
    assert labels_out_of_bounds(d.app.display.root_group, 128, 32) == []
    d.long("B")
    st = d.status()
    assert st["screen"] == "pause" and st["title"] == "Menü  0-0" and TR_CLOCK.match(d.app.screen.clock.text)


def test_practice_has_no_clock_and_the_same_menu(device):
    d = device(PISTI_START="pisti:2:kalfa", PISTI_SEED=3, PISTI_DELAY=100)
    my_turn(d)
    assert d.app.screen.clock.text == ""
    d.press("B")
    assert d.status()["title"] == "Menu  0-0" and d.app.screen.clock.text == ""


# -- Pişti: the deal under the stock, the hand on the Scores page ---------------------------------
@pytest.mark.parametrize("lang,players,fmt", [("en", 2, "Deal %d/6"), ("tr", 2, "Dağıtım %d/6"),
                                              ("en", 4, "Deal %d/3")])
def test_the_deal_under_the_stock_is_labelled(device, lang, players, fmt):
    d = device(PISTI_START="pisti:%d:kalfa" % players, PISTI_LANG=lang, PISTI_SEED=4, PISTI_DELAY=0)
    st = my_turn(d)
    label = d.app.screen.deal_n
    assert label.text == fmt % 1
    assert 70 <= label.x and label.x + 5 * len(label.text) <= 128  # clear of the pile card (x 50-68)
    assert region_matches_text(d.rig.oled, fmt % 1, label.x, 32, "small")
    while st["screen"] == "table" and st["stock"] == 52 - 4 - 4 * players:  # P-10: the first deal
        st = my_turn(d)
        if st["screen"] == "table" and st["stock"] == 52 - 4 - 4 * players:
            d.press("A", hold=10, after=10)
    st = my_turn(d)
    assert label.text == fmt % 2 and labels_out_of_bounds(d.app.display.root_group) == []


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_scores_page_shows_the_hand_in_play(device, lang):
    """P-12: most cards taken scores 3, so the page shows the cards each
    side took this hand and its piştis (P-9): counts all have seen (T-5)."""
    d = device(PISTI_START="pisti:2:kalfa", PISTI_LANG=lang, PISTI_SEED=6, PISTI_DELAY=0)
    h = d.app.session.match.hand
    while sum(h.cards) < 10 or h.stock > 20:
        st = my_turn(d)
        assert st["screen"] == "table"
        d.press("A", hold=10, after=10)
    my_turn(d)
    d.press("B")
    d.menu_to("scores")
    d.press("A")
    st = d.status()
    assert st["screen"] == "scores"
    you, bot = ("Sen", "Bot") if lang == "tr" else ("You", "Bot")
    lines = st["lines"]
    assert lines[3] == ("Bu el (en çok kart +3)" if lang == "tr" else "This hand (most cards +3)")
    assert lines[4] == "%s: %s, %s" % (you, counted(lang, h.cards[0], "card"), counted(lang, h.pistis[0], "pişti"))
    assert lines[5].startswith("%s: %s, %s" % (bot, counted(lang, h.cards[1], "card"),
                                               counted(lang, h.pistis[1], "pişti")))
    assert sum(h.cards) >= 10
    assert region_matches_text(d.rig.oled, lines[4], 0, 8 + 8 * 4, "small")


# -- T-2: the rankings in words ---------------------------------------------------------------
@pytest.mark.parametrize("board,lang,want", [
    ("pico", "en", ["Pişti 2 Master", "Played 3, points +1", "Won 2, drawn 0, lost 1",
                    "Pis Yedili 3 Novice", "Played 1, points +0", "Won 0, drawn 1, lost 0"]),
    ("featherwing", "tr", ["Pişti 2 Usta", "Oynanan 3, puan +1", "Galibiyet 2, yenilgi 1", "Beraberlik 0",
                           "Pis Yedili 3 Acemi", "Oynanan 1, puan +0", "Galibiyet 0, yenilgi 0",
                           "Beraberlik 1"])])
def test_the_rankings_say_played_won_drawn_lost_and_points_in_words(request, board, lang, want):
    """T-2: under each game, player count and level: the matches played and
    the ranking points, then how many were won, drawn and lost, in words
    (no "1: 2W 0D 1L +1"), every line within the 25 columns."""
    make = request.getfixturevalue("wing" if board == "featherwing" else "device")
    d = make(PISTI_LANG=lang)
    ok = "B" if board == "featherwing" else "A"
    d.press(ok)
    r = d.app.rankings
    for outcome in ((1, "won"), (1, "won"), (-1, "lost")):
        r.record("pisti", 2, "usta", outcome)
    r.record("yedili", 3, "acemi", (0, "drawn"))
    d.app.saves.write_ranking(r)
    d.app.records.drop_rankings()
    for _ in range(4):
        if d.status()["cursor"] != "rankings":
            d.press("C" if board == "featherwing" else "DOWN")
    d.press(ok)
    st = d.status()
    assert st["screen"] == "rankings" and st["title"] in ("Rankings", "Sıralama")
    pages = d.app.screen.pages
    lines = pages[0][1]
    assert lines == want, lines
    assert max(len(x) for x in lines) <= 25
    assert labels_out_of_bounds(d.app.display.root_group, 128, d.app.height) == []


def counted(lang, n, word):
    """'1 card', '0 cards', '2 piştis'; in Turkish the singular after any
    number ('2 kart', '0 pişti')."""
    if lang == "tr":
        return "%d %s" % (n, {"card": "kart"}.get(word, word))
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


@pytest.mark.parametrize("lang,want", [
    ("en", ["You: 1 card, 0 piştis", "Bot: 2 cards, 1 pişti, 2 J-Piştis"]),
    ("tr", ["Sen: 1 kart, 0 pişti", "Bot: 2 kart, 1 pişti, 2 V.Pişti"])])
def test_the_scores_page_counts_in_each_languages_grammar(device, lang, want):
    """P-9, P-12: English says '1 card' and '2 piştis' (pişti a noun with a
    plural); Turkish keeps the singular after a number ('2 kart')."""
    d = device(PISTI_START="pisti:2:kalfa", PISTI_LANG=lang, PISTI_SEED=6, PISTI_DELAY=0)
    my_turn(d)
    h = d.app.session.match.hand
    h.cards[:] = [1, 2]
    h.pistis[:] = [0, 1]
    h.jpistis[:] = [0, 2]
    d.press("B")
    d.menu_to("scores")
    d.press("A")
    lines = d.app.screen.pages[0][1]  # (wrapped at 25 columns)
    assert " ".join(lines[4:]) == " ".join(want), lines
