# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The demo that plays itself: "Watch" in the main menu,
or 30 s without a key there. Bots take every seat and play whole matches,
the modes in turn (Pişti 2p, Pis Yedili 3p, Pişti 4p, Pis Yedili 4p), with
a DEMO banner and the hand's events on the message line. It is never
recorded (T-1: not even as practice; the saves are untouched, T-6), any key
ends it and does nothing else, and after its first minutes screen sleep
applies. ``--status`` says ``demo``."""

import shutil

import pytest

from test_screen_sleep import DIM, FULL, run_sim


def test_30_seconds_alone_at_the_main_menu_start_the_demo():
    st = run_sim("--keys", "WAIT:29000")
    assert st["screen"] == "menu" and st["demo"] is False
    st = run_sim("--keys", "WAIT:31000")
    assert st["demo"] is True and st["screen"] == "table" and st["display"] == FULL
    assert st["game"] == "pisti" and st["players"] == 2 and st["levels"] == ["usta", "usta"]
    assert not st["rated"] and not st["saved"]  # T-1: never rated, and nothing kept for it
    # 30 s from the last key, not from boot: A at 20 s puts it off to 50 s
    st = run_sim("--keys", "WAIT:20000,DOWN,WAIT:29000")
    assert st["screen"] == "menu" and not st["demo"] and st["cursor"] == "rankings"
    assert run_sim("--keys", "WAIT:20000,DOWN,WAIT:31000")["demo"]


def test_only_the_main_menu_starts_it():
    st = run_sim("--keys", "A,A,WAIT:60000")  # the new game screen, left alone
    assert st["screen"] == "new_game" and not st["demo"]


@pytest.mark.parametrize("key", ["A", "B", "DOWN", "B:900"])
def test_any_key_ends_the_demo_and_does_nothing_else(key):
    st = run_sim("--keys", "WAIT:35000," + key)
    assert st["screen"] == "menu" and st["demo"] is False and st["game"] is None
    assert st["cursor"] == "new_game" and st["display"] == FULL  # the key did not act on the menu


def test_featherwing_any_key_ends_it_too():
    fw = ("--profile", "featherwing")
    st = run_sim(*fw, "--keys", "WAIT:31000")
    assert st["demo"] and st["screen"] == "table"
    for key in ("A", "B", "C", "B:900"):
        st = run_sim(*fw, "--keys", "WAIT:31000," + key)
        assert st["screen"] == "menu" and not st["demo"] and st["cursor"] == "new_game", key


@pytest.mark.parametrize("lang, row", [("en", "Watch"), ("tr", "İzle")])
def test_watch_in_the_main_menu(device, lang, row):
    d = device(PISTI_LANG=lang)
    d.run(700)
    assert d.status()["menu"][-1] == "watch" and d.app.screen.items[-1].text == row
    d.close()
    st = run_sim("--lang", lang, "--keys", "A,UP,A")  # UP from the first row: the last, Watch
    assert st["demo"] and st["screen"] == "table" and st["game"] == "pisti"
    st = run_sim("--lang", lang, "--keys", "A,UP,A,A")
    assert st["screen"] == "menu" and not st["demo"]


def test_the_modes_rotate_and_the_table_wears_the_banner(device):
    d = device(PISTI_SEED=5)
    d.run(1500)  # the main menu, past the splash's grace for keys
    seen = []
    for _ in range(4):
        d.app.watch()
        d.run(100)
        st = d.status()
        assert st["demo"] and st["screen"] == "table" and st["rated"] is False
        assert d.app.screen.clock.text == "DEMO"
        assert all(lv == "usta" for lv in st["levels"])  # bots at every seat, the bottom one too
        seen.append((st["game"], st["players"]))
        d.press("B")
        assert d.status()["screen"] == "menu" and not d.status()["demo"]
    assert seen == [("pisti", 2), ("yedili", 3), ("pisti", 4), ("yedili", 4)]


def test_the_hands_events_are_on_the_message_line(device):
    d = device(PISTI_SEED=3, PISTI_DELAY=300)
    d.run(700)
    d.app.watch()
    said = set()
    for _ in range(40):
        d.run(300)
        said.add(d.status()["message"])
    assert any(": " in m and m.split(": ")[0] in ("Bot 1", "Bot 2") for m in said), said


def demo_results(d, totals):
    """Start the next demo mode with every total at ``totals`` (its first hand
    ends the match); the table's top bar and the texts of its hand end and
    match end, as shown."""
    d.app.watch()
    d.run(100)
    m = d.app.session.match
    m.totals[:] = [totals] * m.sides
    shown = {"bar": d.app.screen.score_l.text}
    for _ in range(60000):
        d.run(10)
        name = d.app.screen.name
        if name in ("hand_end", "match_end") and name not in shown:
            shown[name] = d.status()["texts"]
            if name == "match_end":
                return shown
    raise AssertionError("no match end: %r" % shown)


@pytest.mark.parametrize("lang,you", [("en", ("You", "You won!", "You're out")),
                                      ("tr", ("Sen", "Kazandın!", "Bitirdin"))])
def test_the_demo_names_every_seat_a_bot_and_no_one_you(device, lang, you):
    """No person plays a demo: its seats are Bot 1 to Bot 4 (teams in Pişti
    4p, Team 1 and Team 2), never You, in the top bar, the hand end and the
    match end (who won, the totals, who went out in Pis Yedili)."""
    d = device(PISTI_SEED=5, PISTI_DELAY=20, PISTI_LANG=lang)
    d.run(1500)
    for game, players, totals in (("pisti", 2, 100), ("yedili", 3, 100), ("pisti", 4, 100)):
        shown = demo_results(d, totals)
        assert d.status()["game"] == game and d.status()["players"] == players
        assert shown["bar"].split(" ")[0] == ("1+3" if players == 4 else "B1"), shown["bar"]
        texts = shown["hand_end"] + shown["match_end"]
        assert not [x for x in texts if any(w in x for w in you)], texts
        names = ["Team 1", "Team 2"] if players == 4 else ["Bot %d" % (i + 1) for i in range(players)]
        if lang == "tr":
            names = [n.replace("Team", "Takım") for n in names]
        for name in names:  # the match end's totals, a name a row or two (a dot between)
            assert name in shown["match_end"], (name, shown["match_end"])
        d.press("B")  # the demo ends: the menu
        assert d.status()["screen"] == "menu"


def test_a_demo_touches_neither_the_saves_nor_the_ranking(tmp_path):
    """T-6: a rated match ranked, a practice game kept; then demos (an idle
    one, a key, Watch, a key): the nvm is byte for byte the same."""
    nvm = tmp_path / "nvm.bin"
    run_sim("--nvm", str(nvm), "--start", "pisti:2:usta", "--seed", "7", "--target", "101", "--rated",
            "--keys", "A*125")
    before = run_sim("--nvm", str(nvm), "--keys", "A")
    assert before["rankings"] and not before["saved"]
    run_sim("--nvm", str(nvm), "--start", "yedili:2:kalfa", "--keys", "A,A")  # a game left to Continue
    kept = nvm.read_bytes()
    st = run_sim("--nvm", str(nvm), "--keys", "A")
    assert st["saved"] and st["menu"][0] == "continue"
    shutil.copy(nvm, tmp_path / "kept.bin")
    st = run_sim("--nvm", str(nvm), "--set", "PISTI_DELAY=100",
                 "--keys", "WAIT:150000,A,UP,A,WAIT:60000")
    assert st["demo"] and st["hand"] >= 2 and st["rankings"] == before["rankings"]
    st = run_sim("--nvm", str(nvm), "--set", "PISTI_DELAY=100", "--keys", "WAIT:100000,B")
    assert st["screen"] == "menu" and st["menu"][0] == "continue" and st["saved"]
    assert nvm.read_bytes() == kept
    assert st["nvm"]["erases"] == 0 and st["rankings"] == before["rankings"]
    st = run_sim("--nvm", str(nvm), "--keys", "WAIT:40000,B,A")  # a demo, a key, then Continue
    assert st["screen"] == "table" and not st["demo"] and st["game"] == "yedili" and st["players"] == 2
    assert st["ply"] >= 1 and st["levels"] == [None, "kalfa"]


def test_a_whole_demo_match_on_the_virtual_clock(device):
    """The first demo match (Pişti, 2 bots) to its end, its breakdowns and
    match end going on by themselves, then the next mode; every step's cards
    add up to the deck (P-1) and nothing raises."""
    d = device(PISTI_SEED=11, PISTI_DELAY=60)
    d.app.prefs["sleep"] = 4  # never: the demo plays on
    d.run(31000)
    screens = []
    hands = 0
    for _ in range(6000):
        d.run(100)
        st = d.status()
        assert st["demo"]
        if st["screen"] == "table" and st["game"] == "pisti":
            c = st["cards"]
            assert c["hands"] + c["pile"] + c["stock"] + c["taken"] == 52
            hands = max(hands, st["hand"])
        if not screens or screens[-1] != st["screen"]:
            screens.append(st["screen"])
            if st["screen"] == "match_end":
                assert "Practice: not ranked" in st["texts"] and "Any key: the menu" in st["texts"]
        if st["game"] == "yedili":
            break
    assert st["game"] == "yedili" and st["players"] == 3 and st["screen"] == "table"
    assert hands >= 2 and screens.count("hand_end") == hands and screens.count("match_end") == 1
    assert d.app.session.match.hand.ply < 10  # the next match has just begun


def test_with_a_30_s_screen_sleep_the_demo_wakes_the_dimmed_menu(tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    run_sim("--nvm", nvm, "--keys", "A,DOWN*2,A,DOWN*6,LEFT,A")  # Screen sleep 1 min -> 30 s
    st = run_sim("--nvm", nvm, "--keys", "A,WAIT:40000")
    assert st["demo"] and st["display"] == FULL


def test_after_a_few_minutes_screen_sleep_applies_and_ends_the_demo():
    """The demo keeps the screen on for 3 minutes (from 30 s); then the
    Screen sleep setting counts (1 min: dim at 4:30, off at 5:30), and once
    the screen is off the demo is over: the menu waits, off, for a key, and
    no demo starts again until one comes."""
    fast = ("--set", "PISTI_DELAY=1200")
    st = run_sim(*fast, "--keys", "WAIT:260000")
    assert st["demo"] and st["display"] == FULL
    st = run_sim(*fast, "--keys", "WAIT:300000")
    assert st["demo"] and st["display"] == DIM
    st = run_sim(*fast, "--keys", "WAIT:335000")
    assert not st["demo"] and st["screen"] == "menu" and not st["display"]["on"]
    st = run_sim(*fast, "--keys", "WAIT:335000,WAIT:100000")
    assert not st["demo"] and not st["display"]["on"]
    st = run_sim(*fast, "--keys", "WAIT:335000,DOWN")
    assert st["screen"] == "menu" and st["cursor"] == "new_game" and st["display"] == FULL
