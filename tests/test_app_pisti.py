# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The Pişti table driven by buttons through the real app on the shims:
whole hands, the end-of-hand breakdown (P-12), a whole match (P-13), the
pişti flash and sounds, the pause menu, leaving and Continue (T-6)."""

import random

import pytest

from stack import pisti_deck
from console import labels_out_of_bounds

from pisti_core.cards import card_str, parse_card
from pisti_core.match import Match
from console import sit as sit_down


def play_card(d, code):
    """Move the cursor to ``code`` in the hand on screen and press A."""
    st = d.status()
    hand = st["your_hand"]
    assert code in hand and code in st["legal"], (code, st)
    want = hand.index(code)
    steps = (want - st["cursor"]) % len(hand)
    for _ in range(steps):
        d.press("RIGHT", after=20)
    assert d.status()["cursor"] == want
    ply = st["ply"]
    d.press("A", after=20)
    st = d.status()
    assert st["ply"] == ply + 1 or st["screen"] != "table", st
    return st


def choose(st):
    """A simple policy: take the pile when a card can, else the first card."""
    pile = st["pile"]
    for code in st["your_hand"]:
        if pile and (code[0] == pile[-1][0] or code[0] == "J"):
            return code
    return st["your_hand"][0]


def wait_my_turn_or_end(d):
    return d.wait(lambda s: s["screen"] != "table" or s["legal"], limit_ms=30000)


def test_a_whole_hand_by_buttons_to_the_breakdown(device):
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=11, PISTI_DELAY=200)
    st = d.status()
    assert st["screen"] == "table" and st["level"] == "usta" and st["hand"] == 1
    assert st["pile_size"] == 4 and st["hidden"] == 3 and st["stock"] == 40  # P-5
    d.run(20)
    d.shot("pisti_start")
    assert labels_out_of_bounds(d.app.display.root_group) == []
    plays = 0
    seen_bot = False
    while True:
        st = wait_my_turn_or_end(d)
        if st["screen"] != "table":
            break
        if st["ply"] > 0:
            seen_bot = True
        if plays == 5:
            d.shot("pisti_mid")
        play_card(d, choose(st))
        plays += 1
    assert plays == 24 and seen_bot  # P-10: six deals of four cards each
    assert st["screen"] == "hand_end" and st["hand"] == 1
    d.shot("pisti_hand_end")
    assert labels_out_of_bounds(d.app.display.root_group) == []
    s = d.app.session
    r = s.last.result()
    texts = st["texts"]
    def pair(k, m=1):
        return "%d:%d" % (r[0][k] * m, r[1][k] * m)

    for key, label in (("cards", "Cards"), ("aces", "Aces"), ("jacks", "Jacks"),
                       ("two_clubs", "2\u2663"), ("ten_diamonds", "10\u2666"),
                       ("majority", "Majority"), ("total", "Hand")):
        i = texts.index(label)
        assert texts[i + 1] == pair(key), (key, texts)
    assert texts[texts.index("Pişti") + 1] == pair("pisti", 10)
    assert r[0]["cards"] + r[1]["cards"] == 52
    assert s.match.totals == [r[0]["total"], r[1]["total"]] == st["totals"]
    assert "%d:%d" % tuple(st["totals"]) in texts
    d.settle()  # (read first: the hand end drops keys for a moment)
    d.press("A")
    st = d.status()
    assert st["screen"] == "table" and st["hand"] == 2 and st["ply"] == 0
    assert st["dealer"] == (s.match.first_dealer + 1) % 2  # P-3: the deal passes on


def test_a_whole_match_bot_against_bot_to_the_match_end(device):
    from pisti_core.bots import make_bot

    d = device(PISTI_START="pisti:2:usta", PISTI_TARGET=101, PISTI_SEED=3, PISTI_DELAY=0, PISTI_RATED=1)
    # The outside-bot hook: anything with choose(obs) can take a seat.
    d.app.bots[0] = make_bot("pisti", "greedy", random.Random(5))
    hands = 0
    while True:
        st = d.wait(lambda s: s["screen"] != "table", limit_ms=60000)
        assert st["screen"] == "hand_end"
        hands += 1
        assert st["hand"] == hands
        d.settle()
        d.press("A")
        if d.status()["screen"] == "match_end":
            break
        d.app.bots[0] = make_bot("pisti", "greedy", random.Random(hands))
    st = d.status()
    m = d.app.session.match
    assert m.over and max(m.totals) >= 101 and m.totals[0] != m.totals[1]  # P-13
    assert hands == d.app.session.hands_done >= 2
    d.shot("pisti_match_end")
    won = m.totals[0] > m.totals[1]
    assert ("You won!" in st["texts"]) == won
    assert "Pişti ranking: %+d" % (1 if won else -1) in st["texts"]
    row = d.app.rankings.get("pisti", 2, "usta")
    assert row[0] == 1 and row[4] == (1 if won else -1)  # T-2
    d.settle()
    d.press("B")  # the main menu (A: a rematch)
    assert d.status()["screen"] == "menu" and d.app.session is None
    d.menu_to("rankings")
    d.press("A")
    lines = d.status()["lines"]
    at = lines.index("Pişti 2 Master")
    assert lines[at + 1:at + 3] == ["Played 1, points %+d" % (1 if won else -1),
                                    "Won %d, drawn 0, lost %d" % (won, not won)]


def stacked_session(app):
    """Seat 0 leads (dealer 1): 5♥ takes the four centre cards (5♣ on top),
    the bot then has only kings and Q♠, and seat 0 holds K♠ and Q♥: whatever
    the bot plays, seat 0 answers with a pişti (P-9)."""
    from pisti_app.match.session import GameSession

    deck = pisti_deck(2, 1, "2D 3D 4D 5C", rounds=[{0: "5H KS QH 2C", 1: "KC KD KH QS"}])
    m = Match("pisti", 2, 151, dealer=1)
    s = GameSession(m, [None, "usta"])
    m.deal(deck)
    sit_down(app, s)
    return s


@pytest.mark.parametrize("sound", [True, False])
def test_capture_and_pisti_flash_with_and_without_sound(device, sound):
    d = device(PISTI_DELAY=300)
    d.press("A")
    d.app.set_sound(sound)
    stacked_session(d.app)
    d.run(20)
    tones = d.rig.buzzer.tones
    assert tones == []
    play_card(d, "5H")  # takes 2D 3D 4D 5C: a capture, not a pişti
    st = d.status()
    assert st["message"] == "You: 5\u2665 takes 5"
    assert st["pile_size"] == 0 and st["hidden"] == 0
    if sound:
        assert [t.frequency for t in d.rig.buzzer.tones] == [1047]
    else:
        assert d.rig.buzzer.tones == []
    d.shot("pisti_capture")
    st = d.wait(lambda s: s["legal"])
    bot_card = st["pile"][-1]
    assert st["pile_size"] == 1 and bot_card[0] in "KQ"
    answer = "KS" if bot_card[0] == "K" else "QH"
    play_card(d, answer)
    st = d.status()
    assert st["toast"] == "PİŞTİ!" and st["message"] == "You: PİŞTİ! +10"
    d.shot("pisti_flash")
    if sound:
        assert d.rig.buzzer.sounding == 1047  # the tune has started, and goes on
        d.run(1000)                           # from the tick loop, not blocking
        assert [t.frequency for t in d.rig.buzzer.tones] == [1047, 1047, 1319, 1568]
        assert [t.duration_ms for t in d.rig.buzzer.tones[1:]] == [80, 80, 160]
        assert d.rig.buzzer.sounding is None
    else:
        assert d.rig.buzzer.tones == []
    d.run(700)
    assert d.status()["toast"] == ""
    assert d.app.session.hand.pistis[0] == 1


def test_pause_leave_and_continue_restore_the_same_game(device):
    d = device(PISTI_START="pisti:4:kalfa", PISTI_SEED=21, PISTI_DELAY=100)
    for _ in range(3):
        st = wait_my_turn_or_end(d)
        play_card(d, choose(st))
    st = wait_my_turn_or_end(d)
    before = dict(st)
    saved_bytes = d.app.session.to_bytes()
    d.shot("pisti4_table")
    assert labels_out_of_bounds(d.app.display.root_group) == []
    d.long("B")
    st = d.status()
    assert st["screen"] == "pause" and st["menu"][0] == "resume"
    d.shot("pause")
    d.press("A")  # resume
    assert d.status()["screen"] == "table" and d.status()["ply"] == before["ply"]
    d.press("B")  # a short B at the table opens the pause menu too
    d.menu_to("leave")
    d.press("A")
    st = d.status()
    assert st["screen"] == "menu" and st["saved"] and st["menu"][0] == "continue"
    assert d.app.saves.kept().to_bytes() == saved_bytes  # the game kept is the one in the saves
    d.press("A")  # Continue
    st = d.status()
    assert st["screen"] == "table"
    assert d.app.session.to_bytes() == saved_bytes
    for key in ("game", "players", "hand", "ply", "totals", "turn", "your_hand", "legal",
                "pile", "pile_size", "hidden", "stock", "bottom", "counts", "levels"):
        assert st[key] == before[key], key
    play_card(d, choose(st))  # and the game goes on


def test_session_bytes_round_trip_and_refuse_garbage():
    """T-6: a session saves as the hand's header (deck, totals, hands done,
    levels, rated and its number) plus the hand's actions, and replays to
    the same point; anything else is refused."""
    from pisti_app.match import session_io
    from pisti_app.match.session import GameSession

    rng = random.Random(8)
    def below(n):
        return rng.randrange(n)

    for game, players in (("pisti", 2), ("pisti", 4), ("yedili", 3), ("yedili", 4)):
        s = GameSession.new(game, players, [None] + ["usta", "kalfa", "acemi"][:players - 1],
                            None, below, rated=players != 3, number=517)
        for _ in range(3):  # up to two hands finished and one in progress
            h = s.hand
            while not h.over and (s.hands_done < (2 if game == "pisti" else 1) or h.ply < 9):
                legal = h.legal()
                h.apply(legal[rng.randrange(len(legal))])
            if not h.over:
                break
            s.end_hand()
            assert not s.over
        data = s.to_bytes()
        assert data[0] == len(s.header()) <= 254  # one nvm record
        r = session_io.from_bytes(data, below)
        assert (r.game, r.players, r.levels, r.rated, r.number) == (game, players, s.levels, players != 3, 517)
        assert (r.hands_done, r.match.totals, r.match.first_dealer) == (s.hands_done, s.match.totals,
                                                                        s.match.first_dealer)
        assert (r.hand.dealer, r.hand.deck, r.hand.actions) == (s.hand.dealer, s.hand.deck, s.hand.actions)
        assert r.to_bytes() == data and r.hand.legal() == s.hand.legal()
        with pytest.raises(ValueError, match="header is"):
            session_io.from_bytes(bytes((data[0] - 3,)) + data[1:data[0] - 2])
        with pytest.raises(ValueError):  # an action that is not legal there
            session_io.from_bytes(data + bytes((200,)))
    with pytest.raises(ValueError, match="not a saved pisti game"):
        session_io.from_bytes(b"\x05XXXXX")
    with pytest.raises(ValueError, match="not a saved pisti game"):
        session_io.from_bytes(b"")


def test_cards_on_screen_read_as_cards(device):
    """The hand's chips show the rank and suit glyphs of the cards in hand:
    compare each chip's pixels with a chip drawn for that card alone."""
    from pisti_app.screens import sprites

    d = device(PISTI_START="pisti:2:acemi", PISTI_SEED=4)
    d.run(20)
    st = d.status()
    rows = d.rig.oled.rows()
    for i, code in enumerate(st["your_hand"]):
        ref = sprites.Card(sprites.CHIP)
        ref.show(parse_card(code))
        ref.select(bool(st["legal"]) and i == st["cursor"])  # the cursor shows on your turn
        x0, y0 = (2, 34, 66, 98)[i], 49
        for y in range(ref.bitmap.height):
            for x in range(ref.bitmap.width):
                v = ref.bitmap[x, y]
                want = 1 if (v == 1) != ref.selected and v != 2 else 0
                assert rows[y0 + y][x0 + x] == want, (code, x, y)
    assert card_str(d.app.session.hand.deck[51]) == st["bottom"]


def test_a_quiet_table_sends_nothing(device):
    d = device(PISTI_START="pisti:2:kalfa", PISTI_SEED=6, PISTI_DELAY=200)
    st = d.wait(lambda s: s["legal"] and not s["holding"] and not s["toast"], limit_ms=10000)
    d.run(1000)  # let the last message time out
    frames, sent = d.rig.oled.frames, d.rig.oled.bytes_total
    d.run(3000)  # waiting for the person: no frame, no byte
    assert (d.rig.oled.frames, d.rig.oled.bytes_total) == (frames, sent)
    d.press("RIGHT")  # moving the cursor repaints two chips only
    assert d.rig.oled.frames == frames + 1 and d.rig.oled.bytes_last_frame < 300
    assert d.status()["cursor"] == (st["cursor"] + 1) % len(st["your_hand"])


def test_T4_exit_from_a_rated_game_asks_then_counts_as_leaving(device):
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=2, PISTI_DELAY=100, PISTI_RATED=1)
    st = wait_my_turn_or_end(d)
    play_card(d, choose(st))
    d.long("B")
    d.menu_to("leave")
    d.press("A")
    st = d.status()  # T-4: the confirmation names the cost (first hand: a loss)
    assert st["screen"] == "confirm" and st["title"] == "Leave rated game?"
    assert "First hand: it counts as a loss (-1)." in st["message"]
    d.press("A")
    st = d.status()
    assert st["screen"] == "menu" and not st["saved"] and "continue" not in st["menu"]
    assert d.app.rankings.get("pisti", 2, "usta") == [1, 0, 0, 1, -1]


def test_a_tune_sounds_each_note_and_rest_for_its_length():
    """Sound plays a tune's notes by the clock: 'warn' is 880 Hz for 90 ms,
    60 ms of silence, 880 Hz for 90 ms, then silence and nothing playing."""
    from pisti_app.sound import Sound

    class Pwm:
        def __init__(self):
            self.log = []
            self.now = 0
            self.frequency = 0
            self.duty = 0

        @property
        def duty_cycle(self):
            return self.duty

        @duty_cycle.setter
        def duty_cycle(self, v):
            self.duty = v
            self.log.append((self.now, self.frequency if v else 0))

    pwm = Pwm()
    snd = Sound(pwm)
    pwm.now = 1000
    snd.play("warn", 1000)
    for now in range(1000, 1400, 10):
        pwm.now = now
        snd.tick(now)
    changes = [pwm.log[0]] + [b for a, b in zip(pwm.log, pwm.log[1:], strict=False) if a[1] != b[1]]
    assert changes == [(1000, 880), (1090, 0), (1150, 880), (1240, 0)], pwm.log
    assert snd._seq is None  # the tune is over
