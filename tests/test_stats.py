# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Statistics: per game, matches and hands played and
won, piştis and Jack piştis made (Pişti, P-9), the current and best winning
streak; practice and rated alike (T-1), a rated match left is a loss
(T-4); kept in the saves in a record of their own that survives power cuts
(T-6) and, when it does not read, resets alone with a clear notice; shown
on pages beside the rankings in both languages and on both displays."""

import pytest

from test_app_match import First

from pisti_app.match import stats
from pisti_app.status import STATS
from pisti_core.match import new_hand
from pisti_core.crc import crc16
from pisti_core.nvlog import Store
from tools.shims.nvm import FlashNvm, PowerCut

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

ZERO = {"pisti": dict.fromkeys(STATS, 0), "yedili": dict.fromkeys(STATS[:4] + STATS[6:], 0)}


def until(d, cond, limit_ms=600000):
    """Run the app until ``cond(app)`` holds (the app itself, not status():
    cheaper); fail after ``limit_ms`` of virtual time."""
    for _ in range(limit_ms // 10):
        if cond(d.app):
            return d.app.status()
        d.run(10)
    raise AssertionError("still waiting: %r" % d.app.status())


def screen(name):
    return lambda app: app.screen.name == name


def expected(history, game, players, won_match=None, before=None):
    """The statistics a match's hand records give, replayed apart from the
    app (P-9 piştis of side 0; Pis Yedili: seat 0 went out, Y-12)."""
    want = before or {"pisti": dict(ZERO["pisti"]), "yedili": dict(ZERO["yedili"])}
    r = want[game]
    for dealer, deck, acts, pts in history:
        h = new_hand(game, players, dealer, deck)
        for a in acts:
            h.apply(a)
        assert h.over
        r["hands"] += 1
        if game == "pisti":
            r["pistis"] += h.pistis[0]
            r["jack_pistis"] += h.jpistis[0]
            r["hands_won"] += pts[0] > pts[1]
        else:
            r["hands_won"] += h.winner == 0
    if won_match is not None:
        r["matches"] += 1
        r["won"] += won_match
        r["streak"] = r["streak"] + 1 if won_match else 0
        r["best"] = max(r["best"], r["streak"])
    return want


def play_match(d, game, players, levels, target=None, rated=False, totals=None):
    """A whole match through the app, the person's seat played by First;
    returns (status at the match end, the match's hand records)."""
    d.app.start_game(game, players, list(levels), target, rated)
    m = d.app.session.match
    if totals is not None:
        m.totals[:] = totals
    hands = []
    for _ in range(40):
        d.app.bots[0] = First()
        st = until(d, lambda app: app.screen.name != "table")
        assert st["screen"] == "hand_end", st
        hands.append(d.app.session.match.history[-1])
        d.settle()  # (the hand end drops keys for a moment)
        d.press("A")
        st = until(d, lambda app: app.screen.name in ("table", "match_end"), 5000)
        if st["screen"] == "match_end":
            d.settle()
            return d.status(), hands
    raise AssertionError("no match end")


def test_a_whole_pisti_match_and_one_hand_matches_are_counted(device):
    d = device(PISTI_SEED=6, PISTI_DELAY=0)
    d.press("A")
    assert d.status()["stats"] == ZERO
    st, hands = play_match(d, "pisti", 2, (None, "acemi"), 101)
    m = d.app.session.match
    won = m.winners() == [0]
    want = expected(hands, "pisti", 2, won)
    assert st["stats"] == want and want["pisti"]["hands"] == len(hands) >= 3
    assert want["pisti"]["pistis"] + want["pisti"]["hands_won"] > 0  # the counts are not all zero
    # Then matches of one hand each: two won (a streak of 2), one lost (T-1: rated counts too).
    for totals, rated, win in (([100, 0], False, True), ([100, 0], True, True), ([0, 100], False, False)):
        d.press("B")
        until(d, screen("menu"), 5000)
        st, hands = play_match(d, "pisti", 2, (None, "acemi"), 101, rated, totals)
        assert (d.app.session.match.winners() == [0]) == win
        want = expected(hands, "pisti", 2, win, want)
        assert st["stats"] == want
        if rated:
            assert want["pisti"]["streak"] == 2 and want["pisti"]["best"] >= 2
    assert want["pisti"]["streak"] == 0 and want["pisti"]["matches"] == 4
    assert st["stats"]["yedili"] == ZERO["yedili"]  # per game


def test_the_table_is_closed_before_the_statistics_code_is_loaded(device, monkeypatch):
    """On the device, compiling the statistics at a hand's end while the
    table's screen still holds its share of the heap runs out of memory (a
    Pis Yedili 4p link guest): the table goes first."""
    d = device(PISTI_SEED=6, PISTI_DELAY=0)
    d.press("A")
    seen = []
    real = stats.count

    def count(app, s, left=False):
        seen.append([scr.name for scr in app.stack])
        real(app, s, left)

    monkeypatch.setattr(stats, "count", count)
    d.app.start_game("pisti", 2, [None, "acemi"], 101, False)
    d.app.bots[0] = First()
    st = until(d, lambda app: app.screen.name != "table")
    assert st["screen"] == "hand_end" and seen == [[]], (st["screen"], seen)
    assert st["stats"]["pisti"]["hands"] == 1


def test_pis_yedili_counts_its_own_hands_and_streak(device):
    d = device(PISTI_SEED=8, PISTI_DELAY=0)
    d.press("A")
    want = None
    for totals in ([100, 100, 100], [0, 100, 100]):
        st, hands = play_match(d, "yedili", 3, (None, "acemi", "acemi"), None, False, totals)
        w = d.app.session.match.winners()
        want = expected(hands, "yedili", 3, w == [0], want)
        assert st["stats"] == want
        d.press("B")
        until(d, screen("menu"), 5000)
    assert want["yedili"]["matches"] == 2 and "pistis" not in want["yedili"]
    assert st["stats"]["pisti"] == ZERO["pisti"]


def test_T4_a_rated_match_left_is_a_match_lost_and_ends_the_streak(device):
    d = device(PISTI_SEED=5, PISTI_DELAY=0)
    d.press("A")
    play_match(d, "pisti", 2, (None, "acemi"), 101, True, [100, 0])
    d.press("B")
    until(d, screen("menu"), 5000)
    assert d.status()["stats"]["pisti"]["streak"] == 1
    d.app.start_game("pisti", 2, [None, "acemi"], 101, True)
    d.app.play.leave_rated()
    r = d.status()["stats"]["pisti"]
    assert (r["matches"], r["won"], r["streak"], r["best"]) == (2, 1, 0, 1)


def test_a_practice_match_left_to_continue_counts_its_hands_only(device):
    d = device(PISTI_SEED=5, PISTI_DELAY=0)
    d.press("A")
    d.app.start_game("pisti", 2, [None, "acemi"], 151, False)
    d.app.bots[0] = First()
    until(d, screen("hand_end"))
    from pisti_app.match import leaving
    leaving.leave(d.app.play)
    r = d.status()["stats"]["pisti"]
    assert (r["matches"], r["hands"]) == (0, 1)


# -- power cuts (T-6) -----------------------------------------------------------------------
def _boot(device, nvm):
    d = device(nvm=nvm, PISTI_SEED=9, PISTI_DELAY=0)
    d.app.continue_game()
    d.app.bots[0] = First()
    return d


def _on(d):
    """Run to the first hand's end, or to the second hand once the first
    was saved as over (the cut came after the next deal was saved)."""
    return until(d, lambda app: app.screen.name == "hand_end"
                 or (app.screen.name == "table" and app.session.hand_no == 2))


class Writes(FlashNvm):
    """A FlashNvm that notes the cut points of each write: (first, last)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.spans = []

    def __setitem__(self, index, value):
        a = self.cut_points
        super().__setitem__(index, value)
        self.spans.append((a, self.cut_points))


def test_T6_a_power_cut_anywhere_around_a_hand_end_counts_it_once(device):
    nvm = FlashNvm()
    d = device(nvm=nvm, PISTI_SEED=9, PISTI_DELAY=0)
    d.app.start_game("pisti", 2, [None, "kalfa"], 151, False)
    d.app.bots[0] = First()
    # (2 players: plies left = cards left)
    until(d, lambda app: app.session.hand.pos == 52 and app.session.hand.end - app.session.hand.ply <= 2)
    d.close()
    pre = nvm.snapshot()  # the hand's last two cards to come
    d = _boot(device, Writes(data=pre))
    spans = d.rig.nvm.spans = []
    st = _on(d)
    want = st["stats"]
    assert want["pisti"]["hands"] == 1 and st["screen"] == "hand_end"
    h = d.app.session.last
    assert want == expected([d.app.session.match.history[-1]], "pisti", 2)
    d.close()
    # The writes: the last actions, the statistics, the next deal (T-6), each
    # cut at its first cut point, in its middle and before its last byte.
    assert [b - a for a, b in spans][-2] == Store.record_size(stats._LEN)
    cuts = sorted({k for a, b in spans for k in (a, (a + b) // 2, b - 1)})
    outcomes = set()
    for k in cuts:
        nvm = FlashNvm(data=pre)
        d = _boot(device, nvm)
        nvm.cut_after_bytes = k
        with pytest.raises(PowerCut):
            _on(d)
        d.close()
        d = _boot(device, nvm.restart())
        st = _on(d)
        assert st["stats"] == want, k
        assert st["nvm"]["state"] in ("ok", "recovered")
        outcomes.add(st["screen"])
        d.close()
    assert outcomes == {"hand_end"}
    assert crc16(h.deck) >> 8 == Store_stats(nvm.snapshot())[2]  # the hand counted is named


def Store_stats(image):
    st = Store(FlashNvm(data=image))
    st.load()
    return st.stats


# -- a record that does not read -----------------------------------------------------------------
def _image_with(device, stats_blob):
    """An nvm with a ranking, a kept practice game and the statistics record ``stats_blob``."""
    nvm = FlashNvm()
    d = device(nvm=nvm, PISTI_SEED=5, PISTI_DELAY=0)
    d.press("A")
    play_match(d, "pisti", 2, (None, "acemi"), 101, True, [100, 0])
    d.app.start_game("pisti", 2, [None, "kalfa"], 151, False)
    from pisti_app.match import leaving
    leaving.leave(d.app.play)  # kept to Continue
    st = d.status()
    assert st["rankings"] and d.app.kept is not None
    d.app.saves.store.put_stats(stats_blob)
    d.close()
    return nvm.snapshot(), st["rankings"], st["stats"]


@pytest.mark.parametrize("lang,words", [("en", "Stats unreadable: reset"),
                                        ("tr", "İstatistikler sıfırlandı")])
def test_statistics_that_do_not_add_up_reset_alone_with_a_clear_notice(device, lang, words):
    bad = stats.blank()
    bad[6] = 1  # one Pişti match played ...
    bad[8] = 2  # ... and two won
    image, rank, _ = _image_with(device, bytes(bad))
    nvm = FlashNvm(data=image)
    d = device(nvm=nvm, PISTI_LANG=lang)
    assert d.app.notices == [words]
    st = d.status()
    assert st["screen"] == "splash"
    assert st["nvm"]["notice"] == "nvm: the saved statistics did not read; they start again"
    assert st["stats"] == ZERO and st["rankings"] == rank and st["saved"]  # only itself
    d.close()
    d = device(nvm=nvm.restart())  # reset for good: the next boot says nothing
    assert d.app.notices == [] and d.status()["stats"] == ZERO and d.status()["saved"]


def test_a_damaged_statistics_record_is_dropped_alone(device):
    good = stats.blank()
    good[6] = 0
    good[7] = 3  # three Pişti matches played
    image, rank, before = _image_with(device, bytes(good))
    st = Store(FlashNvm(data=image))
    st.load()
    assert st.stats == bytes(good)
    at = bytes(image).rindex(bytes(good))  # the record's payload
    image = bytearray(image)
    image[at + 7] ^= 0x40  # a bit flipped after it was written: its check fails
    d = device(nvm=FlashNvm(data=bytes(image)))
    s = d.status()
    assert s["nvm"]["state"] == "recovered" and d.app.notices == ["Saves recovered"]
    assert s["stats"] == before != ZERO  # the record before it (T-6: the state before the write)
    assert s["rankings"] == rank and s["saved"]


@pytest.mark.parametrize("data", [b"", b"\x5a\x01", bytes(37), b"\x5a\x02" + bytes(35)])
def test_statistics_blobs_of_another_shape_do_not_read(data):
    assert not stats.ok(data)
    assert stats.ok(bytes(stats.blank()))


def test_a_demo_shows_the_saved_statistics_and_counts_nothing(device):
    # (a demo is never counted; status() while a demo plays reads the real saves, writes nothing)
    d = device(PISTI_SEED=3)
    d.first_frame()
    b = stats.blank()
    stats.add(b, 0, 0, 3)  # three Pişti matches played
    d.app.saves.store.put_stats(b)
    d.app.records.close()
    d.run(31000)  # alone at the main menu: the demo
    st = d.status()
    assert st["demo"] and st["screen"] == "table"
    assert st["stats"]["pisti"]["matches"] == 3 and st["stats"]["pisti"]["hands"] == 0
    d.run(60000)  # bots play hands by themselves: none of it is counted
    assert d.status()["stats"]["pisti"]["hands"] == 0
