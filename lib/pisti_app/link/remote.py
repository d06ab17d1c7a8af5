# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.remote`
=======================

Link play on the app's side during the game (RULES.md L-1 .. L-9), loaded
only for a link game (and forgotten after it); the cable is opened by
:mod:`pisti_app.link.linkport`, the link set up by :mod:`pisti_app.link.linkmenu`:

* :class:`RemoteSeat` -- takes a seat the way a bot does:
  ``choose(obs)`` gives the action the other console decided at that ply,
  or None while it has not come (the table then waits, as for the person);
* :class:`LinkPlay` -- the bridge between the app's hand and the link's
  :class:`pisti_core.linkgame.Lockstep`: what this console decided (its
  person, and on the host the bots) goes out, what the other decided comes
  in through the remote seats.
"""

from pisti_core import linkrec as G  # (the phases and roles: a ring's game never loads linkgame)

from pisti_app.util import forget


class RemoteSeat:
    """A seat decided on the other console (or, on the guest, by the host's
    bots), as a bot object: ``choose(obs)``."""

    remote = True  # (the table asks: it passes the hand itself, and builds no observation)

    def __init__(self, link):
        self.link = link

    def choose(self, obs):
        """The action taken at ``obs.ply`` by the other console; None while it
        has not arrived (the table waits). Only ``obs.ply`` is read: the
        table passes its copy of the hand, building no observation."""
        return self.link.remote_action(obs.ply)


class LinkPlay:
    """``LinkPlay(lockstep)``: the link of the match in play
    (:class:`pisti_app.match.play.Play`), which runs it every tick (:meth:`app_tick`)."""

    # The modules a link game loads: released when it closes (pisti_app.link.linkends.close).
    NEEDS = ("link.remote link.linkmenu link.linkends link.linkport match.stats "
             "core.linkgame core.linkproto core.linkchan core.linkrx core.linkframe core.linkrec")

    def __init__(self, lockstep):
        self.lock = lockstep
        self.seat = RemoteSeat(self)
        self.hand = None  # the app's hand, as of the last tick
        self._noted = None  # the screen that shows L-7's countdown
        self.resynced = False  # the link took a record: is the app's game still its own?
        self.ended = False  # the match over and its save ended (once the link sent its last action)

    @property
    def person(self):
        """The other person's local seat (L-10: its move timer shows here too)."""
        lk = self.lock
        st = lk.setup
        if st is None:
            return -1
        return st.guest_seat if lk.role == G.HOST else (-lk.rot) % st.players

    def remote_seats(self):
        """Local seats the remote seat takes (every seat this console does
        not decide, L-4)."""
        s = self.lock.setup
        return [i for i in range(s.players) if not self.lock.mine(i)]

    def acts(self, h):
        """The link's actions of the app's hand ``h``, or None if the link holds
        another hand. The link may have finished ``h`` already (the other
        console's play ended it): then it is its match history's last hand."""
        m = self.lock.match
        if m is None or h is None:
            return None
        if m.hand is not None and m.hand.deck == h.deck:
            return m.hand.actions
        if m.history and m.history[-1][1] == h.deck:
            return m.history[-1][2]
        return None

    def remote_action(self, ply):
        """The link's action at ``ply`` of the app's hand, or None."""
        acts = self.acts(self.hand)
        return acts[ply] if acts is not None and ply < len(acts) else None

    def tick(self, now, hand, queued=b"", poll=True, polled=False):
        """Run the link (unless ``poll`` is false; ``polled``: it ran this
        tick, so again only if bytes came since or a message can go); send
        what this console decided since: the actions of ``hand`` (the
        app's) and ``queued`` beyond the link's."""
        lk = self.lock
        self.hand = hand
        if poll and (not polled or lk.chan.due()):
            lk.poll(now)  # (acknowledged, passed on: out before the display's refresh)
        m = lk.match
        if m is not None and len(m.history) > 1:  # only the last hand's entry is read here (the count is hands_done)
            del m.history[:-1]
        mine = lk.match.hand if lk.phase == G.PLAY else None  # (None: a ring's deal held, pisti_app.link.ringplay)
        if mine is None or hand is None or mine.deck != hand.deck:
            return  # another hand (the app is behind or ahead by a deal)
        n = len(mine.actions)
        total = len(hand.actions) + len(queued)
        sent = n < total
        while n < total and lk.to_act() >= 0:
            i = n
            a = hand.actions[i] if i < len(hand.actions) else queued[i - len(hand.actions)]
            lk.act(a)
            if lk.phase != G.PLAY or lk.match.hand is None:
                break
            n = len(lk.match.hand.actions)
        if sent and poll:
            lk.poll(now)  # (what was decided goes on the cable in this tick, not the next: L-4's 100 ms)

    def decide(self, play, a):
        """The person's action ``a`` in ``play`` (:meth:`pisti_app.match.play.Play.submit`):
        saved and sent first (L-4: on the cable before the host's bots choose
        their replies and before this console draws it), then the replies
        are chosen and saved; returns the plan (``a`` and the replies)."""
        h = play.session.hand
        if not h.is_legal(a):
            raise ValueError("not legal: %r" % a)
        first = bytes((a,))
        saves = play.saves
        saves.add(first)  # T-6
        self.tick(play.app.now, h, first)
        plan = play.plan(a)
        if len(plan) > 1:
            saves.add(plan[1:])
        return plan

    def answered(self, h):
        """True when the other console's person is to move next in the hand
        ``h`` and their action has come: a person's own reaction paced it,
        so the play held on screen gives way at once (L-4)."""
        return not h.over and h.turn == self.person and self.remote_action(h.ply) is not None

    def stale(self, s):
        """True when the app's session ``s`` must take the link's game now
        (:func:`pisti_app.link.linkends.behind`, looked at once the link, having taken a record,
        holds a hand again). Clears the link's notices."""
        lk = self.lock
        nt = lk.notices
        if nt:
            if "resync" in nt:
                self.resynced = True
            del nt[:]
        if not self.resynced or lk.phase not in (G.PLAY, G.OVER):
            return False
        self.resynced = False
        from pisti_app.link import linkends
        if linkends.behind(self, s):
            return True
        forget("pisti_app.link.linkends")  # (looked at once: not kept at a link table)
        return False

    def adopt(self, s):
        """Bring the session ``s`` to the link's game (:func:`pisti_app.link.linkends.adopt`)."""
        from pisti_app.link import linkends
        linkends.adopt(self, s)

    def app_tick(self, play, now):
        """Run the link of the link game ``play``: send what this console
        decided (the hand in play and the actions saved but not shown),
        deal the next hand once the link has (L-3) and the person asked for
        it, and say so while the other console is silent (L-7, with L-8's
        countdown)."""
        app = play.app
        s = play.session
        queued = bytes(play.queue) if play.queue else b""  # (every tick: nothing allocated when idle)
        h = None if s is None else s.hand
        # (an ended hand's last actions may not be out)
        self.tick(now, s.last if h is None and s is not None else h, queued, True, True)  # (App.tick polled)
        self.hand = h  # (what remote_action() reads: the hand in play only, never the ended one)
        # The next deal (and on the board the code it compiles) waits until the table has shown
        # the hand's last play: set after this tick's polls, so it is drawn first (L-4).
        self.lock.hold_deal = h is not None and not h.over
        if s is not None and s.linked and self.stale(s):
            from pisti_app.link import linkends
            linkends.catch_up(self, play)
            forget("pisti_app.link.linkends")  # (rare: not kept at a link table)
            return
        if s is not None and s.over and not self.ended and self.lock.phase == G.OVER and self.lock.chan.idle():
            self.ended = True
            play.saves.end()  # the match's last action delivered: no game to resume any more (no write if none)
        if play.want_next and s is not None and s.hand is None and not s.over:
            deck = self.deck(s.hands_done)
            if deck is not None:
                play.want_next = False
                s.deal_from(deck)
                play.saves.start(s)
                from pisti_app.match import ends
                app.later(ends.deal_shown, play)
        secs = -1
        st = self.status(now)
        if (st == "gone" or st == "failed") and s is not None and s.linked and not s.over:
            # L-8, or the other console left (its person's Exit or time, T-4 there) or failed
            from pisti_app.link import linkends
            linkends.gone(self, play, st == "failed")
            return
        if st == "waiting":
            secs = self.lock.left_ms(now) // 1000
        top = app.stack[-1] if app.stack else None
        if secs != play.link_secs or (secs >= 0 and top is not self._noted):
            self._noted = top if secs >= 0 else None  # (never a screen kept past its notice: a closed table is ~9 KB)
            play.link_secs = secs
            from pisti_app.link import linkends
            linkends.notice(play, secs)
            if secs < 0:
                forget("pisti_app.link.linkends")  # (heard again: compiled again at the next silence)

    def close(self, play):
        """The link game ``play`` is over or left (:func:`pisti_app.link.linkends.close`:
        the goodbye, the remote seats given back, the link's code unloaded)."""
        from pisti_app.link import linkends
        linkends.close(play)

    def deck(self, hands_done):
        """The deck of hand ``hands_done`` once the link has dealt it, else None."""
        lk = self.lock
        if lk.match is None or lk.hands_done != hands_done or lk.match.hand is None:
            return None
        return bytes(lk.match.hand.deck)

    def status(self, now):
        """A word for the screens: 'ok', 'waiting' (L-7), 'gone' (L-8),
        'failed', 'over'."""
        lk = self.lock
        if lk.phase == G.FAILED:
            return "failed"
        if lk.phase == G.OVER:
            return "over"
        if lk.gone(now):
            return "gone"
        if lk.lost(now):
            return "waiting"
        return "ok"


def link_info(lock):
    """What a link game's save keeps of its link (L-9): ``(role, guest seat,
    timer, key)`` (:attr:`pisti_app.match.session.GameSession.link_info`)."""
    s = lock.setup
    return (lock.role, s.guest_seat, s.timer, bytes(lock.key))
