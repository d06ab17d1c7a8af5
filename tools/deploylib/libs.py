# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device libraries: requirement names, a downloaded bundle's files and
dependencies, circup's command line and running it quietly."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Callable

from tools.deploylib import DeployError
from tools.deploylib import skipped as _skipped

Runner = Callable[[list], "int | tuple[int, str | None]"]


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


def bundle_name(major: int) -> str:
    """The bundle a board of that CircuitPython major version takes."""
    version = f"{major}.x" if major else "<your CircuitPython version>.x"
    return f"adafruit-circuitpython-bundle-{version}-mpy-YYYYMMDD.zip"


def bundle_folder(major: int) -> str:
    """What --bundle takes: the folder a downloaded bundle zip unzips to."""
    return (f"--bundle DIR, DIR the folder {bundle_name(major)} (https://circuitpython.org/libraries) "
            "unzips to")


def bundle_files(
    bundle: Path, names: list[str], major: int = 0, version: str = ""
) -> tuple[dict[str, Path], list[str], list[str]]:
    """Files to copy from an extracted library bundle for names and their dependencies.

    Returns (drive path -> bundle file, libraries found, dependencies the
    bundle does not hold, such as desktop-only Blinka).
    """
    lib = bundle / "lib"
    if not lib.is_dir():
        raise DeployError(
            f"{bundle} is not an extracted CircuitPython library bundle (it has no lib/ folder); "
            f"download {bundle_name(major)} from https://circuitpython.org/libraries"
            + (f" (the board runs CircuitPython {version})" if version else "")
            + ", unzip it and pass the folder it makes"
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
    drive: Path, requirements: Path | None, *, circup: str = "circup", upgrade: bool = False,
    names: list[str] | None = None,
) -> list[str]:
    """The circup command line that installs the requirements (or the named libraries) onto the drive."""
    cmd = [circup, "--path", str(drive), "install"]
    if upgrade:
        cmd.append("--upgrade")
    cmd += list(names) if names else ["-r", str(requirements)]
    return cmd


def run_subprocess(cmd: list, verbose: bool = False) -> tuple[int, str | None]:
    """Default runner: (exit status, output). With verbose the output goes to
    the terminal as it comes (and None is returned for it)."""
    try:
        if verbose:
            return subprocess.run(cmd, check=False).returncode, None
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, errors="replace")
        return proc.returncode, proc.stdout + proc.stderr
    except OSError as exc:
        raise DeployError(f"cannot run {cmd[0]}: {exc.strerror}") from None


def run_circup(cmd: list, runner: Runner, out) -> None:
    """Run circup; on failure a DeployError with one clear sentence (its
    traceback stays out of sight unless --verbose)."""
    out("  running: " + " ".join(cmd))
    result = runner(cmd)
    status, output = result if isinstance(result, tuple) else (result, None)
    lines = [line.rstrip() for line in (output or "").splitlines() if line.strip()]
    if status == 0:
        for line in lines:
            if not line.startswith((" ", "Traceback")):
                out("    circup: " + line)
        return
    said = ""
    if lines:
        last = lines[-1]
        if re.search(r"ConnectionError|NameResolution|Max retries|Failed to resolve|timed out", output or ""):
            said = "; circup could not reach github.com (no network?)"
        else:
            said = f"; circup said: {last[:200]}"
    raise DeployError(
        f"circup failed (exit status {status}){said}. Nothing of the game was copied. Check the network, "
        "or pass --offline to install the pinned libraries from the project's environment (.venv), "
        "or install from a downloaded bundle with --bundle DIR, or skip libraries with --no-libs"
        + ("; --verbose shows circup's whole output" if output is not None else "")
    )
