# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_core.linkrx`
===================

What a linked console does between the plays of a hand (RULES.md L-1 ..
L-9): the hello, the host's offer and the guest's answer, the commit-reveal
deal of each hand, and the records of a catch-up or a repair. Each function
takes the :class:`pisti_core.linkgame.Lockstep` (``lk``); the Lockstep
imports this module when one of these comes, and on the board unloads it
(and :mod:`pisti_core.linkproto`) again once a hand is in play.
"""

from pisti_core import linkproto as P
from pisti_core.linkchan import HELLO, const
from pisti_core.linkrec import (BYE, COMMIT, CONNECT, DEAL, DECLINED, FAILED, GUEST, HOST, JOIN, NEED, OFFER,
                                OFFERED, OVER, PLAY, RECORD, RESYNC, REVEAL, SETUP, LinkError, b16, u16,
                                record)

_CHUNK = const(20)


def on(lk, typ, p):
    """A message other than an action (those the Lockstep takes itself)."""
    if typ == HELLO:
        _on_hello(lk, p)
    elif typ == OFFER and lk.role == GUEST:
        if lk.phase in (CONNECT, OFFERED, DECLINED):
            lk.setup = P.parse_offer(p, lk.levels)
            lk.phase = OFFERED
        elif lk.setup is not None and p == P.offer_bytes(lk.setup, lk.levels):
            lk.chan.send(JOIN, b"\x01")  # the host lost our answer (a power cut): again
    elif typ == JOIN and lk.role == HOST and lk.phase == SETUP:
        if p[:1] == b"\x01":
            lk.notices.append("joined")
            _start(lk)
        else:
            lk.phase = DECLINED
    elif typ == COMMIT:
        c = (u16(p, 0), bytes(p[2:]))
        if c != lk.peer_commit:
            lk.revealed = False
        lk.peer_commit = c
        if lk.phase == DEAL:
            _reveal(lk)
    elif typ == REVEAL:
        _on_reveal(lk, u16(p, 0), bytes(p[2:]))
    elif typ == NEED:
        if lk.match is not None:
            send_record(lk, p[:1] == b"\x01" and lk.role == HOST)
    elif typ == RECORD:
        _on_record(lk, p)
    elif typ == BYE and lk.phase != OVER:  # (a goodbye after the match's end ends nothing)
        lk.phase = FAILED
        lk.error = LinkError("bye", "the other console left the game")


def _on_hello(lk, p):
    role, fw, nonce, pos = P.parse_hello(p)
    lk.peer_fw = fw
    lk.peer_pos = pos
    if role == lk.role:
        raise LinkError("role", "both consoles are %s" % ("hosts" if role == HOST else "guests"))
    if lk.sessions == lk.chan.sessions:
        return  # a hello of the session already answered
    lk.sessions = lk.chan.sessions  # a new session of the other console: it starts afresh
    hello(lk)
    ph = lk.phase
    if lk.role == HOST and lk.setup is not None and ph in (CONNECT, SETUP, DECLINED):
        offer(lk)
    elif ph in (DEAL, PLAY, RESYNC, OVER):
        mine = lk.place()
        theirs = pos or (0, 0, 0)
        if pos is None and lk.role == HOST and ph != OVER:
            # A guest that holds no game (a wiped drive, another console) is offered
            # the seat; it takes this game's record once its person joins (L-9).
            offer(lk, ph)
        elif theirs[0:2] > mine[0:2] or ph == RESYNC:
            need(lk, False)  # L-9: the one behind catches up
        elif theirs[0:2] == mine[0:2] and theirs[2] != mine[2] and lk.role == GUEST and theirs[1]:
            need(lk, True)  # the same ply, another game: the host's record
        elif theirs[0:2] < mine[0:2] and lk.match is not None:
            send_record(lk, False)  # what it missed may have been dropped with its session
        if lk.phase == DEAL:
            deal_phase(lk)  # the commitment sent may have been dropped with it


def _on_reveal(lk, k, secret):
    if lk.peer_commit is None or lk.peer_commit[0] != k:
        return  # a reveal for another hand: the deal restarts with the hello
    if P.commitment(secret) != lk.peer_commit[1]:
        raise LinkError("deal", "the other console's bytes do not match its commitment (L-3)")
    lk.peer_secret = secret
    if lk.phase != DEAL or k != lk.hands_done or lk.secret[0] != k:
        return
    if lk.role == HOST:
        hb, gb = lk.secret[1], secret
    else:
        hb, gb = secret, lk.secret[1]
    s = lk.setup
    dealer, deck = P.shared_deal(s.game, s.players, hb, gb, k)
    if lk.match is None:
        from pisti_core.match import Match
        lk.match = Match(s.game, s.players, s.target, (dealer - lk.rot) % s.players)
    lk.match.deal(deck)
    lk.phase = PLAY
    lk.notices.append("dealt")


def repair(lk):
    """L-5: the guest takes the host's record; the host sends it."""
    if lk.role == GUEST:
        need(lk, True)
    else:
        lk.repairs += 1
        send_record(lk, True)


def _on_record(lk, p):
    if lk.setup is None or lk.phase in (CONNECT, OFFERED, SETUP, DECLINED):
        return  # no game joined here yet: a record is taken only into one (L-2)
    at, n = u16(p, 0), u16(p, 2)
    if at == 0:
        lk.inbox = bytearray()
    if at != len(lk.inbox):
        return
    lk.inbox.extend(p[5:])
    if len(lk.inbox) < n:
        return
    data = bytes(lk.inbox)
    lk.inbox = bytearray()
    m, hd = P.load(data, lk.rot)
    step = len(m.hand.actions) + 1 if m.hand is not None else 0
    if lk.match is not None and (hd, step) < lk.place()[0:2] and not (p[4] and lk.role == GUEST):
        m = None  # a longer record is kept (L-4), unless it is the host's after a mismatch (L-5)
    else:
        lk.match = m
        lk.hands_done = hd
        lk.notices.append("resync")
    if lk.match.over:
        lk.phase = OVER
    elif lk.match.hand is None:
        deal_phase(lk)
    else:
        lk.phase = PLAY
        lk.after_action()


# -- sending -----------------------------------------------------------------
def hello(lk):
    """Say hello (L-1): who this console is, and where its game is."""
    lk.chan.send(HELLO, P.hello(lk.role, lk.firmware, lk.urandom(8), lk.position()))


def offer(lk, phase=SETUP):
    """Host: send the setup to the guest (L-2); ``phase`` is the host's after
    it (a game under way stays in its own)."""
    lk.chan.send(OFFER, P.offer_bytes(lk.setup, lk.levels))
    lk.phase = phase


def answer(lk, join):
    """Guest: join the offered game, or decline it (nothing changes)."""
    lk.chan.send(JOIN, b"\x01" if join else b"\x00")
    if join:
        _start(lk)
    else:
        lk.phase = DECLINED


def _start(lk):
    s = lk.setup
    lk.rot = s.guest_seat if lk.role == GUEST else 0
    lk.hands_done = 0
    lk.match = None
    if lk.peer_pos is not None:
        # The other console holds this game already (its hello named it): joined,
        # this console takes its record whole, the guest the host's (L-9).
        need(lk, lk.role == GUEST)
    else:
        deal_phase(lk)


def deal_phase(lk):
    """L-3: commit to this console's bytes for the next hand (and reveal
    them once the other's commitment is here)."""
    lk.phase = DEAL
    lk.due = None
    k = lk.hands_done
    if lk.secret is None or lk.secret[0] != k:
        if lk.key is not None:  # the same bytes again after a power cut (L-3, L-9)
            lk.secret = (k, P.sha256(b"pisti-hand" + bytes(lk.key) + b16(k))[0:16])
        else:
            lk.secret = (k, bytes(lk.urandom(16)))
        lk.peer_secret = None
    lk.revealed = False
    lk.chan.send(COMMIT, b16(k) + P.commitment(lk.secret[1]))
    _reveal(lk)


def _reveal(lk):
    k = lk.hands_done
    if (not lk.revealed and lk.peer_commit is not None and lk.peer_commit[0] == k
            and lk.secret is not None and lk.secret[0] == k):  # (not before this hand's deal began)
        lk.revealed = True
        lk.chan.send(REVEAL, b16(k) + lk.secret[1])


def send_record(lk, force):
    """Send this console's record, in chunks (``force``: the other takes it
    even if shorter, L-5)."""
    data = record(lk.match, lk.hands_done, lk.rot)
    n = len(data)
    f = b"\x01" if force else b"\x00"
    for i in range(0, n, _CHUNK):
        lk.chan.send(RECORD, b16(i) + b16(n) + f + data[i:i + _CHUNK])


def need(lk, force):
    """Ask for the other's record: ``force`` takes it even if shorter (the
    host's record after a mismatch, L-5)."""
    lk.repairs += 1
    lk.phase = RESYNC
    lk.inbox = bytearray()
    lk.chan.send(NEED, b"\x01" if force else b"\x00")


def resume(lk, secret):
    """The rest of :meth:`pisti_core.linkgame.Lockstep.resume` (L-9): the
    phase the saved game is in; a hand's deal begins if none is in play."""
    lk.secret = secret
    if lk.match is not None and lk.match.over:
        lk.phase = OVER
    elif lk.match is not None and lk.match.hand is not None:
        lk.phase = PLAY
    else:
        deal_phase(lk)
    if lk.lean and lk.phase != DEAL:
        lk.shed()  # (the hello is out: a hand in play holds only the plays' code)
    return lk
