# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Link play in the app (lib/pisti_app/link/remote.py): the cable's UART from
settings.toml and the board profiles, and the remote seat, which takes a
seat the way a bot does (``app.seat_bot``) -- a real app hosting a link hand
against a guest console over tools/shims/uart.py's virtual cable."""

import random
import time

import pytest

from pisti_core import linkgame as G
from pisti_core import linkproto as P
from pisti_core.match import Match, new_hand
from tools.shims.uart import Cable
from console import forgets, sit as sit_down

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


class FakeBoard:
    GP0 = "gp0"
    GP1 = "gp1"
    GP4 = "gp4"
    GP8 = "gp8"
    GP9 = "gp9"


class FakeBusio:
    made = []

    @staticmethod
    def UART(tx, rx, **kw):
        FakeBusio.made.append((tx, rx, kw))
        return "uart"


def test_L6_the_cable_uart_comes_from_the_settings_with_the_profile_defaults():
    from pisti_app.link import linkport
    FakeBusio.made = []
    env = {}
    assert linkport.open_uart(env.get, FakeBoard, FakeBusio) == "uart"
    assert FakeBusio.made[-1] == ("gp0", "gp1", {"baudrate": 115200, "timeout": 0, "receiver_buffer_size": 256})
    env = {"PISTI_LINK_TX": "GP4", "PISTI_LINK_RX": "GP1", "PISTI_LINK_BAUD": 57600}
    linkport.open_uart(env.get, FakeBoard, FakeBusio)
    assert FakeBusio.made[-1][0:2] == ("gp4", "gp1") and FakeBusio.made[-1][2]["baudrate"] == 57600
    n = len(FakeBusio.made)
    for env, words in (({"PISTI_LINK_TX": "GP99"}, "PISTI_LINK_TX = 'GP99' is not a pin"),
                       ({"PISTI_LINK_TX": "GP1"}, "both GP1"),
                       ({"PISTI_LINK_BAUD": 5}, "PISTI_LINK_BAUD must be 9600 to 1000000")):
        with pytest.raises(ValueError, match=words):
            linkport.open_uart(env.get, FakeBoard, FakeBusio)
    assert len(FakeBusio.made) == n  # a bad setting claims no pin


class FakeUart:
    def __init__(self, tx, rx, **kw):
        self.pins = (tx, rx)
        self.open = True
        FakeBusio.made.append((tx, rx, kw))

    def deinit(self):
        self.open = False


class RingBusio:
    UART = FakeUart


def test_L11_the_second_cable_uart_comes_from_its_own_settings():
    from pisti_app.link import linkport
    FakeBusio.made = []
    a, b = linkport.open_ring({}.get, FakeBoard, RingBusio)
    assert a.pins == ("gp0", "gp1") and b.pins == ("gp8", "gp9")
    env = {"PISTI_LINK2_TX": "GP4", "PISTI_LINK2_RX": "GP1", "PISTI_LINK_RX": "GP9"}
    a, b = linkport.open_ring(env.get, FakeBoard, RingBusio)
    assert a.pins == ("gp0", "gp9") and b.pins == ("gp4", "gp1")
    n = len(FakeBusio.made)
    for env, words in (({"PISTI_LINK2_TX": "GP0"}, "PISTI_LINK_TX and PISTI_LINK2_TX are both GP0"),
                       ({"PISTI_LINK2_RX": "GP8"}, "PISTI_LINK2_TX and PISTI_LINK2_RX are both GP8"),
                       ({"PISTI_LINK2_RX": "GP99"}, "PISTI_LINK2_RX = 'GP99' is not a pin")):
        with pytest.raises(ValueError, match=words):
            linkport.open_ring(env.get, FakeBoard, RingBusio)
    assert len(FakeBusio.made) == n  # a bad setting claims no pin


def test_L11_a_second_cable_that_cannot_open_gives_the_first_back():
    from pisti_app.link import linkport
    opened = []

    class Busio:
        @staticmethod
        def UART(tx, rx, **kw):
            if tx == "gp8":
                raise ValueError("GP8 in use")
            opened.append(FakeUart(tx, rx, **kw))
            return opened[-1]

    with pytest.raises(ValueError, match="GP8 in use"):
        linkport.open_ring({}.get, FakeBoard, Busio)
    assert len(opened) == 1 and not opened[0].open


def test_L6_both_profiles_name_the_link_pins():
    from tools.wiring import load_profile
    from tools.shims import ROOT
    from tools.shims.boards import make_pins
    for name, tx, rx, tx2, rx2 in (("pico", "GP0", "GP1", "GP8", "GP9"), ("featherwing", "TX", "RX", "D24", "D25")):
        text = (ROOT / "tools" / "boards" / (name + ".toml")).read_text()
        assert 'PISTI_LINK_TX = "%s"' % tx in text and 'PISTI_LINK_RX = "%s"' % rx in text
        assert 'PISTI_LINK2_TX = "%s"' % tx2 in text and 'PISTI_LINK2_RX = "%s"' % rx2 in text
        pins = make_pins(name)[1]
        assert all(p in pins for p in (tx, rx, tx2, rx2))
        assert "PISTI_LINK_BAUD = 115200" in text
        load_profile(ROOT / "tools" / "boards" / (name + ".toml"))


def _pisti2_pair(clock):
    """Two consoles' links over a virtual cable on ``clock`` (a one-item
    list, ms): (host, guest) LinkPlays, the host offering a Pişti 2p
    practice game; nothing sent yet."""
    from pisti_app.link.remote import LinkPlay
    cable = Cable(lambda: clock[0])
    s = P.Setup("pisti", 2, 101, False, 1, [None, None])
    return (LinkPlay(G.Lockstep(cable.a, P.HOST, "t", 0, s, LEVELS)),
            LinkPlay(G.Lockstep(cable.b, P.GUEST, "t", 0, None, LEVELS)))


def _join(clock, host, guest):
    """Two seconds of both consoles' ticks, the guest taking the offer."""
    for _ in range(200):
        clock[0] += 10
        host.tick(clock[0], None)
        guest.tick(clock[0], None)
        if guest.lock.phase == G.OFFERED:
            guest.lock.answer(True)


def test_L4_the_remote_seat_waits_then_gives_the_other_console_action():
    class Obs:
        ply = 0

    clock = [0]
    host, guest = _pisti2_pair(clock)
    assert host.seat.choose(Obs) is None  # nothing dealt: the seat waits
    _join(clock, host, guest)
    assert host.remote_seats() == [1] and guest.remote_seats() == [1]
    assert host.lock.phase == G.PLAY and host.deck(0) == guest.deck(0)
    lk = host.lock if host.lock.to_act() >= 0 else guest.lock
    other = guest if lk is host.lock else host
    lh = other.lock.match.hand
    table = new_hand("pisti", 2, lh.dealer, lh.deck)  # the other console's table
    other.tick(clock[0], table)
    Obs.ply = 0
    assert other.seat.choose(Obs) is None
    a = lk.match.hand.legal()[0]
    lk.act(a)
    for _ in range(30):
        clock[0] += 10
        host.tick(clock[0], table if other is host else None)
        guest.tick(clock[0], table if other is guest else None)
    assert other.seat.choose(Obs) == a
    other.tick(clock[0], new_hand("pisti", 2, lh.dealer, bytes(range(52))))
    assert other.seat.choose(Obs) is None  # another hand than the link's: nothing to give


def _first_refreshes(d, table, seen):
    """Spy on the display: for the first refresh after each play recorded in
    ``seen``, whether the rest of the table was still due (the list returned)."""
    refreshes = []
    refresh = d.app.display.refresh

    def spy(*args, **kw):
        if seen and len(refreshes) < len(seen):
            refreshes.append(table.rest)
        return refresh(*args, **kw)
    d.app.display.refresh = spy
    return refreshes


def test_L4_pis_yedili_the_others_play_is_refreshed_before_this_seats_row(device):
    """The same on a Pis Yedili 2p link table: the refresh that shows the
    other console's play (the top card, the badges) comes before this
    seat's row, the message line, the stock and the action button are
    redrawn."""
    from tools.shims import uart
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "t", d.rig.clock.ticks_ms(), None, LEVELS)
    d.app.prefs.update({"game": "yedili", "players": 2})
    step = _link_hand(d, cable, guest, False)
    table = d.app.stack[0]
    rows = []
    draw_row = table.draw_row

    def spy_row():
        rows.append(1)
        draw_row()
    table.draw_row = spy_row
    seen = []  # per play of the other console: (its row not drawn, rest due)
    before = []  # per play: the row drawn earlier in its tick (the rest of the play before it)
    acted = table.act

    def act(seat, a):
        before.append(bool(rows))
        del rows[:]
        acted(seat, a)
        if seat == 1:
            seen.append((not rows, table.rest))
    table.act = act
    refreshes = _first_refreshes(d, table, seen)
    after = []  # the row drawn at the tick after each such play (before the next play, if one came in it)
    for _ in range(3000):
        was = table.rest
        del rows[:]
        del before[:]
        step()
        if was and d.app.stack and d.app.stack[0] is table:
            after.append(before[0] if before else bool(rows) and not table.rest)
        st = d.app.status()
        if st["screen"] != "table" or len(seen) >= 6:
            break
        h = table.hand
        if st.get("legal") and not st["holding"] and h.turn == 0 and not d.app.play.queue:
            table.decide(h.legal()[0])  # this console's person (what its keys would do)
    assert len(seen) >= 6 and all(a and b for a, b in seen), seen
    assert refreshes and all(refreshes), refreshes
    assert after and all(after), after


def test_L9_a_resync_that_leaves_the_game_as_it_is_looks_once_and_keeps_no_code(monkeypatch):
    """After a resynchronisation the link looks once whether the app's game
    is behind (``linkends.behind``); when it is not, that module is
    forgotten again (it is ~3 KB at a link table)."""
    import sys
    clock = [0]
    host, guest = _pisti2_pair(clock)
    _join(clock, host, guest)
    assert host.lock.phase == G.PLAY
    forgotten = forgets(monkeypatch)
    for _ in range(2):
        host.lock.notices.append("resync")
        assert not host.stale(None)  # (no session: nothing to take)
        assert "pisti_app.link.linkends" in sys.modules  # it looked
        assert not host.stale(None)  # once: no new resync, no second look
    assert forgotten == ["pisti_app.link.linkends", "pisti_app.link.linkends"]

def test_L4_L5_an_app_hosts_a_link_hand_and_its_remote_seat_plays_like_a_bot(device):
    """The real app at the table, host of a Pişti 2p practice hand: seat 1
    is the remote seat (``app.seat_bot``); the guest is a console whose
    person plays random cards. Both finish the hand with the same record."""
    from pisti_app.link.remote import LinkPlay
    from pisti_app.match.session import GameSession
    d = device()
    d.first_frame()
    def clock():  # wraps at 2**29, 65 s after boot
        return d.rig.clock.ticks_ms()

    cable = Cable(lambda: d.rig.clock.now_ms, loss=0.01, seed=3)
    s = P.Setup("pisti", 2, 101, False, 1, [None, None])
    host = LinkPlay(G.Lockstep(cable.a, P.HOST, "t", clock(), s, LEVELS))
    guest = G.Lockstep(cable.b, P.GUEST, "t", clock(), None, LEVELS)
    rng = random.Random(5)

    def step():
        d.app.tick()
        time.sleep(0.01)
        now = clock()
        sess = d.app.session
        top = d.app.stack[0] if d.app.stack else None
        queued = bytes(getattr(top, "queue", []) or [])
        host.tick(now, sess.hand if sess is not None else None, queued)
        guest.poll(now)
        if guest.phase == G.OFFERED:
            guest.answer(True)
        if guest.to_act() >= 0 and rng.random() < 0.2:
            guest.act(rng.choice(guest.match.hand.legal()))

    for _ in range(3000):
        step()
        if host.lock.phase == G.PLAY:
            break
    lm = host.lock.match
    m = Match("pisti", 2, 101, lm.first_dealer)
    m.deal(host.deck(0))
    d.app.seat_bot(1, host.seat)
    sit_down(d.app, GameSession(m, [None, None], False))
    moves = 0
    for _ in range(60000):
        step()
        st = d.app.status()
        if st["screen"] != "table":
            break
        if st.get("legal") and not st.get("holding"):
            d.rig.keys.tap("A", 20)  # the person plays the card under the cursor
            moves += 1
    hand = d.app.session.last or d.app.session.hand
    assert hand.over, d.app.status()
    for _ in range(500):
        step()
    gh = guest.match.history[0] if guest.match.history else None
    assert gh is not None and bytes(gh[2]) == bytes(hand.actions) and moves >= 10
    assert host.lock.hands_done == 1 and guest.hands_done == 1


def test_L3_L4_a_whole_link_match_each_hand_dealt_by_the_link(device, monkeypatch):
    """The real app hosts a Pişti 2p link match to its end: after each hand
    the app waits for the link's deal (L-3) -- it never deals by itself --
    and both consoles finish the match with the same hands and totals. On
    the board each hand's end unloads the bots' observation code."""
    from pisti_app.link.remote import LinkPlay
    from pisti_app.match.session import GameSession
    d = device()
    from pisti_app.match.play import Play
    forgotten = forgets(monkeypatch)
    d.first_frame()
    def clock():
        return d.rig.clock.ticks_ms()

    cable = Cable(lambda: d.rig.clock.now_ms, loss=0.01, seed=4)
    s = P.Setup("pisti", 2, 101, False, 1, [None, None])
    host = LinkPlay(G.Lockstep(cable.a, P.HOST, "t", clock(), s, LEVELS))
    guest = G.Lockstep(cable.b, P.GUEST, "t", clock(), None, LEVELS)
    rng = random.Random(7)
    d.app.play = Play(d.app)  # the link set up, no game yet (as pisti_app.link.linkmenu does)
    d.app.play.link = host

    def step():
        d.app.tick()
        d.rig.clock.advance(10)
        now = clock()
        if d.app.session is None:
            host.tick(now, None)
        guest.poll(now)
        if guest.phase == G.OFFERED:
            guest.answer(True)
        if guest.to_act() >= 0 and rng.random() < 0.3:
            guest.act(rng.choice(guest.match.hand.legal()))

    for _ in range(3000):
        step()
        if host.lock.phase == G.PLAY:
            break
    m = Match("pisti", 2, 101, host.lock.match.first_dealer)
    m.deal(host.deck(0))
    sess = GameSession(m, [None, None], False)
    sess.linked = True
    sit_down(d.app, sess, link=host)
    screens = set()
    decks = []  # each hand's deck as the app dealt it (its session keeps only the last hand's entry)
    for _ in range(200000):
        step()
        if m.hand is not None and (not decks or decks[-1] != bytes(m.hand.deck)):
            decks.append(bytes(m.hand.deck))
        st = d.app.status()
        screens.add(st["screen"])
        if st["screen"] == "match_end":
            break
        if st["screen"] == "table":
            if st.get("legal") and not st.get("holding"):
                d.rig.keys.tap("A", 20)
        elif rng.random() < 0.1:
            d.rig.keys.tap("A", 20)  # the breakdown: on to the next hand (it waits for the link's deal)
    assert d.app.status()["screen"] == "match_end", (screens, d.app.status())
    for _ in range(300):
        step()
    # the host's match end says goodbye once the last action was delivered (its link code goes first)
    assert m.over and guest.match.over and (guest.phase == G.OVER or guest.error.key == "bye"), guest.phase
    assert d.app.link is None
    # nothing of the link is held at the match end: no seat is still the other console's player
    # (it holds the link and so all of its code: 18.6 KB more live on the gauge's match end)
    assert not [b for b in d.app.bots if type(b).__name__ == "RemoteSeat"] and not d.app.outside_bots
    assert host.lock.hands_done == guest.hands_done == d.app.session.hands_done == len(decks) >= 2
    assert decks == [bytes(h[1]) for h in guest.match.history]  # the link's decks
    assert forgotten.count("pisti_core.pisti_obs") >= len(decks)  # at each hand's end
    assert list(m.totals) == list(reversed(guest.match.totals))  # the guest counts from its own seat


def test_L2_link_play_from_the_main_menu_host_and_join(device):
    """Main menu > Link play > Host: the app offers the New game rows' game
    on the cable (busio.UART, the shim's end) and sits down at the link's
    first deal once the guest joins; Join shows the offer (A joins, B
    declines, back to the menu)."""
    from tools.shims import uart
    from pisti_core.linkproto import Setup
    d = device()
    d.first_frame()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")
    assert d.app.status()["menu"] == ["link_host", "link_join"]
    d.press("A")  # Host
    d.press("A")  # the Host screen: offer its game
    for _ in range(600):
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())
        if guest.phase == G.OFFERED:
            guest.answer(True)
        if d.app.status()["screen"] == "table":
            break
    st = d.app.status()
    assert st["screen"] == "table" and d.app.session.linked
    assert bytes(d.app.session.hand.deck) == bytes(guest.match.hand.deck)  # L-3: the link's deal
    assert isinstance(guest.setup, Setup) and guest.setup.game == d.app.prefs["game"]
    d.press("B")  # at a link table: the question to leave (a rated game: with T-4's cost)
    assert d.app.status()["screen"] == "confirm"
    d.press("A")
    assert d.app.status()["screen"] == "menu" and d.app.link is None and not d.app.outside_bots


def test_L2_join_shows_the_offer_and_b_declines(device):
    from tools.shims import uart
    d = device()
    d.first_frame()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.b)
    s = P.Setup("yedili", 3, 101, False, 1, [None, None, "usta"])
    host = G.Lockstep(cable.a, P.HOST, "pisti", d.rig.clock.ticks_ms(), s, LEVELS)
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")
    d.menu_to("link_join")
    d.press("A")
    for _ in range(300):
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
        if d.app.status()["screen"] == "confirm":
            break
    st = d.app.status()
    assert st["screen"] == "confirm" and "3" in " ".join(st["lines"]), st  # the offer: Pis Yedili, 3 players
    d.press("B")  # declines
    for _ in range(50):
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
    assert host.phase == G.DECLINED and d.app.status()["screen"] == "menu" and d.app.link is None


def test_L7_a_silent_link_shows_the_countdown_and_play_goes_on_at_the_same_ply(device):
    """The cable pulled in a link hand: after L-7's 2 s the table says the
    other console is missing with L-8's countdown (2:5x); plugged back, the
    hand goes on from the same ply."""
    from tools.shims import uart
    d = device()
    d.first_frame()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    rng = random.Random(2)
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.press("A")  # Host
    d.press("A")  # the Host screen: offer its game

    def step():
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())
        if guest.phase == G.OFFERED:
            guest.answer(True)
        if guest.to_act() >= 0 and not cable.cut and rng.random() < 0.3:
            guest.act(rng.choice(guest.match.hand.legal()))

    for _ in range(2000):
        step()
        st = d.app.status()
        if st["screen"] == "table" and st.get("legal") and not st.get("holding") and st["ply"] >= 2:
            break
    ply = d.app.status()["ply"]
    cable.cut = True
    for _ in range(350):  # 3.5 s
        step()
    st = d.app.status()
    assert st["message"].startswith("Other console? 2:5"), st
    assert st["ply"] == ply
    cable.cut = False
    for _ in range(3000):
        step()
        st = d.app.status()
        if st["screen"] != "table" or st["ply"] >= ply + 4:
            break
        if st.get("legal") and not st.get("holding"):
            d.rig.keys.tap("A", 20)
    assert st["screen"] != "table" or st["ply"] >= ply + 4, st
    assert bytes(guest.match.hand.actions[0:ply]) == bytes(d.app.session.hand.actions[0:ply])
    # The countdown gone, the link keeps no screen: a table closed at its hand's end is freed
    # (else a closed Pişti table, ~9 KB, would stay for the rest of the match).
    import gc
    import weakref
    table = weakref.ref(d.app.stack[0])
    assert d.app.link._noted is None
    for _ in range(6000):
        if d.app.status()["screen"] == "hand_end":
            break
        step()
        st = d.app.status()
        if st["screen"] == "table" and st.get("legal") and not st.get("holding"):
            d.rig.keys.tap("A", 20)
    assert d.app.status()["screen"] == "hand_end"
    gc.collect()
    assert table() is None


def _link_hand(d, cable, guest, rated):
    """Host a link hand from the main menu; a step of both consoles."""
    rng = random.Random(5)
    d.app.prefs["rated"] = rated
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.press("A")  # Host
    d.press("A")  # the Host screen: offer its game

    def step():
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())
        if guest.phase == G.OFFERED:
            guest.answer(True)
        if guest.to_act() >= 0 and not cable.cut and rng.random() < 0.3:
            guest.act(rng.choice(guest.match.hand.legal()))

    for _ in range(2000):
        step()
        st = d.app.status()
        if st["screen"] == "table" and st["ply"] >= 1:
            break
    assert d.app.status()["screen"] == "table" and d.app.link is not None
    return step


@pytest.mark.parametrize("rated", [True, False])
def test_L8_a_link_lost_over_3_minutes_ends_the_game_a_shorter_cut_does_not(device, rated, monkeypatch):
    """L-8: a cut of 2:55 (plugged back) changes nothing; a cut of over 3:00
    ends the link game: rated, this console records T-4's leaving (the first
    hand: a loss, -1) and says so; practice, a bot is offered for the seat.
    Either way the link is closed and its modules unloaded."""
    from tools.shims import uart
    d = device()
    d.first_frame()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    step = _link_hand(d, cable, guest, rated)
    game, players = d.app.session.game, d.app.session.players
    before = d.app.rankings.get(game, players, "person")  # L-10: ranked against a person
    cable.cut = True
    for _ in range(300):
        step()
    d.rig.clock.advance(172000)  # 2:55 silent in all
    for _ in range(30):
        step()
    st = d.app.status()
    assert st["screen"] == "table" and d.app.link is not None, st["lines"]
    assert st["message"].startswith("Other console? 0:0"), st
    cable.cut = False
    for _ in range(300):
        step()
    assert d.app.link is not None and d.app.link.status(d.app.now) == "ok"
    assert d.app.rankings.get(game, players, "person") == before
    forgot = forgets(monkeypatch)
    cable.cut = True
    for _ in range(300):
        step()
    d.rig.clock.advance(178000)  # 3:01 silent
    for _ in range(30):
        step()
    st = d.app.status()
    assert st["screen"] == "confirm", st
    text = " ".join(st["lines"])
    assert "gone for over 3 minutes" in text, st
    assert d.app.link is None and not d.app.outside_bots
    assert "pisti_app.link.remote" in forgot and "pisti_core.linkgame" in forgot  # (a device unloads them)
    d.run(1000)  # (the notice takes keys after its delay)
    if d.app.hw.nap:  # (3 minutes without a key: the screen sleeps, a key wakes it)
        d.press("A")
    if rated:
        assert "a loss (-1)" in text, st  # T-4: the first hand
        after = d.app.rankings.get(game, players, "person")
        assert after[0] == before[0] + 1 and after[3] == before[3] + 1 and after[4] == before[4] - 1
        d.press("A")
        assert d.app.status()["screen"] == "menu", d.app.status()
    else:  # the other is gone, the game goes on if A says so: not "the game has ended"
        assert text == "The other console was gone for over 3 minutes. A bot can take their seat, or end the game.", st
        assert d.app.rankings.get(game, players, "person") == before
        d.press("A")  # a bot takes the missing seat: the hand goes on here
        ply = d.app.status()["ply"]
        for _ in range(3000):
            d.run(10)
            st = d.app.status()
            if st["screen"] != "table" or st["ply"] >= ply + 4:
                break
            if st.get("legal") and not st.get("holding"):
                d.rig.keys.tap("A", 20)
        assert st["screen"] != "table" or st["ply"] >= ply + 4, st


def test_L4_L9_a_hands_last_action_decided_while_the_link_catches_up_still_goes_out(device):
    # the guest's person ends the hand while its link waits for a record
    # (L-9): the app's hand is scored and gone, and once the link is back
    # in play at that ply the action is sent from the ended hand (else
    # both consoles would wait, wedged)
    device()  # (the board's modules, supervisor among them, for pisti_app.match.play)
    from pisti_app.match.play import Play
    from pisti_app.link.remote import LinkPlay
    from pisti_app.match.session import GameSession

    class Saves:
        def end(self):
            pass

    class App:
        stack = []
        now = 0

        def later(self, fn, *args):
            pass

    for seed in range(10):
        clock = [0]
        cable = Cable(lambda clock=clock: clock[0], seed=seed)
        rng = random.Random(seed)
        s = P.Setup("pisti", 2, 101, False, 1, [None, None])
        host = G.Lockstep(cable.a, P.HOST, "t", 0, s, LEVELS,
                          lambda n, rng=rng: bytes(rng.randrange(256) for _ in range(n)))
        guest = LinkPlay(G.Lockstep(cable.b, P.GUEST, "t", 0, None, LEVELS,
                                    lambda n, rng=rng: bytes(rng.randrange(256) for _ in range(n))))
        app = Play(App(), None, Saves())  # the match in play, its saves keeping nothing
        for _ in range(60000):
            clock[0] += 10
            app.app.now = clock[0]
            host.poll(clock[0])
            if host.to_act() >= 0 and len(host.match.hand.actions) < 47:
                host.act(rng.choice(host.match.hand.legal()))
            sess = app.session
            if sess is None:
                guest.tick(clock[0], None)
                if guest.lock.phase == G.OFFERED:
                    guest.lock.answer(True)
                if guest.lock.phase == G.PLAY:
                    sess = app.session = GameSession(Match("pisti", 2, 101, 0), [None, "acemi"], False)
                    guest.adopt(sess)
                    sess.linked = True
                continue
            guest.lock.poll(clock[0])  # as pisti_app.app.App.tick: the link polled, then the match's tick
            guest.app_tick(app, clock[0])
            h = sess.hand
            if h.ply < 47:
                a = guest.seat.choose(h.observe(1)) if h.turn == 1 else rng.choice(h.legal())
                if a is not None:
                    h.play(a)
            elif host.chan.idle() and guest.lock.chan.idle() and len(guest.lock.match.hand.actions) == 47:
                break
        if sess.hand.turn == 0:
            break
    else:
        raise AssertionError("no seed gives the guest the hand's last action")
    guest.lock._need(False)  # the link waits for the host's record (as after a power cut, L-9)
    sess.hand.play(sess.hand.legal()[0])  # the person ends the hand: App.hand_over
    guest.tick(clock[0], sess.hand, b"", False)
    sess.end_hand()
    for _ in range(3000):
        clock[0] += 10
        app.app.now = clock[0]
        host.poll(clock[0])
        guest.lock.poll(clock[0])
        guest.app_tick(app, clock[0])
        if host.hands_done == 1 and guest.lock.hands_done == 1 and guest.lock.phase == host.phase == G.PLAY:
            break
    assert host.hands_done == 1 and host.phase == G.PLAY and guest.deck(1) == bytes(host.match.hand.deck)


def test_L4_a_persons_play_is_on_the_cable_before_the_table_draws_it_and_the_others_shows_at_once(
        device):
    """L-4 on the real app (the host, Pişti 2p): the person's action is
    saved and sent before this console draws it, and the other person's
    action, once it comes, shows at once: the pause that keeps one's own
    play on screen (1.2 s here, the bots' pace) gives way to it."""
    from tools.shims import uart
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "t", d.rig.clock.ticks_ms(), None, LEVELS)
    step = _link_hand(d, cable, guest, False)
    d.app.delay_override = 1200
    seen = []
    table = d.app.stack[0]
    drawn = table.act

    def act(seat, a):
        out = d.app.link.lock.chan.out
        seen.append((seat, out is not None and out[1] == G.ACTION and out[2][4] == a))
        drawn(seat, a)
    table.act = act
    waits = []
    for _ in range(12):
        for _ in range(300):
            step()
            st = d.app.status()
            if st["screen"] != "table" or (st.get("legal") and not st["holding"]):
                break
        if st["screen"] != "table":
            break
        ply = st["ply"]
        d.rig.keys.tap("A", 20)
        t0 = d.rig.clock.now_ms
        step()
        assert d.app.status()["holding"]  # its own play stays on screen...
        for _ in range(300):
            step()
            if d.app.status()["ply"] >= ply + 2 or d.app.status()["screen"] != "table":
                break
        waits.append(d.rig.clock.now_ms - t0)  # ...until the other's comes
    mine = [ok for seat, ok in seen if seat == 0]
    assert len(mine) >= 8 and all(mine), seen
    assert len(waits) >= 8 and max(waits) < 600, waits  # never the 1.2 s of the pause


def test_L4_the_others_play_is_refreshed_first_and_the_rest_of_the_table_a_tick_later(
        device):
    """L-4 on the real app (the host, Pişti 2p): when the other console's
    play comes, the refresh that shows it carries only what the play changes
    in the middle of the table (the pile, the badges); the message line
    that names the play, the scores, this console's own cards, the stock
    and the deal follow at the next tick. The play is taken as it came: no
    copy of the hand is made to plan it."""
    from tools.shims import uart
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "t", d.rig.clock.ticks_ms(), None, LEVELS)
    step = _link_hand(d, cable, guest, False)
    table = d.app.stack[0]
    chip_calls = []
    for chip in table.chips:
        chip.show = (lambda show: lambda *a: (chip_calls.append(a), show(*a)))(chip.show)
    seen = []  # per play of the other console: (no chip drawn, rest due, the pile shows it, the line as it was)
    acted = table.act
    copies = []
    copy = type(table.hand).copy

    def act(seat, a):
        del chip_calls[:]
        line = table.msg.text
        del copies[:]
        acted(seat, a)
        if seat == 1:
            seen.append((not chip_calls, table.rest, table.pile.what == a, table.msg.text == line))
    table.act = act
    planned = []  # hands copied in the tick that took the other's play
    tick = table.tick

    def spy_tick(now):
        del copies[:]
        n = len(seen)
        tick(now)
        if len(seen) > n:
            planned.append(len(copies))
    table.tick = spy_tick
    type(table.hand).copy = lambda h: (copies.append(1), copy(h))[1]
    refreshes = _first_refreshes(d, table, seen)
    lines = []  # the message line at the tick after each such play: the play's own
    try:
        for _ in range(3000):
            was = table.rest
            step()
            st = d.app.status()
            if was and not table.rest and st["screen"] == "table":
                lines.append(table.flash != "" and table.msg.text == table.flash)
            if st["screen"] != "table" or (len(seen) >= 6 and len(lines) >= 6):
                break
            if st.get("legal") and not st["holding"]:
                d.rig.keys.tap("A", 20)
            if not table.rest and d.app.stack and d.app.stack[0] is table:
                h = table.hand
                cards = h.hand(0)
                shown = [c.what for c in table.chips[:len(cards)]]
                assert shown == list(cards), (shown, list(cards))  # the rest drawn: this seat's cards
    finally:
        type(table.hand).copy = copy
    assert len(seen) >= 6 and all(all(x) for x in seen), seen
    assert refreshes and all(refreshes), refreshes  # each such refresh showed the play alone
    assert len(lines) >= 6 and all(lines), lines
    assert len(planned) >= 6 and not any(planned), planned


def test_L4_a_toast_of_the_others_play_comes_with_the_rest_of_the_table_not_before_the_play(
        device):
    """A toast that the other console's play pops (a pişti's big one takes
    a refresh of its own to draw) is not in the refresh that shows the play:
    it shows at the next tick, with the rest of the table. A toast of this
    console's own play shows at once."""
    from tools.shims import uart
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "t", d.rig.clock.ticks_ms(), None, LEVELS)
    step = _link_hand(d, cable, guest, False)
    table = d.app.stack[0]
    said = table.say
    acting = []

    def say(text, ms=None):  # inside act, where a pişti pops its toast
        said(text, ms)
        if acting:
            table.pop_toast("PISTI %d" % acting[0], 900, True)
    table.say = say
    events = []  # ("act", seat) and ("show", text, during an act, rest due)
    show = table.toast.show

    def spy_show(text, big=False):
        events.append(("show", text, bool(acting), table.rest))
        show(text, big)
    table.toast.show = spy_show
    acted = table.act

    def act(seat, a):
        events.append(("act", seat))
        acting.append(seat)
        try:
            acted(seat, a)
        finally:
            acting.pop()
    table.act = act
    refreshes = []
    refresh = d.app.display.refresh

    def spy(*args, **kw):
        n = len([e for e in events if e == ("act", 1)])
        if n > len(refreshes):
            refreshes.append(table.toast.text != "PISTI 1")  # the first refresh after the other's play
        return refresh(*args, **kw)
    d.app.display.refresh = spy
    for _ in range(3000):
        step()
        st = d.app.status()
        if st["screen"] != "table" or len([e for e in events if e == ("act", 1)]) >= 5:
            break
        if st.get("legal") and not st["holding"]:
            d.rig.keys.tap("A", 20)
    acts = [k for k in range(len(events)) if events[k][0] == "act"]
    others = mine = 0
    for n, k in enumerate(acts[:-1]):
        seat = events[k][1]
        shows = [e for e in events[k + 1:acts[n + 1]] if e[1] == "PISTI %d" % seat]
        if seat == 1:  # not during its act: after it, once the play has been shown
            others += 1
            assert shows and not shows[0][2] and not shows[0][3], events[k:acts[n + 1]]
        else:
            mine += 1
            assert shows and shows[0][2], events[k:acts[n + 1]]  # this console's own: at once
    assert others >= 4 and mine >= 4, events
    assert len(refreshes) >= 4 and all(refreshes), refreshes  # the play's own refresh: no toast


def test_L4_pisti_4p_each_persons_play_goes_ahead_of_the_hosts_bots_replies(device):
    """The host's bots reply to its person's play, but the other console
    gets that play first: it is saved and sent before they choose. And the
    other console's person's play shows on the host before its bots choose
    their replies to it."""
    from tools.shims import uart
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "t", d.rig.clock.ticks_ms(), None, LEVELS)
    d.app.prefs.update({"game": "pisti", "players": 4, "seats": ["kalfa", "usta", "acemi"]})
    step = _link_hand(d, cable, guest, False)
    assert guest.setup.players == 4 and guest.setup.guest_seat == 2  # partners: seats 1 and 3 are the host's bots
    seen = []
    shown = []
    for seat in (1, 3):
        bot = d.app.bots[seat]
        choose = bot.choose

        def watch(obs, choose=choose):
            if obs.ply and obs.turn == 1:  # the reply to the person (seat 0)
                out = d.app.link.lock.chan.out
                seen.append(out is not None and out[1] == G.ACTION and out[2][2:4] == bytes((0, obs.ply - 1)))
            elif obs.ply and obs.turn == 3:  # the reply to the other console's person: shown here first
                shown.append(d.app.session.hand.ply == obs.ply)
            return choose(obs)
        bot.choose = watch
    for _ in range(3000):
        step()
        st = d.app.status()
        if st["screen"] != "table" or (len(seen) >= 6 and len(shown) >= 6):
            break
        if st.get("legal") and not st["holding"]:
            d.rig.keys.tap("A", 20)
    assert len(seen) >= 6 and all(seen), seen
    assert len(shown) >= 6 and all(shown), shown


def _saved_link_game(setup, seed=4):
    """The host's and the guest's Lockstep a few actions into a hand (Pişti:
    the second), for a console resumed from one's record."""
    from test_link_core import pair, random_legal, run
    clock, cable, h, g = pair(setup, seed=seed)
    rng = random.Random(seed)
    hands = 1 if setup.game == "pisti" else 0  # (a Pis Yedili link match here is one hand)
    assert run(clock, (h, g), lambda: g.phase == G.PLAY and g.hands_done >= hands and len(g.match.hand.actions) >= 2,
               120000, random_legal, rng)
    return h, g


def _console_on(d, end):
    from tools.shims import uart
    uart.plug(end)
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")


@pytest.mark.parametrize("game,players,guest_seat,board", [("pisti", 2, 1, False), ("yedili", 4, 2, False),
                                                            ("pisti", 2, 1, True)])
def test_L9_a_console_without_the_game_joins_a_host_mid_game_and_takes_the_seat(device, monkeypatch, game,
                                                                               players, guest_seat, board):
    """Link play > Join on a console that holds no copy of the game the host
    waits in (a wiped drive, another console): the offer says the game is
    under way, A takes the seat from the host's record, and the table shows
    the host's hand at its ply (on the board after the restart into the
    saved game that every link game starts with)."""
    import pisti_app
    import pisti_app.util
    from tools.shims.nvm import FlashNvm
    monkeypatch.setattr(pisti_app.util, "restarts", lambda: board)
    levels = [None] * players
    for seat in range(1, players):
        if seat != guest_seat:
            levels[seat] = "usta"
    setup = P.Setup(game, players, 101 if game == "pisti" else None, False, guest_seat, levels)
    h0, _ = _saved_link_game(setup)
    nvm = FlashNvm()
    d = device(nvm=nvm)
    d.first_frame()
    cable = Cable(lambda: d.rig.clock.now_ms)
    host = G.Lockstep.resume(cable.a, P.HOST, "pisti", d.rig.clock.ticks_ms(), setup,
                             P.record(h0.match, h0.hands_done, 0), None, LEVELS, key=bytes(16))
    _console_on(d, cable.b)
    d.menu_to("link_join")
    d.press("A")
    st = d.beside(host, lambda: d.app.status()["screen"] == "confirm", 5000)
    assert st["screen"] == "confirm" and "hand %d" % (h0.hands_done + 1) in " ".join(st["lines"]), st
    d.press("A")  # joins
    d.beside(host, lambda: d.app.status()["screen"] == "table" or d.app.restart, 10000)
    if board:  # supervisor.reload(): code.py again, and boot(resume=True) into the saved game
        assert d.app.restart and d.app.session is None
        base = d.rig.clock.now_ms
        d.close()
        cable.b.power_cut()
        from tools.shims import uart
        uart.plug(cable.b)
        d = device(nvm=nvm.restart())
        cable.clock = lambda: base + d.rig.clock.now_ms
        d.first_frame()
        d.app.continue_game(True)
        d.beside(host, lambda: d.app.status()["screen"] == "table", 10000,
                 lambda: base + d.rig.clock.ticks_ms())
    st = d.app.status()
    s = d.app.session
    assert st["screen"] == "table" and s.linked and s.hands_done == host.hands_done == h0.hands_done, st
    assert bytes(s.hand.deck) == bytes(host.match.hand.deck) and bytes(s.hand.actions) == bytes(host.match.hand.actions)
    assert P.record(s.match, s.hands_done, guest_seat) == P.record(host.match, host.hands_done, 0)
    assert d.app.saves.kept() is not None  # kept as any link game (L-9)


def test_L9_a_host_without_the_game_offering_another_one_is_told_the_guest_is_in_a_game(device):
    setup = P.Setup("pisti", 2, 101, False, 1, [None, None])
    _, g0 = _saved_link_game(setup)
    d = device()
    d.first_frame()
    d.app.prefs.update({"game": "yedili", "players": 2})
    cable = Cable(lambda: d.rig.clock.now_ms)
    guest = G.Lockstep.resume(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), setup,
                              P.record(g0.match, g0.hands_done, g0.rot), None, LEVELS, key=bytes(16))
    before = guest.position()
    _console_on(d, cable.a)
    d.press("A")  # Host: the game it offers (Pis Yedili, as set)
    d.press("A")  # offered
    st = d.beside(guest, lambda: False, 8000)
    assert st["screen"] == "link" and st["waiting"] == "link_busy", st
    assert guest.position() == before and d.app.session is None


def test_L3_with_a_seed_the_link_key_repeats_without_it_it_is_drawn_afresh():
    """The link game's key gives every hand's bytes (L-3): from the secure
    source (T-6), or with PISTI_SEED from the seeded chance, so that a seeded
    run (the board's tests) deals the same hands each time."""
    from pisti_app.link import linkmenu
    from pisti_app.util import seeded_below

    class Seeded:
        below = staticmethod(seeded_below)

    class Secure:
        below = None

    random.seed(5)
    first = linkmenu.link_key(Seeded)
    random.seed(5)
    assert linkmenu.link_key(Seeded) == first and len(first) == 16
    random.seed(6)
    assert linkmenu.link_key(Seeded) != first
    assert linkmenu.link_key(Secure) != linkmenu.link_key(Secure)
