# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.games`
=================

The game flow of :class:`pisti_app.app.App` (mixed in as :class:`GameFlow`):
starting, continuing and leaving games, the end of each hand, undo, and
what goes into the ranking and the saves on the way.

* Rated or practice (T-1): a rated game is numbered (the ranking's stamp
  + 1), timed (T-3) and ranked at its end (T-2); a practice game is never
  recorded and may be undone when the Undo setting is on.
* Leaving a rated game (T-4) -- Exit, a new game over one kept, or the
  timer running out -- is ranked by :func:`pisti_core.table.leave_outcome`;
  the person is told the cost first. Losing power is not leaving.
* Saves (T-6): a hand's header is written when it is dealt, before it is
  shown; actions are appended before their result is shown; a finished
  hand writes the statistics (:mod:`pisti_app.stats`), a finished rated
  match then the ranking, then the saved game ends.
"""

import gc
import random

from pisti_app import strings
from pisti_app.util import const

_CHECKING = const(0)  # true for tools/apicheck.py only: the board compiles its blocks away
if _CHECKING:  # GameFlow's methods are the App's (its mixin); names the board has interned already
    import pisti_app.app
    import pisti_app.session  # noqa: F401 (named in type comments only: the board has no typing module)


def seeded_below(n):
    """A uniformly random int below ``n`` from the seeded ``random`` module."""
    return random.randrange(n) if n > 1 else 0


class Kept:
    """What the menus need of the game kept to Continue (the game itself
    stays in the saves, T-6, and is restored from them on Continue): its
    game, players, levels, rated or not and number, totals, hands done."""

    def __init__(self, s):
        self.game = s.game
        self.players = s.players
        self.levels = s.levels
        self.rated = s.rated
        self.number = s.number
        self.totals = list(s.totals)
        self.hands_done = s.hands_done
        self.linked = s.linked


class GameFlow:
    """Game methods of the App (needs its session, saves, rankings, bots,
    screens and prefs)."""

    def _make_bots(self):  # type: (pisti_app.app.App) -> None
        s = self.session
        if _CHECKING:
            assert s
        self.bots = [None, None, None, None]
        outside = self.outside_bots
        for seat in range(s.players):
            lv = s.levels[seat]
            if lv is not None and not hasattr(outside.get(seat), "choose"):  # (a seat taken by an object: no
                from pisti_core.bots import make_bot  # bot code loaded for it, as in a link game, L-4)
                self.bots[seat] = make_bot(s.game, lv, random)
        seats = sorted(self.outside_bots)  # the outside-bot hook goes first
        for seat in seats:
            self._seat_outside(seat)

    def seat_bot(self, seat, bot):  # type: (pisti_app.app.App, int, object) -> None
        """The outside-bot hook: ``bot`` plays ``seat`` (0 is the person's)
        in this game, if one is on, and in every game started or continued
        later; ``None`` gives the seat back. ``bot`` is anything with
        ``choose(obs)``, or a factory ``bot(game, seat, players)`` returning
        one (or None to leave the seat as it is), called when a game starts.
        Safe before the first bot move: tables move bots on ``tick()`` only."""
        if bot is None:
            self.outside_bots.pop(seat, None)
            return
        self.outside_bots[seat] = bot
        if self.session is not None:
            self._seat_outside(seat)

    def _seat_outside(self, seat):  # type: (pisti_app.app.App, int) -> None
        s = self.session
        if _CHECKING:
            assert s
        if seat >= s.players:
            return
        bot = self.outside_bots[seat]
        if not hasattr(bot, "choose"):
            bot = bot(s.game, seat, s.players)
        if bot is not None:
            self.bots[seat] = bot

    def _table(self):  # type: (pisti_app.app.App) -> object
        if _CHECKING:
            assert self.session
        if self.session.game == "pisti":
            from pisti_app.pisti_table import PistiTable
            return PistiTable(self)
        from pisti_app.yedili_table import YediliTable
        return YediliTable(self)

    def start_game(self, game, players, levels, target=None, rated=False):  # type: (pisti_app.app.App, object, object, object, object, bool) -> None
        """A new match: the person at seat 0, bots at ``levels[1:]``. A rated
        game kept to Continue is left (T-4; the menus asked first)."""
        self.release()  # the menus go before the game comes
        self.drop_menus()
        self.session = None
        self.replace_kept()
        gc.collect()
        from pisti_app.session import GameSession
        number = 0
        if rated:
            number = (self.rankings.stamp + 1) & 0xFFFF
            self.drop_rankings()  # read again at the match's end
        self.play_session(GameSession.new(game, players, levels, target, self.below, rated, number))

    def replace_kept(self):  # type: (pisti_app.app.App) -> None
        """A new game (a link game too) takes the place of the game kept to
        Continue: a rated one is left (T-4; the menus asked first)."""
        if self.kept is not None:
            if self.kept.rated:
                self._leave(self.kept)
            self.kept = None

    def play_session(self, session, saved=False):  # type: (pisti_app.app.App, pisti_app.session.GameSession, bool) -> None
        """Sit down at ``session`` (a GameSession with a hand in play); unless
        it is ``saved`` already, its hand is saved first (T-6: the deal
        before it is shown)."""
        if not saved:
            self.saves.start(session)
            if session.hand.actions:
                self.saves.add(session.hand.actions)
        self.session = session
        self._make_bots()
        self.show(self._table())

    def leave_cost(self, s=None):  # type: (pisti_app.app.App, Kept | pisti_app.session.GameSession | None) -> tuple
        """T-4: (outcome, words) of leaving the rated game ``s`` now."""
        from pisti_core.table import leave_branch, leave_outcome
        s = s or self.session
        if _CHECKING:
            assert s
        args = (s.game, s.players, s.totals, s.hands_done, 0)
        out = leave_outcome(*args), strings.t("cost_" + leave_branch(*args))
        if self._rankings is None:
            self.forget("pisti_core.table")  # loaded for this only
        return out

    def _leave(self, s):  # type: (pisti_app.app.App, Kept | pisti_app.session.GameSession) -> None
        """Record leaving the rated game ``s`` (T-4) and drop it from the saves."""
        self._rank(s, self.leave_cost(s)[0])
        self.saves.end()
        self.count(s, True)

    def _close_table(self):  # type: (pisti_app.app.App) -> None
        top = self.stack[0] if self.stack else None
        if top is not None and top.name == "table":
            top.flush()  # bot moves saved but not yet shown belong to the hand

    def leave_game(self):  # type: (pisti_app.app.App) -> None
        """Exit from the pause menu: a practice game stays to Continue; a
        rated one is left (T-4) once the person confirms the cost."""
        s = self.session
        if _CHECKING:
            assert s
        if s.rated:
            t = strings.t
            self.ask(t("leave_q"), t("exit_leaves") + "\n" + self.leave_cost()[1],
                     self.leave_rated, t("keys_leave"), self.pop)
            return
        self._close_table()
        self.kept = Kept(s)  # the game itself is in the saves
        self.session = None
        self.drop_link()
        self.bots = [None, None, None, None]
        self.main_menu()

    def leave_rated(self):  # type: (pisti_app.app.App) -> None
        """Leave the rated game in play now: ranked per T-4, then the menu."""
        self._close_table()
        if _CHECKING:
            assert self.session
        self._leave(self.session)
        self.session = None
        self.drop_link()
        self.bots = [None, None, None, None]
        self.main_menu()

    def time_out(self):  # type: (pisti_app.app.App) -> None
        """T-3: the move timer ran out, which is leaving (T-4)."""
        t = strings.t
        cost = self.leave_cost()[1]
        self.leave_rated()
        self.sound.play("lose", self.now)
        self.ask(t("time_up"), t("time_left") + "\n" + cost, self.main_menu, t("keys_ok"))

    def continue_game(self):  # type: (pisti_app.app.App) -> None
        """Back to the game kept (left in practice, or cut off by power loss)."""
        self.kept = None
        self.release()
        self.drop_menus()
        s = self.saves.kept(self.below, self.rankings.stamp)
        if s is None:  # cannot happen: the saves were read at boot
            self.main_menu()
            return
        self.drop_rankings()  # read again at the match's end (as a new game's: start_game)
        if s.game == "yedili":  # the largest module first, while the heap is in the fewest pieces
            from pisti_app import yedili_table  # noqa: F401 (compiled now, while the heap is in the fewest pieces)
        else:
            from pisti_app import pisti_table  # noqa: F401 (compiled now, while the heap is in the fewest pieces)
        if s.linked:  # L-9: a power cut is not leaving; the link is opened again
            self.linked_boot = True
            import pisti_app
            if not pisti_app.restarts():  # (kept: see count; a board's restarted heap compiles it at a hand's end)
                from pisti_app import stats  # noqa: F401 (compiled now and kept: see count)
            from pisti_app import linkends
            if not linkends.resume(self, s):
                return
            self.forget("pisti_app.linkends")  # (loaded again for the link's rare turns)
        self.play_session(s, True)

    def undo(self):  # type: (pisti_app.app.App) -> bool
        """Practice with undo on (T-1): back to the person's previous
        decision, replaying the hand's record; False if there is none."""
        from pisti_app.session import UNDO, undo_point
        s = self.session
        if s is None or s.rated or not self.prefs["undo"]:
            return False
        self._close_table()
        if s.hand is None or undo_point(s.hand) < 0:
            return False
        self.saves.add(bytes((UNDO,)))  # saved first, as every action
        s.undo()
        self.release()
        self.show(self._table())
        return True

    def hand_over(self):  # type: (pisti_app.app.App) -> None
        """The hand in play ended: score it, save the next deal (before it is
        shown) or the match's result, show the breakdown."""
        s = self.session
        if _CHECKING:
            assert s
        if self.link is not None:
            self.link.tick(self.now, s.hand, b"", False)  # the hand's last actions go out first
        self.later(self._hand_end)

    def _hand_end(self):  # type: (pisti_app.app.App) -> None
        self.release()  # the table goes first: the statistics' code compiles in its room
        if self.link is not None:  # (a bot's observation code, ~1 KB: compiled again at its next decision;
            self.forget("pisti_core.yedili_obs", "pisti_core.pisti_obs")  # a link hand's end is tight on a Pico)
        s = self.session
        if _CHECKING:
            assert s
        s.end_hand()
        self.count(s)  # before the next deal or the end is saved: see pisti_app.stats
        if s.over:
            if s.rated:
                from pisti_core.table import match_outcome
                s.outcome = match_outcome(s.game, s.players, s.match.totals, 0)  # T-2
                self._rank(s, s.outcome)
            if self.link is None:  # (a link game's save ends once the link has sent its last action, L-9)
                self.saves.end()
        elif s.hand is not None:  # (a link game's next deal comes from the link: saved then)
            self.saves.start(s)
        from pisti_app.results import HandEnd
        self.show(HandEnd(self))

    def next_hand(self):  # type: (pisti_app.app.App) -> None
        """From the breakdown: the next hand's table, or the match end (built
        once the breakdown is gone: :meth:`later`). In a link game the next
        hand waits for the link's deal (L-3): ``LinkPlay.app_tick``."""
        s = self.session
        if s is not None and self.link is not None and not s.over and s.hand is None:
            self._want_next = True
            self.link.app_tick(self, self.now)
            return
        self.later(self._next_hand)

    def _next_hand(self):  # type: (pisti_app.app.App) -> None
        s = self.session
        if _CHECKING:
            assert s
        self.release()
        if s.over:
            if self.link is not None and self.link.ended:  # (its last action delivered: the link's code goes
                self.drop_link()  # before the match end's is compiled, seen short of memory on a Pico)
            from pisti_app.match_end import MatchEnd
            self.show(MatchEnd(self, s.outcome[0] if s.outcome else None))
        else:
            s.last = None  # the breakdown is gone: its hand need not stay through the next one
            self.forget("pisti_app.results", "pisti_app.wrap")
            self.show(self._table())

    def end_match(self):  # type: (pisti_app.app.App) -> None
        """From the match end back to the main menu (once the screen is gone)."""
        self.later(self._end_match)

    def _end_match(self):  # type: (pisti_app.app.App) -> None
        self.drop_link()  # (with the session still there: its save ends, L-9)
        self.session = None
        self.bots = [None, None, None, None]
        self.main_menu()

    def drop_link(self):  # type: (pisti_app.app.App) -> None
        """The link game is over or left (:meth:`pisti_app.remote.LinkPlay.close`)."""
        if self.link is not None:
            self.link.close(self)

    def count(self, s, left=False):  # type: (pisti_app.app.App, Kept | pisti_app.session.GameSession, bool) -> None
        """The statistics (:mod:`pisti_app.stats`, loaded for this only) of
        the hand just ended in ``s``, or of the rated match ``s`` left; never
        for a demo. A link game played in place (a desktop rig, the gauge)
        keeps the module until the link closes, loaded as it starts beside
        the table's: a hand's end finds the link table's heap in too many
        pieces to compile it, even with the table closed (a Pis Yedili 4p
        guest). On the board a link game runs on
        the fresh heap of a restart (:func:`pisti_app.restarts`), where the
        module is compiled at each hand's end, with the table closed, and
        forgotten again, so no link table holds it (about 2.4 KB)."""
        from pisti_app import stats
        stats.count(self, s, left)
        import pisti_app
        if self.link is None or pisti_app.restarts():
            self.forget("pisti_app.stats")

    def _rank(self, s, outcome):  # type: (pisti_app.app.App, Kept | pisti_app.session.GameSession, object) -> None
        """Record a rated result (T-1) under the game, players and bot level;
        a match against mixed levels counts under its strongest bot, a link
        game under "person" (L-10). The
        ranking's stamp becomes the game's number (recorded once only)."""
        if outcome is None or not s.rated:
            return
        lv = "acemi"
        for v in s.levels:
            if v in ("kalfa", "usta") and (lv == "acemi" or v == "usta"):
                lv = v
        if s.linked:
            lv = "person"  # L-10: a rated link game is ranked against a person, a table of its own
        r = self.rankings
        r.record(s.game, s.players, lv, outcome)
        r.stamp = s.number
        self.saves.write_ranking(r)
        self.drop_rankings()
