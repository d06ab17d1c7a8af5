# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.saves`
=======================

What the console keeps in ``microcontroller.nvm`` (T-6), through the
flash-wear-aware log of :mod:`pisti_core.nvlog`: the settings, the ranking
(:meth:`pisti_core.table.Ranking.to_bytes`) and the game in progress as the
header of the hand in play (:meth:`GameSession.header`, written when the
hand is dealt, before it is shown) plus its action bytes, appended as they
are taken, before their result is shown. A power cut therefore never loses
or undoes a move, and never shows another deal.

The statistics blob (``store.stats``) is read and written by
:mod:`pisti_app.match.stats` (its own record: one that does not read resets
alone). The settings blob is :mod:`pisti_app.prefs`'s (loaded only to read or
write it). A foreign or damaged nvm is the store's business ('reset' /
'recovered' and a notice).
Write errors (a power cut on the desktop rig) are never caught here.
"""

from pisti_core.nvlog import Store

from pisti_app.util import const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away

# Compact when a match starts (or the console boots) with less than this
# free, so that the match rarely meets a compaction (see tools/nvm_match.py).
RESERVE = const(2048)


def _prefs():
    # The settings codec, imported for one use and not kept: it is needed
    # at boot and when a settings menu closes only.
    from pisti_app import prefs
    from pisti_app.util import drop_module
    drop_module("pisti_app.prefs")
    return prefs


def default_prefs():
    """The settings of a new console (a dict)."""
    return _prefs().defaults()


class Kept:
    """What the menus need of the game kept to Continue (the game itself
    stays in the saves, T-6, and is restored from them on Continue): its
    game, players, levels, rated or not and number, totals, hands done,
    linked or not; made by :func:`keep`. (No code of its own: kept across
    the menus, it holds none of this module's code in the heap.)"""

    if _CHECKING:  # its fields, for the checker (of any type)
        game = players = levels = rated = number = totals = hands_done = linked = getattr(object, "")


def keep(s):
    """The :class:`Kept` of the game ``s`` (a session or a Kept)."""
    k = Kept()
    k.game = s.game
    k.players = s.players
    k.levels = s.levels
    k.rated = s.rated
    k.number = s.number
    k.totals = list(s.totals)
    k.hands_done = s.hands_done
    k.linked = s.linked
    return k


class Saves:
    """The console's saves on ``nvm`` (``microcontroller.nvm`` or a bytearray).

    ``state`` is the store's load result ('ok', 'recovered', 'reset') and
    ``notice`` one line about it ('' when there is nothing to say)."""

    NEEDS = "match.saves core.nvlog core.table"  # released when the saves close

    def __init__(self, nvm, reserve=None):
        if reserve is None:
            reserve = RESERVE
        self.nvm = nvm
        # No image buffer held through the games (4 KB at every table): the
        # store compacts when a match starts with less than ``reserve`` free
        # (the menus gone, the heap tidy) and here, at boot, when a game
        # kept in the saves leaves less than that: a compaction in the middle
        # of a game, which needs 4 KB in one piece from a heap that may be
        # fragmented (seen on the Pico), is then rare (tools/nvm_match.py).
        st = self.store = Store(nvm, reserve)
        self.state = st.load()
        self.notice = st.notice
        from pisti_app.util import drop_module
        drop_module("pisti_core.nvload")  # (the reader: needed again only at the next boot)
        if self.state != "reset" and st.free < reserve:
            st.compact()

    def flag(self, notice):
        if self.state == "ok":
            self.state = "recovered"
        if not self.notice:
            self.notice = notice

    @property
    def erases(self):
        """Sector erases so far: the nvm's own count when it keeps one (the
        desktop rig's), else those this store caused."""
        n = getattr(self.nvm, "erases", None)
        return self.store.erases_caused if n is None else n

    # -- settings ----------------------------------------------------------------
    def read_prefs(self, prefs):
        """Apply the saved settings to ``prefs``; True if there were some."""
        return _prefs().unpack(self.store.settings, prefs)

    def write_prefs(self, prefs):
        """Save the settings (no write when they did not change)."""
        self.store.put_settings(_prefs().pack(prefs))

    # -- ranking -------------------------------------------------------------------
    def read_ranking(self):
        """The saved ranking (empty when there is none or it does not read)."""
        from pisti_core.table import Ranking
        try:
            return Ranking.from_bytes(self.store.ranking)
        except ValueError:
            self.flag("nvm: the saved ranking did not read; it starts again")
            return Ranking()

    def write_ranking(self, ranking):
        """Save the ranking (T-2), stamp included."""
        self.store.put_ranking(ranking.to_bytes())

    # -- the game in progress ------------------------------------------------------
    def kept(self, below=None, stamp=-1):
        """The saved game as a GameSession, or None. A rated game whose
        number is the ranking's ``stamp`` was recorded already (its end was
        cut off): it is closed now. A game that does not replay is dropped."""
        st = self.store
        if st.game_header is None:
            return None
        from pisti_app.match import session_io  # (the reader: it unloads itself)
        try:
            s = session_io.restore(st.game_header, st.game_actions, below)
        except ValueError:
            self.flag("nvm: the saved game did not replay; it was dropped")
            st.end_game()
            return None
        if s.rated and s.number == stamp:
            st.end_game()
            return None
        return s

    def start(self, session):
        """Save the hand just dealt (its header: deck, totals, ...), before it is shown."""
        self.store.start_game(session.header())

    def add(self, actions):
        """Append action bytes of the hand in play, before their result is shown."""
        n = len(actions)
        i = 0
        while i < n:
            self.store.add_actions(actions[i:i + 254])
            i += 254

    def end(self):
        """No game in progress any more (the match ended or was left)."""
        self.store.end_game()
