# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.movetimer`
===========================

The move timer of rated games (T-3): ``prefs['timer']`` seconds (30 to
300) for each decision of the person. The countdown stays in the top bar of
the table (and of any menu opened over it); it runs while the person is to
act at the table, the game menu and the rules read from it included (that
menu is no pause), from the moment the last bot play has been shown; not on
end-of-hand screens. It shows its unit ("45s", "45sn"). In the last 10
seconds the number blinks and a short beep sounds each second.
When it reaches zero the person has left the table (T-4): ``pisti_app.match.leaving.time_out``.
In a rated link game (L-10) the host's timer counts for each person and
both consoles show it: the other person's countdown too (without the
beeps), stopped at 0 until that console says its person left.
"""

from pisti_app.texts.strings import lang, t
from pisti_app.util import const, ticks_add, ticks_diff

_WARN = const(10)  # seconds of warning
_BLINK = const(250)  # ms on, ms off


class MoveTimer:
    """The clock of the match in play ``play`` (:class:`pisti_app.match.play.Play`),
    ticked after the screens; ``left`` is the number shown (None when no
    rated game is on), ``running`` whether it counts down."""

    def __init__(self, play):
        self.play = play
        self.app = play.app
        self.left = None
        self.running = False
        self.warn = False
        self.blink = False  # True while the number is shown inverted
        self._deadline = 0
        self._hand = -1  # hand number and ply of the decision being timed
        self._ply = -1
        self._beeped = 0
        self._shown = False  # whether what the screens show is _left/_blink/_top
        self._left = None
        self._text = None  # what _left shows, in language _lang
        self._lang = None
        self._blink = False
        self._top = None

    def _table(self):
        st = self.app.stack
        if st and st[0].name == "table":
            return st[0]
        return None

    def tick(self, now):
        """Advance: count down, warn, or call time out."""
        play = self.play
        s = play.session
        if s is None or not s.rated:
            self._stop(None)
            return
        link = play.link
        limit = self.app.prefs["timer"] if link is None else link.lock.setup.timer  # L-10: the host's
        table = self._table()
        mine = table is not None and table.my_turn()
        if link is not None and table is not None and not mine and not s.hand.over:
            mine = s.hand.turn == link.person  # (the other person's clock, shown here too: L-10)
            theirs = mine
        else:
            theirs = False
        if table is None or table.holding or not mine or play.link_secs >= 0:
            self._stop(limit)  # (L-7: not while the link is lost; it starts again when heard)
            return
        hand, ply = s.hand_no, s.hand.ply
        if not self.running or hand != self._hand or ply != self._ply:
            self.running = True
            self._hand = hand
            self._ply = ply
            self._deadline = ticks_add(now, limit * 1000)
            self._beeped = 0
        ms = ticks_diff(self._deadline, now)
        if ms <= 0 and theirs:
            ms = 0  # the other console says when its person's time is up (T-4 there)
        elif ms <= 0:
            self._stop(None)
            from pisti_app.match import leaving
            leaving.time_out(play)
            return
        left = (ms + 999) // 1000
        self.left = left
        self.warn = left <= _WARN
        self.blink = self.warn and (ms // _BLINK) % 2 == 1
        if self.warn and left != self._beeped and not theirs:
            self._beeped = left
            self.app.sound.play("tick", now)
        self._show()

    def forget_screens(self):
        """The screens are being replaced: drop the one remembered (so it can
        be freed) and show the timer again on the next tick."""
        self._shown = False
        self._top = None

    def _stop(self, limit):
        self.running = False
        self._hand = -1
        self.left = limit
        self.warn = self.blink = False
        self._show()

    def _show(self):
        # Called every tick: allocates nothing unless what is shown changes.
        if self.play.link_secs >= 0:
            return  # (L-7: the link's countdown has the place: pisti_app.link.remote)
        st = self.app.stack
        top = st[-1] if st else None
        if self._shown and self.left == self._left and self.blink == self._blink and top is self._top:
            return
        self._shown = True
        if self.left != self._left or self._lang != lang():
            self._lang = lang()
            # T-3: with its unit ("60s", "60sn"): a bare number reads as a score
            self._text = "" if self.left is None else t("clock") % self.left
        self._left = self.left
        self._blink = self.blink
        self._top = top
        text = self._text
        for scr in st:
            scr.show_timer(text, self.blink)

