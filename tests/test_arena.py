# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The duplicate arena (tools/arena.py) and the outside-bot protocol
(tools/botproto.py, tools/botlab/README.md)."""

import json
import os
import random
import subprocess
import sys

import pytest

from pisti_core.cards import parse_card
from pisti_core.match import deal_deck
from pisti_core.pisti import PistiHand
from tools import arena
from tools.botproto import BotFailure, ExternalBot, obs_json, parse_answer, program_problem

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARENA = os.path.join(ROOT, "tools", "arena.py")
EXAMPLE = os.path.join(ROOT, "tools", "examples", "example_bot.py")
FIELDS = ("game", "players", "bots", "deals", "mean_diff", "ci95", "hand_win_rate",
          "match_win_rate", "ms_per_decision")


def run_cli(*args):
    return subprocess.run([sys.executable, ARENA] + list(args), capture_output=True, text=True,
                          timeout=300)


def same_figures(a, b):
    # Everything but the timings.
    drop = ("ms_per_decision", "ms_worst", "per_bot", "seconds")
    return {k: v for k, v in a.items() if k not in drop} == \
        {k: v for k, v in b.items() if k not in drop}


def test_json_output_has_the_documented_fields_and_progress_goes_to_stderr():
    r = run_cli("--game", "pisti", "--players", "2", "--bots", "usta,greedy", "--deals", "12",
                "--seed", "7", "--json", "--jobs", "1", "--progress")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)  # stdout is one JSON object and nothing else
    for k in FIELDS:
        assert k in res, k
    assert res["game"] == "pisti" and res["players"] == 2 and res["deals"] == 12
    assert res["bots"] == ["usta", "greedy"]
    assert isinstance(res["mean_diff"], float) and res["ci95"] > 0
    assert 0 <= res["hand_win_rate"] <= 1
    assert len(res["ms_per_decision"]) == 2 and all(t > 0 for t in res["ms_per_decision"])
    assert "12/12 deals" in r.stderr  # the progress line (forced: stderr is no terminal)
    assert "deals/s" in r.stderr and "left" in r.stderr


def test_seed_repeats_a_run_and_jobs_do_not_change_it():
    a = arena.run("pisti", 2, ["kalfa", "random"], 30, seed=5)
    b = arena.run("pisti", 2, ["kalfa", "random"], 30, seed=5, jobs=1)
    c = arena.run("pisti", 2, ["kalfa", "random"], 30, seed=6)
    assert same_figures(a, b)
    assert not same_figures(a, c)
    long = arena.run("pisti", 2, ["acemi", "random"], 2 * arena.BLOCK, seed=1)
    split = arena.run("pisti", 2, ["acemi", "random"], 2 * arena.BLOCK, seed=1, jobs=2)
    assert same_figures(long, split)


@pytest.mark.parametrize("players", [2, 4])
def test_duplicate_seating_cancels_the_cards(players):
    # The same deterministic bot on both sides: every deal is played twice
    # with the seats swapped, so each deal's difference is exactly zero.
    r = arena.run("pisti", players, ["greedy", "greedy"], 20, seed=2)
    assert r["mean_diff"] == 0.0 and r["ci95"] == 0.0 and r["hand_win_rate"] == 0.5


def test_layouts():
    assert arena.layouts("pisti", 2) == [(0, 1), (1, 0)]
    assert arena.layouts("pisti", 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert arena.layouts("yedili", 3) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    assert len(arena.layouts("yedili", 4)) == 4


def test_yedili_runs_over_seat_rotations():
    r = arena.run("yedili", 3, ["greedy", "random"], 6, seed=1)
    assert r["game"] == "yedili" and r["paired_deals"] == 6
    assert r["fair_share"] == pytest.approx(1 / 3)
    assert r["per_bot"][0]["decisions"] > 0 and r["per_bot"][1]["decisions"] > 0


def test_bad_arguments_get_a_clear_message():
    r = run_cli("--bots", "usta,grandmaster", "--deals", "2")
    assert r.returncode == 2 and "unknown bot 'grandmaster'" in r.stderr
    r = run_cli("--players", "3", "--deals", "2")
    assert r.returncode == 2 and "pisti is for 2 or 4 players" in r.stderr
    r = run_cli("--bots", "usta", "--deals", "2")
    assert r.returncode == 2 and "two names" in r.stderr


def test_two_runs_on_the_same_deals_compare_deal_by_deal(tmp_path):
    # --diffs keeps every deal's difference; --paired subtracts them deal by
    # deal, so two runs of the same matchup differ by exactly 0 (no noise),
    # and Usta against Kalfa's run is the mean of the differences.
    files = {}
    for name in ("usta", "kalfa"):
        f = tmp_path / (name + ".json")
        r = run_cli("--game", "yedili", "--players", "3", "--bots", name + ",greedy",
                    "--deals", "8", "--seed", "3", "--jobs", "1", "--quiet", "--diffs", str(f))
        assert r.returncode == 0, r.stderr
        files[name] = json.loads(f.read_text())
        assert len(files[name]["diffs"]) == 8 and files[name]["bots"] == [name, "greedy"]
    whole = arena.run("yedili", 3, ["usta", "greedy"], 8, seed=3)
    assert sum(files["usta"]["diffs"]) / 8 == pytest.approx(whole["mean_diff"])
    r = run_cli("--paired", str(tmp_path / "usta.json"), str(tmp_path / "kalfa.json"), "--json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    d = [x - y for x, y in zip(files["usta"]["diffs"], files["kalfa"]["diffs"], strict=True)]
    assert res["a_minus_b"]["mean_diff"] == pytest.approx(sum(d) / 8)
    assert res["a"]["mean_diff"] == pytest.approx(whole["mean_diff"])
    same = arena.paired(files["usta"], files["usta"])["a_minus_b"]
    assert same == {"mean_diff": 0.0, "ci95": 0.0}
    r = run_cli("--paired", str(tmp_path / "usta.json"), str(tmp_path / "kalfa.json"))
    assert r.returncode == 0 and "paired deal by deal" in r.stdout and "A - B:" in r.stdout
    # Runs that are not on the same deals do not pair: a clear message, exit 2.
    other = dict(files["kalfa"], seed=4)
    (tmp_path / "other.json").write_text(json.dumps(other))
    r = run_cli("--paired", str(tmp_path / "usta.json"), str(tmp_path / "other.json"))
    assert r.returncode == 2 and "do not pair: seed 3 and 4" in r.stderr
    (tmp_path / "bad.json").write_text("{not json")
    r = run_cli("--paired", str(tmp_path / "usta.json"), str(tmp_path / "bad.json"))
    assert r.returncode == 2 and "--paired" in r.stderr
    r = run_cli("--paired", str(tmp_path / "usta.json"), str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "missing.json" in r.stderr


def test_plot_draws_the_ladder(tmp_path):
    from PIL import Image
    png = tmp_path / "ladder.png"
    r = run_cli("--deals", "4", "--seed", "1", "--plot", str(png), "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert [row["bot"] for row in res["ladder"]] == ["random", "acemi", "kalfa", "usta"]
    with Image.open(str(png)) as img:
        assert img.format == "PNG" and img.size[0] > 100


def test_micropython_timing_mode():
    r = run_cli("--bots", "usta,greedy", "--deals", "3", "--micropython", "--json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["interpreter"] == "micropython" and res["decisions"] == 3 * 24
    assert 0 < res["ms_per_decision"] <= res["ms_worst"]


# -- outside bots ------------------------------------------------------------------

def bot_file(tmp_path, name, body):
    p = tmp_path / name
    p.write_text("import json, sys\n" + body)
    return str(p)


@pytest.mark.parametrize("bot, words", [
    ("./missing.py", "no such file ./missing.py"),
    ("./missing-bot --fast", "no such file ./missing-bot"),
    ("no-such-command-pisti ./x.py", "no such command no-such-command-pisti"),
    ("python3 'x.py", "cannot split"),
], ids=["py", "program", "command", "quotes"])
def test_an_outside_bot_that_cannot_start_is_refused_before_playing(bot, words):
    r = subprocess.run([sys.executable, ARENA, "--bots", bot + ",usta", "--deals", "1000", "--quiet"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("arena: --bots %s: " % bot) and words in r.stderr
    assert r.stderr.count("\n") == 1, r.stderr


def test_a_program_without_execute_permission_is_refused(tmp_path):
    prog = tmp_path / "mybot"
    prog.write_text("#!/bin/sh\n")
    prog.chmod(0o644)
    with pytest.raises(ValueError, match="may not be run"):
        arena.run("pisti", 2, [str(prog), "usta"], 1000)
    prog.chmod(0o755)
    assert program_problem(str(prog)) is None


def test_sim_and_arena_refuse_a_missing_bot_with_the_same_words():
    sim = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless",
                          "--bot", "1=./missing-bot"], capture_output=True, text=True, timeout=120)
    assert sim.returncode == 2
    assert sim.stderr.strip().endswith(": --bot 1=./missing-bot: " + program_problem("./missing-bot"))
    assert program_problem(EXAMPLE) is None and program_problem("python3 " + EXAMPLE) is None


def test_the_example_bot_plays_through_the_arena():
    r = arena.run("pisti", 2, [EXAMPLE, "greedy"], 3, seed=1)
    assert r["errors"] == [] and r["paired_deals"] == 3
    assert r["per_bot"][0]["decisions"] == 3 * 2 * 24  # 24 cards a hand, two seatings


def test_the_example_bot_plays_pis_yedili_too():
    r = arena.run("yedili", 2, [EXAMPLE, "random"], 2, seed=1)
    assert r["errors"] == [] and r["paired_deals"] == 2


def test_the_protocol_line_carries_the_observation_and_r2_actions():
    st = PistiHand(2, 0, deal_deck("pisti", 2, random.Random(3).randrange))
    o = st.observe(1)
    msg = obs_json(o)
    assert msg["type"] == "decide" and msg["game"] == "pisti" and msg["seat"] == 1
    assert msg["hand"] == [st.action_str(c) for c in st.hand(1)]
    assert msg["legal"] == sorted(msg["hand"]) and len(msg["bottom"]) == 2
    json.dumps(msg)  # plain JSON
    assert msg["legal"] == sorted(st.action_str(c) for c in o.legal())  # R-3 order
    assert parse_answer(o, msg["legal"][0] + "\n") == parse_card(msg["legal"][0])
    assert parse_answer(o, '"%s"' % msg["legal"][1]) == parse_card(msg["legal"][1])
    assert parse_answer(o, json.dumps({"action": msg["legal"][2]})) == parse_card(msg["legal"][2])
    for bad in ("", "hello", "5X", '{"move": 1}', "draw"):
        with pytest.raises(BotFailure) as e:
            parse_answer(o, bad)
        assert e.value.seat == 1 and e.value.line == bad


@pytest.mark.parametrize("body,what", [
    ("for line in sys.stdin:\n    print('hello there', flush=True)\n", "not an action"),
    ("for line in sys.stdin:\n    m = json.loads(line)\n"
     "    print([c for c in ['AC','AD','AH','AS','2C'] if c not in m['hand']][0], flush=True)\n",
     "illegal action"),
    ("sys.stdin.readline()\nsys.exit(3)\n", "exit code 3"),
    ("for line in sys.stdin:\n    pass\n", "no answer within"),
])
def test_a_misbehaving_bot_is_reported_loses_and_the_arena_survives(tmp_path, body, what):
    bad = bot_file(tmp_path, "bad.py", body)
    r = arena.run("pisti", 2, ["greedy", bad], 1, seed=1, timeout=0.5)
    assert r["errors"], r
    e = r["errors"][0]
    assert what in e["message"] and e["bot"] == bad and e["seat"] in (0, 1)
    assert "seat %d" % e["seat"] in e["message"]
    if what in ("not an action", "illegal action"):  # the offending line is quoted
        assert e["line"] and repr(e["line"]) in e["message"]
    # Every match the outside bot played in was forfeited: greedy won them all.
    assert r["matches"] >= 2 and r["match_win_rate"] == 1.0
    assert r["paired_deals"] == 0  # the spoiled deals are left out


def test_an_outside_bot_is_restarted_after_a_failure(tmp_path):
    # Answers garbage on its very first decision only (it keeps a count in a file).
    flag = tmp_path / "count"
    body = ("import os\nn = 0\nfor line in sys.stdin:\n"
            "    first = not os.path.exists(%r)\n"
            "    open(%r, 'a').write('x')\n"
            "    print('junk' if first else json.loads(line)['legal'][0], flush=True)\n"
            % (str(flag), str(flag)))
    bot = ExternalBot(bot_file(tmp_path, "flaky.py", body), "pisti", timeout=5, seat=0)
    st = PistiHand(2, 1, deal_deck("pisti", 2, random.Random(2).randrange))
    o = st.observe(0)
    with pytest.raises(BotFailure) as e:
        bot.choose(o)
    assert e.value.line == "junk" and e.value.seat == 0
    assert bot.choose(o) == parse_card(obs_json(o)["legal"][0])  # a fresh process answers
    bot.close()


@pytest.mark.parametrize("json_out", [False, True])
def test_a_failed_outside_bot_makes_the_exit_status_1(tmp_path, json_out):
    # Every move fails: the exit status must not be 0.
    bad = bot_file(tmp_path, "bad.py", "for line in sys.stdin:\n    print('hello there', flush=True)\n")
    r = run_cli("--bots", "%s,greedy" % bad, "--deals", "2", "--seed", "1", "--quiet", "--timeout", "5",
                *(["--json"] if json_out else []))
    assert r.returncode == 1, r.stdout + r.stderr
    n = len(json.loads(r.stdout)["errors"]) if json_out else r.stdout.count("  ERROR deal ")
    assert n >= 2
    assert r.stderr == "arena: an outside bot failed %d times (%s): the figures count forfeits\n" % (
        n, "errors in the JSON" if json_out else "the ERROR lines")
    good = run_cli("--bots", "%s,greedy" % EXAMPLE, "--deals", "1", "--seed", "1", "--quiet")
    assert good.returncode == 0 and "ERROR" not in good.stdout, good.stdout + good.stderr
