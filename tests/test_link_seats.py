# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""L-2 in the menus: hosting a Pişti 4p the host chooses where the two
people sit -- partners (seats 0 and 2) against two bots, or opponents
(seats 0 and 1) each with a bot partner -- and the joining console's offer
says which."""

import pytest

from pisti_core import linkgame as G
from pisti_core import linkproto as P
from tools.shims import uart
from tools.shims.uart import Cable
from test_app_boot import device  # noqa: F401  pylint: disable=unused-import
from test_table_modes import quick_gc  # noqa: F401  pylint: disable=unused-import

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def _link_menu(d):
    d.first_frame()
    d.app.prefs.update({"game": "pisti", "players": 4, "seats": ["kalfa", "usta", "acemi"]})
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")


@pytest.mark.parametrize("choice", ["partners", "opponents"])
def test_L2_hosting_pisti_4p_the_people_sit_as_partners_or_opponents(device, quick_gc, choice):  # noqa: F811
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    _link_menu(d)
    st = d.app.status()
    assert st["menu"] == ["link_host", "link_seats", "link_join"], st
    d.menu_to("link_seats")
    if choice == "opponents":
        d.press("RIGHT")
    d.menu_to("link_host")
    d.press("A")
    for _ in range(600):
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())
        if guest.phase == G.OFFERED:
            break
    s = guest.setup
    assert s is not None and (s.game, s.players) == ("pisti", 4)
    if choice == "partners":
        assert s.guest_seat == 2 and s.levels == (None, "kalfa", None, "usta")
    else:  # opponents: seat 1 is the guest, each person's partner a bot
        assert s.guest_seat == 1 and s.levels == (None, None, "kalfa", "usta")


def test_L2_the_seats_row_is_only_there_for_pisti_4p(device, quick_gc):  # noqa: F811
    d = device()
    d.first_frame()
    d.app.prefs.update({"game": "yedili", "players": 4})
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    assert d.app.status()["menu"] == ["link_host", "link_join"]


@pytest.mark.parametrize("gseat, words", [(2, "partners, against two bots"), (1, "opponents, each with a bot")])
def test_L2_the_join_screen_shows_the_hosts_seats(device, quick_gc, gseat, words):  # noqa: F811
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.b)
    lv = [None, None, "usta", "usta"] if gseat == 1 else [None, "usta", None, "usta"]
    host = G.Lockstep(cable.a, P.HOST, "pisti", d.rig.clock.ticks_ms(), P.Setup("pisti", 4, 101, False, gseat, lv),
                      LEVELS)
    d.first_frame()
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.menu_to("link_join")
    d.press("A")
    for _ in range(300):
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
        if d.app.status()["screen"] == "confirm":
            break
    text = " ".join(d.app.status()["lines"])
    assert words in text, text
