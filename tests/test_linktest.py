# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""tools/linktest.py: two consoles in lockstep over a lossy virtual cable
with cable cuts, power cuts and silent faults (RULES.md L-5 .. L-9) finish
their matches with no desync, nothing lost and no fault -- and a planted bug
(repairs switched off) is caught."""

import json
import sys

from pisti_core import linkrx
from tools import linktest


def run(capsys, *argv):
    status = linktest.main(list(argv))
    out = capsys.readouterr().out.strip().splitlines()
    return status, json.loads(out[-1])


def test_L5_L9_lockstep_under_loss_cuts_and_power_cuts_has_no_desync(capsys):
    status, st = run(capsys, "--actions", "2500", "--seed", "3", "--loss", "0.05", "--power", "0.02",
                     "--tamper", "0.005")
    assert (st["desyncs"], st["lost"], st["faults"]) == (0, 0, 0), st
    assert status == 0
    assert st["actions"] >= 2500 and st["matches"] >= 5
    assert st["resends"] > 0 and st["repairs"] > 0 and st["power_cuts"] > 0 and st["cable_cuts"] > 0
    assert st["boots"] == st["power_cuts"]  # each cut at an nvm cut point, each console booted from its flash


def test_L9_power_cuts_at_nvm_cut_points_resume_from_the_app_saves(capsys):
    """L-9: the power fails at random cut points of the consoles' own nvm
    writes (the app's Saves on a FlashNvm); each boots from what its flash
    holds and goes on with the same game: nothing lost, no desync."""
    status, st = run(capsys, "--actions", "800", "--seed", "5", "--power", "0.06", "--cuts", "0", "--tamper", "0")
    assert (st["desyncs"], st["lost"], st["faults"]) == (0, 0, 0), st
    assert status == 0 and st["power_cuts"] >= 5, st


def test_L9_a_save_that_forgets_its_link_is_reported_lost(capsys, monkeypatch):
    """A planted bug: the game saved without its link (the header of an
    ordinary game). After a power cut the console cannot continue the link
    game: linktest reports it lost."""
    from pisti_app.match.session import GameSession
    header = GameSession.header

    def plain(self):
        li, self.link_info = self.link_info, None
        try:
            return header(self)
        finally:
            self.link_info = li

    monkeypatch.setattr(GameSession, "header", plain)
    status, st = run(capsys, "--actions", "300", "--seed", "6", "--power", "0.06", "--cuts", "0", "--tamper", "0")
    assert st["lost"] > 0 and status == 1, st


def test_L5_a_planted_bug_without_repairs_is_reported(capsys, monkeypatch):
    monkeypatch.setattr(linkrx, "repair", lambda lk: None)
    status, st = run(capsys, "--actions", "600", "--seed", "4", "--tamper", "0.05", "--power", "0", "--cuts", "0")
    assert st["tampered"] > 0 and st["desyncs"] + st["lost"] + st["faults"] > 0, st
    assert status == 1


def test_L4_L9_unloading_the_code_between_hands_changes_nothing_under_faults(capsys, rare_modules):
    """--lean: every Lockstep unloads linkrx and linkproto once a hand is in
    play, as on the board, and imports them again at each deal, hello and
    record; through loss, cable cuts and power cuts the run is the same,
    to the last count, as with them kept."""
    argv = ("--actions", "1500", "--seed", "8", "--loss", "0.05", "--power", "0.02", "--tamper", "0.005")
    status, kept = run(capsys, *argv)
    status_lean, lean = run(capsys, "--lean", *argv)
    assert (lean["desyncs"], lean["lost"], lean["faults"]) == (0, 0, 0), lean
    assert status_lean == status == 0
    assert lean == kept
    assert "pisti_core.linkrx" not in sys.modules  # (the last match's end unloaded it)


def test_L9_a_console_cut_off_as_its_match_ends_finishes_it_from_its_save(capsys, monkeypatch):
    """L-9: the power fails on the guest at the write that ends its match's
    save (both links have ended the match). The guest boots into the ended
    hand and its app finishes the match from its saves as the host's did:
    nothing is lost, and linktest waits for that app before it compares
    the two games (it counted one lost at --loss 0.05 --seed 11)."""
    from pisti_core import linkgame as G
    from pisti_core import linkproto as P
    armed = []
    end = linktest.Console._end

    def cut_at_the_end(self, lk):
        if self.role == P.GUEST and not self.ended and lk.phase == G.OVER and lk.chan.idle():
            armed.append(self.session.hands_done)
            self.nvm.cut_after_bytes = 0  # the save's end is the next write: cut at its first byte
        return end(self, lk)
    monkeypatch.setattr(linktest.Console, "_end", cut_at_the_end)
    status, st = run(capsys, "--actions", "1500", "--seed", "4", "--loss", "0", "--power", "0", "--cuts", "0",
                     "--tamper", "0")
    assert len(armed) >= 2 and st["power_cuts"] == len(armed), (armed, st)
    assert (st["desyncs"], st["lost"], st["faults"]) == (0, 0, 0), st
    assert status == 0
