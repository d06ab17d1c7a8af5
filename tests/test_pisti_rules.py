# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Pişti rules P-1 to P-13 on stacked decks (RULES.md)."""

import random

import pytest

from pisti_core import cards
from pisti_core.cards import IllegalActionError, InvalidDeckError, JACK, RANK, parse_card
from pisti_core.match import Match, deal_deck
from pisti_core.cards import PTS
from pisti_core.pisti import PistiHand, centre
from tests.stack import ids, pisti_deck, play_codes, seat_cards

C = parse_card


def hand2(centre_codes, r0, dealer=0, bottom=None, rounds=()):
    deck = pisti_deck(2, dealer, centre_codes, [r0] + list(rounds), bottom)
    return PistiHand(2, dealer, deck)


# -- P-1 players and sides ------------------------------------------------------

def test_P1_player_counts():
    deck = deal_deck("pisti", 2, random.Random(1).randrange)
    for n in (1, 3, 5):
        with pytest.raises(ValueError):
            PistiHand(n, 0, deck)
    PistiHand(2, 0, deck)
    PistiHand(4, 3, deck)


def test_P1_four_player_capture_counts_for_the_side():
    deck = pisti_deck(4, 3, "2H 3H 4H 5S", [{0: "9C 9D 6H 6D", 1: "KC KD KH QS", 2: "KS 6C 7C 7D",
                                            3: "8C 8D 8H 8S"}])
    st = PistiHand(4, 3, deck)
    play_codes(st, "9C KC KS")  # P-7: seat 2 takes 4 centre + 9C KC + KS
    assert st.cards == [7, 0] and st.last_cap == 0
    play_codes(st, "8C 6H KD 6C")  # seat 3, 0, 1, 2: no capture
    assert st.cards == [7, 0]
    play_codes(st, "8D")  # seat 3 (side 1) lays 8D on 6C: no capture
    play_codes(st, "6D KH")  # seat 0 lays 6D; seat 1 lays KH
    play_codes(st, "7C 8H")  # seat 2 7C, seat 3 8H
    play_codes(st, "9D QS 7D 8S")
    assert st.cards == [7, 0]


# -- P-2 target -------------------------------------------------------------------

def test_P2_target_101_or_151_default_151():
    assert Match("pisti", 2, dealer=0).target == 151
    assert Match("pisti", 2, 101, dealer=0).target == 101
    with pytest.raises(ValueError):
        Match("pisti", 2, 100, dealer=0)


# -- P-3 dealer --------------------------------------------------------------------

def test_P3_first_dealer_random_then_passes_on():
    rng = random.Random(5)
    firsts = {Match("pisti", 4, below=rng.randrange).first_dealer for _ in range(60)}
    assert firsts == {0, 1, 2, 3}
    m = Match("pisti", 4, dealer=2, below=random.Random(1).randrange)
    seen = []
    for _ in range(3):
        h = m.deal()
        seen.append(h.dealer)
        while not h.over:
            h.play(h.legal()[0])
        m.end_hand()
    assert seen == [2, 3, 0]


# -- P-4 shuffle and cut --------------------------------------------------------------

def test_P4_cut_never_leaves_a_jack_at_the_bottom():
    rng = random.Random(11)
    for _ in range(2000):
        d = cards.shuffle_and_cut(1, rng.randrange, True)
        assert sorted(d) == list(range(52))
        assert RANK[d[51]] != JACK


def test_P4_cut_again_while_bottom_is_a_jack():
    # A source that makes the first cut leave the Jack of clubs (id 40) at the bottom.
    calls = []

    def below(n):
        calls.append(n)
        if n == 51:  # the cut: 1 + below(51)
            return 39 if len([c for c in calls if c == 51]) == 1 else 0
        return 0  # shuffle: j = 0 each step

    d = cards.shuffle_and_cut(1, below, True)
    assert RANK[d[51]] != JACK
    assert calls.count(51) == 2  # P-4: cut again once


def test_P4_shuffle_and_cut_is_fisher_yates_then_cuts_on_the_same_draws():
    # The fast shuffle_and_cut (a list, the cuts as one rotation) deals the
    # very deck that shuffle() and cut() on a bytearray deal from the same
    # draws: seeded decks (the arena's, the saves') stay what they were.
    def slow(decks, below, no_bottom_jack):
        buf = cards.new_deck(decks)
        cards.shuffle(buf, below)
        n = len(buf)
        cards.cut(buf, 1 + below(n - 1))
        while no_bottom_jack and RANK[buf[n - 1]] == JACK:
            cards.cut(buf, 1 + below(n - 1))
        return buf

    jacks = 0
    for seed in range(400):
        for decks, nbj in ((1, True), (1, False), (2, False)):
            a = random.Random(seed)
            b = random.Random(seed)
            fast = cards.shuffle_and_cut(decks, a.randrange, nbj)
            assert fast == slow(decks, b.randrange, nbj) and isinstance(fast, bytearray)
            assert a.random() == b.random()  # as many draws
            jacks += nbj and RANK[slow(1, random.Random(seed).randrange, False)[51]] == JACK
    assert jacks > 10  # the cut was repeated in some of them


def test_P4_T6_default_shuffle_draws_from_os_urandom(monkeypatch):
    drawn = []
    real = cards.os.urandom

    def spy(n):
        drawn.append(n)
        return real(n)

    monkeypatch.setattr(cards.os, "urandom", spy)
    d = deal_deck("pisti", 2)
    assert len(drawn) >= 51 and sorted(d) == list(range(52))



def test_T6_the_deck_check_in_C_agrees_with_the_devices_loop(monkeypatch):
    # On CPython as_deck checks a deck with one bytes.translate (the bench's
    # speed); the device marks the ids in a loop. Both take and refuse the same.
    rng = random.Random(5)
    decks = [range(52), range(104), range(51), [], b"", [300] * 52, [-1] * 52, "not a deck", None]
    for _ in range(300):
        n = rng.choice((52, 104))
        d = list(range(n))
        rng.shuffle(d)
        decks.append(list(d))
        k = rng.randrange(4)
        if k == 0:  # a duplicate
            d[rng.randrange(n)] = d[rng.randrange(n)]
        elif k == 1:  # an id too high for n (or for a byte)
            d[rng.randrange(n)] = rng.choice((n, n + 1, 103, 200, 255, 256))
        elif k == 2:  # a card too many or too few
            d = d + [rng.randrange(n)] if rng.randrange(2) else d[1:]
        decks.append(d)
    for d in decks:
        for n in (52, 104):
            monkeypatch.setattr(cards, "_CPYTHON", True)
            fast = cards.as_deck(d, n)
            monkeypatch.setattr(cards, "_CPYTHON", False)
            assert fast == cards.as_deck(d, n), (d, n)
            assert fast is None or (isinstance(fast, bytes) and sorted(fast) == list(range(n)))
    assert sum(cards.as_deck(d, len(d)) is not None for d in decks if d) > 300


def test_R2_a_played_card_leaves_its_hand_and_the_rest_keep_their_order():
    # play() finds the card from the hand's end and moves the cards after it
    # down one: the same slots as moving them from its start (the former
    # loop, kept here as the oracle), in 2 and 4 players.
    rng = random.Random(9)
    for g in range(300):
        players = 2 if g % 3 else 4
        st = PistiHand(players, g % players, deal_deck("pisti", players, rng.randrange))
        while not st.over:
            s = st.turn
            want = list(st.hands)
            c = want[(s << 2) + rng.randrange(st.hn[s])]
            b = s << 2
            e = b + st.hn[s] - 1
            while want[b] != c:
                b += 1
            while b < e:
                want[b] = want[b + 1]
                b += 1
            before = [st.hand(x) for x in range(players)]
            st.play(c)
            if st.ply % (4 * players):  # no deal in between
                assert st.hands == want
                assert bytearray(st.hand(s)) == bytearray(before[s]).replace(bytes([c]), b"")
                assert all(st.hand(x) == before[x] for x in range(players) if x != s)


# -- P-5 deal --------------------------------------------------------------------------

def test_P5_centre_and_deal_order():
    deck = pisti_deck(2, 1, "2H 3H 4H 5S", [{0: "9C 9D 6H 6D", 1: "8C 8D 8H 8S"}], bottom="KD")
    st = PistiHand(2, 1, deck)
    assert st.pile == bytes(ids("2H 3H 4H 5S"))  # bottom to top, deck[3] face up
    assert st.hidden == 3
    assert list(st.hand(0)) == seat_cards(deck, 2, 1, 0, 0) == ids("9C 9D 6H 6D")  # dealer+1 first
    assert list(st.hand(1)) == ids("8C 8D 8H 8S")
    assert st.turn == 0  # P-6
    obs0, obs1 = st.observe(0), st.observe(1)
    assert obs0.bottom == obs1.bottom == C("KD")  # visible from the first deal
    assert obs0.pile == bytes(ids("5S")) and obs0.pile_size == 4 and obs0.hidden == 3


def test_P5_four_player_blocks_end_with_the_dealer():
    deck = deal_deck("pisti", 4, random.Random(3).randrange)
    st = PistiHand(4, 2, deck)
    assert list(st.hand(3)) == list(deck[4:8])
    assert list(st.hand(0)) == list(deck[8:12])
    assert list(st.hand(1)) == list(deck[12:16])
    assert list(st.hand(2)) == list(deck[16:20])


def test_P5_jack_on_top_reveals_the_next_centre_card():
    st = PistiHand(2, 0, pisti_deck(2, 0, "2H 3H 4H JS", []))
    assert st.pile == bytes(ids("2H 3H JS 4H")) and st.hidden == 2
    assert st.observe(1).pile == bytes(ids("JS 4H")) and st.observe(1).revealed == bytes(ids("JS 4H"))
    st = PistiHand(2, 0, pisti_deck(2, 0, "2H 3H JD JS", []))
    assert st.pile == bytes(ids("2H JS JD 3H")) and st.hidden == 1
    st = PistiHand(2, 0, pisti_deck(2, 0, "2H JC JD JS", []))
    assert st.pile == bytes(ids("JS JD JC 2H")) and st.hidden == 0


def test_P5_four_jacks_in_the_centre_is_a_redeal():
    deck = pisti_deck(2, 0, "JH JC JD JS", [], fill_avoid_jacks=False)
    assert centre(deck) is None
    with pytest.raises(InvalidDeckError, match="redeal"):
        PistiHand(2, 0, deck)


def test_P5_bottom_card_reaches_the_dealer_in_the_last_deal():
    deck = deal_deck("pisti", 2, random.Random(8).randrange)
    st = PistiHand(2, 1, deck)
    while st.pos < 52:
        st.play(st.legal()[0])
    assert deck[51] in st.hand(1)  # seat 1 is the dealer


# -- P-6 turns -------------------------------------------------------------------------

def test_P6_seat_after_dealer_leads_and_turns_rotate():
    st = PistiHand(4, 1, deal_deck("pisti", 4, random.Random(2).randrange))
    order = []
    for _ in range(8):
        order.append(st.turn)
        st.play(st.legal()[0])
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


# -- P-7 capture -----------------------------------------------------------------------

def test_P7_rank_match_takes_the_whole_pile():
    st = hand2("2H 3H 4H 5S", {1: "5C 9D 6H 6D", 0: "8C 8D 8H 8S"})
    play_codes(st, "5C")
    assert st.pile == b"" and st.cards == [0, 5] and st.last_cap == 1


def test_P7_jack_captures_and_empty_pile_never_captures():
    st = hand2("2H 3H 4H 5S", {1: "JC 9D 6H 6D", 0: "JD 8D 8H 8S"})
    play_codes(st, "JC")  # the Jack takes the pile
    assert st.cards == [0, 5]
    play_codes(st, "JD")  # on an empty pile a Jack just lies there
    assert st.pile == bytes(ids("JD")) and st.cards == [0, 5]


def test_P7_no_capture_on_other_rank():
    st = hand2("2H 3H 4H 5S", {1: "9C 9D 6H 6D", 0: "8C 8D 8H 8S"})
    play_codes(st, "9C 8C")
    assert st.pile == bytes(ids("2H 3H 4H 5S 9C 8C")) and st.cards == [0, 0]


# -- P-8 hidden centre cards --------------------------------------------------------------

def test_P8_hidden_cards_go_to_the_first_capturer_and_only_its_side_sees_them():
    deck = pisti_deck(4, 3, "2H 3H 4H 5S", [{0: "9C 9D 6H 6D", 1: "KC KD KH QS", 2: "KS 6C 7C 7D",
                                            3: "8C 8D 8H 8S"}])
    st = PistiHand(4, 3, deck)
    for s in range(4):
        assert st.observe(s).hidden_cards == b""
    play_codes(st, "9C KC KS")  # seat 2 (side 0) captures first
    assert st.hidden == 0 and st.hidden_side == 0
    assert st.observe(0).hidden_cards == bytes(ids("2H 3H 4H"))  # partner sees them too
    assert st.observe(2).hidden_cards == bytes(ids("2H 3H 4H"))
    assert st.observe(1).hidden_cards == b"" and st.observe(3).hidden_cards == b""
    play_codes(st, "8C 6H KD 6C 8D")
    play_codes(st, "6D KH 7C 8H 9D QS 7D 8S")
    assert st.hidden_side == 0 and st.observe(1).hidden_cards == b""


# -- P-9 pişti --------------------------------------------------------------------------------

def test_P9_pisti_scores_10():
    st = hand2("2H 3H 4H 5S", {1: "5C 9D 6H 6D", 0: "9C 8D 8H 8S"})
    play_codes(st, "5C 9C 9D")  # seat 1 clears, seat 0 lays 9C alone, seat 1 takes it with 9D
    assert st.pistis == [0, 1] and st.pts[1] == 10


def test_P9_jack_on_a_lone_jack_scores_20():
    st = hand2("2H 3H 4H 5S", {1: "5C JD 6H 6D", 0: "JC 8D 8H 8S"})
    play_codes(st, "5C JC JD")
    assert st.jpistis == [0, 1] and st.pistis == [0, 0]
    assert st.pts[1] == 20 + 2  # two Jacks are a point each


def test_P9_jack_on_a_lone_other_card_is_an_ordinary_capture():
    st = hand2("2H 3H 4H 5S", {1: "5C JD 6H 6D", 0: "9C 8D 8H 8S"})
    play_codes(st, "5C 9C JD")
    assert st.pistis == [0, 0] and st.jpistis == [0, 0] and st.cards == [0, 7]


def test_P9_first_card_cannot_be_a_pisti():
    st = hand2("2H 3H 4H 5S", {1: "5C JD 6H 6D", 0: "9C 8D 8H 8S"})
    play_codes(st, "5C")  # captures a pile of four
    assert st.pistis == [0, 0]


# A recorded hand (dealer 0): before the dealer's last card the pile holds TC
# alone, and the dealer takes it with TD, the last card of the hand.
_LAST_DECK = ("9C JS QS 8H QH 3D 9H KC 6C KD 9S 4H 4D TS 5S 5C AD 2H 2C 8C TH JH 7S 5D JC "
              "KS 7D QD 5H 2S 4S 6S 7H KH 7C 3H 6D 6H 2D 4C AH 9D 3C JD 3S QC 8S TC AS AC 8D TD")
_LAST_MOVES = ("KC 9S 9H KD QH 6C 3D 4H 5C 2C 5S 8C TS AD 4D 2H JH KS TH 7D 5D QD 7S JC 2S 7C "
               "6S 3H 5H KH 4S 7H 2D 9D 4C 3C 6H AH 6D JD 3S AC QC AS 8S 8D TC TD")


def test_P9_dealers_last_card_never_scores_a_pisti():
    st = PistiHand(2, 0, bytes(ids(_LAST_DECK)))
    moves = _LAST_MOVES.split()
    play_codes(st, " ".join(moves[:-1]))
    assert st.pile == bytes(ids("TC")) and st.turn == 0 and st.hand(0) == bytes(ids("TD"))
    before = st.pts[0]
    play_codes(st, "TD")
    assert st.over and st.pistis == [0, 0] and st.jpistis == [0, 0]
    assert st.last_cap == 0 and st.pts[0] == before + 3  # an ordinary capture of TC + TD


def test_P9_last_card_exception_applies_only_to_the_last_card():
    # Search stacked-free: random hands where the dealer's last card takes a lone card.
    rng = random.Random(4)
    found = 0
    for _ in range(3000):
        st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
        while st.ply < 47:
            st.play(st.legal()[rng.randrange(len(st.legal()))])
        before = list(st.pistis) + list(st.jpistis)
        lone = st.tn - st.tbase == 1
        top = st.table[st.tn - 1] if lone else None
        last = st.hand(0)[0]
        st.play(last)
        if lone and RANK[last] == RANK[top]:
            found += 1
            assert list(st.pistis) + list(st.jpistis) == before  # P-9 exception
            assert st.last_cap == 0
    assert found > 10


# -- P-10 re-deals --------------------------------------------------------------------------

@pytest.mark.parametrize("players,deals", [(2, 6), (4, 3)])
def test_P10_deals_per_hand(players, deals):
    st = PistiHand(players, 0, deal_deck("pisti", players, random.Random(6).randrange))
    count = 1
    while not st.over:
        before = st.pos
        st.play(st.legal()[0])
        if st.pos != before:
            count += 1
            assert all(st.hn[s] == 4 for s in range(players))
            assert st.tn - st.tbase >= 0  # nothing goes to the centre
    assert count == deals and st.ply == 48


# -- P-11 end of hand ---------------------------------------------------------------------------

def test_P11_leftovers_go_to_the_last_capturer():
    rng = random.Random(9)
    for _ in range(200):
        st = PistiHand(2, 1, deal_deck("pisti", 2, rng.randrange))
        while not st.over:
            st.play(st.legal()[rng.randrange(len(st.legal()))])
        left = st.tn - st.tbase
        rows = st.result()
        assert rows[st.last_cap]["cards"] == st.cards[st.last_cap] + left
        assert rows[0]["cards"] + rows[1]["cards"] == 52


def test_P11_no_capture_yet_means_nobody_takes_the_pile():
    st = hand2("2H 3H 4H 5S", {1: "9C 9D 6H 6D", 0: "8C 8D 8H 8S"})
    play_codes(st, "9C 8C")
    assert st.last_cap == -1
    rows = st.result()
    assert rows[0]["cards"] == rows[1]["cards"] == 0 and st.points() == [0, 0]


# -- P-12 hand score ----------------------------------------------------------------------------

def test_P12_card_points_are_16_a_hand():
    assert sum(PTS) + 3 == 16  # aces, jacks, 2C, TD and the majority
    assert PTS[C("AS")] == 1 and PTS[C("JD")] == 1 and PTS[C("2C")] == 2 and PTS[C("TD")] == 3
    assert PTS[C("2D")] == 0 and PTS[C("TC")] == 0


def test_P12_breakdown_names_every_item():
    rng = random.Random(12)
    st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
    while not st.over:
        st.play(st.legal()[rng.randrange(len(st.legal()))])
    rows = st.result()
    for r in rows:
        assert set(r) == {"cards", "aces", "jacks", "two_clubs", "ten_diamonds", "majority",
                          "pisti", "jack_pisti", "total"}
    assert rows[0]["aces"] + rows[1]["aces"] == 4 and rows[0]["jacks"] + rows[1]["jacks"] == 4
    assert rows[0]["two_clubs"] + rows[1]["two_clubs"] == 2
    assert rows[0]["ten_diamonds"] + rows[1]["ten_diamonds"] == 3
    assert [r["total"] for r in rows] == st.points()


def test_P12_26_26_split_gives_no_majority():
    rng = random.Random(26)
    for _ in range(5000):
        st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
        while not st.over:
            st.play(st.legal()[rng.randrange(len(st.legal()))])
        rows = st.result()
        if rows[0]["cards"] == 26:
            assert rows[0]["majority"] == rows[1]["majority"] == 0
            card_pts = sum(r["total"] - 10 * r["pisti"] - 20 * r["jack_pisti"] for r in rows)
            assert card_pts == 13
            return
    raise AssertionError("no 26-26 split found")  # pragma: no cover


def test_P12_majority_is_3():
    rng = random.Random(27)
    st = PistiHand(2, 0, deal_deck("pisti", 2, rng.randrange))
    while not st.over:
        st.play(st.legal()[rng.randrange(len(st.legal()))])
    rows = st.result()
    more = 0 if rows[0]["cards"] > rows[1]["cards"] else 1
    if rows[0]["cards"] != rows[1]["cards"]:
        assert rows[more]["majority"] == 3 and rows[1 - more]["majority"] == 0


# -- P-13 match ---------------------------------------------------------------------------------

def _play_out(m, rng):
    h = m.deal()
    while not h.over:
        h.play(h.legal()[rng.randrange(len(h.legal()))])
    return m.end_hand()


def test_P13_match_to_target_higher_total_wins():
    rng = random.Random(13)
    m = Match("pisti", 2, 101, dealer=0, below=rng.randrange)
    hands = 0
    while not m.over:
        _play_out(m, rng)
        hands += 1
        assert hands < 100
    assert max(m.totals) >= 101 and m.totals[0] != m.totals[1]
    assert m.winners() == [0 if m.totals[0] > m.totals[1] else 1]
    assert len(m.history) == hands


def test_P13_tie_at_the_target_plays_another_hand():
    rng = random.Random(14)
    m = Match("pisti", 2, 101, dealer=0, below=rng.randrange)
    # Find a hand whose points are equal, with both sides reaching the target through it.
    while True:
        h = m.deal()
        while not h.over:
            h.play(h.legal()[rng.randrange(len(h.legal()))])
        p = h.points()
        if p[0] == p[1]:
            m.totals = [101 - p[0], 101 - p[1]]
            m.end_hand()
            assert m.totals == [101, 101] and not m.over and m.winners() == []
            _play_out(m, rng)  # another hand is played
            return
        m.hand = None  # discard the hand and try another


def test_illegal_action_raises_quoting_the_position_and_changes_nothing():
    st = hand2("2H 3H 4H 5S", {1: "5C 9D 6H 6D", 0: "9C 8D 8H 8S"})
    before = (bytes(st.actions), st.hand(1), st.pile, st.turn)
    with pytest.raises(IllegalActionError) as e:
        st.apply(C("9C"))  # seat 0's card, seat 1 to move
    msg = str(e.value)
    assert "9C" in msg and "seat 1" in msg and "5S" in msg
    assert (bytes(st.actions), st.hand(1), st.pile, st.turn) == before
    with pytest.raises(IllegalActionError):
        st.parse_action("XX")
    with pytest.raises(IllegalActionError):
        st.apply(999)
