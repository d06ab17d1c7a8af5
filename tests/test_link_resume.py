# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""L-9 in the app: a power cut on a console in a link game is not leaving
(T-4). The game is saved with its link (role, seats, the key of the deal's
bytes, L-3); after the boot Continue opens the cable again and both
consoles go on with the same hand at the same ply -- the one behind
catching up from the other's record."""

import random

import pytest

from pisti_core import linkgame as G
from pisti_core import linkproto as P
from tools.shims import uart
from tools.shims.nvm import FlashNvm
from tools.shims.uart import Cable

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


class Rig:
    """One app (the host, a real console on the shims) and a guest console
    (its Lockstep) on a cable; the clock runs on across the app's reboots."""

    def __init__(self, device, nvm, rated=False, game="pisti", players=2):
        self.make = device
        self.nvm = nvm
        self.base = 0
        self.d = device(nvm=nvm)
        self.cable = Cable(self.clock)
        self.guest = G.Lockstep(self.cable.b, P.GUEST, "pisti", self.clock(), None, LEVELS)
        self.rng = random.Random(3)
        d = self.d
        d.first_frame()
        d.app.prefs.update({"rated": rated, "game": game, "players": players})
        uart.plug(self.cable.a)
        d.press("A")  # past the splash
        d.menu_to("link_play")
        d.press("A")
        d.press("A")  # Host
        d.press("A")  # the Host screen: offer its game
        self.until(lambda st: st["screen"] == "table")

    def clock(self):
        return self.base + self.d.rig.clock.now_ms

    def step(self, guest_plays=True):
        self.d.run(10)
        g = self.guest
        g.poll(self.clock())
        if g.phase == G.OFFERED:
            g.answer(True)
        if guest_plays and g.to_act() >= 0 and self.rng.random() < 0.3:
            g.act(self.rng.choice(g.match.hand.legal()))

    def until(self, cond, n=5000, person=False, guest_plays=True):
        for _ in range(n):
            st = self.d.app.status()
            if cond(st):
                return st
            if person and st["screen"] == "table" and st.get("legal") and not st.get("holding"):
                self.d.rig.keys.tap("A", 20)
            self.step(guest_plays)
        raise AssertionError(self.d.app.status())

    def power_cut(self, image=None):
        """The app's console loses power (its flash as ``image``, default as
        it is) and boots again; its UART forgets what it had."""
        self.base = self.clock()
        self.d.close()
        self.cable.a.power_cut()
        self.nvm = FlashNvm(data=bytes(image)) if image is not None else self.nvm.restart()
        uart.plug(self.cable.a)
        self.d = self.make(nvm=self.nvm)
        self.d.first_frame()


def _continue(r):
    st = r.until(lambda st: st["screen"] == "menu", 500)
    assert st["menu"][0] == "continue", st  # T-4: the game is kept
    r.d.run(600)  # (keys just after the splash are dropped)
    r.d.press("A")
    r.until(lambda st: st["screen"] != "menu", 100)


def test_L9_a_power_cut_on_the_host_the_link_game_goes_on_at_the_same_ply(device):
    r = Rig(device, FlashNvm())
    st = r.until(lambda st: st["screen"] == "table" and st["ply"] >= 3, person=True)
    r.until(lambda st: r.guest.chan.idle() and not st["holding"] and not st["queued"], 500, guest_plays=False)
    h = r.d.app.session.hand
    deck, acts = bytes(h.deck), bytes(h.actions)
    assert bytes(r.guest.match.hand.actions) == acts
    r.power_cut()
    _continue(r)
    st = r.d.app.status()
    assert st["screen"] == "table" and r.d.app.link is not None and r.d.app.session.linked
    h = r.d.app.session.hand
    assert (bytes(h.deck), bytes(h.actions)) == (deck, acts)  # the same hand, the same ply
    ply = len(acts)
    st = r.until(lambda st: st["screen"] != "table" or st["ply"] >= ply + 4, person=True)
    r.until(lambda st: r.guest.chan.idle() and r.d.app.link.lock.chan.idle(), 500, guest_plays=False)
    h = r.d.app.session.hand
    if h is not None and r.guest.match.hand is not None and bytes(r.guest.match.hand.deck) == bytes(h.deck):
        n = len(h.actions)
        assert bytes(r.guest.match.hand.actions[0:n]) == bytes(h.actions)
    assert r.d.app.link.status(r.d.app.now) == "ok"


def test_L9_the_console_whose_save_is_behind_catches_up_from_the_other(device):
    """The app's flash lags one action of the other console behind (the cut
    fell before that action was saved): after the boot its link takes the
    guest's longer record and the remote seat gives that action again."""
    r = Rig(device, FlashNvm())
    app = r.d.app
    r.until(lambda st: st["screen"] == "table" and st["ply"] >= 1 and app.session.hand.turn == 1
            and not st["holding"] and not st["queued"] and r.guest.chan.idle(), person=True, guest_plays=False)
    image = r.nvm.snapshot()  # the guest is to move: this is what the flash holds now
    ply = app.session.hand.ply
    r.until(lambda st: app.session.hand is not None and app.session.hand.ply > ply, 3000)
    gacts = bytes(r.guest.match.hand.actions)
    assert len(gacts) > ply
    r.power_cut(image)
    _continue(r)
    app = r.d.app
    assert app.link is not None and app.session.hand.ply == ply  # from its own save: one behind
    r.until(lambda st: app.session.hand is not None and app.session.hand.ply > ply, 3000, guest_plays=False)
    assert bytes(app.session.hand.actions[0:len(gacts)]) == gacts[0:len(app.session.hand.actions)]
    assert app.link.lock.repairs >= 1  # it asked for the other's record


def test_L9_a_link_game_saved_keeps_its_link_and_a_garbled_one_is_refused(device):
    """The save of a link game names its link (flag bit 2, role, the guest's
    seat, the timer, L-3's key); a header whose link bytes name no seat
    does not replay (dropped with a notice, never a traceback)."""
    from pisti_app.match import session_io
    from pisti_app.match.session import GameSession
    from pisti_core.match import Match
    m = Match("pisti", 4, 101, 1)
    m.deal()
    s = GameSession(m, [None, "kalfa", "acemi", "usta"], True, 7)
    s.linked = True
    s.link_info = (1, 2, 90, bytes(range(16)))
    head = s.header()
    s2 = session_io.restore(head, b"")
    assert s2.linked and s2.link_info == (1, 2, 90, bytes(range(16))) and s2.rated and s2.number == 7
    assert s2.header() == head
    bad = bytearray(head)
    bad[-19] = 9  # the guest's seat
    try:
        session_io.restore(bytes(bad), b"")
    except ValueError as e:
        assert "seat" in str(e)
    else:
        raise AssertionError("a link game with no seat for the other console replayed")
    s.linked = False  # L-8: a bot took the seat, the link is gone: an ordinary save
    assert session_io.restore(s.header(), b"").linked is False


def test_L9_continue_with_no_cable_to_open_says_why_and_keeps_the_game(device):
    """After the boot the link's pins are set wrong: Continue names the
    setting, nothing saved is touched, the game stays to Continue."""
    r = Rig(device, FlashNvm())
    r.until(lambda st: st["screen"] == "table" and st["ply"] >= 2, person=True)
    r.d.close()
    nvm = r.nvm.restart()
    d = r.make(nvm=nvm, PISTI_LINK_TX="GP99")
    d.first_frame()
    image = nvm.snapshot()
    d.run(2000)
    d.press("A")  # Continue
    st = d.status()
    assert st["screen"] == "confirm" and "PISTI_LINK_TX" in " ".join(st["lines"]), st
    assert d.app.link is None and nvm.snapshot() == image
    d.press("A")
    st = d.status()
    assert st["screen"] == "menu" and st["menu"][0] == "continue", st


def test_L9_on_the_board_a_link_game_starts_by_restarting_into_it(device, monkeypatch):
    """On CircuitPython (pisti_app.restarts) the first deal is saved and the
    console restarts into it (run(): supervisor.reload(), then boot(resume)):
    the table on a fresh heap. The other console sees a power cut's silence;
    the game goes on at its first ply with the link's deal."""
    import pisti_app
    import pisti_app.util
    monkeypatch.setattr(pisti_app.util, "restarts", lambda: True)
    r = Rig.__new__(Rig)
    r.make, r.nvm, r.base = device, FlashNvm(), 0
    r.d = device(nvm=r.nvm)
    r.cable = Cable(r.clock)
    r.guest = G.Lockstep(r.cable.b, P.GUEST, "pisti", r.clock(), None, LEVELS)
    r.rng = random.Random(3)
    r.d.first_frame()
    uart.plug(r.cable.a)
    r.d.press("A")
    r.d.menu_to("link_play")
    r.d.press("A")
    r.d.press("A")  # Host
    r.d.press("A")  # the Host screen: offer its game
    for _ in range(3000):
        if r.d.app.restart:
            break
        r.step(guest_plays=False)
    app = r.d.app
    assert app.restart and app.session is None and app.status()["screen"] != "table"  # no table built
    assert app.saves.kept(app.below, app.rankings.stamp).linked  # the first deal is saved, with its link
    r.power_cut()  # supervisor.reload(): the UART closed, code.py again ...
    r.d.app.continue_game(True)  # ... and boot(resume=True) goes straight back into the game
    r.until(lambda st: st["screen"] == "table", 500)
    h = r.d.app.session.hand
    assert r.d.app.link is not None and not r.d.app.restart
    assert len(h.actions) == 0 and bytes(h.deck) == bytes(r.guest.match.hand.deck)  # L-3: the link's deal
    r.until(lambda st: st["screen"] != "table" or st["ply"] >= 6, person=True)
    r.until(lambda st: r.guest.chan.idle() and r.d.app.link.lock.chan.idle(), 500, guest_plays=False)
    n = len(r.d.app.session.hand.actions)
    assert n >= 6 and bytes(r.guest.match.hand.actions[0:n]) == bytes(r.d.app.session.hand.actions)
    assert r.d.app.link.status(r.d.app.now) == "ok"
    # Left (practice: kept to Continue): the main menu in place, Continue on it
    app = r.d.app
    assert app.linked_boot
    from pisti_app.match import leaving
    leaving.leave(app.play)
    r.until(lambda st: st["screen"] == "menu", 200)
    assert not app.restart and r.d.app.status()["menu"][0] == "continue"
    # With nothing kept, the main menu after a link game comes by a restart (its screen stays until then)
    app.kept = None
    app.main_menu()
    assert app.restart and app.stack


def test_L9_on_the_board_continue_restarts_into_the_kept_link_game(device, monkeypatch):
    """After a power cut the main menu's Continue, on CircuitPython, builds
    no table in the menus' heap: the console restarts (supervisor.reload())
    and boot(resume) goes back into the game, at the same ply; the saves are
    not touched in between. A game kept without a link goes back in place."""
    import pisti_app.util
    r = Rig(device, FlashNvm())
    r.until(lambda st: st["screen"] == "table" and st["ply"] >= 2, person=True)
    r.until(lambda st: r.guest.chan.idle() and not st["holding"] and not st["queued"], 500, guest_plays=False)
    h = r.d.app.session.hand
    deck, acts = bytes(h.deck), bytes(h.actions)
    r.power_cut()
    monkeypatch.setattr(pisti_app.util, "restarts", lambda: True)
    saved = r.nvm.snapshot()
    st = r.until(lambda st: st["screen"] == "menu", 500)
    assert st["menu"][0] == "continue", st
    r.d.run(600)
    r.d.press("A")  # Continue
    r.d.run(20)
    app = r.d.app
    assert app.restart and app.session is None and app.link is None and app.status()["screen"] == "menu"
    assert r.nvm.snapshot() == saved
    r.power_cut()  # supervisor.reload(): code.py again ...
    r.d.app.continue_game(True)  # ... and boot(resume=True) goes back into the game
    r.until(lambda st: st["screen"] == "table", 500)
    h = r.d.app.session.hand
    assert not r.d.app.restart and r.d.app.link is not None
    assert (bytes(h.deck), bytes(h.actions)) == (deck, acts)


def test_the_main_menu_restarts_only_after_a_link_game_on_the_board(device, monkeypatch):
    import pisti_app
    import pisti_app.util
    d = device()
    d.first_frame()
    app = d.app
    app.main_menu()
    assert not app.restart  # CircuitPython only
    monkeypatch.setattr(pisti_app.util, "restarts", lambda: True)
    app.main_menu()
    assert not app.restart and d.app.status()["screen"] == "menu"  # no link game since the boot
    app.linked_boot = True
    app.main_menu()
    assert app.restart


def test_on_the_board_a_link_hands_end_compiles_the_statistics_and_forgets_them(monkeypatch):
    """A link game played in place keeps pisti_app.match.stats to the link's end;
    on the board (a restarted heap) each hand's end compiles it and forgets
    it, so no link table holds it (about 2.4 KB)."""
    import pisti_app
    import pisti_app.util
    from pisti_app.match import ends, stats
    calls = []
    monkeypatch.setattr(stats, "count", lambda app, s, left: calls.append(("count", left)))
    monkeypatch.setattr(ends, "forget", lambda *names: calls.append(names))

    class Match:  # a stand-in for the match in play
        app = None
        link = object()  # a link game

    def count(left=False):
        ends.count(None, None, left, ends.keeps_stats(Match()))
    count()
    assert calls == [("count", False)]  # in place: kept
    monkeypatch.setattr(pisti_app.util, "restarts", lambda: True)
    count(True)
    assert calls[1:] == [("count", True), ("pisti_app.match.stats",)]
    Match.link = None
    monkeypatch.setattr(pisti_app.util, "restarts", lambda: False)
    count()
    assert calls[-1] == ("pisti_app.match.stats",)  # not a link game: forgotten everywhere
