# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Play it in a browser: the page of tools/web (the firmware in
MicroPython's WebAssembly VM with the Pico's heap, over the heap gauge's
stand-ins) in headless Chromium, driven by tools/web/browser_test.mjs.

One browser run (module fixture) covers: the page loads with no console
errors and ticks in real time; key scripts play a Pişti hand (to its end)
and a Pis Yedili hand (ten plies) on the virtual clock, and the canvas
equals the desktop simulator's frame for the same seed and keys at four
points (the main menu, the Pişti hand end, the Pis Yedili table, the
FeatherWing's menu); a reload
resumes the game from localStorage with Continue (T-6); a heap over the cap
shows the firmware's out-of-memory notice, and OK restarts into the saved
game; every documented start mode loads on both profiles, with varied
seeds, without a trap or a traceback (several VMs in one realm, and
yedili:3/4's boot, are the risks); a VM stuck inside WebAssembly
is stopped by the page's watchdog, and the page says so; link play
(?link=1): two consoles side by side, a Pico and a FeatherWing,
each its own VM in its own worker, their UARTs joined in the page, host
and join by the page's keyboard and play to the same ply of the same game,
and two tabs (cable=a, cable=b) do it over a BroadcastChannel; a bad query value is named on
the page in one line and never reaches the firmware. The page screenshot in tools/web/page.png (README; the page at the
Pis Yedili point) is rewritten with PISTI_UPDATE_GOLDEN=1.

Needs node, tools/web/node_modules (playwright-core, pinned) and
tools/memgauge/node_modules (the VM), and /usr/bin/chromium: tools/setup.sh
installs them. Missing, the test is skipped, except under CI=true.
"""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "web"))
import probe  # (tools/web/probe.py: the start modes, the queries, how a load ended)

# One worker runs every test of this file under pytest-xdist (tools/test.sh):
# they share the module fixture's one long run.
pytestmark = pytest.mark.xdist_group("web")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "tools", "web")
CHROMIUM = os.environ.get("PISTI_CHROMIUM", "/usr/bin/chromium")
SHOT = os.path.join(WEB, "page.png")

# name -> (page query, simulator arguments): the same seed and keys
POINTS = {
    "menu": ("?seed=7&keys=DOWN,DOWN", ["--seed", "7", "--keys", "DOWN,DOWN"]),
    "pisti_hand": ("?seed=7&start=pisti:2:usta&keys=A*24",
                   ["--seed", "7", "--start", "pisti:2:usta", "--keys", "A*24"]),
    "yedili_hand": ("?seed=7&start=yedili:2:usta&keys=A,RIGHT,A,RIGHT,A,UP,A,A",
                    ["--seed", "7", "--start", "yedili:2:usta", "--keys", "A,RIGHT,A,RIGHT,A,UP,A,A"]),
    # the FeatherWing profile: 128x32, three buttons
    "featherwing": ("?profile=featherwing&seed=7&keys=B,C,C",
                    ["--profile", "featherwing", "--seed", "7", "--keys", "B,C,C"]),
}
SHOT_OF = "yedili_hand"  # the page screenshot in the README
# WAIT:MS in the page's key scripts as in the simulator's: 36 s alone at the main menu, the demo plays
WAIT = {"name": "wait", "query": "?seed=7&keys=WAIT:36000"}
# through the menus into a Pişti game, four plies; after the reload: Continue
RELOAD = {"first": "?seed=7&keys=A,A,UP,A,A,A", "then": "?keys=A,A"}
# over the cap: a Pis Yedili 4-player game (PISTI_START) in a heap the table does not fit in.
# (Near its cap this VM can loop instead of raising MemoryError (NOTES.md): the heap and the
# seed are one where it raises; the watchdog is short in case the restart loops.)
OOM_CAP = 97000  # a cap the Pis Yedili 4p start meets with MemoryError (some higher ones loop while booting)
OOM = {"query": "?seed=7&cap=%d&start=yedili:4:usta&watchdog=8000&keys=A" % OOM_CAP, "ok": "z",
       "then": "?keys=A,A"}
# Every documented start mode (game:players:level) on both profiles, each with its own
# seed (the probe's first round; tools/web/probe.py runs more).
LOADS = probe.queries(1, seed0=101, keys={"pico": "A*2", "featherwing": "B*2"})
# the test hook: the VM loops inside WebAssembly before it boots; the watchdog stops it
HANG = {"query": "?hang=1&watchdog=1500"}
# link play: console A a Pico (w/s move, F = A), console B a FeatherWing (J = A moves up,
# L = C down, K = B selects); A hosts, B joins and takes the offer, each plays when its turn comes
LINK = {"query": "?link=1&seed=7&profile2=featherwing", "plies": 4,
        "keys": [{"UP": "w", "DOWN": "s", "OK": "f"}, {"UP": "j", "DOWN": "l", "OK": "k"}]}
# the linked page in a 760 px wide window: the two consoles side by side
LINK_LAYOUT = {"query": "?link=1&seed=7&profile2=featherwing", "width": 760}
# the same between two tabs (cable=a, cable=b: a BroadcastChannel), each with the page's own keys
LINK_TABS = {"tabs": ["?cable=a&seed=7", "?cable=b&seed=7"], "plies": 1,
             "keys": [{"UP": "ArrowUp", "DOWN": "ArrowDown", "OK": "z"},
                      {"UP": "ArrowUp", "DOWN": "ArrowDown", "OK": "Enter"}]}
# bad query values: name -> (query, {parameter: words its one line on the page says}); the
# other parameters in the query are good ones
QUERIES = {
    "values": ("?profile=xyz&seed=abc&start=nonsense&lang=de&delay=-5&sead=4",
               {"profile": "profile takes pico or featherwing", "seed": "seed takes a whole number",
                "start": "start takes GAME:PLAYERS:LEVELS", "lang": "lang takes en or tr",
                "delay": "delay takes a whole number of ms from 0 to 10000", "sead": "no parameter sead"}),
    "players": ("?start=pisti:3:usta&seed=7&rated=yes&cable=c&seed2=5",
                {"start": "Pişti is for 2 or 4 players", "rated": "rated takes 1", "cable": "cable takes a or b",
                 "seed2": "console B's, with link=1"}),
    "link": ("?link=1&profile2=xyz&seed2=abc&lang2=de&delay=99999&seed=7",
             {"profile2": "profile2 takes pico or featherwing", "seed2": "seed2 takes a whole number",
              "lang2": "lang2 takes en or tr", "delay": "delay takes a whole number"}),
}


def _missing():
    if not shutil.which("node"):
        return "node"
    for p in (os.path.join(WEB, "node_modules", "playwright-core"),
              os.path.join(ROOT, "tools", "memgauge", "node_modules", "@micropython")):
        if not os.path.isdir(p):
            return p
    if not os.path.exists(CHROMIUM):
        return CHROMIUM
    return None


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    missing = _missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail("the browser test needs %s (bash tools/setup.sh installs it)" % missing)
        pytest.skip("no %s: run bash tools/setup.sh" % missing)
    tmp = tmp_path_factory.mktemp("web")
    site = str(tmp / "site")
    t0 = time.monotonic()
    subprocess.run([sys.executable, os.path.join(WEB, "build.py"), site], check=True, cwd=ROOT)
    built = time.monotonic() - t0
    server = subprocess.Popen([sys.executable, os.path.join(WEB, "serve.py"), site, "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = line.split(" on ")[1].split(" ")[0]
        plan = tmp / "plan.json"
        plan.write_text(json.dumps({
            "scripts": [{"name": k, "query": v[0]} for k, v in POINTS.items()] + [WAIT],
            "reload": RELOAD, "oom": OOM, "chromium": CHROMIUM, "shot": SHOT_OF,
            "loads": LOADS, "parallel": 2, "hang": HANG, "link": LINK,
            "linkTabs": LINK_TABS, "linkLayout": LINK_LAYOUT,
            "queries": [{"name": k, "query": v[0]} for k, v in QUERIES.items()]}))
        out = tmp / "out.json"
        shot = tmp / "page.png"
        t1 = time.monotonic()
        subprocess.run(["node", os.path.join(WEB, "browser_test.mjs"), url, str(plan), str(out),
                        "--shot", str(shot)], check=True, cwd=WEB, timeout=600)
        result = json.loads(out.read_text())
        result["build_seconds"] = built
        result["browser_seconds"] = time.monotonic() - t1
        result["shot"] = str(shot)
        print("web: build %.1f s, browser %.1f s; first frame %s ms, %s ticks/s real time; "
              "script pisti_hand %s ticks in %s ms" % (
                  built, result["browser_seconds"], result.get("live", {}).get("firstFrameMs"),
                  result.get("live", {}).get("ticksPerSecond"),
                  result["scripts"].get("pisti_hand", {}).get("scriptTicks"),
                  result["scripts"].get("pisti_hand", {}).get("scriptMs")))
        return result
    finally:
        server.terminate()
        server.wait(10)


def sim_frame(tmp_path, args):
    """The simulator's last frame for ``args`` as rows of '0'/'1' (its 4x PNG read back)."""
    png = tmp_path / "sim.png"
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--headless", *args,
                    "--shot", str(png)], check=True, cwd=ROOT, capture_output=True)
    im = Image.open(png).convert("L")
    w, h = im.width // 4, im.height // 4
    return ["".join("1" if im.getpixel((x * 4 + 2, y * 4 + 2)) > 128 else "0" for x in range(w))
            for y in range(h)]


def test_page_loads_without_errors(run):
    assert not run["errors"], run["errors"]
    live = run["live"]
    assert live["errors"] == [], live["errors"]
    assert live["state"] == "running"
    assert live["status"]["screen"] in ("splash", "menu")
    assert live["firstFrameMs"] is not None and live["ticksPerSecond"] > 10
    assert live["cap"] == pytest.approx(171264, abs=64)  # the Pico's heap, once the stand-ins are in
    assert 0 < live["live"] < live["cap"]
    assert live["lastMem"].startswith("mem ")  # PISTI_MEMLOG's line, under the screen
    assert not [line for line in live["lines"] if "settings.toml" in line]  # the profile's pins exist
    lit = sum(row.count("1") for row in live["pixels"])
    assert lit > 100  # the splash or the menu, not a blank canvas


@pytest.mark.parametrize("name", sorted(POINTS))
def test_canvas_equals_the_simulator(run, tmp_path, name):
    page = run["scripts"][name]
    assert page["errors"] == [] and page["state"] == "done", (page["state"], page["error"], page["errors"])
    want = sim_frame(tmp_path, POINTS[name][1])
    got = page["pixels"]
    h = 32 if name == "featherwing" else 64
    assert len(want) == h and len(got) == h and len(got[0]) == 128
    assert sum(row.count("1") for row in got) > 100  # not a blank screen on both
    diff = [(x, y) for y in range(h) for x in range(128) if got[y][x] != want[y][x]]
    assert not diff, "%d pixels differ from the simulator, first %s\npage:\n%s\nsim:\n%s" % (
        len(diff), diff[:10], "\n".join(got), "\n".join(want))


def test_scripts_play_a_hand_of_each_game(run):
    p = run["scripts"]["pisti_hand"]["status"]
    assert p["screen"] == "hand_end" and p["game"] == "pisti" and sum(p["totals"]) > 0  # P-: a hand scored
    y = run["scripts"]["yedili_hand"]["status"]
    assert y["screen"] == "table" and y["game"] == "yedili" and y["ply"] >= 8


def test_a_wait_step_leaves_the_console_alone(run):
    page = run["scripts"]["wait"]
    assert page["state"] == "done" and not page["errors"], page.get("error")
    st = page["status"]
    assert st["demo"] is True and st["screen"] == "table" and st["game"] == "pisti"


def test_reload_resumes_from_storage(run):
    r = run["reload"]
    assert r["errors"] == []
    b, a = r["before"]["status"], r["after"]["status"]
    assert b["screen"] == "table" and b["ply"] >= 2
    # T-6: after the power cut (the reload), Continue is the same game at the same point
    assert a["screen"] == "table"
    for k in ("game", "players", "hand", "ply", "your_hand", "totals"):
        assert a[k] == b[k], (k, a[k], b[k])


def test_over_the_cap_shows_the_out_of_memory_notice(run):
    o = run["oom"]
    n = o["notice"]
    assert n["state"] == "oom", (n["state"], n["error"], n["lines"])
    assert n["status"]["screen"] == "oom" and "saved" in n["status"]["message"]
    assert any("out of memory" in line for line in n["lines"])  # the firmware's console line
    assert sum(row.count("1") for row in n["pixels"]) > 50
    assert n["cap"] == pytest.approx(OOM_CAP, abs=64)
    # OK restarts the board (supervisor.reload(): a new worker, a new VM) into the saved
    # game, started in a call of its own once the boot's garbage is gone: it runs, or the
    # notice comes again, or (the VM looping at its cap) the watchdog's message; never a
    # traceback or a trap
    a = o["after"]
    assert a["boots"] >= 1 and a["workers"] == 2
    assert a["state"] in ("running", "oom", "hung"), (a["state"], a["error"])
    if a["state"] == "running":
        st = a["status"]
        assert st["screen"] == "table" and st["game"] == "yedili" and st["players"] == 4, st
    # T-6: the game was saved before the heap ran out; with the Pico's heap, Continue resumes it
    r = o["resumed"]["status"]
    assert r["screen"] == "table" and r["game"] == "yedili" and r["players"] == 4, r
    assert o["errors"] == []


def test_every_start_mode_loads_on_both_profiles(run):
    loads = run["loads"]
    assert len(loads) == len(probe.modes()) * len(probe.PROFILES) == 30
    bad = [(load["query"], load["state"], load["error"][-300:], load["errors"][:2]) for load in loads
           if probe.verdict(load) != "ok"]
    assert not bad, bad  # no trap, no traceback, no notice: the Pico's heap holds every mode
    for load in loads:
        st = load["status"]
        mode = load["query"].split("start=")[1].split("&")[0]
        game, players, level = mode.split(":")
        assert st["screen"] == "table" and st["game"] == game and st["players"] == int(players), (mode, st)
        assert st["levels"] == [None] + [level] * (int(players) - 1)
        assert load["workers"] == 1  # one VM, no other in its realm


def test_watchdog_stops_a_stuck_vm(run):
    h = run["hang"]
    assert h["state"] == "hung", h
    assert h["alive"] == 2 and h["answerMs"] < 1000  # the page itself never froze
    assert 1500 <= h["hungMs"] < 6000
    assert "gave no answer for 1.5 s" in h["panel"] and "stopped" in h["text"]
    assert h["errors"] == []


def test_screenshot_for_the_readme(run):
    shot = Image.open(run["shot"])
    assert shot.width > 400
    if os.environ.get("PISTI_UPDATE_GOLDEN"):
        shutil.copyfile(run["shot"], SHOT)
    assert os.path.exists(SHOT), "tools/web/page.png missing: run with PISTI_UPDATE_GOLDEN=1"
    assert Image.open(SHOT).size == shot.size


def test_link_play_two_consoles_in_the_page(run):
    """?link=1 shows two consoles (here a Pico and a
    FeatherWing, profile2=featherwing), each its own VM in its own worker;
    by the page's keys A hosts from Link play and B joins, and both sit at
    the same game (the link's deal, L-3) and see each other's plays (L-4)."""
    link = run["link"]
    assert "failure" not in link, (link.get("failure"), link["trace"][-10:], link["end"])
    assert link["errors"] == [], link["errors"]
    end = link["end"]
    assert end["state"] == "running", (end["state"], end["error"])
    a, b = end["status"]
    assert a["screen"] == b["screen"] == "table"
    for k in ("game", "players", "hand", "ply", "bottom", "pile", "stock"):
        assert a[k] == b[k], (k, a[k], b[k])
    assert a["game"] == "pisti" and a["players"] == 2 and a["ply"] >= LINK["plies"]
    assert not set(a["your_hand"]) & set(b["your_hand"])  # T-5: each shows its own hand
    assert min(end["sent"]) > 100  # bytes both ways over the page's cable
    ua, ub = end["units"]
    assert len(ua["pixels"]) == 64 and len(ub["pixels"]) == 32  # 128x64 and the FeatherWing's 128x32
    assert all(sum(row.count("1") for row in u["pixels"]) > 100 for u in (ua, ub))
    assert ua["workers"] == ub["workers"] == 1  # one VM each, at the Pico's heap: no restart
    # the keys went through the page's keymaps: A's menu moves on w/s/f, B's on j/l/k
    assert "A:link:OK" in link["trace"] and "B:confirm:OK" in link["trace"]


def test_link_play_between_two_tabs(run):
    """?cable=a and ?cable=b: one console a tab, the cable a BroadcastChannel."""
    link = run["linkTabs"]
    assert "failure" not in link, (link.get("failure"), link["trace"][-10:], link["end"])
    assert link["errors"] == [], link["errors"]
    a, b = link["end"]["status"]
    assert a["screen"] == b["screen"] == "table"
    for k in ("game", "players", "hand", "ply", "bottom", "pile"):
        assert a[k] == b[k], (k, a[k], b[k])
    assert a["ply"] >= LINK_TABS["plies"] and not set(a["your_hand"]) & set(b["your_hand"])
    assert [u["workers"] for u in link["end"]["units"]] == [1, 1]


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_bad_query_values_are_named_on_the_page(run, name):
    """One line above the console for each bad query value (the parameter, the value, what it takes),
    kept on the page; the firmware gets its default, so its console blames no settings.toml."""
    query, words = QUERIES[name]
    got = run["queries"][name]
    assert got["errors"] == [] and got["state"] not in ("error", "hung"), got
    given = dict(kv.split("=", 1) for kv in query[1:].split("&"))
    assert got["shown"] and len(got["notices"]) == len(words), got["notices"]
    for param, said in words.items():
        line = [n for n in got["notices"] if n.startswith("%s=%s ignored: " % (param, given[param]))]
        assert len(line) == 1 and said in line[0], (param, got["notices"])
        assert line[0] in got["text"]
    assert "settings.toml" not in got["page"]
    assert not [ln for ln in got["lines"] if "settings.toml" in ln or "ignored" in ln], got["lines"]
    for src in got["frames"]:  # the linked consoles get only the good values
        assert not any("%s=%s" % (p, given[p]) in src for p in words), src


def test_link_play_at_760_px_shows_the_two_consoles_side_by_side(run):
    """?link=1 in a 760 px window: the two consoles share one row, each
    inside the window, and nothing in either is wider than its frame (the
    screen and the buttons scale down)."""
    lay = run["linkLayout"]
    assert lay["errors"] == [], lay["errors"]
    a, b = lay["frames"]
    assert a["top"] == b["top"] and a["right"] <= b["left"], lay  # side by side, not stacked
    assert 0 <= a["left"] and b["right"] <= lay["width"] and lay["scrollWidth"] <= lay["width"], lay
    for f in (a, b):
        assert f["scrollWidth"] <= f["clientWidth"], lay
