# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The bot lab (tools/botlab, desktop only): the PIMC reference never reads
what its seat may not know (T-5) and its worlds agree with what the seat saw;
the arena selects it by name, shards over Ray with the local run's figures,
and shows a progress line; the tuner and the ladder plot."""

import io
import json
import os
import random
import subprocess
import sys

import pytest

from fairplay import pisti_redeal
from pisti_core.bots import make_bot
from pisti_core.cards import parse_card
from pisti_core.match import deal_deck
from pisti_core.pisti import PistiHand
from tools import arena
from tools.botlab import games_of, is_lab, make
from tools.botlab.pimc_pisti import Guarded, Pimc, _key, clone, inference, sample_deck, world

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARENA = os.path.join(ROOT, "tools", "arena.py")


def C(text):
    return parse_card(text)


def positions(players, games, seed):
    """(state, seat to move) along games of usta against kalfa."""
    rng = random.Random(seed)
    for g in range(games):
        st = PistiHand(players, g % players, deal_deck("pisti", players, rng.randrange))
        bots = [make_bot("pisti", ("usta", "kalfa")[s % 2], random.Random(g * 8 + s))
                for s in range(players)]
        while not st.over:
            yield st, st.turn
            st.play(bots[st.turn].choose(st.observe(st.turn)))


# -- worlds: they agree with everything the seat saw --------------------------------

@pytest.mark.parametrize("players", [2, 4])
def test_every_sampled_world_shows_the_seat_exactly_what_it_saw(players):
    # T-5, P-5, P-8: a world is a whole deck replayed; the seat's observation
    # of it equals its real observation (own cards, played cards, revealed
    # centre, the bottom card, face-down cards only once taken).
    rng = random.Random(5)
    n = 0
    for st, seat in positions(players, 12, players):
        o = st.observe(seat)
        wts = inference(o)
        for _ in range(2):
            w = world(o, rng, wts)
            assert w.observe(seat) == o, st.describe()
            n += 1
    assert n > 500


def test_worlds_move_the_hidden_cards():
    # A world is no copy of the real deal: the other hand and the stock vary.
    rng = random.Random(2)
    st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
    o = st.observe(1)
    decks = {sample_deck(o, rng) for _ in range(20)}
    assert len(decks) == 20
    assert all(d[51] == st.deck[51] for d in decks)  # P-5: the bottom card is seen
    assert all(world(o, rng).hand(1) == st.hand(1) for _ in range(5))


def test_inference_reads_a_pile_left_on_the_table():
    # Seat 0 plays 9C onto the 5H pile without taking it: seat 1 (to move)
    # then thinks seat 0 unlikely to hold a Five, or a Jack (the pile holds
    # four cards, P-8); nothing is read about the seat itself.
    deck = bytearray(range(52))
    top = [C(x) for x in ["2S", "3S", "4S", "5H", "9C", "KC", "QC", "8C",
                          "6D", "7D", "8D", "KD"]]
    rest = [c for c in range(52) if c not in top and c != C("KH")]
    deck = bytes(top + rest + [C("KH")])
    st = PistiHand(2, 1, deck)
    st.apply(C("9C"))
    w = inference(st.observe(1))
    assert w[0][C("5D")] < 0.2 and w[0][C("JD")] < 0.5
    assert w[0][C("6C")] == 1.0
    assert all(x == 1.0 for x in w[1])
    # Dealing seat 0's hand follows the weights: Fives are rare there.
    rng = random.Random(1)
    fives = sum(any(c >> 2 == 4 for c in sample_deck(st.observe(1), rng, w)[5:8])
                for _ in range(300))
    uniform = sum(any(c >> 2 == 4 for c in sample_deck(st.observe(1), rng)[5:8])
                  for _ in range(300))
    assert fives * 3 < uniform


def test_clone_is_independent():
    st = PistiHand(2, 0, deal_deck("pisti", 2, random.Random(3).randrange))
    c = clone(st)
    c.play(c.legal()[0])
    assert st.ply == 0 and c.ply == 1 and st.hand(1) != c.hand(1) or st.hn[1] != c.hn[1]
    while not c.over:
        c.play(c.legal()[0])
    assert not st.over and st.legal()


# -- fair play (T-5) ------------------------------------------------------------------

@pytest.mark.parametrize("players,rollout", [(2, "fast"), (4, "fast"), (2, "fair")])
def test_pimc_never_decides_on_what_its_seat_cannot_see(players, rollout):
    # The fair-play proof of tests/fairplay.py: re-deal what the seat cannot
    # see; observation and decision stay the same.
    rng = random.Random(40 + players)
    checked = 0
    for k, (st, seat) in enumerate(positions(players, 3, 9)):
        if k % 5 or len(st.hand(seat)) < 2:
            continue
        o = st.observe(seat)
        want = Pimc(random.Random(7), 3, rollout, horizon=players // 2).choose(o)
        for _ in range(2):
            new = pisti_redeal(st, seat, rng)
            o2 = new.observe(seat)
            assert o2 == o
            assert Pimc(random.Random(7), 3, rollout, horizon=players // 2).choose(o2) == want, \
                st.describe()
        checked += 1
    assert checked >= 10


def test_pimc_plays_the_last_deal_like_the_solver():
    # Stock empty, two players: the exact search decides in every world; a
    # pişti on offer (P-9) is taken.
    for st, seat in positions(2, 6, 3):
        if st.stock == 0 and st.tn - st.tbase == 1 and len(st.hand(seat)) >= 2:
            top = st.table[st.tn - 1] >> 2
            match = [c for c in st.hand(seat) if c >> 2 == top]
            if match and st.ply != 47:
                c = Pimc(random.Random(1), 4).choose(st.observe(seat))
                assert c >> 2 == top, st.describe()


@pytest.mark.parametrize("players", [2, 4])
def test_guarded_search_never_decides_on_what_its_seat_cannot_see(players):
    # T-5 for the Usta overruled by the search (pimcg...): re-deal what the
    # seat cannot see, the decision stays; z=0 overrules at every hint.
    rng = random.Random(50 + players)
    checked = 0
    for k, (st, seat) in enumerate(positions(players, 3, 4)):
        if k % 5 or len(st.hand(seat)) < 2:
            continue
        o = st.observe(seat)
        want = Guarded(random.Random(7), 3, "fair", 1, 0.0).choose(o)
        for _ in range(2):
            o2 = pisti_redeal(st, seat, rng).observe(seat)
            assert o2 == o
            assert Guarded(random.Random(7), 3, "fair", 1, 0.0).choose(o2) == want, st.describe()
        checked += 1
    assert checked >= 10


def test_guarded_search_is_usta_unless_sure_and_the_search_when_z_is_zero():
    # Where the search is not sure, the guarded bot plays Usta's card with
    # Usta's own draws (a plain Usta with the same generator agrees at every
    # decision); with z=0 it plays the search's best card wherever that one
    # scores more than Usta's on the same worlds.
    from pisti_core.bots.pisti_bots import Bot
    n = differs = 0
    for k, (st, seat) in enumerate(positions(2, 4, 12)):
        o = st.observe(seat)
        sure = Guarded(random.Random(k), 2, "fast", 1, 1e9)
        assert sure.choose(o) == Bot(random.Random(k), 4).choose(o)
        if len(o.hand) < 2 or k % 3:
            continue
        u = Bot(random.Random(k), 4).choose(o)
        tot = Pimc(random.Random(_key(o)), 3, "fast", horizon=1).scores(o)
        i = max(range(len(tot)), key=lambda j: tot[j])
        want = o.hand[i] if tot[i] > tot[list(o.hand).index(u)] else u
        assert Guarded(random.Random(k), 3, "fast", 1, 0.0).choose(o) == want, st.describe()
        differs += want != u
        n += 1
    assert n >= 20 and differs  # the search did overrule somewhere


def test_sequential_guarded_search_decides_on_the_worlds_it_searched():
    # pimcg...aK: K worlds first, doubled while the choice is close. Its
    # decision is the plain guarded search's on as many worlds (the same
    # stream of worlds), and it stops early where Usta's card is clear.
    # Fair play (T-5): re-dealing what the seat cannot see changes nothing.
    rng = random.Random(8)
    n = early = deep = 0
    for k, (st, seat) in enumerate(positions(2, 3, 21)):
        o = st.observe(seat)
        if len(o.hand) < 2 or k % 2:
            continue
        seq = Guarded(random.Random(k), 8, "fast", 1, 1.0, 2)
        c = seq.choose(o)
        w = seq.searched
        assert w in (2, 4, 8)
        assert Guarded(random.Random(k), w, "fast", 1, 1.0).choose(o) == c, st.describe()
        o2 = pisti_redeal(st, seat, rng).observe(seat)
        assert o2 == o
        assert Guarded(random.Random(k), 8, "fast", 1, 1.0, 2).choose(o2) == c, st.describe()
        early += w == 2
        deep += w == 8
        n += 1
    assert n >= 20 and early and deep


def yedili_positions(games, seed):
    """(state, seat to move) along Pis Yedili hands of usta against kalfa,
    2 to 4 players, Muamele picks left out (Y-15: face down)."""
    from pisti_core.yedili import MUAMELE, YediliHand
    for players in (2, 3, 4):
        for g in range(games):
            st = YediliHand(players, g % players,
                            deal_deck("yedili", players, random.Random(seed + g).randrange))
            bots = [make_bot("yedili", ("usta", "kalfa")[s % 2], random.Random(g * 8 + s))
                    for s in range(players)]
            while not st.over:
                if st.phase != MUAMELE:
                    yield st, st.turn
                st.play(bots[st.turn].choose(st.observe(st.turn)))


def test_every_yedili_world_shows_the_seat_exactly_what_it_saw():
    # T-5: the other hands and the stock are dealt from the unseen cards (one
    # or two decks, Y-1); the seat's observation of the world is its own.
    from tools.botlab.pimc_yedili import world
    rng = random.Random(4)
    n = 0
    moved = 0
    for st, seat in yedili_positions(2, 30):
        o = st.observe(seat)
        w = world(o, rng)
        assert w.observe(seat) == o, st.describe()
        moved += any(w.hand(s) != st.hand(s) for s in range(st.players) if s != seat)
        n += 1
    assert n > 300 and moved > 0.9 * n


def test_yedili_guarded_search_never_decides_on_what_its_seat_cannot_see():
    # The re-deal check of tests/test_bots_yedili.py on the Pis Yedili pimcg:
    # z=0 follows the search at every hint, so the search itself is checked.
    from test_bots_yedili import yedili_redeal
    from tools.botlab.pimc_yedili import Guarded as YGuarded
    rng = random.Random(6)
    checked = 0
    for k, (st, seat) in enumerate(yedili_positions(1, 40)):
        o = st.observe(seat)
        if k % 9 or len(o.legal()) < 2:
            continue
        want = YGuarded(random.Random(k), 2, "fast", 0, 0.0).choose(o)
        o2 = yedili_redeal(st, seat, rng).observe(seat)
        assert o2 == o
        assert YGuarded(random.Random(k), 2, "fast", 0, 0.0).choose(o2) == want, st.describe()
        assert YGuarded(random.Random(k), 2, "fast", 0, 1e9).choose(o) == \
            make_bot("yedili", "usta", random.Random(k)).choose(o)  # unsure: Usta's action
        checked += 1
    assert checked >= 10


def test_lab_names():
    assert is_lab("pimc64") and is_lab("pimcu16") and not is_lab("pimc") \
        and not is_lab("pimc0") and not is_lab("usta")
    b = make("pimc64", "pisti", random.Random(1))
    assert b.worlds == 64 and b.rollout == "fast"
    assert make("pimcu8", "pisti", random.Random(1)).rollout == "usta"
    f = make("pimcf16h1", "pisti", random.Random(1))
    assert (f.worlds, f.rollout, f.horizon) == (16, "fair", 1)
    g = make("pimcgu16h1", "pisti", random.Random(1))
    assert isinstance(g, Guarded) and (g.worlds, g.rollout, g.horizon, g.z) == (16, "usta", 1, 2.0)
    assert make("pimcg8z25", "pisti", random.Random(1)).z == 2.5 and is_lab("pimcgf32h2z15")
    a = make("pimcgu32h2z15a8", "pisti", random.Random(1))
    assert (a.worlds, a.horizon, a.z, a.first) == (32, 2, 1.5, 8)
    assert make("pimcgu32", "pisti", random.Random(1)).first == 0
    with pytest.raises(ValueError, match="Pişti only"):
        make("pimcg32a8", "yedili", random.Random(1))
    from tools.botlab import pimc_yedili
    y = make("pimcg8", "yedili", random.Random(1))
    assert isinstance(y, pimc_yedili.Guarded) and (y.worlds, y.rollout, y.z) == (8, "fast", 2.0)
    with pytest.raises(ValueError, match="Pişti only"):
        make("pimc8", "yedili", random.Random(1))
    with pytest.raises(ValueError, match="Pişti only"):
        arena.run("yedili", 4, ["usta", "pimc8"], 2)


# -- measured: the reference against the levels ---------------------------------------

def test_pimc_beats_random_in_the_duplicate_arena():
    # A small sample (the README's ladder has the long runs against the
    # levels): even 4 worlds play far better than chance.
    r = arena.run("pisti", 2, ["pimc4", "random"], 30, seed=3)
    assert r["paired_deals"] == 30
    assert r["mean_diff"] - r["ci95"] > 0, r


# -- the arena: progress line, Ray --------------------------------------------------------

def test_progress_line_counts_rate_and_time_left():
    out = io.StringIO()
    p = arena.Progress(400, "pisti 2p usta,greedy", True, stream=out)
    p.add(200)
    text = out.getvalue()
    assert "200/400 deals" in text and "deals/s" in text and "left" in text
    p.add(200)
    assert out.getvalue().endswith("\n")
    quiet = io.StringIO()
    arena.Progress(10, "x", False, stream=quiet).add(10)
    assert quiet.getvalue() == ""


def test_json_output_is_quiet_on_stderr_unless_asked():
    r = subprocess.run([sys.executable, ARENA, "--bots", "kalfa,greedy", "--deals", "3",
                        "--json", "--jobs", "1"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["deals"] == 3
    assert "deals" not in r.stderr


def test_ray_arena_gives_the_local_figures():
    # CI's small Ray run (a local cluster of 2 CPUs): two blocks of deals
    # as Ray tasks, merged in deal order: the local run's figures exactly.
    import ray
    deals = arena.BLOCK + 30
    try:
        far = arena.run("pisti", 2, ["kalfa", "greedy"], deals, seed=4, jobs=2, use_ray=True)
        assert os.environ["RAY_USAGE_STATS_ENABLED"] == "0"
        yed = arena.run("yedili", 3, ["usta", "greedy"], 12, seed=2, jobs=2, use_ray=True)
    finally:
        ray.shutdown()
    near = arena.run("pisti", 2, ["kalfa", "greedy"], deals, seed=4, jobs=1)
    drop = ("ms_per_decision", "ms_worst", "per_bot", "seconds")
    for k in near:
        if k not in drop:
            assert far[k] == near[k], k
    assert far["paired_deals"] == deals
    yloc = arena.run("yedili", 3, ["usta", "greedy"], 12, seed=2, jobs=1)
    assert yed["mean_diff"] == yloc["mean_diff"] and yed["ci95"] == yloc["ci95"]


def test_ray_is_asked_for_by_flag_or_address(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert not arena.ray_wanted(False) and arena.ray_wanted(True)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    assert arena.ray_wanted(False)


# -- weighted levels, the tuner, the ladder ------------------------------------------------

def test_usta_with_its_own_weights_is_usta():
    from pisti_core.bots.pisti_bots import WEIGHTS
    from pisti_core.bots.yedili_heur import LEVELS
    from tools.botlab import weighted_name
    name = weighted_name("usta", WEIGHTS[0])
    a = arena.run("pisti", 2, [name, "greedy"], 6, seed=2)
    b = arena.run("pisti", 2, ["usta", "greedy"], 6, seed=2)
    assert a["mean_diff"] == b["mean_diff"] and a["hand_win_rate"] == b["hand_win_rate"]
    y = weighted_name("usta", LEVELS["usta"])
    assert arena.run("yedili", 3, [y, "greedy"], 3, seed=1)["mean_diff"] == \
        arena.run("yedili", 3, ["usta", "greedy"], 3, seed=1)["mean_diff"]
    with pytest.raises(ValueError, match="takes 12 weights"):
        make("usta:1:2", "pisti", random.Random(1))
    with pytest.raises(ValueError, match="bytes"):
        make("usta:" + ":".join(["300"] * 17), "yedili", random.Random(1))


def test_tune_repeats_with_its_seed_and_starts_from_todays_weights():
    pytest.importorskip("optuna")
    from tools import tune
    a = tune.tune("pisti", 2, 3, 3, seed=1, check_deals=4, jobs=1)
    b = tune.tune("pisti", 2, 3, 3, seed=1, check_deals=4, jobs=1)
    assert [r["weights"] for r in a["rows"]] == [r["weights"] for r in b["rows"]]
    assert a["rows"][0]["weights"] == a["before"] == tune.usta_weights("pisti")
    assert a["rows"][1]["weights"] != a["before"]  # the sampler moved
    assert a["rows"][0]["weights"][9] == a["rows"][2]["weights"][9]  # the Pico's budget stays
    assert a["check"]["deals"] == 4 and a["check"]["seed"] == 2
    assert "better" in a and "tune pisti 2p" in tune.report(a)
    # --spread: a local search, every weight within that much of today's.
    c = tune.tune("pisti", 2, 4, 2, seed=3, check_deals=0, jobs=1, spread=0.05)
    base = tune.usta_weights("pisti")
    moved = 0
    for r in c["rows"]:
        for i, _, lo, hi in tune.SPACES["pisti"]:
            assert abs(r["weights"][i] - base[i]) <= 0.05 * (hi - lo)
            moved += r["weights"][i] != base[i]
    assert moved and c["spread"] == 0.05
    with pytest.raises(ValueError, match="spread"):
        tune.tune("pisti", 2, 1, 1, seed=1, spread=2.0)
    # Four players start from Usta's own four-player weights.
    from pisti_core.bots.pisti_bots import WEIGHTS
    d = tune.tune("pisti", 4, 2, 2, seed=1, check_deals=0, jobs=1, spread=0.05)
    assert d["before"] == d["rows"][0]["weights"] == list(WEIGHTS[2]) != list(WEIGHTS[0])


def test_ladder_rows_table_and_plot(tmp_path):
    from PIL import Image
    from tools import ladder
    rows = ladder.rows_for("pimc16")
    assert ("pisti", 2, "usta", "pimc16") in rows and ("pisti", 4, "kalfa", "pimc16") in rows
    assert ("yedili", 4, "usta", "greedy") in rows
    assert not any(g == "yedili" and b == "pimc16" for g, _, _, b in rows)
    assert not any(b == "pimcg8" for _, _, _, b in rows)  # no Pis Yedili reference asked for
    rows = ladder.rows_for("pimc16", ("pisti2", "yedili4"), "pimcg8")
    assert ("yedili", 4, "usta", "pimcg8") in rows and ("yedili", 4, "kalfa", "pimcg8") in rows
    assert not any(g == "pisti" and b == "pimcg8" for g, _, _, b in rows)
    assert rows.index(("yedili", 4, "usta", "pimcg8")) < rows.index(("yedili", 4, "usta", "greedy"))
    fake = [{"game": g, "players": p, "a": a, "b": b, "deals": 100, "seed": 7,
             "mean_diff": 1.5 - i, "ci95": 0.5} for i, (g, p, a, b) in enumerate(rows)]
    md = ladder.markdown(fake)
    assert "| Pişti 2p | usta vs pimc16 | 100 (7) | +1.50 | +1.00 .. +2.00 |" in md
    png = tmp_path / "l.png"
    ladder.plot(str(png), fake, "t")
    im = Image.open(png)
    assert im.size[0] == 720 and im.size[1] > 26 * len(rows)


def test_ladder_plays_its_rows_and_times_them():
    from tools import ladder
    rows = ladder.run_ladder("pimc2", 2, 5, modes=("pisti2",), ref_deals=1)
    assert [(r["a"], r["b"], r["deals"]) for r in rows] == \
        [("usta", "pimc2", 1), ("kalfa", "pimc2", 1), ("usta", "greedy", 2), ("kalfa", "greedy", 2)]
    assert all(r["seconds"] >= 0 and r["seed"] == 5 for r in rows)  # KeyError without it


def test_ladder_merge_replaces_the_modes_played_again():
    from tools import ladder
    old = [{"game": g, "players": p, "a": a, "b": "greedy", "mean_diff": 1.0}
           for g, p, a in [("pisti", 2, "usta"), ("pisti", 4, "usta"), ("yedili", 4, "usta")]]
    new = [{"game": "pisti", "players": 4, "a": "kalfa", "b": "greedy", "mean_diff": 2.0}]
    out = ladder.merge(old, new)
    assert [(r["game"], r["players"], r["a"]) for r in out] == \
        [("pisti", 2, "usta"), ("pisti", 4, "kalfa"), ("yedili", 4, "usta")]


def test_a_guarded_search_over_other_weights():
    # pimcg.../usta:W...: the guarded search over that Usta; with today's
    # weights it is the plain reference, card for card (T-5 as the reference).
    from pisti_core.bots.pisti_bots import WEIGHTS
    from tools.botlab import weighted_name
    name = "pimcgu8h1a4/" + weighted_name("usta", WEIGHTS[0])
    assert is_lab(name) and games_of(name) == ("pisti",)
    a = arena.run("pisti", 2, [name, "usta"], 3, seed=4)
    b = arena.run("pisti", 2, ["pimcgu8h1a4", "usta"], 3, seed=4)
    assert a["mean_diff"] == b["mean_diff"] and a["hand_win_rate"] == b["hand_win_rate"]
    old = make("pimcgu8h1a4/usta:112:2422:41:574:609:1097:121:169:869:2600:0:0", "pisti",
               random.Random(1))
    assert old.usta.w[10] == 0 and old.pimc._usta.w[9] == 0
    with pytest.raises(ValueError, match="Pişti only"):
        make(name, "yedili", random.Random(1))


def test_a_pis_yedili_guarded_search_over_other_weights():
    # pimcg8/usta:W... in Pis Yedili: the reference over that Usta, which
    # stays where it is when Usta's weights are tuned. With today's weights it
    # is pimcg8 card for card; over other weights, Usta and its rollouts
    # (pimcgu) take them; a name with Pişti's 12 weights plays Pişti only.
    from pisti_core.bots.yedili_heur import LEVELS
    from tools.botlab import weighted_name
    old = "usta:10:15:50:25:10:80:40:120:40:100:30:20:120:0:1:10:80"
    today = "pimcg2/" + weighted_name("usta", LEVELS["usta"])
    assert games_of(today) == ("yedili",) and games_of("pimcg8/" + old) == ("yedili",)
    a = arena.run("yedili", 3, [today, "kalfa"], 2, seed=5)
    b = arena.run("yedili", 3, ["pimcg2", "kalfa"], 2, seed=5)
    assert a["mean_diff"] == b["mean_diff"] and a["hand_win_rate"] == b["hand_win_rate"]
    g = make("pimcgu2/" + old, "yedili", random.Random(1))
    assert bytes(g.usta.w) == bytes(int(x) for x in old[5:].split(":"))
    assert g.usta.w != LEVELS["usta"] and g.rollout == "usta"
    c = arena.run("yedili", 3, ["pimcg2/" + old, "kalfa"], 2, seed=5)
    assert c["mean_diff"] != a["mean_diff"]  # other weights, other play
    with pytest.raises(ValueError, match="Pis Yedili only"):
        arena.run("pisti", 2, ["pimcg2/" + old, "usta"], 1)
    with pytest.raises(ValueError, match="neither game"):
        arena.run("yedili", 3, ["pimcg8a4/" + old, "usta"], 1)
