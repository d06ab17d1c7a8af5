# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringdeal`
=====================

A ring's deal and records (RULES.md L-5, L-13, L-14, L-17): every
person's console commits to 16 bytes, reveals them once it holds every
commitment, and the hand is drawn from them all; a console behind (or
holding another game than the host's) takes a record in chunks. Each
function takes the :class:`pisti_core.ringgame.RingLock` (``lk``).
"""

from pisti_core import ringproto as R
from pisti_core.crc import crc16
from pisti_core.linkchan import const
from pisti_core.linkproto import load, sha256
from pisti_core.linkrec import DEAL, HOST, OVER, PLAY, RESYNC, LinkError, b16, record, u16

_CHUNK = const(24)


# -- the deal (L-14) --------------------------------------------------------------
def deal_phase(lk):
    """Commit to this console's bytes for the next hand (and reveal them
    once every person's commitment is here)."""
    lk.phase = DEAL
    k = lk.hands_done
    if lk.secret is None or lk.secret[0] != k:
        lk.secret = (k, sha256(b"pisti-hand" + lk.key + b16(k))[0:16])  # the same after a power cut
    lk.revealed = False
    repeat_deal(lk)


def repeat_deal(lk):
    """The commitment again (and the bytes, once revealed)."""
    lk.deal_at = lk.now
    k = lk.hands_done
    lk.net.send(R.COMMIT, b16(lk.tag) + b16(k) + R.commitment(lk.secret[1]), R.ALL, lk.now)
    if lk.revealed:
        lk.net.send(R.REVEAL, b16(lk.tag) + b16(k) + lk.secret[1], R.ALL, lk.now)
    reveal(lk)


def _others(lk):
    return [c for c in lk.setup.consoles() if c != lk.me]


def reveal(lk):
    """Reveal this console's bytes once every person's commitment is here."""
    k = lk.hands_done
    if lk.revealed or lk.secret is None or lk.secret[0] != k:
        return
    for c in _others(lk):
        if lk.commits.get(c, (-1,))[0] != k:
            return
    lk.revealed = True
    lk.net.send(R.REVEAL, b16(lk.tag) + b16(k) + lk.secret[1], R.ALL, lk.now)
    try_deal(lk)


def try_deal(lk):
    """Deal the hand once every person's bytes are here, each checked."""
    k = lk.hands_done
    if not lk.revealed:
        return
    for c in _others(lk):
        if lk.reveals.get(c, (-1,))[0] != k:
            return
    s = lk.setup
    parts = []
    for c in s.consoles():
        if c == lk.me:
            parts.append(lk.secret[1])
            continue
        b = lk.reveals[c][1]
        if R.commitment(b) != lk.commits[c][1]:
            raise LinkError("deal", "console %d's bytes do not match its commitment (L-14)" % c)
        parts.append(b)
    dealer, deck = R.ring_deal(s.game, s.players, parts, k)
    if lk.match is None:
        from pisti_core.match import Match
        lk.match = Match(s.game, s.players, s.target, (dealer - lk.rot) % s.players)
    lk.match.deal(deck)
    lk.phase = PLAY
    lk.notices.append("dealt")
    lk.drain()


# -- records (L-5, L-13, L-17) --------------------------------------------------------------
def repair(lk, o):
    """L-5: a guest takes the host's record; the host sends it to ``o``."""
    if lk.role == HOST:
        lk.repairs += 1
        send_record(lk, o, True)
    else:
        need(lk, lk.host_id(), True)


def need(lk, cid, force):
    """Ask console ``cid`` for its record (``force``: taken even if shorter)."""
    lk.repairs += 1
    lk.phase = RESYNC
    lk.resync_at = lk.now
    lk.behind = None
    lk.net.send(R.NEED, b"\x01" if force else b"\x00", cid, lk.now)


def send_record(lk, dst, force):
    """This console's record to ``dst``, in chunks."""
    data = record(lk.match, lk.hands_done, lk.rot)
    n = len(data)
    head = b16(crc16(data))  # the same record sent again: its chunks join the first's
    for i in range(0, n, _CHUNK):
        lk.net.send(R.RECORD, head + b16(i) + b16(n) + (b"\x01" if force else b"\x00") + data[i:i + _CHUNK], dst,
                    lk.now)


def on_record(lk, o, p):
    """A chunk of a record for this console; the record taken once whole."""
    if not lk.started:
        return
    rid, at, n = u16(p, 0), u16(p, 2), u16(p, 4)
    box = lk.inbox
    if box is None or box[0] != o or box[1] != rid or box[2] != n:
        box = lk.inbox = [o, rid, n, bytearray(n), bytearray((n + _CHUNK - 1) // _CHUNK)]
    chunk = p[7:]
    if at % _CHUNK or at + len(chunk) > n:
        return
    box[3][at:at + len(chunk)] = chunk
    box[4][at // _CHUNK] = 1
    lk.resync_at = lk.now  # a record coming: the wait for it starts again
    if b"\x00" in box[4]:  # (a chunk still missing; MicroPython has no int in bytearray)
        return
    lk.inbox = None
    data = bytes(box[3])
    if crc16(data) != rid:
        return  # chunks of two records alike in length and checksum byte: asked again later
    m, hd = load(data, lk.rot)
    step = len(m.hand.actions) + 1 if m.hand is not None else 0
    if lk.match is None or (hd, step) >= lk.place()[0:2] or (p[6] and o == lk.host_id()):
        lk.match = m  # the longer record (L-4), or the host's after a mismatch (L-5)
        lk.hands_done = hd
        lk.notices.append("resync")
    elif lk.phase != RESYNC:
        return
    settle(lk)


def settle(lk):
    """The phase the game held is in: over, a deal to do, or a hand in play."""
    m = lk.match
    if m is not None and m.over:
        lk.phase = OVER
    elif m is None or m.hand is None:
        deal_phase(lk)
    else:
        lk.phase = PLAY
        lk.after_action()
        lk.drain()
