# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The game table's scoring: T-2 ranking points, T-4 leaving, the ranking record."""

import pytest
from hypothesis import given, strategies as st

from pisti_core.table import (DRAWN, LOST, WON, Ranking, leave_branch, leave_outcome, leave_text,
                               match_outcome)


def test_T2_two_players_win_draw_loss():
    assert match_outcome("pisti", 2, [151, 90], 0) == (1, WON)
    assert match_outcome("pisti", 2, [151, 90], 1) == (-1, LOST)
    assert match_outcome("yedili", 2, [40, 103], 0) == (1, WON)  # lower penalty wins
    assert match_outcome("yedili", 2, [103, 103], 1) == (0, DRAWN)


def test_T2_partners_share_the_team_result():
    for seat, want in ((0, (1, WON)), (2, (1, WON)), (1, (-1, LOST)), (3, (-1, LOST))):
        assert match_outcome("pisti", 4, [160, 120], seat) == want


def test_T2_three_and_four_players_each_for_themselves():
    t = [20, 50, 110, 70]
    assert match_outcome("yedili", 4, t, 0) == (1, WON)  # alone first
    assert match_outcome("yedili", 4, t, 1) == (0, DRAWN)  # between
    assert match_outcome("yedili", 4, t, 3) == (0, DRAWN)
    assert match_outcome("yedili", 4, t, 2) == (-1, LOST)  # alone last
    t = [20, 20, 110, 110]
    assert match_outcome("yedili", 4, t, 0) == (0, DRAWN)  # sharing first
    assert match_outcome("yedili", 4, t, 3) == (-1, LOST)  # sharing last
    assert match_outcome("yedili", 3, [101, 101, 101], 1) == (0, DRAWN)  # Decision: all equal


def test_T4_leaving_in_the_first_hand_is_a_loss():
    assert leave_outcome("pisti", 2, [0, 0], 0, 0) == (-1, LOST)
    assert leave_outcome("yedili", 4, [0, 0, 0, 0], 0, 0) == (-1, LOST)


def test_T4_leaving_later_alone_first_records_nothing_else_a_loss():
    assert leave_outcome("pisti", 2, [60, 40], 3, 0) is None
    assert leave_outcome("pisti", 2, [40, 60], 3, 0) == (-1, LOST)
    assert leave_outcome("pisti", 2, [50, 50], 3, 0) == (-1, LOST)
    assert leave_outcome("yedili", 3, [10, 30, 30], 2, 0) is None
    assert leave_outcome("yedili", 3, [10, 10, 30], 2, 0) == (-1, LOST)  # shared first
    assert leave_outcome("yedili", 4, [40, 10, 30, 50], 2, 0) == (-1, LOST)


def test_T4_partnership_ahead_level_behind():
    assert leave_outcome("pisti", 4, [70, 30], 2, 2) is None  # team ahead
    assert leave_outcome("pisti", 4, [50, 50], 2, 0) == (-1, LOST)  # level
    assert leave_outcome("pisti", 4, [30, 70], 2, 0) == (-1, LOST)  # behind


@pytest.mark.parametrize("game,players,totals,done,branch", [
    ("pisti", 2, [0, 0], 0, "first_hand"),
    ("yedili", 3, [0, 0, 0], 0, "first_hand"),
    ("pisti", 2, [60, 40], 3, "alone_first"),
    ("yedili", 4, [5, 40, 30, 50], 2, "alone_first"),
    ("pisti", 2, [50, 50], 3, "not_first"),
    ("yedili", 3, [10, 10, 30], 2, "not_first"),
    ("yedili", 2, [70, 30], 1, "not_first"),
    ("pisti", 4, [70, 30], 2, "team_ahead"),
    ("pisti", 4, [50, 50], 2, "team_level"),
    ("pisti", 4, [30, 70], 2, "team_behind"),
    ("pisti", 4, [0, 0], 0, "first_hand"),
])
def test_T4_leave_branch_names_the_case_and_matches_the_outcome(game, players, totals, done, branch):
    assert leave_branch(game, players, totals, done, 0) == branch
    free = branch in ("alone_first", "team_ahead")
    assert leave_outcome(game, players, totals, done, 0) == (None if free else (-1, LOST))
    words = leave_text(leave_outcome(game, players, totals, done, 0))
    assert words == ("not recorded" if free else "a loss (-1)")
    if game == "pisti" and players == 4:  # the partner sees the same case
        assert leave_branch(game, players, totals, done, 2) == branch


def test_T2_ranking_stamp_names_the_last_recorded_game():
    r = Ranking()
    r.record("yedili", 3, "acemi", (1, WON))
    r.stamp = 40000
    again = Ranking.from_bytes(r.to_bytes())
    assert again.stamp == 40000 and again.as_dict() == r.as_dict()
    assert Ranking.from_bytes(r.to_bytes()[:-2]).stamp == 0  # a record from before the stamp


def test_T1_T2_ranking_counts_and_packs():
    r = Ranking()
    r.record("pisti", 2, "usta", (1, WON))
    r.record("pisti", 2, "usta", (-1, LOST))
    r.record("yedili", 4, "kalfa", (0, DRAWN))
    r.record("yedili", 4, "kalfa", (-1, LOST))
    assert r.get("pisti", 2, "usta") == [2, 1, 0, 1, 0]
    assert r.as_dict()["yedili:4:kalfa"] == {"played": 2, "won": 0, "drawn": 1, "lost": 1,
                                             "points": -1}
    b = r.to_bytes()
    assert len(b) <= 254 and Ranking.from_bytes(b).as_dict() == r.as_dict()


@given(st.lists(st.tuples(st.sampled_from([("pisti", 2), ("pisti", 4), ("yedili", 2),
                                           ("yedili", 3), ("yedili", 4)]),
                          st.sampled_from(["acemi", "kalfa", "usta"]),
                          st.sampled_from([(1, WON), (0, DRAWN), (-1, LOST)])), max_size=80))
def test_ranking_round_trip(results):
    r = Ranking()
    for (g, p), lvl, out in results:
        r.record(g, p, lvl, out)
    assert Ranking.from_bytes(r.to_bytes()).as_dict() == r.as_dict()
    assert len(r.to_bytes()) <= 2 + 15 * 11 + 2 <= 254


@pytest.mark.parametrize("junk", [b"\x00", b"\xb7\x01\x00", b"\xb7\x01" + bytes([99]) + bytes(10),
                                  b"\xb7\x01\x00" + bytes([0, 5, 0, 1, 0, 1, 0, 1, 0, 0])])
def test_corrupt_ranking_bytes_are_refused(junk):
    with pytest.raises(ValueError):
        Ranking.from_bytes(junk)
