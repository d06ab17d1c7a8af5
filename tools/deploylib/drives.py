# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Finding a mounted CIRCUITPY drive (Linux, macOS, Windows).

The drive circup itself picks (``circup.command_utils.find_device``, the
pinned circup's) comes first. The scan here stays beside it for what circup's
does not do: it returns one drive (the last ``mount`` lists, or Windows' first
letter), so two boards plugged in would go unnoticed, where deploy must ask
which; it misses a second board's ``CIRCUITPY1`` / ``CIRCUITPY 1`` and mount
points with spaces (it splits ``mount``'s lines at blanks); and it does not
check that a drive holds the ``boot_out.txt`` every CircuitPython drive has.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path


def _unescape_mount(field_text: str) -> str:
    """/proc/mounts writes spaces and tabs in mount points as octal escapes."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field_text)


def _windows_drives() -> list[Path]:
    """Drive letters whose volume label is CIRCUITPY (Windows only)."""
    import ctypes

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


def circup_drive() -> Path | None:
    """The drive circup would use on its own, or None (no drive, or circup cannot tell)."""
    try:
        from circup.command_utils import find_device

        found = find_device()
    except Exception:  # (no circup, no mount command, an odd mount line)
        return None
    return Path(found) if found else None


def find_drives(first=circup_drive, **kwargs) -> list[Path]:
    """Mounted CIRCUITPY drives: ``first()`` (circup's pick) and the
    :func:`mount_candidates`, those that hold a ``boot_out.txt``."""
    drives = []
    pick = first() if first is not None else None
    for path in ([pick] if pick else []) + mount_candidates(**kwargs):
        try:
            if (path / "boot_out.txt").is_file():
                resolved = path.resolve()
                if resolved not in drives:
                    drives.append(resolved)
        except OSError:
            continue
    return drives
