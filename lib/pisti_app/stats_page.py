# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.stats_page`
======================

The statistics pages beside the rankings (issue 19): the Rankings screen
turns to one page a game (LEFT/RIGHT, or scrolling on past its end) with
the matches and hands played and won, the piştis and Jack piştis made
(Pişti) and the current and best winning streak, read from the saves
(:mod:`pisti_app.stats`). Imported only while those pages are built.
"""

from pisti_app.strings import t


def pages(app):
    """``[(title, text), ...]``: the statistics of Pişti, then Pis Yedili."""
    from pisti_app import stats
    d = stats.as_dict(app.saves.read_stats())
    app.forget("pisti_app.stats")
    out = []
    for game in ("pisti", "yedili"):
        r = d[game]
        if not (r["matches"] or r["hands"]):
            text = t("stats_none")
        else:
            text = t("stats_page") % (r["matches"], r["won"], r["hands"], r["hands_won"],
                                      r["streak"], r["best"])
            if game == "pisti":
                text += "\n" + t("stats_pistis") % (r["pistis"], r["jack_pistis"])
        out.append((t("stats"), t(game) + "\n" + text))
    return out
