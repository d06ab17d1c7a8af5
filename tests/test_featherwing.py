# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The 128x32 layouts (Adafruit FeatherWing OLED, three buttons A B C):
golden screenshots of the ends of whole matches (tests/golden/fw_*_end*.png;
regenerate after a deliberate change with ``PISTI_UPDATE_GOLDEN=1`` and look
at them; every other screen is a scene of tools/gallery.py), no
label past the 128x32 screen in either language, whole matches of both
games played with the three buttons only, and the outside-bot hook
``App.seat_bot``."""

import os
import random
import shutil

import pytest
from PIL import Image

from test_sim import GOLDEN


# -- helpers (the harness, Wing and the wing fixture, is tests/console.py) --------------------


def move_to(d, index):
    """Press C / A until the cursor of the table is on ``index``."""
    st = d.status()
    step, key = (1, "C") if index > st["cursor"] else (-1, "A")
    for _ in range(abs(index - st["cursor"])):
        d.press(key)
    assert d.status()["cursor"] == index, (index, d.status())
    del step


def my_move(d, rng):
    """One decision of the person with the three buttons only: a random legal
    card (A/C to it, B), else the Draw / Pass button, a Muamele pick or a suit."""
    st = d.status()
    if st.get("focus") == "suit":
        d.press("B")
        return
    legal = st["legal"]
    if st["game"] == "yedili" and st.get("focus") == "pick":
        target = rng.randrange(st["picks"] and st["stock"] or 1)
        move_to(d, min(target, st["stock"] - 1))
        d.press("B")
        return
    hand = st["your_hand"]
    cards = [i for i in range(len(hand)) if any(a.split(":")[0] == hand[i] for a in legal)]
    if cards:
        move_to(d, rng.choice(cards))
        d.press("B")
        if d.status().get("focus") == "suit":  # a Jack: name a suit (C moves, B picks)
            for _ in range(rng.randrange(4)):
                d.press("C")
            d.press("B")
        return
    assert st["game"] == "yedili" and ("draw" in legal or "pass" in legal), st
    move_to(d, 0)
    d.press("A")  # the button sits before the first card
    assert d.status()["focus"] == "action"
    d.press("B")


def play_out(d, rng, limit=4000, shots=None):
    """Play until the match-end screen; ``shots``: {screen name: path} to
    capture the first time each is seen. Every screen is checked in bounds."""
    seen = set()
    for _ in range(limit):
        st = d.wait(lambda s: s["screen"] in ("hand_end", "match_end")
                    or (s["screen"] == "table" and s["turn"] == 0 and not s["holding"]
                        and not s["queued"] and not s["toast"] and s["legal"]), 60000)
        name = st["screen"]
        assert d.out_of_bounds() == [], (name, d.out_of_bounds())
        if name not in seen:
            seen.add(name)
            if shots and name in shots:
                d.png(shots[name])
        if name == "match_end":
            return st
        if name == "hand_end":
            d.press("B")
        else:
            my_move(d, rng)
    raise AssertionError("no match end after %d decisions" % limit)


def check_golden(name, shot):
    """``shot`` (a 4x PNG) against tests/golden/``name``.png, pixel for pixel
    (``PISTI_UPDATE_GOLDEN=1`` writes it)."""
    golden = os.path.join(GOLDEN, name + ".png")
    if os.environ.get("PISTI_UPDATE_GOLDEN") == "1":
        shutil.copyfile(str(shot), golden)
    if not os.path.exists(golden):
        pytest.fail("no golden %s: run with PISTI_UPDATE_GOLDEN=1 to make it" % golden)
    got, want = Image.open(str(shot)).convert("L"), Image.open(golden).convert("L")
    assert got.size == want.size == (512, 128)
    if got.tobytes() != want.tobytes():
        diff = sum(1 for a, b in zip(got.tobytes(), want.tobytes(), strict=False) if a != b) // 16
        pytest.fail("%s differs from %s in %d OLED pixels (new picture: %s); if the change is "
                    "meant, regenerate with PISTI_UPDATE_GOLDEN=1" % (name, golden, diff, shot))


# -- golden screenshots of the 128x32 screens from tools/sim.py: the fw_* scenes of
# tools/gallery.py, checked by tests/test_gallery.py ----------------------------------------


# -- every screen inside 128x32, in both languages ------------------------------------------


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_no_label_leaves_the_128x32_screen(wing, lang):
    d = wing(PISTI_LANG=lang, PISTI_SEED=3)
    assert d.out_of_bounds() == []  # the splash
    d.press("B")
    menu = d.status()["menu"]
    for i, key in enumerate(menu):
        assert d.status()["cursor"] == key
        d.press("B")
        for _ in range(12):  # every row or line of it
            assert d.out_of_bounds() == [], (key, d.status()["screen"], d.out_of_bounds())
            d.press("C")
        if d.status()["screen"] == "rules":  # the rules index: each page set
            for _ in range(3):
                d.press("B")
                for _ in range(40):
                    assert d.out_of_bounds() == [], d.status()
                    d.press("C")
                d.long()
                d.press("C")
        d.long()
        assert d.status()["screen"] == "menu", (key, d.status())
        if i + 1 < len(menu):
            d.press("C")


# -- whole matches with three buttons -----------------------------------------------------


def test_a_whole_pisti_match_to_101_with_three_buttons(wing, tmp_path):
    d = wing(PISTI_START="pisti:2:acemi", PISTI_TARGET=101, PISTI_SEED=4, PISTI_DELAY=0)
    d.run(50)
    assert d.app.height == 32 and d.app.screen.compact
    st = play_out(d, random.Random(1), shots={"hand_end": tmp_path / "he.png",
                                               "match_end": tmp_path / "me.png"})
    assert st["target"] == 101 and max(st["totals"]) >= 101
    check_golden("fw_pisti_hand_end", tmp_path / "he.png")
    check_golden("fw_pisti_match_end", tmp_path / "me.png")
    texts = d.app.screen.texts()
    assert any("You" in x for x in texts), texts
    d.long("B")  # the main menu (B: a rematch)
    assert d.status()["screen"] == "menu"


def test_a_whole_yedili_match_for_3_with_three_buttons(wing, tmp_path):
    d = wing(PISTI_START="yedili:3:acemi", PISTI_SEED=6, PISTI_DELAY=0, PISTI_LANG="tr")
    d.run(50)
    st = play_out(d, random.Random(2), shots={"hand_end": tmp_path / "he.png",
                                               "match_end": tmp_path / "me.png"})
    assert st["game"] == "yedili" and st["players"] == 3 and st["over"]
    check_golden("fw_yedili_hand_end_tr", tmp_path / "he.png")
    check_golden("fw_yedili_match_end_tr", tmp_path / "me.png")


def test_outside_bot_hook_seats_a_bot_before_its_first_move(wing):
    """App.seat_bot: a bot object (or a factory) plays a seat from the first
    move of this game and of every later one."""
    from pisti_core.bots import make_bot

    d = wing(PISTI_START="pisti:2:usta", PISTI_SEED=5, PISTI_DELAY=0)
    asked = []

    class Spy:
        def __init__(self):
            self.inner = make_bot("pisti", "greedy", random.Random(1))

        def choose(self, obs):
            asked.append(obs)
            return self.inner.choose(obs)

    made = []

    def factory(game, seat, players):
        made.append((game, seat, players))
        return Spy()

    d.app.seat_bot(1, factory)
    assert made == [("pisti", 1, 2)] and isinstance(d.app.bots[1], Spy)
    d.app.seat_bot(3, factory)  # no seat 3 in a 2-player game: ignored
    assert made == [("pisti", 1, 2)]
    st = play_out(d, random.Random(3))
    assert st["screen"] == "match_end" and asked
    d.long("B")  # the main menu (B would be a rematch)
    d.app.start_game("yedili", 3, [None, "acemi", "acemi"])
    assert made[-1] == ("yedili", 1, 3) and isinstance(d.app.bots[1], Spy)
    assert not isinstance(d.app.bots[2], Spy)
    d.app.seat_bot(1, None)
    d.app.start_game("pisti", 2, [None, "acemi"])
    assert not isinstance(d.app.bots[1], Spy)
