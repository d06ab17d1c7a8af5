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

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

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
    ("pisti", 4, ["game", "mode", "players", "target", "consoles", "link_seats", "seat1", "seat2", "start"]),
    ("yedili", 2, ["game", "mode", "players", "start"]),
    ("yedili", 3, ["game", "mode", "players", "consoles", "seat1", "start"]),
    ("yedili", 4, ["game", "mode", "players", "consoles", "seat1", "seat2", "start"]),
])
def test_L2_the_host_screen_shows_the_game_it_offers(device, game, players, rows):
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


def test_L2_the_host_screen_changes_the_offer_and_the_prefs_keep_it(device):
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
    assert d.app.status()["menu"] == ["game", "mode", "players", "consoles", "seat1", "start"]
    d.menu_to("seat1")
    d.press("RIGHT")  # Bot 1: Master
    s = _offered(d, cable)
    assert (s.game, s.players, s.rated, s.guest_seat, s.levels) == ("yedili", 3, False, 1, (None, None, "usta"))
    p = _saved(d)
    assert (p["game"], p["players"], p["seats"][0]) == ("yedili", 3, "usta")


def test_L2_b_on_the_host_screen_goes_back_keeping_its_changes(device):
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
def test_L2_hosting_pisti_4p_the_people_sit_as_partners_or_opponents(device, choice):
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


def test_L2_the_people_row_shows_the_remembered_choice_only_with_four_players(device):
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
    p["consoles"] = 4
    p["bot_seat"] = 1
    blob = prefs_mod.pack(p)
    q = prefs_mod.defaults()
    assert prefs_mod.unpack(blob, q) and q == p
    q = prefs_mod.defaults()
    assert prefs_mod.unpack(blob[:17], q) and q["partners"] is True and q["consoles"] == 2  # saved before the byte
    q = prefs_mod.defaults()
    assert not prefs_mod.unpack(blob[:17] + bytes((6,)), q) and q == prefs_mod.defaults()
    assert not prefs_mod.unpack(blob[:17] + bytes((24,)), q) and q == prefs_mod.defaults()


@pytest.mark.parametrize("gseat, words", [(2, "partners, against two bots"), (1, "opponents, each with a bot")])
def test_L2_the_join_screen_shows_the_hosts_seats(device, gseat, words):
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


def _kept(device, rated):
    """A console booted with a game kept to Continue (a rated one is cut by a power cut: not leaving, T-4)."""
    from tools.shims.nvm import FlashNvm
    nvm = FlashNvm()
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=2, PISTI_DELAY=50, PISTI_RATED=int(rated), nvm=nvm)
    d.first_frame()
    d.close()
    d = device(PISTI_SEED=2, nvm=nvm.restart())
    d.first_frame()
    d.press("A")  # past the splash
    st = d.app.status()
    assert st["menu"][0] == "continue" and d.app.kept.rated == rated and st["rankings"] == {}
    return d


@pytest.mark.parametrize("rated", [True, False])
def test_T4_L2_hosting_over_a_kept_game_asks_first_and_replaces_it_only_when_the_link_game_starts(
        device, rated):
    d = _kept(device, rated)
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    d.menu_to("link_play")
    d.press("A")
    d.press("A")  # Host
    d.press("A")  # offer: first the question
    st = d.app.status()
    assert st["screen"] == "confirm" and st["title"] == "Start a new game?", st
    said = " ".join(st["lines"])
    assert ("rated" in said and "loss (-1)" in st["message"]) if rated else "replaces the practice game" in said, st
    d.press("B")  # no: the Host screen, the kept game as it was
    assert d.app.status()["screen"] == "host" and d.app.kept is not None and d.app.status()["rankings"] == {}
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    d.press("A")
    d.press("A")  # yes: offered (the kept game stays until the link game starts)
    for _ in range(600):
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())
        if guest.phase == G.OFFERED:
            assert d.app.kept is not None  # nothing changed yet: the other player may decline
            guest.answer(True)
        if d.app.status()["screen"] == "table":
            break
    st = d.app.status()
    assert st["screen"] == "table" and d.app.session.linked and d.app.kept is None, st
    rows = st["rankings"]
    if rated:  # T-4: leaving the rated game kept (its first hand) is a loss
        assert [(r["played"], r["lost"], r["points"]) for r in rows.values()] == [(1, 1, -1)], rows
    else:
        assert rows == {}
    assert d.app.saves.kept().linked  # the save is the link game's now


def test_L2_joining_over_a_kept_game_asks_first_and_a_decline_keeps_it(device):
    d = _kept(device, True)
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.b)
    host = G.Lockstep(cable.a, P.HOST, "pisti", d.rig.clock.ticks_ms(),
                      P.Setup("pisti", 2, 101, False, 1, [None, None]),
                      LEVELS)
    d.menu_to("link_play")
    d.press("A")
    d.menu_to("link_join")
    d.press("A")
    st = d.app.status()
    assert st["screen"] == "confirm" and st["title"] == "Start a new game?", st
    d.press("A")  # yes: the wait, then the offer
    d.beside(host, lambda: d.app.status()["screen"] == "confirm", 3000)
    assert "offers" in " ".join(d.app.status()["lines"])
    d.press("B")  # declines: nothing changes (L-2)
    st = d.beside(host, lambda: False, 2000)
    assert st["screen"] == "menu" and st["menu"][0] == "continue" and d.app.kept.rated and st["rankings"] == {}
