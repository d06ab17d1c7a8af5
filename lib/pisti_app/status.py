# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.status`
==================

``App.status()`` for scripts and the simulator, in a module of its own: a
board that nobody asks never compiles it (its many field names would be
interned for good, heap on the device).
"""

from pisti_app.texts import strings


def app_status(self, rankings=True):
    """``App.status()``: what is on screen and the game state of the app
    ``self``, as a plain dict; ``rankings`` False leaves the ranking out."""
    top = self.stack[-1]
    s = self.session
    tm = self.play.timer if self.play is not None else None
    sv = self.records.open
    state, notice, erases = self.nvm_state, self.nvm_notice, nvm_erases(self)
    if sv is not None and sv.state != "ok":
        state, notice = sv.state, sv.notice
    st = {"screen": top.name, "game": None, "players": None, "hand": None, "ply": None,
          "totals": None, "level": None, "levels": None, "turn": None, "your_hand": [],
          "legal": [], "message": top.message, "lang": strings.lang(),
          "saved": self.kept is not None, "refreshes": self.refreshes,
          "sound": self.prefs["sound"], "delay": self.delay(),
          "rated": s is not None and s.rated, "timer": tm.left if tm is not None else None,
          "rankings": self.rankings.as_dict() if rankings else None,
          "demo": self.demo is not None,
          "nvm": {"erases": erases, "state": state, "notice": notice}}
    if self.hw.supply is not None:  # the battery (PISTI_BATTERY): what the title bars show
        from pisti_app.screens import gfx
        st["battery"] = {"mv": self.hw.supply[3], "mark": ("usb", "battery", "low")[gfx.batt]}
    if rankings:  # the statistics, from the saves as the ranking
        st["stats"] = stats_dict(self)
    if s is not None:
        m = s.match
        st["game"] = s.game
        st["players"] = s.players
        st["hand"] = s.hand_no
        st["totals"] = list(m.totals)
        st["target"] = m.target
        st["level"] = s.level()
        st["levels"] = list(s.levels)
        st["over"] = m.over
        if m.hand is not None:
            st["ply"] = m.hand.ply
            st["turn"] = m.hand.turn
            st["dealer"] = m.hand.dealer
            st["cards"] = cards(m.hand)
    top.status(st)
    if hasattr(top, "fresh"):  # Pis Yedili: the person's cards marked new, in hand order
        from pisti_core.cards import card_str
        new = top.fresh()
        st["new"] = [card_str(c) for c in top.my_cards() if c in new]
    return st


def nvm_erases(app):
    """Sector erases so far: the nvm's own count when it keeps one (the
    desktop rig's), else those the saves caused since boot."""
    rc = app.records
    n = getattr(rc.nvm, "erases", None)
    if n is not None:
        return n
    sv = rc.open
    return rc.erases + (sv.store.erases_caused if sv is not None else 0)


def cards(h):
    """Where the cards of hand ``h`` are: ``hands`` (held), ``pile`` (the
    Pişti pile, face-down cards included, or the Pis Yedili discards),
    ``stock`` and ``taken`` (captured in Pişti, picked in a Muamele, Y-15):
    together the whole deck (P-1, Y-1)."""
    if h.game == "pisti":
        pile, taken = len(h.pile), h.cards[0] + h.cards[1]
    else:
        pile, taken = h.dn, sum(len(p) for p in h.muamele)
    return {"hands": sum(h.hn[s] for s in range(h.players)), "pile": pile,
            "stock": h.stock, "taken": taken}


STATS = ("matches", "won", "hands", "hands_won", "pistis", "jack_pistis", "streak", "best")


def stats_dict(app):
    """The statistics (:mod:`pisti_app.match.stats`) as ``{'pisti': {name: n}, 'yedili':
    {...}}`` (Pis Yedili has no piştis)."""
    from pisti_core import GAMES

    from pisti_app.match import stats
    b = stats.load(app.saves)[0]
    app.forget("pisti_app.match.stats")
    out = {}
    for g in (0, 1):
        out[GAMES[g]] = {STATS[i]: stats.get(b, g, i) for i in range(8) if not (g and i in (4, 5))}
    return out
