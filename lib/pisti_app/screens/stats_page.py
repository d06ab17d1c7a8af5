# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.stats_page`
==============================

The statistics pages beside the rankings: the Rankings screen
turns to one page a game (LEFT/RIGHT, or scrolling on past its end) with
the matches and hands played and won, the piştis and Jack piştis made
(Pişti) and the current and best winning streak, read from the saves
(:mod:`pisti_app.match.stats`). Imported only while those pages are built.
"""

from pisti_core import GAMES

from pisti_app.texts.strings import t


def pages(app):
    """``[(title, text), ...]``: the statistics of Pişti, then Pis Yedili."""
    from pisti_app.match import stats
    b = stats.load(app.saves)[0]
    v = [stats.get(b, i // 8, i % 8) for i in range(16)]
    app.forget("pisti_app.match.stats")
    out = []
    for g in (0, 1):
        r = v[8 * g:8 * g + 8]  # matches, won, hands, hands_won, pistis, jack_pistis, streak, best
        if not (r[0] or r[2]):
            text = t("stats_empty")
        else:
            text = t("stats_lines") % (r[0], r[1], r[2], r[3], r[6], r[7])
            if not g:
                text += "\n" + t("stats_pistis") % (r[4], r[5])
        out.append((t("stats"), t(GAMES[g]) + "\n" + text))
    return out
