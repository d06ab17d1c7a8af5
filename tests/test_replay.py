# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""tools/replay.py: R-1 to R-4, under CPython and under the micropython command."""

import json
import os
import random
import subprocess
import sys

import pytest

from pisti_core.cards import card_str
from pisti_core.match import deal_deck, new_hand
from tests.stack import pisti_deck
from tools import mpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPLAY = os.path.join(ROOT, "tools", "replay.py")


def run_cpython(text):
    r = subprocess.run([sys.executable, REPLAY], input=text, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def run_micropython(text):
    r = mpy.run(REPLAY, stdin=text, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


RUNNERS = [run_cpython, run_micropython]


def line(game, players, dealer, deck, moves):
    return json.dumps({"game": game, "players": players, "dealer": dealer,
                       "deck": [card_str(c) for c in deck], "moves": moves})


def recorded(game, players, seed, stop=None):
    rng = random.Random(seed)
    deck = deal_deck(game, players, rng.randrange)
    h = new_hand(game, players, rng.randrange(players), deck)
    moves = []
    while not h.over and (stop is None or len(moves) < stop):
        acts = [a for a in h.legal()]
        a = acts[rng.randrange(len(acts))]
        if game == "yedili" and a >= 128:  # Muamele picks are not moves
            break
        moves.append(h.action_str(a))
        h.apply(a)
    return line(game, players, h.dealer, deck, moves), h


def outputs(runner, lines):
    out = runner("".join(x + "\n" for x in lines)).splitlines()
    assert len(out) == len(lines)  # one line out per line in, in order
    return [json.loads(o) for o in out]


@pytest.mark.parametrize("runner", RUNNERS, ids=["cpython", "micropython"])
def test_R1_R3_complete_and_partial_hands(runner):
    lines, hands = [], []
    for i, (g, n) in enumerate([("pisti", 2), ("pisti", 4), ("yedili", 2), ("yedili", 3),
                                ("yedili", 4)]):
        for stop in (None, 7):
            ln, h = recorded(g, n, 100 + i, stop)
            lines.append(ln)
            hands.append(h)
    for out, h in zip(outputs(runner, lines), hands, strict=True):
        if h.game == "pisti" and h.over:
            rows = h.result()
            assert out == {"complete": True, "points": [r["total"] for r in rows],
                           "cards": [r["cards"] for r in rows],
                           "pisti": [r["pisti"] for r in rows],
                           "jack_pisti": [r["jack_pisti"] for r in rows],
                           "last_capture": h.last_cap if h.last_cap >= 0 else None}
        elif h.game == "yedili" and (h.over or h.phase == 4):
            while not h.over:
                h.play(128)  # Muamele picks from the top
            assert out == {"complete": True, "winner": h.winner if h.winner >= 0 else None,
                           "multiplier": h.mult, "penalties": h.penalties()}
        else:
            legal = sorted(h.action_str(a) for a in h.legal())
            assert out == {"complete": False, "to_move": h.turn, "legal": legal}


@pytest.mark.parametrize("runner", RUNNERS, ids=["cpython", "micropython"])
def test_R2_R3_legal_lists_each_jack_suit_once_sorted_as_strings(runner):
    ln, h = recorded("yedili", 4, 5, stop=0)
    # Find a position where a Jack is playable: play on until one shows up.
    rng = random.Random(3)
    moves = []
    while True:
        acts = h.legal()
        if any(64 <= a < 80 for a in acts):
            break
        a = acts[rng.randrange(len(acts))]
        moves.append(h.action_str(a))
        h.apply(a)
    d = json.loads(ln)
    d["moves"] = moves
    out = outputs(runner, [json.dumps(d)])[0]
    assert out["complete"] is False
    legal = out["legal"]
    assert legal == sorted(set(legal))  # each once, code-point order
    jacks = [a for a in legal if a.startswith("J")]
    assert len(jacks) % 4 == 0 and {a[3] for a in jacks} == set("CDHS")
    if "draw" in legal:
        assert legal[-1] in ("draw", "pass")  # lower case sorts after the card codes


@pytest.mark.parametrize("runner", RUNNERS, ids=["cpython", "micropython"])
def test_R4_errors_name_the_line_and_processing_goes_on(runner):
    good, h = recorded("pisti", 2, 9, stop=3)
    d = json.loads(good)
    bad_move = dict(d, moves=d["moves"][:2] + ["ZZ"])
    other_seat = dict(d, moves=d["moves"][:1] + [card_str(h.hand(h.turn ^ 1)[0])])
    short_deck = dict(d, deck=d["deck"][:51])
    dup_deck = dict(d, deck=d["deck"][:51] + [d["deck"][0]])
    redeal = pisti_deck(2, 0, "JH JC JD JS", [], fill_avoid_jacks=False)
    lines = ["this is not json", "[1, 2]", json.dumps({"game": "pisti"}),
             json.dumps(bad_move), json.dumps(other_seat), json.dumps(short_deck),
             json.dumps(dup_deck), line("pisti", 2, 0, redeal, []),
             json.dumps(dict(d, game="poker")), json.dumps(dict(d, players=3)),
             json.dumps(dict(d, dealer=5)), good, ""]
    outs = outputs(runner, lines)
    for o in outs[:11]:
        assert set(o) == {"error", "index"} and isinstance(o["error"], str) and o["error"]
    assert [o["index"] for o in outs[:11]] == [None, None, None, 2, 1, None, None, None, None,
                                               None, None]
    assert "redeal" in outs[7]["error"]
    assert outs[11]["complete"] is False  # the next lines are still processed
    assert "error" in outs[12]


@pytest.mark.parametrize("runner", RUNNERS, ids=["cpython", "micropython"])
def test_R4_moves_past_the_end_are_errors(runner):
    ln, h = recorded("pisti", 2, 11)
    d = json.loads(ln)
    d["moves"].append(d["moves"][0])
    out = outputs(runner, [json.dumps(d)])[0]
    assert out["index"] == 48 and "end" in out["error"]


def test_same_bytes_under_both_interpreters():
    lines = [recorded(g, n, s)[0] for g, n in [("pisti", 2), ("yedili", 4)] for s in range(3)]
    lines += ["nonsense", json.dumps({"game": "yedili", "players": 2, "dealer": 0,
                                      "deck": ["AS"] * 52, "moves": []})]
    text = "".join(x + "\n" for x in lines)
    assert run_cpython(text) == run_micropython(text)


def test_exit_0_on_empty_input():
    assert run_cpython("") == ""
    assert run_micropython("") == ""


def run_args(interpreter, args, stdin=""):
    """tools/replay.py with command-line arguments under one interpreter."""
    if interpreter == "micropython":
        return mpy.run(REPLAY, stdin=stdin, timeout=60, args=args)
    return subprocess.run([sys.executable, REPLAY] + list(args), input=stdin,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_R1_reads_the_file_named(interpreter, tmp_path):
    lines = [recorded("pisti", 2, 21, stop=4)[0], "nonsense"]
    text = "".join(x + "\n" for x in lines)
    f = tmp_path / "hands.jsonl"
    f.write_text(text)
    r = run_args(interpreter, [str(f)], stdin="also nonsense\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == run_cpython(text)
    assert run_args(interpreter, ["-"], stdin=text).stdout == r.stdout


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_help_prints_usage_without_reading_input(interpreter):
    r = run_args(interpreter, ["--help"], stdin='{"game": "pisti"}\n')
    assert r.returncode == 0
    assert r.stdout.startswith("usage: replay.py [FILE]\n")
    assert not any(ln.startswith("{") for ln in r.stdout.splitlines())  # no hand was replayed


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
@pytest.mark.parametrize("args, words", [
    (["missing.jsonl"], "cannot read missing.jsonl: no such file"),
    (["."], "cannot read .: it is a folder"),
    (["--deck"], "unknown option --deck"),
    (["a.jsonl", "b.jsonl"], "one FILE at most"),
], ids=["missing", "folder", "option", "two-files"])
def test_bad_usage_is_one_line_and_exit_2(interpreter, args, words):
    r = run_args(interpreter, args, stdin=recorded("pisti", 2, 1)[0] + "\n")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and words in r.stderr, r.stderr


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_R4_a_line_that_is_not_utf8_is_an_error_line(interpreter, tmp_path):
    good = recorded("pisti", 2, 4, stop=2)[0]
    f = tmp_path / "hands.jsonl"
    f.write_bytes(b"\xff\xfe{}\n" + good.encode() + b"\n")
    r = run_args(interpreter, [str(f)])
    assert r.returncode == 0, r.stderr
    outs = [json.loads(o) for o in r.stdout.splitlines()]
    assert outs[0] == {"error": "the line is not UTF-8 text", "index": None}
    assert outs[1]["complete"] is False
