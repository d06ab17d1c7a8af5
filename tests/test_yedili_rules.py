# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Pis Yedili rules Y-1 .. Y-16 (RULES.md), one stacked deck per case.

Every deal here is built by :func:`deal`: the hands wanted per seat, the top
of the stock in order, the rest filled in a fixed order (non-club plain cards
first, then non-club specials, then clubs), so each test knows exactly which
card every draw brings. Interpretations of the rule book are written in the
docstring of the test that relies on them.
"""

import json
import os
import random
import subprocess

import pytest

from pisti_core import yedili as Y
from pisti_core.cards import RANKS, SUITS, IllegalActionError, InvalidDeckError, card_str, decks
from pisti_core.record import parse_deck
from pisti_core.match import Match
from pisti_core.yedili import (AGAIN, DRAW, DRAWN, MUAMELE, NORMAL, OPENING, OVER, PASS, PICK,
                               YediliHand)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")

# Y-14 written out again on purpose (not imported from the engine).
VALUES = {"A": 11, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "T": 10, "J": 25, "Q": 10, "K": 10}


# -- stacked decks ------------------------------------------------------------
def _split(x):
    return x.split() if isinstance(x, str) else list(x)


def _fill_key(code):
    r, s = code[0], code[1]
    return (s == "C", r in "A7TJ", RANKS.index(r), SUITS.index(s))


def deck_codes(players, dealer, hands, stock=""):
    """The deck (codes, top first) dealing ``hands`` {seat: codes} (Y-2) with
    ``stock`` on top of the stock; ``-`` in ``stock`` leaves a place to fill."""
    decks = 1 if players == 2 else 2
    left = {}
    for r in RANKS:
        for s in SUITS:
            left[r + s] = decks
    out = [None] * (52 * decks)

    def put(i, code):
        assert left.get(code, 0) > 0, "card %s used too often" % code
        left[code] -= 1
        out[i] = code

    for k in range(players):
        cs = _split(hands.get((dealer + 1 + k) % players, ""))
        assert len(cs) <= 7
        for j, code in enumerate(cs):
            put(7 * k + j, code)
    for j, code in enumerate(_split(stock)):
        if code != "-":
            put(7 * players + j, code)
    rest = []
    for code in sorted(left, key=_fill_key):
        rest += [code] * left[code]
    for i in range(len(out)):
        if out[i] is None:
            out[i] = rest.pop(0)
    return out


def deal(players, dealer, hands, stock=""):
    """A YediliHand dealt from a stacked deck (see :func:`deck_codes`)."""
    codes = deck_codes(players, dealer, hands, stock)
    return YediliHand(players, dealer, parse_deck(codes, 1 if players == 2 else 2))


def run(st, moves):
    """Apply R-2 actions, checked."""
    for m in _split(moves):
        st.apply(st.parse_action(m))


def legal(st):
    """The legal actions in R-2 notation, sorted as strings (R-3)."""
    return sorted(st.action_str(a) for a in st.legal())


def held(st, seat):
    return [card_str(c) for c in st.hand(seat)]


def value(codes):
    return sum(VALUES[c[0]] for c in codes)


def burn(st, k):
    """``k`` normal turns of "draw, pass": each takes one stock card."""
    for _ in range(k):
        run(st, "draw pass")


def snapshot(st):
    """Everything the engine holds, to compare before and after."""
    return (bytes(st.actions), [st.hand(s) for s in range(st.players)],
            bytes(st.stockbuf[st.pos:]), bytes(st.discard[:st.dn]), st.phase, st.turn,
            st.pending, st.named, st.chain, st.opening, st.winner, st.mult, st.picks,
            [bytes(m) for m in st.muamele], st.ply, st.over, st.legal())


# Opened hands: every seat opens with a fixed plain club (Y-3) and the hands
# given are what is held after the opening; seat 0 is then to move on 8C.
OPENING_CLUBS = {2: ("5C", "8C"), 3: ("5C", "6C", "8C"), 4: ("5C", "6C", "9C", "8C")}


def opened(players, hands=None, stock=""):
    """Dealer ``players - 1``; the opening round already played, 8C on top."""
    clubs = OPENING_CLUBS[players]
    full = {}
    for s in range(players):
        full[s] = clubs[s] + " " + (hands or {}).get(s, "")
    st = deal(players, players - 1, full, stock)
    run(st, " ".join(clubs))
    assert st.turn == 0 and st.phase == NORMAL and card_str(st.top) == "8C"
    return st


# -- Y-1 players and decks ------------------------------------------------------
def test_Y1_one_deck_for_two_players_two_decks_for_three_and_four():
    assert [decks("yedili", n) for n in (2, 3, 4)] == [1, 2, 2]
    YediliHand(2, 0, range(52))
    for n in (3, 4):
        YediliHand(n, 0, range(104))
        with pytest.raises(InvalidDeckError):
            YediliHand(n, 0, range(52))
    with pytest.raises(InvalidDeckError):
        YediliHand(2, 0, range(104))
    with pytest.raises(InvalidDeckError):
        YediliHand(2, 0, [0] + list(range(1, 51)) + [1])  # a duplicate
    for n in (0, 1, 5):
        with pytest.raises(ValueError):
            YediliHand(n, 0, range(104))
    with pytest.raises(ValueError):
        YediliHand(3, 3, range(104))
    for junk in ([300] * 52, "not a deck", [-1] * 52, None):
        with pytest.raises(InvalidDeckError):
            YediliHand(2, 0, junk)
    # one deck: every card once, so no identical twins with two players (Y-10)
    st = YediliHand(2, 0, range(52))
    assert sorted(c % 52 for c in st.deck) == list(range(52))


def test_Y1_two_decks_deal_identical_twins_as_the_same_card():
    """With two decks the two copies of a card are the same card for play:
    both 5Cs in one hand are one legal action, observations show identities."""
    st = deal(3, 2, {0: "5C 5C KD KD 2H 3H 4H"})
    assert sorted(st.hand(0)) == sorted([16, 16 + 52, 49, 49 + 52, 6, 10, 14])
    assert legal(st) == ["5C"]
    obs = st.observe(0)
    assert list(obs.hand) == sorted([16, 16, 49, 49, 6, 10, 14])
    run(st, "5C")
    assert held(st, 0).count("5C") == 1


# -- Y-2 the deal -----------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_Y2_seven_each_in_blocks_from_the_seat_after_the_dealer(players):
    size = 52 * decks("yedili", players)
    deck = list(range(size))
    random.Random(players).shuffle(deck)
    for dealer in range(players):
        st = YediliHand(players, dealer, deck)
        for k in range(players):
            seat = (dealer + 1 + k) % players
            assert list(st.hand(seat)) == deck[7 * k:7 * k + 7]
        assert st.stock == size - 7 * players
        assert st.top == -1 and st.dn == 0  # nothing turned up
        assert st.turn == (dealer + 1) % players and st.phase == OPENING


def test_Y2_the_stock_is_drawn_from_the_top():
    """Seat 0 (after dealer 2) has no plain club and draws deck[21], deck[22]."""
    st = deal(3, 2, {0: "AC 7C TC JC 2D 3D 4D"}, "KH QS 9C")
    run(st, "draw")
    assert held(st, 0)[-1] == "KH" and st.stock == 104 - 21 - 1
    run(st, "draw draw")
    assert held(st, 0)[-2:] == ["QS", "9C"]


# -- Y-3 the opening round -----------------------------------------------------------
def test_Y3_only_plain_clubs_in_the_opening_round():
    st = deal(3, 2, {0: "AC 7C TC JC 5C 5D 2C", 1: "6C 5H KD KS QH 9D 8S"})
    assert legal(st) == ["2C", "5C"]
    for bad in ("AC", "7C", "TC", "JC:C", "5D", "draw", "pass"):
        with pytest.raises(IllegalActionError):
            st.apply(st.parse_action(bad))
    run(st, "5C")
    # seat 1 holds 5H (the rank of the top) but only a plain club may go
    assert st.phase == OPENING and st.turn == 1 and legal(st) == ["6C"]


def test_Y3_every_plain_club_rank_is_playable_in_the_opening():
    st = deal(2, 1, {0: "2C 3C 4C 5C 6C 8C 9C"})
    assert legal(st) == ["2C", "3C", "4C", "5C", "6C", "8C", "9C"]
    st = deal(2, 1, {0: "QC KC AC 7C TC JC 2H"})
    assert legal(st) == ["KC", "QC"]


def test_Y3_no_plain_club_draws_one_card_at_a_time_until_holding_one():
    st = deal(3, 2, {0: "AC 7C TC JC 5D KD 9H"}, "JC 7D 4C 2C")
    for got in ("JC", "7D"):
        assert legal(st) == ["draw"]
        run(st, "draw")
        assert held(st, 0)[-1] == got and st.phase == OPENING and st.turn == 0
    run(st, "draw")
    assert held(st, 0)[-1] == "4C"
    assert legal(st) == ["4C"]  # no more drawing, and never a pass
    run(st, "4C")
    assert st.turn == 1 and st.phase == OPENING and st.stock == 104 - 21 - 3


def test_Y3_the_opening_round_is_one_turn_each_from_the_seat_after_the_dealer():
    st = deal(4, 1, {2: "2C", 3: "3C", 0: "4C", 1: "6C"})
    for seat, club in ((2, "2C"), (3, "3C"), (0, "4C")):
        assert st.turn == seat and st.phase == OPENING
        run(st, club)
    assert st.turn == 1 and st.phase == OPENING  # the dealer plays last
    run(st, "6C")
    assert st.turn == 2 and st.phase == NORMAL and st.top == 5 * 4  # 6C


def test_Y3_Y10_twins_have_no_effect_in_the_opening_round():
    st = deal(3, 2, {0: "5C 2H", 1: "5C 3H", 2: "9C 4H"})
    run(st, "5C 5C")  # the second copy onto the first: no play again
    assert st.turn == 2 and st.phase == OPENING
    run(st, "9C")
    assert st.turn == 0 and st.phase == NORMAL


def test_Y10_twin_on_the_last_opening_card_counts_after_the_opening():
    """Interpretation: Y-10 says "after the opening round"; the first normal
    turn is after it, so a twin onto the dealer's opening club counts."""
    st = deal(3, 2, {0: "5C 8C 2H 3H 4H 5H 6H", 1: "6C", 2: "8C"})
    run(st, "5C 6C 8C")
    run(st, "8C")
    assert st.turn == 0 and st.phase == AGAIN


# -- Y-4 / Y-7 matching, Jacks and the named suit ------------------------------------
def test_Y4_a_card_matches_by_suit_or_rank_and_a_jack_on_anything():
    st = opened(3, {0: "8D 2C JH 5H QS 9S"})
    assert legal(st) == ["2C", "8D", "JH:C", "JH:D", "JH:H", "JH:S", "draw"]
    for bad in ("5H", "QS", "9S", "pass", "JH"):
        with pytest.raises(IllegalActionError):
            st.apply(st.parse_action(bad))


def test_Y4_Y7_after_a_jack_the_named_suit_or_a_jack():
    st = opened(3, {0: "JH 2D 3D 4D 5D 6D", 1: "2S 3H 9H QS JD JH"})
    run(st, "JH:S")
    assert st.named == 3 and st.turn == 1
    # 3H and 9H have the Jack's own suit, but spades were named
    assert legal(st) == ["2S", "JD:C", "JD:D", "JD:H", "JD:S",
                         "JH:C", "JH:D", "JH:H", "JH:S", "QS", "draw"]
    run(st, "JH:H")  # a Jack on a Jack, naming a new suit
    assert st.named == 2 and st.turn == 2
    st = opened(3, {0: "JH 2D 3D 4D 5D 6D", 1: "2S 3H 4S 5S 6S 9S"})
    run(st, "JH:H")  # naming the Jack's own suit
    assert legal(st) == ["3H", "draw"]
    run(st, "3H")
    assert st.named == -1 and st.turn == 2


def test_Y7_a_named_suit_lasts_until_a_card_is_played():
    st = opened(3, {0: "JH", 1: "2S 3S 4S 5S 6S 9S", 2: "4D 4S 2H 3H 5H 6H"}, "KS")
    run(st, "JH:D")
    run(st, "draw")  # seat 1 holds no diamond and draws KS
    assert legal(st) == ["pass"]
    run(st, "pass")
    assert st.turn == 2 and st.named == 1
    assert legal(st) == ["4D", "draw"]


# -- Y-5 the normal turn ---------------------------------------------------------------
def test_Y5_drawing_is_allowed_with_a_playable_card_and_pass_only_after_drawing():
    st = opened(3, {0: "2C 3H 4H 5H 6H 9H"}, "8H 9C")
    assert legal(st) == ["2C", "draw"]
    with pytest.raises(IllegalActionError):
        st.apply(PASS)
    run(st, "draw")  # 8H, which matches the 8C by rank
    assert st.phase == DRAWN and st.turn == 0
    assert legal(st) == ["2C", "8H", "pass"]  # any matching card from the hand
    with pytest.raises(IllegalActionError):
        st.apply(DRAW)  # one draw per turn
    run(st, "2C")
    assert st.turn == 1 and st.phase == NORMAL and len(st.hand(0)) == 6


def test_Y5_pass_after_drawing_ends_the_turn_with_the_top_unchanged():
    st = opened(3, {0: "2H 3H 4H 5H 6H 9H"}, "KH")
    run(st, "draw")
    assert legal(st) == ["pass"]
    run(st, "pass")
    assert st.turn == 1 and st.phase == NORMAL and card_str(st.top) == "8C"
    assert len(st.hand(0)) == 7


# -- Y-6 sevens ---------------------------------------------------------------------------
def test_Y6_after_a_seven_the_next_player_plays_a_seven_or_draws_three():
    st = opened(3, {0: "7C", 1: "7H 2C JD 8C 3S 4S"}, "KH QH 9H 2D")
    run(st, "7C")
    assert st.pending == 3 and st.turn == 1
    # any seven answers; no club, no 8C, and no Jack (Y-6, Y-7)
    assert legal(st) == ["7H", "draw"]
    with pytest.raises(IllegalActionError):
        st.apply(st.parse_action("JD:C"))
    run(st, "draw")  # the whole pending number
    assert held(st, 1)[-3:] == ["KH", "QH", "9H"] and st.pending == 0
    # then a normal turn against the 7 on top: match, Jack, or draw (no pass)
    assert st.turn == 1 and st.phase == NORMAL
    assert legal(st) == ["2C", "7H", "8C", "JD:C", "JD:D", "JD:H", "JD:S", "draw"]
    run(st, "draw")
    assert held(st, 1)[-1] == "2D" and st.phase == DRAWN and "pass" in legal(st)
    run(st, "pass")
    assert st.turn == 2


def test_Y6_sevens_stack_and_the_player_who_does_not_answer_takes_all():
    st = opened(3, {0: "7C 2H", 1: "7H 2S", 2: "7S 2D"})
    run(st, "7C 7H 7S")
    assert st.pending == 9 and st.turn == 0
    assert legal(st) == ["draw"]
    before, size = st.stock, len(st.hand(0))
    run(st, "draw")
    assert len(st.hand(0)) == size + 9 and st.stock == before - 9 and st.pending == 0
    assert st.turn == 0 and st.phase == NORMAL and card_str(st.top) == "7S"


def test_Y6_a_seven_after_the_take_all_sets_a_new_draw():
    st = opened(3, {0: "7C", 1: "7H"})
    run(st, "7C draw 7H")
    assert st.pending == 3 and st.turn == 2


# -- Y-8 tens --------------------------------------------------------------------------------
def test_Y8_three_players_ten_gives_the_previous_seat_one_turn_then_returns():
    st = opened(3, {0: "TC 2H", 1: "3H", 2: "2C 4H"})
    run(st, "TC")
    assert st.turn == 2 and st.chain == 0
    run(st, "2C")
    assert st.turn == 1 and st.chain == -1
    run(st, "draw pass")
    assert st.turn == 2
    run(st, "draw pass")
    assert st.turn == 0


def test_Y8_four_players_chain_of_tens_returns_after_the_first_ten_player():
    st = opened(4, {0: "TC", 1: "3H", 2: "TD 4D", 3: "TH"})
    run(st, "TC")
    assert st.turn == 3 and st.chain == 0
    run(st, "TH")
    assert st.turn == 2 and st.chain == 0  # one seat further back
    run(st, "draw pass")
    assert st.turn == 1 and st.chain == -1
    run(st, "draw pass")
    assert st.turn == 2  # then the normal direction
    st = opened(4, {0: "TC", 2: "4H", 3: "TH"})
    run(st, "TC TH 4H")
    assert st.turn == 1 and st.chain == -1


def test_Y8_a_chain_member_who_draws_and_passes_ends_the_chain():
    st = opened(4, {0: "TC", 3: "2H"}, "3H")
    run(st, "TC draw pass")
    assert st.turn == 1 and st.chain == -1


def test_Y8_a_chain_member_who_draws_a_ten_may_go_on_with_it():
    st = opened(4, {0: "TC", 2: "2H", 3: "2S"}, "TS 3H")
    run(st, "TC draw TS")
    assert st.turn == 2 and st.chain == 0
    run(st, "draw pass")
    assert st.turn == 1


def test_Y8_the_seat_that_ends_a_chain_may_move_twice_in_a_row():
    """Decision taken to the letter: 0 T, 3 T, 2 T, then seat 1 plays a
    non-ten; the turn goes to "the seat after the player who played the first
    ten" (seat 0), which is seat 1 again."""
    st = opened(4, {0: "TC", 1: "TS 9D 2D", 2: "TD", 3: "TH"})
    run(st, "TC TH TD")
    assert st.turn == 1 and st.chain == 0
    run(st, "9D")
    assert st.turn == 1 and st.chain == -1 and st.phase == NORMAL
    run(st, "2D")
    assert st.turn == 2


def test_Y8_Y6_three_players_the_seat_ending_a_chain_with_a_seven_owes_its_draw():
    """Decision taken to the letter, with three players: 0 T, 2 T, then seat
    1 ends the chain with a 7; the turn goes to the seat after seat 0, which
    is seat 1 itself, so seat 1 must answer its own 7 (a doubt for the rule
    book: it may have meant the seat after the chain's last player)."""
    st = opened(3, {0: "TC", 1: "7D 7S 2H", 2: "TD"})
    run(st, "TC TD 7D")
    assert st.turn == 1 and st.pending == 3 and legal(st) == ["7S", "draw"]


def test_Y8_a_chain_that_comes_back_round_returns_after_its_first_ten():
    st = opened(3, {0: "TC TS 2H", 1: "TH 3S", 2: "TD 4S 4D"})
    run(st, "TC TD")
    assert st.turn == 1
    run(st, "TH")
    assert st.turn == 0 and st.chain == 0  # round to the first ten player
    run(st, "TS")
    assert st.turn == 2 and st.chain == 0  # and on, still from seat 0
    run(st, "4S")
    assert st.turn == 1 and st.chain == -1


def test_Y8_with_two_players_a_ten_changes_nothing():
    st = opened(2, {0: "TC 2H", 1: "TH 3H"})
    run(st, "TC")
    assert st.turn == 1 and st.chain == -1
    run(st, "TH")
    assert st.turn == 0 and st.chain == -1


def test_Y8_Y6_a_seven_that_ends_a_chain_is_for_the_seat_after_the_first_ten():
    """Interpretation: the 7 does not end with a ten, so the turn (and the
    draw of Y-6, owed by "the next player") goes to the seat after seat 0."""
    st = opened(4, {0: "TC", 1: "2H 3H 4H 5H 6H 9H", 3: "7C"})
    run(st, "TC 7C")
    assert st.turn == 1 and st.pending == 3 and legal(st) == ["draw"]


# -- Y-9 Aces ----------------------------------------------------------------------------------
def test_Y9_every_other_player_draws_one_in_play_order_then_the_ace_plays_again():
    st = opened(4, {0: "AC 2C 4H 5H 6H 9H"}, "KH QS 3D 4D")
    sizes = [len(st.hand(s)) for s in range(4)]
    run(st, "AC")
    assert [held(st, s)[-1] for s in (1, 2, 3)] == ["KH", "QS", "3D"]
    assert [len(st.hand(s)) for s in range(4)] == [sizes[0] - 1] + [x + 1 for x in sizes[1:]]
    assert st.turn == 0 and st.phase == AGAIN and st.winner == -1
    assert legal(st) == ["2C"]  # a match: no draw, no pass
    run(st, "2C")
    assert st.turn == 1 and st.phase == NORMAL


def test_Y9_with_no_matching_card_the_ace_player_draws_then_plays_or_passes():
    st = opened(3, {0: "AC 2H 3H 4H 5H 6H"}, "KH QS 4C 9D")
    run(st, "AC")
    assert legal(st) == ["draw"]
    run(st, "draw")  # 4C: it matches the Ace
    assert st.phase == DRAWN and legal(st) == ["4C", "pass"]
    run(st, "4C")
    assert st.turn == 1
    st = opened(3, {0: "AC 2H 3H 4H 5H 6H"}, "KH QS 9D")
    run(st, "AC draw")
    assert legal(st) == ["pass"]
    run(st, "pass")
    assert st.turn == 1 and card_str(st.top) == "AC"


def test_Y9_a_jack_is_a_matching_card_for_the_play_again():
    """Interpretation: "a matching card" is one Y-4 allows, so a Jack counts
    and drawing is not offered while a Jack is held."""
    st = opened(3, {0: "AC JD 2H 3H 4H 5H"})
    run(st, "AC")
    assert legal(st) == ["JD:C", "JD:D", "JD:H", "JD:S"]


def test_Y9_two_players_the_other_draws_one():
    st = opened(2, {0: "AC 2C"}, "KH")
    run(st, "AC")
    assert held(st, 1)[-1] == "KH" and len(st.hand(1)) == 7
    assert st.turn == 0 and st.phase == AGAIN


def _down_to_an_ace():
    # 2 players: seat 0 plays out five cards and keeps the Ace for last.
    st = opened(2, {0: "6C 6D 2D 3D 4D AD", 1: "2S 3S 4S 5S 6S 8S"}, "KH QH 9H 8H 4H 5H 9D")
    run(st, "6C draw pass 6D draw pass 2D draw pass 3D draw pass 4D draw pass")
    return st


def test_Y9_Y12_nobody_goes_out_on_an_ace():
    st = _down_to_an_ace()
    run(st, "AD")
    assert st.hand(0) == b"" and st.winner == -1 and not st.over
    assert st.turn == 0 and st.phase == AGAIN and legal(st) == ["draw"]
    run(st, "draw")  # 9D matches the Ace: play it and go out
    assert legal(st) == ["9D", "pass"]
    run(st, "9D")
    assert st.winner == 0 and st.mult == 1 and st.over
    st = _down_to_an_ace()
    run(st, "AD draw pass")  # or keep it: the hand goes on
    assert st.winner == -1 and st.turn == 1 and len(st.hand(0)) == 1


# -- Y-10 twins ------------------------------------------------------------------------------------
def test_Y10_a_plain_card_onto_its_identical_twin_plays_again():
    st = opened(3, {0: "8D", 1: "8D 2D 3H 4H 5H 6H"})
    run(st, "8D")
    assert st.turn == 1 and st.phase == NORMAL
    sizes = [len(st.hand(s)) for s in range(3)]
    run(st, "8D")
    assert st.turn == 1 and st.phase == AGAIN
    assert [len(st.hand(s)) for s in range(3)] == [sizes[0], sizes[1] - 1, sizes[2]]  # no draws
    assert legal(st) == ["2D"]
    run(st, "2D")
    assert st.turn == 2 and st.phase == NORMAL


def test_Y10_twin_play_again_draws_only_without_a_match_then_play_or_pass():
    st = opened(3, {0: "QC", 1: "QC 2H 3H 4H 5H 6H"}, "KH")
    run(st, "QC QC")
    assert st.phase == AGAIN and legal(st) == ["draw"]
    run(st, "draw")
    assert st.phase == DRAWN and legal(st) == ["pass"]
    run(st, "pass")
    assert st.turn == 2


@pytest.mark.parametrize("rank", list("2345689QK"))
def test_Y10_every_plain_rank_makes_a_twin(rank):
    code = rank + "H"
    st = opened(4, {0: "JS", 2: code, 3: code})
    run(st, "JS:H draw pass " + code)  # seat 2 puts the first copy
    assert st.turn == 3 and st.phase == NORMAL
    run(st, code)
    assert st.turn == 3 and st.phase == AGAIN


def test_Y10_same_rank_other_suit_is_no_twin_and_specials_keep_their_own_effect():
    st = opened(3, {0: "8H", 1: "8D"})
    run(st, "8H 8D")
    assert st.turn == 2 and st.phase == NORMAL
    # identical Aces: one Ace effect each (the others draw one), nothing more
    st = opened(3, {0: "AC 2H 3H 4H 5H 6H", 1: "AC 3S 4S 5S 6S 9S"}, "KH QH 9H")
    run(st, "AC draw pass")
    assert st.turn == 1
    sizes = [len(st.hand(s)) for s in range(3)]
    run(st, "AC")
    assert [len(st.hand(s)) for s in range(3)] == [sizes[0] + 1, sizes[1] - 1, sizes[2] + 1]
    assert st.phase == AGAIN and legal(st) == ["draw"]
    # identical sevens: the draw stacks, the turn passes
    st = opened(3, {0: "7C", 1: "7C"})
    run(st, "7C 7C")
    assert st.turn == 2 and st.pending == 6
    # identical Jacks: the turn passes with the new suit
    st = opened(3, {0: "JC", 1: "JC"})
    run(st, "JC:H JC:S")
    assert st.turn == 2 and st.named == 3
    # identical tens: the chain goes on (Y-8)
    st = opened(3, {0: "TC", 2: "TC"})
    run(st, "TC TC")
    assert st.turn == 1 and st.chain == 0


def test_Y10_Y12_nobody_goes_out_on_a_twin():
    st = opened(3, {0: "9C 9D 2D 3D 4D KD", 2: "KD"}, "2H 3H 4H 5H 6H 8H 9H")
    for c in ("9C", "9D", "2D", "3D", "4D"):
        run(st, c + " draw pass")
        run(st, "KD" if c == "4D" else "draw pass")
    assert held(st, 0) == ["KD"] and card_str(st.top) == "KD" and st.turn == 0
    run(st, "KD")
    assert st.hand(0) == b"" and st.winner == -1 and st.phase == AGAIN
    assert legal(st) == ["draw"]


# -- Y-11 effect chains ------------------------------------------------------------------------
def test_Y11_ace_then_ace_every_other_player_draws_twice():
    st = opened(3, {0: "AC AH 2H 3S 4S 5S"}, "KS QS 9S 8S")
    run(st, "AC AH")
    assert held(st, 1)[-2:] == ["KS", "9S"] and held(st, 2)[-2:] == ["QS", "8S"]
    assert st.turn == 0 and st.phase == AGAIN and legal(st) == ["2H"]


def test_Y11_ace_then_seven_sets_a_draw_for_the_next_player():
    st = opened(3, {0: "AC 7C", 1: "3H"})
    run(st, "AC 7C")
    assert st.turn == 1 and st.pending == 3


def test_Y11_twin_then_ace_then_a_plain_card():
    st = opened(3, {0: "8D", 1: "8D AD 2D 3H 4H 5H"}, "KS QS")
    run(st, "8D 8D AD")
    assert held(st, 2)[-1] == "KS" and held(st, 0)[-1] == "QS"  # seat 2 first
    assert st.turn == 1 and st.phase == AGAIN
    run(st, "2D")
    assert st.turn == 2


def test_Y11_twin_then_ace_then_seven():
    st = opened(3, {0: "8D", 1: "8D AD 7D 3H"})
    run(st, "8D 8D AD 7D")
    assert st.turn == 2 and st.pending == 3 and st.phase == NORMAL


def test_Y11_ace_then_ten_starts_a_chain_and_ace_then_jack_names_a_suit():
    st = opened(3, {0: "AC TC 2H", 2: "2C"})
    run(st, "AC TC")
    assert st.turn == 2 and st.chain == 0
    st = opened(3, {0: "AC JS 2H"})
    run(st, "AC JS:D")
    assert st.turn == 1 and st.named == 1


# -- quick wins: one seat plays out its hand, the others draw and pass ----------------
WINNER_HAND = "5C 9C 9D 2D 3D 4D"


def quick_win(players, dealer, winner, last, others, stock=""):
    """(deck codes, moves) of a hand that ``winner`` goes out of with ``last``.

    The winner holds 5C 9C 9D 2D 3D 4D and ``last``; every other seat opens
    with its own plain club (6C, 8C, QC by seat) and holds ``others[seat]``
    (six cards); after the opening it draws and passes on every turn, so its
    draws take the stock in turn order."""
    clubs = iter(("6C", "8C", "QC"))
    hands, club = {}, {}
    for s in range(players):
        if s == winner:
            hands[s] = WINNER_HAND + " " + last
            club[s] = "5C"
        else:
            club[s] = next(clubs)
            hands[s] = club[s] + " " + others.get(s, "")
    moves = [club[(dealer + 1 + k) % players] for k in range(players)]
    plays = WINNER_HAND.split()[1:] + [last + ":D" if last[0] == "J" else last]
    t = (dealer + 1) % players
    while plays:
        moves += [plays.pop(0)] if t == winner else ["draw", "pass"]
        t = (t + 1) % players
    return deck_codes(players, dealer, hands, stock), moves


def won(players, dealer, winner, last, others, stock=""):
    codes, moves = quick_win(players, dealer, winner, last, others, stock)
    st = YediliHand(players, dealer, parse_deck(codes, decks("yedili", players)))
    run(st, moves)
    return st


# Two players, seat 0 goes out; seat 1 keeps 81 points and draws 20 more.
LOSER = {1: "JS JH QD KH 9S 2S"}
LOSER_DRAWS = "2H 3S 4H 5S 6H"


# -- Y-12 going out, Y-14 penalties ------------------------------------------------------
def test_Y12_Y14_going_out_on_a_plain_card():
    st = won(2, 1, 0, "8D", LOSER, LOSER_DRAWS)
    assert st.over and st.phase == OVER and st.turn == -1
    assert held(st, 1) == "JS JH QD KH 9S 2S".split() + LOSER_DRAWS.split()
    assert st.result() == {"winner": 0, "multiplier": 1, "penalties": [0, 101]}


def test_Y12_Y14_going_out_on_a_jack_doubles_the_penalties():
    st = won(2, 1, 0, "JD", LOSER, LOSER_DRAWS)
    assert st.result() == {"winner": 0, "multiplier": 2, "penalties": [0, 202]}


def test_Y12_Y14_going_out_on_a_seven_triples_and_its_draw_is_not_carried_out():
    st = won(2, 1, 0, "7D", LOSER, LOSER_DRAWS)
    assert st.result() == {"winner": 0, "multiplier": 3, "penalties": [0, 303]}
    assert st.pending == 0 and len(st.hand(1)) == 11 and st.stock == 52 - 14 - 5


def test_Y12_going_out_on_a_ten_in_a_chain_wins():
    st = won(3, 2, 0, "TD", {})
    assert st.winner == 0 and st.mult == 1 and st.over


def test_Y12_a_hand_with_cards_left_does_not_win_and_the_winner_scores_zero():
    st = won(4, 0, 2, "KD", {})
    assert st.winner == 2 and st.penalties()[2] == 0
    for s in (0, 1, 3):
        assert st.penalties()[s] == value(held(st, s)) > 0


def test_Y14_penalty_values_A11_J25_Q_K10_and_face_values():
    st = won(2, 1, 0, "8D", {1: "AH JS QD KH TS 9S"}, LOSER_DRAWS)
    assert st.penalties() == [0, 11 + 25 + 10 + 10 + 10 + 9 + 20]
    st = won(3, 2, 1, "8D", {0: "2H 3H 4H 5H 6H 8H", 2: "AS AS JD JD KS QS"})
    draws = held(st, 0)[6:]
    assert st.penalties() == [2 + 3 + 4 + 5 + 6 + 8 + value(draws), 0,
                              11 * 2 + 25 * 2 + 10 * 2 + value(held(st, 2)[6:])]


# -- Y-13 the stock runs out ---------------------------------------------------------------
def test_Y13_an_opening_draw_that_takes_the_last_card_ends_the_hand():
    """Four players: seats 0-2 hold all 18 plain clubs, so the dealer draws
    the whole stock in the opening round."""
    st = deal(4, 3, {0: "2C 3C 4C 5C 6C 8C AH", 1: "9C QC KC 2C 3C 4C AS",
                     2: "5C 6C 8C 9C QC KC AD"})
    run(st, "2C 9C 5C")
    for _ in range(75):
        run(st, "draw")
    assert st.stock == 1 and not st.over and legal(st) == ["draw"]
    run(st, "draw")
    assert st.stock == 0 and st.over and st.phase == OVER and st.turn == -1
    assert len(st.hand(3)) == 7 + 76  # the drawer keeps the cards drawn
    assert st.result() == {"winner": -1, "multiplier": 1,
                           "penalties": [value(held(st, s)) for s in range(4)]}
    assert legal(st) == []


def test_Y13_a_normal_draw_that_takes_the_last_card_ends_the_hand():
    st = opened(2)
    burn(st, 37)
    assert st.stock == 1 and not st.over and st.turn == 1
    size = len(st.hand(1))
    run(st, "draw")
    assert st.over and st.winner == -1 and len(st.hand(1)) == size + 1
    with pytest.raises(IllegalActionError):
        st.apply(PASS)


def test_Y13_a_pending_draw_from_a_smaller_stock_takes_what_is_there():
    st = opened(2, {0: "7C"})
    burn(st, 36)
    assert st.stock == 2 and st.turn == 0
    size = len(st.hand(1))
    run(st, "7C draw")
    assert st.over and st.winner == -1 and len(st.hand(1)) == size + 2 and st.stock == 0
    assert st.pending == 0 and st.mult == 1


def test_Y9_Y13_an_ace_with_one_card_in_the_stock_ends_the_hand():
    st = opened(3, {1: "AC"})
    burn(st, 82)
    assert st.stock == 1 and st.turn == 1
    sizes = [len(st.hand(s)) for s in range(3)]
    run(st, "AC")
    # seat 2 takes the last card; seat 0 draws nothing; nobody won
    assert st.over and st.winner == -1
    assert [len(st.hand(s)) for s in range(3)] == [sizes[0], sizes[1] - 1, sizes[2] + 1]


def test_Y9_Y13_an_ace_whose_last_draw_empties_the_stock():
    st = opened(3, {0: "AC"})
    burn(st, 81)
    assert st.stock == 2 and st.turn == 0
    sizes = [len(st.hand(s)) for s in range(3)]
    run(st, "AC")
    assert st.over and st.winner == -1 and st.phase == OVER
    assert [len(st.hand(s)) for s in range(3)] == [sizes[0] - 1, sizes[1] + 1, sizes[2] + 1]


def test_Y9_Y13_the_play_again_draw_that_takes_the_last_card_ends_the_hand():
    """Two players. Seat 0 keeps the AC; every card it draws before is no
    club, Ace or Jack, so after the Ace it can only draw, and takes the last."""
    mine = ("2H", "3H", "4H", "5H", "6H")
    safe = [r + s for s in "DHS" for r in "23456789TQK" if r + s not in mine]
    bad = [r + "C" for r in "234679TJQK"]
    even, odd = safe[:18], bad + safe[18:27]
    stock = []
    for i in range(18):
        stock += [even[i], odd[i]]
    stock += [odd[18], safe[27]]
    st = opened(2, {0: "AC 2H 3H 4H 5H 6H", 1: "AD AH AS JD JH JS"}, stock)
    burn(st, 36)
    assert st.stock == 2 and st.turn == 0
    run(st, "AC")
    assert st.stock == 1 and st.phase == AGAIN and legal(st) == ["draw"]
    run(st, "draw")
    assert st.over and st.winner == -1 and held(st, 0)[-1] == safe[27]


# -- Y-15 Muamele ------------------------------------------------------------------------------
# Four players, dealer 3, seat 2 goes out on a Jack (x2). Seat 3 holds one 7,
# seat 0 none, seat 1 two. The others draw 17 cards in all, then the stock row
# starts with MUAMELE_ROW.
MUAMELE_OTHERS = {3: "7S 2H 3H 4H 5H 6H", 0: "2S 3S 4S 5S 6S 8S", 1: "7H 7D QH KH 8H 9H"}


def _muamele(row):
    return won(4, 3, 2, "JD", MUAMELE_OTHERS, ["-"] * 17 + row.split())


def test_Y15_three_picks_per_seven_in_play_order_from_the_winner_values_added():
    st = _muamele("KS QS AH 2H 3H 4H 5H 6H 8H 9H")
    assert st.winner == 2 and st.mult == 2 and not st.over
    assert st.phase == MUAMELE and st.turn == 3 and st.picks == 3  # seat 3 first
    assert st.legal() == list(range(PICK, PICK + st.stock))
    assert st.action_str(PICK + 2) == "pick:2" and st.parse_action("pick:2") == PICK + 2
    with pytest.raises(IllegalActionError):
        st.apply(PICK + st.stock)
    with pytest.raises(IllegalActionError):
        st.apply(DRAW)
    run(st, "pick:2 pick:0 pick:0")  # AH, then KS, QS: a row of face-down cards
    assert [card_str(c) for c in st.muamele[3]] == ["AH", "KS", "QS"]
    assert st.turn == 1 and st.picks == 6  # seat 0 holds no 7 and is skipped
    run(st, "pick:0 " * 6)
    assert [card_str(c) for c in st.muamele[1]] == "2H 3H 4H 5H 6H 8H".split()
    assert st.over and st.muamele[0] == bytearray()
    hands = [value(held(st, s)) for s in range(4)]
    assert st.penalties() == [hands[0] * 2, hands[1] * 2 + 28, 0, hands[3] * 2 + 31]


def test_Y15_each_picked_seven_gives_three_more_picks():
    st = _muamele("KS 7C QS 2H 7D 3H 4H 5H 6H 8H 9H KD QD")
    run(st, "pick:1")  # the 7C
    assert st.turn == 3 and st.picks == 5
    run(st, "pick:0 pick:0 pick:1 pick:0 pick:0")  # KS QS 7D 2H 3H
    assert st.turn == 3 and st.picks == 3
    run(st, "pick:0 pick:0 pick:0")
    assert st.turn == 1
    assert [card_str(c) for c in st.muamele[3]] == "7C KS QS 7D 2H 3H 4H 5H 6H".split()
    assert st.penalties()[3] == value(held(st, 3)) * 2 + 7 + 10 + 10 + 7 + 2 + 3 + 4 + 5 + 6


def test_Y15_picks_stop_when_the_stock_is_empty():
    """Two players. Seat 1 has no plain club and draws 35 cards in the
    opening; it then plays four Jacks naming clubs and draws once, so seat 0
    goes out with two cards in the stock and seat 1's four sevens (12 picks)
    get only those two."""
    st = deal(2, 1, {0: "5C 6C 8C 9C QC KC 2C", 1: "JC JD JH JS 7C 7D 7H"},
              ["-"] * 34 + ["3C", "4C"])
    run(st, "5C")
    for _ in range(35):
        run(st, "draw")
    assert legal(st) == ["3C"]
    run(st, "3C 6C JD:C 8C JH:C 9C JS:C QC JC:C KC draw pass 2C")
    assert st.winner == 0 and st.phase == MUAMELE and st.picks == 12 and st.stock == 2
    assert sorted(c for c in held(st, 1) if c[0] == "7") == ["7C", "7D", "7H", "7S"]
    run(st, "pick:1")
    assert st.picks == 11 and st.legal() == [PICK]
    run(st, "pick:0")
    assert st.over and st.stock == 0
    assert sorted(card_str(c) for c in st.muamele[1]) == ["AC", "TC"]
    assert st.penalties() == [0, value(held(st, 1)) + 11 + 10]


def test_Y15_no_muamele_after_a_hand_without_a_winner():
    st = opened(2, {1: "7C 7D 7H 7S"})
    burn(st, 37)
    run(st, "draw")
    assert st.over and st.winner == -1 and st.phase == OVER and st.legal() == []
    assert st.penalties()[1] == value(held(st, 1)) and st.muamele[1] == bytearray()


# -- Y-16 the match ----------------------------------------------------------------------------
def _play_into(match, codes, moves):
    h = match.deal(parse_deck(codes, decks("yedili", match.players)))
    run(h, moves)
    while h.phase == MUAMELE:
        h.apply(PICK)
    return match.end_hand()


def test_Y16_the_match_ends_after_a_hand_in_which_anybody_reaches_101():
    m = Match("yedili", 2, dealer=1)
    assert m.target == 101
    codes, moves = quick_win(2, 1, 0, "8D", LOSER, LOSER_DRAWS)
    assert _play_into(m, codes, moves) == [0, 101]
    assert m.over and m.winners() == [0]
    with pytest.raises(ValueError):
        m.deal()
    m = Match("yedili", 2, dealer=1)
    codes, moves = quick_win(2, 1, 0, "8D", LOSER, "2H 3S 4H 5S 5H")
    assert _play_into(m, codes, moves) == [0, 100]
    assert not m.over and m.winners() == [] and m.dealer == 0  # Y-2: the deal passes on
    # dealer 0 and winner 0: seat 1 moves first and draws six times
    codes, moves = quick_win(2, 0, 0, "8D", {1: "2S 3S 4S 5S 6S 8S"}, "2H 3H 4H 5H 6H 8H")
    assert _play_into(m, codes, moves) == [0, 28 + 28]
    assert m.totals == [0, 156] and m.over and m.winners() == [0]


def test_Y16_the_lowest_total_wins_and_equal_lowest_totals_share_the_win():
    """Three players. Hand 1 (dealer 0): seat 0 goes out, seat 1 keeps 48,
    seat 2 99. Hand 2 (dealer 1): seat 1 goes out, seat 0 keeps 48, seat 2
    passes 101. Seats 0 and 1 share the win on 48."""
    m = Match("yedili", 3, dealer=0)
    codes, moves = quick_win(3, 0, 0, "8D", {1: "QD 2S 3S 4S 5S 6S", 2: "JS 2D 3D 4D 2S 3S"},
                             "2H KH 3H KS 4H KD 2H QH 3H QS 4H KH")
    assert _play_into(m, codes, moves) == [0, 48, 99] and not m.over
    codes, moves = quick_win(3, 1, 1, "8D", {0: "QD 2S 3S 4S 5S 6S", 2: "2D 3D 4D 5D 6D 9D"},
                             "KH 2H KS 3H KD 4H QH 2H QS 3H KH 4H")
    pts = _play_into(m, codes, moves)
    assert pts[:2] == [48, 0] and pts[2] > 2
    assert m.totals == [48, 48, 99 + pts[2]] and m.over
    assert m.winners() == [0, 1]


# -- the checked door, undo, copy ------------------------------------------------------------
def _positions():
    """(name, state) pairs covering every phase."""
    out = [("opening", deal(3, 2, {0: "AC 7C TC JC 5D KD 9H"}))]
    st = opened(3, {0: "2C 3H 4H 5H 6H 9H"})
    out.append(("normal", st))
    st = opened(3, {0: "2C 3H 4H 5H 6H 9H"}, "KD")
    run(st, "draw")
    out.append(("drawn", st))
    st = opened(3, {0: "AC 2C 3H 4H 5H 6H"})
    run(st, "AC")
    out.append(("again", st))
    st = opened(3, {0: "7C", 1: "JD 2C 8C 3S 4S 5S"})
    run(st, "7C")
    out.append(("pending", st))
    out.append(("muamele", _muamele("KS QS AH 2H 3H 4H 5H 6H 8H 9H")))
    out.append(("over", won(2, 1, 0, "8D", LOSER, LOSER_DRAWS)))
    return out


@pytest.mark.parametrize("name", ["opening", "normal", "drawn", "again", "pending", "muamele",
                                  "over"])
def test_illegal_actions_name_action_seat_and_position_and_change_nothing(name):
    st = dict(_positions())[name]
    before = snapshot(st)
    ok = set(st.legal())
    bad = [a for a in range(256) if a not in ok] + [-1, 256, "5H", None, 1.0, True]
    for a in bad:
        with pytest.raises(IllegalActionError) as e:
            st.apply(a)
        msg = str(e.value)
        assert st.action_str(a) in msg and st.describe() in msg
        assert ("seat %d" % st.turn if st.turn >= 0 else "no seat") in msg
        assert snapshot(st) == before
    for text in ("JH", "5H:S", "XX", "", "pick:x", "pick:999", "draw ", "J:S"):
        with pytest.raises(IllegalActionError) as e:
            st.parse_action(text)
        assert repr(text) in str(e.value)
    assert snapshot(st) == before


def test_action_notation_round_trips():
    st = opened(3)
    actions = [c for c in range(52) if c // 4 != 10] + list(range(Y.JACK_BASE, Y.JACK_BASE + 16))
    actions += [DRAW, PASS] + list(range(PICK, 256))
    for a in actions:
        assert st.parse_action(st.action_str(a)) == a
    assert [st.action_str(a) for a in (16, Y.JACK_BASE + 2 * 4 + 3, DRAW, PASS, PICK + 7)] == \
        ["5C", "JH:S", "draw", "pass", "pick:7"]


def _undo_walk(st, moves):
    for m in moves:
        a = st.parse_action(m) if isinstance(m, str) else m
        before = snapshot(st)
        st.apply(a)
        after = snapshot(st)
        assert st.undo() == a
        assert snapshot(st) == before
        st.apply(a)
        assert snapshot(st) == after


def test_undo_restores_exactly_through_every_phase():
    codes, moves = quick_win(4, 3, 2, "JD", MUAMELE_OTHERS,
                             ["-"] * 17 + "7C KS QS AH 2H 3H 4H 5H 6H 8H 9H KD QD".split())
    st = YediliHand(4, 3, parse_deck(codes, 2))
    _undo_walk(st, moves)
    assert st.phase == MUAMELE
    _undo_walk(st, ["pick:0", "pick:3"])  # 7C (three more picks), 2H
    while not st.over:
        _undo_walk(st, ["pick:0"])
    assert len(st.muamele[3]) + len(st.muamele[1]) == 6 + 6
    st = opened(3, {0: "TC 7H AS 2S 8D", 1: "TH 7S 8D 2D 3H 4H", 2: "TD 2C 4S"},
                "KS QS JH KH QH 9S 9H 3S 4S 5S 6S")
    _undo_walk(st, "TC TD TH 7H 7S draw draw pass AS 2S 2D draw pass 8D 8D draw pass".split())
    assert st.turn == 2 and len(st.hand(1)) == 4
    with pytest.raises(IllegalActionError):
        deal(2, 0, {}).undo()


def test_copy_is_independent():
    st = opened(3, {0: "AC 2C"})
    c = st.copy()
    run(c, "AC 2C")
    assert snapshot(st)[0] != snapshot(c)[0]
    assert len(st.actions) == 3 and st.phase == NORMAL and st.turn == 0
    run(st, "AC 2C")
    assert snapshot(st) == snapshot(c)


# -- T-5 what a seat may know -------------------------------------------------------------------
def test_T5_observation_does_not_change_when_unseen_cards_are_rearranged():
    """Seat 0's view of a stacked hand, then the same hand with seat 1's KS
    swapped with a stock card nobody drew, and seat 2's hand reordered."""
    a = opened(3, {0: "AC 2C", 1: "KS QH 2S 3S 4S 5S", 2: "3D 4D 5D 6D 9D QD"}, "KH 2D 9S 8H")
    b = opened(3, {0: "AC 2C", 1: "JH QH 2S 3S 4S 5S", 2: "QD 9D 6D 5D 4D 3D"},
               "KH 2D 9S 8H KS")
    for moves in ("", "AC", "2C draw pass", "draw"):
        run(a, moves)
        run(b, moves)
        assert a.observe(0) == b.observe(0)
        assert a.observe(1) != b.observe(1)  # seat 1 does see its own hand
        assert a.observe(2).hand == b.observe(2).hand
    obs = a.observe(0)
    assert obs.hand_counts == bytes([len(a.hand(s)) for s in range(3)])
    assert obs.legal() == [] and a.observe(a.turn).legal() == a.legal()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_T5_observation_ignores_hidden_cards_along_random_hands(players):
    rng = random.Random(100 + players)
    size = 52 * decks("yedili", players)
    for _ in range(6):
        deck = list(range(size))
        rng.shuffle(deck)
        dealer = rng.randrange(players)
        st = YediliHand(players, dealer, deck)
        for _ in range(rng.randrange(10, 80)):
            if st.over or st.phase == MUAMELE:
                break
            st.apply(rng.choice(st.legal()))
        if st.phase == MUAMELE:
            st.undo()
        seat = rng.randrange(players)
        unseen = [c for s in range(players) if s != seat for c in st.hand(s)] + \
            list(st.stockbuf[st.pos:])
        where = [deck.index(c) for c in unseen]
        perm = list(unseen)
        rng.shuffle(perm)
        other = list(deck)
        for i, c in zip(where, perm, strict=True):
            other[i] = c
        a, b = YediliHand(players, dealer, deck), YediliHand(players, dealer, other)
        assert a.observe(seat) == b.observe(seat)
        for x in st.actions:
            a.play(x)
            b.play(x)  # unchecked: the other seats' options may differ
            assert a.observe(seat) == b.observe(seat)


# -- R-1 .. R-4 replays of stacked hands, CPython and MicroPython ------------------------------
def _replay(exe, lines):
    r = subprocess.run([exe, os.path.join(ROOT, "tools", "replay.py")], cwd=ROOT,
                       input="".join(ln + "\n" for ln in lines), capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_R1_R4_replays_of_stacked_hands_agree_under_both_interpreters():
    assert os.path.exists(MICROPYTHON), "the micropython command is part of .venv"
    cases = []
    codes, moves = quick_win(4, 3, 2, "JD", MUAMELE_OTHERS,
                             ["-"] * 17 + "7C KS QS AH 2H 3H 4H 5H 6H 8H 9H KD QD".split())
    cases.append((4, 3, codes, moves))
    codes, moves = quick_win(2, 1, 0, "7D", LOSER, LOSER_DRAWS)
    cases.append((2, 1, codes, moves))
    ace = deck_codes(3, 2, {0: "5C AC 2H", 1: "6C", 2: "8C"})
    seven = deck_codes(3, 2, {0: "5C 7C", 1: "6C 7H JD", 2: "8C"})
    cases.append((3, 2, ace, ["5C", "6C", "8C", "AC"]))
    cases.append((3, 2, seven, ["5C", "6C", "8C", "7C"]))
    cases.append((3, 2, seven, ["5C", "6C", "8C", "7C", "JD:S"]))  # no Jack under Y-6
    lines = [json.dumps({"game": "yedili", "players": n, "dealer": d, "deck": c, "moves": m})
             for n, d, c, m in cases]
    out = _replay(PYTHON, lines)
    assert out == _replay(MICROPYTHON, lines)
    got = [json.loads(x) for x in out]
    for (n, d, c, m), g in zip(cases, got, strict=True):
        st = YediliHand(n, d, parse_deck(c, decks("yedili", n)))
        try:
            run(st, m)
        except IllegalActionError:
            assert g["index"] == len(m) - 1 and "JD:S" in g["error"]
            continue
        while st.phase == MUAMELE:
            st.apply(PICK)  # picks from the top in replays
        if st.over:
            assert g == {"complete": True, "winner": st.winner if st.winner >= 0 else None,
                         "multiplier": st.mult, "penalties": st.penalties()}
        else:
            assert g == {"complete": False, "to_move": st.turn, "legal": legal(st)}
    assert got[1] == {"complete": True, "winner": 0, "multiplier": 3, "penalties": [0, 303]}
    assert got[2] == {"complete": False, "to_move": 0, "legal": ["draw"]}  # after the Ace
    assert got[3] == {"complete": False, "to_move": 1, "legal": ["7H", "draw"]}


# -- a second reading of Y-1 .. Y-15, played against the engine ------------------------------
_PLAIN_RANKS = "23456789QK".replace("7", "")


class Reference:
    """Pis Yedili written again straight from RULES.md, with plain lists and
    R-2 strings, slow and simple: the engine must agree with it move by move."""

    def __init__(self, n, dealer, deck):
        self.n = n
        self.hands = [None] * n
        for k in range(n):  # Y-2
            self.hands[(dealer + 1 + k) % n] = [card_str(c) for c in deck[7 * k:7 * k + 7]]
        self.stock = [card_str(c) for c in deck[7 * n:]]
        self.pile, self.named, self.pending, self.chain = [], None, 0, None
        self.turn, self.opening = (dealer + 1) % n, n
        self.again = self.drawn = False
        self.winner, self.mult, self.over = None, 1, False
        self.queue, self.picker, self.picks = [], None, 0
        self.picked = [[] for _ in range(n)]

    def _ok(self, code):
        if self.pending:
            return code[0] == "7"  # Y-6
        if code[0] == "J":
            return True  # Y-7
        if self.named is not None:
            return code[1] == self.named
        return code[0] == self.pile[-1][0] or code[1] == self.pile[-1][1]  # Y-4

    def legal(self):
        if self.over:
            return []
        if self.picker is not None:
            return sorted("pick:%d" % i for i in range(len(self.stock)))
        hand = set(self.hands[self.turn])
        if self.opening:  # Y-3
            return sorted([c for c in hand if c[1] == "C" and c[0] in _PLAIN_RANKS]) or ["draw"]
        plays = set()
        for c in hand:
            if self._ok(c):
                plays |= set([c + ":" + s for s in SUITS] if c[0] == "J" else [c])
        if self.drawn:
            plays.add("pass")
        elif not self.again:
            plays.add("draw")
        elif not plays:
            plays.add("draw")
        return sorted(plays)

    def _draw(self, seat, k):
        while k and self.stock:
            self.hands[seat].append(self.stock.pop(0))
            k -= 1
        if not self.stock:  # Y-13
            self._end(None, 1)
            return False
        return True

    def _end(self, winner, mult):
        self.winner, self.mult, self.pending = winner, mult, 0
        if winner is not None:
            self.queue = [(winner + k) % self.n for k in range(1, self.n)]
        self._next_picker()

    def _next_picker(self):  # Y-15
        self.picker = None
        while self.queue and self.stock:
            p = self.queue.pop(0)
            sevens = [c for c in self.hands[p] if c[0] == "7"]
            if sevens:
                self.picker, self.turn, self.picks = p, p, 3 * len(sevens)
                return
        self.over = True

    def _turn_ends(self, seat, last):
        self.again = self.drawn = False
        if not self.hands[seat]:  # Y-12, Y-14
            self._end(seat, {"J": 2, "7": 3}.get(last[0], 1) if last else 1)
        elif self.n > 2 and last and last[0] == "T":  # Y-8
            if self.chain is None:
                self.chain = seat
            self.turn = (seat - 1) % self.n
        elif self.chain is not None:
            self.turn, self.chain = (self.chain + 1) % self.n, None
        else:
            self.turn = (seat + 1) % self.n

    def apply(self, m):
        seat = self.turn
        if self.picker is not None:
            c = self.stock.pop(int(m[5:]))
            self.picked[seat].append(c)
            self.picks += 3 if c[0] == "7" else 0
            self.picks -= 1
            if not self.picks or not self.stock:
                self._next_picker()
        elif m == "draw":
            if self.opening:
                self._draw(seat, 1)
            elif self.pending:
                k, self.pending = self.pending, 0
                self._draw(seat, k)
            elif self._draw(seat, 1):
                self.drawn = True
        elif m == "pass":
            self._turn_ends(seat, None)
        else:
            code = m[:2]
            self.hands[seat].remove(code)
            twin = self.pile and self.pile[-1] == code and code[0] in _PLAIN_RANKS
            self.pile.append(code)
            self.named = m[3] if len(m) == 4 else None
            if self.opening:
                self.opening -= 1
                self.turn = (seat + 1) % self.n
            elif code[0] == "7":
                self.pending += 3
                self._turn_ends(seat, code)
            elif code[0] == "A":  # Y-9
                for k in range(1, self.n):
                    if not self._draw((seat + k) % self.n, 1):
                        return
                self.again, self.drawn = True, False
            elif twin:  # Y-10
                self.again, self.drawn = True, False
            else:
                self._turn_ends(seat, code)

    def penalties(self):
        return [0 if s == self.winner else value(self.hands[s]) * self.mult + value(self.picked[s])
                for s in range(self.n)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_Y1_to_Y15_the_engine_agrees_with_a_second_reading_on_random_hands(players):
    rng = random.Random(7 * players)
    size = 52 * decks("yedili", players)
    wins = 0
    for game in range(120):
        deck = list(range(size))
        rng.shuffle(deck)
        if game % 3 == 0:  # more sevens, Aces, tens and twins near the top
            deck.sort(key=lambda c: (card_str(c)[0] not in "7AT" and rng.random() < 0.6))
        dealer = rng.randrange(players)
        st, ref = YediliHand(players, dealer, deck), Reference(players, dealer, deck)
        while True:
            assert legal(st) == ref.legal(), (ref.__dict__, st.describe())
            if ref.over:
                break
            assert st.turn == ref.turn and st.pending == ref.pending
            for s in range(players):
                assert sorted(held(st, s)) == sorted(ref.hands[s])
            m = rng.choice(ref.legal())
            ref.apply(m)
            st.apply(st.parse_action(m))
        assert st.over and st.winner == (-1 if ref.winner is None else ref.winner)
        assert st.mult == ref.mult and st.penalties() == ref.penalties()
        wins += ref.winner is not None
    assert wins > 5  # the hands do reach Y-12 and Y-15, not only Y-13


def test_R2_notation_module_uses_the_engine_action_codes():
    from pisti_core import yedili_text
    for name in ("JACK_BASE", "DRAW", "PASS", "PICK"):
        assert getattr(yedili_text, name) == getattr(Y, name)
