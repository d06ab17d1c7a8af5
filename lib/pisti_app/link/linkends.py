# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.linkends`
=========================

The rare turns of a link game (RULES.md L-5, L-7, L-8, L-9), loaded only
when one comes (and forgotten with the link): the match in play
(:class:`pisti_app.match.play.Play`) taken from the link's when a record carried
the link past it (:func:`catch_up`, :func:`adopt`, :func:`behind`), the
waiting notice of a silent cable (:func:`notice`, forgotten once the other
is heard again), the end of the game when the other console is gone for
good or has left (:func:`gone`), a ring's person who left (L-16,
:func:`person_left`), and the link's close (:func:`close`).
"""

from pisti_app.util import release

def catch_up(link, play):
    """The match ``play`` is behind its link's: taken whole (L-9: nothing
    already played is lost), saved, and shown with a notice."""
    from pisti_app.texts import strings
    app = play.app
    s = play.session
    adopt(link, s)
    play.want_next = False
    play.queue = []
    app.release()
    if s.over:
        from pisti_app.match import ends
        ends.score_match(play)
        play.saves.end()
        from pisti_app.screens.match_end import MatchEnd
        app.show(MatchEnd(app, s.outcome[0] if s.outcome else None))
        return
    play.saves.start(s)
    if s.hand.actions:
        play.saves.add(s.hand.actions)
    app.show(play.table())
    app.screen.say(strings.t("link_resync"), 3000)


def gone(link, play, left=False):
    """L-8: the link lost for more than 3 minutes ends the link game. Rated:
    this console's person is ranked as leaving now (T-4, the code path of
    Exit), the link closed, the main menu under the notice. Practice: the
    link closed and a bot offered for the missing seat (A), or the end (B);
    the notice says the other is gone, not that the game has ended.
    ``left``: the other console left (its goodbye) or the link failed:
    rated, the game ends with nothing recorded here (the leaver pays,
    T-4); practice, as above."""
    from pisti_app.texts import strings
    t = strings.t
    app = play.app
    s = play.session
    play.link_secs = -1
    why = t("link_away")
    if left:  # the other console said goodbye, or the link failed: nothing is recorded here
        err = link.lock.error
        if err is not None and err.key != "bye":
            why = t("link_failed") + " " + err.text
        else:
            why = t("link_left") if s.rated else t("link_quit")
        if s.rated:
            play.flush()
            play.saves.end()
            close(play)
            app.main_menu()
            app.ask(t("link_play"), why, app.pop, t("keys_ok"))
            return
    if s.rated:
        from pisti_app.match import leaving
        cost = leaving.cost(app, s)[1]
        play.leave_rated()  # ranks (T-4), drops the link (close), main menu
        app.ask(t("link_play"), t("link_gone") + "\n" + cost, app.main_menu, t("keys_ok"))
        return
    want = play.want_next
    close(play)
    s.linked = False  # the next hands are dealt here
    app.later(_bots, play, why, want)  # once the link's code is gone: the bots' code may need compiling


def person_left(play):
    """A ring's person has left (L-16): the seats again, the host's bot at
    theirs (:meth:`pisti_app.match.play.Play.sit`), and the screen says so."""
    from pisti_app.texts import strings
    play.sit()
    top = play.app.stack[-1] if play.app.stack else None
    if top is not None and hasattr(top, "say"):
        top.say(strings.t("ring_left"), 3000)


def _bots(play, why, want):
    """L-8, practice: bots at the session's levels in the seats the link
    took, and the notice: A plays on with them, B ends the game."""
    from pisti_app.texts import strings
    t = strings.t
    app = play.app
    s = play.session
    yes = app.pop
    if s.hand is None:  # between hands: the next deal is this console's now
        s.match.deal()
        play.saves.start(s)
        if want:  # (the breakdown was left already: A sits down at the next hand)
            def yes():
                from pisti_app.match import ends
                app.later(ends.deal_shown, play)
    play.sit()
    app.ask(t("link_play"), why + "\n" + t("link_gone_bot"), yes, t("keys_bot"),
            lambda: _end(play))


def _end(play):
    """L-8, practice: the game ends (dropped from the saves), the main menu."""
    play.saves.end()
    play.app.main_menu()


def adopt(link, s):
    """Bring the session ``s`` to the link's game (its match rebuilt from
    the link's record, local numbering); the caller saves and shows it."""
    from pisti_core.linkrec import record
    from pisti_core.linkproto import load
    lk = link.lock
    m, hd = load(record(lk.match, lk.hands_done, lk.rot), lk.rot)
    s.match = m
    s.base = hd
    s.last = None

def notice(play, secs):
    """L-7 on every screen of the link game: the countdown in each
    screen's top bar (where the move timer shows), and on the table's
    message line; cleared once the other console is heard again."""
    from pisti_app.texts import strings
    stack = play.app.stack
    text = "" if secs < 0 else strings.t("link_clock") % (secs // 60, secs % 60)
    for scr in stack:
        scr.link_lost(text)
    top = stack[-1] if stack else None
    if secs >= 0 and top is not None and hasattr(top, "say"):
        top.say(strings.t("link_lost") % (secs // 60, secs % 60), 1500)
    if secs < 0 and play.timer is not None:
        play.timer.forget_screens()  # the move timer shows itself again


def close(play):
    """The link game ``play`` is over or left: say goodbye, give the remote
    seats back, unload the link code."""
    link = play.link
    s = play.session
    if s is not None and s.over and not link.ended:
        play.saves.end()
    link.lock.leave()
    link.lock.poll(play.app.now)  # (the goodbye goes out if the line is free)
    play.link = None
    seats = play.seats  # (the remote seats' player holds this link, and so all of its code)
    for i in range(len(seats)):
        if seats[i] is link.seat:
            seats[i] = None
    play.want_next = False
    play.link_secs = -1
    release(link)


def behind(link, s):
    """True when the app's session ``s`` can no longer follow ``link`` (a
    :class:`pisti_app.link.remote.LinkPlay`): the link took the other console's
    record (L-5, L-9) and it holds another game than ``s`` -- a hand ``s``
    has not seen the end of, or actions that differ from those ``s`` shows."""
    from pisti_core import linkrec as G
    lk = link.lock
    m = lk.match
    if s is None or m is None or lk.phase not in (G.PLAY, G.OVER):
        return False
    h = s.hand
    if h is None:
        return lk.hands_done > s.hands_done or (m.over and not s.over)
    acts = link.acts(h)
    if acts is None:
        return True
    n = min(len(h.actions), len(acts))
    return bytes(h.actions[0:n]) != bytes(acts[0:n])
