# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.ringproto`
======================

What up to four consoles in a ring say (RULES.md L-11 .. L-17), as bytes:

* the hello (L-11): the two-console hello's layout (magic, protocol,
  role, nonce, the position of the game held, firmware) with the ring's
  protocol number, :data:`RING_PROTOCOL`, and after the firmware the
  console's ring id, its stamp (four bytes from its key, the same at every
  boot) and the id it had before it drew again, if it did; a console of another protocol (a two-console one among
  them) is a :class:`pisti_core.linkproto.LinkVersionError`;
* the host's table (L-12), :class:`RingSetup`: game, players, target,
  rated, move timer, and for every seat the console id of its person or
  the level of its bot;
* the status a quiet console sends (L-13, L-16): its position, phase,
  the seats whose people left, and a tag of the table it sits at;
* the deal (L-14): every person's console contributes 16 bytes; the
  shuffle is drawn as in L-3 from their concatenation in seat order.

Message types (ring messages, :mod:`pisti_core.ringnet`)::

    HELLO   see hello()                OFFER   tag(2) offer_bytes
    JOIN    tag(2) 1 join / 0 decline  COMMIT  tag(2) hand(2) commitment(16)
    REVEAL  tag(2) hand(2) bytes(16)   ACTION  hands(2) ply(2) action digest(4)
    NEED    force(1)                   RECORD  crc(2) offset(2) total(2) force chunk
    STATUS  see status()               LEAVE   why(1)
"""

from pisti_core import GAMES
from pisti_core.crc import crc16
from pisti_core.linkchan import const
from pisti_core.linkrec import LinkError, b16, u16
from pisti_core.ringdefs import (ACTION, ALL, CATCHUP_MS, COMMIT, DEAL_REPEAT_MS, GONE_MS, JOIN, JOINED,  # noqa: F401
                                 LEAVE, LEFT, LOST_MS, MAX_CONSOLES, NEED, OFFER, PHASES, RECORD, RESYNC_MS, REVEAL,
                                 RING_HELLO, RING_PROTOCOL, STATUS, STATUS_MS,
                                 RingSetup, parse_status, status)  # (re-exported: R.ACTION, R.RingSetup ...)

_MAGIC = b"PS"
_FW_AT = const(21)

# -- hello (L-11) ---------------------------------------------------------------
def hello(role, firmware, nonce, me, pos=None, stamp=bytes(4), was=0):
    """The hello payload of console ``me``; ``pos`` is ``(hands_done, ply,
    digest)`` of the game held, or None; ``stamp`` (:func:`stamp`) tells
    this console from another that drew the same id, and ``was`` is the id
    it had before it drew again (0: none)."""
    fw = firmware.encode() if isinstance(firmware, str) else bytes(firmware)
    fw = fw[:24]
    out = bytearray(_MAGIC)
    out.append(RING_PROTOCOL)
    out.append(role)
    out.extend(nonce[:8])
    if pos is None:
        out.extend(bytes(9))
    else:
        hd, ply, dg = pos
        out.append(1)
        out.extend(b16(hd) + b16(ply) + b16(dg >> 16) + b16(dg & 0xFFFF))
    out.append(len(fw))
    out.extend(fw)
    out.append(me)
    out.extend(stamp[:4])
    out.append(was)
    return bytes(out)


def stamp(key):
    """Four bytes that name a console across its boots: from its key (kept
    in its save)."""
    from pisti_core.linkproto import sha256
    return sha256(b"pisti-ring" + bytes(key))[0:4]


def parse_hello(p):
    """``(role, firmware, nonce, me, pos, stamp, was)`` from a hello; LinkVersionError for
    another protocol (the two-console link's among them), LinkError for
    anything that is not a hello."""
    if len(p) < 3 or p[0:2] != _MAGIC:
        raise LinkError("garbled", "the other end does not speak the pisti link")
    firmware = "?"
    n = p[_FW_AT] if len(p) > _FW_AT else 0
    if len(p) > _FW_AT + n:
        firmware = str(p[_FW_AT + 1:_FW_AT + 1 + n], "utf-8")
    if p[2] != RING_PROTOCOL:
        from pisti_core.linkproto import LinkVersionError
        raise LinkVersionError(RING_PROTOCOL, p[2], firmware)
    if len(p) < _FW_AT + 7 + n or p[3] > 1:
        raise LinkError("garbled", "a malformed hello from another console")
    pos = None
    if p[12]:
        pos = (u16(p, 13), u16(p, 15), u16(p, 17) << 16 | u16(p, 19))
    at = _FW_AT + 1 + n
    return p[3], firmware, bytes(p[4:12]), p[at], pos, bytes(p[at + 1:at + 5]), p[at + 5]


def offer_bytes(setup, level_names):
    """The table as bytes (:func:`parse_offer` reads it back)."""
    t = setup.target
    out = bytearray((GAMES.index(setup.game), setup.players, t & 255, t >> 8, 1 if setup.rated else 0,
                     setup.timer >> 8, setup.timer & 255))
    for s in range(setup.players):
        lv = setup.levels[s]
        out.append(setup.people[s])
        out.append(255 if lv is None else level_names.index(lv))
    return bytes(out)


def parse_offer(p, level_names):
    """The RingSetup an offer carries; LinkError if it is not one."""
    try:
        n = p[1]
        people = [p[7 + 2 * s] for s in range(n)]
        levels = [None if p[8 + 2 * s] == 255 else level_names[p[8 + 2 * s]] for s in range(n)]
        return RingSetup(GAMES[p[0]], n, p[2] | p[3] << 8, p[4], people, levels, p[5] << 8 | p[6])
    except (ValueError, IndexError) as e:
        raise LinkError("garbled", "the host's table is not one this console can play: %s" % (e,))


def tag(offer):
    """The table's tag (CRC-16 of its offer bytes): statuses and joins name it."""
    return crc16(offer) or 1


# -- the deal (L-14) -------------------------------------------------------------------
def commitment(secret):
    """What a console sends before its bytes: the first 16 bytes of their
    SHA-256 (as L-3's, cut to half: a frame of half the length gets through
    a noisy cable far more often, and 128 bits still bind)."""
    from pisti_core.linkproto import commitment as whole
    return whole(secret)[0:16]


def ring_deal(game, players, parts, hand_no):
    """``(first_dealer, deck)`` in the host's numbering from every person's
    bytes (``parts``, in seat order): L-3's draw over their concatenation
    (with two consoles, L-3's deal itself)."""
    from pisti_core.linkproto import shared_deal
    return shared_deal(game, players, b"".join(parts), b"", hand_no)

