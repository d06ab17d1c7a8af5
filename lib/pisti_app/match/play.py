# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.play`
======================

:class:`Play` runs a match in play, in one place: the session (the match and
its saves, T-6), the seats, the move timer (T-3), the link (L-1 .. L-10) and
the ranking and statistics at the ends (:mod:`pisti_app.match.ends`, loaded when
a hand ends). The screens only show it: a table draws the hand, asks
:meth:`Play.step` for the next play to show and hands the person's choice
to :meth:`Play.submit`; the breakdown and the match end call
:meth:`Play.next_hand` and :meth:`Play.end_match`.

Every seat sits the same way: ``seats[i]`` is None for this console's
person, else a player with ``choose(obs)`` -- a built-in bot, an outside
program (``App.seat_bot``), or the link's remote seat, which answers the
other console's decision (or None while it has not come).

* Rated or practice (T-1): a rated game is numbered (the ranking's stamp
  + 1), timed (T-3) and ranked at its end (T-2); a practice game is never
  recorded and may be undone when the Undo setting is on.
* Leaving a rated game (T-4) -- Exit, a new game over one kept, or the
  timer running out -- is ranked by :func:`pisti_core.table.leave_outcome`;
  the person is told the cost first. Losing power is not leaving.
* Saves (T-6): a hand's header is written when it is dealt, before it is
  shown. When the person decides, the bots' replies up to the person's
  next turn are chosen at once (each bot from its own observation, T-5)
  on a copy of the hand, and the person's action and those replies are
  appended in ONE write before anything is shown; the replies are then
  shown one by one from :attr:`Play.queue`. A bot that leads does the
  same. After a power cut the saved actions replay exactly. A finished
  hand writes the statistics (:mod:`pisti_app.match.stats`), a finished rated
  match then the ranking, then the saved game ends.
"""

import random

import supervisor

from pisti_app.util import const, ticks_diff

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # (named in type comments only: the board has no typing module)
    import pisti_app.match.movetimer
    import pisti_app.link.remote
    import pisti_app.match.session  # noqa: F401 (read by the checker in type comments, not in code)


class Play:
    """The match in play on the console ``app`` (the shell: its screens,
    sound, prefs and saves); ``saves``: where its actions go (the app's
    saves, or a demo's that keep nothing)."""

    # The modules a match loads: released when it ends (one string, split
    # when used: on the board a long name in a tuple is a heap string of its own).
    NEEDS = ("match.play match.ends match.leaving match.session match.movetimer match.session_io "
             "screens.match_end screens.results screens.pisti_table screens.yedili_table screens.yedili_parts "
             "screens.table screens.sprites texts.names texts.wrap "
             "core.bots.pisti_end core.bots.pisti_bots core.bots.yedili_bots core.bots.yedili_heur core.bots "
             "core.pisti_obs core.yedili_obs core.yedili_text core.pisti core.yedili core.record core.match core.cards")

    if _CHECKING:  # the match's parts, for the checker
        session = getattr(object, "")  # type: pisti_app.match.session.GameSession
        link = None  # type: pisti_app.link.remote.LinkPlay | None
        timer = None  # type: pisti_app.match.movetimer.MoveTimer | None

    def __init__(self, app, session=None, saves=None):
        self.app = app
        # (None only while a link game is set up: the checker is told it is always there)
        self.session = session  # pyright: ignore[reportAttributeAccessIssue]
        self.seats = [None, None, None, None]  # type: list
        self.queue = []  # saved actions still to be shown, in order
        self.link = None  # a pisti_app.link.remote.LinkPlay in a link game (L-3: it deals)
        self.want_next = False  # the next hand asked for, its link deal not come yet
        self.link_secs = -1  # L-7: the countdown shown while the link is silent
        self.timer = None  # the move timer, loaded while a rated game is on (T-3)
        self._saves = saves

    @property
    def saves(self):
        """Where the match's actions are saved (T-6)."""
        sv = self._saves
        return self.app.saves if sv is None else sv

    # -- the seats ---------------------------------------------------------------
    def sit(self):
        """Seat every player of the session: bots at its levels, the outside
        players, and in a link game the remote seat where the other
        console decides (L-4)."""
        s = self.session
        if _CHECKING:
            assert s
        self.seats = [None, None, None, None]
        link = self.link
        remote = link.remote_seats() if link is not None else ()
        outside = self.app.outside_bots
        for seat in range(s.players):
            lv = s.levels[seat]
            if lv is not None and seat not in remote and not hasattr(outside.get(seat), "choose"):
                from pisti_core.bots import make_bot  # (no bot code loaded for a seat taken by an object, L-4)
                self.seats[seat] = make_bot(s.game, lv, random)
        for seat in sorted(outside):  # the outside-bot hook goes first
            self.sit_outside(seat, outside[seat])
        for seat in remote:
            if _CHECKING:
                assert link
            self.seats[seat] = link.seat

    def sit_outside(self, seat, bot):
        """``bot`` (a player, or a factory ``bot(game, seat, players)``) at ``seat``."""
        s = self.session
        if s is None or seat >= s.players:
            return
        if not hasattr(bot, "choose"):
            bot = bot(s.game, seat, s.players)
        if bot is not None:
            self.seats[seat] = bot

    def mine(self):
        """True when this console's person is to act."""
        h = self.session.match.hand
        return h is not None and not h.over and h.turn == 0 and self.seats[0] is None

    def idle(self):
        """True when nothing moves until the person acts."""
        h = self.session.hand
        return not self.queue and not h.over and self.seats[h.turn] is None

    # -- a play ------------------------------------------------------------------
    def plan(self, first):
        """``first`` (the person's action, or None when a bot is to move)
        and the bots' actions after it until seat 0 is to move again or
        the hand is over, each bot choosing from its own observation on a
        copy of the hand; raises ValueError (nothing saved) if one is illegal."""
        s = self.session
        c = s.hand.copy()
        m = s.match
        log = self.app.memlog
        out = bytearray()
        if first is not None:
            c.apply(first)
            out.append(first)
        while not c.over and (not out or c.turn != 0):
            seat = c.turn
            bot = self.seats[seat]
            if bot is None:
                break
            if log:
                t0 = supervisor.ticks_ms()
            remote = hasattr(bot, "remote")  # (link play: it reads only the ply, no observation is built)
            a = bot.choose(c if remote else c.observe(seat, m.totals, m.target))
            if a is None:
                break  # a remote seat: the other console has not decided yet (link play)
            if log:
                lv = "outside" if seat in self.app.outside_bots else s.levels[seat]
                print("bot %d %s %d" % (seat, lv, ticks_diff(supervisor.ticks_ms(), t0)))
            if not c.is_legal(a):
                raise ValueError("the bot at seat %d chose %r, which is not legal in %s"
                                 % (seat, a, c.describe()))
            c.apply(a)
            out.append(a)
            if remote:
                break  # the other console's action shows now; the bots after it choose at their turn (L-4)
        return out

    def submit(self, a):
        """The person's action ``a``: saved with the bots' replies (in a link
        game sent first, :meth:`pisti_app.link.remote.LinkPlay.decide`); the table
        shows ``a`` now and the replies from :meth:`step`."""
        link = self.link
        if link is None:
            plan = self.plan(a)
            self.saves.add(plan)  # T-6: before its result is shown
        else:
            plan = link.decide(self, a)
            if self.app.memlog:  # (the press's play on the cable: pisti_app.app's "shown" lines time it elsewhere)
                print("sent %d:%d ms=%d" % (self.session.hands_done, self.session.hand.ply, supervisor.ticks_ms()))
        self.queue = list(plan[1:])

    def step(self):
        """The next action to show (the hand's turn is its seat's), or None
        while the person or the other console is to decide."""
        if self.queue:
            return self.queue.pop(0)
        h = self.session.hand
        bot = self.seats[h.turn]
        if bot is None:
            return None
        # a remote seat (link play): its action as the link took it (legal there), no copy of the hand (L-4)
        if hasattr(bot, "remote"):
            a = bot.choose(h)
            if a is None:
                return None  # it has not come: the other console decides
            plan = bytes((a,))
            if self.app.memlog:
                self.app.shown = "%d:%d" % (self.session.hands_done, h.ply)
        else:
            plan = self.plan(None)
            if not plan:
                return None
        self.saves.add(plan)  # T-6: saved before it is shown
        self.queue = list(plan[1:])
        return plan[0]

    def answered(self):
        """True when the other console's person is next and their action has
        come: the play held on screen gives way at once (L-4)."""
        link = self.link
        return link is not None and not self.queue and link.answered(self.session.hand)

    def flush(self):
        """Apply the saved actions not shown yet (leaving the table)."""
        s = self.session
        h = s.hand if s is not None else None
        while self.queue and h is not None:
            h.apply(self.queue.pop(0))

    def tick(self, now):
        """After the screens: the link, then the move timer (T-3)."""
        if self.link is not None:
            self.link.app_tick(self, now)
        s = self.session
        tm = self.timer
        if tm is None and s is not None and s.rated:
            from pisti_app.match.movetimer import MoveTimer
            tm = self.timer = MoveTimer(self)
        if tm is not None:
            tm.tick(now)

    def table(self):
        """The table screen of the session's game."""
        if self.session.game == "pisti":
            from pisti_app.screens.pisti_table import PistiTable
            return PistiTable(self.app)
        from pisti_app.screens.yedili_table import YediliTable
        return YediliTable(self.app)

    # -- the hands' and the match's ends (pisti_app.match.ends, loaded for them) --------
    def hand_over(self):
        """The hand in play ended: score it, save the next deal (before it is
        shown) or the match's result, show the breakdown."""
        if self.link is not None:
            self.link.tick(self.app.now, self.session.hand, b"", False)  # the hand's last actions go out first
        from pisti_app.match import ends
        self.app.later(ends.hand_end, self)

    def next_hand(self):
        """From the breakdown: the next hand's table, or the match end."""
        from pisti_app.match import ends
        ends.next_hand(self)

    def end_match(self):
        """From the match end back to the main menu."""
        from pisti_app.match import ends
        self.app.later(ends.close, self)

    def leave_rated(self):
        """Leave the rated game in play now: ranked per T-4, then the menu."""
        from pisti_app.match import ends
        ends.leave_now(self)
