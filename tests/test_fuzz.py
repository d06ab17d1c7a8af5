# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Button-mash fuzzing of the firmware: tools/fuzz.py.

The CI run presses 20,000 buttons over both profiles (six buttons 128x64,
three buttons 128x32) with no fault, in parts that run side by side; a broken invariant planted in the rules
core is found, reported with a seed and key lists, and those reproduce it
(with the checks, and in plain ``tools/sim.py``). RULES.md P-1, Y-1 (the
deck), P-13, Y-16 (totals grow), T-6 (saved before shown, resumed after a
power cut).
"""

import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pisti_core.pisti import PistiHand
from tools import fuzz, sim
from tools.simlib.script import UsageError, parse_keys, profile_buttons

ROOT = Path(__file__).resolve().parents[1]
PICO = profile_buttons("pico")
CI_PRESSES = 20000

# Every screen of the firmware the CI run must reach (names as status() gives them).
SCREENS = {"splash", "menu", "new_game", "settings", "rankings", "rules", "rules_text", "about", "table",
           "pause", "confirm", "hand_end", "match_end", "scores"}


def test_burst_steps_parse():
    assert parse_keys("A+LEFT+B,UP", PICO) == [("A+LEFT+B", 0), ("UP", 60)]
    assert parse_keys("a+b*2", PICO) == [("A+B", 0)] * 2
    with pytest.raises(UsageError, match="no hold time"):
        parse_keys("A+B:900", PICO)
    with pytest.raises(UsageError, match="unknown key 'C'"):
        parse_keys("A+C", PICO)


CI_RUNS = (("pico", 12), ("featherwing", 13))  # a profile's run: CI_PRESSES // 2 presses from its seed
CI_PARTS = 3  # each run plays in this many parts, one process a part (pytest-xdist spreads them)


def _ci_shared_dir(tmp_path_factory):
    """A folder all of this pytest run's processes see (under pytest-xdist
    each worker's basetemp is a folder of the run's own)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path = root / "fuzz-ci"
    path.mkdir(exist_ok=True)
    return path


def _check_ci_coverage(results):
    """The whole CI run (every part of both profiles): what it must have reached."""
    screens, tables, langs = set(), set(), set()
    for profile, _ in CI_RUNS:
        mine = [s for s in results if s["per_profile"] == {profile: s["presses"]}]
        assert len(mine) == CI_PARTS and sum(s["presses"] for s in mine) == CI_PRESSES // 2, mine
        assert sorted(i for s in mine for i in s["chains"]) == list(range(len(
            fuzz.Fuzzer(dict(CI_RUNS)[profile], CI_PRESSES // 2, (profile,)).plan())))
        cuts = sum(s["power_cuts"] for s in mine)
        resumes = sum(s["resumes"] for s in mine)
        assert cuts >= 10 and resumes >= 10, (profile, cuts, resumes)  # T-6 resumes were checked
    for s in results:
        langs |= set(s["langs"])
        screens |= set(s["screens"])
        tables |= set(s["tables"])
    assert langs == {"en", "tr"}
    missing = SCREENS - screens
    assert not missing, (missing, screens)
    games = {tuple(t.split(":")[:2]) for t in tables}
    assert games == {(g, str(n)) for g, n in fuzz.MODES}, games  # every game and player count at a table
    assert {t.split(":")[-1] for t in tables} == {"rated", "practice"}
    assert {lv for t in tables for lv in t.split(":")[2].split(",")} == set(fuzz.LEVELS)


@pytest.mark.parametrize("profile, seed, part", [(p, s, k) for p, s in CI_RUNS for k in range(CI_PARTS)])
def test_ci_run_no_fault(tmp_path_factory, tmp_path, profile, seed, part):
    # CI_PRESSES over both profiles, each profile's run in CI_PARTS parts
    # (shares of its chains: together exactly the chains of the whole run).
    run = fuzz.Fuzzer(seed, CI_PRESSES // 2, (profile,))
    shares = [run.share(k, CI_PARTS) for k in range(CI_PARTS)]
    assert sorted(c for share in shares for c in share) == run.plan()
    mine = shares[part]
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--presses", str(CI_PRESSES // 2), "--seed", str(seed),
         "--profile", profile, "--part", "%d/%d" % (part + 1, CI_PARTS), "--json", "--quiet",
         "--fault-file", str(tmp_path / "fault.json")],
        cwd=str(ROOT), capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # a fault prints its seed and the keys that reproduce it
    s = json.loads(proc.stdout.strip().splitlines()[0])
    assert s["faults"] == 0 and s["chains"] == [c[0] for c in mine]
    assert s["presses"] == sum(c[3] for c in mine) and s["per_profile"] == {profile: s["presses"]}
    # What the whole run reached is checked once every part is done, by the
    # part that finishes last (each leaves its summary in the run's folder).
    shared = _ci_shared_dir(tmp_path_factory)
    tmp = shared / (".%s-%d.tmp" % (profile, part))
    tmp.write_text(json.dumps(s))
    os.replace(str(tmp), str(shared / ("%s-%d.json" % (profile, part))))
    results = [json.loads(p.read_text()) for p in sorted(shared.glob("*.json"))]
    if len(results) == len(CI_RUNS) * CI_PARTS:
        _check_ci_coverage(results)


def test_parts_share_the_chains_of_the_whole_run():
    run = fuzz.Fuzzer(12, CI_PRESSES // 2, ("pico",))
    plan = run.plan()
    assert [c[0] for c in plan] == list(range(len(plan))) and sum(c[3] for c in plan) == CI_PRESSES // 2
    assert all(fuzz.CHAIN_PRESSES[0] <= c[3] < fuzz.CHAIN_PRESSES[1] for c in plan[:-1])
    assert {c[1] for c in plan} == {"pico"} and {c[1] for c in fuzz.Fuzzer(1, 5000).plan()} == set(fuzz.PROFILES)
    for parts in (1, 2, 3, 5):
        shares = [run.share(k, parts) for k in range(parts)]
        assert sorted(c for share in shares for c in share) == plan
        presses = [sum(c[3] for c in share) for share in shares]
        assert max(presses) - min(presses) < fuzz.CHAIN_PRESSES[1], presses
    assert run.share(0, 1) == plan


@pytest.mark.parametrize("part", ["0/3", "4/3", "2", "a/b", "1/0"])
def test_a_bad_part_is_a_usage_error(part):
    out, err = io.StringIO(), io.StringIO()
    assert fuzz.main(["--presses", "10", "--part", part], out=out, err=err) == 2
    assert err.getvalue() == "fuzz.py: --part wants K/N with 1 <= K <= N (e.g. 1/3), not %r\n" % part
    assert out.getvalue() == ""


def _missing_card(monkeypatch):
    # A planted bug: from the sixth ply on, the Pişti stock loses a card.
    monkeypatch.setattr(PistiHand, "stock", property(lambda h: 52 - h.pos - (1 if h.ply >= 5 else 0)))


def test_a_broken_invariant_is_a_fault_that_reproduces(monkeypatch, tmp_path):
    _missing_card(monkeypatch)
    out = io.StringIO()
    path = tmp_path / "fault.json"
    code = fuzz.main(["--presses", "3000", "--seed", "5", "--profile", "pico", "--quiet",
                      "--fault-file", str(path)], out=out)
    text = out.getvalue()
    assert code == 1, text
    assert "faults: 1" in text and "cards do not add up to the deck of 52" in text
    assert "seed 5, profile pico" in text
    saved = json.loads(path.read_text())
    assert saved["seed"] == 5 and saved["profile"] == "pico" and saved["boots"]
    # with the checks: the same fault again
    out2 = io.StringIO()
    assert fuzz.main(["--replay", str(path), "--quiet"], out=out2) == 1
    assert out2.getvalue().split("FAULT: ")[1].split("\n")[0] == saved["fault"]
    # the printed tools/sim.py lines, in order on one nvm, end in the broken state
    lines = text.split("the same keys in the simulator (one nvm file, in order):\n")[1].strip().splitlines()
    assert lines[0] == "rm -f fuzz.nvm" and all(ln.startswith("python tools/sim.py --headless") for ln in lines[1:])
    nvm = str(tmp_path / "fuzz.nvm")
    status = None
    for line in lines[1:]:
        argv = [nvm if a == "fuzz.nvm" else a for a in shlex.split(line)[2:]]
        sim_out = io.StringIO()
        assert sim.main(argv, out=sim_out, err=io.StringIO()) == 0
        if "--status" in argv:
            status = json.loads(sim_out.getvalue())
    cards = status["cards"]
    assert status["game"] == "pisti"
    assert cards["hands"] + cards["pile"] + cards["stock"] + cards["taken"] == 51


def _unsaved_pairs(monkeypatch):
    # A planted bug: a record of two actions is kept in memory but never written (T-6).
    from pisti_core.nvlog import Store

    add = Store.add_actions

    def add_actions(self, data):
        if len(data) == 2:
            self.game_actions += bytes(data)
            return
        add(self, data)

    monkeypatch.setattr(Store, "add_actions", add_actions)


def _totals_shrink(monkeypatch):
    # A planted bug: the second hand of a match takes points off (P-13, Y-16).
    from pisti_core.match import Match

    end = Match.end_hand

    def end_hand(self):
        pts = end(self)
        if len(self.history) == 2:
            self.totals[0] -= pts[0] + 1
        return pts

    monkeypatch.setattr(Match, "end_hand", end_hand)


def _raises(monkeypatch):
    # A planted bug: the tenth card of a Pişti hand raises.
    play = PistiHand.play

    def planted(self, c):
        if self.ply == 9:
            raise RuntimeError("planted")
        play(self, c)

    monkeypatch.setattr(PistiHand, "play", planted)


@pytest.mark.parametrize("plant, words", [(_unsaved_pairs, "the nvm holds"),
                                          (_totals_shrink, "within a match"),
                                          (_raises, "RuntimeError: planted")])
def test_other_broken_invariants_are_faults(monkeypatch, tmp_path, plant, words):
    plant(monkeypatch)
    fz = fuzz.Fuzzer(seed=5, presses=6000, profiles=("pico", "featherwing"))
    fault = fz.run()
    assert fault is not None and words in fault["fault"], fault and fault["fault"]
    again = fuzz.Fuzzer(fault["seed"], 0)
    again.run_chain(fault["profile"], fault["chain_seed"], fault["chain"],
                    boots=[fuzz.Boot.from_dict(b) for b in fault["boots"]])
    assert again.fault is not None and again.fault["fault"] == fault["fault"]


def test_the_unbroken_firmware_passes_the_same_keys():
    # The run that found the planted card bug, without it: no fault.
    fz = fuzz.Fuzzer(seed=5, presses=300, profiles=("pico",))
    assert fz.run() is None
