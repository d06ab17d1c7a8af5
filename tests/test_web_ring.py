# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Three or four linked consoles in a browser (RULES.md L-11 .. L-17): the
page of tools/web in headless Chromium, driven by tools/web/browser_test.mjs
as tests/test_web.py drives it.

One browser run (module fixture) covers: ``?link=1&consoles=4`` boots four
consoles in a 2x2 grid (console D a FeatherWing, profile4=featherwing), each
its own VM in its own worker; at the menus each console's two link UARTs,
opened as the firmware opens a ring's (the pins from its profile), are
marked with its letter and port, and each mark reaches only the UART at its
cable's other end (console i's first UART to console i+1's second); then,
by the page's keyboard (the digits give it to a console), A hosts a Pişti
4p for four consoles, B, C and D join and take the offer, and all four sit
at the same game, seated in ring order, after the restart a ring game's
start is on the board. ``?link=1`` (two consoles) joins only the two first
UARTs: the second UARTs hear nothing. Three tabs (``cable=a..c&consoles=3``)
do a ring over BroadcastChannels: the marks again, then a Pis Yedili 3p. A
bad ``consoles``, ``cable`` or console C's or D's value is named on the page.

Needs what tests/test_web.py needs (node, playwright-core, the VM, Debian's
Chromium); missing, the test is skipped, except under CI=true.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

# The same worker as tests/test_web.py under pytest-xdist: two pages of several VMs each at a time
# would share two cores.
pytestmark = pytest.mark.xdist_group("web")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "tools", "web")
CHROMIUM = os.environ.get("PISTI_CHROMIUM", "/usr/bin/chromium")
IDS = "ABCD"
# a Pico's keys on its own keyboard (a ring's linked page: the console in focus), and a FeatherWing's
PICO_KEYS = {"UP": "ArrowUp", "DOWN": "ArrowDown", "RIGHT": "ArrowRight", "OK": "z"}
FEATHER_KEYS = {"UP": "ArrowUp", "DOWN": "ArrowDown", "OK": "Enter"}
# four consoles in the page, D a FeatherWing: marks on every UART, then a Pişti 4p of four people
# (the Host screen: Players 2 -> 4, Consoles 2 -> 4, then Start), one card played
RING4 = {"out": "ring4", "query": "?link=1&consoles=4&seed=7&profile4=featherwing", "consoles": 4,
         "focus": True, "probe": {"ms": 500}, "plies": 1,
         "host": [["players", "RIGHT"], ["consoles", "RIGHT"], ["consoles", "RIGHT"], ["start", "OK"]],
         "keys": [PICO_KEYS, PICO_KEYS, PICO_KEYS, FEATHER_KEYS]}
# two consoles in the page: only the marks
PAIR = {"out": "pair", "query": "?link=1&seed=7", "probe": {"ms": 500}, "drive": False}
# three tabs: the marks, then a Pis Yedili 3p of three people (Game -> Pis Yedili, Players 2 -> 3,
# Consoles 2 -> 3, Start)
RING3_TABS = {"out": "ring3tabs", "tabs": ["?cable=a&consoles=3&seed=7", "?cable=b&consoles=3&seed=8",
                                           "?cable=c&consoles=3&seed=9"],
              "probe": {"ms": 500}, "plies": 0,
              "host": [["game", "RIGHT"], ["players", "RIGHT"], ["consoles", "RIGHT"], ["start", "OK"]],
              "keys": [PICO_KEYS, PICO_KEYS, PICO_KEYS]}
# bad query values: name -> (query, {parameter: words its one line on the page says})
QUERIES = {
    "ring": ("?link=1&consoles=3&profile4=featherwing&seed3=abc&lang3=de",
             {"profile4": "profile4 is console D's, with link=1 and consoles=4", "seed3": "seed3 takes a whole number",
              "lang3": "lang3 takes en or tr"}),
    "tabs": ("?cable=d&consoles=3&seed=7", {"cable": "cable takes a, b or c"}),
    "alone": ("?consoles=4&profile3=pico&seed=7",
              {"consoles": "consoles is link play's, with link=1 or cable=",
               "profile3": "profile3 is console C's, with link=1 and consoles=3 or 4"}),
    "count": ("?link=1&consoles=5&seed=7", {"consoles": "consoles takes 2, 3 or 4"}),
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
    tmp = tmp_path_factory.mktemp("webring")
    site = str(tmp / "site")
    subprocess.run([sys.executable, os.path.join(WEB, "build.py"), site], check=True, cwd=ROOT)
    server = subprocess.Popen([sys.executable, os.path.join(WEB, "serve.py"), site, "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split(" on ")[1].split(" ")[0]
        plan = tmp / "plan.json"
        plan.write_text(json.dumps({
            "live": False, "chromium": CHROMIUM, "rings": [RING4, PAIR, RING3_TABS],
            "queries": [{"name": k, "query": v[0]} for k, v in QUERIES.items()]}))
        out = tmp / "out.json"
        subprocess.run(["node", os.path.join(WEB, "browser_test.mjs"), url, str(plan), str(out)],
                       check=True, cwd=WEB, timeout=600)
        result = json.loads(out.read_text())
        assert not result["errors"], result["errors"]
        return result
    finally:
        server.terminate()
        server.wait(10)


def heard(n):
    """What each of ``n`` consoles' UARTs hear of the marks, [first's, second's] a console, when console
    i's first UART is joined to console i+1's second (a ring), or, for two, the two first UARTs."""
    if n == 2:
        return [["B1", ""], ["A1", ""]]
    return [[IDS[(i + 1) % n] + "2", IDS[(i - 1) % n] + "1"] for i in range(n)]


def check_probe(res, n):
    assert res.get("probe") is not None, res.get("failure")
    assert res["opened"] == [""] * n, res["opened"]  # the firmware's open_ring found both links' pins
    assert res["probe"] == heard(n)


def check_table(res, n, game):
    """Every console at the same game, each showing its own hand, seated in ring order (A's
    person at the host's seat 0, the console on its first cable next, ...)."""
    assert "failure" not in res, (res.get("failure"), res["trace"][-12:])
    assert res["errors"] == [], res["errors"]
    sts = res["end"]["status"]
    assert len(sts) == n and all(s["screen"] == "table" for s in sts), [s.get("screen") for s in sts]
    for k in ("game", "players", "hand", "ply", "bottom", "pile", "stock"):
        assert len({json.dumps(s.get(k)) for s in sts}) == 1, (k, [s.get(k) for s in sts])
    assert sts[0]["game"] == game and sts[0]["players"] == n
    assert all(s["levels"][0] is None for s in sts)
    # each console counts the seats from its own person: console i's seat j is the host's i + j
    assert len({(s["turn"] + i) % n for i, s in enumerate(sts)}) == 1, [s["turn"] for s in sts]
    for i, s in enumerate(sts):
        assert [s["counts"][(j - i) % n] for j in range(n)] == sts[0]["counts"], [s["counts"] for s in sts]
    if game == "pisti":  # one deck: four hands of four, none shared (T-5: each shows its own)
        hands = [c for s in sts for c in s["your_hand"]]
        assert len(hands) == len(set(hands))
    # a ring game starts with a restart, as on the board (supervisor.reload(): a fresh heap): two workers
    # a console, each VM at the Pico's heap, and no console stopped
    assert [u["workers"] for u in res["end"]["units"]] == [2] * n
    assert all(u["state"] == "running" and not u["error"] for u in res["end"]["units"])


def test_four_consoles_wired_as_a_ring(run):
    """Console i's first UART reaches console i+1's second, and only it; the page counts each cable."""
    res = run["ring4"]
    check_probe(res, 4)
    cables = res["end"]["cables"]
    assert [c["ends"] for c in cables] == [["A1", "B2"], ["B1", "C2"], ["C1", "D2"], ["D1", "A2"]]
    assert all(min(c["bytes"]) > 100 for c in cables), cables  # the ring's traffic went both ways on each


def test_four_consoles_sit_at_one_pisti_4p(run):
    res = run["ring4"]
    check_table(res, 4, "pisti")
    sts = res["end"]["status"]
    assert sts[0]["ply"] == RING4["plies"]
    units = res["end"]["units"]
    assert [len(u["pixels"]) for u in units] == [64, 64, 64, 32]  # three Picos and a FeatherWing
    assert all(sum(row.count("1") for row in u["pixels"]) > 100 for u in units)
    # the keyboard went to each console in turn (the digits), and each moved its own menu
    trace = res["trace"]
    assert all("%s:menu:OK" % c in trace for c in IDS)
    assert "A:host:RIGHT" in trace and all("%s:confirm:OK" % c in trace for c in IDS[1:])


def test_four_consoles_in_a_2x2_grid(run):
    a, b, c, d = run["ring4"]["end"]["layout"]
    assert a["top"] == b["top"] < c["top"] == d["top"], (a, b, c, d)
    assert a["left"] == c["left"] < b["left"] == d["left"] and a["right"] <= b["left"], (a, b, c, d)


def test_two_consoles_join_only_the_first_uarts(run):
    """?link=1 as before: one cable between the two first UARTs; a UART with no cable hears nothing."""
    res = run["pair"]
    check_probe(res, 2)
    assert [c["ends"] for c in res["end"]["cables"]] == [["A1", "B1"]]
    assert res["errors"] == [], res["errors"]


def test_three_tabs_play_a_ring_of_pis_yedili(run):
    """cable=a, b, c with consoles=3: each tab a console, each cable of the ring a BroadcastChannel."""
    res = run["ring3tabs"]
    check_probe(res, 3)
    check_table(res, 3, "yedili")


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_bad_ring_query_values_are_named_on_the_page(run, name):
    query, words = QUERIES[name]
    got = run["queries"][name]
    assert got["errors"] == [] and got["state"] not in ("error", "hung"), got
    given = dict(kv.split("=", 1) for kv in query[1:].split("&"))
    assert got["shown"] and len(got["notices"]) == len(words), got["notices"]
    for param, said in words.items():
        line = [n for n in got["notices"] if n.startswith("%s=%s ignored: " % (param, given[param]))]
        assert len(line) == 1 and said in line[0], (param, got["notices"])
    for src in got["frames"]:  # the linked consoles get only the good values
        assert not any("%s=%s" % (p, given[p]) in src for p in words), src
    if name == "ring":  # consoles=3 stands: three consoles, C with A's profile
        assert len(got["frames"]) == 3 and "profile=" not in got["frames"][2]
