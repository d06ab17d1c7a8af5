# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""What a newcomer meets at the Pis Yedili table:
every effect said on the message line as it happens (an Ace, Y-9; a ten
turning the play back, Y-8; a twin, Y-10), the Draw button offered only
when drawing is legal (Y-3, Y-9), cards drawn since the person's last play
marked (a filled bottom-right corner), the 128x64 layout (no text touching
a card, a why-popup without a notch) and the hand end after the stock ran
out (Y-13): a title clear of the prompt and a header over every column.
Positions come from stacked decks and outside bots that play what they are
told, so the bots' levels cannot change them."""

import pytest

from console import Wing
from test_sim import run_sim, status_of

from pisti_core.cards import parse_card
from pisti_core.match import Match
from pisti_core.yedili import DRAW, PASS
from pisti_core.yedili_text import parse_action
from console import sit as sit_down


def stacked_deck(players, dealt, stock=()):
    """Card ids dealing ``dealt`` (R-2 names in deal order, Y-2: seven to each
    seat from the one after the dealer) with ``stock`` on top of the stock,
    then every other card in id order (with two decks a second copy is id + 52)."""
    used, deck = set(), []
    for name in list(dealt) + list(stock):
        c = parse_card(name)
        if c in used:
            c += 52
        assert c not in used, name
        used.add(c)
        deck.append(c)
    return bytes(deck + [c for c in range(52 * (2 if players > 2 else 1)) if c not in used])


class Told:
    """An outside bot: the first of its R-2 actions that is legal, else draw, else pass."""

    def __init__(self, *actions):
        self.actions = [parse_action(a) for a in actions]

    def choose(self, obs):
        legal = obs.legal()
        for a in self.actions:
            if a in legal:
                return a
        return DRAW if DRAW in legal else PASS


class Buttons:
    """The person's keys on either board (three buttons: A and C move, B is OK)."""

    def __init__(self, d, three):
        self.d = d
        self.left, self.right, self.ok = ("A", "C", "B") if three else ("LEFT", "RIGHT", "A")

    def play(self, card):
        """Play ``card`` (R-2) with the cursor keys and OK."""
        d = self.d
        st = d.status()
        want = st["your_hand"].index(card)
        for _ in range(20):
            if st["focus"] == "hand" and st["cursor"] == want:
                break
            d.press(self.right if st["focus"] != "hand" or st["cursor"] < want else self.left, after=20)
            st = d.status()
        assert st["cursor"] == want and st["focus"] == "hand", st
        d.press(self.ok, after=20)

    def button(self):
        """Move to the Draw / Pass button (left of the first card); False if none is offered."""
        d = self.d
        while d.status()["cursor"] > 0:
            d.press(self.left, after=20)
        d.press(self.left, after=20)
        return d.status()["focus"] == "action"


def seat_session(d, players, dealer, deck, bots):
    """The hand of ``deck`` at the table of ``d`` with outside bots ``bots`` (seat: Told)."""
    from pisti_app.match.session import GameSession

    d.press("B" if isinstance(d, Wing) else "A")  # past the splash, as a person would
    d.run(100)
    m = Match("yedili", players, None, dealer=dealer)
    s = GameSession(m, [None] + ["acemi"] * (players - 1))
    m.deal(deck)
    sit_down(d.app, s)
    for seat, bot in bots.items():
        d.app.bots[seat] = bot
    d.run(50)  # the table's first frame
    return m.hand


def marked(d):
    """The person's cards in view that show the new-card mark (a filled
    bottom-right corner), read from the sprites and from the panel, and the
    cards in view."""
    table = d.app.screen
    hand = d.status()["your_hand"]
    out, shown = set(), set()
    for i, spr in enumerate(table.cards):
        k = table.first + i
        if k >= len(hand):
            break
        bm = spr.bitmap
        w, h = bm.width, bm.height
        in_bitmap = bm[(h - 2) * w + w - 2] == 1 and bm[(h - 3) * w + w - 4] == 1
        on_panel = d.rig.oled.lit(spr.tile.x + w - 2, spr.tile.y + h - 2) != spr.selected
        assert in_bitmap == on_panel, hand[k]
        shown.add(hand[k])
        if in_bitmap:
            out.add(hand[k])
    return out, shown


def marks_are(d, new):
    """The marked cards in view are exactly the ``new`` ones in view."""
    got, shown = marked(d)
    return got == set(new) & shown and got


def rows_of(d):
    """The panel as seen: a list of rows of 0/1."""
    return d.rig.oled.rows(lit=True)


# seat 0 plays first (dealer 3); the opening round is 2C 3C 4C 5C (Y-3)
FOUR = stacked_deck(4, ["2C", "AC", "6C", "9C", "KH", "KS", "QH",   # the person
                        "3C", "AC", "8C", "9H", "9S", "4H", "4S",   # seat 1: Ace, then 8C
                        "4C", "TC", "5H", "5S", "6H", "6S", "8H",   # seat 2: a ten
                        "5C", "TD", "2H", "2S", "3H", "3S", "8S"],  # seat 3
                    ["KD", "KD", "QD", "QD", "2D", "9D"])  # the Aces' draws: 9D to the person
FOUR_BOTS = {1: Told("3C", "AC", "8C"), 2: Told("4C", "TC"), 3: Told("5C")}


def test_aces_and_tens_are_said_the_draw_is_offered_only_when_legal_and_new_cards_are_marked(device):
    d = device(PISTI_DELAY=100, PISTI_SEED=1)
    h = seat_session(d, 4, 3, FOUR, FOUR_BOTS)
    keys = Buttons(d, False)
    table = d.app.screen
    st = d.wait(lambda s: s.get("legal"))
    # Y-3 with a plain club in hand: no Draw button, and UP does not reach one
    assert (st["phase"], st["legal"]) == ("opening", ["2C", "6C", "9C"])
    assert st["message"] == "Opening: play a plain \u2663" and table.action.text == ""
    d.press("UP", after=20)
    assert d.status()["focus"] == "hand" and not keys.button()
    assert st["new"] == []
    keys.play("2C")
    st = d.wait(lambda s: s.get("legal") and s["phase"] == "normal")
    assert st["top"] == "5C" and "draw" in st["legal"] and table.action.text == "\u25b2Draw"  # Y-5
    keys.play("AC")
    st = d.status()
    # Y-9: the other three drew one each, said on the message line; the person plays again
    assert st["message"] == "You: A\u2663 others drew 1" and st["counts"] == [5, 7, 7, 7], st
    st = d.wait(lambda s: not s["holding"])
    assert st["phase"] == "again" and st["legal"] == ["6C", "9C"]  # no draw with a card to play
    assert st["message"] == "Play one more card" and table.action.text == ""
    d.press("UP", after=20)
    assert d.status()["focus"] == "hand"
    keys.play("6C")
    said = []
    for want in ("Bot 1: A\u2663 others drew 1", "Bot 2: 10\u2663 turn goes back"):
        st = d.wait(lambda s, w=want: s["message"] == w, limit_ms=5000)
        said.append((st["message"], st["turn"], list(st["counts"])))
    # seat 1's Ace: seats 2, 3 and the person drew (Y-9); seat 2's ten: seat 1 again (Y-8)
    assert said[0][2] == [5, 6, 8, 8] and said[1][1] == 1, said
    st = d.wait(lambda s: s.get("legal"), limit_ms=10000)
    assert st["top"] == "TC" and st["legal"] == ["9C", "draw"]
    # the card the Ace brought is marked until the person plays
    assert st["new"] == ["9D"] and marks_are(d, ["9D"]) == {"9D"}
    d.press("UP", after=20)
    assert d.status()["focus"] == "action"
    d.press("DOWN", after=20)
    keys.play("9C")
    st = d.status()
    assert st["new"] == [] and marked(d)[0] == set()
    assert h.actions[-1] == parse_card("9C")


@pytest.mark.parametrize("three", [False, True])
def test_the_opening_draw_is_offered_only_without_a_plain_club_and_drawn_cards_are_marked(device, tmp_path, three):
    # Y-3 for two players (dealer 1: the person first) with no club; the stock brings 9H, then 5C.
    deck = stacked_deck(2, ["KH", "KS", "QH", "QS", "8H", "8S", "3H",
                            "3C", "TH", "2D", "2S", "4D", "4S", "5D"], ["9H", "5C"])
    d = Wing(tmp_path, PISTI_DELAY=100, PISTI_SEED=1) if three else device(PISTI_DELAY=100, PISTI_SEED=1)
    try:
        seat_session(d, 2, 1, deck, {1: Told("3C", "TH")})
        keys = Buttons(d, three)
        table = d.app.screen
        st = d.wait(lambda s: s.get("legal"))
        assert st["phase"] == "opening" and st["legal"] == ["draw"]
        draw = "Draw" if three else "\u25b2 draw"
        assert st["message"] == "Nothing to play: %s" % draw
        for drawn in (["9H"], ["5C", "9H"]):  # (in hand order)
            assert keys.button()
            d.press(keys.ok, after=20)
            st = d.wait(lambda s: not s["holding"])
            assert st["new"] == drawn and marks_are(d, drawn), st  # the last one drawn in view
        # a plain club now: the Draw button is gone (Y-3)
        assert st["phase"] == "opening" and st["legal"] == ["5C"] and table.action_text() == ""
        assert st["message"] == "Opening: play a plain \u2663"
        assert not keys.button() and d.status()["focus"] == "hand"
        keys.play("5C")
        assert d.status()["new"] == []
        d.wait(lambda s: s.get("legal") and s["top"] == "3C")
        keys.play("3H")
        # with two players a ten changes nothing (Y-8), and nothing is said about it
        st = d.wait(lambda s: s["message"].startswith("Bot: 10"), limit_ms=5000)
        assert st["message"] == "Bot: 10\u2665"
        st = d.wait(lambda s: s.get("legal"))
        assert st["top"] == "TH" and st["turn"] == 0
    finally:
        if three:
            d.close()


def test_the_128x64_table_text_touches_no_card_and_the_why_popup_has_clean_edges(device):
    d = device(PISTI_DELAY=100, PISTI_SEED=1)
    seat_session(d, 4, 3, FOUR, FOUR_BOTS)
    d.wait(lambda s: s.get("legal"))
    table = d.app.screen
    assert table.msg.text == "Opening: play a plain \u2663"  # p, y, g: descenders in the last cell row
    rows = rows_of(d)
    top = table.top.tile
    assert (top.y, top.y + table.top.bitmap.height - 1) == (10, 34)
    # descenders, a dark row, the second card's top border (the first is under the cursor)
    assert any(rows[42]) and not any(rows[43]) and all(rows[44][21:33])
    assert not any(rows[35][top.x:top.x + 19]) and any(rows[34][top.x:top.x + 19])  # under the top card
    keys = Buttons(d, False)
    keys.play("KH")  # refused in the opening: the why popup (Y-3)
    st = d.status()
    assert st["toast"].startswith("Opening round:") and st["ply"] == 0
    rows = rows_of(d)
    for y in range(10, 43):  # a white panel from under the top bar to over the message line
        assert rows[y][0] and rows[y][127], y
    assert all(rows[42]) and all(rows[10]) and not any(rows[43]), "the popup's bottom edge"


@pytest.mark.parametrize("lang, title, heads", [
    ("en", "Hand 1: Stock empty", ["Cards", "Mu", "Hand", "Total"]),
    ("tr", "El 1: Deste bitti", ["Kart", "Mu", "El", "Top."]),
])
def test_the_hand_end_after_the_stock_ran_out_fits_its_title_and_heads_every_column(tmp_path, lang, title, heads):
    # A newcomer's key script: play the card under the cursor, else draw and pass (Y-13).
    keys = ",".join(["A,UP,A,DOWN"] * 34 + ["A"])
    shot = str(tmp_path / "he.png")
    code, out, err = run_sim("--headless", "--seed", "11", "--start", "yedili:2:acemi", "--lang", lang,
                             "--keys", keys, "--shot", shot, "--status")
    assert code == 0, err
    st = status_of(out)
    assert st["screen"] == "hand_end" and st["totals"] == [186, 14], st
    texts = st["texts"]
    assert texts[:6] == [title, "A \u25b6"] + heads
    you = texts.index("Sen" if lang == "tr" else "You")
    assert texts[you:you + 5] == [texts[you], "186", "-", "186", "186"]  # cards, Muamele, hand, match
    from PIL import Image

    image = Image.open(shot).convert("L")
    lit = [[image.getpixel((4 * x + 1, 4 * y + 1)) > 128 for x in range(128)] for y in range(24)]
    # the title bar (white, black text): a clear gap between the title and the prompt
    end, start = 1 + 5 * len(title), 127 - 5 * 3
    assert all(lit[y][x] for y in range(8) for x in range(end, start)), "the prompt touches the title"
    # every header ends in the character cell where its column's numbers end (the
    # heads at y 8, the person's row at y 16), and the cell after it is empty in both
    for x1 in (49, 69, 94, 124):
        for y0 in (8, 16):
            assert any(lit[y][x] for y in range(y0, y0 + 8) for x in range(x1 - 4, x1 + 1)), (x1, y0)
            assert not any(lit[y][x] for y in range(y0, y0 + 8) for x in range(x1 + 1, min(x1 + 6, 128))), (x1, y0)
