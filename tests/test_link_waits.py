# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Waiting in link play. L-7 on every screen of a link game: the other
console silent, its countdown shows where the move timer does -- in the
game menu, the scores, the hand's breakdown -- not only on the table's
message line. And Host/Join waiting long: a clear message of what is
missing, A does nothing, B gives up."""

import random

import pytest

from test_app_strings import TABLES
from pisti_core import linkgame as G
from pisti_core import linkproto as P
from tools.shims import uart
from tools.shims.uart import Cable

# gc.collect() collects nothing in this module's tests (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("quick_gc")

LEVELS = ("acemi", "kalfa", "usta", "random", "greedy")


def _host_game(d):
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    d.first_frame()
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.press("A")  # Host
    d.press("A")  # the Host screen: offer its game

    def step(n=1):
        for _ in range(n):
            d.run(10)
            guest.poll(d.rig.clock.ticks_ms())
            if guest.phase == G.OFFERED:
                guest.answer(True)

    for _ in range(2000):
        step()
        if d.app.status()["screen"] == "table":
            break
    assert d.app.status()["screen"] == "table"
    return cable, guest, step


def test_L7_the_countdown_shows_on_the_leave_question_too(device):
    """B in a link game asks whether to leave it (the full game menu is not
    compiled next to the link's code on a Pico): the countdown shows there,
    and B stays at the same table."""
    d = device()
    cable, guest, step = _host_game(d)
    table = d.app.stack[-1]
    d.press("B")
    st = d.app.status()
    assert st["screen"] == "confirm" and "Leave the link game?" in st["message"], st
    cable.cut = True
    step(300)  # 3 s silent
    top = d.app.stack[-1]
    assert top.name == "confirm" and top.clock.text.startswith("?2:5"), top.clock.text
    d.press("B")  # stay
    assert d.app.stack == [table] and d.app.status()["screen"] == "table"
    cable.cut = False
    step(100)
    assert d.app.link.status(d.app.now) == "ok" and d.app.stack[-1].clock.text == ""


def test_L8_a_practice_link_game_left_from_b_is_kept_and_the_other_console_hears_it(device):
    d = device()
    cable, guest, step = _host_game(d)
    d.press("B")
    d.press("A")  # leave
    step(50)
    st = d.app.status()
    assert st["screen"] == "menu" and d.app.link is None and d.app.kept is not None, st
    assert guest.phase == G.FAILED and guest.error.key == "bye", guest.phase


def test_L7_the_countdown_shows_on_the_hands_breakdown(device):
    d = device()
    cable, guest, step = _host_game(d)
    rng = random.Random(4)
    for _ in range(30000):
        step()
        st = d.app.status()
        if st["screen"] == "hand_end":
            break
        if st["screen"] == "table" and st.get("legal") and not st.get("holding"):
            d.rig.keys.tap("A", 20)
        if guest.to_act() >= 0 and rng.random() < 0.3:
            guest.act(rng.choice(guest.match.hand.legal()))
    assert d.app.status()["screen"] == "hand_end"
    right = d.app.status()["texts"][1]
    cable.cut = True
    step(300)
    texts = d.app.status()["texts"]
    assert texts[1].startswith("?2:5"), texts  # at the title bar's right end
    cable.cut = False
    step(100)
    assert d.app.status()["texts"][1] == right


def test_host_waiting_long_says_what_is_missing_and_b_gives_up(device):
    d = device()
    d.first_frame()
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.press("A")  # Host, nothing on the cable
    d.press("A")  # the Host screen: offer its game
    assert d.app.status()["waiting"] == "link_wait"
    d.run(6000)
    st = d.app.status()
    assert st["screen"] == "link" and st["waiting"] == "link_silent", st  # L-1: nobody answered
    assert "Link play > Join" in " ".join(st["lines"]) and st["keys"] == "B give up"
    d.run(60000)
    d.press("A")  # A does nothing: it waits on
    assert d.app.status()["waiting"] == "link_silent" and d.app.link is not None
    d.press("B")  # B gives up
    d.run(100)
    st = d.app.status()
    assert st["screen"] == "menu" and d.app.link is None and st["menu"][0] != "continue"


def test_host_waiting_for_the_answer_to_its_offer_says_so(device):
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.a)
    guest = G.Lockstep(cable.b, P.GUEST, "pisti", d.rig.clock.ticks_ms(), None, LEVELS)
    d.first_frame()
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.press("A")  # Host
    d.press("A")  # the Host screen: offer its game
    for _ in range(300):
        d.run(10)
        guest.poll(d.rig.clock.ticks_ms())  # the guest hears the offer and does not answer yet
    st = d.app.status()
    assert guest.phase == G.OFFERED and st["waiting"] == "link_asked", st
    assert "join or decline" in " ".join(st["lines"])


def test_join_on_a_line_of_noise_says_it_is_no_pisti_console(device):
    d = device()
    cable = Cable(lambda: d.rig.clock.now_ms)
    uart.plug(cable.b)
    d.first_frame()
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.menu_to("link_join")
    d.press("A")
    for _ in range(60):
        cable.a.write(b"AT+GMR\r\nOK\r\n")  # another program on the other end
        d.run(100)
    st = d.app.status()
    assert st["screen"] == "confirm" and "not a pisti console" in " ".join(st["lines"]), st
    assert d.app.link is None


@pytest.mark.parametrize("lang, row", [("en", "Link play > %s"), ("tr", "Kabloyla oyun > %s")])
@pytest.mark.parametrize("role", ["link_host", "link_join"])
def test_the_wait_says_in_players_words_what_to_choose_on_the_other_console(device, lang, row, role):
    """Hosting, the other console's player chooses Link play > Join; joining,
    Link play > Host: said in the menu's own words (no README, no UART),
    waiting and still waiting with nobody on the cable."""
    d = device(PISTI_LANG=lang)
    d.first_frame()
    d.press("A")
    d.menu_to("link_play")
    d.press("A")
    d.menu_to(role)
    d.press("A")
    if role == "link_host":
        d.press("A")  # the Host screen: offer its game
    other = TABLES[lang]["link_join" if role == "link_host" else "link_host"]
    for key in ("link_wait", "link_silent"):
        if key == "link_silent":
            d.run(6000)
        st = d.app.status()
        text = " ".join(st["lines"])
        assert st["screen"] == "link" and st["waiting"] == key, st
        assert row % other in text and "README" not in text and "UART" not in text, text
    d.press("B")


def test_the_link_tables_key_help_says_b_leaves_as_b_does(device):
    """At a link table B asks whether to leave the link game (not the game
    menu): the message line says "B leave" (against bots it keeps "B menu": test_app_keyhelp)."""
    d = device()
    cable, guest, step = _host_game(d)
    for _ in range(3000):
        st = d.app.status()
        if st.get("legal") and not st.get("holding") and st["message"].startswith("\u25c0\u25b6"):
            break  # this console's turn, its key help on the message line
        step()
        if guest.to_act() >= 0:
            guest.act(guest.match.hand.legal()[0])
    assert st["message"] == "\u25c0\u25b6 choose A play B leave", st
    d.press("B")
    st = d.app.status()
    assert st["screen"] == "confirm" and "Leave the link game?" in st["message"], st
    assert st["keys"] == "A leave   B stay", st


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_L8_the_other_player_leaving_a_practice_game_offers_a_bot_or_the_end(device, lang):
    """The notice says the other player left and what A and B do (a bot
    takes their seat, or the game ends): not that the game has ended."""
    d = device(PISTI_LANG=lang)
    cable, guest, step = _host_game(d)
    guest.leave()  # its person chose Exit
    step(100)
    st = d.app.status()
    text = " ".join(st["lines"])
    assert st["screen"] == "confirm" and d.app.link is None, st
    want = {"en": ("The other player left. A bot can take their seat, or end the game.", "A bot   B end"),
            "tr": ("Diğer oyuncu çıktı. Yerine bir bot geçebilir ya da oyun biter.", "A bot   B bitir")}[lang]
    assert (text, st["keys"]) == want, st
