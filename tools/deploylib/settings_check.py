# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Check a settings.toml the way CircuitPython reads it (docs/environment.rst,
supervisor/shared/settings.c): ``KEY = value`` lines, comments, blank lines;
a value is a "basic string" (escapes \\b \\t \\n \\f \\r \\v \\" \\\\ \\uXXXX
\\UXXXXXXXX) or a bare integer (strtol: 12, -3, 0x3C), float or true/false,
each optionally followed by a # comment. Reading stops at a [table] line.
The firmware's own keys must also have the type their board profile gives.
"""

from __future__ import annotations

import re

_KEY_LINE = re.compile(r"^[ \t]*([A-Za-z0-9_-]+)[ \t]*=(.*)$")
_INT = re.compile(r"^[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$")  # strtol(..., 0): 011 is 9
_FLOAT = re.compile(r"^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?$")
_HEX = set("0123456789abcdefABCDEF")


def _string(rest: str) -> str | None:
    """Problem with a quoted value (rest starts after the opening quote), or None."""
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "\\":
            if i + 1 >= len(rest):
                return 'the text is not closed with a " (a \\ cannot end the line)'
            e = rest[i + 1]
            if e in "uU":
                n = 4 if e == "u" else 8
                digits = rest[i + 2:i + 2 + n]
                if len(digits) != n or not set(digits) <= _HEX:
                    return f"\\{e} must be followed by {n} hex digits"
                i += 2 + n
                continue
            i += 2
            continue
        if c == '"':
            after = rest[i + 1:].strip()
            if after and not after.startswith("#"):
                return f"{after!r} after the closing quote (only a # comment may follow)"
            return None
        i += 1
    return 'the text is not closed with a "'


def value_problem(value: str, want: type | None = None) -> str | None:
    """What is wrong with a value text (what follows '='), or None."""
    text = value.strip()
    if not text or text.startswith("#"):
        return 'the value is empty (write "" for no text, or a number)'
    if text.startswith('"'):
        problem = _string(text[1:])
        if problem is None and want is int:
            return "must be a number, without quotes"
        return problem
    bare = text.split("#", 1)[0].strip()
    if text.startswith("'"):
        return 'use double quotes: "..." (CircuitPython reads no single-quoted text)'
    if _INT.match(bare):
        return 'must be text in double quotes, e.g. "GP4"' if want is str else None
    if _FLOAT.match(bare) or bare in ("true", "false"):  # (08 too: a float to CircuitPython)
        if want is int:
            return "must be a whole number"
        return 'must be text in double quotes, e.g. "GP4"' if want is str else None
    return f'{bare!r} is not a number: text needs double quotes ("{bare}")'


def problems(data: bytes, types: dict[str, type] | None = None) -> list[str]:
    """One message a bad line: 'line N: <the line>: <what is wrong>'."""
    types = types or {}
    found = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            line = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            found.append(f"line {number}: {raw.decode('utf-8', 'replace').strip()}: is not UTF-8 text")
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            break  # CircuitPython reads nothing after a [table]
        match = _KEY_LINE.match(line)
        if match is None:
            why = "is not a KEY = value line (a stray or broken line; make it a # comment or delete it)"
        else:
            why = value_problem(match.group(2), types.get(match.group(1)))
        if why:
            found.append(f"line {number}: {stripped}: {why}")
    return found


def profile_types(profile: bytes) -> dict[str, type]:
    """The type (int or str) of each key of a board profile."""
    types: dict[str, type] = {}
    for line in profile.decode("utf-8").splitlines():
        match = _KEY_LINE.match(line)
        if match and not line.lstrip().startswith("#"):
            types[match.group(1)] = str if match.group(2).strip().startswith('"') else int
    return types
