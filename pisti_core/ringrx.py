# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringrx`
===================

What a console in a ring does between its plays while a hand is on
(RULES.md L-13, L-15, L-16): the messages other than actions, the
statuses, the timers and leaving. Each function takes the
:class:`pisti_core.ringgame.RingLock` (``lk``). The hellos, the table and
the joins are in :mod:`pisti_core.ringsetup`, the deal and the records in
:mod:`pisti_core.ringdeal`, each imported when needed (a console at its
table during a hand holds neither).
"""

from pisti_core import ringdefs as R
from pisti_core.linkchan import HELLO, ticks_diff
from pisti_core.linkrec import DEAL, DECLINED, FAILED, HOST, OVER, PLAY, RESYNC, SETUP, LinkError, u16

_GAME = (DEAL, PLAY, RESYNC)  # the phases of a game on


def _s():
    """The hellos, the table and the joins (:mod:`pisti_core.ringsetup`), imported when needed."""
    from pisti_core import ringsetup
    return ringsetup


def _d():
    """The deal and the records (:mod:`pisti_core.ringdeal`), imported when needed."""
    from pisti_core import ringdeal
    return ringdeal

def on(lk, o, typ, p):
    """A message other than an action, from console ``o``."""
    if typ == HELLO or typ == R.RING_HELLO:
        _s().on_hello(lk, o, p)
    elif o == lk.me:
        return  # this console's own, from the boot before
    elif typ == R.OFFER:
        _s().on_offer(lk, o, p)
    elif typ == R.JOIN:
        if u16(p, 0) == lk.tag and lk.setup is not None and lk.setup.seat_of(o) >= 0:
            if p[2]:
                lk.joined.add(o)
                _s().check_start(lk)
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
            _s().offer(lk, s, True)  # a seated console that holds no copy of the game (L-17)
        return
    if joined and o not in lk.joined:
        lk.joined.add(o)
        _s().check_start(lk)
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
        _s().offer(lk, lk.setup, lk.rejoin)  # an offer not answered: again (it may have been lost)
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
    gone = ()  # (a list once a console is gone: the timers allocate nothing while all are heard)
    alive = 0
    for i in range(s.players):
        cid = s.people[i]
        if not cid or cid == lk.me or lk.left >> i & 1:
            continue
        if lk.net.since(cid, now) > R.GONE_MS:
            gone = R.added(gone, i)
        else:
            alive += 1
    if gone and (not alive or lk.net.cut_off(now)):
        leave(lk, "gone")  # nobody heard for 3 minutes, or both cables silent: this console is the one cut off (L-16)
    for i in gone:
        if lk.phase in _GAME:
            mark_left(lk, i)
