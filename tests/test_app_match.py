# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Words and ways on at the end of a hand and of a match (issue 21, items 6
and 7): "1 hand played" in the singular; the Pis Yedili breakdown says
what its "Mu" header is (Muamele, Y-15) and indents the Muamele cards'
second line; a Pis Yedili hand of more cards than show says how many
(128x64); the match end offers a rematch (the same game, players, levels,
target and mode, T-1) beside the main menu. Every loop driving the app is
bounded (``Device.wait`` gives up after its virtual time)."""

import pytest

from test_app_boot import device, labels_out_of_bounds  # noqa: F401  pylint: disable=unused-import
from test_app_strings import region_matches_text
from test_featherwing import wing  # noqa: F401  pylint: disable=unused-import

from pisti_core.yedili import DRAW, PASS


class First:
    """A bot for the person's seat (the ``app.bots`` hook): the first legal action."""

    def choose(self, obs):
        return obs.legal()[0]


class Drawer:
    """A bot for the person's seat that draws and passes whenever it may (Y-5)."""

    def choose(self, obs):
        legal = obs.legal()
        for a in (DRAW, PASS):
            if a in legal:
                return a
        return legal[0]


def one_hand_match(d, game="yedili", players=2, levels=(None, "kalfa"), target=None, rated=False,
                   ok="A"):
    """Start a match whose first hand ends it (every total at 100 before it:
    Y-16, P-13), the person's seat played by :class:`First`; return the
    status at the match end."""
    d.app.start_game(game, players, list(levels), target, rated)
    m = d.app.session.match
    for i in range(m.sides):
        m.totals[i] = 100
    d.app.bots[0] = First()
    st = d.wait(lambda s: s["screen"] != "table", limit_ms=300000)
    assert st["screen"] == "hand_end", st
    d.press(ok)
    return d.wait(lambda s: s["screen"] == "match_end", limit_ms=2000)


# -- item 6: words ----------------------------------------------------------------------------

@pytest.mark.parametrize("lang,said", [("en", "1 hand played"), ("tr", "1 el oynandı")])
def test_one_hand_played_is_said_in_the_singular(device, lang, said):
    d = device(PISTI_SEED=5, PISTI_DELAY=0, PISTI_LANG=lang)
    d.press("A")
    st = one_hand_match(d)
    assert d.app.session.hands_done == 1
    assert said in st["texts"], st["texts"]
    assert "1 hands played" not in st["texts"]


def test_the_yedili_breakdown_says_what_mu_is(device):
    d = device(PISTI_SEED=5, PISTI_DELAY=0)
    d.press("A")
    d.app.start_game("yedili", 2, [None, "kalfa"])
    d.app.bots[0] = First()
    st = d.wait(lambda s: s["screen"] != "table", limit_ms=300000)
    assert st["screen"] == "hand_end"
    assert "Mu" in st["texts"]  # the column header (Y-15) ...
    assert [x for x in st["texts"] if x.startswith("Mu = Muamele")], st["texts"]  # ... and what it means
    assert labels_out_of_bounds(d.app.display.root_group) == []


def test_the_muamele_cards_second_line_is_indented():
    from tools import gallery  # pylint: disable=import-outside-toplevel

    # The README's Pis Yedili breakdown: Bot 1 picked three Muamele cards (Y-15).
    st, image = gallery._run(gallery.BY_NAME["yedili_hand_end"])  # pylint: disable=protected-access
    texts = st["texts"]
    first = [i for i, x in enumerate(texts) if x.startswith("Mu = Muamele: Bot 1 ")]
    assert first, texts
    second = texts[first[0] + 1]
    assert second and not second.startswith(" ")  # the cell itself is indented
    ink = [[image.getpixel((x, y)) for x in range(128)] for y in range(56, 64)]  # the 7th text row
    assert not any(v for row in ink for v in row[:10])  # two character cells clear on the left ...
    assert any(v for row in ink for v in row[10:20])  # ... then the rest of the Muamele list
    ink6 = [[image.getpixel((x, y)) for x in range(5)] for y in range(48, 56)]
    assert any(v for row in ink6 for v in row)  # the line above starts flush left


def test_a_long_yedili_hand_says_how_many_cards_it_holds(device):
    d = device(PISTI_START="yedili:2:acemi", PISTI_SEED=3, PISTI_DELAY=0)
    d.app.bots[0] = Drawer()  # the person's hand only grows
    st = d.wait(lambda s: s["screen"] != "table" or len(s["your_hand"]) >= 17, limit_ms=300000)
    assert st["screen"] == "table" and len(st["your_hand"]) >= 17, st
    d.app.bots[0] = None  # the person's turn comes and waits
    st = d.wait(lambda s: s["turn"] == 0 and s["legal"] and not s["holding"] and not s["toast"],
                limit_ms=60000)
    n = len(st["your_hand"])
    screen = d.app.screen
    assert screen.first + 8 < n
    text = "%d\u25b6" % n
    assert screen.held.text == text  # e.g. "17▶": the count, and more cards to the right
    d.run(20)
    assert region_matches_text(d.rig.oled, text, 127 - 5 * len(text), 26, "small")
    assert labels_out_of_bounds(d.app.display.root_group) == []
    for _ in range(n):  # to the end of the hand: the count stays, the arrow goes
        d.press("RIGHT", after=20)
        if screen.first + 8 >= n:
            break
    assert screen.held.text == "%d" % n


# -- item 7: a rematch ------------------------------------------------------------------------

def test_match_end_offers_a_rematch_of_the_same_practice_game(device):
    d = device(PISTI_SEED=5, PISTI_DELAY=0)
    d.press("A")
    st = one_hand_match(d, "pisti", 2, (None, "acemi"), 101)
    assert "A rematch  B menu" in st["texts"]
    d.press("A")  # a rematch
    st = d.wait(lambda s: s["screen"] == "table", limit_ms=2000)
    assert (st["game"], st["players"], st["levels"], st["target"], st["rated"]) == (
        "pisti", 2, [None, "acemi"], 101, False)
    assert st["hand"] == 1 and st["totals"] == [0, 0]
    assert d.app.saves.store.game_header is not None  # the new game is saved (T-6)


def test_a_rated_rematch_is_rated_again_and_ranked_once(device):
    d = device(PISTI_SEED=6, PISTI_DELAY=0)
    d.press("A")
    st = one_hand_match(d, "yedili", 3, (None, "usta", "kalfa"), None, True)
    ranked = dict(st["rankings"])
    assert list(ranked) == ["yedili:3:usta"] and ranked["yedili:3:usta"]["played"] == 1
    number = d.app.session.number
    d.press("A")
    st = d.wait(lambda s: s["screen"] == "table", limit_ms=2000)
    assert (st["game"], st["players"], st["levels"], st["rated"]) == ("yedili", 3, [None, "usta", "kalfa"], True)
    assert st["rankings"] == ranked  # the finished match counted once
    assert d.app.session.number == (number + 1) & 0xFFFF  # a new rated game (T-1)


def test_match_end_b_goes_to_the_main_menu(device):
    d = device(PISTI_SEED=5, PISTI_DELAY=0, PISTI_LANG="tr")
    d.press("A")
    st = one_hand_match(d)
    assert "A rövanş  B menü" in st["texts"]
    d.press("B")
    st = d.wait(lambda s: s["screen"] == "menu", limit_ms=2000)
    assert d.app.session is None


def test_three_buttons_b_rematch_and_a_long_b_the_menu(wing):
    d = wing(PISTI_SEED=5, PISTI_DELAY=0)
    d.press("B")
    st = one_hand_match(d, ok="B")
    assert d.app.screen.title_r.text == "B rematch" and "B rematch  hold B menu" in st["texts"]
    assert d.out_of_bounds() == []
    d.press("B")
    st = d.wait(lambda s: s["screen"] == "table", limit_ms=2000)
    assert (st["game"], st["players"], st["hand"]) == ("yedili", 2, 1)
    st = one_hand_match(d, ok="B")
    d.long("B")
    st = d.wait(lambda s: s["screen"] == "menu", limit_ms=2000)
