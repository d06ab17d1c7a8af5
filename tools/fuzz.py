# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Button-mash fuzzing of the firmware in the headless simulator.

::

    python tools/fuzz.py --presses 20000 --seed 1
    python tools/fuzz.py --presses 2000 --seed 5 --profile featherwing
    python tools/fuzz.py --replay fault.json     # a fault's boots again, with the checks
    python tools/fuzz.py --presses 20000 --seed 1 --part 2/3   # a third of that run's chains

With ``--part K/N`` the run's chains (each a seed drawn in turn from the
run's seed) are shared out among N parts by presses; the N parts together
play exactly the chains of the whole run, so they can run side by side.

Random presses -- taps, long presses (``B:900``), bursts (``A+LEFT+B``: the
taps within one tick), now and then a very long hold (a rated game's move
timer may run out) -- go through every screen of the real ``code.py`` on the
shims, in process and on the virtual clock (:class:`tools.simlib.session.Session`
and the key-script driver of ``tools/sim.py --headless``). Presses alternate
between *chains* on the two profiles (the six-button 128x64 Pico and the
three-button 128x32 FeatherWing). A chain is one nvm and a few boots: each
boot picks its settings at random (the menus, or ``--start`` with every game,
player count, bot level per seat, rated or practice, target; language; the
delay a bot's play stays; how long a key waits for the screen to settle, so
some presses land in the middle of bots' plays) and, most of the time, a
power cut after a random number of nvm cut points (bytes programmed and
erases, ``tools/shims/nvm.py``); the next boot starts from the nvm as the
cut left it.

After every press (when the screen has settled, or the boot's wait ran out):

* no exception; the screen is drawn (the panel is on and lit, and shows the
  app's top screen);
* ``App.status()`` is consistent: its cards (``cards``: in hands, the
  pile, the stock, taken) add up to the deck (52 for Pişti, P-1; 52 or 104
  for Pis Yedili, Y-1) and agree with the table's own fields; the totals
  (and the hand number) only grow within a match (P-13, Y-16);
* the saved state decodes (``pisti_core.nvlog``) and, while a game is on,
  holds exactly that game: the deal, the totals and every action taken or
  decided (T-6: saved before shown);
* after a cut, the game is kept and Continue (or ``--start``) resumes it
  where it was last shown, or with the one record being written at the cut
  complete, or as the saves held it when a compaction of their own (at a
  boot short of the reserve) was cut -- never another point, deal or score
  (T-6; the game may only be lost when the cut hit a compaction and the
  notice says so).

A fault prints the seed, the profile and the boots that reproduce it, each as
a ``tools/sim.py --headless ... --keys ...`` command line on one nvm file (the
last one ends where the fault was seen), and writes them as JSON for
``--replay``. Exit status: 0 no fault, 1 a fault, 2 bad usage.
"""

import argparse
import json
import os
import random
import shlex
import sys
import tempfile
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
if __name__ == "__main__":  # typed as python tools/fuzz.py: the project's .venv
    from tools import useenv

    useenv.reexec("adafruit_blinka")

import tools.shims  # noqa: F401 (sets BLINKA_OS_AGNOSTIC before anything imports board)
from pisti_core import GAMES, PLAYERS
from tools.simlib.headless import Headless, ScriptDriver
from tools.simlib.session import IDLE_MS, WAIT_MS, Console, Session, SimDone

PROFILES = ("pico", "featherwing")
LEVELS = ("acemi", "kalfa", "usta")
MODES = tuple((GAMES[g], n) for g in range(len(GAMES)) for n in PLAYERS[g])  # (P-1, Y-1)
# Physical buttons and how often each is pressed.
KEYS = {"pico": (("A", 30), ("UP", 11), ("DOWN", 15), ("LEFT", 13), ("RIGHT", 15), ("B", 10)),
        "featherwing": (("B", 40), ("A", 27), ("C", 27))}
# At a table and its end screens more plays, fewer trips to the pause menu
# (so that matches reach their end).
TABLE_KEYS = {"pico": (("A", 44), ("UP", 9), ("DOWN", 4), ("LEFT", 17), ("RIGHT", 17), ("B", 3)),
              "featherwing": (("B", 50), ("A", 22), ("C", 22))}
TABLE_SCREENS = ("table", "hand_end", "match_end")
CHAIN_PRESSES = (150, 900)  # presses a chain (one nvm)
BOOT_PRESSES = (20, 400)  # presses a boot at most
MAX_MS = 4 * 3600 * 1000  # virtual time a boot at most (a hang is a fault)


class Fault(SimDone):
    """An invariant failed (raised inside the device's sleep, ends the boot)."""


def deck_size(game, players):
    """P-1: Pişti one deck; Y-1: Pis Yedili one deck for 2, two for 3 and 4."""
    return 52 if game == "pisti" or players == 2 else 104


class Boot:
    """One boot of the firmware: its settings, its key steps, its power cut."""

    def __init__(self, profile, seed, start=None, rated=False, target=None, lang=None, delay=None,
                 wait=WAIT_MS, timer=None, cut=None, presses=100, steps=None):
        self.profile = profile
        self.seed = seed
        self.start = start
        self.rated = rated
        self.target = target
        self.lang = lang
        self.delay = delay
        self.wait = wait
        self.timer = timer
        self.cut = cut
        self.presses = presses
        self.steps = list(steps or [])  # (name, hold ms) as tools.simlib.script.parse_keys gives them

    def overrides(self):
        """The settings tools/sim.py would write for these options."""
        out = {"PISTI_SEED": self.seed}
        if self.start:
            out["PISTI_START"] = self.start
            if self.rated:
                out["PISTI_RATED"] = 1
            if self.target:
                out["PISTI_TARGET"] = self.target
        if self.lang:
            out["PISTI_LANG"] = self.lang
        if self.delay is not None:
            out["PISTI_DELAY"] = self.delay
        if self.timer is not None:
            out["PISTI_TIMER"] = self.timer
        return out

    def keys_text(self):
        """The steps as a --keys script."""
        out = []
        for name, hold in self.steps:
            out.append(name if hold in (0, 60) else "%s:%d" % (name, hold))
        return ",".join(out)

    def argv(self, nvm, status=False):
        """tools/sim.py arguments that play this boot exactly."""
        a = ["--headless", "--profile", self.profile, "--nvm", nvm, "--seed", str(self.seed)]
        if self.start:
            a += ["--start", self.start]
            if self.rated:
                a.append("--rated")
            if self.target:
                a += ["--target", str(self.target)]
        if self.lang:
            a += ["--lang", self.lang]
        if self.delay is not None:
            a += ["--set", "PISTI_DELAY=%d" % self.delay]
        if self.timer is not None:
            a += ["--set", "PISTI_TIMER=%d" % self.timer]
        if self.wait != WAIT_MS:
            a += ["--wait", str(self.wait)]
        a += ["--max-ms", str(MAX_MS)]
        if self.cut is not None:
            a += ["--power-cut-after-bytes", str(self.cut)]
        a += ["--keys", self.keys_text()]
        if status:
            a.append("--status")
        return a

    def as_dict(self):
        d = dict(self.__dict__)
        d["steps"] = [list(s) for s in self.steps]
        return d

    @classmethod
    def from_dict(cls, d):
        d = dict(d)
        d["steps"] = [tuple(s) for s in d.get("steps", ())]
        return cls(**d)


def random_boot(rng, profile):
    """Settings for one boot, at random."""
    b = Boot(profile, rng.randrange(1 << 30))
    if rng.random() < 0.4:
        game, players = rng.choice(MODES)
        if rng.random() < 0.5:
            levels = rng.choice(LEVELS)
        else:
            levels = ",".join(rng.choice(LEVELS) for _ in range(players - 1))
        b.start = "%s:%d:%s" % (game, players, levels)
        b.rated = rng.random() < 0.5
        if game == "pisti" and rng.random() < 0.5:
            b.target = rng.choice((101, 151))
    if rng.random() < 0.25:
        b.lang = rng.choice(("en", "tr"))
    b.delay = rng.choice((None, 0, 0, 40, 150, 400))
    b.wait = rng.choice((WAIT_MS, WAIT_MS, WAIT_MS, 700, 90))
    if rng.random() < 0.2:
        b.timer = 30
    b.presses = rng.randrange(*BOOT_PRESSES)
    if rng.random() < 0.6:
        b.cut = int(rng.expovariate(1 / 400.0))
    return b


def random_step(rng, profile, screen=None):
    """One step: mostly a tap; long presses, bursts and, rarely, a very long hold."""
    keys = TABLE_KEYS[profile] if screen in TABLE_SCREENS else KEYS[profile]
    names = [k for k, _ in keys]
    weights = [w for _, w in keys]
    r = rng.random()
    if screen in TABLE_SCREENS and r < 0.16:
        r = 0.5 + r  # fewer bursts and long presses at the table
    if r < 0.06:
        return ("+".join(rng.choices(names, weights, k=rng.randrange(2, 7))), 0)
    name = rng.choices(names, weights)[0]
    if r < 0.16:
        return (name, rng.randrange(450, 1600))
    if r < 0.162:
        return (name, rng.randrange(20000, 40000))  # a rated game's timer (30 s) may run out
    return (name, 60)


def position(app):
    """The game in play as the saves must hold it: (header, actions taken and
    decided); None without a game or after its end."""
    s = getattr(app, "session", None)
    if s is None or s.match.over or s.match.hand is None:
        return None
    acts = bytes(s.match.hand.actions)
    acts += bytes(app.play.queue)  # saved actions still to be shown
    return (bytes(s.header()), acts)


def _restore(header, actions, below):
    """The position a saved header + actions restores to (as the device would)."""
    from pisti_app.match import session_io

    state = random.getstate()  # the checks must not move the firmware's random
    try:
        s = session_io.restore(header, actions, below)
    finally:
        random.setstate(state)
    return (bytes(s.header()), bytes(s.match.hand.actions))


def decode_nvm(data, below):
    """(store state, saved position or None) of an nvm image."""
    from pisti_core.nvlog import Store

    st = Store(bytearray(data), 0, bytearray(len(data)))
    state = st.load()
    if st.game_header is None:
        return state, None
    return state, _restore(st.game_header, st.game_actions, below)


def _short(pos):
    if pos is None:
        return "no game"
    return "header %s, %d actions %s" % (pos[0].hex(), len(pos[1]), pos[1].hex())


class Chain:
    """What the checks remember across the boots of one nvm."""

    def __init__(self):
        self.last = None  # position at the last frame drawn with a game on
        self.cut_pos = []  # positions a cut may leave: the last saved, the one being written
        self.before = None  # the nvm before the saves call in progress
        self.cut = False  # the last boot ended with a power cut
        self.writing = None  # (kind, data) of the saves call in progress
        self.erasing = False  # the nvm write in progress erases the sector (a compaction)
        self.cut_write = None  # writing and erasing when the power was cut
        self.cut_erase = False


class FuzzDriver(ScriptDriver):
    """The key-script driver of tools/sim.py, its steps made up as it goes
    (or given, to replay), the checks run before every press."""

    def __init__(self, fuzzer, boot, rng, replay):
        super().__init__(list(boot.steps) if replay else [], wait_ms=boot.wait, idle_ms=IDLE_MS)
        self.fuzzer = fuzzer
        self.boot = boot
        self.rng = rng
        self.replay = replay

    def update(self, session, now):
        if self.holding is None:
            if not self.ready(session, now):
                return
            self.fuzzer.check(session)
            if self.index >= len(self.steps):
                if self.replay or self.index >= self.boot.presses or self.fuzzer.left() <= 0:
                    raise SimDone("boot done")
                self.steps.append(random_step(self.rng, self.boot.profile, self.fuzzer.screen))
                self.boot.steps = self.steps
                self.fuzzer.pressed(self.boot.profile)
        super().update(session, now)


class Fuzzer:
    """Runs chains of boots and checks the invariants."""

    def __init__(self, seed, presses, profiles=PROFILES, log=None, nvm_dir=None):
        self.seed = seed
        self.unhook = []
        self.screen = None  # at the last check
        self.per_profile = {}
        self.langs = {}  # checks in each language
        self.presses = presses
        self.profiles = tuple(profiles)
        self.log = log
        self.nvm_dir = nvm_dir
        self.done = 0
        self.screens = {}
        self.modes = set()  # (game, players, level, rated) seen at a table
        self.boots = 0
        self.cuts = 0
        self.resumes = 0
        self.checks = 0
        self.fault = None  # dict
        self.chain = None
        self.session = None
        self.session_ref = None  # (the App's session object, totals, hand) seen last
        self.nvm_writes = None
        self.chains_run = []  # indexes of the chains played, in the order of plan()

    def left(self):
        return self.presses - self.done

    def pressed(self, profile):
        self.done += 1
        self.per_profile[profile] = self.per_profile.get(profile, 0) + 1

    # -- the checks ---------------------------------------------------------------
    def fail(self, what):
        raise Fault(what)

    def check(self, session):
        """Every invariant, at a settled screen (before the next press)."""
        app = session.app
        if app is None:
            return  # still booting (a key now is pressed as tools/sim.py would)
        self.checks += 1
        st = app.status(rankings=False)
        for key in ("screen", "game", "players", "hand", "ply", "totals", "rated", "nvm"):
            if key not in st:
                self.fail("status() has no %r" % key)
        name = self.screen = st["screen"]
        if name == "rules" and "pages" in st:
            name = "rules_text"  # the rules pages, not the rules menu
        elif name == "confirm" and st.get("menu") is None and app.stack[0].name == "table":
            name = "confirm_at_table"  # leave a rated game, time up
        self.screens[name] = self.screens.get(name, 0) + 1
        self.langs[st["lang"]] = self.langs.get(st["lang"], 0) + 1
        # the screen is drawn
        oled = session.rig.oled
        if not oled.display_on or oled.ram.count(0) == len(oled.ram):
            self.fail("the screen is dark on %r" % name)
        if app.display.root_group is not app.stack[-1].group:
            self.fail("the display does not show the top screen %r" % name)
        if app.dirty:
            self.fail("a change on %r was not drawn" % name)
        self._check_cards(st)
        self._check_scores(app, st)
        self._check_saves(session, app, st)

    def _check_cards(self, st):
        cards = st.get("cards")
        game, players = st["game"], st["players"]
        if game is None:
            return
        if st["screen"] == "table":
            self.modes.add((game, players, st["level"], bool(st["rated"])))
        if cards is None:
            return
        total = cards["hands"] + cards["pile"] + cards["stock"] + cards["taken"]
        want = deck_size(game, players)
        if total != want:
            self.fail("cards do not add up to the deck of %d: %r (screen %s)" % (want, cards, st["screen"]))
        if st["screen"] == "table":
            if sum(st["counts"]) != cards["hands"] or st["stock"] != cards["stock"]:
                self.fail("the table shows %r cards in hands and %r in the stock, the hand has %r"
                          % (st["counts"], st["stock"], cards))
            if game == "pisti" and st["pile_size"] != cards["pile"]:
                self.fail("the table's pile has %r cards, the hand %r" % (st["pile_size"], cards["pile"]))
            if len(st["your_hand"]) != st["counts"][0]:
                self.fail("your hand shows %d cards, the count is %d" % (len(st["your_hand"]), st["counts"][0]))

    def _check_scores(self, app, st):
        s = app.session
        if s is None or st["totals"] is None:
            return
        ref = self.session_ref
        if ref is not None and ref[0] is s:
            old, hand = ref[1], ref[2]
            if len(old) != len(st["totals"]) or any(a < b for a, b in zip(st["totals"], old, strict=True)):
                self.fail("the totals went from %r down to %r within a match" % (old, st["totals"]))
            if st["hand"] < hand:
                self.fail("the hand number went from %d back to %d" % (hand, st["hand"]))
        self.session_ref = (s, list(st["totals"]), st["hand"])

    def _check_saves(self, session, app, st):
        nvm = session.rig.nvm
        state = st["nvm"]["state"]
        if state not in ("ok", "recovered", "reset"):
            self.fail("unknown nvm state %r" % (state,))
        pos = position(app)
        key = (nvm.writes, pos, app.kept is None)
        if key == self.nvm_writes:
            return
        self.nvm_writes = key
        try:
            saved = decode_nvm(nvm.snapshot(), app.below)[1]
        except Exception as exc:
            self.fail("the saved state does not decode: %s: %s" % (type(exc).__name__, exc))
        # (a demo is never saved: the kept game stays)
        if app.session is not None and getattr(app, "demo", None) is None:
            if saved != pos:
                self.fail("the nvm holds %s, the game in play is %s" % (_short(saved), _short(pos)))
        elif (saved is None) != (app.kept is None):
            self.fail("the nvm holds %s but the menus %s a game to Continue"
                      % (_short(saved), "offer" if app.kept is not None else "offer no"))

    def on_frame(self, session):
        app = session.app
        if app is None or not getattr(app, "stack", None):
            return
        if app.session is not None and getattr(app, "demo", None) is None:
            self.chain.last = position(app)
            self.chain.cut_pos = []  # shown again: a cut before no longer matters
        elif app.kept is None:
            self.chain.last = None  # no game on, none kept

    def on_resume(self, app):
        """After Continue (or --start) took the kept game back (T-6)."""
        self.resumes += 1
        pos = position(app)
        ch = self.chain
        if pos != ch.last and pos not in ch.cut_pos:
            self.fail("the game resumed at %s; last shown %s%s%s" % (
                _short(pos), _short(ch.last),
                ", at the cut %s" % " or ".join(_short(p) for p in ch.cut_pos) if ch.cut_pos else "",
                " (the power was cut in the saves' %r%s)" % (ch.cut_write[0], ", erasing" if ch.cut_erase else "")
                if ch.cut_write else " (the power was cut outside the saves' calls)"))

    def after_boot(self, session):
        """A boot ended by a power cut: what the next boot may resume. A
        save that completed after the last refresh counts (saved before
        shown), and so does the one being written at the cut, complete."""
        ch = self.chain
        app = session.app
        ch.cut_pos = []
        w = ch.cut_write = ch.writing
        ch.cut_erase = ch.erasing
        if w is None:
            return
        kind, data = w
        below = getattr(app, "below", None)
        before = decode_nvm(ch.before, below)[1]
        ch.cut_pos.append(before)
        if kind == "add" and before is not None:
            try:
                ch.cut_pos.append(_restore(before[0], before[1] + bytes(data), below))
            except ValueError:
                pass
        elif kind == "start":
            ch.cut_pos.append((bytes(data), b""))
        elif kind == "stats" and data is not None:
            ch.cut_pos.append(_restore(data[0], data[1], below))  # the game as saved when the statistics were

    def first_check(self, session):
        """At the first tick of a boot after a cut: the game is still kept."""
        ch = self.chain
        app = session.app
        if not ch.cut or ch.last is None:
            return
        kept = app.kept is not None or app.session is not None
        if not kept:
            last, ch.last = ch.last, None  # gone: judged once
        if ch.cut_erase or (ch.cut_write is not None and ch.cut_write[0] in ("end", "rank", "kept")):
            return  # a cut compaction may lose the game; an ending game may end
        if not kept:
            self.fail("the game in progress (%s) was lost in a power cut outside any nvm write"
                      % _short(last))

    # -- running ------------------------------------------------------------------
    def plan(self):
        """The run's chains in order: (index, profile, chain seed, presses).
        A chain's presses are its budget (the first draw of its seed), the
        last one's cut to what is left of ``presses``."""
        rng = random.Random(self.seed)
        chains = []
        left = self.presses
        index = 0
        while left > 0:
            chain_seed = rng.randrange(1 << 30)
            n = min(random.Random(chain_seed).randrange(*CHAIN_PRESSES), left)
            chains.append((index, self.profiles[index % len(self.profiles)], chain_seed, n))
            left -= n
            index += 1
        return chains

    def share(self, part, parts):
        """The chains of part ``part`` (0 .. parts - 1) of the run: each chain
        goes, in order, to the part with the fewest presses so far, so the
        parts together play every chain of the whole run once."""
        load = [0] * parts
        mine = []
        for chain in self.plan():
            k = load.index(min(load))
            load[k] += chain[3]
            if k == part:
                mine.append(chain)
        return mine

    def run(self, part=0, parts=1):
        """Chains until the presses are done or a fault; returns the fault or
        None. With ``parts`` > 1 only this part's share of the chains
        (:meth:`share`), and ``presses`` becomes the share's."""
        chains = self.plan() if parts == 1 else self.share(part, parts)
        self.presses = sum(c[3] for c in chains)
        started = time.time()
        for index, profile, chain_seed, n in chains:
            if self.fault is not None:
                break
            self.chains_run.append(index)
            self.run_chain(profile, chain_seed, index, cap=n)
            if self.log is not None:
                self.log.write("\rfuzz: %d presses, %d boots, %.0f presses/s  "
                               % (self.done, self.boots, self.done / max(1e-9, time.time() - started)))
                self.log.flush()
        if self.log is not None:
            self.log.write("\n")
        return self.fault

    def run_chain(self, profile, chain_seed, index, boots=None, cap=None):
        """One nvm, boots until its presses (at most ``cap``) are spent, or the given ``boots``."""
        rng = random.Random(chain_seed)
        self.chain = Chain()
        self.session_ref = None
        budget = rng.randrange(*CHAIN_PRESSES)
        if cap is not None:
            budget = min(budget, cap)
        start = self.done
        done = []
        tmp = tempfile.mkdtemp(prefix="pisti-fuzz-", dir=self.nvm_dir)
        nvm = os.path.join(tmp, "fuzz.nvm")
        try:
            k = 0
            while True:
                if boots is not None:
                    if k >= len(boots):
                        break
                    boot = boots[k]
                else:
                    if self.done - start >= budget or self.done >= self.presses:
                        break
                    boot = random_boot(rng, profile)
                    boot.presses = min(boot.presses, budget - (self.done - start))
                k += 1
                done.append(boot)
                fault = self.run_boot(boot, nvm, random.Random(rng.randrange(1 << 30)), boots is not None)
                if fault is not None:
                    self.fault = {"fault": fault, "seed": self.seed, "chain": index, "chain_seed": chain_seed,
                                  "profile": profile, "boots": [b.as_dict() for b in done]}
                    return self.fault
        finally:
            for name in os.listdir(tmp):
                os.remove(os.path.join(tmp, name))
            os.rmdir(tmp)
        return None

    def run_boot(self, boot, nvm, rng, replay):
        """One boot; returns a fault text or None."""
        self.boots += 1
        self.nvm_writes = None
        console = Console(echo=None)
        session = Session(profile=boot.profile, overrides=boot.overrides(), nvm_path=nvm, max_ms=MAX_MS,
                          console=console, log=console, power_cut=boot.cut)
        driver = FuzzDriver(self, boot, rng, replay)
        fuzzer = self
        first = []

        class Front(Headless):
            def start(self, sess):
                _hook(fuzzer, sess)

            def stop(self, sess):
                while fuzzer.unhook:
                    fuzzer.unhook.pop()()

            def update(self, sess, now):
                if not first and sess.app is not None:
                    first.append(1)
                    fuzzer.first_check(sess)
                super().update(sess, now)

        with session:
            outcome = session.boot(Front(driver))
            ch = self.chain
            if outcome == "crashed":
                return "the firmware raised %s" % session.error.strip()
            if isinstance(outcome, Fault):
                return str(outcome)
            if outcome == "returned":
                return "code.py ended"
            if outcome == "power_cut":
                self.cuts += 1
                self.after_boot(session)
                ch.cut = True
            else:
                if type(outcome).__name__ == "SimLimit":
                    return "the boot ran %d ms of virtual time without settling" % MAX_MS
                ch.cut = False
                ch.writing = None
        return None

    def summary(self):
        return {"presses": self.done, "per_profile": dict(sorted(self.per_profile.items())), "boots": self.boots,
                "power_cuts": self.cuts, "resumes": self.resumes, "checks": self.checks,
                "langs": dict(sorted(self.langs.items())), "screens": dict(sorted(self.screens.items())),
                "modes": len(self.modes), "faults": 0 if self.fault is None else 1, "chains": list(self.chains_run),
                "tables": sorted("%s:%d:%s:%s" % (g, n, lv, "rated" if r else "practice")
                                 for g, n, lv, r in self.modes)}


def _hook(fuzzer, session):
    """Instrument this boot's firmware (frames, saves calls, Continue)."""
    import busdisplay

    cls = busdisplay.BusDisplay
    real = cls.__dict__["refresh"]
    fuzzer.unhook.append(lambda: setattr(cls, "refresh", real))

    def refresh(display, *args, **kwargs):
        """The firmware's display refresh: the game position is shown now
        (every refresh is drawn: the settle timing of tools/sim.py, and so
        the reproduction, depends on the frames)."""
        out = real(display, *args, **kwargs)
        if threading.get_ident() == session.rig.device_thread:  # not Blinka's auto-refresh thread
            fuzzer.on_frame(session)
        return out

    cls.refresh = refresh
    from pisti_app import app as app_mod
    from pisti_app.match import leaving, saves

    ch = fuzzer.chain
    ch.writing = None
    ch.erasing = False
    nv = session.rig.nvm
    write = nv._write

    def flash_write(start, data):
        ch.erasing = nv.snapshot()[start:start + len(data)] != b"\xff" * len(data)
        return write(start, data)

    nv._write = flash_write

    def wrap(kind, fn, arg, outer=False):
        def call(self, *args):
            if outer and ch.writing is not None:  # inside a save call already: part of it
                return fn(self, *args)
            ch.before = nv.snapshot()
            ch.writing = (kind, arg(args))
            out = fn(self, *args)
            ch.writing = None
            return out
        return call

    saves.Saves.write_ranking = wrap("rank", saves.Saves.write_ranking, lambda a: None)
    saves.Saves.write_prefs = wrap("prefs", saves.Saves.write_prefs, lambda a: None)
    saves.Saves.kept = wrap("kept", saves.Saves.kept, lambda a: None)  # may close a recorded game
    saves.Saves.add = wrap("add", saves.Saves.add, lambda a: bytes(a[0]))
    saves.Saves.start = wrap("start", saves.Saves.start, lambda a: a[0].header())
    saves.Saves.end = wrap("end", saves.Saves.end, lambda a: None)
    from pisti_core import nvlog
    # (the statistics, pisti_app.match.stats: written at a hand's end, before its last card is shown)
    real_stats = nvlog.Store.put_stats

    def put_stats(self, data):
        ch.before = nv.snapshot()
        ch.writing = ("stats", (bytes(self.game_header), bytes(self.game_actions)) if self.game_header else None)
        out = real_stats(self, data)
        ch.writing = None
        return out

    nvlog.Store.put_stats = put_stats  # (this module stays loaded from boot to boot: put back below)
    fuzzer.unhook.append(lambda: setattr(nvlog.Store, "put_stats", real_stats))
    # (a compaction of its own: at boot, or when a match starts, with less
    # than the reserve free; it rewrites what the saves hold)
    # (inside a save call, as a match's first deal, it is part of that call)
    real_compact = nvlog.Store.compact
    nvlog.Store.compact = wrap("compact", real_compact, lambda a: None, outer=True)
    fuzzer.unhook.append(lambda: setattr(nvlog.Store, "compact", real_compact))
    cont = app_mod.App.continue_game

    def continue_game(app, boot=False):
        cont(app, boot)
        if app.session is not None:
            fuzzer.on_resume(app)

    app_mod.App.continue_game = continue_game
    leave = leaving.leave

    def leave_game(match):
        if not match.session.rated:
            ch.last = position(match.app)  # what Continue must bring back (keys of this tick included)
        leave(match)

    leaving.leave = leave_game


def reproduce_text(fault, nvm="fuzz.nvm"):
    """The fault's boots as shell commands."""
    lines = ["rm -f %s" % nvm]
    boots = [Boot.from_dict(b) for b in fault["boots"]]
    for i, b in enumerate(boots):
        argv = b.argv(nvm, status=i == len(boots) - 1)
        lines.append("python tools/sim.py " + " ".join(shlex.quote(a) for a in argv))
    return "\n".join(lines)


def main(argv=None, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    p = argparse.ArgumentParser(prog="fuzz.py", description="Button-mash fuzzing of the firmware (headless simulator).")
    p.add_argument("--presses", type=int, default=2000, help="presses in all (%(default)s)")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (%(default)s)")
    p.add_argument("--profile", choices=PROFILES + ("both",), default="both", help="board profile (%(default)s)")
    p.add_argument("--replay", metavar="FAULT.json", help="play a fault's boots again, with the checks")
    p.add_argument("--fault-file", default=os.path.join(tempfile.gettempdir(), "pisti-fuzz-fault.json"), metavar="PATH",
                   help="where a fault's boots are written (%(default)s)")
    p.add_argument("--part", metavar="K/N", help="play only the K-th of N shares of the run's chains "
                   "(K = 1 .. N; the N parts together play exactly the whole run's chains, e.g. side by side)")
    p.add_argument("--json", action="store_true", help="the summary as one JSON line")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    opts = p.parse_args(argv)
    if opts.presses < 1:
        err.write("fuzz.py: --presses must be positive\n")
        return 2
    part, parts = 0, 1
    if opts.part:
        try:
            k, n = (int(x) for x in opts.part.split("/"))
        except ValueError:
            k = n = 0
        if not 1 <= k <= n:
            err.write("fuzz.py: --part wants K/N with 1 <= K <= N (e.g. 1/3), not %r\n" % opts.part)
            return 2
        part, parts = k - 1, n
    profiles = PROFILES if opts.profile == "both" else (opts.profile,)
    fz = Fuzzer(opts.seed, opts.presses, profiles, log=None if opts.quiet else err)
    t0 = time.time()
    if opts.replay:
        with open(opts.replay, encoding="utf-8") as f:
            saved = json.load(f)
        fz.presses = 0
        fz.seed = saved["seed"]
        fz.run_chain(saved["profile"], saved["chain_seed"], saved["chain"],
                     boots=[Boot.from_dict(b) for b in saved["boots"]])
        fz.done = sum(len(b["steps"]) for b in saved["boots"])
    else:
        fz.run(part, parts)
    secs = time.time() - t0
    summary = fz.summary()
    summary["seconds"] = round(secs, 1)
    summary["presses_per_s"] = round(fz.done / max(secs, 1e-9), 1)
    if opts.json:
        out.write(json.dumps(summary, sort_keys=True) + "\n")
    else:
        out.write("presses: %d (%.0f/s, %.1f s)\n" % (fz.done, summary["presses_per_s"], secs))
        out.write("boots: %d, power cuts: %d, resumes checked: %d, modes at a table: %d\n"
                  % (fz.boots, fz.cuts, fz.resumes, len(fz.modes)))
        out.write("screens visited: %d: %s\n" % (len(fz.screens), ", ".join(
            "%s %d" % kv for kv in sorted(fz.screens.items()))))
        out.write("checks by language: %s\n" % ", ".join("%s %d" % kv for kv in sorted(fz.langs.items())))
        out.write("faults: %d\n" % summary["faults"])
    if fz.fault is not None:
        f = fz.fault
        out.write("FAULT: %s\n" % f["fault"])
        out.write("seed %d, profile %s, chain %d (chain seed %d), %d boots, %d keys\n"
                  % (f["seed"], f["profile"], f["chain"], f["chain_seed"], len(f["boots"]),
                     sum(len(b["steps"]) for b in f["boots"])))
        if not opts.replay:
            with open(opts.fault_file, "w", encoding="utf-8") as fh:
                json.dump(f, fh)
            out.write("with the checks: python tools/fuzz.py --replay %s\n" % opts.fault_file)
        out.write("the same keys in the simulator (one nvm file, in order):\n")
        out.write(reproduce_text(f) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
