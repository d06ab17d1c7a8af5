# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Words and ways on at the end of a hand and of a match:
"1 hand played" in the singular; the Pis Yedili breakdown says
what its "Mu" header is (Muamele, Y-15) and indents the Muamele cards'
second line; a Pis Yedili hand of more cards than show says how many
(128x64); the match end offers a rematch (the same game, players, levels,
target and mode, T-1) beside the main menu. Every loop driving the app is
bounded (``Device.wait`` gives up after its virtual time)."""

import io

import pytest

from console import labels_out_of_bounds
from test_app_strings import region_matches_text

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
    d.settle()
    d.press(ok)
    st = d.wait(lambda s: s["screen"] == "match_end", limit_ms=2000)
    d.settle()
    return d.status()


# -- words -------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang,said", [("en", "1 hand played"), ("tr", "1 el oynandı")])
def test_one_hand_played_is_said_in_the_singular(device, lang, said):
    d = device(PISTI_SEED=5, PISTI_DELAY=0, PISTI_LANG=lang)
    d.press("A")
    st = one_hand_match(d)
    assert d.app.session.hands_done == 1
    assert said in st["texts"], st["texts"]
    assert "1 hands played" not in st["texts"]


@pytest.mark.parametrize("board,lang,legend", [("pico", "en", "Mu: Muamele, picks for 7s"),
                                               ("featherwing", "tr", "Mu: Muamele, 7 cezası")])
def test_the_yedili_breakdown_says_what_mu_is(request, board, lang, legend):
    """Y-15: the "Mu" header is named and said in a few words: the cards
    picked for the 7s left in hand."""
    make = request.getfixturevalue("wing" if board == "featherwing" else "device")
    d = make(PISTI_SEED=5, PISTI_DELAY=0, PISTI_LANG=lang)
    d.press("B" if board == "featherwing" else "A")
    d.app.start_game("yedili", 2, [None, "kalfa"])
    d.app.bots[0] = First()
    st = d.wait(lambda s: s["screen"] != "table", limit_ms=300000)
    assert st["screen"] == "hand_end"
    assert "Mu" in st["texts"]  # the column header (Y-15) ...
    assert legend in st["texts"], st["texts"]  # ... and what it is, on a line of its own
    assert len(legend) <= 25
    assert labels_out_of_bounds(d.app.display.root_group, 128, d.app.height) == []


def test_the_muamele_cards_second_line_is_indented():
    from tools import gallery

    # The README's Pis Yedili breakdown: Bot 1 picked three Muamele cards (Y-15).
    st, image = gallery._run(gallery.BY_NAME["yedili_hand_end"])
    texts = st["texts"]
    first = texts.index("Mu: Muamele, picks for 7s")
    second = texts[first + 1]
    assert second.startswith("Bot 1 ")  # the cell itself is indented
    ink = [[image.getpixel((x, y)) for x in range(128)] for y in range(56, 64)]  # the 7th text row
    assert not any(v for row in ink for v in row[:10])  # two character cells clear on the left ...
    assert any(v for row in ink for v in row[10:20])  # ... then the Muamele cards picked
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


@pytest.mark.parametrize("board,lang,game,players", [("pico", "en", "pisti", 2), ("featherwing", "tr", "pisti", 4),
                                                      ("pico", "tr", "yedili", 4), ("featherwing", "en", "yedili", 3)])
def test_match_end_totals_stand_by_their_names(request, board, lang, game, players):
    """P-13, Y-16: each total sits right after its own name: one name a row
    (two sides), or two a row with a dot between the pairs (three or four),
    never a total followed straight by the next name."""
    make = request.getfixturevalue("wing" if board == "featherwing" else "device")
    d = make(PISTI_SEED=5, PISTI_DELAY=0, PISTI_LANG=lang)
    ok = "B" if board == "featherwing" else "A"
    d.press(ok)
    one_hand_match(d, game, players, [None] + ["kalfa"] * (players - 1), 101 if game == "pisti" else None, ok=ok)
    from pisti_app.texts.names import side_name

    s = d.app.session
    names = [side_name(s, i) for i in range(s.match.sides)]
    rows = {}
    for row, x, text, _ in d.app.screen.spec:
        rows.setdefault(row, []).append((x, text))
    pairs = []
    for row in sorted(rows):
        cells = [text for _, text in sorted(rows[row])]
        if cells[0] not in names:
            continue
        want = 2 if len(names) == 2 else 5 if len(cells) > 2 else 2
        assert len(cells) == want, cells
        pairs.append(tuple(cells[:2]))
        if want == 5:
            assert cells[2] == "\u00b7", cells
            pairs.append(tuple(cells[3:]))
    assert pairs == [(names[i], str(s.match.totals[i])) for i in range(len(names))], pairs
    assert labels_out_of_bounds(d.app.display.root_group, 128, d.app.height) == []


# -- a rematch ---------------------------------------------------------------------------------

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


# -- keys pressed through the last play do not skip the result ---------------------------------

def mash_to_rematch(d, ok, limit_ms=120000):
    """Tap ``ok`` every 100 ms (a person pressing quickly through the last
    plays) from a Pişti match whose first hand ends it until the rematch's
    table; return [(screen, ms it stayed)] in the order shown."""
    m = d.app.session.match
    for i in range(m.sides):
        m.totals[i] = 100
    shown = []
    at = 0
    for ms in range(0, limit_ms, 10):
        name = d.app.screen.name
        if not shown or shown[-1][0] != name:
            if shown:
                shown[-1] = (shown[-1][0], ms - at)
            shown.append((name, None))
            at = ms
            if len(shown) >= 4:  # table, hand end, match end, the rematch's table
                return shown
        if ms % 100 == 0:
            d.rig.keys.press(ok)
        elif ms % 100 == 40:
            d.rig.keys.release(ok)
        d.run(10)
    raise AssertionError("no rematch within %d ms: %r" % (limit_ms, shown))


@pytest.mark.parametrize("board", ["pico", "featherwing"])
def test_presses_through_the_last_play_leave_the_hand_end_and_match_end_up(request, board):
    """The hand end and the match end drop the keys pressed before they came
    and for a moment after (Input.mute_for, on the app's clock): the result
    is seen; then one press goes on, a rematch at the match end."""
    make = request.getfixturevalue("wing" if board == "featherwing" else "device")
    d = make(PISTI_START="pisti:2:acemi", PISTI_TARGET=101, PISTI_SEED=4, PISTI_DELAY=0)
    d.run(20)
    shown = mash_to_rematch(d, "B" if board == "featherwing" else "A")
    assert [name for name, _ in shown] == ["table", "hand_end", "match_end", "table"], shown
    for _, stayed in shown[1:3]:
        assert 700 <= stayed <= 900, shown  # dropped for 700 ms, then the next tap (every 100 ms) acts
    st = d.status()
    assert st["hand"] == 1 and st["totals"] == [0, 0]  # the rematch, by one press


def test_the_result_is_up_700_ms_from_its_first_frame_however_long_it_took_to_build(device, monkeypatch):
    """On the board a result screen takes a few hundred ms to build (its
    module compiled, the statistics saved): the keys are dropped for 700 ms
    from its first frame, not from the tick that began building it."""
    d = device(PISTI_START="pisti:2:acemi", PISTI_TARGET=101, PISTI_SEED=4, PISTI_DELAY=0)
    from pisti_app.screens import results  # (under the console's rig)
    built = results.Rows.__init__

    def slow(self, app):
        built(self, app)
        d.rig.clock.advance(400)  # a build as slow as the board's

    monkeypatch.setattr(results.Rows, "__init__", slow)
    d.run(20)
    shown = mash_to_rematch(d, "A")
    assert [name for name, _ in shown] == ["table", "hand_end", "match_end", "table"], shown
    for _, stayed in shown[1:3]:
        assert 700 <= stayed <= 900, shown


def test_a_key_held_into_the_hand_end_does_nothing_there(device):
    d = device(PISTI_START="pisti:2:acemi", PISTI_TARGET=101, PISTI_SEED=4, PISTI_DELAY=0)
    m = d.app.session.match
    m.totals[0] = m.totals[1] = 100
    d.app.bots[0] = First()
    d.wait(lambda s: s["screen"] == "hand_end", limit_ms=300000)
    assert not d.app.idle()  # not waiting for a key yet: a script or a person reads first
    d.rig.keys.tap("A", 40)
    d.run(300)
    assert d.status()["screen"] == "hand_end"
    st = d.settle()
    assert st["screen"] == "hand_end"
    d.press("A")
    assert d.wait(lambda s: s["screen"] == "match_end", limit_ms=2000)


def test_the_simulator_holds_on_the_final_score_before_a_rematch(monkeypatch):
    """``tools/sim.py --keys "A*N"`` waits for the app to take keys again
    (app.idle()): the match end stays up 700 ms before the next A, a
    rematch."""
    from tools import sim
    from tools.simlib import headless

    seen = []  # (virtual ms, screen) at each change
    update = headless.Headless.update

    def watch(self, session, now):
        stack = getattr(session.app, "stack", None)
        name = stack[-1].name if stack else None
        if not seen or seen[-1][1] != name:
            seen.append((now, name))
        update(self, session, now)

    monkeypatch.setattr(headless.Headless, "update", watch)
    out, err = io.StringIO(), io.StringIO()
    code = sim.main(["--headless", "--start", "pisti:2:acemi", "--seed", "4", "--target", "101",
                     "--set", "PISTI_DELAY=50", "--keys", "A*200", "--status"], out=out, err=err)
    assert code == 0, err.getvalue()
    names = [n for _, n in seen]
    assert "match_end" in names, names
    i = names.index("match_end")
    assert names[i + 1] == "table"  # the rematch
    assert seen[i + 1][0] - seen[i][0] >= 700, seen[i - 1:i + 2]
    for k in range(len(names) - 1):
        if names[k] == "hand_end":
            assert seen[k + 1][0] - seen[k][0] >= 700, seen[k:k + 2]
