# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Pişti bots: the reference bots' exact definitions, what the levels know,
the last-deal solver against brute force, the level ordering on a small
duplicate sample, the fair-play proof (T-5), and complete matches under
MicroPython in the core's heap cap."""

import os
import random
import shutil

import pytest

from fairplay import pisti_redeal
from pisti_core.bots import LEVELS, REFERENCE, make_bot
from pisti_core.bots import pisti_bots
from pisti_core.bots.pisti_bots import greedy
from pisti_core.bots.pisti_end import solve
from pisti_core.cards import parse_card
from pisti_core.match import deal_deck
from pisti_core.pisti import PistiHand
from tools import arena, mpy

ALL = REFERENCE + LEVELS


def C(text):
    return parse_card(text)


def stacked(centre, hand0, hand1, bottom="KH", seed=0):
    """A 2-player deck for dealer 1: the centre (bottom to top), seat 0's
    first four cards, seat 1's, the rest shuffled, ``bottom`` last (P-5)."""
    top = [C(x) for x in centre + hand0 + hand1]
    rest = [c for c in range(52) if c not in top and c != C(bottom)]
    random.Random(seed).shuffle(rest)
    return bytes(top + rest + [C(bottom)])


def position(centre, hand0, hand1, moves=(), bottom="KH"):
    """The hand after ``moves`` (card names), and the observation of the
    seat to move."""
    st = PistiHand(2, 1, stacked(centre, hand0, hand1, bottom))
    for m in moves:
        st.apply(C(m))
    return st, st.observe(st.turn)


CENTRE = ["2S", "3S", "4S", "5H"]  # 5H face up on three face-down cards


# -- greedy, exactly (the reference bot of pisti_bots' docstring) ---------------

def test_greedy_prefers_a_rank_match_to_a_jack():
    _, o = position(CENTRE, ["JD", "5C", "2C", "9S"], ["6D", "7D", "8D", "KD"])
    assert greedy(o) == C("5C")


def test_greedy_takes_with_the_lowest_matching_card():
    _, o = position(CENTRE, ["5S", "5D", "2C", "9S"], ["6D", "7D", "8D", "KD"])
    assert greedy(o) == C("5D")  # 5D (id 17) before 5S (id 19)


def test_greedy_takes_with_a_jack_when_it_has_no_match():
    _, o = position(CENTRE, ["JS", "JD", "2C", "9S"], ["6D", "7D", "8D", "KD"])
    assert greedy(o) == C("JD")


def test_greedy_otherwise_plays_the_lowest_point_card_then_the_lowest_rank():
    _, o = position(CENTRE, ["AC", "TD", "KC", "9S"], ["6D", "7D", "8D", "QD"])
    assert greedy(o) == C("9S")  # 0 points, and rank 9 below K
    _, o = position(CENTRE, ["AC", "TD", "2C", "AS"], ["6D", "7D", "8D", "QD"])
    assert greedy(o) == C("AC")  # aces 1 point < 2C 2 < TD 3; AC's id below AS's


def test_greedy_keeps_its_jacks_on_an_empty_pile():
    # Seat 0 takes the pile with its 5; seat 1 leads onto the empty pile.
    _, o = position(CENTRE, ["5C", "6C", "7C", "8C"], ["JD", "JH", "AD", "QD"], ["5C"])
    assert o.pile_size == 0 and o.seat == 1
    assert greedy(o) == C("QD")  # nothing to capture: lowest points, not a Jack


def test_greedy_plays_a_jack_only_when_nothing_else_is_left():
    _, o = position(CENTRE, ["5C", "6C", "7C", "8C"], ["JS", "JH", "JC", "JD"], ["5C"],
                    bottom="KH")
    assert o.pile_size == 0 and o.legal() == [C("JC"), C("JD"), C("JH"), C("JS")]
    assert greedy(o) == C("JC")


def test_greedy_and_random_bots():
    rng = random.Random(4)
    st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
    o = st.observe(st.turn)
    assert make_bot("pisti", "greedy", rng).choose(o) == greedy(o)
    picks = [make_bot("pisti", "random", random.Random(s)).choose(o) for s in range(400)]
    for c in o.legal():
        assert 60 < picks.count(c) < 140  # uniform: about 100 each
    again = [make_bot("pisti", "random", random.Random(9)).choose(o) for _ in range(5)]
    assert len(set(again)) == 1  # the same seed, the same choice


def test_make_bot_rejects_unknown_levels_and_games():
    with pytest.raises(ValueError, match="grandmaster"):
        make_bot("pisti", "grandmaster", random.Random(0))
    with pytest.raises(ValueError, match="poker"):
        make_bot("poker", "usta", random.Random(0))


@pytest.mark.parametrize("players", [2, 4])
def test_every_level_plays_legal_cards_to_the_end(players):
    rng = random.Random(players)
    for level in ALL:
        for d in range(2):
            st = PistiHand(players, d % players, deal_deck("pisti", players, rng.randrange))
            bots = [make_bot("pisti", level, random.Random(s)) for s in range(players)]
            while not st.over:
                st.apply(bots[st.turn].choose(st.observe(st.turn)))  # apply() checks
            assert sum(st.points()) >= 16


# -- what the levels know -------------------------------------------------------

def test_the_levels_take_a_pisti():
    # Seat 0 took the 5; seat 1 led 7H onto the empty pile; seat 0 holds 7C.
    _, o = position(CENTRE, ["5C", "7C", "8C", "9C"], ["7H", "QD", "KD", "AD"], ["5C", "7H"])
    assert o.seat == 0 and o.pile_size == 1
    for level in ("greedy", "kalfa", "usta"):
        assert make_bot("pisti", level, random.Random(1)).choose(o) == C("7C"), level


def test_kalfa_and_usta_lead_a_rank_whose_other_copies_are_all_seen():
    # KC goes on the pile, seat 1 takes it with KD; seat 0 must lead onto the
    # empty pile. KH is the bottom card (P-5): every other king is seen, so KS
    # cannot be matched (only a Jack could take it); 8C and 9C are live.
    _, o = position(CENTRE, ["KC", "KS", "9C", "8C"], ["KD", "6D", "7D", "QD"], ["KC", "KD"])
    assert o.seat == 0 and o.pile_size == 0
    assert greedy(o) == C("8C")
    for level in ("kalfa", "usta"):
        assert make_bot("pisti", level, random.Random(1)).choose(o) == C("KS"), level


def test_usta_spends_a_jack_on_a_rich_pile():
    # The pile holds 5H on three face-down cards, then AD and TD: points.
    _, o = position(CENTRE, ["AD", "JC", "6C", "8C"], ["TD", "9D", "QD", "KD"], ["AD", "TD"])
    assert o.seat == 0 and o.pile_size == 6
    assert make_bot("pisti", "usta", random.Random(1)).choose(o) == C("JC")


def _minimax(st, me):
    if st.over:
        p = st.points()
        return p[me & 1] - p[1 - (me & 1)]
    vals = []
    for c in st.legal():
        nxt = st.copy()
        nxt.play(c)
        vals.append(_minimax(nxt, me))
    return max(vals) if st.turn == me else min(vals)


def test_the_last_deal_solver_is_exact_when_the_opponent_hand_is_known():
    # Brute force on the real engine: the solver's best cards are exactly the
    # cards of best minimax value. Positions where the seat's side took the
    # face-down centre cards (P-8): then it knows every card.
    rng = random.Random(5)
    checked = 0
    while checked < 25:
        st = PistiHand(2, checked % 2, deal_deck("pisti", 2, rng.randrange))
        stop = 40 + rng.randrange(6)
        while st.ply < stop:
            st.play(greedy(st.observe(st.turn)))
        me = st.turn
        if st.hidden_side != me:
            continue
        o = st.observe(me)
        exact = []
        for c in o.hand:  # solve() answers in hand order
            nxt = st.copy()
            nxt.play(c)
            exact.append(_minimax(nxt, me))
        pisti_bots._scan(o, pisti_bots.WEIGHTS[0], True)
        assert solve(o, random.Random(0), 10 ** 6) == [v == max(exact) for v in exact]
        checked += 1


# -- the ordering on a small duplicate sample (benchmarks do the large runs) ----

@pytest.mark.parametrize("a,b,players,deals", [
    ("usta", "greedy", 2, 150), ("greedy", "random", 2, 60), ("kalfa", "acemi", 2, 250),
    ("usta", "kalfa", 2, 300), ("usta", "greedy", 4, 120)])
def test_the_levels_are_ordered(a, b, players, deals):
    r = arena.run("pisti", players, [a, b], deals, seed=3)
    assert r["paired_deals"] == deals
    assert r["mean_diff"] - r["ci95"] > 0, r


# -- fair play (T-5) -------------------------------------------------------------

def decisions_agree(st, seat, decide, redeals, rng):
    """Whether ``decide(state, obs)`` gives the same action in ``st`` and in
    ``redeals`` re-deals of what ``seat`` cannot see."""
    o = st.observe(seat)
    want = decide(st, o)
    for _ in range(redeals):
        new = pisti_redeal(st, seat, rng)
        o2 = new.observe(seat)
        assert o2 == o  # the observation is all the seat knows: unchanged
        if decide(new, o2) != want:
            return False
    return True


def level_decides(level):
    # An honest bot sees the observation only; its generator is seeded alike.
    return lambda st, obs: make_bot("pisti", level, random.Random(11)).choose(obs)


@pytest.mark.parametrize("players", [2, 4])
def test_no_level_decides_on_what_its_seat_cannot_see(players):
    rng = random.Random(100 + players)
    positions = 0
    moved = 0
    for g in range(90):
        st = PistiHand(players, g % players, deal_deck("pisti", players, rng.randrange))
        mix = [make_bot("pisti", ALL[(g + s) % 5], random.Random(g * 8 + s))
               for s in range(players)]
        while not st.over:
            seat = st.turn
            if rng.randrange(2) == 0 or st.stock == 0:
                new = pisti_redeal(st, seat, rng)
                moved += any(new.hand(s) != st.hand(s) for s in range(players)) or \
                    new.deck[:4] != st.deck[:4]
                for level in ALL:
                    assert decisions_agree(st, seat, level_decides(level), 2, rng), \
                        (level, st.describe())
                positions += 1
            st.play(mix[seat].choose(st.observe(seat)))
    assert positions >= 2000
    assert moved >= 0.75 * positions  # the re-deals really moved hidden cards


def test_the_fair_play_check_catches_a_bot_that_peeks():
    # A "bot" that reads the engine state (the other seat's hand) is caught.
    rng = random.Random(1)
    caught = 0
    for g in range(20):
        st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
        for _ in range(1 + rng.randrange(30)):
            st.play(greedy(st.observe(st.turn)))
        seat = st.turn

        def peek(state, obs):
            legal = obs.legal()
            return legal[sum(state.hand(1 - seat)) % len(legal)]

        caught += not decisions_agree(st, seat, peek, 4, rng)
        assert decisions_agree(st, seat, level_decides("usta"), 4, rng)
    assert caught >= 10


# -- MicroPython: the device's interpreter, the core's heap cap ----------------------

MATCH = """
import random
from pisti_core.match import Match
from pisti_core.bots import make_bot
random.seed(%d)
bots = [make_bot("pisti", "usta", random) for s in range(%d)]
m = Match("pisti", %d, 151, 0, random.randrange)
hands = 0
while not m.over:
    h = m.deal()
    while not h.over:
        h.apply(bots[h.turn].choose(m.observe(h.turn)))
    m.end_hand()
    hands += 1
print("ok", hands, m.totals[0], m.totals[1])
"""


@pytest.fixture(scope="module")
def mpy_build(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    mpy.build(out)
    return out


def _run_match(build, tmp, players, seed, heap):
    # The driver precompiled too, so that only the core and the bots count.
    src = os.path.join(tmp, "drv%d_%d.py" % (players, seed))
    with open(src, "w") as f:
        f.write("def run():\n" + "".join("    " + ln + "\n" for ln in
                                         (MATCH % (seed, players, players)).strip().split("\n")))
    import subprocess
    subprocess.run([mpy.tool("mpy-cross"), "-o", os.path.join(build, os.path.basename(src)[:-3]
                                                              + ".mpy"), src], check=True)
    return mpy.run_code("import %s\n%s.run()\n" % ((os.path.basename(src)[:-3],) * 2), heap,
                        path=(build,))


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (4, 1), (4, 2)])
def test_usta_plays_complete_matches_in_the_core_heap_cap(mpy_build, tmp_path, players, seed):
    r = _run_match(mpy_build, str(tmp_path), players, seed, "40K")
    assert r.returncode == 0, r.stdout + r.stderr
    ok, hands, a, b = r.stdout.split()
    assert ok == "ok" and int(hands) >= 2 and max(int(a), int(b)) >= 151


def test_the_heap_cap_is_real(mpy_build, tmp_path):
    r = _run_match(mpy_build, str(tmp_path), 2, 1, "24K")
    assert r.returncode != 0 and "MemoryError" in r.stdout + r.stderr


@pytest.mark.parametrize("module", ["__init__", "pisti_bots", "pisti_end"])
def test_each_bot_module_imports_from_source_in_64K(mpy_build, tmp_path, module):
    dst = tmp_path / "pisti_core"
    shutil.copytree(os.path.join(mpy_build, "pisti_core"), str(dst))
    os.unlink(str(dst / "bots" / (module + ".mpy")))
    shutil.copy(os.path.join(mpy.ROOT, "pisti_core", "bots", module + ".py"), str(dst / "bots"))
    name = "pisti_core.bots" if module == "__init__" else "pisti_core.bots." + module
    r = mpy.run_code("import %s\nprint('imported')\n" % name, "64K", path=(str(tmp_path),))
    assert r.returncode == 0 and "imported" in r.stdout, r.stdout + r.stderr
