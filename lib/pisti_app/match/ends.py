# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.ends`
======================

The ends of a hand and of a match in play (:class:`pisti_app.match.play.Play`):
the hand scored and its statistics written, the next deal saved (T-6), the
breakdown, then the next table or the match end; a rated match ranked at
its end (T-2) or when left (T-4; a link game under "person", L-10); the
link closed and the main menu. Loaded when a hand ends or a match is left,
for that step only: neither a table nor a breakdown holds it.
"""

from pisti_app import util
from pisti_app.util import forget


def hand_end(play):
    """The hand just over: the table closed, scored, counted, the next
    deal or the match's end saved, the breakdown shown."""
    app = play.app
    app.release()  # the table goes first: the statistics' code compiles in its room
    if play.link is not None:  # (a bot's observation code, ~1 KB: compiled again at its next decision;
        forget("pisti_core.yedili_obs", "pisti_core.pisti_obs")  # a link hand's end is tight on a Pico)
    s = play.session
    s.end_hand()
    count(app, s, False, keeps_stats(play))  # before the next deal or the end is saved: see pisti_app.match.stats
    if s.over:
        score_match(play)
        if play.link is None:  # (a link game's save ends once the link has sent its last action, L-9)
            play.saves.end()
    elif s.hand is not None:  # (a link game's next deal comes from the link: saved then)
        play.saves.start(s)
    forget("pisti_app.match.ends")  # (the breakdown does not hold it: its keys load it again)
    from pisti_app.screens.results import HandEnd
    app.show(HandEnd(app))


def keeps_stats(play):
    """True when the statistics' module stays loaded after a hand's end: a
    link game played in place (a desktop rig, the gauge) keeps it until the
    link closes, loaded as it starts beside the table's, as a hand's end
    finds the link table's heap in too many pieces to compile it (a Pis
    Yedili 4p guest). On the board a link game runs on the fresh heap of a
    restart (:func:`pisti_app.util.restarts`), where the module is compiled
    at each hand's end, with the table closed, and forgotten again, so no
    link table holds it."""
    return play.link is not None and not util.restarts()


def score_match(play):
    """A rated match over: its outcome (T-2), ranked."""
    s = play.session
    if s.rated:
        from pisti_core.table import match_outcome
        s.outcome = match_outcome(s.game, s.players, s.match.totals, 0)  # T-2
        rank(play.app, s, s.outcome)


def next_hand(play):
    """From the breakdown: the next hand's table, or the match end (built
    once the breakdown is gone). In a link game the next hand waits for
    the link's deal (L-3): ``LinkPlay.app_tick``."""
    s = play.session
    if play.link is not None and not s.over and s.hand is None:
        play.want_next = True
        play.link.app_tick(play, play.app.now)
        return
    play.app.later(deal_shown, play)


def deal_shown(play):
    """The next hand's table, or the match end (the breakdown gone)."""
    s = play.session
    app = play.app
    app.release()
    if s.over:
        if play.link is not None and play.link.ended:  # (its last action delivered: the link's code goes
            drop_link(play)  # before the match end's is compiled, seen short of memory on a Pico)
        from pisti_app.screens.match_end import MatchEnd
        app.show(MatchEnd(app, s.outcome[0] if s.outcome else None))
    else:
        s.last = None  # the breakdown is gone: its hand need not stay through the next one
        forget("pisti_app.screens.results", "pisti_app.texts.wrap", "pisti_app.match.ends")
        app.show(play.table())


def close(play):
    """The match is over or left: the link closed (its save ends, L-9),
    the main menu."""
    drop_link(play)
    play.app.main_menu()


def drop_link(play):
    """The link game is over or left: its link closes itself
    (:meth:`pisti_app.link.remote.LinkPlay.close`)."""
    if play.link is not None:
        play.link.close(play)


def leave_now(play):
    """Leave the rated game in play now: ranked per T-4, then the menu."""
    play.flush()
    leave_rated(play.app, play.session)
    close(play)


# -- what a match leaves in the records (T-2, T-4), also for a game kept -------------
def leave_rated(app, s):
    """Record leaving the rated game ``s`` (T-4) and drop it from the saves."""
    from pisti_core.table import leave_terms
    rank(app, s, leave_terms(s)[0])
    app.saves.end()
    count(app, s, True)


def count(app, s, left=False, keep=False):
    """The statistics of ``s`` (:func:`pisti_app.match.stats.count`); the module
    forgotten again unless ``keep``."""
    from pisti_app.match import stats
    stats.count(app, s, left)
    if not keep:
        forget("pisti_app.match.stats")


def rank(app, s, outcome):
    """Record a rated result (T-1) under the game, players and bot level;
    a match against mixed levels counts under its strongest bot, a link
    game under "person" (L-10). The ranking's stamp becomes the game's
    number (recorded once only)."""
    if outcome is None or not s.rated:
        return
    lv = "acemi"
    for v in s.levels:
        if v in ("kalfa", "usta") and (lv == "acemi" or v == "usta"):
            lv = v
    outcomes = (outcome,)
    if s.linked:
        lv = "person"  # L-10: a rated link game is ranked against a person, a table of its own
        if len(s.link_info) > 4:
            from pisti_app.match.ringrank import pairs  # (a ring's only: a two-console game loads none of it)
            outcomes = pairs(s, outcome) or outcomes
            forget("pisti_app.match.ringrank")
    r = app.rankings
    for o in outcomes:
        if o is not None:
            r.record(s.game, s.players, lv, o)
    r.stamp = s.number
    app.saves.write_ranking(r)
    app.records.drop_rankings()
