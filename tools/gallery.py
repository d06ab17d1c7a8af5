#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The golden screenshots and the README's gallery: one list of scenes.

A scene is a headless run of the firmware in the simulator (``tools/sim.py``
arguments, a board profile) and the screen it must end on. Its picture is a
golden file that the tests compare pixel for pixel with a fresh run
(tests/test_gallery.py): scenes with a caption are the README's thumbnails
(2x, ``tests/golden/gallery/NAME.png``), the others are 4x checks
(``tests/golden/NAME.png``). ``HAND`` is recorded whole as an animated GIF
(2x, two colours, only the frames that change).

    python tools/gallery.py            # make every picture that changed, the GIF and the README table
    python tools/gallery.py --check    # change nothing: list what differs (exit 1 if anything does)
    python tools/gallery.py splash rankings   # only these scenes

The pictures are written only when their pixels change (1-bit PNGs, mode
"1", optimized), so running it again leaves the tree as it is.
"""

import argparse
import io
import json
import os
import sys
import tempfile
from collections import namedtuple

_HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(_HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
if __name__ == "__main__":  # typed as python tools/gallery.py: the project's .venv
    from tools import useenv

    useenv.reexec("PIL", "adafruit_blinka")

from PIL import Image

GOLDEN = os.path.join(ROOT, "tests", "golden")
GALLERY = os.path.join(GOLDEN, "gallery")
README = os.path.join(ROOT, "README.md")
COMMAND = "python tools/gallery.py"
THUMB = 2  # the README's scale
CHECK = 4  # the other goldens' scale
SIZES = {"pico": (128, 64), "featherwing": (128, 32)}

# name, board profile, tools/sim.py arguments, what app.status() must show at
# the end (the screen at least: a key script that no longer gets there fails
# before any picture is compared), the README caption (None: not shown there).
Scene = namedtuple("Scene", "name profile args expect caption")


def _s(name, args, screen, caption=None, profile="pico", **fields):
    fields["screen"] = screen
    return Scene(name, profile, tuple(args), fields, caption)


_P2 = ("--start", "pisti:2:usta", "--seed", "7")
_MATCH = _P2 + ("--target", "101", "--keys", "A*125")  # A plays the card under the cursor; 125 keys to the end
_Y4 = ("--start", "yedili:4:usta", "--seed", "17", "--keys",
       "RIGHT,A,LEFT,A,RIGHT,A,A,UP,A,LEFT,LEFT,LEFT,A,A,RIGHT,RIGHT,A,LEFT,A,A,UP,A,A,UP,A,UP,A,UP,A,A,A,LEFT,A")
_Y3 = ("--start", "yedili:3:usta", "--seed", "4", "--keys", "RIGHT,A,RIGHT,A,A,RIGHT,A,A,A,UP,A,A,A,LEFT,A,A")
_FW = "featherwing"
# Play the card under the cursor, else draw and pass, until the stock runs out (Y-13).
_STOCK_OUT = ("--start", "yedili:2:acemi", "--seed", "11", "--keys", ",".join(["A,UP,A,DOWN"] * 34 + ["A"]))

SCENES = (
    # -- the README's gallery, in its order (three a row) ----------------------------------
    _s("splash", ["--seed", "1", "--wait", "300"], "splash", "Splash"),
    _s("main_menu", ["--seed", "1", "--keys", "A"], "menu", "Main menu"),
    _s("new_game_menu", ["--seed", "1", "--keys", "A,A"], "new_game", "New game"),
    _s("pisti_table", _P2 + ("--keys", "A*9"), "table", "Pişti, 2 players: the third of six deals (P-10)",
       game="pisti"),
    _s("pisti4_table", ("--start", "pisti:4:usta", "--seed", "7", "--keys", "A*5"), "table",
       "Pişti, 4 players in two teams (P-1)", players=4),
    _s("yedili_table", ["--start", "yedili:4:kalfa", "--seed", "7", "--keys", "RIGHT"], "table",
       "Pis Yedili, 4 players: the opening round (Y-3)", phase="opening"),
    _s("yedili_seven", ("--start", "yedili:2:usta", "--seed", "7", "--keys", "A,A,RIGHT,RIGHT,A,A"), "table",
       "Pis Yedili: a 7 on a 7, draw 6 or play a 7 (Y-6)", pending=6, turn=0),
    _s("yedili_jack", ("--start", "yedili:3:usta", "--seed", "5", "--keys", "A,RIGHT,RIGHT,RIGHT,RIGHT,A"), "table",
       "A Jack: name the suit (Y-7)", focus="suit"),
    _s("pisti_hand_end", _P2 + ("--keys", "A*24"), "hand_end", "Pişti: the hand's score (P-12)"),
    _s("yedili_hand_end", _Y4, "hand_end", "Pis Yedili: penalties and Muamele (Y-14, Y-15)"),
    _s("yedili_stock_out", _STOCK_OUT, "hand_end"),  # Y-13: a title that fits, a header a column
    _s("pisti_match_end", _MATCH, "match_end", "Match end (P-13)"),
    _s("rankings", _P2 + ("--target", "101", "--rated", "--keys", "A*125,B,DOWN,A"), "rankings",
       "Rankings after a rated match (T-2)"),
    _s("stats", _P2 + ("--target", "101", "--rated", "--keys", "A*125,B,DOWN,A,RIGHT"), "rankings",
       "Statistics beside the rankings", page=1),
    _s("battery", ["--seed", "1", "--battery", "3900", "--keys", "A"], "menu",
       "On battery power: the mark in the title bar", battery={"mv": 3899, "mark": "battery"}),
    _s("leave_rated", _P2 + ("--rated", "--keys", "B,DOWN*4,A"), "confirm",
       "Leaving a rated game names the cost (T-4)"),
    _s("rules_pisti", ["--seed", "1", "--keys", "A,DOWN*3,A,A"], "rules", "Rules: Pişti"),
    _s("rules_yedili", ["--seed", "1", "--keys", "A,DOWN*3,A,DOWN,A"], "rules", "Rules: Pis Yedili"),
    _s("tr_main_menu", ["--seed", "1", "--lang", "tr", "--keys", "A"], "menu", "Türkçe: ana menü", lang="tr"),
    _s("tr_pisti_table", _P2 + ("--lang", "tr", "--keys", "A*9"), "table", "Türkçe: Pişti masası", lang="tr"),
    _s("tr_yedili_hand_end", _Y3 + ("--lang", "tr"), "hand_end", "Türkçe: Pis Yedili el sonu", lang="tr"),
    _s("fw_main_menu", ["--seed", "1", "--keys", "B"], "menu", "FeatherWing 128x32: menu", _FW),
    _s("fw_pisti2", ["--start", "pisti:2:usta", "--seed", "7", "--keys", "C"], "table",
       "FeatherWing: Pişti table", _FW),
    _s("fw_hand_end", _P2 + ("--keys", "B*24"), "hand_end", "FeatherWing: hand end", _FW),
    # The demo: 30 s alone at the main menu, or Watch; the DEMO banner in the top bar.
    _s("demo", ["--seed", "1", "--keys", "WAIT:36000"], "table",
       "The demo: bots play by themselves (Watch, or 30 s alone at the menu)", demo=True),
    _s("fw_demo", ["--seed", "1", "--keys", "WAIT:36000"], "table", "FeatherWing: the demo", _FW, demo=True),
    # -- more 128x32 checks (tests/golden/fw_*.png) --------------------------------------------
    _s("fw_splash", ["--seed", "1", "--wait", "300"], "splash", profile=_FW),
    _s("fw_new_game", ["--seed", "1", "--keys", "B,B,C"], "new_game", profile=_FW,
       cursor="mode"),  # the mode on the first screen, practice by default (T-1)
    _s("fw_settings", ["--seed", "1", "--keys", "B,C,C,B"], "settings", profile=_FW),
    _s("fw_settings_tr", ["--seed", "1", "--keys", "B,C,C,B,B,C"], "settings", profile=_FW,
       editing=True, lang="tr"),  # B edits a value, C changes it
    # Settings' last rows: Brightness and Screen sleep.
    _s("settings_display", ["--seed", "1", "--keys", "A,DOWN*2,A,DOWN*6"], "settings"),
    _s("fw_settings_display_tr", ["--seed", "1", "--lang", "tr", "--keys", "B,C,C,B,C*6"], "settings",
       profile=_FW, lang="tr"),
    _s("fw_rankings", ["--seed", "1", "--keys", "B,C,B"], "rankings", profile=_FW),
    _s("fw_rules", ["--seed", "1", "--keys", "B,C*3,B,B,C"], "rules", profile=_FW),
    # Statistics: the Turkish Pişti page after a match, and the Pis Yedili page.
    _s("fw_stats_tr", ["--start", "pisti:2:usta", "--seed", "7", "--target", "101", "--lang", "tr",
                       "--keys", "B*125,B:800,C,B,C*2"], "rankings", profile=_FW, page=1, lang="tr"),
    _s("stats_yedili", ["--seed", "1", "--keys", "A,DOWN,A,LEFT"], "rankings", page=2),
    _s("fw_battery_low", ["--seed", "1", "--set", "PISTI_BATTERY=A3,D24", "--battery", "3300", "--keys", "B"],
       "menu", profile=_FW, battery={"mv": 3299, "mark": "low"}),
    # A bad settings.toml value: its default, and the splash names it.
    _s("splash_notice", ["--seed", "1", "--set", "PISTI_TIMER=-5", "--set", "PISTI_LANG=xx", "--wait", "300"],
       "splash", notices=["PISTI_LANG=xx ignored", "PISTI_TIMER=-5 ignored"], notice=0),
    _s("fw_splash_notice", ["--seed", "1", "--set", "PISTI_DISPLAY_ROTATION=90", "--wait", "300"], "splash",
       profile=_FW, notices=["Bad DISPLAY_ROTATION=90"]),
    _s("fw_about", ["--seed", "1", "--keys", "B,C*4,B"], "about", profile=_FW),
    _s("fw_pisti4", ["--start", "pisti:4:usta", "--seed", "7"], "table", profile=_FW),
    _s("fw_yedili3", ["--start", "yedili:3:kalfa", "--seed", "7", "--keys", "C"], "table", profile=_FW),
    _s("fw_yedili4_scrolled", ["--start", "yedili:4:kalfa", "--seed", "7", "--keys", "C*5"], "table", profile=_FW),
    _s("fw_yedili_draw", ["--start", "yedili:2:usta", "--seed", "7", "--keys", "B,A"], "table", profile=_FW,
       phase="normal", focus="action"),  # Draw is offered only when legal (Y-3, Y-5)
    _s("fw_yedili_why_not", ["--start", "yedili:2:usta", "--seed", "7", "--keys", "C,B"], "table", profile=_FW),
    _s("fw_timer", ["--start", "yedili:2:usta", "--rated", "--seed", "7"], "table", profile=_FW),
    _s("fw_pause", ["--start", "pisti:2:usta", "--seed", "7", "--keys", "B:800"], "pause", profile=_FW),
    # Link play (L-2): the Host screen shows the game it offers (in a Pişti 4p where the two people
    # sit) and changes it; the wait says what to choose on the other console.
    _s("link_host", ["--seed", "1", "--keys", "A,DOWN*5,A,A,DOWN*2,RIGHT,DOWN*3"], "host", cursor="link_seats"),
    _s("fw_link_host_tr", ["--seed", "1", "--lang", "tr", "--keys", "B,C*5,B,B,C*4"], "host", profile=_FW,
       cursor="start", lang="tr"),
    _s("fw_link_wait", ["--seed", "1", "--keys", "B,C*5,B,B,C*4,B,C"], "link", profile=_FW, waiting="link_wait"),
    _s("fw_leave_rated", ["--start", "pisti:2:usta", "--rated", "--seed", "7", "--keys", "B:800,C*4,B"], "confirm",
       profile=_FW),
    # The demo's second mode by Watch (a key ended the first; A wraps to the last row), its
    # banner in the hand number's place; a demo's match end (its keys line says any key).
    _s("fw_demo_yedili", ["--seed", "1", "--keys", "WAIT:31000,A,A,B,WAIT:5000"], "table", profile=_FW,
       demo=True, game="yedili", players=3),
    _s("demo_match_end", ["--seed", "3", "--set", "PISTI_DELAY=400", "--keys", "WAIT:191000"], "match_end",
       demo=True),
    _s("fw_leave_rated_scrolled", ["--start", "pisti:2:usta", "--rated", "--seed", "7",
                                   "--keys", "B:800,C*4,B,C,C"], "confirm", profile=_FW),
)
BY_NAME = {scene.name: scene for scene in SCENES}

# A whole Pişti hand, 2 players against Usta, to its breakdown: the README's GIF.
HAND = _s("pisti_hand", _P2 + ("--keys", "A*24"), "hand_end", "A whole Pişti hand against Usta, as played")
HAND_PATH = os.path.join(GALLERY, HAND.name + ".gif")
MIN_MS = 300  # no frame flashes by: the help line coming back after a move is held this long
LAST_MS = 5000  # the breakdown, read before the loop starts again


class SceneError(AssertionError):
    """A scene's run failed or did not end where the scene says."""


def path_of(scene):
    """The golden file of ``scene`` and its scale."""
    if scene.caption:
        return os.path.join(GALLERY, scene.name + ".png"), THUMB
    return os.path.join(GOLDEN, scene.name + ".png"), CHECK


def argv_of(scene):
    """The tools/sim.py command line of ``scene`` (what a person would type)."""
    return ["--headless", "--profile", scene.profile] + list(scene.args)


def _run(scene, record=None):
    """Run ``scene`` in this process: (status, the last frame as a 1x "L" image)."""
    from tools import sim

    with tempfile.TemporaryDirectory() as tmp:
        shot = os.path.join(tmp, "shot.png")
        argv = argv_of(scene) + ["--status", "--shot", shot] + (["--record", record] if record else [])
        out, err = io.StringIO(), io.StringIO()
        code = sim.main(argv, out=out, err=err)
        if code != 0:
            raise SceneError("scene %s: python tools/sim.py %s exited %d: %s"
                             % (scene.name, " ".join(argv_of(scene)), code, err.getvalue().strip()[-2000:]))
        status = json.loads(out.getvalue().strip().splitlines()[-1])
        image = _one_x(Image.open(shot), SIZES[scene.profile], 4)
    wrong = {k: status.get(k) for k, v in sorted(scene.expect.items()) if status.get(k) != v}
    if wrong:
        raise SceneError("scene %s (python tools/sim.py %s) should end with %s but shows %s: the screens or "
                         "the keys changed; fix its keys in tools/gallery.py"
                         % (scene.name, " ".join(argv_of(scene)), scene.expect, wrong))
    return status, image


def _one_x(image, size, scale):
    """``image`` (``size`` times ``scale``, white on black) back at 1x, "L"."""
    image = image.convert("L")
    want = (size[0] * scale, size[1] * scale)
    if image.size != want:
        raise SceneError("a %dx%d picture where %dx%d belongs" % (image.size + want))
    return image.resize(size, Image.NEAREST)


def _bits(image, scale):
    """A 1x frame as the 1-bit picture at ``scale``."""
    big = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
    return big.point(lambda v: 255 if v else 0).convert("1", dither=Image.Dither.NONE)


def shot(scene):
    """A fresh 1x frame of ``scene`` ("L", 0 and 255)."""
    return _run(scene)[1]


def differs(scene, image):
    """None when ``image`` (1x) is the golden of ``scene``; else one sentence."""
    path, scale = path_of(scene)
    rel = os.path.relpath(path, ROOT)
    if not os.path.exists(path):
        return "%s: no golden %s; run %s to make it" % (scene.name, rel, COMMAND)
    want = Image.open(path).convert("L")
    got = _bits(image, scale).convert("L")
    if want.size != got.size:
        return "%s: %s is %dx%d, not %dx%d; run %s" % ((scene.name, rel) + want.size + got.size + (COMMAND,))
    if want.tobytes() == got.tobytes():
        return None
    pixels = sum(1 for a, b in zip(want.tobytes(), got.tobytes(), strict=False) if a != b) // (scale * scale)
    return ("%s: the screen differs from %s in %d OLED pixels (python tools/sim.py %s); if the change is "
            "meant, run %s (or the tests with PISTI_UPDATE_GOLDEN=1) and look at the pictures"
            % (scene.name, rel, pixels, " ".join(argv_of(scene)), COMMAND))


def save(scene, image):
    """Write the golden of ``scene`` from a 1x frame; True if it changed."""
    path, scale = path_of(scene)
    if os.path.exists(path) and differs(scene, image) is None and Image.open(path).mode == "1":
        return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _bits(image, scale).save(path, format="PNG", optimize=True)
    return True


# -- the GIF of a whole hand ---------------------------------------------------------------


def hand_frames():
    """A fresh run of ``HAND``: [(1x "L" frame bytes, ms)], what the GIF must hold."""
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "run.gif")
        _run(HAND, record=record)
        frames = _read_gif(record, 4)
    frames = [(data, max(MIN_MS, (ms + 5) // 10 * 10)) for data, ms in frames]
    frames[-1] = (frames[-1][0], LAST_MS)
    return frames


def _read_gif(path, scale):
    """Every frame of an animated GIF, composed, at 1x: [(bytes, ms)]."""
    size = SIZES[HAND.profile]
    out = []
    with Image.open(path) as gif:
        for index in range(gif.n_frames):
            gif.seek(index)
            out.append((_one_x(gif, size, scale).tobytes(), gif.info["duration"]))
    return out


def read_hand():
    """The committed GIF's frames, as :func:`hand_frames` returns them."""
    return _read_gif(HAND_PATH, THUMB)


def gif_image(data, size, scale=THUMB):
    """A 1x frame as a GIF frame: ``scale`` x, a palette of black and white."""
    image = Image.frombytes("L", size, data).resize((size[0] * scale, size[1] * scale), Image.NEAREST)
    image = image.point(lambda v: 1 if v else 0).convert("P")
    image.putpalette(b"\x00\x00\x00\xff\xff\xff")
    return image


def save_hand(frames):
    """Write the GIF when its frames or durations changed; True if written."""
    if os.path.exists(HAND_PATH) and read_hand() == frames:
        return False
    os.makedirs(GALLERY, exist_ok=True)
    size = SIZES[HAND.profile]
    images = [gif_image(data, size) for data, _ in frames]
    # Pillow stores each frame after the first as the rectangle that changed.
    images[0].save(HAND_PATH, format="GIF", save_all=True, append_images=images[1:], loop=0,
                   duration=[ms for _, ms in frames], optimize=True, disposal=1)
    return True


# -- the README --------------------------------------------------------------------------

BEGIN = "<!-- gallery: made by python tools/gallery.py from its SCENES; do not edit by hand -->"
END = "<!-- /gallery -->"
COLUMNS = 3


def readme_block():
    """The README's gallery: a table of the thumbnails (three a row, the 128x32
    ones in rows of their own) and the GIF, between BEGIN and END."""
    rows, row, height = [], [], None
    for scene in SCENES:
        if not scene.caption:
            continue
        if row and (len(row) == COLUMNS or SIZES[scene.profile] != height):
            rows.append(row)
            row = []
        height = SIZES[scene.profile]
        path = os.path.relpath(path_of(scene)[0], ROOT).replace(os.sep, "/")
        row.append("![%s](%s)<br>%s" % (scene.caption, path, scene.caption))
    rows.append(row)
    lines = [BEGIN, "", "|" + " |" * COLUMNS, "|" + " --- |" * COLUMNS]
    for row in rows:
        lines.append("| " + " | ".join(row + [""] * (COLUMNS - len(row))) + " |")
    gif = os.path.relpath(HAND_PATH, ROOT).replace(os.sep, "/")
    lines += ["", "![%s](%s)" % (HAND.caption, gif), "", END]
    return "\n".join(lines)


def readme_problem(text):
    """None when README.md's gallery is ``readme_block()``; else one sentence."""
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        return "README.md needs one %s ... %s block (the gallery); add the two lines, then run %s" % (
            BEGIN, END, COMMAND)
    start = text.index(BEGIN)
    stop = text.index(END, start) + len(END)
    if text[start:stop] != readme_block():
        return "README.md's gallery is not the scenes' table; run %s" % COMMAND
    return None


def update_readme():
    """Put ``readme_block()`` into README.md between its markers; True if it changed."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    if readme_problem(text) is None:
        return False
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise SystemExit(readme_problem(text))
    start = text.index(BEGIN)
    stop = text.index(END, start) + len(END)
    with open(README, "w", encoding="utf-8") as f:
        f.write(text[:start] + readme_block() + text[stop:])
    return True


# -- the command ---------------------------------------------------------------------------


def stale_files():
    """Pictures in tests/golden/gallery/ that no scene makes, and 4x goldens
    left behind by scenes that moved into the gallery."""
    keep = {os.path.basename(path_of(s)[0]) for s in SCENES if s.caption} | {os.path.basename(HAND_PATH)}
    out = [os.path.join(GOLDEN, s.name + ".png") for s in SCENES if s.caption]
    if os.path.isdir(GALLERY):
        out += [os.path.join(GALLERY, n) for n in os.listdir(GALLERY) if n not in keep]
    return sorted(p for p in out if os.path.exists(p))


def main(argv=None):
    """Make (or ``--check``) the pictures; returns the exit status."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help="only these scenes (default: all, the GIF and the README)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 when anything differs")
    opts = p.parse_args(argv)
    unknown = [n for n in opts.names if n not in BY_NAME and n != HAND.name]
    if unknown:
        p.error("no scene %s (scenes: %s)" % (", ".join(unknown), " ".join(sorted(BY_NAME) + [HAND.name])))
    everything = not opts.names
    problems, written = [], []
    for scene in SCENES:
        if everything or scene.name in opts.names:
            image = shot(scene)
            if opts.check:
                problems.append(differs(scene, image))
            elif save(scene, image):
                written.append(path_of(scene)[0])
    if everything or HAND.name in opts.names:
        frames = hand_frames()
        if opts.check:
            if not os.path.exists(HAND_PATH) or read_hand() != frames:
                problems.append("%s is not a fresh run's frames; run %s" % (os.path.relpath(HAND_PATH, ROOT),
                                                                           COMMAND))
        elif save_hand(frames):
            written.append(HAND_PATH)
    if everything:
        with open(README, encoding="utf-8") as f:
            problems.append(readme_problem(f.read()) if opts.check else None)
        if not opts.check and update_readme():
            written.append(README)
        for path in stale_files():
            if opts.check:
                problems.append("%s belongs to no scene; run %s" % (os.path.relpath(path, ROOT), COMMAND))
            else:
                os.remove(path)
                print("removed %s" % os.path.relpath(path, ROOT))
    for path in written:
        print("wrote %s (%d bytes)" % (os.path.relpath(path, ROOT), os.path.getsize(path)))
    problems = [x for x in problems if x]
    for line in problems:
        print(line)
    if not written and not problems:
        print("every picture is up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
