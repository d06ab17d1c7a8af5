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
next time while files it did not put there are never touched.

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
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

ROOT = Path(__file__).resolve().parent.parent
BOARDS_DIR = ROOT / "tools" / "boards"
REQUIREMENTS = ROOT / "tools" / "requirements-device.txt"

MANIFEST_NAME = ".pisti-manifest.json"
TMP_PREFIX = ".pisti-tmp-"
ENTRY = "code.py"
FIRMWARE_DIRS = ("pisti_core", "lib", "assets")
COMPILED_DIRS = ("pisti_core", "lib")
MIN_MAJOR = 9
MANIFEST_FORMAT = 1

Runner = Callable[[list], int]


class DeployError(Exception):
    """A problem reported to the user as one sentence, without a traceback."""


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


def _unescape_mount(field_text: str) -> str:
    """/proc/mounts writes spaces and tabs in mount points as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field_text)


def _windows_drives() -> list[Path]:
    """Drive letters whose volume label is CIRCUITPY (Windows only)."""
    import ctypes  # pylint: disable=import-outside-toplevel

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    found = []
    old_mode = kernel32.SetErrorMode(1)  # no "insert a disk" pop-ups for empty card readers
    try:
        for letter in "DEFGHIJKLMNOPQRSTUVWXYZ":
            root = f"{letter}:\\"
            if not os.path.exists(root):
                continue
            label = ctypes.create_unicode_buffer(261)
            if kernel32.GetVolumeInformationW(root, label, 261, None, None, None, None, 0):
                if label.value.upper().startswith("CIRCUITPY"):
                    found.append(Path(root))
    finally:
        kernel32.SetErrorMode(old_mode)
    return found


def mount_candidates(env=None, platform=None, mounts_text=None, bases=None) -> list[Path]:
    """Places a CIRCUITPY drive may be mounted at, most likely first."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    found: list[Path] = []
    if platform.startswith("win"):
        return _windows_drives()
    user = env.get("USER") or env.get("LOGNAME") or ""
    if bases is None:
        bases = [Path("/Volumes")] if platform == "darwin" else []
        if user:
            bases += [Path("/media") / user, Path("/run/media") / user]
        bases += [Path("/media"), Path("/mnt")]
    for base in bases:
        found.append(Path(base) / "CIRCUITPY")
        try:
            found.extend(sorted(p for p in Path(base).iterdir() if p.name.upper().startswith("CIRCUITPY")))
        except OSError:
            pass
    if mounts_text is None:
        try:
            mounts_text = Path("/proc/mounts").read_text(encoding="utf-8", errors="replace")
        except OSError:
            mounts_text = ""
    for line in mounts_text.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            mount_point = Path(_unescape_mount(parts[1]))
            if mount_point.name.upper().startswith("CIRCUITPY"):
                found.append(mount_point)
    unique: list[Path] = []
    for path in found:
        if path not in unique:
            unique.append(path)
    return unique


def find_drives(**kwargs) -> list[Path]:
    """Mounted CIRCUITPY drives: candidates that hold a ``boot_out.txt``."""
    drives = []
    for path in mount_candidates(**kwargs):
        try:
            if (path / "boot_out.txt").is_file():
                resolved = path.resolve()
                if resolved not in drives:
                    drives.append(resolved)
        except OSError:
            continue
    return drives


# --------------------------------------------------------------------------
# What to copy


def _skipped(name: str) -> bool:
    return (
        name.startswith(".")
        or name == "__pycache__"
        or name.endswith((".pyc", ".pyo", "~"))
    )


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


def check_mpy_cross(mpy_cross: str, board_major: int, runner_output=None) -> tuple[str, list[str]]:
    """Run ``mpy-cross --version``; returns (version text, warnings)."""
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
    match = re.search(r"CircuitPython\s+(\d+)\.", runner_output)
    if "circuitpython" not in runner_output.lower():
        warnings.append(
            f"{mpy_cross} does not say it is CircuitPython's mpy-cross (it says {text!r}): "
            "MicroPython's .mpy files fail on the board with 'incompatible .mpy file'; get "
            "CircuitPython's mpy-cross for your CircuitPython version from "
            "https://adafruit-circuit-python.s3.amazonaws.com/index.html?prefix=bin/mpy-cross/"
        )
    elif match and board_major and int(match.group(1)) != board_major:
        warnings.append(
            f"mpy-cross is from CircuitPython {match.group(1)} but the board runs "
            f"CircuitPython {board_major}: use the matching mpy-cross if imports fail"
        )
    return text, warnings


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
# settings.toml

_KEY_RE = re.compile(rb"^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=")
_TABLE_RE = re.compile(rb"^[ \t]*\[")


def _lines_with_offsets(data: bytes) -> Iterable[tuple[int, bytes]]:
    offset = 0
    for line in data.splitlines(keepends=True):
        yield offset, line
        offset += len(line)


def settings_keys(data: bytes) -> set[str]:
    """Top-level keys of a settings.toml (those before any [table] header)."""
    keys = set()
    for _offset, line in _lines_with_offsets(data):
        if _TABLE_RE.match(line):
            break
        match = _KEY_RE.match(line)
        if match:
            keys.add(match.group(1).decode("ascii"))
    return keys


def profile_entries(profile: bytes) -> list[tuple[str, bytes]]:
    """(key, its line without line ending) for each top-level key of a board profile."""
    entries = []
    for _offset, line in _lines_with_offsets(profile):
        if _TABLE_RE.match(line):
            break
        match = _KEY_RE.match(line)
        if match:
            entries.append((match.group(1).decode("ascii"), line.rstrip(b"\r\n")))
    return entries


def merge_settings(existing: bytes | None, profile: bytes, profile_name: str) -> tuple[bytes, list[str]]:
    """The new settings.toml and the keys added to it.

    A missing file becomes the profile itself. An existing file keeps every
    byte; the keys it lacks are inserted as a block (with a comment line)
    at its end, or before its first [table] header, since CircuitPython only
    reads top-level keys.
    """
    entries = profile_entries(profile)
    if existing is None:
        return profile, [key for key, _line in entries]
    have = settings_keys(existing)
    missing = [(key, line) for key, line in entries if key not in have]
    if not missing:
        return existing, []
    eol = b"\r\n" if b"\r\n" in existing else b"\n"
    insert_at = len(existing)
    for offset, line in _lines_with_offsets(existing):
        if _TABLE_RE.match(line):
            insert_at = offset
            break
    head, tail = existing[:insert_at], existing[insert_at:]
    comment = f"# Added by tools/deploy.py (profile {profile_name}): keys this file lacked.".encode()
    block = eol.join([comment] + [line for _key, line in missing]) + eol
    if head and not head.endswith((b"\n", b"\r")):
        head += eol
    if head:
        block = eol + block
    if tail:
        block += eol
    return head + block + tail, [key for key, _line in missing]


def profile_value(data: bytes, key: str) -> str | None:
    """The raw value text of a top-level key, for messages."""
    for _offset, line in _lines_with_offsets(data):
        if _TABLE_RE.match(line):
            break
        match = _KEY_RE.match(line)
        if match and match.group(1).decode("ascii") == key:
            value = line[match.end():].split(b"#", 1)[0].strip()
            return value.decode("utf-8", "replace").strip('"')
    return None


# --------------------------------------------------------------------------
# Device libraries


def library_name(requirement: str) -> str:
    """Bundle module name of a requirement line (pip or bundle spelling)."""
    name = re.split(r"[<>=~!\[;@ \t]", requirement.strip().lower(), maxsplit=1)[0]
    if "circuitpython" in name:
        name = name.replace("-circuitpython-", "_").replace("_circuitpython_", "_")
    return name.replace("-", "_")


def read_requirements(path: Path) -> list[str]:
    """Library names listed in a requirements file (comments and blanks skipped)."""
    names = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeployError(f"cannot read the device requirements {path}: {exc.strerror}") from None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name = library_name(line)
            if name not in names:
                names.append(name)
    return names


def _bundle_dependencies(bundle: Path, name: str) -> list[str]:
    """Dependencies a bundle records for a library (requirements/<name>/)."""
    deps = []
    req = bundle / "requirements" / name / "requirements.txt"
    if req.is_file():
        deps.extend(read_requirements(req))
    pyproject = bundle / "requirements" / name / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            data = {}
        extra = data.get("circup", {}).get("circup_dependencies", [])
        if isinstance(extra, str):
            extra = [extra]
        deps.extend(library_name(d) for d in extra)
    return deps


def bundle_files(bundle: Path, names: list[str]) -> tuple[dict[str, Path], list[str], list[str]]:
    """Files to copy from an extracted library bundle for names and their dependencies.

    Returns (drive path -> bundle file, libraries found, dependencies the
    bundle does not hold, such as desktop-only Blinka).
    """
    lib = bundle / "lib"
    if not lib.is_dir():
        raise DeployError(
            f"{bundle} is not an extracted CircuitPython library bundle (it has no lib/ folder); "
            "unzip adafruit-circuitpython-bundle-9.x-mpy-....zip and pass that folder"
        )
    files: dict[str, Path] = {}
    found: list[str] = []
    skipped: list[str] = []
    queue = list(names)
    seen: set[str] = set()
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        entry = None
        for candidate in (lib / name, lib / f"{name}.mpy", lib / f"{name}.py"):
            if candidate.exists():
                entry = candidate
                break
        if entry is None:
            if name in names:
                raise DeployError(f"the library {name} is not in the bundle at {lib}")
            skipped.append(name)
            continue
        found.append(name)
        if entry.is_dir():
            for dirpath, dirnames, filenames in os.walk(entry):
                dirnames[:] = sorted(d for d in dirnames if not _skipped(d))
                for fname in sorted(filenames):
                    if not _skipped(fname):
                        path = Path(dirpath) / fname
                        files["lib/" + path.relative_to(lib).as_posix()] = path
        else:
            files["lib/" + entry.name] = entry
        queue.extend(_bundle_dependencies(bundle, name))
    return files, found, skipped


def find_circup() -> str | None:
    """The circup next to this Python (the project's .venv), else on PATH."""
    exe = "circup.exe" if os.name == "nt" else "circup"
    beside = Path(sys.executable).with_name(exe)
    if beside.is_file():
        return str(beside)
    return shutil.which("circup")


def circup_command(
    drive: Path, requirements: Path, *, circup: str = "circup", offline: bool = False, upgrade: bool = False
) -> list[str]:
    """The circup command line that installs the requirements onto the drive."""
    cmd = [circup, "--path", str(drive)]
    if offline:
        cmd.append("--offline")
    cmd += ["install"]
    if upgrade:
        cmd.append("--upgrade")
    cmd += ["-r", str(requirements)]
    return cmd


def run_subprocess(cmd: list) -> int:
    """Default runner: run a command, its output going to the terminal."""
    try:
        return subprocess.run(cmd, check=False).returncode
    except OSError as exc:
        raise DeployError(f"cannot run {cmd[0]}: {exc.strerror}") from None


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
    if args.mpy_cross:
        version, warnings = check_mpy_cross(args.mpy_cross, info.major if info else 0)
        out(f"  mpy-cross: {version}")
        plan.warnings.extend(warnings)
        sources = compile_sources(args.mpy_cross, sources, work_dir)

    manifest = load_manifest(drive)
    if manifest.get("unreadable"):
        plan.warnings.append(f"{MANIFEST_NAME} on the drive is unreadable; no old files will be removed this time")
    old_files: dict = manifest["files"]
    plan.old_files = old_files

    # Device libraries.
    if not args.no_libs:
        names = read_requirements(Path(args.requirements))
        if args.bundle:
            bundle = Path(args.bundle)
            files, plan.libs, plan.libs_skipped = bundle_files(bundle, names)
            tag = re.search(r"bundle-(\d+)\.x-(mpy|py)", bundle.resolve().name)
            if tag and tag.group(2) == "mpy" and info and int(tag.group(1)) != info.major:
                plan.warnings.append(
                    f"the bundle is for CircuitPython {tag.group(1)}.x but the board runs {info.version}; "
                    f"use the {info.major}.x bundle if the libraries fail to import"
                )
            for rel, src in sorted(files.items()):
                if rel in sources:
                    raise DeployError(f"the project's {rel} has the same name as a bundle library; rename it")
                if same_content(src, drive / rel):
                    plan.lib_unchanged.append(rel)
                else:
                    plan.lib_copies.append((rel, src, "changed" if (drive / rel).exists() else "new"))
        else:
            circup = find_circup()
            if circup is None and not args.dry_run:
                raise DeployError(
                    "circup is not installed: run tools/setup.sh (or pip install circup), "
                    "or use --bundle DIR or --no-libs"
                )
            if info is None and not args.dry_run:
                raise DeployError("circup needs the board's boot_out.txt: use --bundle DIR or --no-libs with --force")
            plan.circup = circup_command(
                drive, Path(args.requirements), circup=circup or "circup",
                offline=args.offline, upgrade=args.upgrade_libs,
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
            plan.warnings.append(f"{rel} was edited on the board since the last deploy; the project's version replaces it")
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
                plan.warnings.append(f"{twin} on the drive hides the new {rel} (CircuitPython imports .py first); delete it")

    # settings.toml
    profile_path = BOARDS_DIR / f"{args.profile}.toml"
    profile = profile_path.read_bytes()
    settings_path = drive / "settings.toml"
    existing = settings_path.read_bytes() if settings_path.is_file() else None
    merged, plan.settings_added = merge_settings(existing, profile, args.profile)
    if existing is None or plan.settings_added:
        plan.settings = merged
        plan.settings_created = existing is None
    if existing is not None:
        theirs = profile_value(existing, "PISTI_PROFILE")
        if theirs and theirs != args.profile:
            plan.warnings.append(
                f"settings.toml says PISTI_PROFILE = {theirs!r}, not {args.profile!r}; it is kept as it is "
                "(edit or delete it on the drive to switch)"
            )
    if info and info.board_id:
        wing = info.board_id.startswith("adafruit_feather")
        if args.profile == "pico" and wing:
            plan.warnings.append(f"the board is {info.board_id}: did you mean --profile featherwing?")
        elif args.profile == "featherwing" and info.board_id.startswith("raspberry_pi_pico"):
            plan.warnings.append(f"the board is {info.board_id}: did you mean --profile pico?")
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
        out("  running: " + " ".join(plan.circup))
        status = runner(plan.circup)
        if status != 0:
            raise DeployError(
                f"circup failed (exit status {status}) and nothing else was changed; check the network, "
                "or install from a downloaded bundle with --bundle DIR, or skip libraries with --no-libs"
            )
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
        out(f"  copied  {rel} ({why}, from the bundle)")
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
        out(f"  {would}copy {rel} ({why}, from the bundle)")
    for rel in plan.removals:
        out(f"  {would}remove {rel}")
    for rel, _src, why in plan.copies:
        out(f"  {would}copy {rel} ({why})")
    if plan.settings_created:
        out(f"  {would}create settings.toml from the profile")
    elif plan.settings_added:
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
            f"libs: {len(plan.lib_copies)} files {verb}copied, {len(plan.lib_unchanged)} unchanged "
            f"from the bundle ({', '.join(plan.libs)})"
        )
    else:
        libs = "libs: skipped"
    if plan.settings_created:
        settings = f"settings.toml: {verb}created ({len(plan.settings_added)} keys)"
    elif plan.settings_added:
        settings = f"settings.toml: {len(plan.settings_added)} keys {verb}added ({', '.join(plan.settings_added)})"
    else:
        settings = "settings.toml: kept as it is"
    text = "Summary: " + ", ".join(parts) + "; " + libs + "; " + settings + "."
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
    out(f"  profile: {args.profile}")
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
    parser.add_argument("--profile", choices=profiles(), default="pico",
                        help="board profile for settings.toml keys it lacks (default: pico)")
    parser.add_argument("--dry-run", action="store_true", help="print what would be done, change nothing")
    parser.add_argument("--force", action="store_true", help="deploy to a --to folder with no boot_out.txt")
    libs = parser.add_mutually_exclusive_group()
    libs.add_argument("--bundle", metavar="DIR",
                      help="install device libraries from an extracted adafruit-circuitpython-bundle-9.x-mpy "
                      "folder (no network)")
    libs.add_argument("--no-libs", action="store_true", help="do not install device libraries")
    parser.add_argument("--offline", action="store_true", help="pass --offline to circup (cached bundles only)")
    parser.add_argument("--upgrade-libs", action="store_true", help="let circup upgrade installed libraries")
    parser.add_argument("--requirements", default=str(REQUIREMENTS), metavar="FILE",
                        help="device library list (default: tools/requirements-device.txt)")
    parser.add_argument("--mpy-cross", metavar="PATH",
                        help="compile pisti_core/ and lib/ to .mpy with CircuitPython's mpy-cross")
    parser.add_argument("--source", default=str(ROOT), metavar="DIR",
                        help="project folder to deploy (default: this checkout)")
    return parser


def main(argv=None, *, runner: Runner | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return run(args, runner or run_subprocess)
    except DeployError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted; run deploy again to finish (files already copied are complete)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
