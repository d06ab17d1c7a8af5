# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringrx`
===================

What a console in a ring does between the plays (RULES.md L-11 .. L-17):
the hellos, the host's table and the joins, the commit-reveal deal of each
hand, the statuses, the records of a catch-up or a repair, and leaving.
Each function takes the :class:`pisti_core.ringgame.RingLock` (``lk``).
"""

from pisti_core import ringproto as R
from pisti_core.linkchan import HELLO, ticks_diff
from pisti_core.linkrec import (CONNECT, DEAL, DECLINED, FAILED, HOST, OFFERED, OVER, PLAY, RESYNC, SETUP, LinkError,
                                b16, u16)

_GAME = (DEAL, PLAY, RESYNC)  # the phases of a game on


def _d():
    """The deal and the records (:mod:`pisti_core.ringdeal`), imported when needed."""
    from pisti_core import ringdeal
    return ringdeal


def on(lk, o, typ, p):
    """A message other than an action, from console ``o``."""
    if typ == HELLO or typ == R.RING_HELLO:
        _on_hello(lk, o, p)
    elif o == lk.me:
        return  # this console's own, from the boot before
    elif typ == R.OFFER:
        _on_offer(lk, o, p)
    elif typ == R.JOIN:
        if u16(p, 0) == lk.tag and lk.setup is not None and lk.setup.seat_of(o) >= 0:
            if p[2]:
                lk.joined.add(o)
                _check_start(lk)
            elif not lk.started:
                lk.phase = DECLINED  # nothing changes (L-12)
                lk.notices.append("declined")
    elif typ == R.COMMIT or typ == R.REVEAL:
        if u16(p, 0) != lk.tag:
            return  # (for another table)
        k = u16(p, 2)
        got = lk.commits if typ == R.COMMIT else lk.reveals
        if k >= got.get(o, (-1,))[0]:
            got[o] = (k, bytes(p[4:]))
        if lk.phase == DEAL:
            if typ == R.COMMIT:
                _d().reveal(lk)
            else:
                _d().try_deal(lk)
    elif typ == R.NEED:
        if lk.match is not None and lk.started:
            _d().send_record(lk, o, p[0] == 1 and lk.role == HOST)
    elif typ == R.RECORD:
        _d().on_record(lk, o, p)
    elif typ == R.STATUS:
        _on_status(lk, o, p)
    elif typ == R.LEAVE and lk.setup is not None:
        s = lk.setup.seat_of(o)
        if s >= 0 and lk.started:
            mark_left(lk, s)


def _on_hello(lk, o, p):
    role, fw, nonce, cid, pos, stamp, was = R.parse_hello(p)  # L-11: another protocol raises here
    if o < 0:
        lk.neighbours[-1 - o] = cid
        hello(lk)  # a neighbour's new boot: what waited for it was dropped, our hello with it
        return
    if o == lk.me:
        if stamp != lk.stamp and not lk.started and lk.setup is None and lk.retired.get(o) != stamp:
            lk.was = lk.me  # another console drew this id: draw again
            lk.me = lk.net.me = lk.urandom(1)[0] % 254 + 1
            hello(lk)
        return
    if stamp == lk.stamp:
        return  # this console's own, under the id it had before it drew again
    if role == HOST and lk.role == HOST:
        raise LinkError("role", "two consoles in the ring are hosts")
    if lk.retired.get(o) == stamp:
        return  # a hello under the id this console left behind (still going round)
    if was:
        lk.retired[was] = stamp  # it drew again (L-11): its old id is gone
        if was in lk.nonces:
            del lk.nonces[was]
            del lk.peers[was]
    lk.peers[o] = (role, fw)
    if pos is not None:
        lk.pos[o] = pos
    if lk.nonces.get(o) == nonce:
        return
    lk.nonces[o] = nonce  # a console new to this one, or booted again: it starts afresh
    hello(lk)
    if lk.role == HOST and lk.setup is not None:
        if not lk.started and lk.phase in (SETUP, DECLINED):
            offer(lk, lk.setup, lk.rejoin)
        elif lk.started and pos is None and lk.setup.seat_of(o) > 0:
            offer(lk, lk.setup, True)  # a seated console that lost the game: its seat again (L-17)
    if lk.phase == DEAL:
        _d().repeat_deal(lk)


def _on_offer(lk, o, p):
    if lk.role == HOST:
        return
    s = R.parse_offer(p[1:], lk.levels)
    if s.people[0] != o:
        return
    t = R.tag(p[1:])
    if s.seat_of(lk.me) < 0:
        lk.watching = s  # a table without this console's person: it only passes frames on
        return
    if lk.started and t == lk.tag:
        lk.net.send(R.JOIN, b16(t) + b"\x01", R.ALL, lk.now)  # the host lost our join (a boot): again
        return
    if lk.started and lk.match is None and lk.hands_done == 0 and p[0] == 0:
        lk.started = False  # the host set another table before anything was dealt: that one (L-12)
        lk.commits = {}
        lk.reveals = {}
        lk.secret = None
        lk.phase = CONNECT
    if lk.phase in (CONNECT, OFFERED, DECLINED) or (lk.phase == R.JOINED and t != lk.tag):
        _table(lk, s, p[1:])
        lk.rejoin = p[0] == 1
        lk.phase = OFFERED


def _table(lk, s, offer_b):
    lk.setup = s
    lk.offer_b = offer_b
    lk.tag = R.tag(offer_b)
    lk.joined = {s.people[0]}
    lk.rot = s.seat_of(lk.me)


def hello(lk):
    """Say hello round the ring (L-11): who this console is, and where its game is."""
    lk.net.send(R.RING_HELLO, hello_bytes(lk, lk.position()), R.ALL, lk.now)


def hello_bytes(lk, pos):
    """This console's hello (L-11) naming ``pos``."""
    return R.hello(lk.role, lk.firmware, lk.nonce, lk.me, pos, lk.stamp, lk.was)


def offer(lk, setup, rejoin=False):
    """Host: offer the table (L-12); ``rejoin``: a game under way (L-17)."""
    ob = R.offer_bytes(setup, lk.levels)
    if not lk.started:
        _table(lk, setup, ob)
        lk.phase = SETUP
        lk.joined.add(lk.me)
    lk.rejoin = rejoin
    lk.deal_at = lk.now
    lk.net.send(R.OFFER, bytes((1 if rejoin else 0,)) + ob, R.ALL, lk.now)


def answer(lk, join):
    """A seated guest: join the table, or decline it (nothing changes)."""
    lk.net.send(R.JOIN, b16(lk.tag) + (b"\x01" if join else b"\x00"), R.ALL, lk.now)
    if join:
        lk.phase = R.JOINED
        lk.joined.add(lk.me)
        _check_start(lk)
    else:
        lk.phase = DECLINED


def _check_start(lk):
    s = lk.setup
    if lk.started or lk.phase not in (SETUP, R.JOINED):
        return
    for cid in s.consoles():
        if cid not in lk.joined:
            return
    lk.started = True
    lk.notices.append("joined")
    lk.hands_done = 0
    lk.match = None
    for cid in s.consoles():
        lk.net.heard.setdefault(cid, lk.now)  # L-16's 3 minutes count from here for a console never heard
    if lk.rejoin:
        _d().need(lk, s.people[0], False)  # the game is under way: the host's record (L-17)
    else:
        _d().deal_phase(lk)


def leave(lk, why):
    """This console's person leaves (T-4, L-16): the others are told."""
    if lk.left_me:
        return
    lk.left_me = why
    if lk.setup is not None and lk.started:
        lk.left |= 1 << lk.rot
        lk.net.send(R.LEAVE, bytes((1,)), R.ALL, lk.now)
    if lk.phase != OVER:
        lk.phase = R.LEFT


def mark_left(lk, s):
    """The person at seat ``s`` (host's numbering) has left: a bot of the
    host's plays the seat from now on; the host leaving ends the game."""
    if lk.left >> s & 1:
        return
    lk.left |= 1 << s
    lk.notices.append("left")
    if s == lk.rot:
        leave(lk, "gone")  # the others counted this console gone: its person has left
    elif s == 0 and lk.phase not in (OVER, R.LEFT):
        lk.phase = FAILED
        lk.error = LinkError("host", "the host left the game")


# -- statuses and timers (L-13, L-15, L-16) ----------------------------------------------------
def status(lk):
    """Say where this console stands (a quiet console, every STATUS_MS)."""
    lk.net.send(R.STATUS, R.status(lk.position(), lk.phase, lk.left, lk.tag, 1 if lk.me in lk.joined else 0),
                R.ALL, lk.now)


def _on_status(lk, o, p):
    pos, phase, left, t, joined = R.parse_status(p)
    s = lk.setup
    if s is None:
        return
    if t != lk.tag:
        if lk.role == HOST and lk.started and s.seat_of(o) > 0 and phase != R.LEFT:
            offer(lk, s, True)  # a seated console that holds no copy of the game (L-17)
        return
    if joined and o not in lk.joined:
        lk.joined.add(o)
        _check_start(lk)
    for i in range(s.players):
        if left >> i & 1 and lk.started:
            mark_left(lk, i)
    if phase in (DEAL, PLAY, RESYNC, OVER):
        lk.pos[o] = pos
        if lk.started:
            ahead(lk, pos, o)
            me = lk.place()
            if (pos[0:2] == me[0:2] and pos[2] != me[2] and (me[1] or lk.phase == OVER) and o == lk.host_id()
                    and lk.role != HOST and (lk.phase == PLAY or lk.phase == OVER)):
                lk.mismatches += 1
                _d().need(lk, o, True)  # the same place, another game: the host's (L-5)


def ahead(lk, pos, o):
    """Console ``o`` says it is at ``pos``: note it if that is ahead of this one."""
    if pos[0:2] > lk.place()[0:2] and (lk.behind is None or pos[0:2] > lk.behind[0][0:2]):
        lk.behind = [pos, o, lk.behind[2] if lk.behind is not None else lk.now]


def timers(lk, now):
    """The deal repeated, a record asked again, a catch-up, consoles gone."""
    ph = lk.phase
    if ph == DEAL and ticks_diff(now, lk.deal_at) >= R.DEAL_REPEAT_MS:
        _d().repeat_deal(lk)
    elif ph == SETUP and ticks_diff(now, lk.deal_at) >= R.DEAL_REPEAT_MS:
        offer(lk, lk.setup, lk.rejoin)  # an offer not answered: again (it may have been lost)
    elif ph == RESYNC and ticks_diff(now, lk.resync_at) >= R.RESYNC_MS:
        _d().settle(lk)  # (a record half here is kept: the next one asked for may complete it)
    b = lk.behind
    if b is not None:
        if lk.place()[0:2] >= b[0][0:2]:
            lk.behind = None
        elif lk.phase in (DEAL, PLAY) and ticks_diff(now, b[2]) >= R.CATCHUP_MS:
            _d().need(lk, b[1], False)  # L-13: behind for a while: the record of a console ahead
    if not lk.started or lk.phase not in _GAME:
        return
    s = lk.setup
    gone = []
    alive = 0
    for i in range(s.players):
        cid = s.people[i]
        if not cid or cid == lk.me or lk.left >> i & 1:
            continue
        if lk.net.since(cid, now) > R.GONE_MS:
            gone.append(i)
        else:
            alive += 1
    if gone and not alive:
        leave(lk, "gone")  # nobody heard for 3 minutes: this console is the one cut off (L-16)
    for i in gone:
        if lk.phase in _GAME:
            mark_left(lk, i)


def resume(lk, setup, saved):
    """The rest of :meth:`pisti_core.ringgame.RingLock.resume` (L-17)."""
    _table(lk, setup, R.offer_bytes(setup, lk.levels))
    lk.joined = set(setup.consoles())
    lk.started = True
    for cid in setup.consoles():
        lk.net.heard[cid] = lk.now
    if saved is not None:
        from pisti_core.linkproto import load
        lk.match, lk.hands_done = load(saved, lk.rot)
        h = lk.match.hand
        if h is not None and h.over:
            lk.match.end_hand()
            lk.hands_done += 1
    _d().settle(lk)
    hello(lk)

