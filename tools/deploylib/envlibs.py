# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device libraries from the project's own environment (``deploy --offline``).

``tools/setup.sh`` installs the desktop pins of ``tools/requirements.txt``
into ``.venv``; among them are the Adafruit libraries the board needs (the
display driver), as the same ``.py`` files a bundle compiles to ``.mpy``
(a ``.py`` loads on every CircuitPython version). Without a network deploy
copies them from there: the distribution that provides each library is
looked up with ``importlib.metadata`` in the environment's site-packages,
its version must be the one ``tools/requirements.txt`` pins and its files
must match its ``RECORD`` (so an edited copy is never put on the board).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tools.deploylib import DeployError
from tools.deploylib import skipped as _skipped
from tools.deploylib.libs import library_name

LABEL = "the project's environment"
SETUP = "bash tools/setup.sh --deploy"  # makes .venv with what deploy needs (circup, the pins)


def read_pins(path: Path, _seen: tuple = ()) -> dict[str, tuple[str, str]]:
    """Bundle module name -> (distribution name, version) for each ``name==version``
    line, with those of the files it includes (``-r FILE``, relative to it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeployError(f"cannot read the pinned requirements {path}: {exc.strerror}") from None
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        for opt in ("-r ", "--requirement ", "--requirement="):
            if line.startswith(opt):
                inc = path.parent / line[len(opt):].strip()
                if inc.resolve() not in _seen:
                    pins.update(read_pins(inc, _seen + (path.resolve(),)))
                break
        else:
            if "==" in line:
                dist, version = (part.strip() for part in line.split("==", 1))
                version = version.split(";", 1)[0].strip()
                pins[library_name(dist)] = (dist, version)
    return pins


def site_packages(venv: Path) -> list[Path]:
    """The site-packages folders of a virtual environment (POSIX and Windows layouts)."""
    found = sorted(venv.glob("lib/python3*/site-packages")) + [venv / "Lib" / "site-packages"]
    return [p for p in found if p.is_dir()]


def _python(venv: Path) -> str:
    for exe in ("bin/python", "Scripts/python.exe"):
        if (venv / exe).exists():
            return str(venv / exe)
    return "python"


def _record_hash(path) -> tuple[str, str] | None:
    h = getattr(path, "hash", None)
    return (h.mode, h.value) if h else None


def _matches(file: Path, mode: str, value: str) -> bool:
    try:
        digest = hashlib.new(mode, file.read_bytes()).digest()
    except (OSError, ValueError):
        return False
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == value


@dataclass
class Env:
    """The project's environment: where its packages are and what the requirements pin."""

    venv: Path
    pins_file: Path
    paths: list[Path] = field(default_factory=list)
    where: str = ""
    python: str = "python"
    pins: dict[str, tuple[str, str]] = field(default_factory=dict)
    own: bool = False  # the packages come from ``venv`` (else from the running Python's)

    @property
    def shown(self) -> str:
        """The pins file as messages name it (tools/requirements.txt)."""
        return f"{self.pins_file.parent.name}/{self.pins_file.name}"

    @classmethod
    def open(cls, venv: Path, pins_file: Path) -> "Env":
        """The environment at ``venv`` (else the running interpreter's, when there is no ``venv``)."""
        env = cls(venv, pins_file, pins=read_pins(pins_file))
        env.paths = site_packages(venv)
        if env.paths:
            env.where, env.python, env.own = str(venv), _python(venv), True
        else:
            env.paths = [Path(p) for p in sys.path if p and os.path.isdir(p)]
            env.where, env.python = f"this Python's ({sys.prefix}, no {venv})", sys.executable
        return env

    def pip(self, specs: list[str]) -> str:
        """The command that installs these pins into the environment."""
        return f"{self.python} -m pip install " + " ".join(specs)

    def fix(self, specs: list[str]) -> str:
        """What installs these pins: pip in the project's .venv, or, with no .venv
        yet, the project's setup that makes it (never pip into another Python)."""
        if self.own:
            return f"{self.pip(specs)} (or bash tools/setup.sh)"
        return f"{SETUP} (it makes {self.venv} with the pinned packages)"

    def _distribution(self, dist: str):
        want = dist.lower().replace("_", "-")
        for found in importlib.metadata.distributions(path=[str(p) for p in self.paths]):
            name = (found.metadata["Name"] or "").lower().replace("_", "-")
            if name == want:
                return found
        return None

    def has(self, name: str) -> bool:
        """Whether the library is pinned and its distribution installed (any version)."""
        return name in self.pins and self._distribution(self.pins[name][0]) is not None

    def files(self, names: list[str]) -> tuple[dict[str, Path], list[str], list[str], list[str]]:
        """(drive path -> installed file, "dist version" of each library found, problems, pins to
        install) for the libraries ``names``: one problem sentence for each that cannot be used."""
        files: dict[str, Path] = {}
        found: list[str] = []
        problems: list[str] = []
        to_install: list[str] = []
        for name in names:
            if name not in self.pins:
                problems.append(f"{name} is not pinned (name==version) in {self.shown}, so deploy "
                                f"cannot take it from {LABEL}")
                continue
            dist, version = self.pins[name]
            installed = self._distribution(dist)
            if installed is None:
                problems.append(f"{dist}=={version} (pinned in {self.shown}) is not installed in "
                                f"{LABEL} ({self.where})")
                to_install.append(f"{dist}=={version}")
                continue
            if installed.version != version:
                problems.append(f"{LABEL} ({self.where}) has {dist} {installed.version}, but "
                                f"{self.shown} pins {version}")
                to_install.append(f"{dist}=={version}")
                continue
            mine = {}
            damaged = []
            for path in installed.files or []:
                parts = path.parts
                if (parts[0] != name and path.as_posix() not in (name + ".py", name + ".mpy")) \
                        or any(_skipped(p) for p in parts) or not path.name.endswith((".py", ".mpy")):
                    continue
                source = Path(installed.locate_file(path))
                record = _record_hash(path)
                if record is None or not _matches(source, *record):
                    damaged.append(path.as_posix())
                mine["lib/" + path.as_posix()] = source
            if not mine:
                problems.append(f"{dist} {version} in {LABEL} ({self.where}) holds no module {name}")
            elif damaged:
                problems.append(f"{', '.join(sorted(damaged))} of {dist} {version} in {LABEL} ({self.where}) "
                                "differs from what pip installed (its RECORD)")
                to_install.append(f"--force-reinstall {dist}=={version}")
            else:
                files.update(mine)
                found.append(f"{dist} {version}")
        return files, found, problems, to_install
