# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.leaving`
=========================

The person's ways out of the table of the match in play ``play``
(:class:`pisti_app.match.play.Play`), loaded when one is taken: the pause menu
(in a link game the question to leave), what leaving a rated game costs, Exit (a practice game kept to
Continue; a rated one left at T-4's cost once the person confirms it), the
move timer running out (T-3: leaving), and undo in practice (T-1).
"""

from pisti_app.texts import strings
from pisti_app.util import forget


def cost(app, s):
    """T-4: (outcome, words) of leaving the rated game ``s`` now (a game in
    play, or the one kept to Continue)."""
    from pisti_core.table import leave_terms
    out, branch = leave_terms(s)
    if app.records.ranking is None:
        forget("pisti_core.table")  # loaded for this only
    return out, strings.t("cost_" + branch)


def pause(play):
    """The pause menu over the table; in a link game, the question to leave
    it (the link's code leaves no room to compile the menus there):
    rated, with its cost (T-4); practice, kept to Continue."""
    app = play.app
    if play.link is not None:
        if play.session.rated:
            leave(play)
        else:
            t = strings.t
            app.ask(t("link_play"), t("link_leave_q"), lambda: leave(play), t("keys_leave"), app.pop)
        return
    app.push(app.menus.pause())


def leave(play):
    """Exit from the pause menu: a practice game stays to Continue; a
    rated one is left (T-4) once the person confirms the cost."""
    s = play.session
    app = play.app
    t = strings.t
    if s.rated:
        app.ask(t("leave_q"), t("exit_leaves") + "\n" + cost(app, s)[1],
                play.leave_rated, t("keys_leave"), app.pop)
        return
    play.flush()
    from pisti_app.match.saves import keep
    app.kept = keep(s)  # the game itself is in the saves
    from pisti_app.match import ends
    ends.close(play)


def time_out(play):
    """T-3: the move timer ran out, which is leaving (T-4)."""
    app = play.app
    t = strings.t
    words = cost(app, play.session)[1]
    play.leave_rated()
    app.sound.play("lose", app.now)
    app.ask(t("time_up"), t("time_left") + "\n" + words, app.main_menu, t("keys_ok"))


def undo(play):
    """Practice with undo on (T-1): back to the person's previous
    decision, replaying the hand's record; False if there is none."""
    from pisti_app.match.session import UNDO, undo_point
    s = play.session
    if s.rated or not play.app.prefs["undo"]:
        return False
    play.flush()
    if s.hand is None or undo_point(s.hand) < 0:
        return False
    play.saves.add(bytes((UNDO,)))  # saved first, as every action
    s.undo()
    app = play.app
    app.release()
    app.show(play.table())
    return True
