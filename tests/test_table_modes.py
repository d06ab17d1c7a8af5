# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The game table through the real app on the shims (RULES.md T-1 to T-4):
rated and practice games, the ranking after finished rated matches (two
players, partnerships, three and four each for themselves), the move timer
(countdown in the top bar, blink and beep, stopped on end-of-hand screens,
running out), undo in practice, and every way of leaving a rated game with
the confirmation naming its cost. Saves and power cuts: test_table_saves.py.
"""

import random

import pytest

from console import Device, labels_out_of_bounds
from test_app_strings import region_matches_text

from pisti_core.cards import card_str
from pisti_core.match import Match
from tools.shims.nvm import FlashNvm
from console import sit as sit_down

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

TICK = 1760  # the timer's warning beep (Hz)


# -- helpers (also used by test_table_saves.py) ----------------------------------------------
def choose(st):
    """The person's policy: take the pile when a card can, else the first card."""
    pile = st["pile"]
    for code in st["your_hand"]:
        if pile and (code[0] == pile[-1][0] or code[0] == "J"):
            return code
    return st["your_hand"][0]


def play(d, code, step=10):
    """Play Pişti card ``code`` with buttons (works at any bot delay)."""
    st = d.status()
    assert code in st["legal"], (code, st)
    hand = st["your_hand"]
    for _ in range((hand.index(code) - st["cursor"]) % len(hand)):
        d.press("RIGHT", hold=step, after=step)
    ply, hand_no = st["ply"], st["hand"]
    d.press("A", hold=step, after=step)
    st = d.status()
    assert st["screen"] != "table" or st["hand"] != hand_no or st["ply"] > ply, st
    return st


def my_turn(d, limit_ms=60000):
    """Wait for the person's turn or a screen other than the table."""
    return d.wait(lambda s: s["screen"] != "table" or s["legal"], limit_ms=limit_ms)


def play_pisti_match(d, step=10):
    """Play a Pişti match to its end with buttons; returns the person's moves."""
    moves = 0
    while True:
        st = my_turn(d)
        if st["screen"] == "hand_end":
            d.press("A", hold=step, after=step)
        elif st["screen"] == "match_end":
            d.settle()  # (read first: the match end drops keys for a moment)
            return moves
        else:
            play(d, choose(st), step)
            moves += 1


def timing(d):
    """Wait for the person's turn with no play on show: the move timer runs."""
    st = d.wait(lambda s: s["screen"] != "table" or (s["legal"] and not s["holding"]))
    d.run(20)
    return st


def fast_forward(d, ms, step=250):
    """Let ``ms`` of virtual time pass in ``step`` ms ticks (the timer reads ticks_ms)."""
    for _ in range(ms // step):
        d.rig.clock.advance(step)
        d.app.tick()


def sit(d, game, players, totals=None, base=0, rated=True, level="usta", acts=0, seed=1):
    """A game at the table as if ``base`` hands were played to ``totals``:
    seat 0 leads (the dealer is the last seat), then ``acts`` random legal
    actions are taken (seat 0 to move after them, if possible)."""
    from pisti_app.match.session import GameSession

    app = d.app
    m = Match(game, players, None, dealer=players - 1)
    m.first_dealer = (players - 1 - base) % players  # P-3: the deal passed on each hand
    if totals is not None:
        m.totals[:] = totals
    number = (app.rankings.stamp + 1) & 0xFFFF if rated else 0
    s = GameSession(m, [None] + [level] * (players - 1), rated, number, base)
    rng = random.Random(seed)
    h = m.deal()
    while h.ply < acts or (acts and h.turn != 0):
        legal = h.legal()
        h.apply(legal[rng.randrange(len(legal))])
    sit_down(app, s)
    return s


def expected_T2(game, totals, seat=0):
    """T-2 by the book, written out independently of pisti_core.table."""
    if game == "pisti":
        mine, other = totals[seat & 1], totals[1 - (seat & 1)]
        return (1, 1, 0, 0) if mine > other else (0, 0, 1, 0) if mine == other else (-1, 0, 0, 1)
    low, high = min(totals), max(totals)
    me = totals[seat]
    if len(totals) == 2 or low == high:
        if totals.count(low) == len(totals):
            return 0, 0, 1, 0
    if me == low and totals.count(low) == 1:
        return 1, 1, 0, 0
    if me == high:
        return -1, 0, 0, 1
    return 0, 0, 1, 0


# -- T-1 rated and practice ------------------------------------------------------------------
def test_T1_new_game_menu_chooses_rated_or_practice(device):
    d = device()
    d.press("A")
    d.press("A")  # New game
    d.menu_to("mode")
    assert d.app.screen.item("mode").value == "Practice"  # the default
    d.press("RIGHT")
    assert d.app.screen.item("mode").value == "Rated"
    d.menu_to("start")
    d.press("A")
    st = d.status()
    assert st["screen"] == "table" and st["rated"] is True and st["timer"] == 60
    assert d.app.saves.read_prefs(dict(d.app.prefs)) and d.app.prefs["rated"]  # kept


def test_T1_practice_is_never_recorded_and_has_no_timer(device):
    from pisti_core.bots import make_bot

    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=4, PISTI_DELAY=0, PISTI_TARGET=101)
    st = my_turn(d)
    assert st["rated"] is False and st["timer"] is None and d.app.screen.clock.text == ""
    fast_forward(d, 400000)  # minutes at the table: no timer, nothing happens
    assert d.status()["screen"] == "table" and d.status()["ply"] == st["ply"]
    sit(d, "pisti", 2, [100, 0], base=5, rated=False)
    d.app.bots[0] = make_bot("pisti", "greedy", random.Random(1))  # seat 0 by the outside-bot hook
    while d.status()["screen"] != "match_end":
        st = d.wait(lambda s: s["screen"] != "table", limit_ms=60000)
        if st["screen"] == "hand_end":
            d.press("A")
    st = d.status()
    assert "Practice: not ranked" in st["texts"]
    assert st["rankings"] == {} and d.app.saves.store.ranking is None  # T-1
    assert d.app.saves.store.game_header is None  # and the finished game is gone from nvm


def test_T1_T2_rated_match_through_the_buttons_lands_in_the_ranking(device):
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=5, PISTI_DELAY=0, PISTI_TARGET=101, PISTI_RATED=1)
    assert d.status()["rated"] and d.status()["timer"] == 60
    moves = play_pisti_match(d)
    st = d.status()
    m = d.app.session.match
    pts, won, drawn, lost = expected_T2("pisti", m.totals)
    assert moves >= 24 * 2 and st["screen"] == "match_end"
    assert "Pişti ranking: %+d" % pts in st["texts"]
    assert st["rankings"] == {"pisti:2:usta": {"played": 1, "won": won, "drawn": drawn, "lost": lost,
                                               "points": pts}}
    d.press("B")  # the main menu (A would be a rematch)
    d.menu_to("rankings")
    d.press("A")
    lines = d.status()["lines"]
    at = lines.index("Pişti 2 Master")
    assert lines[at + 1:at + 3] == ["Played 1, points %+d" % pts, "Won %d, drawn %d, lost %d" % (won, drawn, lost)]
    d.shot("rankings")


def test_T1_undo_only_in_practice_and_only_when_switched_on(device):
    nvm = FlashNvm()
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=7, PISTI_DELAY=50, nvm=nvm)
    st = my_turn(d)
    d.long("B")
    assert "undo" not in d.status()["menu"]  # off by default
    d.menu_to("settings")
    d.press("A")
    d.menu_to("undo")
    d.press("RIGHT")
    d.press("B")  # closing Settings saves them
    assert d.app.prefs["undo"] and d.app.saves.read_prefs({}) is True
    assert "undo" in d.status()["menu"]
    d.press("B")  # back to the table
    st = my_turn(d)
    before = (st["hand"], st["ply"], st["your_hand"], st["pile"], st["pile_size"])
    for _ in range(3):  # three of the person's decisions and the bot's replies
        play(d, choose(my_turn(d)))
    st = my_turn(d)
    assert st["ply"] >= before[1] + 6
    d.long("B")
    d.menu_to("undo")
    d.press("A")  # back to the previous decision (by replaying the hand's record)
    st = my_turn(d)
    assert st["ply"] == before[1] + 4 and st["screen"] == "table"
    h = d.app.session.hand
    deck, acts = bytes(h.deck), bytes(h.actions)
    assert d.app.saves.store.game_actions[-1] == 255  # the undo mark, appended like an action
    d.close()  # the undo was saved too (T-6: the hand's record replays to the same point)
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=7, PISTI_DELAY=50, nvm=nvm.restart())
    h = d.app.session.hand
    assert (bytes(h.deck), bytes(h.actions)) == (deck, acts) and d.app.prefs["undo"]
    for _ in range(2):
        d.long("B")
        d.menu_to("undo")
        d.press("A")
    st = my_turn(d)
    assert (st["hand"], st["ply"], st["your_hand"], st["pile"], st["pile_size"]) == before
    d.long("B")
    d.menu_to("undo")
    d.press("A")  # nothing before the person's first decision of the hand
    st = d.status()
    assert st["screen"] == "table" and st["message"] == "Nothing to undo" and st["ply"] == before[1]


def test_T1_no_undo_in_rated_games_even_when_switched_on(device):
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=7, PISTI_DELAY=50, PISTI_RATED=1)
    d.app.prefs["undo"] = True
    play(d, choose(my_turn(d)))
    my_turn(d)
    d.long("B")
    assert "undo" not in d.status()["menu"] and d.status()["menu"][-1] == "leave"
    from pisti_app.match import leaving
    assert leaving.undo(d.app.play) is False  # nor by any other door


def test_T1_T3_start_settings_rated_and_timer(tmp_path):
    # Bad values: the defaults (practice, 60 s, the target of P-2), named on the splash.
    nvm = FlashNvm()
    d = Device(tmp_path, nvm=nvm, PISTI_START="pisti:2:usta", PISTI_RATED=2, PISTI_TIMER=20,
               PISTI_TARGET=120)
    try:
        st = d.status()
        assert st["screen"] == "splash" and st["notices"] == [
            "PISTI_TARGET=120 ignored", "PISTI_RATED=2 ignored", "PISTI_TIMER=20 ignored"]
        assert nvm.writes == 0  # bad settings change nothing while they are shown
        d.run(13000)  # each notice for 4 s, then the PISTI_START game
        st = d.status()
        assert st["screen"] == "table" and st["rated"] is False and d.app.prefs["timer"] == 60
        assert st["target"] == 151
    finally:
        d.close()
    d = Device(tmp_path, PISTI_START="yedili:3:acemi", PISTI_RATED=1, PISTI_TIMER=300)
    try:
        assert d.status()["rated"] and d.app.prefs["timer"] == 300
    finally:
        d.close()


# -- T-2 ranking points after a finished rated match ---------------------------------------
@pytest.mark.parametrize("game,players,totals", [
    ("pisti", 2, [140, 30]),
    ("pisti", 4, [30, 140]),  # partnerships: both partners get the team's result
    ("yedili", 2, [0, 95]),
    ("yedili", 3, [90, 0, 60]),
    ("yedili", 4, [40, 40, 95, 95]),
])
def test_T2_ranking_after_a_finished_rated_match(device, game, players, totals):
    from pisti_core.bots import make_bot

    d = device(PISTI_SEED=players * 7, PISTI_DELAY=0)
    d.press("A")
    sit(d, game, players, totals, base=3)
    d.app.bots[0] = make_bot(game, "greedy", random.Random(2))
    while d.status()["screen"] != "match_end":
        st = d.wait(lambda s: s["screen"] != "table", limit_ms=120000)
        if st["screen"] == "hand_end":
            d.press("A")
    final = list(d.app.session.match.totals)
    pts, won, drawn, lost = expected_T2(game, final)
    key = "%s:%d:usta" % (game, players)
    assert d.status()["rankings"] == {key: {"played": 1, "won": won, "drawn": drawn, "lost": lost,
                                            "points": pts}}, final
    assert "%s ranking: %+d" % ("Pişti" if game == "pisti" else "Pis Yedili", pts) in d.status()["texts"]


# -- T-3 the move timer --------------------------------------------------------------------
def test_T3_countdown_in_the_top_bar_blinks_and_beeps_in_the_last_ten_seconds(device):
    d = device(PISTI_START="pisti:2:kalfa", PISTI_SEED=3, PISTI_DELAY=100, PISTI_RATED=1, PISTI_TIMER=45)
    st = timing(d)
    assert st["timer"] == 45
    fast_forward(d, 5000)
    d.run(20)
    assert d.status()["timer"] == 40 and d.app.screen.clock.text == "40s"  # with its unit
    assert region_matches_text(d.rig.oled, "40s", 54 - 15, 0, "small")  # on the panel, left of the badge
    d.rig.buzzer.clear()
    fast_forward(d, 25000)  # 15 s left: no warning yet
    assert not d.app.play.timer.warn and TICK not in d.rig.buzzer.frequencies
    fast_forward(d, 5000)
    assert d.status()["timer"] == 10 and d.app.play.timer.warn
    seen = set()
    for _ in range(8):
        fast_forward(d, 250, 250)
        seen.add(d.app.play.timer.blink)
        assert d.app.screen.clock.background_color == (0xFFFFFF if d.app.play.timer.blink else None)
    assert seen == {True, False}  # it blinks
    d.long("B")  # the pause menu does not stop it, and shows it too
    assert d.status()["screen"] == "pause" and d.app.screen.clock.text == "%ds" % d.status()["timer"]
    d.press("A")
    fast_forward(d, 8000)
    beeps = [t for t in d.rig.buzzer.tones if t.frequency == TICK]
    assert len(beeps) == 10  # one beep each second of the last ten
    assert d.status()["screen"] == "confirm" and d.status()["title"] == "Time is up"  # T-3: left (T-4)


def test_T3_a_decision_gets_the_full_time_and_bots_turns_do_not_count(device):
    d = device(PISTI_START="pisti:2:kalfa", PISTI_SEED=8, PISTI_DELAY=3000, PISTI_RATED=1, PISTI_TIMER=30)
    st = timing(d)
    fast_forward(d, 20000)
    assert d.status()["timer"] == 10
    play(d, choose(d.status()))
    assert not d.app.play.timer.running and d.status()["timer"] == 30  # the bot's turn: full, still
    fast_forward(d, 2500)
    assert d.status()["timer"] == 30
    st = my_turn(d)
    assert st["holding"] and d.status()["timer"] == 30  # the bot's card is on show: not yet
    d.wait(lambda s: not s["holding"])
    d.run(1000)
    assert d.app.play.timer.running and d.status()["timer"] == 29  # the next decision: from the top


def test_T3_the_timer_stops_on_end_of_hand_screens(device):
    d = device(PISTI_SEED=2, PISTI_DELAY=0, PISTI_TIMER=30)
    d.press("A")
    sit(d, "pisti", 2, [10, 20], base=1, acts=46)
    st = timing(d)
    assert st["ply"] == 46 and len(st["your_hand"]) == 1 and d.app.play.timer.running
    play(d, st["your_hand"][0])
    st = d.wait(lambda s: s["screen"] == "hand_end")
    fast_forward(d, 120000)  # two minutes on the breakdown: nobody has left
    st = d.status()
    assert st["screen"] == "hand_end" and st["rankings"] == {} and not d.app.play.timer.running
    d.press("A")  # two minutes alone: the screen slept, and the first key only wakes it
    assert d.status()["screen"] == "hand_end"
    d.press("A")
    st = my_turn(d)
    assert st["screen"] == "table" and st["timer"] == 30


# -- T-4 leaving, every branch, every door ---------------------------------------------------
BRANCHES = [  # (branch, game, players, totals of the completed hands, hands done, words, loss?)
    ("first_hand", "pisti", 2, [0, 0], 0, "First hand: it counts as a loss (-1).", True),
    ("first_hand", "yedili", 4, [0, 0, 0, 0], 0, "First hand: it counts as a loss (-1).", True),
    ("alone_first", "pisti", 2, [60, 40], 2, "You lead alone: nothing is recorded.", False),
    ("alone_first", "yedili", 3, [10, 30, 30], 2, "You lead alone: nothing is recorded.", False),
    ("not_first", "pisti", 2, [40, 60], 3, "You are not alone in first place: a loss (-1).", True),
    ("not_first", "yedili", 3, [10, 10, 30], 2, "You are not alone in first place: a loss (-1).", True),
    ("team_ahead", "pisti", 4, [70, 30], 2, "Your team leads: nothing is recorded for you.", False),
    ("team_level", "pisti", 4, [50, 50], 2, "The teams are level: a loss (-1).", True),
    ("team_behind", "pisti", 4, [30, 70], 2, "Your team trails: a loss (-1).", True),
]


@pytest.mark.parametrize("door", ["exit", "new_game", "timer"])
@pytest.mark.parametrize("branch,game,players,totals,done,words,loss", BRANCHES,
                         ids=["%s-%s%d" % (b[0], b[1], b[2]) for b in BRANCHES])
def test_T4_leaving_costs_what_the_confirmation_says(device, door, branch, game, players, totals, done,
                                                     words, loss):
    nvm = FlashNvm()
    d = device(PISTI_SEED=1, PISTI_DELAY=100, PISTI_TIMER=30, nvm=nvm)
    d.press("A")
    s = sit(d, game, players, totals, base=done)
    from pisti_app.match import leaving
    assert s.rated and leaving.cost(d.app, d.app.session)[1] == words  # T-4 branch: %s
    key = "%s:%d:usta" % (game, players)
    if door == "exit":
        d.long("B")
        d.menu_to("leave")
        assert d.app.screen.item("leave").text == "Leave the table"
        d.press("A")
        st = d.status()
        assert st["screen"] == "confirm" and st["title"] == "Leave rated game?" and words in st["message"]
        assert labels_out_of_bounds(d.app.display.root_group) == []
        d.press("B")  # stay: nothing happened
        assert d.status()["screen"] == "pause" and d.status()["rankings"] == {}
        d.menu_to("leave")
        d.press("A")
        d.press("A")
        assert d.status()["screen"] == "menu"
    elif door == "new_game":
        d.close()  # switched off: not leaving (T-4) ...
        d = device(PISTI_SEED=1, PISTI_DELAY=100, nvm=nvm.restart())
        d.press("A")
        st = d.status()
        assert st["menu"][0] == "continue" and st["rankings"] == {}
        d.menu_to("new_game")
        d.press("A")
        d.menu_to("start")
        d.press("A")  # ... but a new game over the kept one is
        st = d.status()
        assert st["screen"] == "confirm" and st["title"] == "Start a new game?" and words in st["message"]
        d.press("A")
        assert d.status()["screen"] == "table" and not d.status()["saved"]
    else:
        timing(d)
        fast_forward(d, 29000)
        assert d.status()["rankings"] == {} and d.status()["timer"] == 1
        fast_forward(d, 1000)
        st = d.status()
        assert st["screen"] == "confirm" and st["title"] == "Time is up" and words in st["message"]
        d.press("A")
        assert d.status()["screen"] == "menu"
    rows = d.status()["rankings"]
    if loss:
        assert rows == {key: {"played": 1, "won": 0, "drawn": 0, "lost": 1, "points": -1}}
    else:
        assert rows == {}
    assert d.app.kept is None or not d.app.kept.rated or door == "new_game"
    assert "continue" not in (d.status().get("menu") or [])


@pytest.mark.parametrize("lang,title,words", [
    ("en", "Start a new game?", "A new game replaces the practice game kept to continue."),
    ("tr", "Yeni oyun başlasın mı?", "Yeni oyun, devam için saklanan antrenman oyununun yerini alır.")])
def test_T4_a_practice_game_is_kept_on_exit_and_a_new_game_asks_before_replacing_it(device, lang, title, words):
    """T-1, T-4: Exit keeps a practice game to Continue; a new game over it
    asks first (B keeps it), and only then replaces it, unranked."""
    d = device(PISTI_START="pisti:2:usta", PISTI_SEED=2, PISTI_DELAY=50, PISTI_LANG=lang)
    play(d, choose(my_turn(d)))
    d.long("B")
    d.menu_to("leave")
    d.press("A")
    st = d.status()
    assert st["screen"] == "menu" and st["saved"] and st["menu"][0] == "continue"
    d.menu_to("new_game")
    d.press("A")
    d.menu_to("start")
    d.press("A")
    st = d.status()
    assert st["screen"] == "confirm" and st["title"] == title and st["message"] == words
    assert labels_out_of_bounds(d.app.display.root_group) == []
    d.press("B")  # no: the kept game stays
    st = d.status()
    assert st["screen"] == "new_game" and d.app.kept is not None and st["saved"]
    d.press("A")
    d.press("A")  # yes
    st = d.status()
    assert st["screen"] == "table" and not st["saved"] and st["rankings"] == {} and d.app.kept is None


def test_T4_T6_losing_power_is_not_leaving_the_game_resumes_where_it_stopped(device):
    nvm = FlashNvm()
    d = device(PISTI_START="pisti:4:kalfa", PISTI_SEED=12, PISTI_DELAY=100, PISTI_RATED=1, nvm=nvm)
    for _ in range(4):
        play(d, choose(my_turn(d)))
    st = my_turn(d)
    h = d.app.session.hand
    deck, acts = bytes(h.deck), bytes(h.actions)
    d.close()  # the power goes
    d = device(PISTI_START="pisti:2:acemi", PISTI_SEED=99, PISTI_DELAY=100, PISTI_RATED=1, nvm=nvm.restart())
    again = d.status()  # PISTI_START does not start another game over the kept one
    assert again["rankings"] == {} and again["rated"] and again["game"] == "pisti" and again["players"] == 4
    h = d.app.session.hand
    assert (bytes(h.deck), bytes(h.actions)) == (deck, acts)  # T-6: the same deal, the same point
    for key in ("hand", "ply", "turn", "totals", "your_hand", "legal", "pile", "pile_size", "hidden",
                "stock", "bottom", "counts", "levels"):
        assert again[key] == st[key], key
    assert card_str(h.deck[51]) == again["bottom"]
    play(d, choose(again))  # and it goes on
