# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.results_pisti`
=================================

The Pişti rows of the end-of-hand breakdown (:class:`pisti_app.screens.results.HandEnd`):
per side the cards taken and the points for aces, jacks, 2♣, 10♦, the
majority, piştis and Jack piştis (P-12), then the hand and match totals.
"""

from pisti_app.screens import gfx
from pisti_app.texts.names import bar_name
from pisti_app.texts.strings import t


def fill(self, h):
    """The Pişti rows of the hand end ``self`` for the hand ``h`` (P-12)."""
    s = self.s
    r = h.result()
    m = s.match
    self.title.text = "%s: %s:%s" % (t("hand_n") % self.hand_no, bar_name(s, 0), bar_name(s, 1))
    left = (("cards", "cards"), ("aces", "aces"), ("jacks", "jacks"),
            ("two_clubs", "two_clubs"), ("ten_diamonds", "ten_diamonds"))
    right = (("majority", "majority"), ("pisti", "pistis"), ("jack_pisti", "jack_pistis"))
    if self.compact:  # one column: hand and match totals first, then the P-12 lines
        self.cell(0, 1, t("r_hand"))
        self.cell(127, 1, "%d:%d" % (r[0]["total"], r[1]["total"]), True)
        self.cell(0, 2, t("r_match") % m.target)
        self.cell(127, 2, "%d:%d" % (m.totals[0], m.totals[1]), True)
        both = left + right
        for i in range(len(both)):
            key, label = both[i]
            self.cell(0, i + 3, t("r_" + label))
            self.cell(127, i + 3, pair(r, key), True)
        return
    for i in range(len(left)):
        key, label = left[i]
        self.cell(0, i + 1, t("r_" + label))
        self.cell(62, i + 1, pair(r, key), True)
    for i in range(len(right)):
        key, label = right[i]
        self.cell(65, i + 1, t("r_" + label))
        self.cell(127, i + 1, pair(r, key), True)
    self.group.append(gfx.box(1, 38, 62, 9))  # between the two blocks
    self.cell(0, 6, t("r_hand"))
    self.cell(127, 6, "%d:%d" % (r[0]["total"], r[1]["total"]), True)
    self.cell(0, 7, t("r_match") % m.target)
    self.cell(127, 7, "%d:%d" % (m.totals[0], m.totals[1]), True)

def pair(r, key):
    """'a:b' for one line of the P-12 breakdown (points; cards counted)."""
    mul = 10 if key == "pisti" else 20 if key == "jack_pisti" else 1
    return "%d:%d" % (r[0][key] * mul, r[1][key] * mul)
