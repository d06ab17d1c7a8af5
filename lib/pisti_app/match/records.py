# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.match.records`
=========================

What the console keeps, as the app holds it: the saves
(:class:`pisti_app.match.saves.Saves` on the nvm, T-6) opened when needed and
closed at the menus, the ranking (T-2) read from them when needed.
"""

from pisti_app.util import forget, release


class Records:
    """The records on ``nvm`` (``microcontroller.nvm``, or a bytearray on a
    board without one); ``erases``: sector erases the saves closed since
    boot caused."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.open = None  # the saves while open (T-6: a foreign or garbled nvm gives a clean start)
        self.ranking = None  # the ranking while read
        self.erases = 0

    @property
    def saves(self):
        """The saves, opened when needed: at the menus they are closed (:meth:`close`)."""
        sv = self.open
        if sv is None:
            from pisti_app.match.saves import Saves
            sv = self.open = Saves(self.nvm)
        return sv

    @property
    def rankings(self):
        """The ranking (T-2, per game, players and bot level), read from the saves when needed."""
        r = self.ranking
        if r is None:
            r = self.ranking = self.saves.read_ranking()
        return r

    def drop_rankings(self):
        """Forget the ranking and its module until next needed (it is in the saves)."""
        self.ranking = None
        forget("pisti_core.table")

    def close(self):
        """Drop the saves, the ranking and their modules (read again from the
        nvm when next needed; nothing is lost: every change was written at once)."""
        sv = self.open
        if sv is not None:
            self.erases += sv.store.erases_caused
            release(sv)
        self.open = None
        self.ranking = None
