# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringsetup`
======================

What a console in a ring does before a game and at its rare turns
(RULES.md L-11, L-12, L-17): the hellos, the host's table, the joins and
a resume after a power cut. Each function takes the
:class:`pisti_core.ringgame.RingLock` (``lk``); imported when needed.
"""

from pisti_core import ringproto as R
from pisti_core.linkrec import CONNECT, DEAL, DECLINED, HOST, OFFERED, SETUP, LinkError, b16
from pisti_core.ringdefs import PHASES, STATUS


def _d():
    """The deal and the records (:mod:`pisti_core.ringdeal`), imported when needed."""
    from pisti_core import ringdeal
    return ringdeal


def init(lk, ports, role, firmware, now, me, key, levels, urandom, last_ses, quiet):
    """A new :class:`pisti_core.ringgame.RingLock`'s state (its constructor's
    arguments): here, with the set-up's code, so that a console at its table
    does not keep this code loaded. The ring's cables (:mod:`pisti_core.ringnet`)
    are compiled here, once this module's code is in place, not while it loads:
    the two compiled back to back need a larger free block."""
    from pisti_core.ringnet import Ring
    lk.urandom = urandom
    r = urandom(4)
    lk.me = me if me else r[0] % 254 + 1
    lk.key = bytes(key) if key is not None else bytes(urandom(16))
    lk.nonce = bytes(urandom(8))
    ses = r[1] ^ 0x55 if r[1] == last_ses else r[1]
    lk.role = role
    lk.firmware = firmware
    lk.levels = levels
    lk.was = 0  # the ring id this console had before it drew again (L-11)
    lk.stamp = R.stamp(lk.key)  # L-11: who this console is, across its boots
    lk.net = Ring(ports, lk.me, hello_bytes(lk, None), now, ses, (r[2], r[3]), STATUS)
    lk.now = now
    lk.phase = PHASES[0]
    lk.error = None  # a LinkError once FAILED
    lk.setup = None  # the table (RingSetup) once offered or joined
    lk.offer_b = b""
    lk.tag = 0
    lk.started = False  # every seated person joined: the game is on
    lk.rejoin = False  # the table offered is a game under way (L-17)
    lk.joined = set()  # the seated consoles that joined
    lk.watching = None  # a table offered that seats no person of this console
    lk.match = None  # the Match, local numbering
    lk.hands_done = 0
    lk.rot = 0
    lk.left = 0  # seats (host's numbering) whose people left, a mask (L-16)
    lk.left_me = None  # why this console's person left: 'exit', 'timer', 'gone'
    lk.peers = {}  # ring id -> (role, firmware) from its hello (L-11)
    lk.nonces = {}  # ring id -> the nonce of its last hello (a new one: a new boot)
    lk.retired = {}  # ring id -> the stamp of the console that left it behind (L-11)
    lk.pos = {}  # ring id -> (hands done, step, digest) it last said
    lk.neighbours = [0, 0]  # the ring ids on each cable (0 unknown)
    lk.commits = {}  # ring id -> (hand, commitment) (L-14)
    lk.reveals = {}  # ring id -> (hand, bytes)
    lk.secret = None  # (hand, this console's 16 bytes)
    lk.revealed = False
    lk.deal_at = now
    lk.pending = []  # actions that came ahead of this console's game: (origin, hand, ply, action, digest)
    lk.behind = None  # [position, ring id, since]: a console ahead of this one (L-13)
    lk.inbox = None  # a record coming in chunks
    lk.resync_at = now
    lk.timers_at = now
    lk.status_at = now
    lk.acted_at = now
    lk.move_ms = 0  # T-3: the time the seat to move has used
    lk.move_pos = None
    lk.repairs = 0
    lk.mismatches = 0
    lk.received = 0
    lk.garbled = 0  # messages dropped because they did not parse
    lk.notices = []  # what the screens should say: 'joined', 'dealt', 'resync', 'left', ...
    if not quiet:  # (a console resuming a game says hello once it holds it)
        hello(lk)


def on_hello(lk, o, p):
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

def on_offer(lk, o, p):
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
        check_start(lk)
    else:
        lk.phase = DECLINED

def check_start(lk):
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
    _d().settle(lk)  # (a hand saved as it ended is scored there by after_action, which deals or holds the next)
    hello(lk)
