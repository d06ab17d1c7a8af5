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
from pisti_core.bots import pisti_bots, pisti_end
from pisti_core.bots.pisti_bots import greedy
from pisti_core.cards import PTS, parse_card
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


def _deck(text):
    return bytes(C(x) for x in text.split())


def _usta_and_without(o, index):
    """Usta's card for ``o``, and the card with its weight ``index`` at 0."""
    w = list(pisti_bots.WEIGHTS[0])
    today = pisti_bots.Bot(random.Random(1), 4).choose(o)
    w[index] = 0
    return today, pisti_bots.Bot(random.Random(1), 4, tuple(w)).choose(o)


def test_usta_keeps_a_card_nobody_can_take_for_later():
    # Second deal: seat 0 must play onto a pile of seven cards (TC on top)
    # holding KD 9H QS 8H. It took the centre with 8D over 8S at once, so it
    # saw the face-down 8C too (P-8): 8H is the last 8, a card only a Jack
    # can take (P-7). Without _KEEP Usta drops it now; with it, it drops a
    # live card and keeps 8H for a later pile.
    st = PistiHand(2, 1, _deck(
        "JH 8C 4D 8S 2C 6S 5C 8D 3D 4C TC 3S KD 9H QS 8H AD QC KH 3C 6D 2H TH JS "
        "KS 9D AC 7D 2D AS TD KC 6C JD 4H 9S 5S QD 7H 9C 2S 5H 4S 7S QH AH JC 6H "
        "3H 7C TS 5D"))
    for m in "8D 3D 6S 4C 5C 3S 2C TC".split():
        st.apply(C(m))
    o = st.observe(st.turn)
    assert o.seat == 0 and o.stock > 0 and o.pile_size == 7 and C("8H") in o.hand
    today, without = _usta_and_without(o, pisti_bots._KEEP)
    assert without == C("8H") and today != C("8H") and today >> 2 != 10


def test_usta_leaves_one_of_a_pair():
    # The first play of a hand: QD face up on three face-down cards (P-5).
    # Seat 0 holds AS AC 2S 8D and cannot take. Without _PAIR Usta drops 2S
    # (no points); with it, an ace: the other ace stays in hand.
    st = PistiHand(2, 1, _deck(
        "TD 6S 5H QD AS AC 2S 8D 6H 4C 4S QS 7S AH 4D 7D 9C 6D 9H JD 9D JH TH 8C "
        "8H KS 3C QC 2C TS 7H AD 3H TC 6C 2H JC KH 5C 3D KD JS QH 8S 5S 7C 4H 3S "
        "5D 2D 9S KC"))
    o = st.observe(st.turn)
    assert o.seat == 0 and o.pile_size == 4 and o.pile[-1] == C("QD")
    today, without = _usta_and_without(o, pisti_bots._PAIR)
    assert without == C("2S") and today in (C("AS"), C("AC"))


def test_usta_weighs_four_players_with_its_own_weights():
    # Partnerships (P-1) have their own tuned weights, WEIGHTS[2]:
    # in every 4p decision Usta plays what those weights give, and at some
    # it plays otherwise than the two-player weights would; 2p is unchanged.
    rng = random.Random(5)
    differ = 0
    for n, k in ((4, 2), (2, 0)):
        for _ in range(6):
            st = PistiHand(n, rng.randrange(n), deal_deck("pisti", n, rng.randrange))
            while not st.over:
                o = st.observe(st.turn)
                c = make_bot("pisti", "usta", random.Random(1)).choose(o)
                assert c == pisti_bots.Bot(random.Random(1), 4, pisti_bots.WEIGHTS[k]).choose(o)
                if n == 4 and c != pisti_bots.Bot(random.Random(1), 4,
                                                 pisti_bots.WEIGHTS[0]).choose(o):
                    differ += 1
                st.apply(c)
    assert differ > 0
    assert pisti_bots.WEIGHTS[2][pisti_bots._BUDGET] == pisti_bots.WEIGHTS[0][pisti_bots._BUDGET]


def test_kalfa_weighs_neither_keep_nor_pair():
    # Kalfa (and acemi) share _value: the new terms are Usta's only.
    assert pisti_bots.WEIGHTS[1][pisti_bots._KEEP] == 0
    assert pisti_bots.WEIGHTS[1][pisti_bots._PAIR] == 0


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


def _solve(obs, rng, budget):
    """The solver as Usta calls it, once the bots' scratch is filled for ``obs``."""
    from pisti_core.bots import pisti_end
    return pisti_end.solve(obs, rng, budget, pisti_bots._B, obs.bottom if pisti_bots._F[71] >= 0 else -1)


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
        assert _solve(o, random.Random(0), 10 ** 6) == [v == max(exact) for v in exact]
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
    for _ in range(20):
        st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
        for _ in range(1 + rng.randrange(30)):
            st.play(greedy(st.observe(st.turn)))
        seat = st.turn

        def peek(state, obs, seat=seat):
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
    # Its embedded source name is relative, as the core's (tools/mpy.py build): the
    # heap then holds the same strings whatever the temporary folder's path.
    subprocess.run([mpy.tool("mpy-cross"), "-o", os.path.join(build, os.path.basename(src)[:-3]
                                                              + ".mpy"),
                    "-s", os.path.basename(src), src], check=True)
    # Run from inside the build with a relative search path, so that no string the
    # VM keeps depends on where pytest put its temporary folders: at 40K the heap
    # is nearly full, and a longer path once fragmented it past a 464-byte block.
    name = os.path.basename(src)[:-3]
    return subprocess.run([mpy.tool("micropython"), "-X", "heapsize=%s" % heap, "-c",
                           "import %s\n%s.run()\n" % (name, name)], cwd=build,
                          env=dict(os.environ, MICROPYPATH="."), capture_output=True,
                          text=True, timeout=600)


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


# -- the last-deal search without recursion (CircuitPython's pystack) ---------------
# A plain recursive search as the oracle (on the device it would overflow the
# 2 KB pystack), with the solve() that calls it.
_BIG = 1000
_CALLS = [0]


def _ref_search(a, b, turn, t, m, v, lc, dc, ply, alpha, beta, only=-1):
    _CALLS[0] += 1
    hand = a if turn > 0 else b
    k = len(hand)
    if not k:
        if lc:  # P-11: what is left goes to the last capturer
            v *= lc
            dc += lc * m
        else:
            v = 0
        return v + (3 if dc > 0 else -3 if dc < 0 else 0)  # P-12 majority
    best = -_BIG if turn > 0 else _BIG
    done = 0  # ranks tried: cards alike in rank and points are tried once
    for cap in (1, 0):  # captures first: better pruning
        for i in range(k):
            c = hand[i]
            r = c >> 2
            if cap != (1 if m and (r == t or r == 10) else 0) or (only >= 0 and i != only):
                continue
            if (done >> r) & 1:
                j = 0
                while j < i and (hand[j] >> 2 != r or PTS[hand[j]] != PTS[c]):
                    j += 1
                if j < i:
                    continue
            done |= 1 << r
            hand[i] = hand[k - 1]
            hand.pop()
            if cap:
                g = v + PTS[c]
                if m == 1 and r == t and ply != 47:  # P-9
                    g += 20 if r == 10 else 10
                g = turn * g + _ref_search(a, b, -turn, -1, 0, 0, turn, dc + turn * (m + 1),
                                           ply + 1, alpha, beta)
            else:
                g = _ref_search(a, b, -turn, r, m + 1, v + PTS[c], lc, dc, ply + 1, alpha, beta)
            hand.append(c)
            hand[i], hand[k - 1] = hand[k - 1], hand[i]
            if turn > 0:
                if g > best:
                    best = g
                    if g > alpha:
                        alpha = g
            elif g < best:
                best = g
                if g < beta:
                    beta = g
            if alpha >= beta:
                return best
    return best


def _ref_solve(obs, rng, budget):
    _B, _F = pisti_bots._B, pisti_bots._F
    pool = [c for c in range(52) if not _B[c]]  # what the seat has not seen
    n = len(pool)
    sure = obs.bottom if _F[71] >= 0 else -1  # P-5: the dealer holds it
    theirs = [sure] * obs.hand_counts[1 - obs.seat]
    h = len(theirs) - (sure >= 0)
    mine = list(obs.hand)
    k = len(mine)
    if h < 0 or h > n or n > 10:
        return None
    hands = []
    for x in range(1 << n):
        j = 0
        y = x
        while y:
            j += y & 1
            y >>= 1
        if j == h:
            hands.append(x)
    keep = budget // (16 * pisti_end._COST[min(8, k + len(theirs))])
    if len(hands) > keep:
        for i in range(keep):
            j = i + rng.randrange(len(hands) - i)
            hands[i], hands[j] = hands[j], hands[i]
        hands = hands[:keep or 1]
    t = obs.pile[-1] >> 2 if obs.pile_size else -1
    v = 0
    for c in obs.pile:
        v += PTS[c]
    lc = obs.last_cap
    lc = 0 if lc < 0 else 1 if lc == obs.side else -1
    score = [0] * k
    for x in hands:
        j = 0 if sure < 0 else 1
        for i in range(n):
            if (x >> i) & 1:
                theirs[j] = pool[i]
                j += 1
        for i in range(k):
            score[i] += _ref_search(mine, theirs, 1, t, obs.pile_size, v, lc,
                                    obs.cards[obs.side] - obs.cards[1 - obs.side], obs.ply,
                                    -_BIG, _BIG, i)
    top = max(score)
    return [s == top for s in score]


class _Pushes(list):
    """The search's stack, counting the plies it goes down (each saves its
    node from slot 0 of a ply's slots on)."""

    def __init__(self, size):
        list.__init__(self, [0] * size)
        self.pushes = 0

    def __setitem__(self, i, x):
        if i % _STRIDE == 0:
            self.pushes += 1
        list.__setitem__(self, i, x)


_STRIDE = 9  # pisti_end._search's slots a ply


def _random_endgame(rng):
    """A position to search: 0-4 cards a hand (often few ranks: captures,
    pişti, cards alike), a pile, a last capturer, the card balance, a ply."""
    ranks = rng.sample(range(13), rng.choice((2, 3, 13))) + [10]
    deck = [c for c in range(52) if c >> 2 in ranks]
    rest = [c for c in range(52) if c not in deck]
    rng.shuffle(deck)
    rng.shuffle(rest)
    cards = deck + rest
    na, nb = rng.randrange(5), rng.randrange(5)
    if rng.random() < 0.6:
        nb = max(0, min(4, na - rng.randrange(2)))  # as dealt: equal, or one less
    a, b = cards[:na], cards[na:na + nb]
    m = rng.choice((0, 0, 1, 1, 2, 3, rng.randrange(12)))
    pile = cards[na + nb:na + nb + m]
    t = pile[-1] >> 2 if m else -1
    v = sum(PTS[c] for c in pile)
    lc = rng.choice((-1, 0, 1)) if m or rng.random() < 0.5 else 0
    dc = rng.choice((0, 0, rng.randrange(-12, 13), rng.choice((-1, 1))))
    ply = 48 - na - nb if rng.random() < 0.7 else rng.randrange(40, 48)
    return a, b, t, m, v, lc, dc, ply


def test_the_search_matches_the_recursive_one_on_random_endgames():
    # Each first card's value, and the nodes searched: the same cut-offs.
    rng = random.Random(2026)
    counts = {"last ply": 0, "pisti": 0, "no reply": 0, "cards alike": 0}
    for n in range(6000):
        a, b, t, m, v, lc, dc, ply = pos = _random_endgame(rng)
        a0, b0 = list(a), list(b)
        want = []
        _CALLS[0] = 0
        for x in range(len(a)):
            want.append(_ref_search(a, b, 1, t, m, v, lc, dc, ply, -_BIG, _BIG, x))
        assert (a, b) == (a0, b0)
        st = _Pushes(_STRIDE * (len(a) + len(b)))
        got = [0] * len(a)
        pisti_end._search(a, b, t, m, v, lc, dc, ply, st, got)
        assert (got, st.pushes + len(a)) == (want, _CALLS[0]), (n, pos)
        assert (a, b) == (a0, b0)  # the hands as they were
        counts["last ply"] += ply + len(a) + len(b) == 48
        counts["pisti"] += m == 1
        counts["no reply"] += not b
        counts["cards alike"] += len(set(c >> 2 for c in a + b)) < len(a + b)
    assert min(counts.values()) > 500, counts


def _last_deal_observations(count, seed):
    """Observations of two-player hands with the stock empty, each with the
    bots' scratch filled for it (what solve() expects)."""
    rng = random.Random(seed)
    pick = [greedy, lambda o: o.hand[rng.randrange(len(o.hand))]]
    while count:
        st = PistiHand(2, rng.randrange(2), deal_deck("pisti", 2, rng.randrange))
        stop = 40 + rng.randrange(7)
        while st.ply < stop:
            st.play(pick[rng.randrange(2)](st.observe(st.turn)))
        o = st.observe(st.turn)
        pisti_bots._scan(o, pisti_bots.WEIGHTS[0], True)
        yield o
        count -= 1


@pytest.mark.parametrize("budget", [0, 100, 4000, 20000])
def test_solve_gives_what_the_recursive_search_gave(budget):
    seen = 0
    for o in _last_deal_observations(400 if budget < 20000 else 120, budget):
        r1, r2 = random.Random(seen), random.Random(seen)
        want = _ref_solve(o, r1, budget)
        assert _solve(o, r2, budget) == want
        assert r1.random() == r2.random()  # the same draws from rng
        seen += want is not None
    assert seen > 100


def test_the_search_does_not_recurse():
    # CircuitPython holds every frame of the call chain in a 2 KB pystack:
    # no function of pisti_end may reach itself through calls.
    import ast
    tree = ast.parse(open(pisti_end.__file__.replace(".pyc", ".py")).read())
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    calls = {name: {n.func.id for n in ast.walk(f) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Name) and n.func.id in funcs}
             for name, f in funcs.items()}
    for name in funcs:
        reach, todo = set(), [name]
        while todo:
            for g in calls[todo.pop()]:
                if g not in reach:
                    reach.add(g)
                    todo.append(g)
        assert name not in reach, name
    assert "_search" in calls["solve"] and calls["_search"] <= {"_seen", "_end", "_took"}


def test_solve_runs_within_a_few_frames():
    # At run time too: a recursion limit a few frames above here is enough
    # for whole last deals, where the recursive search needed a frame a ply.
    import sys
    obs = list(_last_deal_observations(40, 1))
    old = sys.getrecursionlimit()
    low = 1
    while True:  # the lowest limit allowed here: one above the present depth
        try:
            sys.setrecursionlimit(low)
            break
        except RecursionError:
            low += 1
    sys.setrecursionlimit(low + 5)
    try:
        for o in obs:
            pisti_bots._scan(o, pisti_bots.WEIGHTS[0], True)
            _solve(o, random.Random(0), 4000)
        with pytest.raises(RecursionError):
            for o in obs:
                pisti_bots._scan(o, pisti_bots.WEIGHTS[0], True)
                _ref_solve(o, random.Random(0), 4000)
    finally:
        sys.setrecursionlimit(old)


LADDER = """
import random
from pisti_core.bots import pisti_bots, pisti_end
from pisti_core.bots.pisti_bots import greedy
from pisti_core.match import deal_deck
from pisti_core.pisti import PistiHand
random.seed(3)
obs = []
while len(obs) < 12:  # whole last deals: 8 plies to search
    st = PistiHand(2, random.randrange(2), deal_deck("pisti", 2, random.randrange))
    while st.ply < 40:
        st.play(greedy(st.observe(st.turn)))
    obs.append(st.observe(st.turn))
def run(solving):
    for o in obs:
        pisti_bots._scan(o, pisti_bots.WEIGHTS[0], True)
        if solving:
            pisti_end.solve(o, random, 4000, pisti_bots._B, o.bottom if pisti_bots._F[71] >= 0 else -1)
def ladder(n, solving):
    if n:
        return ladder(n - 1, solving)
    run(solving)
def deepest(solving):  # the most calls under which run() still works
    lo, hi = 0, 5000
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        try:
            ladder(mid, solving)
            lo = mid
        except RuntimeError:  # maximum recursion depth exceeded
            hi = mid
    return lo
print(deepest(False), deepest(True))
"""


def test_solve_needs_little_stack_under_micropython(mpy_build):
    # The unix port has no pystack; its C stack shows the same thing: under
    # a ladder of calls as deep as the stack allows, whole last deals are
    # still solved one or two calls short of the top (the recursive search
    # needed ~6 more: a frame a ply).
    r = mpy.run_code(LADDER, path=(mpy_build,))
    assert r.returncode == 0, r.stdout + r.stderr
    without, with_solve = [int(x) for x in r.stdout.split()]
    assert with_solve >= without - 2, (without, with_solve)
