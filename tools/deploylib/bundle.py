# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``deploy.py --zip OUTDIR``: the firmware as CircuitPython Project Bundles.

A maker without Python copies a folder onto CIRCUITPY. For each board
profile (tools/boards/*.toml) and each CircuitPython major version the game
runs on (9 and 10), deploy itself deploys (``--offline``: the pinned display
driver from the project's environment) into an empty folder standing for
the drive, and the folder is zipped in the shape of Adafruit's Project
Bundles (the "Download Project Bundle" zips of the Learn guides): one top
folder named as the zip, holding a ``README.txt`` and a ``CircuitPython
10.x`` folder whose contents go onto CIRCUITPY::

    pisti-0.2.0-pico-circuitpython-10.x.zip
        pisti-0.2.0-pico-circuitpython-10.x/README.txt
        pisti-0.2.0-pico-circuitpython-10.x/CircuitPython 10.x/code.py, settings.toml, lib/, pisti_core/, assets/

So the zip holds exactly what deploy puts on a board's drive (its
``.pisti-manifest.json`` too, so a later ``deploy.py`` knows those files are
its own), chosen by deploy's own plan. The game is ``.py`` files and the
driver the pinned ``.py``, which CircuitPython 9 and 10 both load; with
``--mpy-cross`` the modules are ``.mpy``, one format for 9 and 10.
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Callable

from tools.deploylib import DeployError, boards

#: CircuitPython major versions the firmware runs on (README: "CircuitPython 9 or 10").
MAJORS = (9, 10)
#: deploy options that make no sense for a zip (what the bundle holds is fixed).
_NOT_WITH_ZIP = (("to", "--to"), ("bundle", "--bundle"), ("no_libs", "--no-libs"), ("upgrade_libs", "--upgrade-libs"))
_VERSION_RE = re.compile(r'^__version__\s*=\s*"([^"]+)"', re.M)


def name(version: str, profile: str, major: int) -> str:
    """The zip's name without ``.zip``, also its top folder."""
    return f"pisti-{version}-{profile}-circuitpython-{major}.x"


def version_of(source: Path) -> str:
    """The game's version (``__version__`` of lib/pisti_app/util.py)."""
    path = source / "lib" / "pisti_app" / "util.py"
    try:
        found = _VERSION_RE.search(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DeployError(f"cannot read the game's version from {path}: {exc.strerror}") from None
    if not found:
        raise DeployError(f"{path} has no __version__ = \"...\" line, which names the bundles")
    return found.group(1)


def board_id_of(profile: str) -> str:
    """A board the profile is for (boot_out.txt's Board ID), for the staged deploy."""
    for board, its in boards.PROFILE_OF_BOARD.items():
        if its == profile:
            return board
    return ""


def describe_profile(profile_file: Path) -> str:
    """The profile's own words: its ``# pisti board profile: ...`` comment."""
    for line in profile_file.read_text(encoding="utf-8").splitlines():
        if line.startswith("# pisti board profile:"):
            return line.split(":", 1)[1].strip().rstrip(".")
    return profile_file.stem


def readme(version: str, profile: str, major: int, what: str) -> str:
    """README.txt at the top of a bundle: what to copy where."""
    folder = f"CircuitPython {major}.x"
    return f"""pisti {version}: the Pisti and Pis Yedili card-game console
Board profile: {profile} ({what})
For boards running CircuitPython {major}.x.

To use this project bundle, copy the contents of the "{folder}" folder
onto your board's CIRCUITPY drive: code.py, settings.toml, the folders
lib, pisti_core and assets, and the hidden file .pisti-manifest.json
(keeps track of the game's files for tools/deploy.py; harmless otherwise).
Merge the folders with what is there and replace the files.
After a few seconds the board restarts and the game starts on its screen.

CircuitPython itself must be on the board first (version {major}.x, from
https://circuitpython.org/downloads): see the project's README, "Building
your pisti console", step 3.

Updating: copy a newer bundle the same way. Saved games and the ranking are
in the board's own memory, not on CIRCUITPY, and stay. If you changed
settings.toml on the board, do not copy the bundle's settings.toml over it.

NOTE: this replaces code.py and the game's files in lib. Back up anything of
your own first.
"""


def check_args(args: argparse.Namespace) -> None:
    """--zip with an option that cannot apply: one sentence, nothing written."""
    given = [flag for attr, flag in _NOT_WITH_ZIP if getattr(args, attr, None)]
    if given:
        raise DeployError(
            f"--zip writes bundles with the pinned display driver from the project's environment (as --offline), "
            f"for no drive in particular; leave out {', '.join(given)}")


def write(args: argparse.Namespace, stage: Callable, profiles: list[str], boards_dir: Path,
          out: Callable[[str], None], err: Callable[[str], None]) -> list[Path]:
    """Write (or with --dry-run, only stage and list) every bundle; returns the zips' paths.

    ``stage(args, folder, major, board_name, board_id)`` deploys into an
    empty folder as onto a board of that CircuitPython major version and
    Board ID, and returns deploy's Plan.
    """
    check_args(args)
    outdir = Path(args.zip).expanduser()
    if outdir.exists() and not outdir.is_dir():
        raise DeployError(f"{outdir} is a file; --zip takes the folder to write the bundles into")
    version = version_of(Path(args.source))
    chosen = [args.profile] if args.profile else profiles
    verb = "would write" if args.dry_run else "wrote"
    out(f"pisti {version} project bundles into {outdir}" + (" (dry run)" if args.dry_run else ""))
    written = []
    with tempfile.TemporaryDirectory(prefix="pisti-zip-") as work:
        for profile in chosen:
            what = describe_profile(boards_dir / f"{profile}.toml")
            for major in MAJORS:
                top = name(version, profile, major)
                drive = Path(work) / top / f"CircuitPython {major}.x"
                drive.mkdir(parents=True)
                staged = argparse.Namespace(**vars(args))
                staged.profile, staged.offline, staged.dry_run = profile, True, False
                plan = stage(staged, drive, major, what, board_id_of(profile))
                for warning in plan.warnings:
                    err(f"warning: {top}: {warning}")
                (drive.parent / "README.txt").write_text(readme(version, profile, major, what), encoding="utf-8")
                files = sorted(p for p in drive.rglob("*") if p.is_file())
                size = sum(p.stat().st_size for p in files)
                target = outdir / f"{top}.zip"
                if not args.dry_run:
                    try:
                        outdir.mkdir(parents=True, exist_ok=True)
                        _zip(drive.parent, target)
                    except OSError as exc:
                        done = ", ".join(p.name for p in written)
                        raise DeployError(f"cannot write {target}: {exc.strerror or exc}"
                                          + (f"; the bundles written before it are complete ({done})"
                                             if written else "")) from None
                    written.append(target)
                shown = f"{target.stat().st_size / 1024:.0f} KB" if not args.dry_run else "not written"
                out(f"  {verb} {target.name}: {len(files)} files, {size / 1024:.0f} KB on CIRCUITPY "
                    f"(zip: {shown}); libs: {', '.join(plan.lib_versions) or ', '.join(plan.libs) or 'none'}; "
                    f"imports: {plan.checked} modules checked, none missing")
                shutil.rmtree(drive.parent)
    out(("Dry run, nothing was written. " if args.dry_run else "")
        + f"{len(chosen) * len(MAJORS)} bundles: copy the contents of a bundle's \"CircuitPython N.x\" folder "
        "onto CIRCUITPY (README.md, \"Without Python\").")
    return written


def _zip(folder: Path, target: Path) -> None:
    """Zip ``folder`` (its name the top folder) into ``target``, written under a temporary name."""
    tmp = target.with_name(".pisti-tmp-" + target.name)
    stamp = time.localtime()[:6]
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
            base = folder.parent
            for path in [folder] + sorted(folder.rglob("*")):
                arc = path.relative_to(base).as_posix()
                if path.is_dir():
                    entry = zipfile.ZipInfo(arc + "/", stamp)
                    entry.external_attr = 0o40755 << 16
                    archive.writestr(entry, b"")
                else:
                    entry = zipfile.ZipInfo(arc, stamp)
                    entry.external_attr = 0o644 << 16
                    entry.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(entry, path.read_bytes())
        tmp.replace(target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
