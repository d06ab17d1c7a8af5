# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The Pis Yedili table driven by buttons through the real app: a whole
4-player hand with drawing, passing and the suit picker, the why-not
messages (Y-3, Y-4, Y-6), the Muamele pick row (Y-15) and the breakdown."""

import random

from console import labels_out_of_bounds

from pisti_core.match import Match
from pisti_core.yedili import DRAW, MUAMELE, PASS, YediliHand
from console import sit as sit_down


def move_cursor(d, want):
    """LEFT/RIGHT until the cursor is on index ``want`` of the row."""
    st = d.status()
    step = "RIGHT" if want > st["cursor"] else "LEFT"
    for _ in range(abs(want - st["cursor"])):
        d.press(step, after=20)
    st = d.status()
    assert st["cursor"] == want and st["focus"] in ("hand", "pick"), st
    return st


def play(d, action):
    """Do the R-2 ``action`` with buttons: a card, 'JH:S', 'draw' or 'pass'."""
    st = d.status()
    ply = st["ply"]
    if action in ("draw", "pass"):
        d.press("UP", after=20)
        assert d.status()["focus"] == "action"
        d.press("A", after=20)
    elif ":" in action:  # a Jack and the suit it names
        move_cursor(d, st["your_hand"].index(action[:2]))
        table = d.app.stack[-1]
        layers = len(table.group)
        d.press("A", after=20)
        st = d.status()
        assert st["focus"] == "suit" and st["suit"] in "CDHS"
        assert table.picker.tile in table.group and len(table.group) == layers + 1
        for _ in range(("CDHS".index(action[3]) - "CDHS".index(st["suit"])) % 4):
            d.press("RIGHT", after=20)
        assert d.status()["suit"] == action[3]
        d.shot("yedili_suit_picker")
        d.press("A", after=20)
        # the panel goes with its bitmap (~0.6 KB a board would otherwise hold to the hand's end)
        assert table.picker.tile is None and table.picker.bm is None and len(table.group) == layers
    else:
        move_cursor(d, st["your_hand"].index(action))
        d.press("A", after=20)
    st = d.status()
    assert st["screen"] != "table" or st["ply"] == ply + 1, (action, st)
    return st


def test_a_refused_keys_toast_goes_with_the_next_key(device):
    """The toast that says why a card is refused (Y-3) closes with the
    person's next key, at once, instead of 2 s later on its own: its
    redraw (the table under it, ~50 ms on the board) then comes after
    that key's work, so a play is never held up behind it (L-4). Left
    alone, it still closes after 2 s."""
    d = device(PISTI_START="yedili:4:usta", PISTI_SEED=4, PISTI_DELAY=100)
    d.run(20)
    for left_alone in (False, True):
        st = d.wait(lambda s: s["screen"] != "table" or s["legal"], limit_ms=30000)
        legal = st["legal"]
        wrong = [i for i, c in enumerate(st["your_hand"])
                 if c not in legal and not any(a.startswith(c + ":") for a in legal)]
        assert wrong, st  # (the opening round refuses all but plain clubs: Y-3)
        st = move_cursor(d, wrong[0])
        d.press("A", after=20)
        assert d.status()["toast"] != ""
        if left_alone:
            d.run(1500)
            assert d.status()["toast"] != ""  # still up ...
            d.run(600)
            assert d.status()["toast"] == ""  # ... for 2 s
        else:
            d.run(300)
            d.press("RIGHT" if wrong[0] + 1 < len(st["your_hand"]) else "LEFT", after=20)
            after = d.status()
            assert after["toast"] == "" and after["cursor"] != wrong[0], after  # the key did its work too


def test_a_four_player_hand_with_draw_pass_suit_picker_and_why_not(device):
    d = device(PISTI_START="yedili:4:usta", PISTI_SEED=2, PISTI_DELAY=100)
    d.run(20)
    st = d.status()
    assert (st["screen"], st["game"], st["players"], st["phase"]) == ("table", "yedili", 4, "opening")
    assert st["counts"] == [7, 7, 7, 7] and st["stock"] == 104 - 28  # Y-1, Y-2
    d.shot("yedili_start")
    done = {"draw": 0, "pass": 0, "jack": 0, "why_open": 0, "why_match": 0}
    while True:
        st = d.wait(lambda s: s["screen"] != "table" or s["legal"], limit_ms=30000)
        if st["screen"] != "table":
            break
        legal = st["legal"]
        cards = [a for a in legal if a not in ("draw", "pass")]
        wrong = [c for c in st["your_hand"]
                 if c not in legal and not any(a.startswith(c + ":") for a in legal)]
        # Once each: try a card the rules refuse, and read why (nothing changes).
        kind = "why_open" if st["phase"] == "opening" else "why_match"
        if wrong and not done[kind] and (kind == "why_open" or (not st["pending"] and not st["named"])):
            move_cursor(d, st["your_hand"].index(wrong[0]))
            d.press("A", after=20)
            after = d.status()
            assert after["ply"] == st["ply"] and after["your_hand"] == st["your_hand"]
            if kind == "why_open":
                assert after["toast"].startswith("Opening round:\nplay a plain club"), after
            else:
                top = st["top"]
                suit = "\u2663\u2666\u2665\u2660"["CDHS".index(top[1])]
                assert after["toast"].startswith("Match the suit %s\n" % suit), after
            d.shot("yedili_why_not")
            done[kind] += 1
            continue
        if st["phase"] == "normal" and not st["pending"] and cards and not done["draw"]:
            action = "draw"  # Y-5: drawing is allowed even with a card to play
        elif "pass" in legal and not done["pass"]:
            action = "pass"
        else:
            jacks = [a for a in cards if a[0] == "J"]
            action = jacks[-1] if jacks else (cards[0] if cards else legal[0])
        if action in ("draw", "pass"):
            done[action] += 1
        elif action[0] == "J":
            done["jack"] += 1
        st = play(d, action)
        if action.startswith("J"):
            assert st["top"] == action[:2] and st["named"] == action[3]  # Y-7
    assert done["draw"] and done["pass"] and done["jack"] and done["why_open"] and done["why_match"], done
    assert st["screen"] == "hand_end"
    d.shot("yedili_hand_end")
    assert labels_out_of_bounds(d.app.display.root_group) == []
    h = d.app.session.last
    pens = h.penalties()
    texts = st["texts"]
    for seat in range(4):
        name = "You" if seat == 0 else "Bot %d" % seat
        i = texts.index(name)
        assert texts[i + 3] == str(pens[seat])  # the hand's penalty, Muamele included
        assert texts[i + 4] == str(d.app.session.match.totals[seat])
    d.settle()  # (read first: the hand end drops keys for a moment)
    d.press("A")
    assert d.status()["screen"] in ("table", "match_end")


def find_muamele_position(players=4, tries=400):
    """A deck and actions after which a bot is to move holding one card it
    may play (going out, Y-12) while the person holds sevens (Y-15)."""
    rng = random.Random(1)
    for _ in range(tries):
        deck = list(range(52 * (2 if players > 2 else 1)))
        rng.shuffle(deck)
        h = YediliHand(players, 1, bytes(deck))
        acts = []
        while not h.over and h.phase != MUAMELE:
            s = h.turn
            legal = h.legal()
            last = [a for a in legal if a not in (DRAW, PASS)]
            if (s != 0 and h.hn[s] == 1 and last and h.stock > 8
                    and any((c % 52) >> 2 == 6 for c in h.hand(0))):
                return bytes(deck), acts
            a = legal[rng.randrange(len(legal))]
            h.apply(a)
            acts.append(a)
    raise AssertionError("no position found")


def muamele_session():
    """The position of :func:`find_muamele_position` as a 4-player session
    against Usta (dealer 1), not yet played: (session, its hand)."""
    from pisti_app.match.session import GameSession

    deck, acts = find_muamele_position()
    m = Match("yedili", 4, None, dealer=1)
    s = GameSession(m, [None, "usta", "usta", "usta"])
    h = m.deal(deck)
    for a in acts:
        h.apply(a)
    return s, h


class GoOut:
    """An outside bot (the app.bots hook) that plays its last card."""

    def choose(self, obs):
        legal = obs.legal()
        cards = [a for a in legal if a not in (DRAW, PASS)]
        return cards[0] if cards else legal[0]


def test_muamele_pick_row_after_a_bot_goes_out(device):
    d = device(PISTI_DELAY=100, PISTI_SEED=9)
    d.press("A")
    s, h = muamele_session()
    winner = h.turn
    sevens = sum(1 for c in h.hand(0) if (c % 52) >> 2 == 6)
    sit_down(d.app, s)
    d.app.bots[winner] = GoOut()
    st = d.wait(lambda s: s["screen"] != "table" or s.get("focus") == "pick", limit_ms=30000)
    assert st["screen"] == "table" and st["phase"] == "muamele" and st["turn"] == 0
    assert h.winner == winner and st["picks"] >= 3 * sevens  # Y-15 (more after a 7 picked)
    assert st["legal"] == ["pick:%d" % i for i in range(st["stock"])]
    assert st["toast"] == "Bot %d went out" % winner
    d.run(300)
    d.shot("yedili_muamele")
    assert "Muamele: pick %d" % st["picks"] in d.status()["message"]
    assert labels_out_of_bounds(d.app.display.root_group) == []
    picked = 0
    while True:
        st = d.status()
        if st["screen"] != "table" or st["turn"] != 0 or st["phase"] != "muamele":
            break
        move_cursor(d, min(2, st["stock"] - 1))
        d.press("A", after=20)
        picked += 1
        after = d.status()
        assert after["message"].startswith("You pick ") or after["message"].startswith("You: ")
    assert picked >= 3 * sevens
    st = d.wait(lambda s: s["screen"] == "hand_end", limit_ms=30000)
    assert len(h.muamele[0]) == picked
    texts = st["texts"]
    at = texts.index("Mu: Muamele, picks for 7s")  # Y-15: what Mu is, then the cards picked under it
    assert texts[at + 1].startswith("You "), texts
    d.shot("yedili_muamele_end")
