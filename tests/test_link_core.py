# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Link play's pure logic (RULES.md L-1 .. L-10): frames, the stop-and-wait
channel, the hello, the commit-reveal deal, digests and records, over the
virtual cable of tools/shims/uart.py (drops, flips, noise, cuts)."""

import random
import sys

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pisti_core import linkgame as G
from pisti_core import linkproto as P
from pisti_core import linkrx
from pisti_core.linkchan import LOST_MS, Channel
from pisti_core.crc import crc16
from pisti_core.linkframe import FLAG, MAX_PAYLOAD, Decoder, encode
from pisti_core.match import Match
from tools.shims.uart import Cable
from linkrig import Clock, urandom_from

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])


def pair(setup, loss=0.0, corrupt=0.0, seed=0, host_fw="0.2.0", guest_fw="0.2.0"):
    clock = Clock()
    cable = Cable(clock, loss=loss, corrupt=corrupt, seed=seed)
    h = G.Lockstep(cable.a, P.HOST, host_fw, 0, setup, LEVELS, urandom_from(seed * 2 + 1))
    g = G.Lockstep(cable.b, P.GUEST, guest_fw, 0, None, LEVELS, urandom_from(seed * 2 + 2))
    return clock, cable, h, g


def run(clock, cons, until, ms=60000, choose=None, rng=None):
    """Tick both consoles (10 ms) until ``until()`` or ``ms`` pass; the
    guest joins what it is offered; ``choose`` picks actions if given."""
    end = clock.t + ms
    while clock.t < end:
        clock.t += 10
        for c in cons:
            c.poll(clock.t)
            if c.phase == G.OFFERED:
                c.answer(True)
            if choose is not None and c.to_act() >= 0:
                c.act(choose(c, rng))
        if until():
            return True
    return False


def first_legal(c, rng):
    return c.match.hand.legal()[0]


def random_legal(c, rng):
    return rng.choice(c.match.hand.legal())


def pisti2(rated=True):
    return P.Setup("pisti", 2, 101, rated, 1, [None, None])


# -- frames (L-6) -----------------------------------------------------------------
def test_L6_crc16_ccitt_false_check_value():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


def test_L6_frames_are_stuffed_so_a_flag_only_starts_a_frame():
    raw = encode(1, 2, 3, 4, bytes((FLAG, 0x7D, 0, FLAG)))
    assert raw[0] == FLAG and FLAG not in raw[1:]
    frames = Decoder().feed(raw)
    assert len(frames) == 1
    f = frames[0]
    assert (f.ses, f.seq, f.ack, f.typ, f.payload) == (1, 2, 3, 4, bytes((FLAG, 0x7D, 0, FLAG)))


def test_L6_a_frame_over_the_limit_is_refused():
    with pytest.raises(ValueError, match="at most"):
        encode(1, 2, 3, 4, bytes(MAX_PAYLOAD + 1))


@FAST
@given(st.lists(st.binary(max_size=MAX_PAYLOAD), min_size=1, max_size=6), st.binary(max_size=40),
       st.randoms(use_true_random=False))
def test_L6_decoder_finds_every_frame_after_noise_and_drops_damaged_ones(payloads, noise, rnd):
    line = bytearray(noise)
    for i, p in enumerate(payloads):
        line += encode(7, i, 0, 5, p)
    got = Decoder().feed(line)
    assert [f.payload for f in got] == payloads
    # one flipped bit in a frame: that frame is dropped, the others come through
    k = rnd.randrange(len(payloads))
    line = bytearray()
    spans = []
    for i, p in enumerate(payloads):
        a = len(line)
        line += encode(7, i, 0, 5, p)
        spans.append((a, len(line)))
    a, b = spans[k]
    pos = rnd.randrange(a + 1, b)
    line[pos] ^= 1 << rnd.randrange(8)
    got = Decoder().feed(line)
    others = [p for i, p in enumerate(payloads) if i != k]
    assert [f.payload for f in got if f.seq != k] == others
    assert all(f.payload == payloads[k] for f in got if f.seq == k) or not [f for f in got if f.seq == k]


# -- the channel (L-6) --------------------------------------------------------------------
@FAST
@given(st.floats(0, 0.06), st.floats(0, 0.02), st.integers(0, 10 ** 6),
       st.lists(st.binary(max_size=24), min_size=1, max_size=12))
def test_L6_stop_and_wait_delivers_every_message_once_in_order_on_a_bad_cable(loss, corrupt, seed, msgs):
    clock = Clock()
    cable = Cable(clock, loss=loss, corrupt=corrupt, noise=loss / 10, seed=seed)
    a = Channel(cable.a, 1, 0, 10)
    b = Channel(cable.b, 2, 0, 200)
    a.send(1, b"hello")  # a session starts with a hello
    b.send(1, b"hello")
    for _ in range(3000):  # a new session of the other end drops what waits: hello again
        clock.t += 10
        for c in (a, b):
            n = c.sessions
            c.poll(clock.t)
            if c.sessions != n:
                c.send(1, b"hello")
        if a.peer >= 0 and b.peer >= 0 and a.idle() and b.idle():
            break
    for m in msgs:
        a.send(9, m)
    got = []
    for _ in range(6000):
        clock.t += 10
        a.poll(clock.t)
        got += [p for typ, p in b.poll(clock.t) if typ == 9]
        if len(got) == len(msgs) and a.idle():
            break
    assert got == msgs
    assert a.resends >= 0 and b.dupes >= 0


def test_L6_a_console_rebooted_is_a_new_session_and_stale_frames_are_not_believed():
    clock = Clock()
    cable = Cable(clock)
    a = Channel(cable.a, 1, 0, 10)
    b = Channel(cable.b, 2, 0, 200)
    a.send(1, b"h")
    b.send(1, b"h")
    for _ in range(20):
        clock.t += 10
        a.poll(clock.t)
        b.poll(clock.t)
    a2 = Channel(cable.a, 1, clock.t, 77)  # the same session byte drawn again after a reboot
    a2.send(9, b"stale?")  # not a hello: dropped by b
    for _ in range(30):
        clock.t += 10
        a2.poll(clock.t)
        assert list(b.poll(clock.t)) == []  # nothing delivered
    a2.reset_tx()
    a2.send(1, b"again")
    seen = []
    for _ in range(30):
        clock.t += 10
        a2.poll(clock.t)
        seen += b.poll(clock.t)
    assert seen == [(1, b"again")] and b.sessions == 2


# -- hello and offer (L-1, L-2) -------------------------------------------------------------
def test_L1_another_protocol_version_is_refused_with_both_versions_named():
    data = bytearray(P.hello(P.HOST, "9.9.9", bytes(8)))
    data[2] = P.PROTOCOL + 1
    with pytest.raises(P.LinkVersionError) as e:
        P.parse_hello(bytes(data))
    assert "protocol %d" % (P.PROTOCOL + 1) in str(e.value) and "9.9.9" in str(e.value)
    assert e.value.key == "version"
    with pytest.raises(P.LinkError, match="does not speak"):
        P.parse_hello(b"garbage here")


def test_L1_version_or_role_clash_fails_the_link_with_a_message_and_no_game():
    clock, cable, h, g = pair(pisti2())
    real = P.PROTOCOL
    g.chan.reset_tx()
    bad = bytearray(P.hello(P.GUEST, "0.1.0", bytes(8)))
    bad[2] = real + 1
    g.chan.send(1, bytes(bad))
    run(clock, (h, g), lambda: h.phase == G.FAILED, 5000)
    assert h.phase == G.FAILED and h.error.key == "version" and h.match is None
    clock, cable, h, h2 = pair(pisti2())
    h2.role = P.HOST
    h2.chan.reset_tx()
    linkrx.hello(h2)
    run(clock, (h, h2), lambda: h.phase == G.FAILED, 5000)
    assert h.error.key == "role" and "hosts" in h.error.text


def test_L1_a_cable_with_nobody_or_noise_on_it_is_named_and_nothing_is_played():
    clock = Clock()
    cable = Cable(clock)
    h = G.Lockstep(cable.a, P.HOST, "0.2.0", 0, pisti2(), LEVELS, urandom_from(1))
    run(clock, (h,), lambda: False, 4000)
    assert h.unanswered(clock.t) is None
    run(clock, (h,), lambda: False, 1500)
    assert h.unanswered(clock.t) == "silent" and h.match is None
    h = G.Lockstep(cable.a, P.HOST, "0.2.0", clock.t, pisti2(), LEVELS, urandom_from(1))
    for _ in range(600):  # another program talking at us: text, not frames
        clock.t += 10
        cable.b.write(b"hello from a REPL\r\n")
        h.poll(clock.t)
    assert h.unanswered(clock.t) == "noise" and h.phase == G.CONNECT and h.match is None


def test_L2_the_guest_sees_the_offer_and_a_decline_changes_nothing():
    s = P.Setup("yedili", 4, None, False, 2, [None, "usta", None, "acemi"])
    assert P.parse_offer(P.offer_bytes(s, LEVELS), LEVELS).__dict__ == s.__dict__
    clock, cable, h, g = pair(s)
    run(clock, (h,), lambda: False, 10)
    end = clock.t + 3000
    while clock.t < end and g.phase != G.OFFERED:
        clock.t += 10
        h.poll(clock.t)
        g.poll(clock.t)
    assert g.phase == G.OFFERED and g.setup.levels == (None, "usta", None, "acemi")
    g.answer(False)
    for _ in range(100):
        clock.t += 10
        h.poll(clock.t)
        g.poll(clock.t)
    assert h.phase == G.DECLINED and g.phase == G.DECLINED and h.match is None and g.match is None
    with pytest.raises(ValueError, match="people sit"):
        P.Setup("pisti", 2, 101, False, 1, [None, "usta"])


# -- the deal (L-3) -------------------------------------------------------------------------
def test_L3_the_deck_depends_on_both_consoles_bytes_and_neither_reveals_first():
    a, b = bytes(range(16)), bytes(range(16, 32))
    d0 = P.shared_deal("pisti", 2, a, b, 0)
    assert d0 == P.shared_deal("pisti", 2, a, b, 0)
    assert d0[1] != P.shared_deal("pisti", 2, bytes(16), b, 0)[1]
    assert d0[1] != P.shared_deal("pisti", 2, a, bytes(16), 0)[1]
    assert d0[1] != P.shared_deal("pisti", 2, a, b, 1)[1]
    assert sorted(P.shared_deal("yedili", 4, a, b, 3)[1]) == list(range(104))
    # a console holding no commitment from the other has sent no bytes
    clock, cable, h, g = pair(pisti2())
    sent = []
    orig = h.chan.send
    h.chan.send = lambda typ, p=b"": (sent.append((typ, h.peer_commit)), orig(typ, p))
    run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY, 10000)
    reveals = [pc for typ, pc in sent if typ == G.REVEAL]
    assert reveals and all(pc is not None for pc in reveals)
    assert bytes(h.match.hand.deck) == bytes(g.match.hand.deck)


def test_L3_bytes_that_do_not_match_their_commitment_end_the_link(monkeypatch):
    clock, cable, h, g = pair(pisti2())
    orig = linkrx._reveal

    def cheat(lk):
        if lk is g and not lk.revealed and lk.peer_commit is not None:
            lk.secret = (lk.secret[0], bytes(16))  # other bytes than those committed to
        orig(lk)
    monkeypatch.setattr(linkrx, "_reveal", cheat)
    run(clock, (h, g), lambda: h.phase == G.FAILED, 10000)
    assert h.phase == G.FAILED and h.error.key == "deal" and h.match is None


# -- play (L-4, L-5) --------------------------------------------------------------------
def test_L4_each_seat_is_decided_by_one_console_and_the_host_plays_the_bots():
    s = P.Setup("pisti", 4, 101, False, 2, [None, "usta", None, "acemi"])
    clock, cable, h, g = pair(s)
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY)
    assert [h.mine(i) for i in range(4)] == [True, True, False, True]
    assert [g.mine(i) for i in range(4)] == [True, False, False, False]
    turn_h = h.match.hand.turn
    other = h if not h.mine(turn_h) else g
    with pytest.raises(ValueError, match="not this console's move"):
        other.act(other.match.hand.legal()[0])
    rng = random.Random(4)
    assert run(clock, (h, g), lambda: h.phase == G.OVER and g.phase == G.OVER, 3600000, random_legal, rng)
    assert P.record(h.match, h.hands_done, 0) == P.record(g.match, g.hands_done, g.rot)


def test_L5_a_digest_that_disagrees_is_repaired_from_the_host_record():
    clock, cable, h, g = pair(pisti2())
    rng = random.Random(5)
    assert run(clock, (h, g), lambda: g.phase == G.PLAY and len(g.match.hand.actions) >= 3, 60000,
               random_legal, rng)
    g.match.totals[0] += 7  # the guest's game drifts
    assert run(clock, (h, g), lambda: "resync" in g.notices, 60000, random_legal, rng)
    assert g.mismatches >= 1 and g.repairs >= 1
    assert run(clock, (h, g), lambda: h.chan.idle() and g.chan.idle() and g.position()[0:2] == h.position()[0:2],
               60000)
    assert g.position()[2] == h.position()[2] and g.match.totals[0] == h.match.totals[1]


def test_L5_a_disagreeing_digest_on_a_hands_last_action_ends_the_hand_on_the_host_too():
    # the guest decides the hand's last action and the host's digest differs:
    # the host sends its record and deals the next hand (it was left in play
    # with the hand over while the guest dealt without it: wedged)
    for seed in range(10):
        clock, cable, h, g = pair(pisti2(), seed=seed)
        rng = random.Random(seed)
        for _ in range(60000):  # every console plays up to the hand's last action
            clock.t += 10
            for c in (h, g):
                c.poll(clock.t)
                if c.phase == G.OFFERED:
                    c.answer(True)
                if c.to_act() >= 0 and len(c.match.hand.actions) < 47:
                    c.act(random_legal(c, rng))
            if (g.phase == G.PLAY and len(g.match.hand.actions) == 47 and len(h.match.hand.actions) == 47
                    and h.chan.idle() and g.chan.idle()):
                break
        if g.to_act() >= 0:
            break
    else:
        raise AssertionError("no seed gives the guest the hand's last action")
    h.match.totals[0] += 1  # the host's game drifts: its record is the game (L-5)
    g.act(g.match.hand.legal()[0])
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY and h.hands_done == g.hands_done == 1
               and h.chan.idle() and g.chan.idle(), 120000)
    assert h.mismatches == 1
    assert g.position() == h.position()


@FAST
@given(st.integers(0, 10 ** 6), st.sampled_from([0.0, 0.01, 0.05]))
def test_L5_L6_two_consoles_on_a_lossy_cable_play_the_same_match(seed, loss):
    s = P.Setup("yedili", 3, None, True, 1, [None, None, "random"])
    clock, cable, h, g = pair(s, loss, loss / 5, seed)
    rng = random.Random(seed)
    assert run(clock, (h, g), lambda: g.hands_done >= 1 and h.chan.idle() and g.chan.idle()
               and g.position()[0:2] == h.position()[0:2], 3600000, random_legal, rng)
    assert h.phase != G.FAILED and g.phase != G.FAILED
    assert g.position()[2] == h.position()[2]


def test_L2_L5_the_guest_sees_its_own_person_at_seat_0_and_the_host_numbering_in_the_record():
    s = P.Setup("yedili", 4, None, False, 3, [None, "usta", "kalfa", None])
    clock, cable, h, g = pair(s)
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY)
    hh, gh = h.match.hand, g.match.hand
    assert bytes(gh.hand(0)[0:gh.hn[0]]) == bytes(hh.hand(3)[0:hh.hn[3]])
    assert (gh.turn + 3) % 4 == hh.turn
    assert P.digest(h.match, 0, 0) == P.digest(g.match, 0, 3)


# -- a lost link, power cuts (L-7, L-8, L-9) --------------------------------------------------
def test_L7_a_pulled_cable_is_noticed_and_the_game_goes_on_at_the_same_ply():
    clock, cable, h, g = pair(pisti2())
    rng = random.Random(7)
    assert run(clock, (h, g), lambda: g.phase == G.PLAY and len(g.match.hand.actions) >= 2, 60000, random_legal, rng)
    cable.cut = True
    ply = h.position()
    run(clock, (h, g), lambda: False, LOST_MS + 500)
    assert h.lost(clock.t) and g.lost(clock.t) and not h.gone(clock.t)
    assert 170000 < h.left_ms(clock.t) < 180000
    run(clock, (h, g), lambda: False, 60000, random_legal, rng)
    cable.cut = False
    assert run(clock, (h, g), lambda: not h.lost(clock.t) and not g.lost(clock.t), 5000)
    assert h.position()[0:2] >= ply[0:2]
    assert run(clock, (h, g), lambda: h.chan.idle() and g.chan.idle() and h.position() == g.position(), 20000)


def test_L8_gone_for_three_minutes_each_console_records_leaving_for_its_own_person():
    clock, cable, h, g = pair(pisti2(rated=True))
    rng = random.Random(8)
    assert run(clock, (h, g), lambda: g.phase == G.PLAY and h.phase == G.PLAY, 60000, random_legal, rng)
    cable.cut = True
    run(clock, (h, g), lambda: False, 180000 + 100)
    assert h.gone(clock.t) and g.gone(clock.t)
    assert h.outcome() == (-1, "lost") and g.outcome() == (-1, "lost")  # the first hand: T-4 a loss for both
    m = Match("pisti", 2, 101, 0)
    m.totals[:] = [60, 20]
    h2 = G.Lockstep(cable.a, P.HOST, "x", 0, P.Setup("pisti", 2, 101, True, 1, [None, None]))
    h2.match, h2.hands_done = m, 2
    assert h2.outcome() is None  # alone ahead: T-4 records nothing
    h2.setup.rated = False
    assert h2.outcome() is None  # practice: never recorded


@pytest.mark.parametrize("who", ["host", "guest"])
def test_L9_after_a_power_cut_the_console_behind_catches_up_from_the_other(who):
    clock, cable, h, g = pair(pisti2())
    rng = random.Random(9)
    assert run(clock, (h, g), lambda: g.phase == G.PLAY and len(g.match.hand.actions) >= 4, 60000, random_legal, rng)
    assert run(clock, (h, g), lambda: h.chan.idle() and g.chan.idle(), 5000)
    c = h if who == "host" else g
    # its save lags two actions behind (a cut between nvm writes)
    m = Match(c.match.game, 2, 101, c.match.first_dealer)
    m.totals[:] = c.match.totals
    m.dealer = c.match.dealer
    hand = m.deal(c.match.hand.deck)
    for a in c.match.hand.actions[:-2]:
        hand.play(a)
    saved = P.record(m, c.hands_done, c.rot)
    end = cable.a if c is h else cable.b
    end.power_cut()
    c2 = G.Lockstep.resume(end, c.role, "0.2.0", clock.t, c.setup, saved, c.secret, LEVELS,
                           urandom_from(99), c.chan.ses)
    other = g if c is h else h
    pair2 = (c2, other) if c is h else (other, c2)
    assert c2.position()[0:2] < other.position()[0:2]
    assert run(clock, pair2, lambda: c2.position() == other.position() and c2.chan.idle() and other.chan.idle(), 30000)
    assert "resync" in c2.notices and c2.phase == G.PLAY


def _mid_game(setup, seed=9):
    """Two consoles a few actions into a second hand, every frame delivered."""
    clock, cable, h, g = pair(setup, seed=seed)
    rng = random.Random(seed)
    assert run(clock, (h, g), lambda: g.phase == G.PLAY and g.hands_done >= 1 and len(g.match.hand.actions) >= 3,
               120000, random_legal, rng)
    assert run(clock, (h, g), lambda: h.chan.idle() and g.chan.idle(), 5000)
    return clock, cable, h, g, rng


def _fresh(end, role, clock, setup=None, seed=77):
    """A console that holds no game (a wiped drive, another console) on ``end``."""
    end.power_cut()
    return G.Lockstep(end, role, "0.2.0", clock.t, setup, LEVELS, urandom_from(seed))


@pytest.mark.parametrize("setup", [pisti2(), P.Setup("yedili", 4, None, False, 2, [None, "usta", None, "kalfa"])],
                         ids=["pisti2", "yedili4"])
def test_L9_a_guest_that_lost_its_copy_is_offered_the_seat_and_takes_the_hosts_record(setup):
    clock, cable, h, g, rng = _mid_game(setup)
    before = h.position()
    g2 = _fresh(cable.b, P.GUEST, clock)
    assert run(clock, (h,), lambda: False, 10) is False
    end = clock.t + 5000
    while clock.t < end and g2.phase != G.OFFERED:  # its person sees the offer first (L-2)
        clock.t += 10
        h.poll(clock.t)
        g2.poll(clock.t)
    assert g2.phase == G.OFFERED and g2.match is None and g2.peer_pos[0:2] == before[0:2]
    assert h.position() == before and h.phase == G.PLAY  # nothing moved on the host meanwhile
    g2.answer(True)
    assert run(clock, (h, g2), lambda: g2.position() == h.position() and h.chan.idle() and g2.chan.idle(), 30000)
    assert g2.phase == G.PLAY and g2.rot == setup.guest_seat and "resync" in g2.notices
    assert run(clock, (h, g2), lambda: h.hands_done >= before[0] + 1 and g2.phase == G.PLAY, 120000, random_legal, rng)
    assert run(clock, (h, g2), lambda: h.chan.idle() and g2.chan.idle(), 5000)
    assert g2.position() == h.position() and h.mismatches == 0 == g2.mismatches


def test_L9_L2_a_guest_that_lost_its_copy_and_declines_changes_nothing():
    clock, cable, h, g, rng = _mid_game(pisti2())
    before = h.position()
    g2 = _fresh(cable.b, P.GUEST, clock)
    end = clock.t + 5000
    while clock.t < end and g2.phase != G.OFFERED:
        clock.t += 10
        h.poll(clock.t)
        g2.poll(clock.t)
    g2.answer(False)
    for _ in range(100):
        clock.t += 10
        h.poll(clock.t)
        g2.poll(clock.t)
    assert g2.phase == G.DECLINED and g2.match is None
    assert h.phase == G.PLAY and h.position() == before and h.error is None


def test_L2_a_record_reaches_only_a_console_that_joined_a_game():
    clock, cable, h, g, rng = _mid_game(pisti2())
    g2 = _fresh(cable.b, P.GUEST, clock)
    linkrx.send_record(h, True)  # a record before any offer was answered
    for _ in range(100):
        clock.t += 10
        h.poll(clock.t)
        g2.poll(clock.t)
    assert g2.match is None and g2.setup is not None and g2.phase == G.OFFERED


def test_L9_a_host_that_lost_its_copy_and_offers_the_same_game_takes_the_guests_record():
    clock, cable, h, g, rng = _mid_game(pisti2())
    h2 = _fresh(cable.a, P.HOST, clock, pisti2())
    assert run(clock, (h2, g), lambda: h2.position() == g.position() and h2.chan.idle() and g.chan.idle(), 30000)
    start = h2.hands_done
    assert h2.phase == G.PLAY and start == g.hands_done >= 1
    assert run(clock, (h2, g), lambda: h2.hands_done > start and h2.phase == G.PLAY, 120000, random_legal, rng)
    assert run(clock, (h2, g), lambda: h2.chan.idle() and g.chan.idle(), 5000)
    assert h2.position() == g.position() and h2.mismatches == 0 == g.mismatches


def test_L9_a_host_that_lost_its_copy_and_offers_another_game_is_told_and_changes_nothing():
    clock, cable, h, g, rng = _mid_game(pisti2())
    before = g.position()
    h2 = _fresh(cable.a, P.HOST, clock, P.Setup("yedili", 2, None, False, 1, [None, None]))
    run(clock, (h2, g), lambda: False, 3000)
    assert h2.phase == G.SETUP and h2.match is None and h2.peer_pos is not None  # its screen: "link_busy"
    assert g.position() == before and g.phase == G.PLAY and g.setup.game == "pisti"


# -- rated results (L-10) ------------------------------------------------------------------
def test_L10_a_rated_link_match_gives_each_person_their_own_result():
    s = P.Setup("pisti", 4, 101, True, 1, [None, None, "random", "random"])  # opponents, each with a bot partner
    clock, cable, h, g = pair(s, seed=10)
    rng = random.Random(10)
    assert run(clock, (h, g), lambda: h.phase == G.OVER and g.phase == G.OVER, 7200000, random_legal, rng)
    ho, go = h.outcome(), g.outcome()
    assert ho is not None and go is not None
    assert ho[0] == -go[0] and {ho[1], go[1]} in ({"won", "lost"}, {"drawn"})
    s = P.Setup("pisti", 4, 101, True, 2, [None, "random", None, "random"])  # partners share
    clock, cable, h, g = pair(s, seed=11)
    assert run(clock, (h, g), lambda: h.phase == G.OVER and g.phase == G.OVER, 7200000, random_legal, rng)
    assert h.outcome() == g.outcome()


def test_L8_a_goodbye_after_the_match_end_ends_nothing_but_one_before_it_does():
    """The console that leaves the match end first says goodbye; the other,
    its match over too, stays over (it then frees its link before its own
    match end screen: a goodbye that failed its link would keep ~19 KB of
    link code there)."""
    clock, cable, h, g = pair(pisti2(False), seed=12)
    rng = random.Random(12)
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY, 60000)
    g.leave()  # in play: leaving fails the other's link
    assert run(clock, (h, g), lambda: h.phase == G.FAILED, 5000)
    assert h.error.key == "bye"
    clock, cable, h, g = pair(pisti2(False), seed=13)
    assert run(clock, (h, g), lambda: h.phase == G.OVER and g.phase == G.OVER, 7200000, random_legal, rng)
    g.leave()
    run(clock, (h, g), lambda: False, 2000)
    assert h.phase == G.OVER and h.error is None and h.chan.idle()


# -- the code between hands (the board's heap) ---------------------------------------------
def test_L4_on_the_board_the_code_between_hands_is_unloaded_while_a_hand_is_played(rare_modules):
    clock = Clock()
    cable = Cable(clock, loss=0.02, seed=3)
    h = G.Lockstep(cable.a, P.HOST, "0.2.0", 0, pisti2(), LEVELS, urandom_from(7), lean=True)
    g = G.Lockstep(cable.b, P.GUEST, "0.2.0", 0, None, LEVELS, urandom_from(8), lean=True)
    rng = random.Random(9)
    seen = {"play_without": 0, "hands": set()}

    def watch(c, rng):
        import pisti_core
        loaded = [n in sys.modules or hasattr(pisti_core, n.rpartition(".")[2]) for n in G._RARE]
        if c.phase == G.PLAY and c.received and not any(loaded):
            seen["play_without"] += 1
        seen["hands"].add(c.hands_done)
        return random_legal(c, rng)
    assert run(clock, (h, g), lambda: h.phase == G.OVER and g.phase == G.OVER, 3600000, watch, rng)
    assert len(seen["hands"]) >= 3 and seen["play_without"] > 20, seen
    assert P.record(h.match, h.hands_done, 0) == P.record(g.match, g.hands_done, g.rot)
    assert h.mismatches == 0 and g.mismatches == 0
    import pisti_core
    assert "pisti_core.linkrx" not in sys.modules and not hasattr(pisti_core, "linkproto")


def test_L9_on_the_board_a_console_resumed_into_a_hand_holds_only_the_plays_code(rare_modules):
    import pisti_core
    clock, cable, h, g = pair(pisti2())
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY)
    rec = P.record(g.match, g.hands_done, g.rot)
    assert "pisti_core.linkrx" in sys.modules
    g2 = G.Lockstep.resume(cable.b, P.GUEST, "0.2.0", clock.t, pisti2(), rec, g.secret, LEVELS,
                           urandom_from(5), lean=True)
    assert g2.phase == G.PLAY and g2.position() == g.position()
    assert "pisti_core.linkrx" not in sys.modules and not hasattr(pisti_core, "linkproto")
    rng = random.Random(2)
    assert run(clock, (h, g2), lambda: h.hands_done >= 2 and g2.hands_done >= 2, 600000, random_legal, rng)
    assert P.record(h.match, h.hands_done, 0) == P.record(g2.match, g2.hands_done, g2.rot)


def test_L9_both_consoles_booting_into_a_hand_answer_each_others_hello_before_the_table(rare_modules):
    """pisti_app.link.relink.greet: after a boot into a link hand (both consoles at once, after a
    match's first deal), the other's hello is answered while the code between hands is still
    loaded, and that code goes before the table is built: at the table, nothing compiles it again
    for the hello (on the board ~340 ms in which a key waited)."""
    import pisti_core
    from pisti_app.link.relink import greet
    clock, cable, h, g = pair(pisti2())
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY)
    recs = [P.record(c.match, c.hands_done, c.rot) for c in (h, g)]
    h2 = G.Lockstep.resume(cable.a, P.HOST, "0.2.0", clock.t, pisti2(), recs[0], h.secret, LEVELS,
                           urandom_from(4), lean=False)
    g2 = G.Lockstep.resume(cable.b, P.GUEST, "0.2.0", clock.t, pisti2(), recs[1], g.secret, LEVELS,
                           urandom_from(5), lean=False)
    assert "pisti_core.linkrx" in sys.modules and g2.sessions == 0

    def beside(other):  # each look at the clock: 5 ms on, the other console booting meanwhile too
        def tick():
            clock.t += 5
            other.poll(clock.t)
            return clock.t
        return tick
    t0 = clock.t
    greet(g2, beside(h2), lean=True)
    assert g2.sessions == 1  # the host's hello answered
    assert "pisti_core.linkrx" not in sys.modules and not hasattr(pisti_core, "linkproto")
    greet(h2, beside(g2), lean=True)
    assert h2.sessions == 1 and clock.t - t0 < 500  # and the guest's
    loads = []

    def watch(c, rng):
        loads.append("pisti_core.linkrx" in sys.modules)
        return random_legal(c, rng)
    assert run(clock, (h2, g2), lambda: len(loads) >= 6, 60000, watch, random.Random(3))
    assert not any(loads)  # the table's first plays: the code between hands never compiled again
    # Nobody answers (the other console off): at most ~2 s, then the table.
    clock2, cable2, h3, g3 = pair(pisti2())
    assert run(clock2, (h3, g3), lambda: h3.phase == G.PLAY)
    g4 = G.Lockstep.resume(cable2.b, P.GUEST, "0.2.0", clock2.t, pisti2(),
                           P.record(g3.match, g3.hands_done, g3.rot), g3.secret, LEVELS, urandom_from(6), lean=False)
    t0 = clock2.t

    def alone():
        clock2.t += 5
        return clock2.t
    greet(g4, alone, lean=True)
    assert g4.sessions == 0 and 2000 <= clock2.t - t0 <= 2010 and g4.phase == G.PLAY


def test_L4_a_hands_last_play_goes_on_the_cable_before_the_code_between_hands_loads(rare_modules):
    """The last action of a hand is sent in the poll that follows it; the
    deal (L-3) and the code it compiles on the board come a tick later, so
    the other console shows the play without waiting for that compile."""
    import pisti_core
    clock = Clock()
    cable = Cable(clock)
    h = G.Lockstep(cable.a, P.HOST, "0.2.0", 0, pisti2(), LEVELS, urandom_from(3), lean=True)
    g = G.Lockstep(cable.b, P.GUEST, "0.2.0", 0, None, LEVELS, urandom_from(4), lean=True)
    rng = random.Random(5)
    last = []

    def choose(c, rng):
        if len(c.match.hand.legal()) and c.match.hand.ply == 47:
            last.append(c)
        return random_legal(c, rng)
    assert run(clock, (h, g), lambda: bool(last), 600000, choose, rng)
    c = last[0]
    other = g if c is h else h
    assert c.phase == G.DEAL and c.due is not None and c.hands_done == 1  # its deal waits
    def loaded():
        return "pisti_core.linkrx" in sys.modules or hasattr(pisti_core, "linkrx")

    assert not loaded()
    c.poll(clock.t)  # the same tick: the action goes on the cable, still no deal
    assert c.chan.out[1] == G.ACTION and c.due is not None and not loaded()
    clock.t += 5  # (the bytes' time on the line)
    other.poll(clock.t)  # the other console takes the action (and its deal waits a tick too)
    assert other.hands_done == 1 and other.phase == G.DEAL and other.due is not None and not loaded()
    c.hold_deal = other.hold_deal = True  # the app: its table still holds the hand's last play back
    clock.t += 5
    c.poll(clock.t)
    assert c.due is not None and not loaded()
    c.hold_deal = False  # shown
    clock.t += 5
    c.poll(clock.t)  # a later tick: the deal begins
    assert c.due is None and c.phase == G.DEAL and c.secret[0] == 1 and loaded()
    clock.t = other.due + G.DEAL_HOLD_MS - 1
    other.poll(clock.t)
    assert other.due is not None and other.secret[0] == 0
    clock.t += 1
    other.poll(clock.t)  # however long its table holds it back: DEAL_HOLD_MS at most
    assert other.due is None and other.secret[0] == 1
    assert run(clock, (h, g), lambda: h.phase == G.PLAY and g.phase == G.PLAY)
    assert h.match.hand.deck == g.match.hand.deck and h.hands_done == g.hands_done == 1
