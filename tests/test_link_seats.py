# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""L-2 in the menus: Link play > Host shows the game it will offer -- the
New game rows (game, mode, players, target, the bots' levels) and, in a
Pişti 4p, where the two people sit: partners (seats 0 and 2) against two
bots, or opponents (seats 0 and 1) each with a bot partner -- and changes
it there, remembered in the prefs; the joining console's offer says which
seats."""

import pytest

from pisti_app import prefs as prefs_mod
from pisti_core import linkgame as G
from pisti_core import linkproto as P
from tools.shims import uart
from tools.shims.uart import Cable
from test_app_boot import device  # noqa: F401  pylint: disable=unused-import
from test_table_modes import quick_gc  # noqa: F401  pylint: disable=unused-import

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def _host_screen(d, **prefs):
    """Main menu > Link play > Host, with ``prefs`` set first: the Host screen."""
    d.first_frame()
    d.app.prefs.update(prefs)
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")
    assert d.app.status()["menu"] == ["link_host", "link_join"]
    d.press("A")  # Host
    st = d.app.status()
    assert st["screen"] == "host", st
    return st


def _value(d, key):
    return d.app.stack[-1].item(key).value


def _offered(d, cable):
    """Offer the Host screen's game (A) to a guest on ``cable``; its Setup."""
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    d.press("A")
    for _ in range(600):
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())
        if guest.phase == G.OFFERED:
            break
    assert guest.phase == G.OFFERED and guest.setup is not None
    return guest.setup


def _saved(d):
    """The prefs as the nvm has them."""
    p = prefs_mod.defaults()
    assert d.app.saves.read_prefs(p)
    return p


@pytest.mark.parametrize("game, players, rows", [
    ("pisti", 2, ["game", "mode", "players", "target", "start"]),
    ("pisti", 4, ["game", "mode", "players", "target", "link_seats", "seat1", "seat2", "start"]),
    ("yedili", 2, ["game", "mode", "players", "start"]),
    ("yedili", 3, ["game", "mode", "players", "seat1", "start"]),
    ("yedili", 4, ["game", "mode", "players", "seat1", "seat2", "start"]),
])
def test_L2_the_host_screen_shows_the_game_it_offers(device, quick_gc, game, players, rows):  # noqa: F811
    """Its rows are the New game rows' values; a bot row for each seat that
    is neither person's (none in a 2-player game); the last row offers."""
    d = device()
    st = _host_screen(d, game=game, players=players, rated=True, target=101, seats=["usta", "acemi", "kalfa"])
    assert st["menu"] == rows and st["title"] == "Host", st
    assert _value(d, "game") == {"pisti": "Pişti", "yedili": "Pis Yedili"}[game]
    assert _value(d, "players") == str(players) and _value(d, "mode") == "Rated"
    if game == "pisti":
        assert _value(d, "target") == "101"
    if players > 2:
        assert _value(d, "seat1") == "Master" and d.app.stack[-1].item("seat1").text == "Bot 1"
    if players == 4:
        assert _value(d, "seat2") == "Novice"
    assert st["footer"] == "\u25c0\u25b6 change A offer B back"


def test_L2_the_host_screen_changes_the_offer_and_the_prefs_keep_it(device, quick_gc):  # noqa: F811
    """Pis Yedili set on the Host screen itself (not in New game first) is
    what the other console is offered, and what New game and the next Host
    screen show: the prefs, saved."""
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    _host_screen(d, game="pisti", players=2, rated=False, seats=["kalfa", "kalfa", "kalfa"])
    d.press("RIGHT")  # Game: Pis Yedili
    d.menu_to("players")
    d.press("RIGHT")  # 3 players
    assert d.app.status()["menu"] == ["game", "mode", "players", "seat1", "start"]
    d.menu_to("seat1")
    d.press("RIGHT")  # Bot 1: Master
    s = _offered(d, cable)
    assert (s.game, s.players, s.rated, s.guest_seat, s.levels) == ("yedili", 3, False, 1, (None, None, "usta"))
    p = _saved(d)
    assert (p["game"], p["players"], p["seats"][0]) == ("yedili", 3, "usta")


def test_L2_b_on_the_host_screen_goes_back_keeping_its_changes(device, quick_gc):  # noqa: F811
    d = device()
    _host_screen(d, game="pisti", players=2, rated=False)
    d.menu_to("mode")
    d.press("LEFT")  # Rated
    d.press("B")
    st = d.app.status()
    assert st["screen"] == "link" and st["menu"] == ["link_host", "link_join"] and d.app.link is None, st
    assert _saved(d)["rated"] is True
    d.press("B")
    d.menu_to("new_game")
    d.press("A")  # New game: the same rows
    assert d.app.status()["screen"] == "new_game" and _value(d, "mode") == "Rated"


@pytest.mark.parametrize("choice", ["partners", "opponents"])
def test_L2_hosting_pisti_4p_the_people_sit_as_partners_or_opponents(device, quick_gc, choice):  # noqa: F811
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    _host_screen(d, game="pisti", players=4, seats=["kalfa", "usta", "acemi"])
    assert _value(d, "link_seats") == "Partners"
    d.menu_to("link_seats")
    if choice == "opponents":
        d.press("RIGHT")
    s = _offered(d, cable)
    assert (s.game, s.players) == ("pisti", 4)
    if choice == "partners":
        assert s.guest_seat == 2 and s.levels == (None, "kalfa", None, "usta")
    else:  # opponents: seat 1 is the guest, each person's partner a bot
        assert s.guest_seat == 1 and s.levels == (None, None, "kalfa", "usta")
    assert _saved(d)["partners"] is (choice == "partners")  # remembered, as the New game rows are


def test_L2_the_people_row_shows_the_remembered_choice_only_with_four_players(device, quick_gc):  # noqa: F811
    d = device()
    _host_screen(d, game="pisti", players=4, partners=False)
    assert _value(d, "link_seats") == "Opponents"
    d.menu_to("players")
    d.press("LEFT")  # 2 players: nobody's partner, no row
    assert "link_seats" not in d.app.status()["menu"]


def test_settings_blobs_keep_the_link_seats_and_older_ones_read_as_partners():
    p = prefs_mod.defaults()
    assert p["partners"] is True
    p["partners"] = False
    blob = prefs_mod.pack(p)
    q = prefs_mod.defaults()
    assert prefs_mod.unpack(blob, q) and q == p
    q = prefs_mod.defaults()
    assert prefs_mod.unpack(blob[:17], q) and q["partners"] is True  # a blob saved before the byte
    q = prefs_mod.defaults()
    assert not prefs_mod.unpack(blob[:17] + bytes((2,)), q) and q == prefs_mod.defaults()


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
