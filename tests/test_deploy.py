# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Tests for tools/deploy.py against fake CIRCUITPY folders (no board, no network)."""
import errno
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tools import deploy

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
    assert deploy.find_drives(env={"USER": "x"}, platform="linux", mounts_text=table, bases=[]) == [
        mounted.resolve()
    ]
    # The usual mount folders are scanned too (here a fake /media/$USER).
    assert deploy.find_drives(env={}, platform="linux", mounts_text="", bases=[mounted.parent]) == [
        mounted.resolve()
    ]


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


def test_deploy_real_project_lays_out_the_firmware(tmp_path, capsys):
    d = make_drive(tmp_path / "CIRCUITPY")

    def mismatches():
        sources = deploy.collect_sources(ROOT)
        assert sources, "the project has firmware files"
        expected = set(sources) | {"boot_out.txt", "settings.toml", deploy.MANIFEST_NAME}
        wrong = files_under(d) ^ expected
        wrong |= {rel for rel, src in sources.items() if (d / rel).read_bytes() != src.read_bytes()}
        return sources, wrong

    # Others edit the project while tests run: a file changed mid-deploy is synced by the next one.
    for _attempt in range(3):
        status, out, err = run(capsys, "--to", d, "--no-libs")
        assert status == 0, err
        sources, wrong = mismatches()
        if not wrong:
            break
    assert not wrong
    assert not [rel for rel in sources if "__pycache__" in rel or rel.endswith(".pyc") or "/." in rel]
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
        assert (drive / rel).read_bytes() == (project / rel).read_bytes()
    settings = (drive / "settings.toml").read_bytes()
    assert settings.startswith(USER_SETTINGS)  # the user's bytes, untouched
    added = settings[len(USER_SETTINGS):]
    assert b"Added by tools/deploy.py" in added and b"\r\n" in added
    assert b"PISTI_DISPLAY_ROTATION" not in added  # the user already had it
    parsed = tomllib.loads(settings.decode())
    assert parsed["PISTI_DISPLAY_ROTATION"] == 180 and parsed["CIRCUITPY_WIFI_SSID"] == "home"
    assert parsed["PISTI_I2C_SDA"] == "GP4" and parsed["PISTI_BUZZER"] == "GP16"
    assert "settings.toml: 10 keys added" in out


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
    assert (drive / "lib" / "app" / "screens.py").read_text() == "SCREENS = 4\n"


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
    assert (drive / "pisti_core" / "rules.py").read_bytes() == (project / "pisti_core" / "rules.py").read_bytes()
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


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="permissions do not bind root")
def test_read_only_folder_permissions(drive, project, capsys):
    drive.chmod(0o555)
    try:
        status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    finally:
        drive.chmod(0o755)
    assert status == 1 and "read-only" in err


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


def make_bundle(tmp_path):
    """A fake extracted adafruit-circuitpython-bundle-9.x-mpy folder."""
    b = tmp_path / "adafruit-circuitpython-bundle-9.x-mpy-20241120"
    files = {
        "lib/adafruit_displayio_ssd1306.mpy": b"ssd1306",
        "lib/adafruit_display_text/__init__.mpy": b"dt init",
        "lib/adafruit_display_text/label.mpy": b"dt label",
        "lib/adafruit_bitmap_font/__init__.mpy": b"",
        "lib/adafruit_bitmap_font/pcf.mpy": b"pcf",
        "lib/adafruit_ticks.mpy": b"ticks from the bundle",
        "lib/adafruit_motor/__init__.mpy": b"not needed",
        "requirements/adafruit_display_text/requirements.txt":
            b"Adafruit-Blinka\nadafruit-blinka-displayio\nadafruit-circuitpython-bitmap-font\n"
            b"adafruit-circuitpython-ticks\n",
        "requirements/adafruit_display_text/pyproject.toml": b"[project]\nname = 'x'\n",
    }
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
    assert (lib / "adafruit_displayio_ssd1306.mpy").read_bytes() == b"ssd1306"
    assert (lib / "adafruit_display_text" / "label.mpy").read_bytes() == b"dt label"
    assert (lib / "adafruit_bitmap_font" / "pcf.mpy").read_bytes() == b"pcf"
    assert (lib / "adafruit_ticks.mpy").read_bytes() == b"ticks from the bundle"  # a dependency
    assert not (lib / "adafruit_motor").exists()
    assert "libs: 6 files copied" in out
    manifest = json.loads((drive / deploy.MANIFEST_NAME).read_text())
    assert not [rel for rel in manifest["files"] if "adafruit" in rel]  # never ours to remove
    before = snapshot(drive)
    status, out, err = run(capsys, "--to", drive, "--source", project, "--bundle", bundle, "--requirements", libs)
    assert "libs: 0 files copied, 6 unchanged" in out
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
    run(capsys, "--to", drive, "--source", project, "--offline", "--upgrade-libs",
        runner=lambda cmd: calls.append(cmd) or 0)
    assert calls == [[
        "/venv/bin/circup", "--path", str(drive), "--offline", "install", "--upgrade",
        "-r", str(deploy.REQUIREMENTS),
    ]]


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
    """A stand-in compiler: writes MPY + source name + source bytes to -o."""
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
        "open(out, 'wb').write(b'MPY:' + name.encode() + b':' + src)\n"
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
    assert (drive / "pisti_core" / "rules.mpy").read_bytes() == b"MPY:pisti_core/rules.py:" + (
        project / "pisti_core" / "rules.py").read_bytes()
    assert (drive / "code.py").read_bytes() == (project / "code.py").read_bytes()
    assert "5 removed" in out  # the .py twins of the compiled modules
    # Compiled again: identical output, nothing copied.
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy)
    assert "0 copied" in out
    # Back to plain .py: the .mpy files go.
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs")
    assert status == 0 and "5 removed" in out
    assert not [p for p in drive.rglob("*.mpy") if p.name != "adafruit_ticks.mpy"]


@pytest.mark.skipif(os.name != "posix", reason="the fake compiler is a shebang script")
def test_mpy_cross_from_micropython_warns_and_errors_are_clear(drive, project, tmp_path, capsys):
    mpy = fake_mpy_cross(tmp_path, "MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3")
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--mpy-cross", mpy,
                           "--dry-run")
    assert status == 0
    assert "does not say it is CircuitPython's mpy-cross" in err and "incompatible .mpy file" in err
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


def test_profile_mismatch_is_reported_not_changed(drive, project, capsys):
    (drive / "settings.toml").write_bytes(b'PISTI_PROFILE = "pico"\n')
    status, out, err = run(capsys, "--to", drive, "--source", project, "--no-libs", "--profile", "featherwing")
    assert status == 0
    assert "PISTI_PROFILE = 'pico'" in err and "did you mean --profile pico" in err
    assert (drive / "settings.toml").read_bytes().startswith(b'PISTI_PROFILE = "pico"\n')


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
