# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""L-10 in the app: rated link games are ranked "against a person", a
table of their own next to the bots' (T-2's points), and shown with the
rankings; the host's move timer (T-3) runs for each person and shows on
both consoles; the other console leaving ends the game here."""

import pytest

from pisti_core import linkgame as G
from pisti_core import linkproto as P
from pisti_core.table import Ranking
from tools.shims import uart
from tools.shims.uart import Cable

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def test_L10_the_ranking_keeps_a_table_against_a_person_beside_the_bots():
    r = Ranking()
    r.record("pisti", 2, "usta", (1, "won"))
    r.record("pisti", 2, "person", (-1, "lost"))
    r.record("yedili", 4, "person", (0, "drawn"))
    r.stamp = 9
    back = Ranking.from_bytes(r.to_bytes())
    assert back.as_dict() == r.as_dict() and back.stamp == 9
    assert back.get("pisti", 2, "person") == [1, 0, 0, 1, -1] and back.get("pisti", 2, "usta") == [1, 1, 0, 0, 1]
    old = Ranking()
    old.record("yedili", 3, "kalfa", (1, "won"))
    assert Ranking.from_bytes(old.to_bytes()).as_dict() == old.as_dict()  # a ranking saved before reads the same
    bad = bytearray(r.to_bytes())
    bad[2] = 40  # a table nobody knows
    try:
        Ranking.from_bytes(bytes(bad))
    except ValueError as e:
        assert "unknown table" in str(e)
    else:
        raise AssertionError("an unknown ranking table was read")


def _join(d, setup):
    """The app joins ``setup`` offered by a host console (its Lockstep)."""
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.b)
    host = G.Lockstep(cable.a, P.HOST, "pisti", d.rig.clock.ticks_ms(), setup, LEVELS)
    d.first_frame()
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")
    d.menu_to("link_join")
    d.press("A")
    for _ in range(600):
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
        st = d.app.status()
        if st["screen"] == "confirm":
            d.press("A")  # join
        if st["screen"] == "table":
            break
    assert d.app.status()["screen"] == "table", d.app.status()
    return cable, host


def test_L10_the_move_timer_is_the_hosts_and_runs_for_the_other_person_too(device):
    """The guest console, rated: its clock is the host's 45 s (not its own
    setting); while the host's person is to move it shows that person's
    countdown too, which stops at 0 without timing this console out."""
    d = device()
    setup = P.Setup("pisti", 2, 101, True, 1, [None, None], 45)
    d.app.prefs["timer"] = 120
    cable, host = _join(d, setup)
    app = d.app
    assert app.session.linked and app.session.rated
    other = app.link.person
    assert other == 1  # the host's seat 0 is the guest's seat 1
    for _ in range(3000):  # the guest's person plays until the host's is to move
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
        st = d.app.status()
        if app.session.hand.turn == other and not st["holding"]:
            break
        if st.get("legal") and not st["holding"]:
            assert st["timer"] is not None and 40 <= st["timer"] <= 45, st  # its own clock: the host's 45 s
            d.rig.keys.tap("A", 20)
    for _ in range(200):  # 2 s (the host console heard all along: L-7 stops the clock otherwise)
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
    st = d.app.status()
    assert app.session.hand.turn == other and st["timer"] is not None and 40 <= st["timer"] <= 44, st
    for _ in range(50):  # 50 s: the host's person is out of time; that console says so, not this one
        d.run(1000)
        host.poll(d.rig.clock.ticks_ms())
    st = d.app.status()
    assert st["screen"] == "table" and st["timer"] == 0 and app.link is not None, st


def test_L10_the_other_console_leaving_ends_a_rated_game_with_nothing_recorded_here(device):
    d = device()
    setup = P.Setup("pisti", 2, 101, True, 1, [None, None])
    cable, host = _join(d, setup)
    host.leave()  # its person chose Exit (or ran out of time): T-4 is recorded there
    for _ in range(100):
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
    st = d.app.status()
    text = " ".join(st["lines"])
    assert st["screen"] == "confirm" and text == ("The other player left the table: the game has ended. "
                                                  "Nothing is recorded for you."), st
    assert d.app.link is None and d.app.session is None and not st["saved"]
    assert st["rankings"] == {}  # the one who left pays (T-4), not this console


def test_L10_a_rated_link_game_left_is_ranked_against_a_person_and_shown_so(device):
    d = device()
    setup = P.Setup("pisti", 2, 101, True, 1, [None, None])
    _join(d, setup)
    d.press("B")  # at a link table: the question to leave
    st = d.app.status()
    assert st["screen"] == "confirm" and "Leaving now ends the rated game." in st["message"], st  # T-4: the cost first
    d.press("A")
    st = d.app.status()
    assert st["screen"] == "menu" and st["rankings"] == {
        "pisti:2:person": {"played": 1, "won": 0, "drawn": 0, "lost": 1, "points": -1}}, st
    d.menu_to("rankings")
    d.press("A")
    text = " ".join(d.app.status()["lines"])
    assert "Against a person" in text and "vs person" in text, text
