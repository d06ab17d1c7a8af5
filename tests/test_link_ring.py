# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Up to four consoles in a ring (RULES.md L-11 .. L-17): the flooding
both ways round (pisti_core.ringnet), the hellos and the host's table,
the deal from every person's bytes, one game kept by digests and records,
lost consoles, leaving per person, power cuts, and tools/linktest.py
--consoles 3 and 4; the ring's core under the micropython command."""

import json
import os
import random

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from pisti_core import linkgame as G
from pisti_core import linkrec
from pisti_core import ringproto as R
from pisti_core import ringview as V
from pisti_core.linkproto import LinkVersionError, shared_deal
from pisti_core.ringgame import RingLock
from pisti_core.ringnet import Ring
from tools.shims.uart import Cable
from linkrig import Clock, urandom_from

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])


def cables_for(clock, n, loss=0.0, corrupt=0.0, seed=0):
    """The ring's cables: cable i joins console i's first UART to console
    i+1's second."""
    return [Cable(clock, loss=loss, corrupt=corrupt, noise=loss / 10, seed=seed * 10 + i) for i in range(n)]


def ports(cables, i):
    return cables[i].a, cables[i - 1].b


def ring_of(n, loss=0.0, seed=0, firmware=None):
    clock = Clock()
    cables = cables_for(clock, n, loss, loss / 5, seed)
    locks = [RingLock(ports(cables, i), linkrec.HOST if i == 0 else linkrec.GUEST,
                      firmware[i] if firmware else "0.3.0", 0, None, None, LEVELS, urandom_from(seed * 7 + i))
             for i in range(n)]
    return clock, cables, locks


def tick(clock, locks, ms=20, join=True, choose=None, rng=None):
    clock.t += ms
    for lk in locks:
        lk.poll(clock.t)
        if join and lk.phase == linkrec.OFFERED:
            lk.answer(True)
        if choose is not None and lk.to_act() >= 0:
            lk.act(choose(lk, rng))


def run(clock, locks, until, ms=60000, **kw):
    end = clock.t + ms
    while clock.t < end:
        tick(clock, locks, **kw)
        if until():
            return True
    return False


def random_legal(lk, rng):
    return rng.choice(lk.match.hand.legal())


def table(locks, game="yedili", players=4, rated=False, seats=None, timer=60):
    """A table with every console's person seated (``seats``: console index
    per seat, None for a bot)."""
    if seats is None:
        seats = list(range(len(locks))) + [None] * (players - len(locks))
    people = [0 if i is None else locks[i].me for i in seats]
    levels = [None if i is not None else "random" for i in seats]
    return R.RingSetup(game, players, 101 if game == "pisti" else None, rated, people, levels, timer)


def hellos_done(clock, locks):
    assert run(clock, locks, lambda: all(len(V.consoles(lk, clock.t)) == len(locks) for lk in locks), 20000)


def started(clock, locks, make):
    """Hellos, then the table ``make()`` builds (from the ids the consoles
    hold by then: two that drew the same id draw again, L-11) offered and
    joined; the seated consoles."""
    hellos_done(clock, locks)
    setup = make()
    locks[0].offer(setup)
    seated = [lk for lk in locks if setup.seat_of(lk.me) >= 0]
    assert run(clock, locks, lambda: all(lk.phase == linkrec.PLAY for lk in seated), 30000)
    return seated


def records(locks):
    return {(lk.hands_done, linkrec.record(lk.match, lk.hands_done, lk.rot)) for lk in locks}


# -- messages round the ring (L-13) -------------------------------------------------------
def nets(n, clock, cables, warm=200):
    """``n`` Rings (ids 10, 11, ...) whose cables' sessions are open (a
    neighbour's new session drops what waited for it)."""
    rings = [Ring(ports(cables, i), 10 + i, b"PS", 0, 40 + i, (i, 100 + i)) for i in range(n)]
    for _ in range(warm):
        clock.t += 10
        for r in rings:
            r.poll(clock.t)
    return rings


def test_L13_a_message_reaches_every_console_once_both_ways_round():
    clock = Clock()
    cables = cables_for(clock, 4)
    rings = nets(4, clock, cables, 20)
    rings[0].send(30, b"one", now=clock.t)
    got = [[] for _ in rings]
    for _ in range(50):
        clock.t += 10
        for i, r in enumerate(rings):
            got[i] += [m for m in r.poll(clock.t) if m[1] == 30]
    assert got == [[], [(10, 30, b"one")], [(10, 30, b"one")], [(10, 30, b"one")]]
    assert sum(r.forwarded for r in rings) == 3  # the message crossed 5 cables: 2 sent, 3 passed on


def test_L13_one_cable_pulled_changes_nothing_two_cut_a_console_off():
    clock = Clock()
    cables = cables_for(clock, 4)
    rings = nets(4, clock, cables, 20)
    cables[1].cut = True  # between consoles 1 and 2: 2 hears 0 the other way round
    rings[1].send(31, b"x", now=clock.t)
    got = [[] for _ in rings]
    for _ in range(50):
        clock.t += 10
        for i, r in enumerate(rings):
            got[i] += [m[2] for m in r.poll(clock.t) if m[1] == 31]
    assert got == [[b"x"], [], [b"x"], [b"x"]]
    cables[2].cut = True  # and between 2 and 3: console 2 is cut off
    rings[0].send(31, b"y", now=clock.t)
    got = [[] for _ in rings]
    for _ in range(50):
        clock.t += 10
        for i, r in enumerate(rings):
            got[i] += [m[2] for m in r.poll(clock.t) if m[1] == 31]
    assert got == [[], [b"y"], [], [b"y"]]
    for _ in range(250):
        clock.t += 10
        for r in rings:
            r.poll(clock.t)
    assert rings[2].cut_off(clock.t) and not rings[0].cut_off(clock.t)
    assert rings[1].cable_lost(0, clock.t) and not rings[1].cable_lost(1, clock.t)


def test_L13_a_message_for_one_console_is_not_passed_on_by_it():
    clock = Clock()
    cables = cables_for(clock, 3)
    rings = nets(3, clock, cables, 20)
    rings[0].send(32, b"to 11", dst=11, now=clock.t)
    got = [[] for _ in rings]
    for _ in range(50):
        clock.t += 10
        for i, r in enumerate(rings):
            got[i] += [m[2] for m in r.poll(clock.t) if m[1] == 32]
    assert got == [[], [b"to 11"], []]


def test_L13_L17_a_console_booted_again_is_heard_even_with_the_session_byte_of_two_boots_before():
    clock = Clock()
    cables = cables_for(clock, 3)
    rings = nets(3, clock, cables, 20)
    got = []

    def say(r, n):
        for j in range(n):
            r.send(33, bytes((j,)), now=clock.t)
            for _ in range(8):
                clock.t += 10
                for i, x in enumerate(rings):
                    got.extend((i, m[2]) for m in x.poll(clock.t) if m[1] == 33)

    say(rings[1], 100)  # session 41, numbers 0..99
    for ses in (90, 41):  # booted twice: the second time with the first boot's byte
        for p in (cables[1].a, cables[0].b):
            p.power_cut()
        rings[1] = Ring(ports(cables, 1), 11, b"PS", clock.t, ses, (7, 8))
        for _ in range(40):
            clock.t += 10
            for r in rings:
                r.poll(clock.t)
        del got[:]
        say(rings[1], 5)
        assert sorted(got) == sorted((i, bytes((j,))) for i in (0, 2) for j in range(5)), (ses, got)


def test_L13_L15_a_damaged_frame_that_moves_a_window_stops_nothing_for_long():
    """A frame whose damage its CRC missed, naming a console's session and a
    number far ahead, would hide that console's next messages as old ones:
    three in a row start its window afresh, and the console is heard all
    the while (L-15)."""
    clock = Clock()
    cables = cables_for(clock, 3)
    rings = nets(3, clock, cables, 20)
    r1 = rings[1]
    r1.send(33, b"a", now=clock.t)
    forged = bytes((r1.me, r1.ses, (r1.seq + 100) & 255, 255, 1)) + b"damaged"
    r1.chans[0].send(34, forged)  # straight onto the cable to console 2, as if the frame had come so
    got = []
    for j in range(12):
        r1.send(33, bytes((j,)), now=clock.t)
        for _ in range(8):
            clock.t += 10
            for i, x in enumerate(rings):
                got.extend((i, m[2]) for m in x.poll(clock.t) if m[1] == 33)
    at2 = [b for i, b in got if i == 2]
    assert [bytes((j,)) for j in range(6, 12)] == at2[-6:] and len(at2) >= 9
    assert rings[2].since(r1.me, clock.t) < 100


@FAST
@given(st.integers(3, 4), st.floats(0, 0.05), st.integers(0, 10 ** 6), st.integers(-1, 3), st.integers(1, 8))
@example(3, 0.035647674696852254, 682, 0, 7)  # a lossy cable silent past 2 s: its queue trimmed
@example(3, 0.012467196239024328, 6862, -1, 3)  # a console's own messages come round
def test_L13_every_message_arrives_once_on_bad_cables_with_one_pulled(n, loss, seed, pulled, k):
    """L-13: through lost, flipped and stray bytes, with one cable pulled
    for the whole run (or none), every console gets every other's messages,
    each once; one goes missing only where a queue waiting on a cable not
    heard for 2 s was trimmed (the game's statuses mend that)."""
    clock = Clock()
    cables = cables_for(clock, n, loss, loss / 5, seed)
    if pulled >= 0:
        cables[pulled % n].cut = True
    rings = nets(n, clock, cables, 300)
    for j in range(k):
        for i, r in enumerate(rings):
            r.send(40, bytes((i, j)), now=clock.t)
    got = [[] for _ in rings]
    for _ in range(12000):
        clock.t += 10
        for i, r in enumerate(rings):  # (a console's own, come round, go to its game as such: not counted)
            got[i] += [m[2] for m in r.poll(clock.t) if m[1] == 40 and m[0] != r.me]
        if all(len(g) == (n - 1) * k for g in got):
            break
    trimmed = sum(r.trimmed for r in rings)
    missing = 0
    for i in range(n):
        want = sorted(bytes((o, j)) for o in range(n) if o != i for j in range(k))
        assert len(set(got[i])) == len(got[i]) and set(got[i]) <= set(want)  # each once, none made up
        missing += len(want) - len(got[i])
    assert missing == 0 or trimmed, (missing, trimmed)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.integers(3, 4), st.floats(0, 0.04), st.integers(0, 10 ** 6), st.integers(0, 3), st.integers(0, 40000),
       st.integers(500, 60000))
@example(4, 0.0, 1317, 0, 722, 2512)  # the 80th action ends a hand: the next deal is under way
def test_L13_L14_one_game_round_the_ring_through_loss_and_a_cable_cut(n, loss, seed, cable, at, length):
    """L-13, L-14: through lost and flipped bytes and one cable pulled for a
    while (anywhere), the consoles deal and play on, and come to rest at
    one place with one digest."""
    clock, cables, locks = ring_of(n, loss, seed)
    started(clock, locks, lambda: table(locks, "yedili", 4))
    rng = random.Random(seed)
    start = clock.t
    acted = 0
    while acted < 80 and clock.t < start + 900000 and not all(lk.phase == linkrec.OVER for lk in locks):
        cables[cable % n].cut = start + at <= clock.t < start + at + length
        clock.t += 20
        for lk in locks:
            lk.poll(clock.t)
            if lk.to_act() >= 0 and lk.phase == linkrec.PLAY:
                lk.act(random_legal(lk, rng))
                acted += 1
    cables[cable % n].cut = False
    assert acted >= 80 or all(lk.phase == linkrec.OVER for lk in locks)
    # (at rest: one place, and no deal under way, which a hand just over may have begun)
    assert run(clock, locks, lambda: len({lk.position() for lk in locks}) == 1
               and all(lk.phase in (linkrec.PLAY, linkrec.OVER) for lk in locks), 120000, join=False)


# -- hellos (L-11) ------------------------------------------------------------------------
def test_L11_every_console_knows_every_others_version():
    clock, cables, locks = ring_of(4, firmware=("1.0", "1.1", "1.2", "1.3"))
    hellos_done(clock, locks)
    for i, lk in enumerate(locks):
        assert {cid: fw for cid, (role, fw) in lk.peers.items()} == {
            o.me: "1.%d" % j for j, o in enumerate(locks) if j != i}
        assert lk.phase == linkrec.CONNECT and lk.match is None


@pytest.mark.parametrize("loss", [0.0, 0.03])
def test_L11_two_consoles_that_drew_the_same_id_draw_again_and_leave_no_ghost(loss):
    clock = Clock()
    cables = cables_for(clock, 4, loss, 0, 3)
    ids = (50, 50, 60, 70)
    def same_start(i):  # the boot's first draw alike (the session byte), the rest apart
        later = urandom_from(i)
        first = [bytes((0, 156, 1, 2))]
        return lambda n: first.pop() if first else later(n)
    rands = [same_start(i) for i in range(4)]  # consoles 0 and 1: the same id and the same session byte
    locks = [RingLock(ports(cables, i), linkrec.HOST if i == 0 else linkrec.GUEST, "0.3.0", 0, ids[i], bytes((i,)) * 16,
                      LEVELS, rands[i]) for i in range(4)]
    assert locks[0].net.ses == locks[1].net.ses
    assert run(clock, locks, lambda: len({lk.me for lk in locks}) == 4
               and all(sorted(V.consoles(lk, clock.t)) == sorted(o.me for o in locks) for lk in locks), 60000)
    run(clock, locks, lambda: False, 25000)  # (a ghost would show again as the old id's messages come round)
    assert all(sorted(V.consoles(lk, clock.t)) == sorted(o.me for o in locks) for lk in locks)


def test_L11_another_protocol_is_a_typed_error_naming_both_versions():
    data = bytearray(R.hello(linkrec.GUEST, "9.9", bytes(8), 5))
    data[2] = 7
    with pytest.raises(LinkVersionError) as e:
        R.parse_hello(bytes(data))
    assert e.value.key == "version" and (e.value.mine, e.value.theirs) == (R.RING_PROTOCOL, 7)
    assert "9.9" in e.value.text


def test_L11_a_two_console_link_on_a_ring_cable_is_refused_on_both_and_nothing_changes():
    clock = Clock()
    cable = Cable(clock)
    other = Cable(clock)
    lk = RingLock((cable.a, other.a), linkrec.HOST, "0.3.0", 0, None, None, LEVELS, urandom_from(1))
    old = G.Lockstep(cable.b, G.GUEST, "0.2.0", 0, None, LEVELS, urandom_from(2))
    run(clock, [lk, old], lambda: lk.phase == linkrec.FAILED and old.phase == G.FAILED, 5000)
    assert lk.error.key == "version" and (lk.error.mine, lk.error.theirs) == (2, 1)
    assert old.error.key == "version" and (old.error.mine, old.error.theirs) == (1, 2)
    assert lk.match is None and old.match is None


def test_L11_two_hosts_are_refused():
    clock, cables, locks = ring_of(3)
    locks[2].role = linkrec.HOST
    from pisti_core import ringsetup
    ringsetup.hello(locks[2])
    run(clock, locks, lambda: locks[0].phase == locks[2].phase == linkrec.FAILED, 5000)
    assert [(lk.phase, lk.error.key) for lk in (locks[0], locks[2])] == [(linkrec.FAILED, "role")] * 2  # each host


# -- the host's table (L-12) -----------------------------------------------------------------
def test_L12_the_table_round_trips_and_is_checked():
    s = R.RingSetup("pisti", 4, 151, True, [9, 0, 17, 33], [None, "usta", None, None], 90)
    back = R.parse_offer(R.offer_bytes(s, LEVELS), LEVELS)
    assert back.__dict__ == s.__dict__ and back.seat_of(17) == 2 and back.consoles() == [9, 17, 33]
    with pytest.raises(ValueError):
        R.RingSetup("pisti", 4, 151, True, [9, 0, 9, 0], [None, "usta", None, "usta"])  # one console twice
    with pytest.raises(ValueError):
        R.RingSetup("pisti", 4, 151, True, [0, 5, 0, 0], [None, None, "usta", "usta"])  # the host at seat 0
    with pytest.raises(ValueError):
        R.RingSetup("pisti", 3, 151, True, [1, 2, 3], [None, None, None])  # P-1


def test_L12_every_console_sees_the_whole_table_before_joining_and_a_decline_changes_nothing():
    clock, cables, locks = ring_of(4)
    hellos_done(clock, locks)
    s = table(locks, "yedili", 4, seats=[0, 2, None, 1])  # console 3 left out
    locks[0].offer(s)
    run(clock, locks, lambda: locks[1].phase == linkrec.OFFERED and locks[2].phase == linkrec.OFFERED, 10000,
        join=False)
    for lk in locks[1:3]:
        assert lk.setup.people == s.people and lk.setup.levels == (None, None, "random", None)
        assert lk.match is None
    assert locks[3].phase == linkrec.CONNECT and locks[3].watching.people == s.people
    locks[2].answer(False)
    run(clock, locks, lambda: all(lk.phase == linkrec.DECLINED for lk in locks[:3]), 10000, join=False)
    assert all(lk.phase == linkrec.DECLINED and lk.match is None for lk in locks[:3])


def test_L12_L5_a_match_on_four_consoles_ends_alike_each_action_decided_by_one_console():
    clock, cables, locks = ring_of(4, seed=3)
    started(clock, locks, lambda: table(locks, "pisti", 4, rated=True, seats=[0, 3, 1, 2]))
    s = locks[0].setup
    deciders = set()
    rng = random.Random(5)

    def choose(lk, rng):
        deciders.add((lk.me, (lk.to_act() + lk.rot) % 4))
        return random_legal(lk, rng)

    assert run(clock, locks, lambda: all(lk.phase == linkrec.OVER for lk in locks), 3600000, choose=choose,
               rng=rng)
    assert len(records(locks)) == 1
    assert deciders == {(s.people[seat], seat) for seat in range(4)}
    # seats 0 and 2 are partners (P-1): consoles 0 and 1; console 3 at seat 1 is on the other side (T-2)
    assert V.outcome(locks[0]) == V.outcome(locks[1]) and V.outcome(locks[0])[0] == -V.outcome(locks[3])[0]
    assert sum(lk.mismatches + lk.repairs for lk in locks) == 0


def test_L12_L5_an_action_from_a_console_that_does_not_decide_the_seat_is_repaired():
    clock, cables, locks = ring_of(3, seed=4)
    started(clock, locks, lambda: table(locks, "yedili", 3))
    h = locks[1].match.hand
    forger = locks[1] if h.turn != 0 else locks[2]
    hd, ply = forger.hands_done, len(h.actions)
    a = forger.match.hand.legal()[0]
    forger.net.send(R.ACTION, linkrec.b16(hd) + linkrec.b16(ply) + bytes((a,)) + bytes(4), R.ALL, clock.t)
    run(clock, locks, lambda: False, 3000, join=False)
    assert sum(lk.repairs for lk in locks) >= 1
    rng = random.Random(1)
    assert run(clock, locks, lambda: all(lk.phase == linkrec.OVER for lk in locks), 3600000,
               choose=random_legal, rng=rng)
    assert len(records(locks)) == 1


def test_L13_L5_a_silent_change_is_found_by_the_digests_and_mended_with_the_hosts_record():
    clock, cables, locks = ring_of(3, seed=6)
    started(clock, locks, lambda: table(locks, "yedili", 3))
    locks[2].match.totals[0] += 7  # a fault in one console's memory
    rng = random.Random(2)
    assert run(clock, locks, lambda: all(lk.phase == linkrec.OVER for lk in locks), 3600000,
               choose=random_legal, rng=rng)
    assert len(records(locks)) == 1 and locks[2].mismatches + locks[0].mismatches >= 1


# -- the deal (L-14) ------------------------------------------------------------------------
def test_L14_the_deck_depends_on_every_persons_bytes_and_two_consoles_deal_as_L3():
    parts = [bytes(range(i, i + 16)) for i in range(3)]
    d = R.ring_deal("yedili", 3, parts, 0)
    for i in range(3):
        other = list(parts)
        other[i] = bytes(16)
        assert R.ring_deal("yedili", 3, other, 0)[1] != d[1]
    assert R.ring_deal("yedili", 3, parts, 1)[1] != d[1]
    assert R.ring_deal("pisti", 2, parts[:2], 4) == shared_deal("pisti", 2, parts[0], parts[1], 4)


def test_L14_no_console_reveals_before_it_holds_every_commitment():
    clock, cables, locks = ring_of(3, seed=8)
    hellos_done(clock, locks)
    s = table(locks, "yedili", 3)
    sent = []
    for lk in locks:
        real = lk.net.send

        def spy(typ, body=b"", dst=R.ALL, now=None, lk=lk, real=real):
            if typ == R.REVEAL:
                sent.append((lk.me, {c for c, (k, _) in lk.commits.items() if k == lk.hands_done}))
            real(typ, body, dst, now)
        lk.net.send = spy
    locks[0].offer(s)
    assert run(clock, locks, lambda: all(lk.phase == linkrec.PLAY for lk in locks), 30000)
    assert sent and all(commits >= set(s.consoles()) - {me} for me, commits in sent)
    decks = {bytes(lk.match.hand.deck) for lk in locks}
    assert len(decks) == 1


def test_L14_bytes_that_do_not_match_their_commitment_end_the_game():
    clock, cables, locks = ring_of(3, seed=9)
    hellos_done(clock, locks)
    from pisti_core import ringdeal
    real = ringdeal.reveal

    def lie(lk):
        if lk is locks[2] and not lk.revealed:
            lk.secret = (lk.secret[0], bytes(16))  # bytes other than the ones committed to
        real(lk)
    ringdeal.reveal, saved = lie, real
    try:
        locks[0].offer(table(locks, "yedili", 3))
        run(clock, locks, lambda: locks[0].phase == linkrec.FAILED, 30000)
    finally:
        ringdeal.reveal = saved
    assert locks[0].phase == linkrec.FAILED and locks[0].error.key == "deal" and locks[0].match is None


# -- lost consoles, leaving (L-15, L-16, T-3, T-4) -----------------------------------------------
def test_L15_L16_a_console_cut_off_for_3_minutes_has_left_and_a_hosts_bot_plays_its_seat():
    clock, cables, locks = ring_of(4, seed=11)
    started(clock, locks, lambda: table(locks, "yedili", 4, rated=True))
    cables[1].cut = cables[2].cut = True  # console 2 hears nobody, nobody hears it
    rng = random.Random(3)
    run(clock, locks, lambda: False, 21000, join=False, choose=random_legal, rng=rng)  # (until console 2's turn)
    assert V.lost(locks[0], clock.t) == [locks[2].me] and locks[2].net.cut_off(clock.t)
    assert 150000 < V.left_ms(locks[0], locks[2].me, clock.t) < 160000
    run(clock, locks, lambda: locks[2].phase == R.LEFT and locks[0].left, 170000, join=False, choose=random_legal,
        rng=rng)
    assert locks[2].phase == R.LEFT and locks[2].left_me == "gone"
    assert V.outcome(locks[2]) == (-1, "lost")  # T-4 in the first hand
    assert locks[0].left >> 2 & 1 and locks[0].mine((2 - locks[0].rot) % 4)
    live = [locks[0], locks[1], locks[3]]
    assert run(clock, live, lambda: all(lk.phase == linkrec.OVER for lk in live), 3600000,
               choose=random_legal, rng=rng)
    assert len(records(live)) == 1 and all(V.outcome(lk) is not None for lk in live)


def test_L16_a_console_cut_off_leaves_itself_even_when_the_host_was_heard_a_little_before_the_others():
    """Both cables of console 2 dead: it is the one that left once anyone
    is 3 minutes gone, also when the host's last message came a second
    before the others' (the host's 3 minutes run out first there, while
    the others still count as heard)."""
    clock, cables, locks = ring_of(4, seed=11)
    started(clock, locks, lambda: table(locks, "yedili", 4, rated=True))
    cables[1].cut = cables[2].cut = True  # console 2 hears nobody, nobody hears it
    cut = locks[2]
    host = locks[0].me
    heard = cut.net.heard
    heard[host] = min(heard[o.me] for o in locks if o is not cut) - 1000
    run(clock, [cut], lambda: cut.phase in (R.LEFT, linkrec.FAILED), 200000, join=False)
    assert cut.phase == R.LEFT and cut.left_me == "gone" and cut.error is None


def test_L16_the_host_cut_off_ends_the_game_and_nothing_is_recorded_for_the_others():
    clock, cables, locks = ring_of(3, seed=12)
    started(clock, locks, lambda: table(locks, "yedili", 3, rated=True))
    cables[0].cut = cables[2].cut = True
    run(clock, locks, lambda: locks[1].phase == linkrec.FAILED, 200000, join=False, choose=random_legal,
        rng=random.Random(1))
    assert locks[1].error.key == "host" and locks[2].error.key == "host"
    assert V.outcome(locks[1]) is None and locks[0].left_me == "gone"


def test_T3_T4_L16_a_person_out_of_time_leaves_and_the_host_plays_the_seat():
    clock, cables, locks = ring_of(3, seed=13)
    started(clock, locks, lambda: table(locks, "yedili", 3, rated=True, timer=30))
    rng = random.Random(4)
    slow = locks[1]

    def choose(lk, rng):
        return random_legal(lk, rng)

    end = clock.t + 40000
    while clock.t < end and slow.phase != R.LEFT:  # everyone plays but console 1's person
        tick(clock, locks)
        for lk in (locks[0], locks[2]):
            if lk.to_act() >= 0:
                lk.act(random_legal(lk, rng))
        if slow.to_act() == 0:
            assert 0 <= locks[0].move_left_ms() <= 30000 and slow.move_left_ms() <= 30000
    assert slow.phase == R.LEFT and slow.left_me == "timer" and V.outcome(slow) == (-1, "lost")
    live = [locks[0], locks[2]]
    assert run(clock, locks, lambda: all(lk.phase == linkrec.OVER for lk in live), 3600000, choose=choose, rng=rng)
    assert len(records(live)) == 1


# -- power cuts (L-17) ------------------------------------------------------------------------------
def test_L17_a_console_booted_from_its_save_catches_up_from_a_console_ahead():
    clock, cables, locks = ring_of(4, seed=14)
    started(clock, locks, lambda: table(locks, "yedili", 4))
    s = locks[0].setup
    rng = random.Random(6)
    run(clock, locks, lambda: locks[0].place()[1] > 12, 600000, choose=random_legal, rng=rng)
    cut = locks[3]
    saved = linkrec.record(cut.match, cut.hands_done, cut.rot)
    for p in cut.net.chans:
        p.port.power_cut()
    others = locks[:3]

    def choose(lk, rng):
        return random_legal(lk, rng)
    run(clock, others, lambda: False, 5000, choose=choose, rng=rng)  # the others play on while it is off
    back = RingLock.resume(ports(cables, 3), linkrec.GUEST, "0.3.0", clock.t, cut.me, cut.key, s, saved, LEVELS,
                           urandom_from(99), cut.net.ses)
    locks[3] = back
    assert run(clock, locks, lambda: all(lk.phase == linkrec.OVER for lk in locks), 3600000,
               choose=random_legal, rng=rng)
    assert len(records(locks)) == 1 and back.repairs >= 1


def test_L17_a_seated_console_with_a_wiped_save_is_offered_its_seat_and_takes_the_record():
    clock, cables, locks = ring_of(3, seed=15)
    started(clock, locks, lambda: table(locks, "yedili", 3))
    s = locks[0].setup
    rng = random.Random(7)
    run(clock, locks, lambda: locks[0].place()[1] > 6, 600000, choose=random_legal, rng=rng)
    old = locks[2]
    for p in old.net.chans:
        p.port.power_cut()
    locks[2] = RingLock(ports(cables, 2), linkrec.GUEST, "0.3.0", clock.t, old.me, None, LEVELS, urandom_from(5))
    assert run(clock, locks, lambda: locks[2].phase == linkrec.OFFERED, 60000, join=False)
    assert locks[2].rejoin and locks[2].setup.people == s.people
    locks[2].answer(True)
    assert run(clock, locks, lambda: locks[2].phase == linkrec.PLAY and len(records(locks)) == 1, 60000)


# -- tools/linktest.py --consoles (L-11 .. L-17) ------------------------------------------------------------
def linktest(capsys, *argv):
    from tools import linktest as lt
    status = lt.main(list(argv))
    out = capsys.readouterr().out.strip().splitlines()
    return status, json.loads(out[-1])


@pytest.mark.parametrize("n", [3, 4])
def test_L13_L14_L17_linktest_ring_under_loss_cuts_and_power_cuts(capsys, n):
    status, got = linktest(capsys, "--consoles", str(n), "--actions", "1500", "--seed", str(n), "--loss", "0.05",
                           "--power", "0.03", "--cuts", "0.03", "--tamper", "0.005")
    assert (got["desyncs"], got["lost"], got["faults"]) == (0, 0, 0), got
    assert status == 0 and got["consoles"] == n and got["actions"] >= 1500
    assert got["resends"] > 0 and got["power_cuts"] > 0 and got["cable_cuts"] > 0 and got["forwarded"] > 0


def test_L11_L13_linktest_ring_of_two_consoles(capsys):
    """--ring: two consoles joined by both their cables run the ring's code."""
    status, got = linktest(capsys, "--ring", "--actions", "600", "--seed", "5", "--loss", "0.05")
    assert (got["desyncs"], got["lost"], got["faults"], got["consoles"]) == (0, 0, 0, 2), got
    assert status == 0 and got["actions"] >= 600


def test_L5_L13_linktest_ring_reports_a_planted_bug_without_repairs(capsys, monkeypatch):
    from pisti_core import ringdeal
    monkeypatch.setattr(ringdeal, "repair", lambda lk, o: None)
    status, got = linktest(capsys, "--consoles", "3", "--actions", "600", "--seed", "2", "--tamper", "0.05",
                           "--power", "0", "--cuts", "0")
    assert got["tampered"] > 0 and got["desyncs"] + got["lost"] + got["faults"] > 0, got
    assert status == 1


# -- the micropython command -------------------------------------------------------------------
MP_RING = r'''
import sys
from pisti_core import linkrec
from pisti_core import ringproto as R
from pisti_core import ringview as V
from pisti_core.ringgame import RingLock

class Wire:
    """One direction of a cable: bytes written at one end, read at the other."""
    def __init__(self):
        self.buf = bytearray()

class End:
    def __init__(self, rx, tx):
        self.rx = rx
        self.tx = tx
    def write(self, b):
        self.tx.buf.extend(b)
        return len(b)
    @property
    def in_waiting(self):
        return len(self.rx.buf)
    def read(self, n):
        out = bytes(self.rx.buf[:n])
        self.rx.buf = self.rx.buf[n:]
        return out

class Rand:
    def __init__(self, s):
        self.s = s
    def __call__(self, n):
        out = bytearray(n)
        for i in range(n):
            self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
            out[i] = self.s >> 16 & 255
        return bytes(out)

n = int(sys.argv[1])
wires = [(Wire(), Wire()) for _ in range(n)]  # cable i: console i's first UART to console i+1's second
def ports(i):
    a, b = wires[i]
    c, d = wires[i - 1]
    return End(a, b), End(d, c)
if n == 2:  # two consoles, one cable: the board's lean Lockstep (the code between hands unloaded)
    from pisti_core import linkgame, linkproto
    locks = [linkgame.Lockstep(End(wires[0][0], wires[0][1]), linkrec.HOST, "mp", 0,
                               linkproto.Setup("yedili", 4, None, False, 1, [None, None, "random", "random"]),
                               ("random",), Rand(1), lean=True),
             linkgame.Lockstep(End(wires[0][1], wires[0][0]), linkrec.GUEST, "mp", 0, None, ("random",), Rand(2),
                               lean=True)]
else:
    locks = [RingLock(ports(i), linkrec.HOST if i == 0 else linkrec.GUEST, "mp", 0, None, None, ("random",),
                      Rand(i + 1)) for i in range(n)]
pick = Rand(77)
idle = len(sys.argv) > 2  # the idle ticks' allocation: the first 12 actions, then nobody acts
acted = 0
t = 0
offered = False
while t < 3000000:
    t += 20
    for lk in locks:
        lk.poll(t)
        del lk.notices[:]  # (the screens read them)
        if lk.phase == linkrec.OFFERED:
            lk.answer(True)
        if lk.to_act() >= 0 and not (idle and acted >= 12):
            legal = lk.match.hand.legal()
            lk.act(legal[pick(1)[0] % len(legal)])
            acted += 1
    if not offered and n > 2 and len(V.consoles(locks[0], t)) == n:  # (two: the host offers at the hello)
        people = [lk.me for lk in locks] + [0] * (4 - n)
        locks[0].offer(R.RingSetup("yedili", 4, None, False, people, [None] * n + ["random"] * (4 - n)))
        offered = True
    if offered and all(lk.phase == linkrec.OVER for lk in locks) or idle and acted >= 12:
        break
if idle:
    import gc
    for _ in range(100):  # what was sent taken
        t += 4
        for lk in locks:
            lk.poll(t)
    gc.collect()
    gc.disable()
    base = gc.mem_alloc()
    for _ in range(500):  # two seconds of 4 ms ticks, a person thinking
        t += 4
        for lk in locks:
            lk.poll(t)
    print("idle", (gc.mem_alloc() - base) // (500 * n), [lk.phase for lk in locks])
    raise SystemExit
recs = set(linkrec.record(lk.match, lk.hands_done, lk.rot) for lk in locks)
print("ok" if len(recs) == 1 and locks[0].phase == linkrec.OVER else "differ", locks[0].hands_done, t)
'''


@pytest.fixture(scope="module")
def mpy_build(tmp_path_factory):
    from tools import mpy
    out = str(tmp_path_factory.mktemp("ringmpy"))
    mpy.build(out)
    with open(os.path.join(out, "ring.py"), "w", encoding="utf-8") as f:
        f.write(MP_RING)
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_L4_an_idle_link_tick_allocates_next_to_nothing_under_micropython(mpy_build, n):
    """A linked console's tick while a person thinks (two consoles' lean
    Locksteps, or a ring's locks: every console's poll,
    4 ms apart, for two emulated seconds mid-hand) allocates a few bytes on
    average (the keepalives and the rare status), not a list or a module
    name each tick: the garbage it makes sets how often the board stops
    for a collection, in the middle of showing a play."""
    from tools import mpy
    r = mpy.run(os.path.join(mpy_build, "ring.py"), "1M", path=(mpy_build,), args=(str(n), "idle"), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    words = r.stdout.split(None, 2)
    assert words[0] == "idle" and "play" in words[2], r.stdout
    assert int(words[1]) <= 24, "%s B a console's idle tick (this 64-bit build)" % words[1]


@pytest.mark.parametrize("n", [3, 4])
def test_L11_L14_a_ring_match_runs_under_micropython(mpy_build, n):
    """Every console of a ring of ``n`` in one MicroPython VM (pisti_core
    as .mpy, a 128K heap on this 64-bit build): hellos, the table, the
    deals and a whole match, ended alike on every console."""
    from tools import mpy
    r = mpy.run(os.path.join(mpy_build, "ring.py"), "128K", path=(mpy_build,), args=(str(n),), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok "), r.stdout
    assert int(r.stdout.split()[1]) >= 1

