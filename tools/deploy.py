#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Flash the pisti firmware onto a CircuitPython board's CIRCUITPY drive.

``python tools/deploy.py`` finds the drive by its ``boot_out.txt``, checks the
CircuitPython version, installs the device libraries (circup, or a local
bundle folder with ``--bundle``), copies ``pisti_core/``, the project's
``lib/`` and ``assets/`` (only files whose content changed, each written under
a temporary name and renamed into place) and ``code.py`` last, fills in the
keys ``settings.toml`` lacks, and records what it placed in
``/.pisti-manifest.json`` so that files dropped from the project are removed
next time while files it did not put there are never touched. With
``--offline`` the libraries come from the project's own environment instead
(``.venv``: the versions tools/requirements.txt pins, deploylib/envlibs.py).
The modules of ``pisti_core/`` and ``lib/`` go minified (deploylib/shrink.py:
locals renamed, private constants folded, private names shortened,
docstrings dropped; the board interns fewer names and keeps ~10 KB more free
in a link game); ``--no-minify`` copies them as written.

Before it copies the game it checks, and stops with one clear message
(``--force``: a warning) when: the board profile contradicts the Board ID
(tools/deploylib/boards.py), settings.toml has a line CircuitPython cannot
read (tools/settingstoml.py), a module the device code or its
libraries import is on neither the drive nor in CircuitPython
(deploylib/imports.py; a missing library the bundle or circup has is
installed), or an .mpy is in a format the board's version refuses
(deploylib/mpyfile.py), MicroPython's mpy-cross included.

``--zip OUTDIR`` deploys the same way into empty folders, one for each
board profile and CircuitPython version, and writes each as a Project
Bundle zip for makers without Python (deploylib/bundle.py).

Desktop CPython 3.11 only; nothing here is imported by device code.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if __name__ == "__main__":  # typed as python tools/deploy.py: the project's .venv
    from tools import useenv

    useenv.reexec()

from tools import settingstoml
from tools.deploylib import DeployError, boards, bundle, envlibs, imports, mpyfile, shrink
from tools.deploylib import skipped as _skipped
from tools.deploylib.drives import find_drives
from tools.deploylib.libs import (  # noqa: F401 (library_name: for tests)
    Runner, bundle_files, bundle_folder, bundle_name, circup_command, find_circup, library_name, read_requirements,
    run_circup, run_subprocess,
)
from tools.deploylib.settings import (
    merge_settings, profile_value, switch_profile,
)

BOARDS_DIR = ROOT / "tools" / "boards"
REQUIREMENTS = ROOT / "tools" / "requirements-device.txt"
PINS = ROOT / "tools" / "requirements.txt"  # the desktop pins: --offline takes the libraries from VENV
VENV = ROOT / ".venv"

MANIFEST_NAME = ".pisti-manifest.json"
TMP_PREFIX = ".pisti-tmp-"
ENTRY = "code.py"
FIRMWARE_DIRS = ("pisti_core", "lib", "assets")
COMPILED_DIRS = ("pisti_core", "lib")
MIN_MAJOR = 9
MANIFEST_FORMAT = 1

# --------------------------------------------------------------------------
# boot_out.txt and finding the drive


@dataclass
class BootInfo:
    """What ``boot_out.txt`` says about the board."""

    version: str = ""
    major: int = 0
    board_name: str = ""
    board_id: str = ""


_VERSION_RE = re.compile(
    r"CircuitPython\s+(?P<version>(?P<major>\d+)\.\d+\.\d+\S*)\s+on\s+\S+;\s*(?P<name>.*?)\s*$"
)


def parse_boot_out(text: str) -> BootInfo:
    """Parse ``boot_out.txt``.

    Its first line reads ``Adafruit CircuitPython 9.2.1 on 2024-11-20;
    Raspberry Pi Pico with rp2040`` and the second ``Board ID:raspberry_pi_pico``.
    Raises DeployError when no CircuitPython version is found.
    """
    info = BootInfo()
    lines = text.splitlines()
    for line in lines:
        match = _VERSION_RE.search(line)
        if match:
            info.version = match.group("version")
            info.major = int(match.group("major"))
            info.board_name = match.group("name")
            break
    else:
        raise DeployError("boot_out.txt does not say which CircuitPython version the board runs")
    for line in lines:
        if line.startswith("Board ID:"):
            info.board_id = line[len("Board ID:"):].strip()
            break
    return info


# --------------------------------------------------------------------------
# What to copy


def collect_sources(root: Path) -> dict[str, Path]:
    """The firmware files of a project: drive path (posix, relative) -> source file.

    ``code.py`` plus everything under ``pisti_core/``, ``lib/`` and ``assets/``
    except hidden files, ``__pycache__`` folders and compiled caches.
    """
    sources: dict[str, Path] = {}
    entry = root / ENTRY
    if entry.is_file():
        sources[ENTRY] = entry
    for top in FIRMWARE_DIRS:
        base = root / top
        if not base.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not _skipped(d))
            for name in sorted(filenames):
                if not _skipped(name):
                    path = Path(dirpath) / name
                    sources[path.relative_to(root).as_posix()] = path
    return sources


def digest(path: Path) -> tuple[int, str]:
    """(size, sha256 hex) of a file."""
    sha = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(65536), b""):
            sha.update(chunk)
            size += len(chunk)
    return size, sha.hexdigest()


def same_content(src: Path, dest: Path) -> bool:
    """True when dest is a file with exactly src's bytes (size first, then hash)."""
    try:
        if not dest.is_file() or dest.stat().st_size != src.stat().st_size:
            return False
    except OSError:
        return False
    return digest(src) == digest(dest)


# --------------------------------------------------------------------------
# mpy-cross


def check_mpy_cross(mpy_cross: str, board_major: int, runner_output=None, force: bool = False) -> tuple[str, list[str]]:
    """Run ``mpy-cross --version``; returns (version text, warnings).

    MicroPython's mpy-cross (its banner does not say CircuitPython) makes
    files CircuitPython refuses: a DeployError unless force.
    """
    if runner_output is None:
        try:
            proc = subprocess.run(
                [mpy_cross, "--version"], capture_output=True, text=True, timeout=30, check=False
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise DeployError(f"cannot run mpy-cross at {mpy_cross}: {exc}") from None
        runner_output = (proc.stdout + proc.stderr).strip()
    text = runner_output.splitlines()[0] if runner_output else ""
    warnings = []
    if "circuitpython" not in runner_output.lower():
        problem = (
            f"{mpy_cross} is not CircuitPython's mpy-cross (it says {text!r}): CircuitPython refuses "
            "MicroPython's .mpy files ('MicroPython .mpy file; use CircuitPython mpy-cross'); use "
            + mpyfile.mpy_cross_for(board_major or 10)
        )
        if not force:
            raise DeployError(problem + ", or deploy without --mpy-cross (pass --force to use this one anyway)")
        warnings.append(problem)
    return text, warnings


def check_mpy_files(files: dict[str, Path], board: "BootInfo | None", what: str) -> list[str]:
    """Problems with .mpy files the board would refuse: one message each."""
    found = []
    for rel, path in sorted(files.items()):
        if not rel.endswith(".mpy"):
            continue
        with open(path, "rb") as handle:
            header = mpyfile.read_header(handle.read(4))
        why = mpyfile.loads_on(header, board.major if board else 0)
        if why:
            where = f"CircuitPython {board.version}" if board else "CircuitPython"
            found.append(f"{rel} ({what}) is a {header.label} file, which {where} cannot load: {why}")
    return found


def compile_sources(mpy_cross: str, sources: dict[str, Path], out_dir: Path) -> dict[str, Path]:
    """Compile the .py modules of pisti_core/ and lib/ to .mpy in out_dir.

    Returns the new mapping (code.py and assets unchanged).
    """
    result: dict[str, Path] = {}
    for rel, src in sources.items():
        top = rel.split("/", 1)[0]
        if rel == ENTRY or top not in COMPILED_DIRS or not rel.endswith(".py"):
            result[rel] = src
            continue
        target_rel = rel[:-3] + ".mpy"
        if target_rel in sources:
            raise DeployError(f"the project has both {rel} and {target_rel}; remove one of them")
        out = out_dir / target_rel
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            proc = subprocess.run(
                [mpy_cross, "-o", str(out), "-s", rel, str(src)],
                capture_output=True, text=True, timeout=120, check=False,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise DeployError(f"cannot run mpy-cross at {mpy_cross}: {exc}") from None
        if proc.returncode != 0 or not out.is_file():
            detail = (proc.stderr or proc.stdout).strip().splitlines()
            reason = detail[-1] if detail else f"exit status {proc.returncode}"
            raise DeployError(f"mpy-cross could not compile {rel}: {reason}")
        result[target_rel] = out
    return result


# --------------------------------------------------------------------------
# Writing safely


def _read_only_error(drive: Path) -> DeployError:
    return DeployError(
        f"the drive at {drive} is read-only: if boot.py lets CircuitPython write to its own "
        "filesystem (storage.remount) the computer cannot, so undo that and reset the board, "
        "or check that you may write there"
    )


def _full_error(drive: Path, need: int | None = None, free: int | None = None) -> DeployError:
    if need is not None and free is not None:
        return DeployError(
            f"CIRCUITPY at {drive} is too full: this deploy needs about {_kb(need)} more but only "
            f"{_kb(free)} is free; delete what you don't need from the drive (old projects, unused "
            "libraries in lib/) and try again"
        )
    return DeployError(
        f"CIRCUITPY at {drive} is full: delete what you don't need from the drive (old projects, "
        "unused libraries in lib/) and run deploy again"
    )


def _kb(n: int) -> str:
    return f"{(n + 1023) // 1024} KB"


def atomic_write(dest: Path, source: Path | bytes) -> None:
    """Write dest under a temporary name in the same folder, then rename it into place."""
    tmp = dest.with_name(TMP_PREFIX + dest.name)
    try:
        with open(tmp, "wb") as out:
            if isinstance(source, (bytes, bytearray)):
                out.write(source)
            else:
                with open(source, "rb") as src:
                    shutil.copyfileobj(src, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, dest)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def _cluster(drive: Path) -> int:
    try:
        return max(512, os.statvfs(drive).f_bsize)
    except (AttributeError, OSError):
        return 4096


def _round(size: int, cluster: int) -> int:
    return (size + cluster - 1) // cluster * cluster if size else 0


def _writable(drive: Path) -> bool:
    if not os.access(drive, os.W_OK):
        return False
    try:
        return not os.statvfs(drive).f_flag & getattr(os, "ST_RDONLY", 1)
    except (AttributeError, OSError):
        return True


# --------------------------------------------------------------------------
# The deploy itself


@dataclass
class Plan:
    """Everything a deploy will do, worked out before anything is written."""

    drive: Path
    info: BootInfo | None
    copies: list[tuple[str, Path, str]] = field(default_factory=list)  # (rel, src, "new"/"changed")
    unchanged: list[str] = field(default_factory=list)
    lib_copies: list[tuple[str, Path, str]] = field(default_factory=list)
    lib_unchanged: list[str] = field(default_factory=list)
    libs: list[str] = field(default_factory=list)
    libs_skipped: list[str] = field(default_factory=list)
    circup: list[str] | None = None
    removals: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    dirs_to_remove: list[str] = field(default_factory=list)
    settings: bytes | None = None
    settings_created: bool = False
    settings_added: list[str] = field(default_factory=list)
    manifest: bytes = b""
    manifest_changed: bool = False
    files: dict[str, dict] = field(default_factory=dict)
    old_files: dict = field(default_factory=dict)
    old_dirs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    settings_changed: list[str] = field(default_factory=list)
    profile: str = ""
    py_sources: dict[str, Path] = field(default_factory=dict)  # a compiled module's .py
    bundle: Path | None = None
    env: envlibs.Env | None = None  # --offline: the libraries come from the project's environment
    zip: bool = False  # --zip: a bundle folder, the libraries from the environment alone
    lib_versions: list[str] = field(default_factory=list)  # "dist version" of each, from env
    force: bool = False
    checked: int | None = None  # files whose imports were checked (None: not yet)
    missing: dict[str, str] = field(default_factory=dict)  # kept with --force


def load_manifest(drive: Path) -> dict:
    """The manifest a previous deploy left on the drive (empty when none)."""
    path = drive / MANIFEST_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"files": {}, "dirs": []}
    except (OSError, ValueError):
        return {"files": {}, "dirs": [], "unreadable": True}
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return {"files": {}, "dirs": [], "unreadable": True}
    data.setdefault("dirs", [])
    return data


def _parents(rel: str) -> list[str]:
    parts = rel.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def make_plan(args, drive: Path, info: BootInfo | None, work_dir: Path, out) -> Plan:
    """Work out what to copy, remove and add, without touching the drive."""
    plan = Plan(drive=drive, info=info)
    source_root = Path(args.source)
    sources = collect_sources(source_root)
    if not sources:
        raise DeployError(f"nothing to deploy: {source_root} has no code.py, pisti_core/, lib/ or assets/")
    if ENTRY not in sources:
        plan.warnings.append(f"the project at {source_root} has no code.py yet, so the board will not start the game")
    plan.force, plan.profile, plan.zip = args.force, args.profile, bool(getattr(args, "zip", None))
    if not args.no_minify:
        if shrink.available():
            sources = shrink.shrink_sources(sources, work_dir)
        else:
            plan.warnings.append(shrink.MISSING)
    if args.mpy_cross:
        version, warnings = check_mpy_cross(args.mpy_cross, info.major if info else 0, force=args.force)
        out(f"  mpy-cross: {version}")
        plan.warnings.extend(warnings)
        compiled = compile_sources(args.mpy_cross, sources, work_dir)
        plan.py_sources = {rel: sources[rel[:-4] + ".py"] for rel in compiled if rel not in sources}
        sources = compiled
        bad = check_mpy_files({rel: sources[rel] for rel in plan.py_sources}, info, f"made by {args.mpy_cross}")
        if bad:
            fix = f"compile with {mpyfile.mpy_cross_for(info.major if info else 10)}, or deploy without --mpy-cross"
            _refuse(plan, bad, fix)

    manifest = load_manifest(drive)
    if manifest.get("unreadable"):
        plan.warnings.append(f"{MANIFEST_NAME} on the drive is unreadable; no old files will be removed this time")
    old_files: dict = manifest["files"]
    plan.old_files = old_files

    # Device libraries.
    if not args.no_libs:
        names = read_requirements(Path(args.requirements))
        if args.bundle:
            bundle = plan.bundle = Path(args.bundle)
            files, plan.libs, plan.libs_skipped = bundle_files(
                bundle, names, info.major if info else 0, info.version if info else "")
            _plan_lib_files(plan, files, sources, info)
        elif args.offline:
            plan.env = envlibs.Env.open(VENV, PINS)
            _plan_env_libs(plan, names, sources, info)
        else:
            circup = find_circup()
            if circup is None and not args.dry_run:
                raise DeployError(
                    f"circup is not installed: run {envlibs.SETUP}, "
                    f"or use {bundle_folder(info.major if info else 0)}, or --no-libs"
                )
            if info is None and not args.dry_run:
                raise DeployError("circup needs the board's boot_out.txt: use --bundle DIR or --no-libs with --force")
            plan.circup = circup_command(
                drive, Path(args.requirements), circup=circup or "circup", upgrade=args.upgrade_libs,
            )
            plan.libs = names

    # Firmware files.
    for rel, src in sources.items():
        dest = drive / rel
        if dest.is_dir():
            raise DeployError(f"{dest} is a folder on the drive where deploy needs to put a file; move it away")
        for parent in _parents(rel):
            if (drive / parent).is_file():
                raise DeployError(f"{drive / parent} is a file on the drive where deploy needs a folder; move it away")
        size, sha = digest(src)
        plan.files[rel] = {"size": size, "sha256": sha}
        if dest.is_file() and dest.stat().st_size == size and digest(dest)[1] == sha:
            plan.unchanged.append(rel)
            continue
        plan.copies.append((rel, src, "changed" if dest.exists() else "new"))
        record = old_files.get(rel)
        if isinstance(record, dict) and dest.is_file() and digest(dest) != (record.get("size"), record.get("sha256")):
            plan.warnings.append(f"{rel} was edited on the board since the last deploy; "
                                 "the project's version replaces it")
    # code.py goes last so CircuitPython's auto-reload never starts a half-copied program.
    plan.copies.sort(key=lambda item: (item[0] == ENTRY, item[0]))

    # Files an earlier deploy placed that the project no longer has.
    for rel in sorted(old_files):
        if rel in plan.files or rel.startswith("/") or ".." in rel.split("/"):
            continue
        dest = drive / rel
        if not dest.is_file():
            continue
        record = old_files[rel] if isinstance(old_files[rel], dict) else {}
        if digest(dest) == (record.get("size"), record.get("sha256")):
            plan.removals.append(rel)
        else:
            plan.kept.append(rel)
            plan.warnings.append(f"kept {rel}: it was changed on the board after the last deploy")
    new_dirs = {parent for rel in plan.files for parent in _parents(rel)} - {"lib"}
    old_dirs = {d for d in manifest.get("dirs", []) if isinstance(d, str) and ".." not in d.split("/")}
    plan.old_dirs = sorted(old_dirs)
    plan.dirs_to_remove = sorted(old_dirs - new_dirs - {"lib", ""}, key=lambda d: (-d.count("/"), d))

    # Every module the device code imports must be on the drive afterwards.
    if plan.circup is None:
        check_imports(plan, info, planned=True)

    # Temporary files left by a deploy that was interrupted (unplugged, killed).
    folders = {""} | {parent for rel in plan.files for parent in _parents(rel)}
    folders |= {parent for rel, _src, _why in plan.lib_copies for parent in _parents(rel)}
    for folder in sorted(folders):
        try:
            names = sorted(p.name for p in (drive / folder).glob(TMP_PREFIX + "*") if p.is_file())
        except OSError:
            continue
        plan.leftovers.extend(f"{folder}/{name}" if folder else name for name in names)

    # A module's .py shadows its .mpy on CircuitPython (the .py is imported first).
    removed = set(plan.removals)
    for rel in plan.files:
        if rel.endswith(".mpy"):
            twin = rel[:-4] + ".py"
            if twin not in removed and (drive / twin).is_file():
                plan.warnings.append(f"{twin} on the drive hides the new {rel} "
                                     "(CircuitPython imports .py first); delete it")

    # settings.toml
    _plan_settings(plan, args, drive, manifest.get("profile"))
    if (drive / "code.txt").is_file():
        plan.warnings.append("code.txt on the drive runs instead of code.py; rename or delete it")

    data = {
        "format": MANIFEST_FORMAT,
        "tool": "pisti tools/deploy.py",
        "note": "Files pisti's deploy placed here; it only ever removes files listed here.",
        "profile": args.profile,
        "compiled": bool(args.mpy_cross),
        "files": plan.files,
        "dirs": sorted(new_dirs),
        "device_libs": sorted(set(plan.libs) | set(manifest.get("device_libs", []) or [])),
    }
    plan.manifest = (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()
    try:
        plan.manifest_changed = (drive / MANIFEST_NAME).read_bytes() != plan.manifest
    except OSError:
        plan.manifest_changed = True
    return plan


def _refuse(plan: Plan, problems: list[str], fix: str, done: str = "Nothing was changed.") -> None:
    """Stop with the problems (or, with --force, keep them as warnings)."""
    if plan.force:
        plan.warnings.extend(p for p in problems if p not in plan.warnings)
        return
    head = problems[0] if len(problems) == 1 else f"{len(problems)} problems:\n  " + "\n  ".join(problems)
    anyway = "" if plan.zip else " (or pass --force to deploy anyway)"  # a bundle is made whole or not at all
    raise DeployError(f"{head}\n{done} Fix: {fix}{anyway}")


def lib_source(plan: Plan) -> str:
    """Where the library files deploy copies come from, for messages."""
    return envlibs.LABEL if plan.env else "the bundle"


def _plan_lib_files(plan: Plan, files: dict[str, Path], sources: dict, info: BootInfo | None) -> None:
    """Add library files (bundle or environment) to the plan, refusing .mpy files the board cannot load."""
    bad = check_mpy_files(files, info, "from " + lib_source(plan))
    if bad:
        major = info.major if info else 0
        _refuse(plan, bad, f"use {bundle_folder(major)}" if plan.env and not plan.zip else
                f"use {bundle_name(major)} from https://circuitpython.org/libraries")
    placed = {rel for rel, _src, _why in plan.lib_copies} | set(plan.lib_unchanged)
    for rel, src in sorted(files.items()):
        if rel in placed:
            continue
        if rel in sources:
            raise DeployError(f"the project's {rel} has the same name as a library from {lib_source(plan)}; "
                              "rename it")
        if same_content(src, plan.drive / rel):
            plan.lib_unchanged.append(rel)
        else:
            plan.lib_copies.append((rel, src, "changed" if (plan.drive / rel).exists() else "new"))
        if rel.endswith(".py") and (plan.drive / (rel[:-3] + ".mpy")).is_file():
            plan.warnings.append(f"{rel[:-3]}.mpy on the drive is no longer used: the {rel} from "
                                 f"{lib_source(plan)} comes first (CircuitPython imports .py first); delete it "
                                 "to free the space")


def _plan_env_libs(plan: Plan, names: list[str], sources: dict, info: BootInfo | None) -> list[str]:
    """--offline: add the libraries ``names`` from the project's environment; returns those added.

    A library that is not pinned, not installed, installed in another version
    than the pin or changed since pip installed it is refused (--force: a
    warning, and the import check decides whether the board misses it).
    """
    env = plan.env
    files, found, problems, to_install = env.files(names)
    if problems:
        fixes = []
        if to_install:
            fixes.append(f"{env.fix(to_install)}, which needs the network once")
        elif plan.zip:
            fixes.append(f"pin them in {env.shown}, then run {envlibs.SETUP}")
        if not plan.zip:  # --zip takes the libraries from the environment alone
            fixes.append(f"use {bundle_folder(info.major if info else 0)}, or deploy with the network "
                         "(without --offline)")
        _refuse(plan, problems, "; or ".join(fixes))
    added = [name for name in names if any(rel == f"lib/{name}" or rel.startswith((f"lib/{name}/", f"lib/{name}."))
                                          for rel in files)]
    plan.libs.extend(n for n in added if n not in plan.libs)
    plan.lib_versions.extend(v for v in found if v not in plan.lib_versions)
    _plan_lib_files(plan, files, sources, info)
    return added


def _plan_settings(plan: Plan, args, drive: Path, old_profile: str | None) -> None:
    """settings.toml: check it, switch the keys deploy wrote to a new profile, add missing keys."""
    profile = (BOARDS_DIR / f"{args.profile}.toml").read_bytes()
    settings_path = drive / "settings.toml"
    existing = settings_path.read_bytes() if settings_path.is_file() else None
    if existing is not None:
        bad = [f"settings.toml {p}" for p in settingstoml.problems(existing, settingstoml.profile_types(profile))]
        if bad:
            _refuse(plan, bad, f"edit settings.toml on the drive ({drive / 'settings.toml'}), or delete it "
                    "and deploy again to get the profile's")
        theirs = profile_value(existing, "PISTI_PROFILE")
        old_profile = old_profile or theirs
        if old_profile and old_profile != args.profile and (BOARDS_DIR / f"{old_profile}.toml").is_file():
            existing, plan.settings_changed, kept = switch_profile(
                existing, (BOARDS_DIR / f"{old_profile}.toml").read_bytes(), profile, args.profile)
            plan.warnings.extend(kept)
    merged, plan.settings_added = merge_settings(existing, profile, args.profile)
    if existing is None or plan.settings_added or plan.settings_changed:
        plan.settings = merged
        plan.settings_created = existing is None


def drive_files(drive: Path) -> tuple[dict[str, Path], set[str]]:
    """(files, folders) on the drive as drive paths, hidden ones left out."""
    files: dict[str, Path] = {}
    dirs: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(drive):
        dirnames[:] = sorted(d for d in dirnames if not _skipped(d))
        rel_dir = Path(dirpath).relative_to(drive).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        if prefix:
            dirs.add(rel_dir)
        for name in filenames:
            if not _skipped(name) and not name.startswith(TMP_PREFIX):
                files[prefix + name] = Path(dirpath) / name
    return files, dirs


def check_imports(plan: Plan, info: BootInfo | None, planned: bool) -> dict[str, str]:
    """Walk the device code's imports over the drive as it will be; returns what is missing.

    With a bundle (or --offline, the project's environment), missing
    libraries it holds are added to the plan; what
    stays missing (or a library .mpy the board cannot load) stops the
    deploy. ``planned``: before anything is written (bundle, --no-libs), else
    after circup ran (then the caller decides what to do with the result).
    """
    while True:
        files, dirs = drive_files(plan.drive)
        for rel in plan.removals:
            files.pop(rel, None)
        for rel, src, _why in plan.lib_copies + plan.copies:
            files[rel] = src
        dirs |= {parent for rel in files for parent in _parents(rel)}
        bad: list[str] = []

        def read(rel: str, files=files, bad=bad):
            path = files[rel]
            if rel in plan.py_sources:
                return imports.py_imports(plan.py_sources[rel].read_bytes(), rel)
            data = path.read_bytes()
            if rel.endswith(".py"):
                return imports.py_imports(data, rel)
            why = mpyfile.loads_on(mpyfile.read_header(data), info.major if info else 0)
            if why:
                bad.append(f"{rel} ({mpyfile.read_header(data).label}): {why}")
                return []
            return mpyfile.imports(data)

        # The project's modules, and every module of the libraries deploy installs.
        libs = set(plan.libs)
        start = [rel for rel in plan.files if rel.endswith((".py", ".mpy"))]
        start += sorted(rel for rel in files if rel.startswith("lib/") and rel.endswith((".py", ".mpy"))
                        and rel not in plan.files and imports.module_of(rel).split(".")[0] in libs)
        missing, plan.checked = imports.check(imports.DriveView(files, dirs), start, read, _warn_once(plan))
        plan.missing = missing
        if bad:
            _refuse(plan, [f"the board cannot load {b}" for b in bad],
                    f"replace those files with ones from {bundle_name(info.major if info else 0)}",
                    "Nothing was changed." if planned else "circup installed them; nothing of the game was copied.")
        if not missing or not planned:
            return missing
        if plan.bundle is not None:
            have = [top for top in sorted({m.split(".", 1)[0] for m in missing})
                    if any((plan.bundle / "lib" / (top + ext)).exists() for ext in ("", ".mpy", ".py"))]
            if have:
                extra, found, _skip = bundle_files(plan.bundle, have)
                plan.libs.extend(n for n in found if n not in plan.libs)
                _plan_lib_files(plan, extra, plan.files, info)
                continue
        if plan.env is not None:
            have = [top for top in sorted({m.split(".", 1)[0] for m in missing}) if plan.env.has(top)]
            if have and _plan_env_libs(plan, have, plan.files, info):
                continue
        _refuse(plan, missing_messages(plan, missing), missing_fix(plan, missing))
        return missing


def _warn_once(plan: Plan):
    return lambda text: None if text in plan.warnings else plan.warnings.append(text)


def missing_messages(plan: Plan, missing: dict[str, str]) -> list[str]:
    where = f" and not in the bundle at {plan.bundle}" if plan.bundle else ""
    if plan.env:
        where = f" and not pinned in {plan.env.shown} and installed in {envlibs.LABEL}"
    return [
        f"the board would stop at 'import {name}' (in {rel}): {name.split('.', 1)[0]} is not on the drive{where}"
        for name, rel in sorted(missing.items())
    ]


def missing_fix(plan: Plan, missing: dict[str, str]) -> str:
    tops = sorted({name.split(".", 1)[0] for name in missing})
    first = "deploy without --no-libs, or " if plan.circup is None and plan.bundle is None and not plan.env else ""
    pinned = [plan.env.pins[top] for top in tops if plan.env and top in plan.env.pins]
    if pinned:
        first = plan.env.fix([f"{dist}=={version}" for dist, version in pinned]) + ", or "
    if plan.zip:  # the staging folder is no drive to install into
        return first.removesuffix(", or ") or (f"pin {', '.join(tops)} in {plan.env.shown}, then run "
                                                f"{envlibs.SETUP}")
    return (f"{first}circup --path {plan.drive} install {' '.join(tops)}, or copy {', '.join(tops)} from the "
            f"lib/ folder of {bundle_name(plan.info.major if plan.info else 0)} into {plan.drive / 'lib'}")


def space_needed(plan: Plan) -> int:
    """Bytes of free space the deploy needs at its worst moment (a bound).

    Files are replaced one at a time through a temporary copy, so the peak is
    the net growth of all files plus the largest file held twice; removals
    happen first and free their space.
    """
    cluster = _cluster(plan.drive)
    growth = 0
    overlap = 0
    writes = [(rel, src) for rel, src, _why in plan.lib_copies + plan.copies]
    if plan.settings is not None:
        writes.append(("settings.toml", plan.settings))
    if plan.manifest_changed:
        writes.append((MANIFEST_NAME, plan.manifest))
    new_dirs = set()
    for rel, src in writes:
        new = _round(len(src) if isinstance(src, bytes) else src.stat().st_size, cluster)
        dest = plan.drive / rel
        old = _round(dest.stat().st_size, cluster) if dest.is_file() else 0
        growth += max(0, new - old)
        overlap = max(overlap, min(new, old))
        new_dirs.update(p for p in _parents(rel) if not (plan.drive / p).is_dir())
    freed = sum(_round((plan.drive / rel).stat().st_size, cluster) for rel in plan.removals)
    return growth + overlap + cluster * len(new_dirs) - freed


def execute(plan: Plan, runner: Runner, out) -> None:
    """Carry out a plan: libraries, removals, files, settings, manifest, code.py.

    If writing fails half-way, the manifest is still updated (best effort)
    with what was placed, so the next deploy knows those files are ours.
    """
    done: set[str] = set()
    try:
        _execute(plan, runner, out, done)
    except BaseException:
        if done:
            _save_partial_manifest(plan, done)
        raise


def _save_partial_manifest(plan: Plan, done: set[str]) -> None:
    files = {
        rel: rec for rel, rec in plan.old_files.items()
        if rel not in plan.files and (plan.drive / rel).is_file()
    }
    for rel in plan.files:
        if rel in done:
            files[rel] = plan.files[rel]
        elif rel in plan.old_files and (plan.drive / rel).is_file():
            files[rel] = plan.old_files[rel]
    data = json.loads(plan.manifest)
    data["files"] = files
    data["dirs"] = sorted(set(data["dirs"]) | set(plan.old_dirs))
    try:
        atomic_write(plan.drive / MANIFEST_NAME, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    except OSError:
        pass


def _execute(plan: Plan, runner: Runner, out, done: set[str]) -> None:
    drive = plan.drive
    if plan.circup:
        run_circup(plan.circup, runner, out)
        missing = check_imports(plan, plan.info, planned=False)
        if missing:
            tops = sorted({name.split(".", 1)[0] for name in missing})
            out(f"  not on the drive after circup: {', '.join(sorted(missing))}; installing {', '.join(tops)}")
            run_circup(circup_command(drive, None, circup=plan.circup[0], names=tops), runner, out)
            missing = check_imports(plan, plan.info, planned=False)
        if missing:
            problems = missing_messages(plan, missing)
            if not plan.force:
                raise DeployError("; ".join(problems) + ". circup installed the libraries it knew; nothing of "
                                  f"the game was copied. Fix: {missing_fix(plan, missing)}, then deploy again")
            plan.warnings.extend(problems)
    for rel in plan.removals:
        (drive / rel).unlink()
        done.add("-" + rel)
        out(f"  removed {rel}")
    for rel in plan.leftovers:
        try:
            (drive / rel).unlink()
        except OSError:
            pass
    for rel in plan.dirs_to_remove:
        try:
            (drive / rel).rmdir()  # only when empty: never a user's file
        except OSError:
            pass
    for rel, src, why in plan.lib_copies:
        (drive / rel).parent.mkdir(parents=True, exist_ok=True)
        atomic_write(drive / rel, src)
        out(f"  copied  {rel} ({why}, from {lib_source(plan)})")
    entry = None
    for rel, src, why in plan.copies:
        if rel == ENTRY:
            entry = (rel, src, why)
            continue
        (drive / rel).parent.mkdir(parents=True, exist_ok=True)
        atomic_write(drive / rel, src)
        done.add(rel)
        out(f"  copied  {rel} ({why})")
    if plan.settings is not None:
        atomic_write(drive / "settings.toml", plan.settings)
    if plan.manifest_changed:
        atomic_write(drive / MANIFEST_NAME, plan.manifest)
    if entry:
        atomic_write(drive / ENTRY, entry[1])
        done.add(ENTRY)
        out(f"  copied  {ENTRY} ({entry[2]})")


def describe(plan: Plan, out, dry_run: bool) -> None:
    """Print what a dry run would do."""
    would = "would " if dry_run else ""
    if plan.circup:
        out(f"  {would}run: " + " ".join(plan.circup))
    for rel, _src, why in plan.lib_copies:
        out(f"  {would}copy {rel} ({why}, from {lib_source(plan)})")
    for rel in plan.removals:
        out(f"  {would}remove {rel}")
    for rel, _src, why in plan.copies:
        out(f"  {would}copy {rel} ({why})")
    if plan.settings_created:
        out(f"  {would}create settings.toml from the profile")
    if plan.settings_changed:
        out(f"  {would}switch in settings.toml to the {plan.profile} profile: {', '.join(plan.settings_changed)}")
    if plan.settings_added and not plan.settings_created:
        out(f"  {would}add to settings.toml: {', '.join(plan.settings_added)}")


def summary(plan: Plan, dry_run: bool) -> str:
    """One paragraph saying what was (or would be) done."""
    verb = "would be " if dry_run else ""
    parts = [
        f"{len(plan.copies)} {verb}copied",
        f"{len(plan.unchanged)} unchanged",
        f"{len(plan.removals)} {verb}removed",
    ]
    if plan.circup:
        libs = f"libs: {verb}installed with circup ({', '.join(plan.libs)})"
    elif plan.libs:
        libs = (
            f"libs: {len(plan.lib_copies)} file{'' if len(plan.lib_copies) == 1 else 's'} {verb}copied, "
            f"{len(plan.lib_unchanged)} unchanged from {lib_source(plan)}"
            + (f", as pinned ({', '.join(plan.lib_versions)})" if plan.env else f" ({', '.join(plan.libs)})")
        )
    else:
        libs = "libs: skipped"
    if plan.settings_created:
        settings = f"settings.toml: {verb}created ({len(plan.settings_added)} keys)"
    else:
        done = []
        if plan.settings_changed:
            done.append(f"{len(plan.settings_changed)} keys {verb}switched to the {plan.profile} profile "
                        f"({', '.join(plan.settings_changed)})")
        if plan.settings_added:
            done.append(f"{len(plan.settings_added)} keys {verb}added ({', '.join(plan.settings_added)})")
        settings = "settings.toml: " + ("; ".join(done) if done else "kept as it is")
    if plan.checked is None:
        checked = "imports: checked once circup has installed the libraries"
    else:
        checked = f"imports: {plan.checked} modules checked, " + (
            f"MISSING {', '.join(sorted(plan.missing))} (--force)" if plan.missing else "none missing")
    text = "Summary: " + ", ".join(parts) + "; " + libs + "; " + settings + "; " + checked + "."
    if dry_run:
        text = "Dry run, nothing was changed. " + text
    return text


def resolve_drive(args) -> tuple[Path, BootInfo | None]:
    """The drive to deploy to and what its boot_out.txt says."""
    if args.to:
        drive = Path(args.to).expanduser()
        if not drive.is_dir():
            raise DeployError(f"{drive} is not a folder; give the CIRCUITPY drive's mount point to --to")
    else:
        drives = find_drives()
        if not drives:
            raise DeployError(
                "no CIRCUITPY drive found: plug the board in with a data USB cable, wait for the CIRCUITPY "
                "drive to appear (install CircuitPython first, see the README's hardware guide), or pass --to PATH"
            )
        if len(drives) > 1:
            raise DeployError(
                "several CIRCUITPY drives found (" + ", ".join(map(str, drives)) + "); choose one with --to PATH"
            )
        drive = drives[0]
    boot_out = drive / "boot_out.txt"
    if not boot_out.is_file():
        if not args.force:
            raise DeployError(
                f"{drive} is not a CIRCUITPY drive (it has no boot_out.txt); check the path, "
                "or pass --force to deploy there anyway"
            )
        return drive, None
    try:
        text = boot_out.read_text(encoding="utf-8", errors="replace")
        return drive, parse_boot_out(text)
    except DeployError:
        if args.force:
            return drive, None
        raise DeployError(
            f"{boot_out} does not say which CircuitPython version the board runs; "
            "pass --force to deploy anyway"
        ) from None


def run(args, runner: Runner = run_subprocess, out=print, err=None) -> int:
    """Deploy according to parsed arguments; raises DeployError on failure."""
    err = err or (lambda text: print(text, file=sys.stderr))
    drive, info = resolve_drive(args)
    out(f"pisti deploy to {drive}" + (" (dry run)" if args.dry_run else ""))
    if info:
        board = f"{info.board_name} ({info.board_id})" if info.board_id else info.board_name
        out(f"  board: {board}, CircuitPython {info.version}")
        if info.major < MIN_MAJOR:
            raise DeployError(
                f"the board runs CircuitPython {info.version}, older than {MIN_MAJOR}: install CircuitPython "
                f"9 or 10 from https://circuitpython.org/board/{info.board_id or 'raspberry_pi_pico'}/ first "
                "(the README's hardware guide explains how)"
            )
    else:
        out("  board: unknown (no usable boot_out.txt; --force)")
    args.profile = choose_profile(args, info, out, err)
    if not _writable(drive):
        raise _read_only_error(drive)
    with tempfile.TemporaryDirectory(prefix="pisti-mpy-") as work:
        plan = make_plan(args, drive, info, Path(work), out)
        for warning in plan.warnings:
            err(f"warning: {warning}")
        need = space_needed(plan)
        free = shutil.disk_usage(drive).free
        if need > free:
            raise _full_error(drive, need, free)
        if args.dry_run:
            describe(plan, out, True)
        else:
            try:
                execute(plan, runner, out)
            except OSError as exc:
                if exc.errno == errno.ENOSPC:
                    raise _full_error(drive) from None
                if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                    raise _read_only_error(drive) from None
                where = f" ({exc.filename})" if exc.filename else ""
                raise DeployError(f"writing to the drive failed{where}: {exc.strerror or exc}") from None
    out(summary(plan, args.dry_run))
    if plan.warnings:
        out(f"{len(plan.warnings)} warning(s), shown above.")
    return 0


def stage(args, drive: Path, major: int, board_name: str, board_id: str) -> Plan:
    """Deploy quietly into an empty folder as onto a board of CircuitPython ``major``
    with that Board ID (``--zip``: the bundles hold exactly this); returns the plan."""
    info = BootInfo(version=f"{major}.x", major=major, board_name=board_name, board_id=board_id)

    def no_circup(cmd):
        raise DeployError("internal: a bundle is made without circup")

    with tempfile.TemporaryDirectory(prefix="pisti-mpy-") as work:
        plan = make_plan(args, drive, info, Path(work), lambda _text: None)
        execute(plan, no_circup, lambda _text: None)
    return plan


def choose_profile(args, info: BootInfo | None, out, err) -> str:
    """The board profile: the one the Board ID takes, else --profile, else pico.

    A --profile that contradicts a known Board ID is refused unless --force.
    """
    board_id = info.board_id if info else ""
    known = boards.profile_for(board_id) if board_id else None
    given = args.profile
    if known and given and given != known:
        if not args.force:
            raise DeployError(
                f"the board is {board_id}, which takes --profile {known}, not {given}: leave --profile out, "
                f"or pass --force to use {given} anyway"
            )
        err(f"warning: the board is {board_id}, which takes --profile {known}; using {given} (--force)")
        out(f"  profile: {given} (as given, --force; the board {board_id} takes {known})")
        return given
    if known:
        out(f"  profile: {known} (from the board id {board_id})")
        return known
    profile = given or "pico"
    how = "as given" if given else "the default"
    if board_id:
        out(f"  profile: {profile} ({how}; deploy does not know the board {board_id}: "
            "--profile pico or featherwing chooses)")
    else:
        out(f"  profile: {profile} ({how})")
    return profile


def profiles() -> list[str]:
    """Board profile names (tools/boards/*.toml)."""
    return sorted(p.stem for p in BOARDS_DIR.glob("*.toml"))


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="deploy.py",
        description="Copy the pisti firmware onto a CircuitPython board's CIRCUITPY drive "
        "(only what changed; settings.toml and saved games are kept).",
    )
    parser.add_argument("--to", metavar="PATH", help="the CIRCUITPY drive (default: find it)")
    parser.add_argument("--profile", choices=profiles(), default=None,
                        help="board profile for settings.toml (default: the one the board's Board ID takes, "
                        "else pico)")
    parser.add_argument("--dry-run", action="store_true", help="print what would be done, change nothing")
    parser.add_argument("--force", action="store_true",
                        help="deploy anyway: to a folder with no boot_out.txt, with a profile the board id "
                        "contradicts, a broken settings.toml, a missing library or an .mpy the board refuses")
    parser.add_argument("--verbose", action="store_true", help="show circup's whole output")
    libs = parser.add_mutually_exclusive_group()
    libs.add_argument("--bundle", metavar="DIR",
                      help="install device libraries from an extracted adafruit-circuitpython-bundle-<N>.x-mpy "
                      "folder, N the board's CircuitPython major version (no network)")
    libs.add_argument("--no-libs", action="store_true", help="do not install device libraries")
    parser.add_argument("--offline", action="store_true",
                        help="no network: install the device libraries from the project's environment (.venv, "
                        "the versions tools/requirements.txt pins) instead of with circup")
    parser.add_argument("--upgrade-libs", action="store_true", help="let circup upgrade installed libraries")
    parser.add_argument("--requirements", default=str(REQUIREMENTS), metavar="FILE",
                        help="device library list (default: tools/requirements-device.txt)")
    parser.add_argument("--mpy-cross", metavar="PATH",
                        help="compile pisti_core/ and lib/ to .mpy with CircuitPython's mpy-cross")
    parser.add_argument("--no-minify", action="store_true",
                        help="copy pisti_core/ and lib/ as written (readable tracebacks) instead of minified "
                        "(locals renamed, docstrings dropped: ~10 KB more free in a link game, "
                        "tools/deploylib/shrink.py)")
    parser.add_argument("--source", default=str(ROOT), metavar="DIR",
                        help="project folder to deploy (default: this checkout)")
    parser.add_argument("--zip", metavar="OUTDIR",
                        help="no board: write pisti-<version>-<profile>-circuitpython-<N>.x.zip Project Bundles "
                        "into OUTDIR, each what deploy --offline puts on CIRCUITPY, for every profile (or "
                        "--profile) and CircuitPython 9 and 10")
    return parser


def main(argv=None, *, runner: Runner | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.zip:
            bundle.write(args, stage, profiles(), BOARDS_DIR, print, lambda text: print(text, file=sys.stderr))
            return 0
        return run(args, runner or (lambda cmd: run_subprocess(cmd, args.verbose)))
    except DeployError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted; run deploy again to finish (files already copied are complete)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
