# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The app's logic under the micropython command: a 64-bit, core-and-logic-only
check, NOT the device heap gauge. Every module compiles with mpy-cross and
imports from .py source (with its dependencies) in 96K, and whole matches run
through ``App.tick()`` (their saves compacting the nvm log on the way) with
stand-ins for displayio, the label and font libraries and the buttons
(written below, far smaller than the real libraries and fonts): the
screens, session bytes, bots and language switch all run on MicroPython.
Heaps here are 64-bit unix-port heaps; they say nothing of the Pico's 171 KB.
The device's budgets are measured by the 32-bit gauge, tools/memgauge.py
(tests/test_memgauge.py), which runs the real libraries and fonts.
"""

import glob
import os
import shutil
import subprocess

import pytest

from tools import mpy

ROOT = mpy.ROOT
APP = os.path.join(ROOT, "lib", "pisti_app")
# Every module of the package tree, dotted below it (the package's own: "__init__").
APP_MODULES = sorted(os.path.relpath(f, APP)[:-3].replace(os.sep, ".")
                     for f in glob.glob(os.path.join(APP, "**", "*.py"), recursive=True))


def app_file(module, ext, top=APP):
    """The file of app module ``module`` (dotted below the package) under ``top``."""
    return os.path.join(top, *module.split(".")) + ext

STUBS = {
    "displayio.py": '''
class Palette:
    def __init__(self, n):
        self._c = [0] * n
    def __setitem__(self, i, v):
        self._c[i] = v
    def __getitem__(self, i):
        return self._c[i]
    def __len__(self):
        return len(self._c)
    def make_transparent(self, i):
        pass
class Bitmap:
    def __init__(self, w, h, n):
        self.width = w
        self.height = h
        self._b = bytearray((w * h + 3) // 4)  # 2 bits a pixel, like the core
    def __setitem__(self, xy, v):
        i = xy if isinstance(xy, int) else xy[1] * self.width + xy[0]
        s = (i & 3) * 2
        self._b[i >> 2] = (self._b[i >> 2] & ~(3 << s)) | (v << s)
    def __getitem__(self, xy):
        i = xy if isinstance(xy, int) else xy[1] * self.width + xy[0]
        return (self._b[i >> 2] >> ((i & 3) * 2)) & 3
    def fill(self, v):
        b = (v | v << 2 | v << 4 | v << 6) & 255
        for i in range(len(self._b)):
            self._b[i] = b
    def make_transparent(self, i):
        pass
class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, x=0, y=0, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.hidden = False
        self._t = bytearray(width * height)
        for i in range(width * height):
            self._t[i] = default_tile
    def __setitem__(self, i, v):
        self._t[i] = v
    def __getitem__(self, i):
        return self._t[i]
class Group:
    def __init__(self, scale=1, x=0, y=0):
        self._items = []
        self.hidden = False
        self.scale = scale
        self.x = x
        self.y = y
    def append(self, item):
        self._items.append(item)
    def insert(self, i, item):
        self._items.insert(i, item)
    def __len__(self):
        return len(self._items)
    def remove(self, item):
        self._items.remove(item)
    def pop(self, i=-1):
        return self._items.pop(i)
def release_displays():
    pass
''',
    "adafruit_display_text/__init__.py": "",
    "adafruit_display_text/bitmap_label.py": '''
class Label:
    def __init__(self, font, text="", color=0xFFFFFF, background_color=None, scale=1, **kw):
        self.text = text
        self.color = color
        self.background_color = background_color
        self.scale = scale
        self.hidden = False
''',
    "adafruit_bitmap_font/__init__.py": "",
    "adafruit_bitmap_font/bitmap_font.py": '''
import displayio
class _Glyph:
    def __init__(self):
        self.bitmap = displayio.Bitmap(9, 11, 2)
        for i in range(8):
            self.bitmap[i, i + 1] = 1
class _Font:
    def __init__(self):
        self.glyph = _Glyph()
    def get_glyph(self, code):
        return self.glyph
    def get_bounding_box(self):
        return (5, 8, 0, -1)
def load_font(path):
    return _Font()
''',
    "keypad.py": '''
class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp
''',
    "supervisor.py": '''
_now = [0x1FFF0000]  # wraps at 2**29 a minute in
def ticks_ms():
    return _now[0]
def advance(ms):
    _now[0] = (_now[0] + ms) & 0x1FFFFFFF
''',
}

DRIVE = '''
import gc
import sys
import random
import supervisor

class _Events:
    def __init__(self):
        self.q = []
    def get_into(self, ev):
        if not self.q:
            return False
        ev.key_number, ev.pressed, ev.timestamp = self.q.pop(0)
        return True
    def clear(self):
        self.q = []
class _Keys:
    events = _Events()
class _Display:
    root_group = None
    refreshes = 0
    def refresh(self):
        self.refreshes += 1
class FileNvm:
    # microcontroller.nvm: on the board it is flash, not heap, so here it
    # is a file (slice reads return a new bytearray, as on the board).
    def __init__(self, path):
        self.path = path
        with open(path, "wb") as f:
            f.write(b"\xff" * 4096)
    def __len__(self):
        return 4096
    def __getitem__(self, s):
        with open(self.path, "rb") as f:
            f.seek(s.start)
            return bytearray(f.read(s.stop - s.start))
    def __setitem__(self, s, v):
        with open(self.path, "r+b") as f:
            f.seek(s.start)
            f.write(v)

def _full_nvm():
    # microcontroller.nvm as the saves left it after many settings changes:
    # a few hundred bytes free, so the app's saves compact in the middle of
    # the match (into the image buffer the app allocated at start).
    from pisti_core.nvlog import Store
    nvm = FileNvm("nvm.bin")
    st = Store(nvm)
    st.load()
    t = 30
    while st.free > 250:
        t = 31 if t == 300 else t + 1
        st.put_settings(bytes((0x53, 1, 0, 1, 1, t >> 8, t & 255, 0, 0, 2, 151, 1, 1, 1, 1)))
    return nvm

class HW:
    display = _Display()
    keys = _Keys()
    key_names = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
    buzzer = None
    width = 128
    height = 64
    nvm = _full_nvm()

def tap(k):
    now = supervisor.ticks_ms()
    HW.keys.events.q.append((k, True, now))
    HW.keys.events.q.append((k, False, now + 40))

from pisti_app.app import App
from pisti_core.bots import make_bot
app = App(HW())
game = app.session.game
app.bots[0] = make_bot(game, "greedy", random)
hands = 0
peak = 0
step = 0
while app.screen.name != "match_end" and hands < int(sys.argv[1]):
    app.tick()
    supervisor.advance(10)
    step += 1
    if app.screen.name == "hand_end":
        hands += 1
        tap(4)  # A
        app.tick()
        if app.screen.name == "table":
            app.bots[0] = make_bot(game, "greedy", random)
    if step % 50 == 0:
        gc.collect()
        peak = max(peak, gc.mem_alloc())
if app.screen.name == "table":
    from pisti_app.match import session_io
    data = app.session.to_bytes()
    assert session_io.from_bytes(data).to_bytes() == data
    tap(5)  # B: the pause menu
    app.tick()
    assert app.screen.name == "pause", app.screen.name
app.set_lang("tr")
st = app.status()
assert app.saves.store.compactions >= 1, "the saves never compacted"
print("ok", game, "hands=%d" % hands, "screen=%s" % st["screen"], "peak=%d" % peak,
      "compactions=%d" % app.saves.store.compactions)
'''


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpyapp"))
    mpy.build(out, ("pisti_core",))
    for m in APP_MODULES:
        dst = app_file(m, ".mpy", os.path.join(out, "lib", "pisti_app"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        subprocess.run([mpy.tool("mpy-cross"), "-o", dst, app_file(m, ".py")], check=True)
    subprocess.run([mpy.tool("mpy-cross"), "-o", os.path.join(out, "lib", "fonts.mpy"),
                    os.path.join(ROOT, "lib", "fonts.py")], check=True)
    shutil.copytree(os.path.join(ROOT, "assets"), os.path.join(out, "assets"))
    stubs = os.path.join(out, "stubs")
    for name, text in STUBS.items():
        os.makedirs(os.path.dirname(os.path.join(stubs, name)), exist_ok=True)
        with open(os.path.join(stubs, name), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(out, "drive.py"), "w", encoding="utf-8") as f:
        f.write(DRIVE)
    return out


def run(build, start, hands, heap, cwd):
    env = dict(os.environ, PISTI_START=start, PISTI_SEED="3", PISTI_DELAY="0",
               MICROPYPATH=":".join([os.path.join(build, "stubs"), os.path.join(build, "lib"), build,
                                     ".frozen"]))
    return subprocess.run([mpy.tool("micropython"), "-X", "heapsize=%s" % heap,
                           os.path.join(build, "drive.py"), str(hands)],
                          capture_output=True, text=True, env=env, cwd=str(cwd), timeout=600)


@pytest.mark.parametrize("start", ["pisti:2:usta", "pisti:4:kalfa", "yedili:3:usta", "yedili:4:usta"])
def test_64bit_core_and_logic_only_matches_run_in_256K_with_stand_ins(build, tmp_path, start):
    """64-bit unix port, stand-ins for displayio, display_text and the fonts:
    the app's logic and the core play matches in 256K (not the device gauge)."""
    r = run(build, start, 2, "256K", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok %s hands=" % start.split(":")[0]), r.stdout
    assert int(r.stdout.split("hands=")[1].split()[0]) >= 1


def test_64bit_core_and_logic_only_run_fails_in_64K(build, tmp_path):
    """The 64-bit core-and-logic-only run above does run out in 64K (its cap is real)."""
    r = run(build, "pisti:2:usta", 1, "64K", tmp_path)
    assert r.returncode != 0 and "MemoryError" in r.stdout + r.stderr


@pytest.mark.parametrize("module", APP_MODULES)
def test_64bit_each_module_imports_from_source_in_96K_core_and_logic_only(build, tmp_path, module):
    """Each app module compiled from .py in a 64-bit 96K heap, its dependencies
    as .mpy and stand-ins for the libraries (not the device gauge)."""
    # The module compiled in the heap, its dependencies (.mpy) loaded too.
    shutil.copytree(build, str(tmp_path / "b"))
    top = str(tmp_path / "b" / "lib" / "pisti_app")
    os.unlink(app_file(module, ".mpy", top))
    shutil.copy(app_file(module, ".py"), app_file(module, ".py", top))
    b = str(tmp_path / "b")
    r = mpy.run_code("import pisti_app.%s\nprint('imported')\n" % module, "96K",
                     path=(os.path.join(b, "stubs"), os.path.join(b, "lib"), b))
    assert r.returncode == 0 and "imported" in r.stdout, r.stdout + r.stderr



_FORGET = """
import gc, sys
from pisti_app.util import drop_module
import blob
gc.collect()
base = gc.mem_alloc()
import blob.big
if PLAIN:
    del sys.modules["blob.big"]
else:
    drop_module("blob.big")
gc.collect()
print("left", gc.mem_alloc() - base)
"""


@pytest.mark.parametrize("plain", [False, True])
def test_a_forgotten_module_leaves_no_heap_behind(tmp_path, plain):
    """App.forget() (util.drop_module) under the micropython command: a
    module holding 8 KB, imported and forgotten, leaves less than 1 KB
    behind. The control (plain: only ``del sys.modules[name]``) keeps all
    of it: the package's attribute still holds the module."""
    pkg = tmp_path / "blob"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "big.py").write_text("X = bytearray(8000)\n\n\ndef f():\n    return X\n")
    r = mpy.run_code(("PLAIN = %s\n" % plain) + _FORGET, "256K",
                     path=(os.path.join(mpy.ROOT, "lib"), str(tmp_path)))
    assert r.returncode == 0, r.stdout + r.stderr
    left = int(r.stdout.split("left")[1])
    if plain:
        assert left >= 8000, "the package's attribute did not keep the module (%d B left)" % left
    else:
        assert left < 1024, "%d B left after forgetting the module" % left
