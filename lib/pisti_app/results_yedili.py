# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.results_yedili`
==========================

The Pis Yedili rows of the end-of-hand breakdown
(:class:`pisti_app.results.HandEnd`): per seat the hand's penalty
(multiplied, Y-14), the Muamele points (Y-15) and the total, then the
Muamele cards.
"""

from pisti_app.names import card_text, seat_name
from pisti_app.strings import t


def fill(self, h):
    """The Pis Yedili rows of the hand end ``self`` for the hand ``h`` (Y-14, Y-15)."""
    from pisti_core.yedili import VALUE
    s = self.s
    m = s.match
    if h.winner >= 0:
        head = t("r_out") % seat_name(s, h.winner)
        if h.mult > 1:
            head += " \u00d7%d" % h.mult
    else:
        head = t("stock_out")
    self.title.text = "%s: %s" % (t("hand_n") % self.hand_no, head)
    self.cell(52, 1, t("r_hand"), True)
    self.cell(78, 1, t("r_muamele"), True)
    eq = 103 if self.compact else 98  # 64 px: a character cell apart from the total
    self.cell(eq, 1, "=", True)
    self.cell(127, 1, t("r_total"), True)
    pens = h.penalties()
    mu_text = []
    for seat in range(s.players):
        mu = 0
        for c in h.muamele[seat]:
            mu += VALUE[(c % 52) >> 2]
        row = seat + 2
        self.cell(0, row, seat_name(s, seat))
        self.cell(52, row, str(pens[seat] - mu), True)
        self.cell(78, row, str(mu) if h.muamele[seat] else "-", True)
        self.cell(eq, row, str(pens[seat]), True)
        self.cell(127, row, str(m.totals[seat]), True)
        if h.muamele[seat]:
            mu_text.append("%s %s" % (seat_name(s, seat),
                                      " ".join([card_text(c) for c in h.muamele[seat]])))
    row = s.players + 2
    if mu_text:
        from pisti_app.wrap import wrap
        for line in wrap(t("muamele") + ": " + ", ".join(mu_text)):
            if row > 7 and not self.compact:
                break
            self.cell(0, row, line)
            row += 1
