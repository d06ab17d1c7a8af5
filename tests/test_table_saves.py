# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Saves in ``microcontroller.nvm`` through the real app (RULES.md T-6, and
T-4: losing power is not leaving), on the RP2040 flash model of
``tools/shims/nvm.py``: settings that survive a restart, garbage and foreign
layouts giving a clean start with a notice, a power cut raised inside an
nvm write leaving ``App.tick()`` and a fresh boot resuming, and the sweep:
a whole scripted rated match (with a compaction in it) cut at EVERY cut
point the app causes, each time rebooted and checked.

Figures (run with ``-s`` to see them): the sweep prints the cut points
tested and the compaction exposure; the wear test prints erases per match
(also ``tools/nvm_match.py``).
"""

import json
import random

import pytest

import tools.shims as shims
from console import settings_file
from test_table_modes import choose, my_turn, play, play_pisti_match

from pisti_core.nvlog import Store
from tools import nvm_match
from tools.shims.nvm import FlashNvm, PowerCut

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

MATCH = {"PISTI_START": "pisti:2:usta", "PISTI_TARGET": 101, "PISTI_RATED": 1, "PISTI_DELAY": 0}


class Recorder(FlashNvm):
    """A FlashNvm that logs every write while ``log`` is a list:
    (index, bytes, flash before, cut points the write spent)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.log = None

    def __setitem__(self, index, value):
        if self.log is None:
            super().__setitem__(index, value)
            return
        pre = self.snapshot()
        spent = self.cut_points
        super().__setitem__(index, value)
        self.log.append((index, bytes(value), pre, self.cut_points - spent))


# -- settings ------------------------------------------------------------------------------
def test_T6_settings_and_new_game_choices_survive_a_restart(device):
    nvm = FlashNvm()
    d = device(nvm=nvm)
    d.press("A")
    d.menu_to("settings")
    d.press("A")
    d.press("RIGHT")  # Türkçe
    d.menu_to("sound")
    d.press("LEFT")  # off
    d.menu_to("speed")
    d.press("RIGHT")
    d.menu_to("timer")
    d.press("RIGHT")  # 60 -> 90 s
    d.menu_to("undo")
    d.press("RIGHT")
    d.press("B")
    d.menu_to("new_game")
    d.press("A")
    d.press("RIGHT")  # Pis Yedili
    d.menu_to("players")
    d.press("RIGHT")  # 3
    d.menu_to("mode")
    d.press("RIGHT")  # rated (from the new console's practice, T-1)
    d.press("B")
    prefs = dict(d.app.prefs)
    assert (prefs["lang"], prefs["sound"], prefs["speed"], prefs["timer"], prefs["undo"], prefs["game"],
            prefs["players"], prefs["rated"]) == ("tr", False, 2, 90, True, "yedili", 3, True)
    d.close()
    d = device(nvm=nvm.restart())
    assert d.app.prefs == prefs and d.status()["lang"] == "tr" and not d.status()["sound"]
    assert d.status()["nvm"]["state"] == "ok"
    d.press("A")
    d.menu_to("new_game")
    d.press("A")
    assert d.status()["menu"] == ["game", "mode", "players", "seat1", "seat2", "start"]


# -- garbage, foreign layouts ----------------------------------------------------------------
@pytest.mark.parametrize("name,data,state", [
    ("garbage", bytes((i * 97 + 13) & 255 for i in range(4096)), "reset"),
    ("zeros", bytes(4096), "reset"),
    ("foreign_layout", b"PsT\x09" + bytes(range(256)) * 15 + b"\xff" * 252, "reset"),
    ("other_magic", b"CIRCUITPY-DATA" + b"\xff" * 4082, "reset"),
])
def test_T6_garbage_or_a_foreign_layout_gives_a_clean_start_with_a_notice(device, name, data, state):
    nvm = FlashNvm(data=data)
    d = device(nvm=nvm)
    st = d.status()
    assert st["screen"] == "splash" and st["nvm"]["state"] == state, name
    assert st["message"] == "Saves unreadable: reset" and st["nvm"]["notice"].startswith("nvm: ")
    assert st["rankings"] == {} and not st["saved"]
    import sys
    assert "pisti_core.nvload" not in sys.modules  # the reader goes once the saves are read (boot only)
    d.press("A")
    assert d.status()["menu"][0] == "new_game"  # no Continue from garbage
    d.press("A")
    d.menu_to("mode")
    d.press("RIGHT")  # rated (a new console's default is practice, T-1)
    d.menu_to("start")
    d.press("A")  # a game starts and is saved over the garbage (one erase)
    st = d.status()
    assert st["screen"] == "table" and st["rated"] and nvm.erases == 1
    d.close()
    d = device(nvm=nvm.restart(), PISTI_START="pisti:2:usta")
    st = d.status()
    assert st["nvm"]["state"] == "ok" and st["rated"]  # clean now, and the game resumed


def test_T6_a_boot_with_less_than_the_reserve_free_compacts_before_the_game_and_holds_no_image(device):
    """T-6: a console that boots with less than the reserve free in its log
    compacts then (one erase, the heap tidy), keeping the kept game; the
    store holds no 4 KB image buffer at the table (it is allocated for a
    compaction only)."""
    from pisti_app.match.saves import RESERVE

    nvm = FlashNvm()
    _fill_to(RESERVE - 400)(nvm)
    d = device(nvm=nvm, PISTI_START="pisti:2:usta", PISTI_RATED=1)
    st = d.status()
    store = d.app.saves.store
    assert st["screen"] == "table" and nvm.erases == 1 and store.free > RESERVE
    assert store._buf is None
    play(d, choose(my_turn(d)))  # a play: appended, no erase
    assert nvm.erases == 1 and d.status()["ply"] > 0
    deck = bytes(d.app.session.hand.deck)
    d.close()
    d = device(nvm=nvm.restart(), PISTI_START="pisti:2:usta", PISTI_RATED=1)
    st = d.status()
    assert nvm.erases == 1 and st["screen"] == "table" and st["rated"]  # enough room: no erase at this boot
    assert bytes(d.app.session.hand.deck) == deck and st["ply"] > 0  # the same game, resumed


def test_T6_garbage_with_a_start_setting_shows_the_notice_at_the_table(device):
    d = device(nvm=FlashNvm(data=bytes(4096)), PISTI_START="yedili:4:kalfa", PISTI_DELAY=300)
    st = d.status()
    assert st["screen"] == "table" and st["message"] == "Saves unreadable: reset"


def test_T6_a_saved_game_that_does_not_replay_is_dropped_not_played(device):
    nvm = FlashNvm()
    store = Store(nvm)
    store.load()
    store.start_game(b"\xa7\x02\x00\x02\x97\x00\x00\x00\x00\x01\xff\x02" + bytes(4) + bytes(range(52)))
    store.add_actions(b"\x33\x33")  # the same card twice: not a game
    d = device(nvm=nvm.restart())
    st = d.status()
    assert not st["saved"] and st["nvm"]["state"] == "recovered"
    assert st["message"] == "Saves recovered"


# -- the sweep: every cut point, rebooted ------------------------------------------------------
def app_state(app):
    """(ranking, its stamp, the game to continue) as a reboot shows them."""
    r = app.rankings
    game = None
    if app.kept is not None:  # what the menus know of it, and the game Continue restores
        k = app.saves.kept(app.below, r.stamp)
        assert (k.rated, k.number, k.hands_done, list(k.totals)) == (
            app.kept.rated, app.kept.number, app.kept.hands_done, app.kept.totals)
        game = (k.rated, k.number, k.hands_done, tuple(k.match.totals), bytes(k.hand.deck),
                bytes(k.hand.actions))
    return json.dumps(r.as_dict(), sort_keys=True), r.stamp, game


class Reboots:
    """Boot the app on flash images (one boot per distinct image: the app
    sees nothing but the nvm's bytes) and resume any game kept."""

    def __init__(self, tmp_path):
        self.settings = settings_file(tmp_path / "boot.toml", {"PISTI_SEED": 9, "PISTI_DELAY": 0})
        self.memo = {}
        self.resumed = set()
        self.boots = 0

    def state(self, image):
        """app_state() after a boot on ``image``."""
        image = bytes(image)
        got = self.memo.get(image)
        if got is None:
            got = self.memo[image] = self._boot(image)
        return got

    def _boot(self, image):
        rig = shims.install("pico", settings_path=self.settings, nvm=FlashNvm(data=image))
        try:
            import pisti_app

            app = pisti_app.boot()
            self.boots += 1
            state = app_state(app)
            if app.kept is not None and state not in self.resumed:  # Continue resumes that game
                self.resumed.add(state)
                app.continue_game()
                hand = app.session.hand
                assert (bytes(hand.deck), bytes(hand.actions)) == state[2][4:]
                app.tick()
                assert app.screen.name in ("table", "hand_end", "match_end")
            return state
        finally:
            rig.close()


def cut_image(pre, index, value, k):
    """The flash left by a power cut after ``k`` cut points of this write."""
    nvm = FlashNvm(data=pre, cut_after_bytes=k)
    with pytest.raises(PowerCut):
        nvm[index] = value
    return nvm.snapshot()


def layout(image):
    """Where the blobs of a freshly compacted ``image`` end (nvlog's order)."""
    st = Store(FlashNvm(data=image))
    st.load()
    p = 4
    ends = {}
    for name, blob in (("ranking", st.ranking), ("settings", st.settings)):
        if blob is not None:
            p += Store.record_size(len(blob))
            ends[name] = p
    if st.game_header is not None:
        p += Store.record_size(1 + len(st.game_header) + len(st.game_actions))
        ends["game"] = p
    return ends


def sweep(log, boots, writes=None):
    """Cut every write of ``log`` (or those numbered in ``writes``) at every
    cut point, reboot, check; returns the tallies."""
    out = {"writes": 0, "cut_points": 0, "same": 0, "ranking_lost": 0, "game_lost": 0, "layouts": []}
    for i in range(len(log)) if writes is None else writes:
        index, value, pre, cost = log[i]
        post = bytearray(pre)
        post[index] = value
        before, after = boots.state(pre), boots.state(post)
        out["writes"] += 1
        for k in range(1, cost + 1):
            got = boots.state(cut_image(pre, index, value, k))
            out["cut_points"] += 1
            if got in (before, after):
                out["same"] += 1
                continue
            # Only a compaction (an erase, then the whole sector) may lose
            # something, and then only whole blobs, never alter one.
            assert cost > 4096, ("a cut outside a compaction changed the saves", i, k, got, before, after)
            assert got[:2] in (before[:2], after[:2], ("{}", 0)), ("ranking damaged", i, k, got)
            assert got[2] in (before[2], after[2], None), ("game damaged", i, k, got)
            if got[:2] == ("{}", 0) and before[0] != "{}":
                out["ranking_lost"] += 1
            if got[2] is None and before[2] is not None:
                out["game_lost"] += 1
        if cost > 4096:
            out["layouts"].append(layout(post))
    return out


def reference_match(tmp_path, seeds=(21, 9), prefill=None, start=None):
    """Play rated matches on one nvm, switched off and on between them, all
    writes logged: Pişti to 101 through the buttons, or ``start`` (like
    "yedili:4:usta") with seat 0 played through the outside-bot hook.
    Returns the log and the final ranking."""
    from console import Device
    from pisti_core.bots import make_bot

    rec = Recorder()
    if prefill is not None:
        prefill(rec)
    rec.log = []
    rows = None
    for seed in seeds:
        extra = dict(MATCH, PISTI_SEED=seed)
        if start is not None:
            extra["PISTI_START"] = start
        d = Device(tmp_path, nvm=rec, **extra)
        try:
            if start is None:
                play_pisti_match(d)
            else:
                d.app.bots[0] = make_bot(d.app.session.game, "greedy", random.Random(seed))
                while d.status()["screen"] != "match_end":
                    if d.wait(lambda s: s["screen"] != "table", limit_ms=600000)["screen"] == "hand_end":
                        d.press("A", hold=10, after=10)
            rows = d.app.status()["rankings"]
        finally:
            d.close()
    return rec.log, rows


def _fill_to(free):
    """A prefill for reference_match: settings records until at most
    ``free`` bytes are left in the log."""
    from pisti_app.prefs import defaults, pack

    def prefill(nvm):
        store = Store(nvm)
        store.load()
        p = defaults()
        t = 30
        while store.free > free:
            t = 31 if t == 300 else t + 1
            p["timer"] = t
            store.put_settings(pack(p))
    return prefill


def test_T6_power_cut_sweep_over_a_whole_rated_match(tmp_path):
    """Every cut point (each programmed byte and each erase) of every nvm
    write the app makes in a whole rated Pişti match to 101 -- its first
    deal, each decision with the bots' replies, each next deal, the ranking
    and the end, and the compaction between them (the log is filled first
    so that the first match leaves less than the reserve: the second boot
    compacts, holding no game) -- is cut, the app
    rebooted on that flash and the game resumed: nothing crashes, the
    ranking and the game are as before or after the interrupted write (the
    same deal, no move taken back). Inside the compaction the ranking may
    be lost whole (never altered) at exactly the cut points before its
    record is programmed again: the exposure nvlog documents."""
    log, rows = reference_match(tmp_path, prefill=_fill_to(2900))
    assert sum(rows["pisti:2:usta"][k] for k in ("won", "drawn", "lost")) == 2  # both matches ranked
    comp = [i for i in range(len(log)) if log[i][3] > 4096]
    assert len(comp) == 1 and comp[0] > 40, [w[3] for w in log]
    boots = Reboots(tmp_path)
    r = sweep(log, boots)
    ends = r["layouts"][0]
    print("\npower-cut sweep, two whole Pişti matches from a blank nvm: %d writes, %d cut points cut "
          "and rebooted (%d distinct flash images booted and resumed); as before/after the write: %d; "
          "in the compaction (between the matches): ranking lost at %d cut points, game in "
          "play lost at %d"
          % (r["writes"], r["cut_points"], boots.boots, r["same"], r["ranking_lost"], r["game_lost"]))
    assert r["cut_points"] == sum(w[3] for w in log) > 4097 + 2000
    assert r["ranking_lost"] == ends["ranking"]  # the erase, then up to the ranking record's end
    assert r["game_lost"] == 0 and "game" not in ends  # no game in progress at a match's end
    assert r["same"] + r["ranking_lost"] == r["cut_points"]


def test_T6_power_cut_sweep_over_a_whole_rated_four_player_pis_yedili_match(tmp_path):
    """The same for a rated 4-player Pis Yedili match (two decks: each
    deal's header carries 104 cards), seat 0 played through the app's
    outside-bot hook: every cut point of every write, rebooted and resumed."""
    log, rows = reference_match(tmp_path, seeds=(1,), start="yedili:4:usta")
    assert rows["yedili:4:usta"]["played"] == 1
    deals = [w for w in log if len(w[1]) == 2 + 126 + 2]  # tag, length, header, check: one write
    assert len(deals) == 2  # hands 2 and 3 (the first went with the log's magic)
    boots = Reboots(tmp_path)
    r = sweep(log, boots)
    print("\npower-cut sweep, a whole Pis Yedili match (4 players): %d writes, %d cut points cut and "
          "rebooted (%d distinct images); as before/after the write: %d"
          % (r["writes"], r["cut_points"], boots.boots, r["same"]))
    assert r["same"] == r["cut_points"] == sum(w[3] for w in log)


def test_T6_power_cut_sweep_over_a_compaction_in_the_middle_of_a_game(tmp_path, monkeypatch):
    """The rarer compaction: the log fills while a game is in progress
    (forced here by filling the nvm with settings records first, with the
    app's reserve off: else its boot would compact before the game). Every
    cut point of the first hand's writes, that compaction included, is cut
    and rebooted: the game in progress is as before or after the write,
    or (inside the compaction, before its record is programmed) lost whole."""
    from pisti_app.match import saves

    monkeypatch.setattr(saves, "RESERVE", 0)
    log, _ = reference_match(tmp_path, seeds=(9,), prefill=_fill_to(150))
    first = [i for i in range(len(log)) if log[i][3] > 4096]
    assert first and first[0] < 40, [w[3] for w in log]
    boots = Reboots(tmp_path)
    r = sweep(log, boots, range(first[0] + 3))
    ends = r["layouts"][0]
    print("\npower-cut sweep, compaction mid-game: %d writes, %d cut points; game in play lost at %d "
          "cut points (image ends: %r)" % (r["writes"], r["cut_points"], r["game_lost"], ends))
    assert r["ranking_lost"] == 0 and "ranking" not in ends  # no ranking yet
    assert r["game_lost"] == ends["game"]  # the erase, then every byte up to the game record's end
    assert r["same"] + r["game_lost"] == r["cut_points"]


_LOGS = {}


def match_log(tmp_path):
    """The writes of one rated match from after its boot (computed once)."""
    if "match" not in _LOGS:
        from console import Device

        rec = Recorder()
        d = Device(tmp_path, nvm=rec, PISTI_SEED=9, **MATCH)
        rec.log = []
        try:
            play_pisti_match(d)
        finally:
            d.close()
        _LOGS["match"] = rec.log
    return _LOGS["match"]


@pytest.mark.parametrize("where", ["first_action", "mid_action", "deal_2_start", "deal_2_end",
                                   "last_action", "ranking"])
def test_T4_T6_a_power_cut_leaves_tick_and_a_fresh_boot_resumes(device, tmp_path, where):
    """The app's own write is cut (FlashNvm on a file, cut_after_bytes):
    PowerCut leaves App.tick(), the flash is what the sweep models, and a
    fresh boot on the same file (PISTI_START as the simulator passes it)
    goes straight back to the game as before or after that write."""
    log = match_log(tmp_path)
    deals = [i for i in range(len(log)) if 60 < log[i][3] < 4096]
    pick = {"first_action": (0, 1), "mid_action": (3, 3), "deal_2_start": (deals[0], 1),
            "deal_2_end": (deals[0], log[deals[0]][3]), "last_action": (len(log) - 3, 2),
            "ranking": (len(log) - 2, 4)}[where]
    w, k = pick
    path = str(tmp_path / "nvm.bin")
    nvm = FlashNvm(path)
    d = device(nvm=nvm, PISTI_SEED=9, **MATCH)
    nvm.cut_after_bytes = sum(x[3] for x in log[:w]) + k
    with pytest.raises(PowerCut):  # never swallowed: it leaves App.tick()
        play_pisti_match(d)
    d.close()
    index, value, pre, _ = log[w]
    assert nvm.snapshot() == cut_image(pre, index, value, k)  # the sweep's model of this cut
    post = bytearray(pre)
    post[index] = value
    boots = Reboots(tmp_path)
    got = boots.state(FlashNvm(path).snapshot())
    assert got in (boots.state(pre), boots.state(post))
    d = device(nvm=FlashNvm(path), PISTI_SEED=9, **MATCH)
    st = d.status()
    assert json.loads(got[0]) == st["rankings"]
    if got[2] is not None:  # T-4: losing power is not leaving; the same game goes on
        h = d.app.session.hand
        assert st["screen"] == "table" and st["rated"] and (bytes(h.deck), bytes(h.actions)) == got[2][4:]
        st = my_turn(d)
        if st["screen"] == "table":
            play(d, choose(st))
        if where == "ranking":  # the match's last hand was over, its result not yet saved
            assert st["screen"] == "hand_end" and d.status()["rankings"]["pisti:2:usta"]["played"] == 1


# -- wear ---------------------------------------------------------------------------------------
def test_T6_erases_per_match_through_the_app():
    """Erases per rated match, the app saving every action (tools/nvm_match.py)."""
    figures = {}
    for shape, matches in (("pisti-2", 2),):  # more shapes and matches: tools/nvm_match.py
        r = nvm_match.run_shape(shape, matches, 1)
        assert sum(v["played"] for v in r["rankings"].values()) == matches
        figures[shape] = r["erases"] / matches
        print("\n" + "\n".join(nvm_match.report(r)))
        assert r["mid_game"] == 0  # the reserve keeps compactions between matches here
    assert all(v <= 1.0 for v in figures.values()), figures


def test_T6_store_with_a_buffer_allocated_once_writes_the_same_flash():
    """The app gives nvlog's Store one 4 KB buffer at start for loading and
    compacting: the flash it writes is byte for byte the same as without."""
    images = []
    for buf in (None, bytearray(4096)):
        nvm = FlashNvm()
        store = Store(nvm, 2048, buf)
        store.load()
        for i in range(60):
            store.start_game(bytes(range(i % 7, 120)))
            store.add_actions(bytes((i, i + 1, i + 2)))
            store.put_ranking(bytes((0xB7, 0, i >> 8, i & 255)))
            store.end_game()
        again = Store(nvm.restart(), 2048, bytearray(4096) if buf is not None else None)
        assert again.load() == "ok" and again.ranking == bytes((0xB7, 0, 0, 59))
        images.append((nvm.snapshot(), nvm.erases))
    assert images[0] == images[1] and images[0][1] >= 2
    with pytest.raises(ValueError, match="as long as the nvm"):
        Store(FlashNvm(), 0, bytearray(100))
