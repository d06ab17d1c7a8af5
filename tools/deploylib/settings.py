# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""settings.toml: the keys a file has, adding the keys it lacks (every byte of
the maker's file kept), switching the lines deploy wrote to another profile."""

from __future__ import annotations

from tools.settingstoml import lines, parse


def settings_keys(data: bytes) -> set[str]:
    """Top-level keys of a settings.toml (those before any [table] header)."""
    return {line.key for line in lines(data) if line.kind == "key"}


def profile_entries(profile: bytes) -> list[tuple[str, bytes]]:
    """(key, its line without line ending) for each top-level key of a board profile."""
    return [(line.key, line.raw.rstrip(b"\r\n")) for line in lines(profile) if line.kind == "key"]


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
    for line in lines(existing):
        if line.kind == "table":
            insert_at = line.offset
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
    """The value of a top-level key as the board's os.getenv returns it (None: absent or unreadable)."""
    setting = parse(data).get(key)
    return setting.getenv("str") if setting is not None else None


def switch_profile(existing: bytes, old: bytes, new: bytes, new_name: str) -> tuple[bytes, list[str], list[str]]:
    """Replace the lines deploy wrote from the old profile with the new profile's.

    A line deploy wrote is exactly the old profile's line for its key; a line
    the maker changed is kept. Returns (the new file, the keys switched, a
    warning for each kept line whose key the two profiles set differently).
    """
    old_lines = dict(profile_entries(old))
    new_lines = dict(profile_entries(new))
    out, changed, warnings = [], [], []
    end = 0
    for entry in lines(existing):
        if entry.kind == "table":
            break
        line, end = entry.raw, entry.offset + len(entry.raw)
        body = line.rstrip(b"\r\n")
        key = entry.key
        if key in old_lines and key in new_lines and old_lines[key] != new_lines[key]:
            if body == old_lines[key]:
                line = new_lines[key] + line[len(body):]
                changed.append(key)
            else:
                warnings.append(
                    f"settings.toml: kept your {body.decode('utf-8', 'replace').strip()} (the {new_name} "
                    f"profile has {new_lines[key].decode()}; deploy only changes the lines it wrote itself)")
        out.append(line)
    out.append(existing[end:])  # from the [table] header on, as it is
    return b"".join(out), changed, warnings
