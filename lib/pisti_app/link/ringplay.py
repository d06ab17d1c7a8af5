# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.ringplay`
=========================

Link play of three or four consoles in a ring during the game (RULES.md
L-11 .. L-17), loaded only for a ring game (and forgotten after it):
:class:`RingPlay` is :class:`pisti_app.link.remote.LinkPlay` over a
:class:`pisti_core.ringgame.RingLock`. Every seat this console does not
decide (another console's person, and on a guest the host's bots) is the
remote seat; a person who has left (L-16) is played by the host's bot, so
the host seats one there. The table's countdown is the lost console's
with the least of L-16's three minutes left.
"""

import sys

from pisti_core import linkrec as G
from pisti_core import ringview as V
from pisti_core.ringgame import RingLock

from pisti_app.link.remote import LinkPlay
from pisti_app.util import forget


# pisti_core's code between the hands (and before a game): unloaded during one on the board (full names: the
# shed at every tick looks them up without making a string)
_BETWEEN = ("pisti_core.ringdeal", "pisti_core.linkproto", "pisti_core.ringsetup", "pisti_core.ringproto",
            "pisti_core.ringcheck")


class RingLink(RingLock):
    """The ring's :class:`pisti_core.ringgame.RingLock` as
    :class:`pisti_app.link.remote.LinkPlay` reads a two-console link's
    lock: ``chan.idle()`` (everything sent taken), ``left_ms(now)`` (the
    least of L-16's three minutes left to a lost console), ``sessions``
    (the neighbours heard since this boot) and ``shed()``. Its next
    deal waits while ``hold_deal`` (the app: its person has not asked for
    the next hand, L-14's bytes go out then), and on the board the code
    between the hands is unloaded during one."""

    hold_deal = True  # (until the app's first tick: a boot into a hand that had ended holds its next deal too)
    deal_due = False  # a hand over, its next deal held

    @property
    def chan(self):
        return self.net

    @property
    def sessions(self):
        """True once both neighbours' cables are heard since this boot (L-17)."""
        return all(c is None or c.peer >= 0 for c in self.net.chans)

    def shed(self):
        """Unload the code between hands (imported again when next needed)."""
        mods = sys.modules
        for name in _BETWEEN:
            if name in mods:
                forget(name)  # (a no-op on the desktop: pisti_app.util.KEEP)

    def after_action(self):
        m = self.match
        if self.hold_deal and m.hand is not None and m.hand.over:
            m.end_hand()
            self.hands_done += 1
            if m.over:
                self.phase = G.OVER
            else:
                self.deal_due = True
            return
        RingLock.after_action(self)

    def poll(self, now):
        if self.deal_due and not self.hold_deal and self.phase == G.PLAY:
            self.deal_due = False
            from pisti_core import ringdeal
            ringdeal.deal_phase(self)
        n = RingLock.poll(self, now)
        if self.phase == G.PLAY:  # (a hand in play, or one over with its next deal held)
            self.shed()
        return n

    def left_ms(self, now):
        ms = V.left_ms(self, self.me, now)
        for cid in V.lost(self, now):
            ms = min(ms, V.left_ms(self, cid, now))
        return ms


class RingPlay(LinkPlay):
    """``RingPlay(ringlink)``: the ring (a :class:`RingLink`) of the match in play."""

    NEEDS = ("link.ringplay link.remote link.ringmenu link.linkmenu link.linkends link.linkport match.stats "
             "core.ringgame core.ringnet core.ringrx core.ringdeal core.ringproto core.ringview core.ringdefs "
             "core.linkchan core.linkframe core.linkrec core.linkproto")

    def __init__(self, lock):
        LinkPlay.__init__(self, lock)
        self.left_seen = 0  # the seats whose people had left at the last tick (host's numbering)

    @property
    def person(self):
        """The local seat to move when another console's person has it (L-10:
        that person's move timer shows here too), else -1."""
        h = self.hand
        lk = self.lock
        s = lk.setup
        if h is None or h.over or s is None or not h.turn:
            return -1
        hs = (h.turn + lk.rot) % s.players
        return h.turn if s.people[hs] and not lk.left >> hs & 1 else -1

    def status(self, now):
        """'ok', 'waiting' (a seated console lost, L-15), 'gone' (this
        console's person has left: cut off for 3 minutes, or out of time,
        L-16), 'failed' (the host left, or the ring failed), 'over'."""
        lk = self.lock
        if lk.phase == G.FAILED:
            return "failed"
        if lk.phase == G.OVER:
            return "over"
        if lk.left_me:
            return "gone"
        if V.lost(lk, now):
            return "waiting"
        return "ok"

    def app_tick(self, play, now):
        """:meth:`LinkPlay.app_tick`; then, once a person has left (L-16),
        the seats again: the host's bot takes theirs."""
        LinkPlay.app_tick(self, play, now)
        lk = self.lock
        s = play.session  # (the next deal once the person asked for it: L-14's bytes go out then)
        lk.hold_deal = s is not None and not (s.hand is None and play.want_next)
        if lk.left != self.left_seen and play.link is self and play.session is not None:
            self.left_seen = lk.left
            from pisti_app.link import linkends
            linkends.person_left(play)
            forget("pisti_app.link.linkends")  # (rare: not kept at a ring table)


def ring_urandom(app):
    """The ring's chance (the key of every hand's bytes, the ring id, L-11,
    L-14): the secure source; with PISTI_SEED the seeded chance mixed into
    it, so that consoles given the same seed still draw apart (a console
    takes another's stamp for its own otherwise)."""
    import os
    if app.below is None:
        return os.urandom
    return lambda n: bytes([app.below(256) ^ b for b in os.urandom(n)])
