# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Tests of the RP2040 nvm shim (tools/shims/nvm.py) and the save log
(pisti_core/nvlog.py): the erase rule, record round trips, torn records,
garbage, compaction, and power cuts at every cut point of scripted matches."""

import binascii
import os
import random
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pisti_core import nvload, nvlog
from pisti_core.nvlog import Store
from tools import nvm_report as R
from tools.shims.nvm import FlashNvm, PowerCut

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FF = b"\xff"
MAGIC = b"PsT\x01"
EMPTY = (None, None, None, b"")

# gc.collect() collects nothing (tests/conftest.py): the log collects before it
# builds a compaction's 4 KB image, in a test process nine tenths of a
# power-cut sweep's time, and that changes no byte written.
pytestmark = pytest.mark.usefixtures("quick_gc")


def fresh(size=4096):
    nvm = FlashNvm(size=size)
    store = Store(nvm)
    assert store.load() == "ok"
    return nvm, store


def reload(nvm):
    store = Store(nvm.restart())
    status = store.load()
    return store, status


# -- the shim: CircuitPython's RP2040 write rule ----------------------------------------
def test_shim_creates_an_erased_file(tmp_path):
    path = tmp_path / "nvm.bin"
    nvm = FlashNvm(str(path))
    assert len(nvm) == 4096
    assert path.read_bytes() == FF * 4096
    assert nvm[0] == 0xFF
    got = nvm[10:13]
    assert isinstance(got, bytearray) and got == FF * 3
    assert (nvm.erases, nvm.bytes_written, nvm.writes) == (0, 0, 0)


def test_shim_write_into_erased_bytes_only_programs(tmp_path):
    path = tmp_path / "nvm.bin"
    nvm = FlashNvm(str(path))
    nvm[100:104] = b"abcd"
    nvm[104] = 7
    nvm[105:107] = bytearray(b"xy")
    assert (nvm.erases, nvm.bytes_written, nvm.writes) == (0, 7, 3)
    assert path.read_bytes()[100:107] == b"abcd\x07xy"
    again = FlashNvm(str(path))
    assert again[100:107] == b"abcd\x07xy"


@pytest.mark.parametrize("index, value", [
    (slice(101, 103), b"zz"),  # over programmed bytes
    (slice(99, 101), b"zz"),  # half erased, half programmed
    (100, ord("a")),  # the same value again still erases
    (100, 0xFF),  # so does writing 0xFF over data
])
def test_shim_any_other_write_erases_and_rewrites_the_sector(index, value):
    nvm = FlashNvm()
    nvm[100:104] = b"abcd"
    nvm[2000:2002] = b"yz"
    expect = bytearray(nvm.snapshot())
    expect[index] = value
    nvm[index] = value
    assert nvm.erases == 1
    assert nvm.bytes_written == 6 + 4096
    assert nvm.snapshot() == bytes(expect)


def test_shim_indexing_follows_circuitpython():
    nvm = FlashNvm()
    with pytest.raises(IndexError):
        nvm[4096]
    with pytest.raises(IndexError):
        nvm[-4097] = 1
    with pytest.raises(ValueError):
        nvm[0] = 256
    with pytest.raises(ValueError):
        nvm[0] = -1
    with pytest.raises(ValueError):
        nvm[0:3] = b"ab"  # writes never change the length
    with pytest.raises(ValueError):
        nvm[4094:5000] = b"abc"  # the slice is clamped to 2 bytes
    with pytest.raises(NotImplementedError):
        nvm[0:4:2]
    with pytest.raises(NotImplementedError):
        nvm[0:4:2] = b"ab"
    with pytest.raises(NotImplementedError):
        nvm[0:2] = [1, 2]
    with pytest.raises(TypeError):
        del nvm[0]
    assert (nvm.writes, nvm.bytes_written, nvm.snapshot()) == (0, 0, FF * 4096)
    nvm[4094:5000] = b"ab"
    nvm[-3] = 5
    assert nvm[4093:4096] == b"\x05ab"
    assert nvm[-1] == ord("b")


@pytest.mark.parametrize("k", range(0, 6))
def test_shim_cut_during_a_program_write(tmp_path, k):
    path = tmp_path / "nvm.bin"
    nvm = FlashNvm(str(path), cut_after_bytes=k)
    with pytest.raises(PowerCut):
        nvm[10:15] = b"hello"  # k == 5: complete, but the power goes at once
    assert path.read_bytes()[10:16] == b"hello"[:k] + FF * (6 - k)
    assert nvm.dead and nvm.bytes_written == k
    for access in (lambda: nvm[0], lambda: nvm[0:2], lambda: len(nvm),
                   lambda: nvm.__setitem__(20, 1)):
        with pytest.raises(PowerCut):
            access()
    again = FlashNvm(str(path))
    assert again[10:15] == b"hello"[:k] + FF * (5 - k)
    again[30] = 1  # a restart has power again
    assert again.restart()[30] == 1


def test_shim_cut_counts_from_when_it_is_set():
    nvm = FlashNvm(cut_after_bytes=None)
    nvm[0:10] = bytes(10)
    assert nvm.cut_points == 10
    nvm.cut_after_bytes = 13
    nvm[10:20] = bytes(10)
    assert nvm.cut_after_bytes == 3
    with pytest.raises(PowerCut):
        nvm[20:30] = bytes(10)
    assert nvm.snapshot()[:30] == bytes(23) + FF * 7
    with pytest.raises(ValueError):
        nvm.cut_after_bytes = -1


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4001, 4096, 4097])
def test_shim_cut_during_an_erase_and_rewrite(k):
    base = FlashNvm()
    base[0:4] = b"abcd"
    base[4000:4002] = b"yz"
    old = base.snapshot()
    new = bytearray(old)
    new[1:3] = b"XY"
    nvm = FlashNvm(data=old, cut_after_bytes=k)
    with pytest.raises(PowerCut):
        nvm[1:3] = b"XY"
    if k == 0:
        assert nvm.snapshot() == old and nvm.erases == 0
    else:  # the erase is cut point 1, then the sector is programmed in order
        assert nvm.erases == 1 and nvm.bytes_written == k - 1
        assert nvm.snapshot() == bytes(new[:k - 1]) + FF * (4097 - k)


def test_shim_reads_a_file_of_the_wrong_size_as_it_is(tmp_path):
    short = tmp_path / "short.bin"
    short.write_bytes(b"0123456789")
    nvm = FlashNvm(str(short))
    assert len(nvm) == 4096 and nvm[0:11] == b"0123456789\xff"
    nvm[20] = 1
    assert short.read_bytes() == b"0123456789" + FF * 10 + b"\x01" + FF * 4075
    long = tmp_path / "long.bin"
    long.write_bytes(bytes(5000))
    assert FlashNvm(str(long)).snapshot() == bytes(4096)


# -- the log: round trips ----------------------------------------------------------------
def test_blank_nvm_is_an_empty_ok_store():
    nvm, store = fresh()
    assert R.state_of(store) == EMPTY
    assert store.blank and store.notice == "" and store.free == 4096 - 9


@pytest.mark.parametrize("n", [0, 1, 12, 13, 200, 254])  # every length code of a blob
def test_round_trip_of_every_record_kind(n):
    nvm, store = fresh()
    blob = bytes(range(n))
    store.put_settings(blob)
    store.put_ranking(blob[::-1])
    store.start_game(b"H" + blob[1:])
    store.add_actions(b"\x01\x02")
    store.add_actions(bytes(range(3, 17)))  # 14 bytes: one length byte
    got, status = reload(nvm)
    assert status == "ok"
    assert R.state_of(got) == (blob, blob[::-1], b"H" + blob[1:], bytes(range(1, 17)))
    assert nvm.erases == 0  # appends only
    store.put_ranking(b"second")  # latest wins
    store.start_game(b"G2")  # a new game has no actions yet
    got, _ = reload(nvm)
    assert (got.ranking, got.game_header, got.game_actions) == (b"second", b"G2", b"")
    store.add_actions(b"\x09\x09")
    store.end_game()
    got, status = reload(nvm)
    assert status == "ok" and R.state_of(got) == (blob, b"second", None, b"")
    assert nvm.erases == 0


def test_same_blob_again_and_end_without_game_write_nothing():
    nvm, store = fresh()
    store.put_settings(b"s")
    store.put_ranking(b"r")
    writes = nvm.writes
    store.put_settings(bytearray(b"s"))
    store.put_ranking(b"r")
    store.end_game()
    assert nvm.writes == writes


def test_bad_input_raises_and_changes_nothing():
    nvm, store = fresh()
    store.put_ranking(b"rank")
    image, state = nvm.snapshot(), R.state_of(store)
    with pytest.raises(ValueError, match="254"):
        store.put_ranking(bytes(255))
    with pytest.raises(TypeError, match="bytes"):
        store.put_settings("volume=3")
    with pytest.raises(ValueError, match="no game in progress"):
        store.add_actions(b"\x01\x02")
    store.start_game(b"hdr")
    image, state = nvm.snapshot(), R.state_of(store)
    with pytest.raises(ValueError, match="at least one byte"):
        store.add_actions(b"")
    with pytest.raises(ValueError):
        store.start_game(bytes(300))
    assert nvm.snapshot() == image and R.state_of(store) == state
    with pytest.raises(RuntimeError, match="load"):
        Store(FlashNvm()).put_settings(b"x")


def test_crc_fallback_matches_binascii(monkeypatch):
    """One CRC-16/CCITT-FALSE for the save log and the link's frames (L-6):
    the nibble table the board runs gives what CPython's C one gives."""
    from pisti_core import crc
    assert nvlog.crc16 is crc.crc16
    assert crc.crc16(b"123456789") == 0x29B1  # the CRC-16/CCITT-FALSE check value
    monkeypatch.setattr(crc, "_crc_hqx", None)  # the path CircuitPython and MicroPython take
    for data in (b"", b"\x00", b"123456789", bytes(range(256)) * 3):
        assert crc.crc16(data) == binascii.crc_hqx(data, 0xFFFF)
        assert crc.crc16(b"xx" + data + b"y", 2, 2 + len(data)) == binascii.crc_hqx(data, 0xFFFF)
        assert crc.crc16(data, 0, None, crc.crc16(b"head")) == binascii.crc_hqx(b"head" + data, 0xFFFF)


# -- compaction -----------------------------------------------------------------------
def test_appends_never_erase_and_a_compaction_erases_once():
    rng = random.Random(3)
    nvm, store = fresh()
    R.apply_op(store, R.settings_op(rng))
    seen = 0
    for _ in range(4):
        for op in R.pisti_match(rng):
            erases, compactions = nvm.erases, store.compactions
            R.apply_op(store, op)
            assert nvm.erases - erases == store.compactions - compactions
            if store.compactions != compactions:
                seen += 1
                got, status = reload(nvm)
                assert status == "ok" and R.state_of(got) == R.state_of(store)
                # The ranking is the first record after the magic.
                image = nvm.snapshot()
                assert image[:4] == MAGIC and image[4] >> 4 == 2
                assert image[6:6 + len(store.ranking)] == store.ranking
                assert store.image_layout[0] == 6 + len(store.ranking) + 2
    assert seen >= 1
    assert store.erases_caused == nvm.erases == seen


def test_compaction_keeps_a_long_game_whole():
    nvm, store = fresh()
    store.put_ranking(b"R" * 60)
    store.start_game(bytes(range(118)))
    actions = bytes(random.Random(1).randrange(256) for _ in range(2000))
    for i in range(0, len(actions), 10):
        store.add_actions(actions[i:i + 10])
    store.compact()
    assert nvm.erases == 1 and store.generation == 1
    got, status = reload(nvm)
    assert status == "ok" and got.game_actions == actions and got.ranking == b"R" * 60
    assert got.generation == 1 and got.free == store.free


def test_saves_that_cannot_fit_raise_and_change_nothing():
    nvm, store = fresh()
    store.start_game(b"h")
    with pytest.raises(ValueError, match="nothing written"):
        for _ in range(40):
            store.add_actions(bytes(254))
    image, state = nvm.snapshot(), R.state_of(store)
    with pytest.raises(ValueError, match="nothing written"):
        store.add_actions(bytes(254))
    assert nvm.snapshot() == image and R.state_of(store) == state
    got, _ = reload(nvm)
    assert R.state_of(got) == state


@pytest.mark.parametrize("reserve, erases", [(0, 0), (3000, 1)])
def test_a_new_game_compacts_first_when_asked_to_keep_a_reserve(reserve, erases):
    """T-6: with fewer than ``reserve`` bytes free, the next game (none in
    progress) starts on a fresh image that holds no game; a game in progress
    is never compacted early, nor is the log at the game's end."""
    nvm = FlashNvm()
    store = Store(nvm, reserve=reserve)
    store.load()
    store.put_ranking(b"r")
    store.start_game(bytes(100))
    for _ in range(4):
        store.add_actions(bytes(250))
    assert nvm.erases == 0 and 2000 < store.free < 3000
    store.start_game(bytes(90))  # the next hand of the same game: appended
    store.end_game()
    assert nvm.erases == 0
    store.start_game(bytes(80))
    assert nvm.erases == erases
    if erases:  # the image was written before the new game's header: it holds no game
        assert store.image_layout[2] == store.image_layout[1]
        assert store.free > 3000
    got, _ = reload(nvm)
    assert R.state_of(got) == (None, b"r", bytes(80), b"")


# -- torn records, damage, garbage -----------------------------------------------------
@pytest.mark.parametrize("op", [("act", b"\x01\x02\x03"), ("start", bytes(range(62)))])
def test_a_torn_record_is_dropped_and_the_log_goes_on_without_erasing(op):
    nvm, store = fresh()
    store.put_settings(b"s")
    store.start_game(b"g")
    image, before = nvm.snapshot(), R.state_of(store)
    cost = nvlog.Store.record_size(len(op[1]))
    for k in range(1, cost):
        cut = FlashNvm(data=image, cut_after_bytes=k)
        st_cut = Store(cut)
        st_cut.load()
        with pytest.raises(PowerCut):
            R.apply_op(st_cut, op)
        back = cut.restart()
        got = Store(back)
        assert got.load() == "recovered" and got.notice == nvload.NOTICE_TORN
        assert R.state_of(got) == before
        got.add_actions(b"\x07\x07")  # appended past the torn bytes
        got.put_ranking(b"rank")
        assert back.erases == 0
        again, status = reload(back)
        assert status == "ok"
        assert R.state_of(again) == (b"s", b"rank", b"g", b"\x07\x07")


def test_an_image_cut_just_before_its_meta_is_sealed_without_an_erase():
    nvm, store = fresh()
    store.put_ranking(b"rank")
    store.start_game(b"game")
    store.add_actions(b"\x01\x02")
    image, state = nvm.snapshot(), R.state_of(store)
    store.compact()
    game_end = store.image_layout[2]
    cut = FlashNvm(data=image, cut_after_bytes=1 + game_end)  # all but the meta record
    st_cut = Store(cut)
    st_cut.load()
    with pytest.raises(PowerCut):
        st_cut.compact()
    back = cut.restart()
    got = Store(back)
    assert got.load() == "recovered" and got.notice == nvload.NOTICE_CUT_IMAGE
    assert R.state_of(got) == state
    got.add_actions(b"\x03\x04")  # a meta record goes in front of it
    assert back.erases == 0
    again, status = reload(back)
    assert status == "ok" and again.game_actions == b"\x01\x02\x03\x04"


def test_damage_inside_the_log_is_reported_and_cleaned_by_the_next_save():
    nvm, store = fresh()
    store.put_ranking(b"first")
    store.put_ranking(b"second")
    image = bytearray(nvm.snapshot())
    at = image.index(b"second")
    image[at] ^= 0x40
    damaged = FlashNvm(data=image)
    got = Store(damaged)
    assert got.load() == "recovered" and "damaged" in got.notice
    assert got.ranking == b"first"  # an older ranking, never a garbled one
    got.put_settings(b"s")  # the next save rewrites the sector
    assert damaged.erases == 1
    again, status = reload(damaged)
    assert status == "ok" and R.state_of(again) == (b"s", b"first", None, b"")


@pytest.mark.parametrize("data, status, words", [
    (bytes(4096), "reset", "unrecognised"),
    (b'{"volume": 3}', "reset", "unrecognised"),
    (b"PsT\x02" + bytes(20), "reset", "layout 2"),
    (b"Ps", "recovered", "power was cut"),
])
def test_foreign_layouts_start_fresh_with_a_one_line_notice(data, status, words):
    nvm = FlashNvm(data=data)
    store = Store(nvm)
    assert store.load() == status
    assert words in store.notice and "\n" not in store.notice
    assert R.state_of(store) == EMPTY
    store.put_ranking(b"r")
    got, again = reload(nvm)
    assert again == "ok" and got.ranking == b"r"


def _survives(data):
    nvm = FlashNvm(data=data)
    store = Store(nvm)
    status = store.load()
    assert status in ("ok", "recovered", "reset")
    assert "\n" not in store.notice and (status == "ok") == (store.notice == "")
    store.put_ranking(b"R")
    store.start_game(b"H")
    store.add_actions(b"ab")
    got, again = reload(nvm)
    assert again == "ok"
    assert (got.ranking, got.game_header, got.game_actions) == (b"R", b"H", b"ab")
    return status


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.binary(max_size=4096))
def test_random_garbage_never_crashes(data):
    _survives(data)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.binary(max_size=600), st.integers(0, 255))
def test_garbage_behind_a_valid_magic_never_crashes(data, fill):
    assert _survives(MAGIC + data + bytes((fill,)) * 40) != "reset"


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 700), st.integers(0, 255)), min_size=1, max_size=4))
def test_corrupted_log_never_shows_a_ranking_that_was_not_saved(hits):
    rng = random.Random(7)
    nvm, store = fresh()
    rankings = set()
    for _ in range(6):
        rank = bytes(rng.randrange(256) for _ in range(40))
        store.put_ranking(rank)
        rankings.add(rank)
        store.start_game(bytes(30))
        store.add_actions(b"\x01\x02\x03\x04")
    image = bytearray(nvm.snapshot())
    for at, value in hits:
        image[at] = value
    got = Store(FlashNvm(data=image))
    got.load()
    assert got.ranking is None or got.ranking in rankings


# -- power cuts at every cut point of scripted matches -----------------------------------
SWEEP_PARTS = 3  # the long sweeps run as this many tests (pytest-xdist spreads them)


def _sweep_session(prefill, swept, part=0, parts=1):
    """Play ``prefill`` ops, then cut the power at the cut points of every op
    of ``swept``: all of them when ``parts`` is 1, else every ``parts``-th
    cut point of the session from the ``part``-th on (the parts together cut
    at each one once). Returns (cut points of ``swept``, cut points swept
    here, compactions in ``swept``)."""
    nvm, store = fresh()
    for op in prefill:
        R.apply_op(store, op)
    total = here = compactions = 0
    for op in swept:
        before, image, erases = R.state_of(store), nvm.snapshot(), nvm.erases
        n0, spent = store.compactions, nvm.cut_points
        R.apply_op(store, op)
        after = R.state_of(store)
        cost = nvm.cut_points - spent
        points = [k for k in range(1, cost + 1) if (total + k - 1) % parts == part]
        total += cost
        cuts, done = R.cut_outcomes(image, op, before, after, points=points)
        assert done == nvm.snapshot(), "a restarted store must write the same bytes"
        here += len(cuts)
        compacted = store.compactions != n0
        if compacted:
            compactions += 1
            assert nvm.erases == erases + 1
            exp = R.exposure(store, before)
        else:
            assert nvm.erases == erases
        for k, status, out in cuts:
            assert status in ("ok", "recovered"), (op[0], k, status)
            if not compacted:  # an append: the state before, and after once its last byte is down
                assert out == ("after" if k == cost else "before"), (op[0], k, cost, out)
                continue
            # A compaction: a blob is lost exactly while the image has not
            # reached its end (the exposure counted from the layout), else
            # the cut leaves the state after.
            lost = set() if out in ("before", "after") else set(out.split("+"))
            assert lost <= {"ranking", "settings", "game"}, (op[0], k, out)
            for name in ("ranking", "settings", "game"):
                assert (name in lost) == (k <= exp[name]), (op[0], k, name, exp, out)
            assert (out == "after") == (k > exp["any"]), (op[0], k, exp, out)
    return total, here, compactions


@pytest.mark.parametrize("part", range(SWEEP_PARTS))
def test_power_cut_sweep_over_a_pisti_match(part):
    rng = random.Random(11)
    prefill = [R.settings_op(rng)] + R.pisti_match(rng) + R.pisti_match(rng)
    swept = [R.settings_op(rng)] + R.pisti_match(rng)
    total, here, compactions = _sweep_session(prefill, swept, part, SWEEP_PARTS)
    assert compactions == 1 and total > 5000 and here >= total // SWEEP_PARTS


@pytest.mark.parametrize("part", range(SWEEP_PARTS))
def test_power_cut_sweep_over_a_yedili_match(part):
    rng = random.Random(12)
    prefill = [R.settings_op(rng)] + R.pisti_match(rng) + R.pisti_match(rng)
    total, here, compactions = _sweep_session(prefill, R.yedili_match(rng), part, SWEEP_PARTS)
    assert compactions == 1 and total > 6000 and here >= total // SWEEP_PARTS


def test_power_cut_sweep_from_a_blank_device():
    rng = random.Random(13)
    total, here, compactions = _sweep_session([], [R.settings_op(rng)] + R.pisti_match(rng, hands=2))
    assert compactions == 0 and total > 400 and here == total


def test_power_cut_sweep_rerunning_the_whole_session_each_time():
    # Every cut point of a session on a 384-byte nvm (so it compacts often),
    # each run from the first op on a fresh boot, as a device would.
    rng = random.Random(14)
    ops = [R.settings_op(rng), ("ranking", bytes(range(60)))] + R.pisti_match(rng, hands=4)
    nvm = FlashNvm(size=384)
    store = Store(nvm)
    store.load()
    states = [R.state_of(store)]
    compacting = []
    for op in ops:
        n0 = store.compactions
        R.apply_op(store, op)
        states.append(R.state_of(store))
        compacting.append(store.compactions != n0)
    total = nvm.cut_points
    assert sum(compacting) >= 3
    lost = {}
    for n in range(1, total + 1):
        nvm = FlashNvm(size=384, cut_after_bytes=n)
        store = Store(nvm)
        store.load()
        i = 0  # the op the power was cut in
        with pytest.raises(PowerCut):
            for op in ops:
                R.apply_op(store, op)
                i += 1
            raise AssertionError("cut point %d never came" % n)
        got = Store(nvm.restart())
        assert got.load() in ("ok", "recovered")
        out = R.classify(R.state_of(got), states[i], states[i + 1])
        if compacting[i]:
            assert out in ("before", "after") or set(out.split("+")) <= {
                "ranking", "settings", "game"}, (n, out)
        else:
            assert out in ("before", "after"), (n, out)
        lost[out] = lost.get(out, 0) + 1
    assert lost["settings+ranking+game"] >= 3 * 66  # the erase, magic, ranking record


def test_report_counts_erases_and_exposure():
    r = R.run_shape("pisti-2", 6, seed=2)
    assert 0 < r["erases"] <= r["matches"]  # the target: at most one erase a match
    assert r["cut_points"] == r["erases"] + r["bytes"]
    assert r["exposure"]["window"] == r["compactions"] * 4097
    assert 0 < r["exposure"]["ranking"] < r["exposure"]["any"] <= r["exposure"]["window"]


# -- the same module under MicroPython ------------------------------------------------
MP_SCRIPT = r"""
from pisti_core import nvlog
nvm = bytearray(b"\xff" * 4096)
s = nvlog.Store(nvm)
print("blank", s.load(), s.blank)
s.put_settings(b"\x01\x02")
s.put_ranking(bytes(range(60)))
s.start_game(bytes(range(118)))
for i in range(1500):
    s.add_actions(bytes((i & 255, 7)))
print("saved", s.compactions, s.erases_caused, s.generation, len(s.game_actions), s.free)
t = nvlog.Store(nvm)
print("reload", t.load(), t.settings == s.settings, t.ranking == s.ranking,
      t.game_header == s.game_header, t.game_actions == s.game_actions, t.generation)
p = 4096 - t.free
t.add_actions(b"\x05\x06\x07")
nvm[p + 5] = 0xFF
u = nvlog.Store(nvm)
print("torn", u.load(), u.notice, len(u.game_actions) == len(s.game_actions))
u.end_game()
print("ended", nvlog.Store(nvm).load(), u.game_header)
g = bytearray(4096)
v = nvlog.Store(g)
print("garbage", v.load(), v.notice)
v.put_ranking(b"r")
w = nvlog.Store(g)
print("fresh", w.load(), w.ranking, nvlog.crc16(b"123456789"))
"""


def _micropython():
    for path in (os.path.join(ROOT, ".venv", "bin", "micropython"), shutil.which("micropython")):
        if path and os.path.exists(path):
            return path
    pytest.fail("the micropython command is missing: run tools/setup.sh")


def test_the_module_runs_under_micropython_as_under_cpython(tmp_path):
    script = tmp_path / "nvlog_check.py"
    script.write_text(MP_SCRIPT)
    env = dict(os.environ, MICROPYPATH=ROOT)
    mp = subprocess.run([_micropython(), str(script)], capture_output=True, text=True,
                        env=env, timeout=120)
    assert mp.returncode == 0, mp.stderr + mp.stdout
    env["PYTHONPATH"] = ROOT
    cp = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                        env=env, timeout=120)
    assert cp.returncode == 0, cp.stderr
    assert mp.stdout == cp.stdout
    lines = mp.stdout.splitlines()
    assert lines[0] == "blank ok True"
    assert lines[1] == "saved 2 2 2 3000 135"
    assert lines[2] == "reload ok True True True True 2"
    assert lines[3] == "torn recovered %s True" % nvload.NOTICE_TORN
    assert lines[4] == "ended ok None"
    assert lines[5] == "garbage reset %s" % nvload.NOTICE_FOREIGN
    assert lines[6] == "fresh ok b'r' 10673"


def test_the_statistics_record_is_kept_apart_and_first_after_the_ranking_when_compacted():
    # the statistics: kind 8, latest wins, survives appends and compactions; a
    # damaged one is dropped alone (the records after it still read).
    nvm, store = fresh()
    store.put_ranking(b"rank")
    store.put_stats(b"S1" * 10)
    store.put_stats(b"S2" * 10)
    store.put_settings(b"set")
    got, status = reload(nvm)
    assert status == "ok" and got.stats == b"S2" * 10 and got.ranking == b"rank"
    assert nvm.erases == 0
    store.compact()
    got, _ = reload(nvm)
    assert (got.ranking, got.stats, got.settings) == (b"rank", b"S2" * 10, b"set")
    image = nvm.snapshot()
    at = 4 + nvlog.Store.record_size(4)
    assert image[at] >> 4 == 8 and image[at + 2:at + 22] == b"S2" * 10
    store.put_stats(b"S3" * 10)
    store.put_ranking(b"rank2")
    image = bytearray(nvm.snapshot())
    k = bytes(image).rindex(b"S3" * 10)
    image[k] ^= 1
    got = Store(FlashNvm(data=bytes(image)))
    assert got.load() == "recovered"
    assert got.stats == b"S2" * 10 and got.ranking == b"rank2"


def test_the_compactions_code_is_loaded_for_it_and_forgotten_after():
    """pisti_core.nvpack (the compaction) is not kept once it has run, nor
    left as an attribute of the package that would keep its code alive."""
    import sys
    import pisti_core

    nvm, store = fresh()
    store.put_ranking(b"r")
    store.compact()
    assert nvm.erases == store.compactions == 1
    assert "pisti_core.nvpack" not in sys.modules and not hasattr(pisti_core, "nvpack")
    store.compact()  # imported again when needed
    assert nvm.erases == store.compactions == 2
    assert "pisti_core.nvpack" not in sys.modules and not hasattr(pisti_core, "nvpack")
    got, _ = reload(nvm)
    assert R.state_of(got) == R.state_of(store)


def test_a_compaction_that_finds_no_memory_writes_nothing_and_the_store_goes_on(monkeypatch):
    """T-6: the 4 KB image is allocated for a compaction only; when the heap
    has no 4 KB in one piece (MemoryError: the app restarts into its saved
    game) nothing is written and the store is as before: a boot reads every
    record saved so far, and the same save succeeds once memory is there."""
    import builtins

    nvm, store = fresh()
    store.put_ranking(b"r")
    store.start_game(bytes(100))
    store.add_actions(bytes(40))
    i = 0
    while store.free > 200:  # the log fills with settings records
        i += 1
        store.put_settings(bytes((i & 255,)) * 60)
    image = nvm.snapshot()
    state = R.state_of(store)
    real = builtins.bytearray

    def no_4k(*a):
        if a and a[0] == 4096:
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
        return real(*a)
    monkeypatch.setattr(builtins, "bytearray", no_4k)
    with pytest.raises(MemoryError):
        store.add_actions(bytes(250))
    assert nvm.snapshot() == image and R.state_of(store) == state and nvm.erases == 0
    monkeypatch.setattr(builtins, "bytearray", real)
    got, _ = reload(nvm)
    assert R.state_of(got) == state
    store.add_actions(bytes(250))  # memory again: compacted, nothing lost
    assert nvm.erases == 1
    got, _ = reload(nvm)
    assert R.state_of(got) == R.state_of(store) and len(got.game_actions) == len(state[3]) + 250
