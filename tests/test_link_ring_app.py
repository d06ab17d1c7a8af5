# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""L-11 .. L-17 in the app: three or four consoles in a ring. The app under
test is one console (host or guest) with both cables plugged
(``tools.shims.uart.plug``: its first UART to the next console's second,
its second to the one before's first); the other consoles are the ring's
own code (:class:`pisti_core.ringgame.RingLock`), their people choosing
random legal actions."""

import random

import pytest

from pisti_core import linkrec as G
from pisti_core import ringview as V
from pisti_core.ringgame import RingLock
from pisti_core.ringproto import RingSetup
from pisti_core.yedili import DRAW
from tools.shims import uart
from tools.shims.uart import Cable

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


@pytest.fixture(autouse=True)
def seeded_urandom(monkeypatch):
    """The app's ring chance (PISTI_SEED mixed into os.urandom) repeats: each test runs one ring."""
    rng = random.Random(5)
    monkeypatch.setattr("os.urandom", lambda n: bytes(rng.randrange(256) for _ in range(n)))


class Ring:
    """The app's console at index 0 of a ring of ``n``, the others RingLocks
    in ``role`` (the app's the other role when it hosts, else guests and
    one host at index 1)."""

    def __init__(self, d, n, app_hosts, seed=1):
        self.d = d
        self.base = 0  # the clock runs on across the app's reboots
        self.cables = cables = [Cable(self.clock, seed=seed + i) for i in range(n)]  # i: console i's first UART
        self.plug()                                                                # to console i+1's second
        self.rng = random.Random(seed)
        self.peers = []
        now = self.clock()
        for i in range(1, n):
            role = G.HOST if (i == 1 and not app_hosts) else G.GUEST
            ports = [cables[i].a, cables[i - 1].b]
            self.peers.append(RingLock(ports, role, "pisti", now, None, None, LEVELS, self.urandom))

    def clock(self):
        return self.base + self.d.rig.clock.now_ms

    def plug(self):
        """The app's two cable ends, for the UARTs it opens next (first, second)."""
        uart.plug(self.cables[0].a)
        uart.plug(self.cables[-1].b, uart.SECOND)

    def power_cut(self, make, nvm):
        """The app's console loses power and boots again from ``nvm``."""
        self.base = self.clock()
        self.d.close()
        self.cables[0].a.power_cut()
        self.cables[-1].b.power_cut()
        self.plug()
        self.d = make(nvm=nvm)
        self.d.first_frame()

    def urandom(self, k):
        return bytes(self.rng.randrange(256) for _ in range(k))

    def poll(self, join=True):
        now = self.clock()
        for lk in self.peers:
            lk.poll(now)
            if join and lk.phase == G.OFFERED:
                lk.answer(True)
            a = lk.to_act()
            if a >= 0:  # a random legal action, a card rather than a draw where there is one (Y-5)
                legal = list(lk.match.hand.legal())
                cards = [x for x in legal if x != DRAW]
                lk.act(self.rng.choice(cards or legal))

    def run(self, ms, join=True):
        for _ in range(ms // 10):
            self.d.run(10)
            self.poll(join)


def _menu(d, key, **prefs):
    d.first_frame()
    d.app.prefs.update(prefs)
    d.app.prefs["speed"] = 3  # the plays shown briefly: a Pis Yedili hand of four may take 150 plies
    d.press("A")  # past the splash
    d.menu_to("link_play")
    d.press("A")
    d.menu_to(key)
    d.press("A")


def test_L12_the_host_screen_asks_how_many_consoles(device):
    """Pişti 4p and Pis Yedili 3-4p: a Consoles row (2 up to the players);
    with three or four the partners row goes and a bot row for each seat
    left; remembered in the prefs."""
    d = device()
    _menu(d, "link_host", game="pisti", players=4, consoles=2)
    st = d.app.status()
    assert st["menu"] == ["game", "mode", "players", "target", "consoles", "link_seats", "seat1", "seat2", "start"]
    assert d.app.stack[-1].item("consoles").value == "2"
    d.menu_to("consoles")
    d.press("RIGHT")
    st = d.app.status()
    assert st["menu"] == ["game", "mode", "players", "target", "consoles", "bot_seat", "seat1", "start"], st
    assert d.app.stack[-1].item("bot_seat").value == "4"  # the host's partner's left: seat 4 by default
    d.press("RIGHT")
    st = d.app.status()
    assert st["menu"] == ["game", "mode", "players", "target", "consoles", "start"], st
    assert d.app.prefs["consoles"] == 4
    d.press("B")
    from pisti_app import prefs as prefs_mod
    p = prefs_mod.defaults()
    assert d.app.saves.read_prefs(p) and p["consoles"] == 4 and p["bot_seat"] == 3


def test_L12_three_people_at_four_seats_the_host_puts_the_bot_where_it_chose(device):
    """Pişti 4p, three consoles, the bot at seat 2 (the host's left, an
    opponent): the two other people sit at 3 and 4 in ring order; the host's
    console decides the bot's plays and every console ends the hand alike."""
    d = device(PISTI_SEED=11)
    ring = Ring(d, 3, True)
    _sat(ring, d, game="pisti", players=4, consoles=3, bot_seat=1, rated=False, seats=["usta"] * 3)
    lk = d.app.link.lock
    assert lk.setup.people[1] == 0 and lk.setup.levels[1] == "usta" and lk.setup.people[2] == lk.neighbours[0]
    assert lk.setup.people[3] == lk.neighbours[1] and lk.mine(1) and not lk.mine(2)
    assert d.app.play.seats[1] is not None and not hasattr(d.app.play.seats[1], "remote")
    st = _play(ring, until=lambda st: d.app.session is None or d.app.session.hands_done > 0)
    assert d.app.session is not None and d.app.session.hands_done == 1, st
    _alike(ring, d.app.session)


def _play(ring, limit_ms=1200000, until=None):
    """The app's person plays (A) whenever it may; the ring runs."""
    d = ring.d
    for _ in range(limit_ms // 50):
        st = d.app.status()
        if until is not None and until(st):
            return st
        legal = st.get("legal")
        if legal and not st.get("holding") and st.get("focus") is None:  # a Pişti table: every card is legal
            d.rig.keys.tap("A", 20)
        elif legal and not st.get("holding") and st.get("focus") in ("hand", "action"):
            cards = [a.split(":")[0] for a in legal if a not in ("draw", "pass")]  # (a Jack names its suit next)
            hand = st.get("your_hand") or []
            if st["focus"] == "action" or not cards:
                d.rig.keys.tap("UP" if st["focus"] == "hand" else "A", 20)  # the draw or the pass row
            else:
                at = st["cursor"]
                d.rig.keys.tap("A" if at < len(hand) and hand[at] in cards else "RIGHT", 20)
        elif legal and not st.get("holding") and st.get("focus") in ("suit", "pick"):  # a Jack's suit, Y-15's pick
            d.rig.keys.tap("A", 20)
        elif st["screen"] in ("hand_end", "results") or (st["screen"] == "confirm" and st.get("waiting") is None):
            d.rig.keys.tap("A", 20)
        ring.run(50)
    st = d.app.status()
    h = d.app.session.hand if d.app.session is not None else None
    lk = d.app.link.lock if d.app.link is not None else None
    raise AssertionError(({k: st.get(k) for k in ("screen", "focus", "legal", "holding", "message", "cursor",
                                                   "your_hand", "waiting")},
                          h and (h.turn, len(h.actions)), lk and (lk.phase, lk.to_act()),
                          [(p.phase, p.hands_done, p.match.hand and len(p.match.hand.actions)) for p in ring.peers]))


def test_L12_four_consoles_host_seats_every_console_and_a_hand_is_played_alike(device):
    d = device(PISTI_SEED=11)
    ring = Ring(d, 4, True)
    _menu(d, "link_host", game="pisti", players=4, consoles=4, rated=False)
    d.menu_to("start")
    d.press("A")
    for _ in range(2000):
        ring.run(10)
        if d.app.status()["screen"] == "table":
            break
    st = d.app.status()
    assert st["screen"] == "table", st
    host = d.app.link.lock
    assert host.started and sorted(host.setup.people) == sorted([host.me] + [p.me for p in ring.peers])
    assert host.setup.people[1] == host.neighbours[0] and host.setup.people[3] == host.neighbours[1]  # ring order
    hd = d.app.session.hands_done
    st = _play(ring, until=lambda s: d.app.session is None or d.app.session.hands_done > hd)
    s = d.app.session
    assert s is not None and s.hands_done == 1, st
    _alike(ring, s)


def _alike(ring, s):
    """Every console holds the app's totals (each in its own numbering: its
    person's side first, the host's numbering compared) after as many hands."""
    k = len(s.match.totals)
    rot = ring.d.app.link.lock.rot
    want = [s.match.totals[(j - rot) % k] for j in range(k)]
    for p in ring.peers:
        assert p.hands_done == s.hands_done
        assert [p.match.totals[(j - p.rot) % k] for j in range(k)] == want


def _host_offers(ring, game, players, people, levels, rated=False, target=None):
    """The host peer offers a table once it hears every console: ``people``
    consoles in ring order from the host (the app is the last: the host's
    second cable), the rest bots at ``levels``."""
    host = ring.peers[0]
    for _ in range(300):
        ring.run(10, join=False)
        if len(V.consoles(host, ring.clock())) == len(ring.peers) + 1:
            break
    order = [p.me for p in ring.peers] + [ring.d.app.play.link.lock.me]
    seated = order[:people - 1] + [order[-1]]
    table = RingSetup(game, players, target, rated, seated + [0] * (players - people),
                      [None] * people + list(levels), 60)
    host.offer(table)
    return table


def test_L12_a_guest_listens_then_sees_the_whole_table_before_it_joins(device):
    """Join listens on both cables (it says nothing); the ring's hello makes
    it a ring console; the offer shows every seat: the host, this person,
    the friends and the bots by level; A joins and the game begins."""
    d = device(PISTI_SEED=11)
    ring = Ring(d, 3, False)
    _menu(d, "link_join")
    st = d.app.status()
    assert st["screen"] == "link" and st["waiting"] == "link_wait", st
    for _ in range(300):
        ring.run(10, join=False)
        if d.app.play is not None and d.app.play.link is not None:
            break
    assert type(d.app.play.link).__name__ == "RingPlay"
    _host_offers(ring, "yedili", 4, 3, ["usta"])
    for _ in range(300):
        ring.run(10)
        if d.app.status()["screen"] == "confirm":
            break
    st = d.app.status()
    text = " ".join(st["lines"])
    assert "Pis Yedili 4p" in text and "1 Host, 2 Friend, 3 You, 4 Master" in text and "Join?" in text, st
    d.press("A")
    for _ in range(3000):
        ring.run(10)
        if d.app.status()["screen"] == "table":
            break
    assert d.app.status()["screen"] == "table"
    s = d.app.session
    assert s.linked and d.app.link.lock.rot == 2 and s.levels[0] is None
    st = _play(ring, until=lambda st: d.app.session is None or d.app.session.hands_done > 0)
    assert d.app.session is not None and d.app.session.hands_done == 1, st
    _alike(ring, d.app.session)


def test_L1_a_guest_listening_takes_a_two_console_host_on_either_cable(device):
    """The two-console link's host on the second cable: Join takes it there
    (the first cable closed), as a two-console guest."""
    from pisti_core import linkgame as LG
    from pisti_core import linkproto as P
    d = device()
    clock = lambda: d.rig.clock.now_ms  # noqa: E731
    cable = Cable(clock)
    uart.plug(cable.b, uart.SECOND)
    host = LG.Lockstep(cable.a, P.HOST, "pisti", d.rig.clock.ticks_ms(), P.Setup("pisti", 2, 101, False, 1,
                                                                                [None, None]), LEVELS)
    _menu(d, "link_join")
    for _ in range(600):
        d.run(10)
        host.poll(d.rig.clock.ticks_ms())
        if d.app.status()["screen"] == "confirm":
            d.press("A")
        if d.app.status()["screen"] == "table":
            break
    assert d.app.status()["screen"] == "table" and type(d.app.link).__name__ == "LinkPlay"
    assert d.app.link.lock.chan.port is cable.b


def _sat(ring, d, key="link_host", **prefs):
    """The app hosts (``link_host``) the Host screen's table to the ring's
    consoles, or joins (``link_join``) the host peer's; run to its table."""
    if key == "link_host":
        _menu(d, "link_host", **prefs)
        d.menu_to("start")
        d.press("A")
    for _ in range(3000):
        ring.run(10)
        st = d.app.status()
        if st["screen"] == "table":
            return st
        if st["screen"] == "confirm":
            d.press("A")
    raise AssertionError(d.app.status())


def test_L16_a_person_gone_three_minutes_has_left_and_the_hosts_bot_plays_their_seat(device):
    """A guest console silent (its cables pulled) past L-16's 3 minutes: the
    host's table counts down meanwhile (L-15), then a bot of the host's
    plays that seat and the hand goes on to its end on every console left."""
    d = device(PISTI_SEED=11)
    ring = Ring(d, 3, True)
    _sat(ring, d, game="yedili", players=3, consoles=3, rated=False)
    gone = ring.peers.pop(1)  # the console on the host's second cable
    seat = d.app.link.lock.setup.seat_of(gone.me)
    for _ in range(30):  # 30 s of silence: lost, its countdown shown (L-15)
        ring.run(1000)
    st = d.app.status()
    assert d.app.play.link_secs > 0 and st["screen"] == "table"
    assert d.app.play.link_secs <= 150
    ring.run(160000)
    lk = d.app.link.lock
    assert lk.left >> seat & 1 and lk.mine(seat) and d.app.play.seats[seat] is not d.app.link.seat
    assert d.app.play.link_secs == -1
    st = _play(ring, until=lambda st: d.app.session is None or d.app.session.hands_done > 0)
    assert d.app.session is not None and d.app.session.hands_done == 1, st
    _alike(ring, d.app.session)


@pytest.mark.parametrize("at", ["mid-hand", "last play"])
def test_L17_a_power_cut_in_a_ring_game_is_not_leaving(device, at):
    """The host console's power is cut in the middle of a hand, or just
    after its last play: it boots into the game from its save (ring id,
    key, table, the hand's actions), the others take it back, and the hand
    ends alike everywhere. A hand that had ended before the cut is scored
    at the boot, and its next deal waits for the person (L-14) as at any
    hand's end: the table and the breakdown come up without the deal's
    code (on the board it is unloaded while a hand is in play or held)."""
    from tools.shims.nvm import FlashNvm
    nvm = FlashNvm()
    d = device(nvm=nvm, PISTI_SEED=11)
    ring = Ring(d, 4, True)
    _sat(ring, d, game="pisti", players=4, consoles=4, rated=True)
    me = d.app.link.lock.me
    if at == "mid-hand":
        _play(ring, until=lambda st: len(d.app.session.hand.actions) >= 9)
    else:
        _play(ring, until=lambda st: d.app.session.hand is None or d.app.session.hand.over)
    ring.power_cut(lambda nvm: device(nvm=nvm, PISTI_SEED=12), nvm.restart())
    d = ring.d
    d.press("A")  # past the splash: the main menu's first row is Continue
    assert d.app.status()["cursor"] == "continue"
    d.press("A")
    for _ in range(300):
        ring.run(10)
        if d.app.status()["screen"] == "table":
            break
    st = d.app.status()
    assert st["screen"] == "table" and d.app.session.linked, st
    lk = d.app.link.lock
    assert type(d.app.link).__name__ == "RingPlay" and lk.me == me and lk.started and lk.rot == 0
    if at == "last play":
        assert lk.phase == G.PLAY and lk.deal_due and lk.hands_done == 1, (lk.phase, lk.deal_due, lk.hands_done)
        assert d.app.session.hand.over and all(p.phase == G.DEAL for p in ring.peers)
        ring.run(3000)  # the others' deal waits for this console's bytes: still held, nothing dealt
        assert d.app.status()["screen"] == "hand_end" and d.app.session.hand is None
        assert lk.deal_due and all(p.phase == G.DEAL for p in ring.peers)
        st = _play(ring, until=lambda st: st["screen"] == "table" and d.app.session.hand is not None
                   and not d.app.session.hand.over)  # the breakdown left (A): the next hand dealt
        assert d.app.session.hands_done == 1 and lk.phase == G.PLAY and not lk.deal_due, st
    st = _play(ring, until=lambda st: d.app.session is not None and d.app.session.hands_done > 0)
    _alike(ring, d.app.session)


def test_L10_a_rated_ring_ranks_each_pair_of_people_who_are_not_partners():
    """Four people in a Pişti 4p: two results, one against each opponent;
    a partner is no pair (P-1). Pis Yedili 3p, two people and a bot: one."""
    from types import SimpleNamespace
    from pisti_app.match.ringrank import pairs
    from pisti_core.match import Match
    m = Match("pisti", 4, 101, 0)
    m.totals[0], m.totals[1] = 120, 80
    m.over = True
    s = SimpleNamespace(game="pisti", players=4, match=m, link_info=(1, 3, 60, bytes(16), 9, 1, bytes((5, 6, 7, 9))))
    assert pairs(s, (1, "won")) == [(1, "won"), (1, "won")]
    m = Match("yedili", 3, None, 0)
    m.totals[:] = [30, 10, 50]
    m.over = True
    s = SimpleNamespace(game="yedili", players=3, match=m, link_info=(0, 0, 60, bytes(16), 5, 1, bytes((5, 0, 7))))
    assert pairs(s, (0, "drawn")) == [(1, "won")]  # seat 2's person: 30 against 50, fewer wins (Y-14, Y-16)
    m.over = False
    assert pairs(s, (-1, "lost")) == [(-1, "lost")]  # left before the end: T-4's cost once against each


def test_L17_a_ring_games_save_reads_back_and_a_damaged_one_is_refused():
    """The save keeps the ring (role, seat, timer, key, ring id, session
    byte, a console per seat); a ring flag without the link's is refused."""
    from pisti_app.match import session_io
    from pisti_app.match.session import GameSession
    from pisti_core.match import Match
    m = Match("yedili", 3, None, 0)
    m.deal()
    s = GameSession(m, [None, "usta", None], True, 7, 0)
    s.linked = True
    s.link_info = (1, 2, 90, bytes(range(16)), 33, 200, bytes((9, 0, 33)))
    data = s.to_bytes()
    back = session_io.from_bytes(data)
    assert back.linked and back.link_info == s.link_info and list(back.levels) == [None, "usta", None]
    bad = bytearray(data)
    bad[3] &= ~4  # the flags: a ring, not a link game
    with pytest.raises(ValueError):
        session_io.from_bytes(bytes(bad))
    with pytest.raises(ValueError):
        session_io.from_bytes(data[:-len(m.hand.actions) - 2])  # the people cut off


def test_L12_a_guest_that_declines_changes_nothing_and_the_host_says_so(device):
    """One person declines the table (B): the host console says so and goes
    back to the main menu; the declining console too, once the ring took its
    answer; nothing is saved on either."""
    d = device(PISTI_SEED=11)
    ring = Ring(d, 3, True)
    _menu(d, "link_host", game="yedili", players=3, consoles=3, rated=False)
    d.menu_to("start")
    d.press("A")
    for _ in range(2000):
        ring.run(10, join=False)
        if all(p.phase == G.OFFERED for p in ring.peers):
            break
    assert all(p.phase == G.OFFERED for p in ring.peers)
    ring.peers[1].answer(False)
    ring.peers[0].answer(True)
    for _ in range(300):
        ring.run(10, join=False)
        if d.app.status()["screen"] == "confirm":
            break
    st = d.app.status()
    assert st["screen"] == "confirm" and " ".join(st["lines"]) == "A player declined the table: no game.", st
    d.press("A")
    st = d.app.status()
    assert st["screen"] == "menu" and d.app.link is None and not st["saved"], st


def test_L14_each_next_deal_waits_for_the_person_and_the_hands_go_on_alike(device):
    """Three hands of a Pişti 4p of four people: each next deal once this
    console's person has left the hand's breakdown (L-14's bytes go out
    then), every console holding the same totals after each."""
    d = device(PISTI_SEED=11)
    ring = Ring(d, 4, True)
    _sat(ring, d, game="pisti", players=4, consoles=4, rated=False)
    for k in (1, 2, 3):
        st = _play(ring, until=lambda st, k=k: d.app.session.hands_done >= k and st["screen"] == "table")
        assert d.app.session.hands_done == k and d.app.link.lock.hands_done == k, st
        _alike(ring, d.app.session)
