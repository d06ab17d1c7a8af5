# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.ringmenu`
=========================

Link play of three or four consoles in a ring, set up from the main menu
(RULES.md L-11, L-12), and the Join of any link game:

* Join (:func:`listen`) opens both cables and listens, saying nothing,
  until a host's hello tells which link it runs: the two-console link
  (L-1) on the cable it came on, or the ring on both;
* Host, with three or four consoles on its Host screen (:func:`host`),
  waits until it hears that many consoles round the ring, seats their
  people in ring order (the console on its first cable next), the rest
  bots, and offers the table;
* a guest sees the whole table (who sits where, which seats are bots)
  before it joins (A) or declines (B); the game starts once every person
  joined and the first hand is dealt (:func:`start_ring_game`).

Loaded only while a link game is set up.
"""

from pisti_core import GAMES, TARGETS, TEAMS
from pisti_core import linkrec as G
from pisti_core.linkchan import ticks_diff

from pisti_app.link import linkmenu
from pisti_app.screens.confirm import Confirm
from pisti_app.texts import strings
from pisti_app.util import forget

_SILENT_MS = 3000  # Join: nothing heard this long: say what the wait is for
_PLACE_MS = 3000  # Host: every console heard, a neighbour's cable not: the table waits this long at most


def _open(app):
    """Both cables' UARTs, or None (the main menu says why)."""
    from pisti_app.link.linkport import open_ring
    try:
        return open_ring()
    except (ValueError, ImportError, AttributeError, RuntimeError) as e:
        app.ask(strings.t("link_play"), str(e), app.pop, strings.t("keys_ok"))
        return None
    finally:
        forget("pisti_app.link.linkport")  # (its work is done once the ports are open)


class Listen(Confirm):
    """Join: both cables listened to, nothing said, until a host's hello
    names its link (B gives up)."""

    name = "link"

    def __init__(self, app, ports, key="link_wait"):
        t = strings.t
        super().__init__(app, t("link_play"), t(key) % t("link_host"), self.stay, t("keys_giveup"), self.cancel)
        from pisti_core.linkframe import Decoder
        self.ports = ports
        self.decoders = [Decoder(), Decoder()]
        self.since = app.now
        self.key_text = key

    def stay(self):
        """A: nothing (the wait goes on)."""

    def cancel(self):
        self.close_ports()
        linkmenu.quit_link(self.app)

    def close_ports(self):
        """Both cables let go (given up, or another program on one)."""
        ports = self.ports
        self.ports = None
        if ports is not None:
            for p in ports:
                p.deinit()

    def status(self, st):
        super().status(st)
        st["waiting"] = self.key_text

    def tick(self, now):
        ports = self.ports
        if ports is None:
            return
        from pisti_core.linkchan import HELLO
        for i in range(2):
            p = ports[i]
            n = p.in_waiting
            data = p.read(n) if n else None
            if not data:
                continue
            for f in self.decoders[i].feed(data):
                pl = f.payload
                if f.typ & 0x7F == HELLO and len(pl) > 3 and pl[0:2] == b"PS" and self.heard(i, pl[2], pl[3]):
                    return
        late = ticks_diff(now, self.since) > _SILENT_MS
        if late and (self.decoders[0].noise or self.decoders[0].bad or self.decoders[1].noise
                     or self.decoders[1].bad):  # bytes that are no pisti frame: another program, baud rate (L-1)
            self.close_ports()
            self.app.later(linkmenu.fail_link, self.app, strings.t("link_noise"))
        elif late and self.key_text == "link_wait":
            self.key_text = "link_silent"
            self.app.later(_listen_again, self.app, ports)
            self.ports = None

    def heard(self, i, protocol, role):
        """A hello on cable ``i``: True when it decides the link (the ports go on to it)."""
        from pisti_core.ringdefs import RING_PROTOCOL
        app = self.app
        ports = self.ports
        if ports is None:
            return True
        if protocol == RING_PROTOCOL:
            self.ports = None
            app.pop()
            _ring(app, ports, G.GUEST)
            return True
        if role != G.HOST:
            return False  # another console listening or joining: the host's hello decides
        self.ports = None
        ports[1 - i].deinit()
        app.pop()  # the two-console link on cable i (another protocol is L-1's typed error there)
        linkmenu.join(app, ports[i])
        forget("pisti_app.link.ringmenu")  # (a two-console game needs none of it)
        return True


def _listen_again(app, ports):
    if app.screen.name == "link":
        app.pop()
        app.push(Listen(app, ports, "link_silent"))
    else:
        for p in ports:
            p.deinit()


def listen(app):
    """Join: listen on both cables for a host (:class:`Listen`)."""
    ports = _open(app)
    if ports is not None:
        from pisti_app.link.linkmenu import LinkSetup
        app.play = LinkSetup(app, None)
        app.push(Listen(app, ports))


def _ring(app, ports, role):
    """The ring set up (no game yet), run every tick."""
    from pisti_app.link.linkmenu import LinkSetup
    from pisti_app.link.ringplay import RingLink, RingPlay, ring_urandom
    lk = RingLink(ports, role, linkmenu.FIRMWARE, app.now, None, None, linkmenu.LEVELS, ring_urandom(app))
    app.play = LinkSetup(app, RingPlay(lk))
    app.push(RingWait(app))


def host(app):
    """Host a table for the Host screen's consoles (three or four, L-12)."""
    ports = _open(app)
    if ports is not None:
        _ring(app, ports, G.HOST)


def table(app, lk, now):
    """The host's table once enough consoles are heard, else None: its
    person at seat 0, then the others' people in ring order (the console
    on the first cable next, the one on the second last), the bots at the
    Host screen's levels in the seats left (three people at four seats:
    the bot in the Host screen's seat)."""
    from pisti_core import ringview as V
    from pisti_core.ringproto import RingSetup
    p = app.prefs
    n = p["players"]
    k = min(p["consoles"], n)
    heard = V.consoles(lk, now)[1:]
    if len(heard) < k - 1:
        return None
    first, last = lk.neighbours
    heard.sort()
    order = [c for c in heard if c == first] + [c for c in heard if c != first and c != last]
    order = (order + [c for c in heard if c == last and c != first])[:k - 1]
    people = [lk.me] + order + [0] * (n - k)
    if k == 3 and n == 4:  # the Host screen's seat for the one bot
        people.insert(p["bot_seat"], people.pop())
    levels = [None if c else p["seats"][0] for c in people]  # (one bot at most: three people or more)
    g = GAMES.index(p["game"])
    target = p["target"] if p["target"] in TARGETS[g] else None  # (as Menus.start)
    return RingSetup(p["game"], n, target, p["rated"], people, levels, p["timer"])


def describe(lk):
    """The table as a guest sees it before it joins: the game, then every
    seat from the host's round: the host, you, a friend, or a bot's level."""
    t = strings.t
    s = lk.setup
    seats = []
    for j in range(s.players):
        cid = s.people[j]
        who = t("you") if cid == lk.me else t("ring_host_seat") if j == 0 else t("friend") if cid \
            else t("lv_" + s.levels[j]) if s.levels[j] in ("acemi", "kalfa", "usta") else s.levels[j]
        seats.append("%d %s" % (j + 1, who))
    text = t("ring_offer") % (t(s.game), s.players, s.target, t("rated") if s.rated else t("practice"),
                              ", ".join(seats))
    if s.players in TEAMS[GAMES.index(s.game)]:
        text = text + " " + t("ring_teams")
    return text


class RingWait(Confirm):
    """The ring while its table is set (B gives up): the host waits for
    the consoles, then for their people to join; a guest for the table,
    shown whole (A joins, B declines), then for the others."""

    name = "link"

    def __init__(self, app, text=None, key="ring_wait"):
        t = strings.t
        super().__init__(app, t("link_play"), text or t("ring_wait_host"), self.stay, t("keys_giveup"),
                         self.cancel)
        self.key_text = key
        self.asked = 0  # the tag of the table last shown to this console's person
        self.waited = 0  # ticks since this console declined
        self.placed = 0  # when every console was heard but a neighbour's cable not yet

    def stay(self):
        """A: nothing (the wait goes on)."""

    def cancel(self):
        linkmenu.quit_link(self.app)

    def status(self, st):
        super().status(st)
        st["waiting"] = self.key_text

    def tick(self, now):
        app = self.app
        link = app.play.link if app.play is not None else None
        if link is None:
            return
        lk = link.lock
        t = strings.t
        ph = lk.phase
        if lk.started and ph == G.PLAY:
            app.later(start_ring_game, app)
            return
        if ph == G.FAILED:
            app.later(linkmenu.fail_link, app, t("link_failed") + "\n" + lk.error.text)
            return
        if ph == G.DECLINED:
            if lk.role == G.HOST:
                app.later(linkmenu.fail_link, app, t("ring_declined"))
            elif lk.net.idle() or self.waited > 100:
                linkmenu.quit_link(app)  # this console declined: once the ring has taken the answer
            else:
                self.waited += 1
            return
        if ph == G.OFFERED:
            if self.asked != lk.tag:  # (a table set again, its people's ids new: shown again)
                self.asked = lk.tag
                app.ask(t("link_play"), describe(lk), lambda: _answer(app, True), t("keys_new"),
                        lambda: _answer(app, False))
            return
        key, text = self.key_text, None
        if lk.role == G.HOST and lk.setup is None or ph == G.SETUP:
            from pisti_core import ringview as V
            heard = V.consoles(lk, now)
            tb = None
            if lk.setup is None or [c for c in lk.setup.consoles() if c not in heard]:
                tb = table(app, lk, now)  # (again once a console seated drew another id, L-11: the new one seated)
            if tb is not None and not (lk.neighbours[0] and lk.neighbours[1]):
                self.placed = self.placed or now  # (a neighbour's cable not heard yet: its place in the ring waits
                if ticks_diff(now, self.placed) < _PLACE_MS:  # a moment, then the table goes without it)
                    tb = None
            if tb is not None and (lk.setup is None or tb.people != lk.setup.people):
                lk.offer(tb)
            elif lk.setup is None:
                k = min(app.prefs["consoles"], app.prefs["players"])
                key = "ring_wait%d" % len(heard)
                text = t("ring_wait") % (len(heard), k)
        if lk.setup is not None and ph in (G.SETUP, "joined"):
            n = len(lk.setup.consoles())
            key = "ring_joined%d" % len(lk.joined)
            text = t("ring_joined") % (len(lk.joined), n)
        elif lk.watching is not None:
            key = "ring_watching"
            text = t("ring_watching")
        if key != self.key_text and text is not None:
            self.key_text = key
            app.later(_wait_again, app, text, key)


def _wait_again(app, text, key):
    if app.play is not None and app.play.link is not None and app.screen.name == "link":
        app.pop()
        app.push(RingWait(app, text, key))


def _answer(app, yes):
    if app.play is not None and app.play.link is not None:
        app.play.answer(yes)
    app.pop()


def start_ring_game(app):
    """Every person joined, the first hand dealt (L-14): sit down
    (:func:`pisti_app.link.linkmenu.start_link_game`, the ring saved as
    :func:`ring_info`)."""
    linkmenu.start_link_game(app, ring_info)
    forget("pisti_app.link.ringmenu")  # (the game needs none of it)


def ring_info(lock):
    """What a ring game's save keeps of its ring (L-17): ``(role, seat,
    timer, key, ring id, session byte, people)``, the seat and the people
    (a console id per seat, 0 for a bot) in the host's numbering
    (:attr:`pisti_app.match.session.GameSession.link_info`)."""
    s = lock.setup
    return (lock.role, lock.rot, s.timer, bytes(lock.key), lock.me, lock.net.ses, bytes(s.people))
