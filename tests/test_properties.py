# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Property tests over random hands of every mode (hypothesis)."""

import json
import random

from hypothesis import assume, given, settings, strategies as st

from pisti_core.cards import IllegalActionError, card_str
from pisti_core.match import Match, deal_deck, new_hand
from pisti_core.pisti import PistiHand
from pisti_core.record import from_record, to_record
from pisti_core.yedili import MUAMELE, PICK, YediliHand
from tools import replay

MODES = [("pisti", 2), ("pisti", 4), ("yedili", 2), ("yedili", 3), ("yedili", 4)]
SEEDS = st.integers(0, 2 ** 32 - 1)
MODE = st.sampled_from(MODES)
FAST = settings(max_examples=60, deadline=None)


def sig(h):
    """Everything that makes up a hand's state (for exact comparisons)."""
    if isinstance(h, PistiHand):
        return (bytes(h.actions), bytes(h.table), h.tbase, h.tn, bytes(h.hands), bytes(h.hn),
                tuple(h.cards), tuple(h.pts), tuple(h.pistis), tuple(h.jpistis), h.last_cap,
                h.hidden, h.hidden_side, h.pos, h.turn, h.over, h.ply, h.pile_pts, bytes(h.capt))
    return (bytes(h.actions), bytes(h.stockbuf), h.pos, tuple(h.hand(s) for s in range(h.players)),
            bytes(h.discard[:h.dn]), h.named, h.pending, h.chain, h.opening, h.phase, h.winner,
            h.mult, h.picks, tuple(bytes(m) for m in h.muamele), h.turn, h.over, h.ply)


def random_hand(game, players, seed, stop=None):
    rng = random.Random(seed)
    h = new_hand(game, players, rng.randrange(players), deal_deck(game, players, rng.randrange))
    steps = 0
    while not h.over and (stop is None or steps < stop):
        acts = h.legal()
        h.apply(acts[rng.randrange(len(acts))])
        steps += 1
        assert steps < 5000, "hand does not end"
    return h, rng


def conserved(h):
    if isinstance(h, PistiHand):
        held = sum(h.hn[s] for s in range(h.players))
        return held + h.tn + h.stock  # the table holds the centre and every card played
    held = sum(h.hn[s] for s in range(h.players))
    return held + h.dn + h.stock + sum(len(m) for m in h.muamele)


@FAST
@given(MODE, SEEDS)
def test_cards_are_conserved_and_every_hand_ends(mode, seed):
    game, players = mode
    rng = random.Random(seed)
    h = new_hand(game, players, rng.randrange(players), deal_deck(game, players, rng.randrange))
    total = 52 if game == "pisti" or players == 2 else 104
    steps = 0
    while not h.over:
        assert conserved(h) == total
        acts = h.legal()
        assert acts == sorted(set(acts)) and acts
        h.apply(acts[rng.randrange(len(acts))])
        steps += 1
        assert steps < 5000
    assert conserved(h) == total and h.legal() == []
    if game == "pisti":
        rows = h.result()
        assert rows[0]["cards"] + rows[1]["cards"] == 52  # P-11: the pile goes to the last capturer


@FAST
@given(MODE, SEEDS, st.integers(0, 255))
def test_only_legal_actions_are_accepted(mode, seed, bogus):
    game, players = mode
    h, rng = random_hand(game, players, seed, stop=random.Random(seed).randrange(60))
    assume(not h.over)
    legal = h.legal()
    before = sig(h)
    if bogus in legal:
        h.apply(bogus)
        assert sig(h) != before
    else:
        try:
            h.apply(bogus)
        except IllegalActionError as e:
            assert "seat %d" % h.turn in str(e)
        else:
            raise AssertionError("illegal action %d accepted" % bogus)
        assert sig(h) == before


@FAST
@given(st.sampled_from([2, 4]), SEEDS)
def test_P12_pisti_card_points_are_16_or_13_on_a_split(players, seed):
    h, _ = random_hand("pisti", players, seed)
    rows = h.result()
    card_pts = sum(r["total"] - 10 * r["pisti"] - 20 * r["jack_pisti"] for r in rows)
    split = rows[0]["cards"] == rows[1]["cards"] == 26
    assert card_pts == (13 if split else 16)
    assert h.points() == [r["total"] for r in rows]


@FAST
@given(MODE, SEEDS)
def test_undo_then_redo_returns_the_same_state(mode, seed):
    game, players = mode
    h, rng = random_hand(game, players, seed, stop=random.Random(seed).randrange(1, 80))
    before = sig(h)
    k = rng.randrange(1, len(h.actions) + 1)
    undone = [h.undo() for _ in range(k)]
    for a in reversed(undone):
        h.apply(a)  # still legal: the same position comes back
    assert sig(h) == before
    c = h.copy()
    assert sig(c) == before and c is not h


@FAST
@given(MODE, SEEDS)
def test_replaying_a_recorded_hand_reproduces_it(mode, seed):
    game, players = mode
    h, _ = random_hand(game, players, seed)
    moves = [h.action_str(a) for a in h.actions if not (game == "yedili" and a >= PICK)]
    line = json.dumps({"game": game, "players": players, "dealer": h.dealer,
                       "deck": [card_str(c) for c in h.deck], "moves": moves})
    out = json.loads(replay.replay_line(line))
    assert out["complete"] is True
    if game == "pisti":
        rows = h.result()
        assert out["points"] == [r["total"] for r in rows]
        assert out["cards"] == [r["cards"] for r in rows]
    else:
        # Random Muamele picks differ from R-2's top-first picks only in which cards.
        assert out["winner"] == (h.winner if h.winner >= 0 else None)
        assert out["multiplier"] == h.mult
        if not any(a >= PICK for a in h.actions):
            assert out["penalties"] == h.penalties()


@FAST
@given(st.sampled_from([("pisti", 2), ("pisti", 4), ("yedili", 2), ("yedili", 4)]), SEEDS)
def test_match_record_round_trip(mode, seed):
    game, players = mode
    rng = random.Random(seed)
    m = Match(game, players, 101, below=rng.randrange)
    for _ in range(2):
        h = m.deal()
        while not h.over:
            acts = h.legal()
            h.apply(acts[rng.randrange(len(acts))])
        m.end_hand()
        if m.over:
            break
    if not m.over:
        h = m.deal()
        for _ in range(rng.randrange(10)):
            h.apply(h.legal()[0])
    m2 = from_record(json.loads(json.dumps(to_record(m))))
    assert m2.totals == m.totals and m2.dealer == m.dealer and m2.over == m.over
    if m.hand is not None:
        assert sig(m2.hand)[1:] == sig(m.hand)[1:] or game == "yedili"
        assert [m2.hand.action_str(a) for a in m2.hand.actions] == \
            [m.hand.action_str(a) for a in m.hand.actions]


def _unseen_positions_pisti(h, seat):
    """Deck positions of cards ``seat`` cannot see now (T-5)."""
    side = seat & 1
    pos = []
    for i in range(52):
        c = h.deck[i]
        if i == 51 and c not in h.actions:
            continue  # the bottom card is shown to everyone (P-5)
        if i < 4:
            face_down = i < h.hidden0 and h.hidden_side != side
            if face_down:
                pos.append(i)
            continue
        holder = ((i - 4) % (4 * h.players)) // 4
        owner = (h.dealer + 1 + holder) % h.players
        played = c in h.actions
        if not played and (i >= h.pos or owner != seat):
            pos.append(i)
    return pos


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([2, 4]), SEEDS)
def test_T5_pisti_observation_ignores_what_the_seat_cannot_see(players, seed):
    h, rng = random_hand("pisti", players, seed, stop=random.Random(seed).randrange(0, 47))
    seat = rng.randrange(players)
    pos = _unseen_positions_pisti(h, seat)
    cards = [h.deck[i] for i in pos]
    rng.shuffle(cards)
    deck = bytearray(h.deck)
    for i, c in zip(pos, cards, strict=True):
        deck[i] = c
    other = PistiHand(players, h.dealer, bytes(deck))
    for a in h.actions:
        other.apply(a)
    assert other.observe(seat) == h.observe(seat)
    if pos and players == 2 and sorted(cards) != [h.deck[i] for i in pos]:
        # and the observation is not blind: the seat's own cards show
        assert other.observe(seat).hand == h.observe(seat).hand


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([2, 3, 4]), SEEDS)
def test_T5_yedili_observation_ignores_what_the_seat_cannot_see(players, seed):
    h, rng = random_hand("yedili", players, seed, stop=random.Random(seed).randrange(0, 120))
    assume(not h.over and h.phase != MUAMELE)  # at the end hands are shown
    seat = rng.randrange(players)
    unseen = [c for s in range(players) if s != seat for c in h.hand(s)]
    unseen += list(h.stockbuf[h.pos:])
    where = [h.deck.index(c) for c in unseen]
    perm = list(unseen)
    rng.shuffle(perm)
    deck = bytearray(h.deck)
    for i, c in zip(where, perm, strict=True):
        deck[i] = c
    other = YediliHand(players, h.dealer, bytes(deck))
    try:
        for a in h.actions:
            other.apply(a)
    except IllegalActionError:
        assume(False)  # a re-deal the seat's own view rules out (e.g. a forced opening draw)
    assert other.observe(seat) == h.observe(seat)
