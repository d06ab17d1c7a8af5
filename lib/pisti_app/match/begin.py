# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.begin`
=======================

A match begins (:class:`pisti_app.match.play.Play`): a new one (:func:`start_game`),
the one kept to Continue (:func:`continue_game`; at boot :func:`resume_kept`),
or any of them from a session made elsewhere (:func:`sit`, a link game's
first deal too). A new game, a link game too, takes the place of the game
kept to Continue (:func:`replace_kept`, T-4) and a rated one is numbered
(:func:`number`, T-2). Loaded to begin a match and unloaded once its table shows.
"""

import gc

from pisti_app import util
from pisti_app.match.play import Play
from pisti_app.util import forget


def replace_kept(app):
    """A new game (a link game too) takes the place of the game kept to
    Continue: a rated one is left (T-4; the menus asked first)."""
    kept = app.kept
    if kept is not None:
        if kept.rated:
            from pisti_app.match import ends
            ends.leave_rated(app, kept)
            forget("pisti_app.match.ends")
        app.kept = None


def number(app, rated):
    """A new game's number: a rated one's is the ranking's stamp + 1 (T-2)."""
    if not rated:
        return 0
    n = (app.rankings.stamp + 1) & 0xFFFF
    app.records.drop_rankings()  # read again at the match's end
    return n


def start_game(app, game, players, levels, target=None, rated=False):
    """A new match: the person at seat 0, bots at ``levels[1:]``. A rated
    game kept to Continue is left (T-4; the menus asked first)."""
    app.release()  # the menus go before the game comes
    app.drop_menus()
    app.play = None
    replace_kept(app)
    gc.collect()
    from pisti_app.match.session import GameSession
    n = number(app, rated)
    sit(app, GameSession.new(game, players, levels, target, app.below, rated, n))


def sit(app, session, saved=False, link=None):
    """Sit down at ``session`` (a GameSession with a hand in play) and show
    its table; unless it is ``saved`` already, its hand is saved first (T-6:
    the deal before it is shown). ``link``: a link game's
    :class:`pisti_app.link.remote.LinkPlay`."""
    p = Play(app, session)
    p.link = link
    if not saved:
        sv = p.saves
        sv.start(session)
        if session.hand.actions:
            sv.add(session.hand.actions)
    app.play = p
    p.sit()
    app.show(p.table())


def continue_game(app):
    """Back to the game kept (left in practice, or cut off by power loss). A
    link game's, on the board, by a restart into it (L-9, L-17): its table
    on a fresh heap, as at its start, not in the one the menus left."""
    k = app.kept
    if k is not None and k.linked and not app.resumed and util.restarts():
        app.restart = True  # (pisti_app.run: code.py again, then boot(resume) comes back here)
        return
    app.kept = None
    app.release()
    app.drop_menus()
    app.play = Play(app)  # (the main menu, if it comes instead, releases the game's code)
    s = app.saves.kept(app.below, app.rankings.stamp)
    if s is None:  # cannot happen: the saves were read at boot
        app.main_menu()
        return
    app.records.drop_rankings()  # read again at the match's end (as a new game's: start_game)
    if s.game == "yedili":  # the largest module first, while the heap is in the fewest pieces
        from pisti_app.screens import yedili_table  # noqa: F401 (compiled now, while the heap is in the fewest pieces)
    else:
        from pisti_app.screens import pisti_table  # noqa: F401 (compiled now, while the heap is in the fewest pieces)
    link = None
    if s.linked:  # L-9: a power cut is not leaving; the link is opened again
        app.linked_boot = True
        if not util.restarts():  # (kept: see pisti_app.match.ends.keeps_stats; a board's restarted heap compiles it at
                                 # a hand's end)
            from pisti_app.match import stats  # noqa: F401 (compiled now and kept: see pisti_app.match.ends.keeps_stats)
        from pisti_app.link import relink
        link = relink.resume(app, s)
        forget("pisti_app.link.relink")
        if link is None:
            return
    sit(app, s, True, link)


def resume_kept(app):
    """At boot: back into the kept game (T-6); out of memory even so,
    :func:`pisti_app.oom.resume_failed`."""
    kept = app.kept
    app.resumed = True  # (once a boot)
    try:
        continue_game(app)
    except MemoryError as e:
        from pisti_app.oom import resume_failed
        resume_failed(app, e, kept)
