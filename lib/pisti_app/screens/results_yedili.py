# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.results_yedili`
==================================

The Pis Yedili rows of the end-of-hand breakdown
(:class:`pisti_app.screens.results.HandEnd`): per seat the hand's penalty
(multiplied, Y-14), the Muamele points (Y-15) and the total, then what
the "Mu" header means (the cards picked for 7s left in hand), with the
Muamele cards picked on the lines under it, indented.
"""

from pisti_app.texts.names import card_text, seat_name
from pisti_app.texts.strings import t


def fill(self, h):
    """The Pis Yedili rows of the hand end ``self`` for the hand ``h`` (Y-14, Y-15)."""
    from pisti_core.yedili import VALUE
    s = self.s
    m = s.match
    if h.winner >= 0:
        head = t("r_out") % seat_name(s, h.winner) if h.winner or s.demo else t("r_you_out")
        if h.mult > 1:
            head += " \u00d7%d" % h.mult
    else:
        head = t("r_stock")  # Y-13
    # A header over every column: the cards' penalty (Y-14), Muamele (Y-15),
    # the hand's penalty, the match total (Y-16); at 64 px each ends in a
    # character cell (columns 9, 13, 18, 24) one cell apart from the next.
    cols = (49, 69, 94, 127)
    for i in range(4):
        self.cell(cols[i], 1, t(("r_cards", "r_muamele", "r_hand", "r_total")[i]), True)
    pens = h.penalties()
    mu_text = []
    for seat in range(s.players):
        mu = 0
        for c in h.muamele[seat]:
            mu += VALUE[(c % 52) >> 2]
        row = seat + 2
        self.cell(0, row, seat_name(s, seat))
        self.cell(cols[0], row, str(pens[seat] - mu), True)
        self.cell(cols[1], row, str(mu) if h.muamele[seat] else "-", True)
        self.cell(cols[2], row, str(pens[seat]), True)
        self.cell(cols[3], row, str(m.totals[seat]), True)
        if h.muamele[seat]:
            mu_text.append("%s %s" % (seat_name(s, seat),
                                      " ".join([card_text(c) for c in h.muamele[seat]])))
    row = s.players + 2
    # What "Mu" is (Y-15: cards picked for the 7s left in hand), then the
    # cards picked, indented two cells under it.
    from pisti_app.texts.wrap import wrap
    lines = [t("r_mu_legend")] + (wrap(", ".join(mu_text), 23) if mu_text else [])
    x = 0
    for line in lines:
        if row > 7 and not self.compact:
            break
        self.cell(x, row, line)
        row += 1
        x = 10
    # The title keeps a character cell clear of the prompt on its right (and
    # of the scroll arrows at 32 px); too long, it is the outcome alone.
    title = "%s: %s" % (t("hand_n") % self.hand_no, head)
    room = 127 - 5 * len(self.title_r.text) - (11 if self.compact and self.rows_total() > 3 else 0)
    self.title.text = title if 6 + 5 * len(title) <= room else head
