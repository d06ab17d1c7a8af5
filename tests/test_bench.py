# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The engine's speed figure (tools/bench.py --cpython): its random
source and its loop play complete random hands, deck shuffles included."""

from tools.bench import cpython_rate, sources
from tools.mp_selfplay import hands_only


def test_the_bench_draws_a_hands_48_plays_uniform_in_0_to_11():
    # r % n is then uniform for a hand of n = 1..4 cards (12 = 3 * 4).
    _, picks = sources(4)
    seen = [0] * 12
    for _ in range(500):
        r = picks()
        assert len(r) == 48
        for x in r:
            seen[x] += 1
    assert min(seen) > 1800 and max(seen) < 2200  # 2000 each


def test_the_bench_shuffles_draw_below_k():
    below, _ = sources(5)
    for k in range(1, 105):
        got = {below(k) for _ in range(40 * k)}
        assert got == set(range(k)), k


def test_the_bench_plays_complete_hands_in_2_and_4_players():
    # hands_only raises when a hand is not over after its 48 plays.
    for players in (2, 4):
        below, picks = sources(players)
        assert hands_only("pisti", players, 300, below, picks) == 300
    assert cpython_rate("pisti", 2, 200, repeats=2) > 0
