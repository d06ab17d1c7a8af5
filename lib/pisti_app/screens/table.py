# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.table`
=========================

What both card tables share: the top bar, the opponents' badges placed by
seat (a card back, the number of cards, inverted while that seat is to
move), the message line, a toast for events and why-not explanations, and
the pacing: every play, the person's or a bot's, is held on screen for the
bot delay before the next bot moves (one bot move per visible step), and
the move timer of rated games in the top bar (T-3).

On a 32-px display (``compact``) the tables share one plan: the top bar
(scores at the ends; each opponent's card count in the middle, left seat
first, inverted while that seat is to move; the move timer after them),
the message line at y 8, and a row of :data:`sprites.MINI` cards at y 18: the
pile or top card on the left, two short lines of pile facts beside it
(:data:`INFO_X`), then the hand (:func:`hand_x`).

The table is a view of the match in play (:class:`pisti_app.match.play.Play`):
it asks the match for the next play to show (:meth:`pisti_app.match.play.Play.step`)
and hands the person's choice to it (:meth:`pisti_app.match.play.Play.submit`),
which chooses the bots' replies and saves them (T-6) before they are shown.
"""

import displayio

from pisti_app.screens import gfx
from pisti_app.screens import sprites
from pisti_app import keys as K
from pisti_app.texts.names import seat_name
from pisti_app.screens.screen import Screen
from pisti_app.util import const, ticks_add, ticks_diff


def seat_places(n):
    """Where each seat sits around the person (seat 0 at the bottom): play
    goes to the right, so seat 1 is on the right (or on top with 2)."""
    if n == 2:
        return (None, "top")
    if n == 3:
        return (None, "right", "left")
    return (None, "right", "top", "left")


#: 32-px layout: the two lines beside the pile (x), the hand's first card
#: (x), the pitch of the hand's cards (their borders overlap), where the
#: card row and the message line start (y).
INFO_X = const(21)
HAND_X = const(46)
HAND_PITCH = const(19)
CARD_Y = const(18)
C_MSG_Y = const(8)


def hand_x(i):
    """32-px layout: x of the hand's card ``i``."""
    return HAND_X + i * HAND_PITCH


class Badge:
    """An opponent: a small card back and the number of cards held (on a
    32-px display only the number, at ``x`` in the top bar)."""

    def __init__(self, group, place, y, x=None):
        self.icon = None
        if x is not None:
            self.count = gfx.label("small", "", x, 0)
            group.append(self.count)
            self.warn = False
            self.active = False
            return
        if place == "top":
            x, lx, anchor, ly = 57, 66, (0.0, 0.0), 0
            y = 0
        elif place == "left":
            x, lx, anchor, ly = 0, 9, (0.0, 0.0), y + 1
        else:
            x, lx, anchor, ly = 121, 119, (1.0, 0.0), y + 1
        self.icon = sprites.Card(sprites.TINY, x, y)
        self.icon.show(sprites.BACK)
        self.count = gfx.label("small", "", lx, ly, anchor=anchor)
        group.append(self.icon.tile)
        group.append(self.count)
        self.warn = False

    def set(self, n, active, warn=False):
        """Show ``n`` cards; ``active`` while the seat is to move; ``warn``
        (one card left) inverts the number (on a 32-px display: '!' after
        it, and the number inverted while the seat is to move)."""
        text = ("%d!" % n) if warn else str(n)
        if self.count.text != text:
            self.count.text = text
        if self.icon is None:
            if active != self.active:
                self.active = active
                self.count.background_color = gfx.WHITE if active else None
                self.count.color = gfx.BLACK if active else gfx.WHITE
            return
        self.icon.select(active)
        if warn != self.warn:
            self.warn = warn
            self.count.background_color = gfx.WHITE if warn else None
            self.count.color = gfx.BLACK if warn else gfx.WHITE


class Toast:
    """A white panel over the middle of the table: one big line (double
    size) or up to three small ones, black on white."""

    def __init__(self, group, height, top=10):
        self.g = displayio.Group()
        self.g.hidden = True
        self.box = gfx.box(128, height, 0, top)
        self.g.append(self.box)
        self.big = gfx.label("medium", "", 64, top + (height - 20) // 2, anchor=(0.5, 0.0), scale=2)
        self.big.color = gfx.BLACK
        self.g.append(self.big)
        self.lines = []
        for i in range(3):
            lbl = gfx.label("small", "", 64, top + (height - 24) // 2 + 8 * i, anchor=(0.5, 0.0))
            lbl.color = gfx.BLACK
            self.g.append(lbl)
            self.lines.append(lbl)
        group.append(self.g)
        self.text = ""

    def show(self, text, big=False):
        """Show ``text``: lines split at '\\n', or one big line."""
        self.text = text
        parts = [] if big else text.split("\n")[0:3]
        first = (3 - len(parts)) // 2
        for i in range(3):
            k = i - first
            line = parts[k] if 0 <= k < len(parts) else ""
            if self.lines[i].text != line:
                self.lines[i].text = line
        self.big.text = text if big else ""
        self.g.hidden = False

    def hide(self):
        """Take the panel away."""
        self.g.hidden = True
        self.text = ""


class TableBase(Screen):
    """The shared part of the Pişti and Pis Yedili tables."""

    name = "table"
    horizontal = True
    clock_on_white = False
    MSG_Y = 40
    BADGE_Y = 16
    TOAST_H = 29  # 64 px: the toast's height from y 10 (down to the message line)
    BADGE_PITCH = 13  # 32 px: room for "12" or "1!"

    def __init__(self, app):
        super().__init__(app)
        self.play = app.play  # the match this table shows
        self.s = app.play.session
        self.holding = False
        self.hold_until = 0
        self.toast_until = None
        self.flash = ""
        self.flash_until = None
        g = self.group
        c = self.compact
        self.score_l = gfx.label("small", "", 0, 0)
        self.score_r = gfx.label("small", "", 127, 0, anchor=(1.0, 0.0))
        g.append(self.score_l)
        g.append(self.score_r)
        n = self.s.players
        # T-3 move timer: after the opponents' counts on a 32-px display
        pitch = self.BADGE_PITCH
        self.clock = gfx.label("small", "", 39 + pitch * (n - 1) if c else 54, 0,
                               anchor=(0.0 if c else 1.0, 0.0))
        g.append(self.clock)
        places = seat_places(n)
        self.badges = [None] * n
        for seat in range(1, n):
            # 32 px: left to right as they sit (left, top, right = seat n-1 .. 1)
            self.badges[seat] = Badge(g, places[seat], self.BADGE_Y,
                                       38 + pitch * (n - 1 - seat) if c else None)
        self.msg = gfx.label("small", "", 0, C_MSG_Y if c else self.MSG_Y)
        g.append(self.msg)
        self.hold(app.delay())  # let the new deal be seen before a bot leads

    def finish(self):
        """Add the toast last (on top) and draw everything once."""
        if self.compact:  # over the message line and the cards
            self.toast = Toast(self.group, 24, C_MSG_Y)
        else:
            self.toast = Toast(self.group, self.TOAST_H)
        self.sync()

    # -- state ------------------------------------------------------------------
    @property
    def hand(self):
        """The hand in play."""
        return self.s.match.hand

    def my_turn(self):
        """True when the person is to act (seat 0, no outside bot there)."""
        return self.play.mine()

    def who(self, seat):
        """Seat name for messages."""
        return seat_name(self.s, seat)

    # -- timers -----------------------------------------------------------------
    def hold(self, ms):
        """Keep the table as it is for ``ms`` before the next bot step."""
        self.holding = True
        self.hold_until = ticks_add(self.now, ms)

    def say(self, text, ms=None):
        """Put ``text`` on the message line (for ``ms``, default the bot delay;
        after the other console's play, with the rest of its drawing: :attr:`rest`)."""
        if self.rest and ms is None:
            self.said = text
            return
        self.flash = text
        self.flash_until = ticks_add(self.now, self.app.delay() if ms is None else ms)
        self.set_msg(text)

    def pop_toast(self, text, ms, big=False):
        """Show the toast for ``ms`` (with the rest of a play's drawing when
        its first frame shows only the play: :attr:`rest`)."""
        if self.rest:
            self.toast_due = (text, ms, big)
            return
        self.toast.show(text, big)
        self.toast_until = ticks_add(self.now, ms)
        self.app.dirty = True

    def set_msg(self, text):
        """Set the message line."""
        if self.msg.text != text:
            self.msg.text = text
            self.app.dirty = True

    @property
    def now(self):
        """``supervisor.ticks_ms()`` of this tick (keys are handled before the
        screen's tick, so read it from the app)."""
        return self.app.now

    rest = False  # the rest of a play's drawing is due: its first frame showed only the play (L-4)
    said = None  # the message line's text for that rest
    toast_due = None  # (text, ms, big): a toast for that rest (a big one takes longer to draw than the play)

    def tick(self, now):
        if self.rest:
            self.rest = False
            d = self.said
            if d is not None:
                self.said = None
                self.say(d)
            self.sync()
        d = self.toast_due
        if d is not None:
            self.toast_due = None
            self.pop_toast(d[0], d[1], d[2])
        if self.toast_until is not None and ticks_diff(now, self.toast_until) >= 0:
            self.toast_until = None
            self.toast.hide()
            self.app.dirty = True
        if self.flash_until is not None and ticks_diff(now, self.flash_until) >= 0:
            self.flash_until = None
            self.flash = ""
            self.sync()
        if self.holding:
            cut = self.play.answered()  # (L-4: the other person's play)
            if ticks_diff(now, self.hold_until) < 0 and not cut:
                return
            self.holding = False
            self.after_hold()
            if not cut:  # (else the play that comes now draws the table)
                self.sync()
        h = self.hand
        if h.over:
            if self.toast_until is None:
                self.play.hand_over()
            return
        seat = h.turn
        a = self.play.step()
        if a is not None:
            self.act(seat, a)

    def decide(self, a):
        """The person's action ``a``: to the match (saved with the bots'
        replies, in a link game sent first), then shown."""
        self.play.submit(a)
        self.act(0, a)

    # -- hooks ------------------------------------------------------------------
    def act(self, seat, a):
        """Apply action ``a`` of ``seat`` and show it (subclasses)."""

    def after_hold(self):
        """A held play has been seen long enough (subclasses)."""

    def sync(self, first=False):
        """Bring every sprite and label up to date with the hand (subclasses);
        ``first``: only what another seat's play changes in the middle of the
        table, the rest at the next tick (:attr:`rest`), so the play is on
        the screen one refresh sooner."""

    def key(self, code):
        if code == K.MENU or code == K.BACK:
            if self.play.link is None:
                self.app.push(self.app.menus.pause())
            else:  # (a link game: the question to leave, pisti_app.match.leaving.pause)
                from pisti_app.match import leaving
                leaving.pause(self.play)

    def resume(self):
        self.sync()
        self.app.dirty = True

    def status(self, st):
        from pisti_app.screens.table_status import fill  # (a script's question: the board never loads it)
        fill(self, st)
