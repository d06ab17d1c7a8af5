# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``python tools/deploy.py --zip OUTDIR``: a Project Bundle
zip for each board profile and CircuitPython version, for makers without
Python. Each zip is unpacked onto a fake drive folder as the README's
"Without Python" says; the drive must hold exactly what deploy puts on a
board, every module the firmware imports (read from the files, and recorded
while the firmware boots and plays in the simulator from that folder) must
be on it or built into CircuitPython, and the simulator boots from it.
"""

import ast
import importlib.abc
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools import deploy, settingstoml
from tools.deploylib import imports
from tools.simlib.headless import Headless, ScriptDriver
from tools.simlib.script import parse_keys, profile_buttons
from tools.simlib.session import Session

# One worker makes the zips once (the module fixture) and runs every test on them.
pytestmark = pytest.mark.xdist_group("bundle")

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "tools" / "sim.py"
PROFILES = sorted(p.stem for p in (ROOT / "tools" / "boards").glob("*.toml"))
MAJORS = (9, 10)
BOARD = {"pico": ("raspberry_pi_pico", "Raspberry Pi Pico with rp2040"),
         "featherwing": ("adafruit_feather_rp2040", "Adafruit Feather RP2040 with rp2040")}
VERSION = re.search(r'__version__ = "([^"]+)"', (ROOT / "lib" / "pisti_app" / "util.py").read_text()).group(1)
CASES = [(profile, major) for profile in PROFILES for major in MAJORS]


def bundle_name(profile, major):
    return f"pisti-{VERSION}-{profile}-circuitpython-{major}.x"


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """deploy.py --zip, once for the module: (folder of zips, what it printed)."""
    out = tmp_path_factory.mktemp("zips") / "out"
    stdout, stderr = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        status = deploy.main(["--zip", str(out)])
    finally:
        sys.stdout, sys.stderr = saved
    assert status == 0, stderr.getvalue()
    assert stderr.getvalue() == ""
    return out, stdout.getvalue()


@pytest.fixture(scope="module")
def drives(bundles, tmp_path_factory):
    """Each zip unpacked as a maker would: the contents of its "CircuitPython N.x"
    folder copied onto an (empty) CIRCUITPY folder."""
    out, _printed = bundles
    found = {}
    for profile, major in CASES:
        top = bundle_name(profile, major)
        drive = tmp_path_factory.mktemp(f"{profile}{major}") / "CIRCUITPY"
        drive.mkdir()
        inner = f"{top}/CircuitPython {major}.x/"
        with zipfile.ZipFile(out / f"{top}.zip") as archive:
            for entry in archive.infolist():
                if entry.filename.startswith(inner) and not entry.is_dir():
                    target = drive / entry.filename[len(inner):]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(entry))
        found[(profile, major)] = drive
    return found


def tree(folder, skip=()):
    """{drive path: bytes} of every file under folder."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in skip}


# -- the zips ------------------------------------------------------------------------------


def test_one_zip_per_profile_and_circuitpython_version_in_project_bundle_shape(bundles):
    out, printed = bundles
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{bundle_name(p, m)}.zip" for p, m in CASES)
    for profile, major in CASES:
        top = bundle_name(profile, major)
        with zipfile.ZipFile(out / f"{top}.zip") as archive:
            assert archive.testzip() is None
            names = archive.namelist()
            # One top folder named as the zip; in it README.txt and the CircuitPython N.x folder, nothing else.
            assert {n.split("/", 1)[0] for n in names} == {top}
            assert {n.split("/")[1] for n in names if n.count("/") >= 1 and n.split("/")[1]} == \
                {"README.txt", f"CircuitPython {major}.x"}
            readme = archive.read(f"{top}/README.txt").decode()
        assert f'"CircuitPython {major}.x" folder' in readme and "CIRCUITPY" in readme
        assert f"Board profile: {profile}" in readme and f"CircuitPython {major}.x" in readme
        assert re.search(rf"wrote {re.escape(top)}\.zip: \d+ files, \d+ KB on CIRCUITPY \(zip: \d+ KB\); "
                         r"libs: adafruit-circuitpython-displayio-ssd1306 [\d.]+; imports: \d+ modules checked, "
                         r"none missing", printed), printed


def test_the_readme_gives_the_bundles_size(bundles):
    """README "Without Python": the files and KB on CIRCUITPY of the Pico's 10.x bundle, as --zip prints them."""
    _out, printed = bundles
    got = re.search(rf"wrote {re.escape(bundle_name('pico', 10))}\.zip: (\d+) files, (\d+) KB on CIRCUITPY", printed)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"\(version ([\d.]+): (\d+) files, (\d+) KB;", readme)
    assert said and said.groups() == (VERSION,) + got.groups(), (
        "README.md says %r; deploy --zip: version %s, %s files, %s KB"
        % (said and said.group(0), VERSION, *got.groups()))


@pytest.mark.parametrize("profile, major", CASES)
def test_the_bundle_is_exactly_what_deploy_puts_on_a_board(drives, tmp_path, capsys, profile, major):
    """The same files, byte for byte, as deploy --offline onto an empty CIRCUITPY
    of that board and CircuitPython version: code.py, lib/ (the game and the
    display driver), pisti_core/, assets/, the profile's settings.toml."""
    board_id, name = BOARD[profile]
    board = tmp_path / "CIRCUITPY"
    board.mkdir()
    (board / "boot_out.txt").write_text(
        f"Adafruit CircuitPython {major}.2.1 on 2025-11-20; {name}\nBoard ID:{board_id}\nUID:E6614C311B2A8A2F\n")
    assert deploy.main(["--to", str(board), "--offline"]) == 0, capsys.readouterr().err
    unpacked = tree(drives[(profile, major)])
    assert unpacked == tree(board, skip=("boot_out.txt",))
    for rel in ("code.py", "settings.toml", "lib/adafruit_displayio_ssd1306.py", "lib/pisti_app/__init__.py",
                "pisti_core/pisti.py", "assets/strings/en.txt", ".pisti-manifest.json"):
        assert rel in unpacked, rel
    assert unpacked["settings.toml"] == (ROOT / "tools" / "boards" / f"{profile}.toml").read_bytes()
    assert json.loads(unpacked[".pisti-manifest.json"])["profile"] == profile


# -- every import is on the drive ----------------------------------------------------------------


def _catches_import_error(handler):
    names = []
    if handler.type is None:
        return True
    for node in handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]:
        names.append(getattr(node, "id", ""))
    return bool({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"} & set(names))


def static_imports(drive):
    """{module: the file importing it} for every import statement of every .py
    on the drive (at any depth: in functions too), resolved to absolute
    names; one in a ``try`` whose ``except`` catches ImportError is the
    firmware's own fallback and left out."""
    found = {}
    for path in sorted(drive.rglob("*.py")):
        rel = path.relative_to(drive).as_posix()
        parts = rel[:-3].split("/")
        parts = parts[1:] if parts[0] == "lib" else parts
        package = parts[:-1]  # __init__.py: its folder is the package too

        def visit(node, optional, rel=rel, package=package):
            for child in ast.iter_child_nodes(node):
                inner = optional or (isinstance(node, ast.Try) and child in node.body
                                     and any(_catches_import_error(h) for h in node.handlers))
                if isinstance(child, ast.Import) and not inner:
                    for alias in child.names:
                        found.setdefault(alias.name, rel)
                elif isinstance(child, ast.ImportFrom) and not inner:
                    base = package[: len(package) - (child.level - 1)] if child.level else []
                    dotted = ".".join(base + ([child.module] if child.module else []))
                    found.setdefault(dotted, rel)
                    for alias in child.names:  # a module, or a name in one: checked below
                        found.setdefault(dotted + "." + alias.name, rel)
                visit(child, inner)

        visit(ast.parse(path.read_bytes(), filename=rel), False)
    return found


def on_drive(drive, dotted):
    """Where CircuitPython would find the module on the drive (``/`` then ``/lib``), or None."""
    path = dotted.replace(".", "/")
    for root in (drive, drive / "lib"):
        for candidate in (root / f"{path}.py", root / f"{path}.mpy", root / path / "__init__.py", root / path):
            if candidate.exists():
                return candidate
    return None


@pytest.mark.parametrize("profile, major", CASES)
def test_every_module_the_firmware_imports_is_on_the_drive_or_in_circuitpython(drives, profile, major):
    drive = drives[(profile, major)]
    found = static_imports(drive)
    assert "pisti_app" in found and "adafruit_displayio_ssd1306" in found and "pisti_core.match" in found
    missing = {}
    for dotted, importer in found.items():
        if dotted.split(".", 1)[0] in imports.BUILTIN or on_drive(drive, dotted):
            continue
        parent = dotted.rpartition(".")[0]
        if parent and on_drive(drive, parent) and on_drive(drive, parent).suffix == ".py":
            continue  # "from module import name": a name inside a module file
        missing[dotted] = importer
    assert missing == {}


class ImportRecorder(importlib.abc.MetaPathFinder):
    """Records every import the drive's files start and where the module was
    found then (a screen module the firmware drops after use is gone from
    sys.modules by the end); the import itself goes on as usual."""

    def __init__(self, drive):
        self.drive = str(drive) + os.sep
        self.seen = {}  # module -> (importing file on the drive, the module's file or None)

    def find_spec(self, fullname, path=None, target=None):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith("<frozen"):
            frame = frame.f_back
        if frame is None or not frame.f_code.co_filename.startswith(self.drive) or fullname in self.seen:
            return None
        origin = None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                origin = spec.origin
                break
        self.seen[fullname] = (frame.f_code.co_filename[len(self.drive):], origin)
        return None


class Snapshot(Headless):
    """The headless front end, noting where every loaded module came from before the session ends."""

    files = None

    def stop(self, session):
        self.files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}


def boot_drive(drive, keys, overrides=None):
    """Boot the firmware from the drive in the simulator (its code.py and its
    settings.toml) and play ``keys``; returns (status, imports the drive's
    files made, {module: file} at the end)."""
    profile = settingstoml.load(drive / "settings.toml")["PISTI_PROFILE"].text
    front = Snapshot(ScriptDriver(parse_keys(keys, profile_buttons(profile))))
    recorder = ImportRecorder(drive)
    sys.meta_path.insert(0, recorder)
    try:
        with Session(profile=profile, code=drive / "code.py", settings_file=drive / "settings.toml",
                     overrides=overrides or {}, max_ms=900000, console=io.StringIO(), log=io.StringIO()) as session:
            outcome = session.boot(front)
            assert session.error is None, session.error
            status = session.status()
    finally:
        sys.meta_path.remove(recorder)
    assert type(outcome).__name__ == "ScriptDone", outcome
    return status, recorder.seen, front.files


# About, the rules pages, Settings, Rankings and New game (the menus' modules), the screen it ends on,
# and plays at a table.
TOUR = {
    "pico": ("A,DOWN*4,A,B,UP,A,A,RIGHT,B,B,UP,A,B,UP,A,B,UP,A", "new_game", "A*4"),
    "featherwing": ("B,A*3,B,B:900,A,B,B,C,B:900,B:900,A*2,B,B:900", "menu", "B*4"),  # (up past Watch and Link play)
}


@pytest.mark.parametrize("profile, major", [(p, 10) for p in PROFILES] + [("pico", 9)])
def test_the_simulator_boots_from_the_unpacked_drive_and_every_import_is_there(drives, profile, major):
    drive = drives[(profile, major)]
    keys, last, plays = TOUR[profile]
    menus, seen, files = boot_drive(drive, keys)
    game, seen_game, files_game = boot_drive(drive, plays, {"PISTI_START": "yedili:3:usta", "PISTI_SEED": 5})
    seen.update(seen_game)
    assert "error" not in menus and menus["screen"] == last, menus
    assert {"pisti_app.screens.info", "pisti_app.texts.rules_en", "pisti_app.screens.menus"} <= set(seen), sorted(seen)
    assert game["screen"] == "table" and game["game"] == "yedili" and game["ply"] >= 1
    # The firmware ran from the drive: the app, the rules and the display driver are the drive's files.
    for files_, modules in ((files, ()), (files_game, ("pisti_core.match", "pisti_core.yedili"))):
        for module in ("pisti_app", "pisti_app.app", "pisti_core", "adafruit_displayio_ssd1306") + modules:
            assert files_.get(module) and files_[module].startswith(str(drive) + os.sep), (module, files_[module])
    assert "pisti_core.yedili" in seen and "adafruit_displayio_ssd1306" in seen
    elsewhere = {}
    for module, (importer, where) in sorted(seen.items()):
        if module.split(".", 1)[0] in imports.BUILTIN:
            continue
        if where and where.startswith(str(drive) + os.sep):
            continue
        elsewhere[module] = (importer, where)
    assert elsewhere == {}, "imported by the firmware, neither on the drive nor built into CircuitPython"


def test_sim_drive_command_line(drives, tmp_path):
    """README's command: tools/sim.py --drive on the unpacked folder, from elsewhere."""
    drive = drives[("featherwing", 10)]
    proc = subprocess.run([sys.executable, str(SIM), "--headless", "--drive", str(drive), "--keys", "B",
                           "--status"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    status = json.loads(proc.stdout)
    assert status["screen"] == "menu" and status["display"]["on"] is True
    proc = subprocess.run([sys.executable, str(SIM), "--headless", "--drive", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and "no code.py there" in proc.stderr


# -- bad input -----------------------------------------------------------------------------------


def test_zip_with_a_drive_option_is_refused_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    assert deploy.main(["--zip", str(out), "--to", str(tmp_path), "--no-libs"]) == 1
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "leave out --to, --no-libs" in err
    assert not out.exists()


def test_zip_without_the_pinned_driver_names_the_fix_and_writes_nothing(tmp_path, capsys, monkeypatch):
    pins = tmp_path / "requirements.txt"
    pins.write_text("adafruit-circuitpython-displayio-ssd1306==9.9.9\n")
    monkeypatch.setattr(deploy, "PINS", pins)
    out = tmp_path / "out"
    assert deploy.main(["--zip", str(out)]) == 1
    err = capsys.readouterr().err
    assert "pins 9.9.9" in err and "pip install adafruit-circuitpython-displayio-ssd1306==9.9.9" in err
    assert not out.exists() or not any(out.iterdir())
