# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.screens.table_status`
================================

A table screen as ``App.status()`` gives it to a script (the simulator,
the tests, the heap gauge, an outside bot's harness): the hand's turn and
ply, the message, the legal moves on this console's person's turn, and
the game's own fields. Loaded only when asked: a console that nobody asks
(the board) never compiles it.
"""

from pisti_core.cards import card_str


def fill(table, st):
    """The fields of ``table`` (:class:`pisti_app.screens.table.TableBase`) into ``st``."""
    h = table.hand
    st["turn"] = h.turn
    st["ply"] = h.ply
    st["message"] = table.flash or table.toast.text.replace("\n", " ") or table.msg.text
    st["toast"] = table.toast.text
    st["holding"] = table.holding
    st["queued"] = len(table.play.queue)
    if table.my_turn():
        st["legal"] = [h.action_str(a) for a in h.legal()]
    st["cursor"] = table.cursor
    st["stock"] = h.stock
    if table.s.game == "yedili":
        from pisti_core.yedili import MUAMELE
        st["your_hand"] = [card_str(c) for c in table.my_cards()]
        st["focus"] = table.focus
        st["phase"] = ("opening", "normal", "drawn", "again", "muamele", "over")[h.phase]
        st["top"] = card_str(h.top) if h.top >= 0 else None
        st["named"] = "CDHS"[h.named] if h.named >= 0 else None
        st["pending"] = h.pending
        st["counts"] = list(h.hn)
        st["picks"] = h.picks if h.phase == MUAMELE else 0
        st["suit"] = "CDHS"[table.suit] if table.focus == "suit" else None
    else:
        st["pile"] = [card_str(c) for c in h.pile[h.hidden:]]  # (R-2 codes)
        st["pile_size"] = len(h.pile)
        st["hidden"] = h.hidden
        st["bottom"] = card_str(h.deck[51])
        st["counts"] = list(h.hn[0:table.s.players])
        st["your_hand"] = [card_str(c) for c in h.hand(0)]
