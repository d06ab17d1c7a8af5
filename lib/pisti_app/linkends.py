# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.linkends`
====================

The rare turns of a link game (RULES.md L-5, L-8, L-9), loaded only when
one comes (and forgotten with the link): the link opened again from a
saved game after a boot (:func:`resume`, the other's hello answered before
the table: :func:`greet`), the app's
game taken from the link's when a record carried the link past it
(:func:`catch_up`, :func:`adopt`), the waiting notice of a
silent cable (:func:`notice`, forgotten once the other is heard again), the end of the game when the other console
is gone for good or has left (:func:`gone`), and the link's close
(:func:`close`). ``self`` is the :class:`pisti_app.remote.LinkPlay`.
"""

# (The link modules are imported where they are used: the end of a practice
# game, :func:`_bots`, runs after the link code is gone and must not keep it.)


def catch_up(self, app):
    """The app's game is behind the link's: taken whole (L-9: nothing
    already played is lost), saved, and shown with a notice."""
    from pisti_app import strings
    s = app.session
    adopt(self, s)
    app._want_next = False
    app.release()
    if s.over:
        if s.rated:
            from pisti_core.table import match_outcome
            s.outcome = match_outcome(s.game, s.players, s.match.totals, 0)  # T-2
            app._rank(s, s.outcome)
        app.saves.end()
        from pisti_app.match_end import MatchEnd
        app.show(MatchEnd(app, s.outcome[0] if s.outcome else None))
        return
    app.saves.start(s)
    if s.hand.actions:
        app.saves.add(s.hand.actions)
    app.show(app._table())
    app.screen.say(strings.t("link_resync"), 3000)


def gone(self, app, left=False):
    """L-8: the link lost for more than 3 minutes ends the link game. Rated:
    this console's person is ranked as leaving now (T-4, the code path of
    Exit), the link closed, the main menu under the notice. Practice: the
    link closed and a bot offered for the missing seat (A), or the end (B);
    the notice says the other is gone, not that the game has ended.
    ``left``: the other console left (its goodbye) or the link failed:
    rated, the game ends with nothing recorded here (the leaver pays,
    T-4); practice, as above."""
    from pisti_app import strings
    t = strings.t
    s = app.session
    app._link_secs = -1
    why = t("link_away")
    if left:  # the other console said goodbye, or the link failed: nothing is recorded here
        err = self.lock.error
        if err is not None and err.key != "bye":
            why = t("link_failed") + " " + err.text
        else:
            why = t("link_left") if s.rated else t("link_quit")
        if s.rated:
            app._close_table()
            app.saves.end()
            app.session = None
            close(self, app)
            app.bots = [None, None, None, None]
            app.main_menu()
            app.ask(t("link_play"), why, app.pop, t("keys_ok"))
            return
    if s.rated:
        cost = app.leave_cost()[1]
        app.leave_rated()  # ranks (T-4), drops the link (close), main menu
        app.ask(t("link_play"), t("link_gone") + "\n" + cost, app.main_menu, t("keys_ok"))
        return
    want = app._want_next
    close(self, app)
    s.linked = False  # the next hands are dealt here
    app.later(_bots, app, why, want)  # once the link's code is gone: the bots' code may need compiling


def _bots(app, why, want):
    """L-8, practice: bots at the session's levels in the seats the link
    took, and the notice: A plays on with them, B ends the game."""
    from pisti_app import strings
    t = strings.t
    s = app.session
    yes = app.pop
    if s.hand is None:  # between hands: the next deal is this console's now
        s.match.deal()
        app.saves.start(s)
        if want:  # (the breakdown was left already: A sits down at the next hand)
            def yes():
                app.later(app._next_hand)
    app._make_bots()
    app.ask(t("link_play"), why + "\n" + t("link_gone_bot"), yes, t("keys_bot"),
            lambda: _end(app))


def _end(app):
    """L-8, practice: the game ends (dropped from the saves), the main menu."""
    app.saves.end()
    app.session = None
    app.bots = [None, None, None, None]
    app.main_menu()


def adopt(self, s):
    """Bring the session ``s`` to the link's game (its match rebuilt from
    the link's record, local numbering); the caller saves and shows it."""
    from pisti_core.linkgame import record
    from pisti_core.linkproto import load
    lk = self.lock
    m, hd = load(record(lk.match, lk.hands_done, lk.rot), lk.rot)
    s.match = m
    s.base = hd
    s.last = None

def notice(self, app, secs):
    """L-7 on every screen of the link game: the countdown in each
    screen's top bar (where the move timer shows), and on the table's
    message line; cleared once the other console is heard again."""
    from pisti_app import strings
    text = "" if secs < 0 else strings.t("link_clock") % (secs // 60, secs % 60)
    for scr in app.stack:
        scr.link_lost(text)
    top = app.stack[-1] if app.stack else None
    if secs >= 0 and top is not None and hasattr(top, "say"):
        top.say(strings.t("link_lost") % (secs // 60, secs % 60), 1500)
    if secs < 0 and app._timer is not None:
        app._timer.forget_screens()  # the move timer shows itself again

def close(self, app):
    """The link game is over or left (``self``, the
    :class:`pisti_app.remote.LinkPlay`): say goodbye, give the remote seats
    back, unload the link code."""
    s = app.session
    if s is not None and s.over and not self.ended:
        app.saves.end()
    self.lock.leave()
    self.lock.poll(app.now)  # (the goodbye goes out if the line is free)
    app.link = None
    app.outside_bots = {}
    bots = app.bots  # (the remote seats' player holds this link, and so all of its code)
    for i in range(len(bots)):
        if bots[i] is self.seat:
            bots[i] = None
    app._want_next = False
    app._link_secs = -1
    app.forget("pisti_app.remote", "pisti_app.linkmenu", "pisti_app.linkends", "pisti_core.linkgame",
               "pisti_core.linkproto", "pisti_core.linkchan", "pisti_core.linkrx", "pisti_core.linkframe",
               "pisti_core.linkrec", "pisti_app.stats")


def resume_lock(port, session, firmware, now, levels, urandom=None, lean=None):
    """The Lockstep of the link game ``session`` restored from the saves
    (L-9): its setup from the save, its game as the save has it (the one
    behind catches up from the other's record)."""
    from pisti_core import linkgame as G
    from pisti_core import linkproto as P
    role, gseat, timer, key = session.link_info
    n = session.players
    rot = gseat if role == P.GUEST else 0
    lv = [None] * n
    for seat in range(n):  # the save's levels are local: host seat j is local (j - rot) % n
        j = (seat + rot) % n
        if j != 0 and j != gseat:
            lv[j] = session.levels[seat] or "acemi"
    setup = P.Setup(session.game, n, session.match.target, session.rated, gseat, lv, timer)
    rec = P.record(session.match, session.hands_done, rot)
    if urandom is None:
        import os
        urandom = os.urandom
    return G.Lockstep.resume(port, role, firmware, now, setup, rec, None, levels, urandom, key=key, lean=lean)


def resume(app, session, uart=None):
    """Continue the link game ``session`` after a boot (L-9): the cable
    opened again and the remote seats taken by the link; True. False when
    the cable cannot be opened: the game stays kept (nothing saved is
    touched) and the main menu says why."""
    if uart is None:
        from pisti_app.linkport import open_uart
        app.forget("pisti_app.linkport")
        try:
            uart = open_uart()
        except (ValueError, ImportError, AttributeError) as e:
            from pisti_app import strings
            from pisti_app.games import Kept
            app.kept = Kept(session)
            app.forget("pisti_app.linkends", "pisti_app.remote", "pisti_core.linkgame", "pisti_core.linkproto",
                       "pisti_core.linkchan", "pisti_core.linkrx", "pisti_core.linkframe", "pisti_core.linkrec")
            app.main_menu()
            app.ask(strings.t("link_play"), str(e), app.pop, strings.t("keys_ok"))
            return False
    from pisti_app.remote import LinkPlay
    link = LinkPlay(resume_lock(uart, session, "pisti", app.now, ("acemi", "kalfa", "usta", "random", "greedy"),
                                lean=False))
    greet(link.lock)
    app.link = link
    for seat in link.remote_seats():
        app.outside_bots[seat] = link.seat
    return True


def greet(lk, clock=None, pause=None, lean=None):
    """L-9, a boot into a link game (every link match starts with one, on both
    consoles at once, after its first deal): the other console's hello is
    answered here, before the table is built and while the code between
    hands is still loaded; then that code goes (``lean``, the board's
    default). Answered at the table, it would be compiled again for it:
    ~340 ms in which a key waits. At most ~2 s (the other console may be
    off or unplugged: the table then says so); ``clock`` gives ms
    (``supervisor.ticks_ms``), ``pause`` waits a moment between looks (5 ms
    on the board, none on the desktop, whose clock may be virtual)."""
    import sys
    from pisti_core import linkgame as G
    board = sys.implementation.name != "cpython"
    if clock is None:
        import supervisor
        clock = supervisor.ticks_ms
    if pause is None and board:
        import time
        pause = time.sleep
    start = clock()
    for _ in range(400):
        now = clock()
        if lk.sessions or lk.phase == G.FAILED or G.ticks_diff(now, start) >= 2000:
            break
        lk.poll(now)
        if pause is not None:
            pause(0.005)
    lk.lean = board if lean is None else lean
    if lk.lean and (lk.phase == G.PLAY or lk.phase == G.OVER):
        lk._shed()


def behind(link, s):
    """True when the app's session ``s`` can no longer follow ``link`` (a
    :class:`pisti_app.remote.LinkPlay`): the link took the other console's
    record (L-5, L-9) and it holds another game than ``s`` -- a hand ``s``
    has not seen the end of, or actions that differ from those ``s`` shows."""
    from pisti_core import linkgame as G
    lk = link.lock
    m = lk.match
    if s is None or m is None or lk.phase not in (G.PLAY, G.OVER):
        return False
    h = s.hand
    if h is None:
        return lk.hands_done > s.hands_done or (m.over and not s.over)
    acts = link._acts(h)
    if acts is None:
        return True
    n = min(len(h.actions), len(acts))
    return bytes(h.actions[0:n]) != bytes(acts[0:n])
