# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Button-mash fuzzing of the firmware (issue 12): tools/fuzz.py.

The CI run presses 20,000 buttons over both profiles (six buttons 128x64,
three buttons 128x32) with no fault; a broken invariant planted in the rules
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
import tempfile
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


def test_ci_run_both_profiles_no_fault():
    # One process a profile, side by side (CI has two cores): ~70 s instead of ~140 s.
    procs = {}
    for profile, seed in (("pico", 12), ("featherwing", 13)):
        procs[profile] = subprocess.Popen(
            [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--presses", str(CI_PRESSES // 2), "--seed", str(seed),
             "--profile", profile, "--json", "--quiet",
             "--fault-file", os.path.join(tempfile.gettempdir(), "pisti-fuzz-ci-%s.json" % profile)],
            cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = {}
    for profile, proc in procs.items():
        out, err = proc.communicate(timeout=1800)
        assert proc.returncode == 0, out + err  # a fault prints its seed and the keys that reproduce it
        results[profile] = json.loads(out.strip().splitlines()[0])
    screens, tables, langs = set(), set(), set()
    for profile, s in results.items():
        langs |= set(s["langs"])
        assert s["faults"] == 0 and s["presses"] == CI_PRESSES // 2 and s["per_profile"] == {profile: CI_PRESSES // 2}
        assert s["power_cuts"] >= 10 and s["resumes"] >= 10, s  # T-6 resumes were checked
        screens |= set(s["screens"])
        tables |= set(s["tables"])
    assert langs == {"en", "tr"}
    missing = SCREENS - screens
    assert not missing, (missing, screens)
    games = {tuple(t.split(":")[:2]) for t in tables}
    assert games == {(g, str(n)) for g, n in fuzz.MODES}, games  # every game and player count at a table
    assert {t.split(":")[-1] for t in tables} == {"rated", "practice"}
    assert {lv for t in tables for lv in t.split(":")[2].split(",")} == set(fuzz.LEVELS)


def _missing_card(monkeypatch):
    # A planted bug: from the sixth ply on, the Pişti stock loses a card.
    monkeypatch.setattr(PistiHand, "stock", property(lambda h: 52 - h.pos - (1 if h.ply >= 5 else 0)))


def test_a_broken_invariant_is_a_fault_that_reproduces(monkeypatch, tmp_path):
    _missing_card(monkeypatch)
    out = io.StringIO()
    path = tmp_path / "fault.json"
    code = fuzz.main(["--presses", "3000", "--seed", "3", "--profile", "pico", "--quiet",
                      "--fault-file", str(path)], out=out)
    text = out.getvalue()
    assert code == 1, text
    assert "faults: 1" in text and "cards do not add up to the deck of 52" in text
    assert "seed 3, profile pico" in text
    saved = json.loads(path.read_text())
    assert saved["seed"] == 3 and saved["profile"] == "pico" and saved["boots"]
    # with the checks: the same fault again
    out2 = io.StringIO()
    assert fuzz.main(["--replay", str(path), "--quiet"], out=out2) == 1
    assert out2.getvalue().split("FAULT: ")[1].split("\n")[0] == saved["fault"]
    # the printed tools/sim.py lines, in order on one nvm, end in the broken state
    lines = text.split("the same keys in the simulator (one nvm file, in order):\n")[1].strip().splitlines()
    assert lines[0] == "rm -f fuzz.nvm" and all(l.startswith("python tools/sim.py --headless") for l in lines[1:])
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
    fz = fuzz.Fuzzer(seed=3, presses=600, profiles=("pico",))
    assert fz.run() is None
