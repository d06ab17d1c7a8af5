# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The golden screenshots and the README's gallery (tools/gallery.py: one list
of scenes, each a headless simulator run). Every scene's picture is compared
pixel for pixel with a fresh run; the README's thumbnails ARE those golden
files (tests/golden/gallery/, 2x), its GIF is a fresh run's frames, and its
table is what the scenes make. After a deliberate change to a screen run
``python tools/gallery.py`` (or the tests with ``PISTI_UPDATE_GOLDEN=1``) and
look at the pictures."""

import os

import pytest
from PIL import Image

from tools import gallery as g

UPDATE = os.environ.get("PISTI_UPDATE_GOLDEN") == "1"
CAPTIONED = [s for s in g.SCENES if s.caption]


def test_the_scene_list():
    names = [s.name for s in g.SCENES] + [g.HAND.name]
    assert len(names) == len(set(names))
    captions = [s.caption for s in CAPTIONED]
    assert len(captions) == len(set(captions))
    assert all(s.profile in g.SIZES and s.expect.get("screen") for s in g.SCENES + (g.HAND,))
    # what the gallery must show: menus, both tables, the 7 and the Jack, the ends,
    # rankings, rules, Turkish screens and the 128x32 layouts
    shown = {(s.profile, s.expect["screen"]) for s in CAPTIONED}
    for screen in ("splash", "menu", "new_game", "table", "hand_end", "match_end", "rankings", "rules"):
        assert ("pico", screen) in shown, screen
    for screen in ("menu", "table", "hand_end"):
        assert ("featherwing", screen) in shown, screen
    assert {s.expect["screen"] for s in CAPTIONED if "--lang" in s.args} >= {"menu", "table", "hand_end"}
    assert any(s.expect.get("pending") for s in CAPTIONED) and any(s.expect.get("focus") == "suit" for s in CAPTIONED)


@pytest.mark.parametrize("name", [s.name for s in g.SCENES])
def test_scene_matches_its_golden(name):
    scene = g.BY_NAME[name]
    image = g.shot(scene)  # fails when the run does not end where the scene says
    if UPDATE:
        g.save(scene, image)
    problem = g.differs(scene, image)
    if problem:
        pytest.fail(problem)


def test_golden_files_are_1_bit_at_their_scale():
    for scene in g.SCENES:
        path, scale = g.path_of(scene)
        if not os.path.exists(path):
            continue  # test_scene_matches_its_golden says how to make it
        with Image.open(path) as image:
            w, h = g.SIZES[scene.profile]
            assert image.size == (w * scale, h * scale), path
            assert image.mode == "1", "%s is not a 1-bit PNG; run %s" % (path, g.COMMAND)
    assert g.stale_files() == [], "pictures no scene makes; run %s" % g.COMMAND


def test_the_hand_gif_is_a_fresh_run():
    frames = g.hand_frames()
    if UPDATE:
        g.save_hand(frames)
    assert os.path.exists(g.HAND_PATH), "no %s; run %s" % (g.HAND_PATH, g.COMMAND)
    committed = g.read_hand()
    if committed != frames:
        pytest.fail("%s is not what a fresh run of the hand shows (%d frames, %d committed); run %s"
                    % (g.HAND_PATH, len(frames), len(committed), g.COMMAND))
    # the whole hand: 48 cards played (P-6), each held, and the breakdown at the end
    assert len(frames) >= 48
    assert all(ms >= g.MIN_MS for _, ms in frames) and frames[-1][1] == g.LAST_MS
    assert sum(1 for _, ms in frames if ms >= 800) >= 48  # a move stays up for the bot delay
    assert all(a != b for (a, _), (b, _) in zip(frames, frames[1:], strict=False))  # only frames that change
    end = g.BY_NAME["pisti_hand_end"]
    assert end.args == g.HAND.args and g.differs(end, Image.frombytes("L", g.SIZES["pico"], frames[-1][0])) is None
    with Image.open(g.HAND_PATH) as gif:
        assert gif.size == (256, 128) and gif.info.get("loop") == 0
        palette = gif.getpalette()[:6]
        assert sorted((palette[:3], palette[3:])) == [[0, 0, 0], [255, 255, 255]]
    assert os.path.getsize(g.HAND_PATH) < 120000


def test_the_readme_shows_the_gallery():
    with open(g.README, encoding="utf-8") as f:
        text = f.read()
    problem = g.readme_problem(text)
    if problem and UPDATE:
        g.update_readme()
        with open(g.README, encoding="utf-8") as f:
            text = f.read()
        problem = g.readme_problem(text)
    assert problem is None, problem
    block = g.readme_block()
    for scene in CAPTIONED:
        path = os.path.relpath(g.path_of(scene)[0], g.ROOT).replace(os.sep, "/")
        assert "](%s)" % path in block
        w, h = g.SIZES[scene.profile]
        if os.path.exists(os.path.join(g.ROOT, path)):
            assert Image.open(os.path.join(g.ROOT, path)).size == (2 * w, 2 * h)  # thumbnails at 2x
    assert "](tests/golden/gallery/%s.gif)" % g.HAND.name in block
    # near the top: before the long sections
    assert text.index(g.BEGIN) < text.index("## Playing in the simulator")


def test_a_changed_screen_fails_naming_the_command(tmp_path, monkeypatch):
    scene = g.BY_NAME["main_menu"]
    image = g.shot(scene)
    monkeypatch.setattr(g, "GALLERY", str(tmp_path))
    assert "no golden" in g.differs(scene, image) and g.COMMAND in g.differs(scene, image)
    assert g.save(scene, image) and not g.save(scene, image)  # written once, then left alone
    assert g.differs(scene, image) is None
    changed = image.copy()
    changed.putpixel((5, 5), 255 - changed.getpixel((5, 5)))
    problem = g.differs(scene, changed)
    assert "in 1 OLED pixels" in problem and g.COMMAND in problem and "PISTI_UPDATE_GOLDEN=1" in problem
    lost = g.Scene("lost", "pico", ("--seed", "1", "--keys", "A"), {"screen": "rankings"}, None)
    with pytest.raises(g.SceneError, match="should end with .*rankings.* but shows .*menu"):
        g.shot(lost)


def test_check_mode_changes_nothing(capsys):
    paths = [g.path_of(g.BY_NAME[name])[0] for name in ("splash", "fw_splash")]
    before = [os.path.getmtime(p) for p in paths]
    assert g.main(["--check", "splash", "fw_splash"]) == 0, capsys.readouterr().out
    assert [os.path.getmtime(p) for p in paths] == before
    with pytest.raises(SystemExit):
        g.main(["no_such_scene"])
