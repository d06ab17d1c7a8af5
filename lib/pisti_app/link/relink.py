# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.relink`
=======================

A link game kept in the saves, opened again after a boot (RULES.md L-9,
L-17: a power cut is not leaving): the cable opened, the link's
:class:`pisti_core.linkgame.Lockstep` restored from the save
(:func:`resume_lock`), and the other console's hello answered before the
table is built (:func:`greet`); a ring game's two cables and its
:class:`pisti_core.ringgame.RingLock` (:func:`resume_ring`). Loaded for
this only.
"""

from pisti_app.texts import strings
from pisti_app.util import forget, release, restarts

FIRMWARE = "pisti"
LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def resume_lock(port, session, firmware, now, levels, urandom=None, lean=None):
    """The Lockstep of the link game ``session`` restored from the saves
    (L-9): its setup from the save, its game as the save has it (the one
    behind catches up from the other's record)."""
    from pisti_core import linkgame as G
    from pisti_core import linkproto as P
    role, gseat, timer, key = session.link_info
    n = session.players
    rot = gseat if role == P.GUEST else 0
    lv = [None] * n
    for seat in range(n):  # the save's levels are local: host seat j is local (j - rot) % n
        j = (seat + rot) % n
        if j != 0 and j != gseat:
            lv[j] = session.levels[seat] or "acemi"
    setup = P.Setup(session.game, n, session.match.target, session.rated, gseat, lv, timer)
    rec = P.record(session.match, session.hands_done, rot)
    if urandom is None:
        import os
        urandom = os.urandom
    return G.Lockstep.resume(port, role, firmware, now, setup, rec, None, levels, urandom, key=key, lean=lean)


def resume_ring(lock, ports, session, firmware, now, levels, urandom):
    """A ``lock`` (:class:`pisti_core.ringgame.RingLock`'s class or a subclass)
    of the ring game ``session`` restored from the saves (L-17): its ring
    id, key and table as saved, its game as the save has
    it (a console behind catches up from another's record), a session
    byte other than the boot before's."""
    from pisti_core.linkrec import record
    from pisti_core.ringproto import RingSetup
    role, rot, timer, key, me, ses, people = session.link_info
    n = session.players
    lv = [None] * n
    for seat in range(n):  # the save's levels are local: host seat j is local (j - rot) % n
        j = (seat + rot) % n
        if not people[j]:
            lv[j] = session.levels[seat] or "acemi"
    setup = RingSetup(session.game, n, session.match.target, session.rated, list(people), lv, timer)
    rec = record(session.match, session.hands_done, rot)
    return lock.resume(ports, role, firmware, now, me, key, setup, rec, levels, urandom, ses)


def resume(app, session, uart=None):
    """The link of the game ``session`` after a boot (L-9): the cable
    opened again and the link restored from the save, its other console's
    hello answered (:func:`greet`); None when the cable cannot be opened:
    the game stays kept (nothing saved is touched) and the main menu says why."""
    ring = len(session.link_info) > 4
    if uart is None:
        from pisti_app.link.linkport import open_ring, open_uart
        forget("pisti_app.link.linkport")
        try:
            uart = open_ring() if ring else open_uart()
        except (ValueError, ImportError, AttributeError, RuntimeError) as e:
            from pisti_app.link.remote import LinkPlay
            from pisti_app.match.saves import keep
            app.kept = keep(session)
            release(LinkPlay)
            app.main_menu()
            app.ask(strings.t("link_play"), str(e), app.pop, strings.t("keys_ok"))
            return None
    if ring:
        from pisti_app.link.ringplay import RingLink, RingPlay, ring_urandom
        link = RingPlay(resume_ring(RingLink, uart, session, FIRMWARE, app.now, LEVELS, ring_urandom(app)))
        if restarts():  # (the board: every console boots into the game at once; the neighbours' hellos first)
            greet(link.lock)
        return link
    from pisti_app.link.remote import LinkPlay
    link = LinkPlay(resume_lock(uart, session, FIRMWARE, app.now, LEVELS, lean=False))
    greet(link.lock)
    return link


def greet(lk, clock=None, pause=None, lean=None):
    """L-9, a boot into a link game (every link match starts with one, on both
    consoles at once, after its first deal): the other console's hello is
    answered here, before the table is built and while the code between
    hands is still loaded; then that code goes (``lean``, the board's
    default). Answered at the table, it would be compiled again for it:
    ~340 ms in which a key waits. At most ~2 s (the other console may be
    off or unplugged: the table then says so); ``clock`` gives ms
    (``supervisor.ticks_ms``), ``pause`` waits a moment between looks (5 ms
    on the board, none on the desktop, whose clock may be virtual). A
    ring's lock (:class:`pisti_app.link.ringplay.RingLink`) reads the same:
    its ``sessions`` are both neighbours' hellos (L-17)."""
    import sys
    from pisti_core import linkrec as G
    from pisti_core.linkchan import ticks_diff
    board = sys.implementation.name != "cpython"
    if clock is None:
        import supervisor
        clock = supervisor.ticks_ms
    if pause is None and board:
        import time
        pause = time.sleep
    start = clock()
    for _ in range(400):
        now = clock()
        if lk.sessions or lk.phase == G.FAILED or ticks_diff(now, start) >= 2000:
            break
        lk.poll(now)
        if pause is not None:
            pause(0.005)
    lk.lean = board if lean is None else lean
    if lk.lean and (lk.phase == G.PLAY or lk.phase == G.OVER):
        lk.shed()
