# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.linkmenu`
=========================

Link play from the main menu (RULES.md L-1, L-2): Host offers the game set
up on its screen (the New game rows, :meth:`pisti_app.screens.menus.Menus.host`: the
guest sits at seat 1, or at 2 -- the host's partner -- in a Pişti 4p with
People on Partners; bots in the other seats); Join waits for an offer,
shows it, and joins (A) or declines (B). Loaded only when chosen; the link
modules go with it when the link game ends (:func:`pisti_app.link.linkends.close`).
"""

from pisti_core import GAMES, TARGETS, TEAMS

from pisti_app.texts import strings
from pisti_app import util
from pisti_app.screens.confirm import Confirm
from pisti_app.util import forget, release

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")
FIRMWARE = "pisti"


class LinkWait(Confirm):
    """Waiting for the other console (B gives up, A does nothing): runs the
    link and moves on when it has something to show. It says what the other
    console's player chooses (Link play > Join for a host's, > Host for a
    guest's); a long wait says what is missing: nobody on the cable yet (the
    other console not there, or no cable) -- it waits on --, or, hosting,
    the other player still deciding on the offer."""

    name = "link"

    def __init__(self, app, key="link_wait", asked=False):
        t = strings.t
        text = t(key)
        if "%" in text:  # the other console's row: Join for a host's, Host for a guest's
            from pisti_core import linkproto as P
            text = text % t("link_join" if app.link.lock.role == P.HOST else "link_host")
        super().__init__(app, t("link_play"), text, self.stay, t("keys_giveup"), self.cancel)
        self.key_text = key
        self.asked = asked

    def stay(self):
        """A: nothing (the wait goes on)."""

    def cancel(self):
        quit_link(self.app)

    def status(self, st):
        super().status(st)
        st["waiting"] = self.key_text

    def tick(self, now):
        app = self.app
        if app.link is None:  # given up (a key, a failure): the main menu is on its way
            return
        lk = app.link.lock  # (run by the App's tick: LinkSetup.tick)
        from pisti_core import linkgame as G
        from pisti_core import linkproto as P
        if lk.phase == G.PLAY:
            app.later(start_link_game, app)
        elif lk.phase == G.OFFERED and not self.asked:
            self.asked = True
            s = lk.setup
            t = strings.t
            text = t("link_offer") % (t(s.game), s.players, s.target, t("rated") if s.rated else t("practice"))
            if s.players in TEAMS[GAMES.index(s.game)]:  # the host's seats for the two people
                text = text + "\n" + t("link_partners" if s.guest_seat == 2 else "link_opponents")
            if lk.peer_pos is not None:  # the host's game is under way: its record gives the seat (L-9)
                text = text + "\n" + t("link_in_play") % (lk.peer_pos[0] + 1)
            app.ask(t("link_play"), text, lambda: _join(app), t("keys_new"), lambda: _decline(app))
        elif lk.phase == G.DECLINED and self.asked:  # this console declined: once the host has heard it
            if lk.chan.idle() or self.asked > 100:
                quit_link(app)
            self.asked += 1
        elif lk.phase == G.FAILED:
            app.later(fail_link, app, strings.t("link_failed") + "\n" + lk.error.text)
        elif lk.phase == G.DECLINED:
            app.later(fail_link, app, strings.t("link_declined"))
        else:
            why = lk.unanswered(now)
            if why == "noise":  # bytes that are no pisti frame: another program, another baud rate (L-1)
                app.later(fail_link, app, strings.t("link_noise"))
                return
            key = self.key_text
            if why == "silent":
                key = "link_silent"
            elif lk.phase == G.SETUP and lk.role == P.HOST:
                # a guest whose hello named a game holds another link game: it joins only its own
                key = "link_busy" if lk.peer_pos is not None else "link_asked"
            if key != self.key_text:  # say what the wait is for now
                self.key_text = key
                app.later(_wait_again, app, key)


def _wait_again(app, key):
    if app.link is not None and app.screen.name == "link":
        app.pop()
        app.push(LinkWait(app, key))


def _join(app):
    if app.link is not None:
        app.play.answer(True)
    app.pop()


def _decline(app):
    if app.link is not None:
        app.play.answer(False)
    app.pop()  # the waiting screen sends the answer, then goes


def fail_link(app, text):
    """No link game: the main menu, under a notice saying why (run at the end
    of a tick, :meth:`App.later`)."""
    _drop(app)
    app.main_menu()
    app.ask(strings.t("link_play"), text, app.pop, strings.t("keys_ok"))


def _drop(app):
    p = app.play
    if p is not None and p.link is not None:
        release(p.link)
        p.link = None


def quit_link(app):
    """Give the link up: back to the main menu."""
    _drop(app)
    app.later(app.main_menu)


def _open(app, uart):
    if uart is None:
        from pisti_app.link.linkport import open_uart
        forget("pisti_app.link.linkport")  # (its work is done once the port is open)
        try:
            uart = open_uart()
        except (ValueError, ImportError, AttributeError) as e:
            app.ask(strings.t("link_play"), str(e), app.pop, strings.t("keys_ok"))
            return None
    return uart


def link_key(app):
    """The link game's key: every hand's bytes come from it (L-3). The secure
    source (T-6); with PISTI_SEED the seeded chance, so a seeded run repeats."""
    if app.below is None:
        import os
        return os.urandom(16)
    return bytes([app.below(256) for _ in range(16)])


class LinkSetup:
    """The link while it is set up, no game yet: the App ticks it as it ticks
    a match (:class:`pisti_app.match.play.Play`, whose code waits for the game)."""

    NEEDS = "link.linkmenu"
    session = None
    timer = None

    def __init__(self, app, link):
        self.app = app
        self.link = link
        self.seats = [None, None, None, None]
        self.queue = []
        self.want_next = False
        self.link_secs = -1

    def tick(self, now):
        """The link (:meth:`pisti_app.link.remote.LinkPlay.app_tick`)."""
        if self.link is not None:
            self.link.app_tick(self, now)

    def answer(self, yes):
        """This console's person joins the offered game (L-2), or declines it."""
        if self.link is not None:
            self.link.lock.answer(yes)


def _lock(app, port, role, setup):
    """The link set up (no game yet), run every tick."""
    from pisti_app.link.remote import LinkPlay
    from pisti_core import linkgame as G
    app.play = LinkSetup(app, LinkPlay(G.Lockstep(port, role, FIRMWARE, app.now, setup, LEVELS, key=link_key(app))))
    app.push(LinkWait(app))


def host(app, uart=None):
    """Host: offer the Host screen's game (the prefs' New game rows) to the
    console on the cable; in a Pişti 4p the two people sit as partners
    (seats 0 and 2) against two bots, or as opponents (0 and 1), each with
    a bot partner, as the prefs' ``partners`` says."""
    uart = _open(app, uart)
    if uart is None:
        return
    from pisti_core import linkproto as P
    p = app.prefs
    n = p["players"]
    g = GAMES.index(p["game"])
    guest = 2 if n in TEAMS[g] and p["partners"] else 1
    levels = [None]
    k = 0
    for seat in range(1, n):
        if seat == guest:
            levels.append(None)
        else:
            levels.append(p["seats"][k])
            k += 1
    target = p["target"] if p["target"] in TARGETS[g] else None  # (as Menus.start)
    setup = P.Setup(p["game"], n, target, p["rated"], guest, levels,
                    p["timer"])  # T-3: the host's move timer, for both people (L-10)
    _lock(app, uart, P.HOST, setup)  # L-2: it offers ``setup`` when the guest says hello


def join(app, uart=None):
    """Join the two-console link on ``uart`` (the Join of the menu listens
    on both cables first: :func:`pisti_app.link.ringmenu.listen`): wait
    for the host's offer."""
    uart = _open(app, uart)
    if uart is None:
        return
    from pisti_core import linkproto as P
    _lock(app, uart, P.GUEST, None)  # it answers the offer: link.lock.answer(True)


def start_link_game(app, link_info=None):
    """Both joined (every person, in a ring), the first hand dealt by the link
    (L-3, L-14): sit down, each console numbering the seats from its own
    person; ``link_info`` what the save keeps of the link (default the
    two-console link's, :func:`pisti_app.link.remote.link_info`)."""
    from pisti_app.match import begin as P
    from pisti_app.match.session import GameSession
    from pisti_core.match import Match
    p = app.play
    link = p.link
    lk = link.lock
    s = lk.setup
    levels = []
    for seat in range(s.players):
        lv = s.levels[(seat + lk.rot) % s.players]
        levels.append(None if seat == 0 else (lv if lv in ("acemi", "kalfa", "usta") else "acemi"))
    base = lk.hands_done
    acts = lk.match.hand.actions
    if base or acts:  # a seat taken in a game under way: the link's record (L-9, L-17)
        from pisti_core.linkproto import load
        from pisti_core.linkrec import record
        m = load(record(lk.match, base, lk.rot), lk.rot)[0]
    else:
        m = Match(s.game, s.players, s.target, lk.match.first_dealer)
        m.deal(link.deck(0))
    P.replace_kept(app)  # (the menus asked first; its T-4 result is ranked before this game is numbered)
    sess = GameSession(m, levels, s.rated, P.number(app, s.rated), base)
    sess.linked = True
    if link_info is None:
        from pisti_app.link.remote import link_info
    sess.link_info = link_info(lk)  # saved with the game: a power cut is not leaving (L-9, L-17)
    if util.restarts():
        # On the board: saved, then a restart into it, as after a power cut (L-9; the screen
        # stays until run() restarts). The table gets a fresh heap in one piece, without the
        # names the menus and the link's set-up interned (the board never frees one).
        app.saves.start(sess)
        if acts:
            app.saves.add(acts)
        app.restart = True
        return
    app.release()
    app.drop_menus()
    if s.game == "yedili":  # the largest module first, while the heap is in the fewest pieces
        from pisti_app.screens import yedili_table  # noqa: F401 (compiled now, while the heap is in the fewest pieces)
    else:
        from pisti_app.screens import pisti_table  # noqa: F401 (compiled now, while the heap is in the fewest pieces)
    from pisti_app.match import stats  # noqa: F401 (compiled now and kept: see pisti_app.match.ends.keeps_stats)
    P.sit(app, sess, False, link)
    forget("pisti_app.link.linkmenu", "pisti_app.match.begin")  # (the game needs none of it: the heap of a link table
                                                                # is tight)
