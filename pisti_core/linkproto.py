# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkproto`
======================

What two linked consoles say (RULES.md L-1 .. L-9), as bytes:

* the hello (L-1): protocol and firmware versions, role, nonce, and the
  position of the game held (hands done, ply, digest); another protocol
  version is a :class:`LinkVersionError`;
* the host's offer (L-2): game, players, target, rated, the guest's seat,
  the bots' levels, the move timer;
* the commit-reveal deal (L-3): SHA-256 commitments, and the shuffle drawn
  from a SHA-256 stream over both consoles' bytes;
* the game's record read back (L-5, L-9); :mod:`pisti_core.linkrec` writes it
  and its digest, and holds the setup (re-exported here with the roles).

A console numbers seats from its own person (seat 0); ``rot`` is that
person's seat in the host's numbering (0 on the host), so host seat ``j`` is
local seat ``(j - rot) % players``.
"""

import hashlib

from pisti_core import GAMES
from pisti_core.linkrec import GUEST, HOST, LinkError, Setup, digest, record  # noqa: F401 (re-exported: P.HOST...)

# pisti_core.match is imported where it is used: in a game it is loaded already.

PROTOCOL = 1
_MAGIC = b"PS"
_REC = 1  # record layout version (pisti_core.linkrec.record)
NO_PLY = 0xFFFF  # the position of a hand not dealt yet


class LinkVersionError(LinkError):
    """The other console speaks another protocol version (L-1)."""

    def __init__(self, mine, theirs, firmware):
        LinkError.__init__(self, "version", "the other console runs link protocol %d (firmware %s); this one %d"
                           % (theirs, firmware, mine))
        self.mine = mine
        self.theirs = theirs
        self.firmware = firmware


def sha256(data):
    """SHA-256 of ``data`` (hashlib.sha256 on MicroPython and CPython,
    ``hashlib.new('sha256', ...)`` on CircuitPython)."""
    if hasattr(hashlib, "sha256"):
        return hashlib.sha256(data).digest()
    return hashlib.new("sha256", data).digest()


# -- hello (L-1) ---------------------------------------------------------------
def hello(role, firmware, nonce, pos=None):
    """The hello payload; ``pos`` is ``(hands_done, ply, digest)`` of the game
    held, or None."""
    fw = firmware.encode() if isinstance(firmware, str) else bytes(firmware)
    out = bytearray(_MAGIC)
    out.append(PROTOCOL)
    out.append(role)
    out.extend(nonce[:8])
    if pos is None:
        out.append(0)
        out.extend(bytes(8))
    else:
        hd, ply, dg = pos
        out.append(1)
        out.extend(bytes((hd >> 8 & 255, hd & 255, ply >> 8 & 255, ply & 255)))
        out.extend(bytes((dg >> 24 & 255, dg >> 16 & 255, dg >> 8 & 255, dg & 255)))
    out.append(len(fw[:24]))
    out.extend(fw[:24])
    return bytes(out)


def parse_hello(p):
    """``(role, firmware, nonce, pos)`` from a hello payload; LinkVersionError
    for another protocol version, LinkError for anything that is not a hello."""
    if len(p) < 3 or p[0:2] != _MAGIC:
        raise LinkError("garbled", "the other end does not speak the pisti link")
    fw_at = 21
    firmware = "?"
    if len(p) > fw_at and len(p) >= fw_at + 1 + p[fw_at]:
        firmware = str(p[fw_at + 1:fw_at + 1 + p[fw_at]], "utf-8")
    if p[2] != PROTOCOL:
        raise LinkVersionError(PROTOCOL, p[2], firmware)
    if len(p) < fw_at + 1 or p[3] not in (HOST, GUEST):
        raise LinkError("garbled", "a malformed hello from the other console")
    pos = None
    if p[12]:
        pos = (p[13] << 8 | p[14], p[15] << 8 | p[16], p[17] << 24 | p[18] << 16 | p[19] << 8 | p[20])
    return p[3], firmware, bytes(p[4:12]), pos


# -- the host's offer (L-2) ----------------------------------------------------------
def offer_bytes(setup, level_names):
    """The offer's payload: the :class:`pisti_core.linkrec.Setup` as bytes;
    ``level_names`` numbers the levels."""
    t = setup.target
    out = bytearray((GAMES.index(setup.game), setup.players, t & 255, t >> 8,
                     1 if setup.rated else 0, setup.guest_seat, setup.timer >> 8 & 255, setup.timer & 255))
    for lv in setup.levels:
        out.append(255 if lv is None else level_names.index(lv))
    return bytes(out)


def parse_offer(p, level_names):
    """The Setup an offer carries; LinkError if it is not one."""
    try:
        levels = [None if b == 255 else level_names[b] for b in p[8:]]
        return Setup(GAMES[p[0]], p[1], p[2] | p[3] << 8, p[4], p[5], levels, p[6] << 8 | p[7])
    except (ValueError, IndexError) as e:
        raise LinkError("garbled", "the host's offer is not one this console can play: %s" % (e,))


# -- the deal (L-3) --------------------------------------------------------------
def commitment(secret):
    """What a console sends before its bytes: SHA-256 of them."""
    return sha256(b"pisti-deal" + bytes(secret))


class Stream:
    """Uniform draws from SHA-256 in counter mode over ``seed``."""

    def __init__(self, seed):
        self.seed = bytes(seed)
        self.n = 0
        self.buf = b""
        self.at = 0

    def byte(self):
        """The next byte of the stream."""
        if self.at >= len(self.buf):
            self.buf = sha256(self.seed + bytes((self.n >> 8 & 255, self.n & 255)))
            self.n += 1
            self.at = 0
        b = self.buf[self.at]
        self.at += 1
        return b

    def below(self, n):
        """A uniform int in ``0 .. n-1`` (rejection sampling, no bias)."""
        if n <= 1:
            return 0
        limit = 65536 - 65536 % n
        while True:
            v = self.byte() << 8 | self.byte()
            if v < limit:
                return v % n


def shared_deal(game, players, host_bytes, guest_bytes, hand_no):
    """``(first_dealer, deck)`` in the host's numbering, drawn from both
    consoles' bytes (L-3); the dealer counts for the first hand only."""
    from pisti_core.match import deal_deck
    s = Stream(bytes(host_bytes) + bytes(guest_bytes) + bytes((hand_no >> 8 & 255, hand_no & 255)))
    dealer = s.below(players)
    return dealer, deal_deck(game, players, s.below)


# -- the record (L-5, L-9): written by pisti_core.linkrec.record ------------------
def load(data, rot):
    """``(match, hands_done)`` from a :func:`pisti_core.linkrec.record`, in local numbering, every
    action checked; LinkError if it is not a game that replays."""
    from pisti_core.cards import decks
    from pisti_core.match import Match
    try:
        if data[0] != _REC:
            raise ValueError("record layout %d" % data[0])
        game = GAMES[data[1]]
        n = data[2]
        m = Match(game, n, data[3] | data[4] << 8, (data[5] - rot) % n)
        hd = data[6] << 8 | data[7]
        m.dealer = (data[8] - rot) % n
        m.over = data[9] == 1
        at = 10
        for j in range(m.sides):
            v = data[at] << 8 | data[at + 1]
            at += 2
            if v >= 0x8000:
                v -= 0x10000
            local = (j - rot) % m.sides  # (seat s is on side s % sides, P-1)
            m.totals[local] = v
        size = 52 * decks(game, n)
        if len(data) > at:
            h = m.deal(data[at:at + size])
            for a in data[at + size:]:
                if h.over or not h.is_legal(a):
                    raise ValueError("action %d is not legal at ply %d" % (a, h.ply))
                h.play(a)
        return m, hd
    except (ValueError, IndexError) as e:
        raise LinkError("record", "the other console's record does not replay: %s" % (e,))
