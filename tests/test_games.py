# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Each game is described once (pisti_core/__init__.py: its key, player
counts, decks, partnerships, targets), and the parts that ask read that
description: the rules (the match and the hands), the New game and Host
menus, the settings blob, PISTI_START, the ranking's tables and the
simulator's --start. The player counts are written nowhere else in the
device code."""

import os
import re

import pytest

from pisti_core import DECKS, GAMES, PLAYERS, TARGETS, TEAMS
from pisti_core.cards import decks, new_deck
from pisti_core.match import Match, new_hand

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTS = range(0, 7)  # every count asked about: the allowed ones and those around them
DESCRIPTION = os.path.join("pisti_core", "__init__.py")


def _modes():
    return [(g, n) for g in range(len(GAMES)) for n in COUNTS]


def _device_sources():
    out = [("code.py", os.path.join(ROOT, "code.py"))]
    for top in ("lib", "pisti_core"):
        for base, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(base, name)
                    out.append((os.path.relpath(path, ROOT), path))
    return out


def test_P1_Y1_P2_Y16_one_entry_a_game_for_each_fact():
    """P-1, Y-1, P-2, Y-16 as the description says them, one entry a game."""
    assert GAMES == ("pisti", "yedili")
    for fact in (PLAYERS, DECKS, TEAMS, TARGETS):
        assert len(fact) == len(GAMES)
    for g in range(len(GAMES)):
        assert len(DECKS[g]) == len(PLAYERS[g])
        assert set(TEAMS[g]) <= set(PLAYERS[g])
        assert list(TARGETS[g]) == sorted(TARGETS[g])
    assert PLAYERS == ((2, 4), (2, 3, 4))
    assert [decks(GAMES[g], n) for g in range(2) for n in PLAYERS[g]] == [1, 1, 1, 2, 2]


def test_the_player_counts_are_written_once_in_the_device_code():
    """No device file but the description spells a game's player counts."""
    counts = re.compile(r"\(2, 4\)|\(2, 3, 4\)|range\(2, 5\)|players (not )?in \(\d|players < 2|players > 4")
    found = []
    for rel, path in _device_sources():
        if rel == DESCRIPTION:
            continue
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if counts.search(line):
                    found.append("%s:%d: %s" % (rel, i, line.strip()))
    assert found == []


@pytest.mark.parametrize("g,n", _modes())
def test_P1_Y1_a_match_and_a_hand_take_exactly_the_counts(g, n):
    """P-1, Y-1: Match, PistiHand and YediliHand refuse every other count;
    the sides and the deck follow the description (P-1 partnerships)."""
    game = GAMES[g]
    if n not in PLAYERS[g]:
        with pytest.raises(ValueError):
            Match(game, n)
        with pytest.raises(ValueError):
            new_hand(game, n, 0, new_deck(1 if n < 3 else 2))
        return
    m = Match(game, n, dealer=0)
    assert m.target == TARGETS[g][-1]  # the default
    assert m.sides == (2 if n in TEAMS[g] else n)
    h = m.deal()
    assert len(h.deck) == 52 * DECKS[g][PLAYERS[g].index(n)]
    for t in TARGETS[g]:
        assert Match(game, n, t).target == t
    with pytest.raises(ValueError):
        Match(game, n, 120)


def test_the_rankings_tables_are_the_description_s_modes():
    """T-1: a ranking table for each game and each of its counts, in order."""
    from pisti_core.table import MODES
    assert MODES == tuple((g, n) for g in range(len(GAMES)) for n in PLAYERS[g])
    assert MODES == ((0, 2), (0, 4), (1, 2), (1, 3), (1, 4))  # the packed ranking's key order


@pytest.mark.parametrize("g,n", _modes())
def test_pisti_start_takes_exactly_the_counts(g, n):
    from pisti_app.startup import parse_start
    text = "%s:%d:usta" % (GAMES[g], n)
    if n in PLAYERS[g]:
        assert parse_start(text) == (GAMES[g], n, [None] + ["usta"] * (n - 1))
    else:
        with pytest.raises(ValueError, match="is for %s players" % " or ".join(str(v) for v in PLAYERS[g])):
            parse_start(text)


@pytest.mark.parametrize("g,n", _modes())
def test_the_settings_blob_reads_exactly_the_counts(g, n):
    from pisti_app import prefs
    p = prefs.defaults()
    p["game"] = GAMES[g]
    p["players"] = n
    blob = prefs.pack(p)
    back = prefs.defaults()
    assert prefs.unpack(blob, back) is (n in PLAYERS[g])
    if n in PLAYERS[g]:
        assert (back["game"], back["players"]) == (GAMES[g], n)


def test_the_settings_blob_refuses_a_game_it_does_not_know():
    from pisti_app import prefs
    blob = bytearray(prefs.pack(prefs.defaults()))
    blob[8] = len(GAMES)
    assert not prefs.unpack(bytes(blob), prefs.defaults())


@pytest.mark.parametrize("g", range(len(GAMES)))
def test_the_new_game_and_host_menus_offer_exactly_the_description(device, g):
    """The New game rows: the game's counts, its targets when it has a
    choice of them (P-2), and, hosting, the people's seats only where the
    count plays in partnerships (P-1)."""
    d = device()
    app = d.app
    app.prefs["game"] = GAMES[g]
    for n in PLAYERS[g]:
        app.prefs["players"] = n
        rows = {it.key: it for it in app.menus._new_items()}
        assert rows["game"].index == g and len(rows["game"].values) == len(GAMES)
        assert rows["players"].values == tuple(str(v) for v in PLAYERS[g])
        assert rows["players"].value == str(n)
        if len(TARGETS[g]) > 1:
            assert rows["target"].values == tuple(str(v) for v in TARGETS[g])
        else:
            assert "target" not in rows
        hosted = {it.key for it in app.menus._new_items(True)}
        assert ("link_seats" in hosted) is (n in TEAMS[g])
    app.prefs["players"] = 5  # (not a count of any game): the game's fewest
    app.menus._new_items()
    assert app.prefs["players"] == PLAYERS[g][0]


def test_the_desktop_tools_read_the_description():
    """The simulator's --start and the arena check against the same counts."""
    from tools.simlib.script import UsageError, parse_start
    for g in range(len(GAMES)):
        for n in COUNTS:
            text = "%s:%d:usta" % (GAMES[g], n)
            if n in PLAYERS[g]:
                assert parse_start(text) == (GAMES[g], n, "usta")
            else:
                with pytest.raises(UsageError):
                    parse_start(text)
