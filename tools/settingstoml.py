# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``settings.toml`` read exactly as CircuitPython reads it, and checked.

The one reader of the project's settings files: the simulator's ``os.getenv``
(tools/shims/settings.py), deploy's check and its edits (tools/deploy.py,
tools/deploylib/settings.py) all use it. The grammar is CircuitPython's own
(shared-module/os/getenv.c up to 10.1, supervisor/shared/settings.c from
10.2), not TOML's:

* A line ends at ``\\n`` only (a lone ``\\r`` is whitespace inside a line).
  Leading whitespace (space, tab, ``\\r``, ``\\v``, ``\\f``) is skipped.
* A line whose first character is ``[`` ends the file: nothing after it is read.
* A line's key is the text before its first ``=``, trailing whitespace
  dropped; the first line with a key wins. A line without ``=`` (and a
  ``#`` comment line) is never read for any key the code asks for.
* After ``=`` and whitespace, a ``"`` opens a string: escapes ``\\b \\r \\n
  \\t \\v \\f``, ``\\uXXXX`` and ``\\UXXXXXXXX`` (the digits read by C's
  ``strtoul(..., 16)``, which also takes a ``0x``, a sign or leading
  whitespace in them; a code above 10FFFF is an error), any other escaped
  character stands for itself. After the closing quote only whitespace and a
  ``#`` comment may follow. The line ending inside the string is an error.
* Anything else is a bare value: the text up to a ``#``, trailing space,
  tab and ``\\r`` dropped. Nothing at all after ``=`` is an error; ``= #x``
  is the empty bare value.

What a bare value becomes depends on who reads it:

* ``os.getenv`` up to CircuitPython 10.1 (style ``"int"``): MicroPython's
  ``int(text, 0)`` (decimal, ``0x`` / ``0o`` / ``0b`` any case, a sign,
  ``_`` between digits skipped, surrounding whitespace ignored; a leading
  ``0`` before other digits is refused by 10.x and read as decimal by 9.x);
  anything else raises ``ValueError``, as does a string that cannot be read.
* ``os.getenv`` from 10.2 (style ``"str"``): the bare text as a ``str``; a
  value that cannot be read gives the default.
* ``supervisor.get_setting`` (10.2 on): ``true`` / ``false``, then C's
  ``strtol(text, 0)`` (decimal, ``0x`` hex, a leading ``0`` means octal,
  32-bit), then a float; ``ValueError`` otherwise.
* The firmware's own ``CIRCUITPY_*`` settings are read by C with ``strtol``
  (integers, at most 15 characters) or as quoted strings.
"""

from __future__ import annotations

import re
from pathlib import Path

WHITESPACE = " \t\r\v\f"  # what the board skips around keys and values (\n ends the line)
_C_SPACE = " \t\n\v\f\r"  # isspace() in C and MicroPython
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+$")  # a TOML bare key; any other key is a stray line to the check
_LONG_MAX = 2**31 - 1  # a C long on the boards (RP2040: 32 bits)
_C_BUFFER = 16  # get_setting's and the firmware's integer reads: 15 characters and a NUL
_FLOAT_BUFFER = 48  # get_setting's float read
STYLES = ("int", "str")  # os.getenv up to CircuitPython 10.1 / from 10.2

EMPTY = 'the value is empty (write "" for no text, or a number)'
STRAY = "is not a KEY = value line (a stray or broken line; make it a # comment or delete it)"


class Line:
    """One line of the file as the board sees it.

    ``kind`` is ``"blank"``, ``"comment"``, ``"table"`` (the first ``[`` line,
    where reading stops), ``"stray"`` (no ``=``) or ``"key"``.
    """

    __slots__ = ("number", "offset", "raw", "text", "kind", "key", "value")

    def __init__(self, number, offset, raw, text, kind, key=None, value=None):
        self.number = number  # 1-based
        self.offset = offset  # of the line's first byte in the file
        self.raw = raw  # the bytes, with the \n that ends it
        self.text = text  # decoded, without the \n
        self.kind = kind
        self.key = key
        self.value = value  # the text after the first "="


def lines(data: bytes) -> list[Line]:
    """The file's lines up to and including its first ``[`` line."""
    found = []
    offset = 0
    while offset < len(data):
        end = data.find(b"\n", offset) + 1 or len(data)
        raw = data[offset:end]
        text = raw.rstrip(b"\n").decode("utf-8", "surrogateescape")
        body = text.lstrip(WHITESPACE)
        number = len(found) + 1
        if not body:
            line = Line(number, offset, raw, text, "blank")
        elif body[0] == "[":
            found.append(Line(number, offset, raw, text, "table"))
            break
        elif body[0] == "#":
            line = Line(number, offset, raw, text, "comment")
        elif "=" not in body:
            line = Line(number, offset, raw, text, "stray")
        else:
            key, _, value = body.partition("=")
            line = Line(number, offset, raw, text, "key", key.rstrip(WHITESPACE), value)
        found.append(line)
        offset = end
    return found


# ----------------------------------------------------------------- values


def strtol(text: str, base: int = 0, unsigned: bool = False) -> tuple[int, int]:
    """C's ``strtol`` (``strtoul``) on a 32-bit board: (value, characters used; 0 if none)."""
    i, negative = _sign(text)
    n = len(text)
    if base in (0, 16) and text[i:i + 2] in ("0x", "0X") and _digit(text[i + 2:i + 3]) < 16:
        i, base = i + 2, 16
    elif base == 0:
        base = 8 if text[i:i + 1] == "0" else 10
    start, value = i, 0
    while i < n and _digit(text[i]) < base:
        value = value * base + _digit(text[i])
        i += 1
    if i == start:
        return 0, 0
    if unsigned:
        value = min(value, 2 * _LONG_MAX + 1)
        return (-value) % (2 * _LONG_MAX + 2) if negative else value, i
    return (max(-value, -_LONG_MAX - 1) if negative else min(value, _LONG_MAX)), i


def _sign(text: str) -> tuple[int, bool]:
    """Where a number's digits start after leading white space and a sign, as C
    and MicroPython both read them, and whether the sign was ``-``."""
    i, n = 0, len(text)
    while i < n and text[i] in _C_SPACE:
        i += 1
    if i < n and text[i] in "+-":
        return i + 1, text[i] == "-"
    return i, False


def _digit(char: str) -> int:
    """A character's digit value in bases up to 36 (99 for anything else)."""
    if len(char) == 1 and char.isascii() and char.isalnum():
        return int(char, 36)
    return 99


def micropython_int(text: str, leading_zero_decimal: bool = False) -> int:
    """MicroPython's ``int(text, 0)`` (CircuitPython 10.x; ``leading_zero_decimal``:
    9.x, which reads ``010`` as 10); ``ValueError`` as it raises it."""
    i, negative = _sign(text)
    n = len(text)
    base = 10
    if n - i > 1 and text[i] == "0":
        prefix = text[i + 1].lower()
        if prefix in "xob":
            base = {"x": 16, "o": 8, "b": 2}[prefix]
            i += 2
        elif not leading_zero_decimal:
            base = 1  # a leading 0: only more zeros may follow
    start, value = i, 0
    while i < n:
        if text[i] != "_":
            digit = _digit(text[i])
            if digit >= base:
                break
            value = value * base + digit
        i += 1
    end = i
    while i < n and text[i] in _C_SPACE:
        i += 1
    if end == start or i != n:
        raise ValueError("invalid syntax for integer with base 0: %r" % text)
    return -value if negative else value


def _c_int(text: str) -> int | None:
    """The firmware's C integer read (``strtol(text, 0)`` of at most 15 characters), or None."""
    if len(text) >= _C_BUFFER:
        return None
    value, used = strtol(text)
    if not used or text[used:].strip(_C_SPACE):
        return None
    return value


_FLOAT = re.compile(r"([0-9_]*)(?:\.([0-9_]*))?(?:[eE]([+-]?)([0-9_]*))?$")


def _float(text: str) -> float | None:
    """``supervisor.get_setting``'s float read, or None."""
    if len(text) >= _FLOAT_BUFFER:
        return None
    body = text[1:] if text[:1] in "+-" else text
    sign = -1.0 if text[:1] == "-" else 1.0
    if body in ("inf", "nan"):
        return sign * float(body)
    match = _FLOAT.match(body)
    if not body or match is None or match.group(4) == "":
        return None  # (an e with no digits after it)
    whole, frac, exp_sign, exp = (g or "" for g in match.groups())
    exp = exp.replace("_", "") or "0"
    return sign * float("%s.%se%s%s" % (whole.replace("_", "") or "0", frac.replace("_", "") or "0", exp_sign, exp))


def typed(text: str):
    """A bare value as ``supervisor.get_setting`` returns it: bool, int, float; ``ValueError`` else."""
    if text in ("true", "false"):
        return text == "true"
    number = _c_int(text)
    if number is not None:
        return number
    number = _float(text)
    if number is not None:
        return number
    raise ValueError("invalid value: %r" % text)


def _read_string(value: str, i: int) -> tuple[str, str | None]:
    """(the string, what is wrong or None) for a quoted value opening before ``value[i]``."""
    out = []
    n = len(value)
    while i < n:
        char = value[i]
        if char == '"':
            after = value[i + 1:].lstrip(WHITESPACE)
            if after and after[0] != "#":
                return "".join(out), "%r after the closing quote (only a # comment may follow)" % after.strip()
            return "".join(out), None
        if char == "\\":
            if i + 1 >= n:
                return "".join(out), 'the text is not closed with a " (a \\ cannot end the line)'
            escape = value[i + 1]
            if escape in "uU":
                size = 4 if escape == "u" else 8
                digits = value[i + 2:i + 2 + size]
                code, used = strtol(digits, 16, unsigned=True)
                if len(digits) != size or used != size:
                    return "".join(out), "\\%s must be followed by %d hex digits" % (escape, size)
                if code >= 0x110000:
                    return "".join(out), "\\%s%s is not a Unicode character (the last is 10FFFF)" % (escape, digits)
                out.append(chr(code))
                i += 2 + size
                continue
            out.append({"b": "\b", "r": "\r", "n": "\n", "t": "\t", "v": "\v", "f": "\f"}.get(escape, escape))
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out), 'the text is not closed with a "'


class Setting:
    """The value of a key, as the board reads it.

    ``quoted``: a string value; ``text``: the decoded string, or the bare
    text; ``error``: why the board cannot read the value (None if it can).
    """

    __slots__ = ("key", "text", "quoted", "error", "line", "source")

    def __init__(self, key, value, line=0, source="settings.toml"):
        self.key = key
        self.line = line
        self.source = source
        body = value.lstrip(WHITESPACE)
        self.quoted = body[:1] == '"'
        self.error = None
        if self.quoted:
            self.text, self.error = _read_string(body, 1)
        else:
            self.text = body.split("#", 1)[0].rstrip(" \t\r")
            if not body:
                self.error = EMPTY

    def where(self):
        """``file:line`` of this setting, for messages."""
        return "%s:%d" % (self.source, self.line)

    def _fail(self, why):
        return ValueError("%s: %s: %s" % (self.where(), self.key, why))

    def getenv(self, style):
        """What ``os.getenv`` returns for this key: style ``"int"`` (up to
        CircuitPython 10.1) raises ``ValueError`` where the board does;
        style ``"str"`` (10.2 on) returns None where the board returns the default."""
        if style == "str":
            return None if self.error else self.text
        return self._value(micropython_int)

    def get_setting(self):
        """What ``supervisor.get_setting`` returns for this key (``ValueError`` where it raises)."""
        return self._value(typed)

    def _value(self, bare):
        """The quoted text, or the bare one read by ``bare``; ``ValueError`` naming the line."""
        if self.error:
            raise self._fail(self.error)
        if self.quoted:
            return self.text
        try:
            return bare(self.text)
        except ValueError as exc:
            raise self._fail(exc) from None


def parse(data: bytes, source="settings.toml") -> dict[str, Setting]:
    """``{key: Setting}``: the line the board reads for each key (the first)."""
    settings = {}
    for line in lines(data):
        if line.kind == "key" and line.key not in settings:
            settings[line.key] = Setting(line.key, line.value, line.number, source)
    return settings


def load(path, strict=False) -> dict[str, Setting]:
    """Read and parse a settings file. ``strict``: a file with any
    :func:`problems` raises ``ValueError`` naming the first (for the
    project's own board profiles)."""
    data = Path(path).read_bytes()
    if strict:
        found = problems(data)
        if found:
            raise ValueError("%s %s" % (path, found[0]))
    return parse(data, source=str(path))


def values(settings: dict[str, Setting]) -> dict:
    """``{key: value}`` typed as ``supervisor.get_setting`` returns them (the text where it raises)."""
    out = {}
    for key, setting in settings.items():
        try:
            out[key] = setting.get_setting()
        except ValueError:
            out[key] = setting.text
    return out


# ----------------------------------------------------------------- checking


def _leading_zero(setting: Setting) -> str | None:
    """What a bare number with a leading 0 (``011``) is to the board, or None."""
    if _is_int(setting.text):
        return None
    try:
        decimal = micropython_int(setting.text, leading_zero_decimal=True)
    except ValueError:
        return None
    octal = _c_int(setting.text)
    if setting.key.startswith("CIRCUITPY_") and octal is not None:
        return "a leading 0 makes it octal to CircuitPython (%d); write %d, or 0x.. for hex" % (octal, decimal)
    return "a leading 0: CircuitPython 9 reads it as %d, 10 refuses it (write %d, or 0x.. for hex)" % (
        decimal, decimal)


def value_problem(setting: Setting, want: type | None = None) -> str | None:
    """What is wrong with a setting's value (``want``: the type the key
    takes, int or str), or None."""
    if setting.error:
        return setting.error
    if setting.quoted:
        return "must be a number, without quotes" if want is int else None
    text = setting.text
    if not text:
        return EMPTY
    if text[0] == "'":
        return 'use double quotes: "..." (CircuitPython reads no single-quoted text)'
    zero = _leading_zero(setting)
    if zero:
        return zero
    if setting.key.startswith("CIRCUITPY_"):
        number = _c_int(text)
        if number is None and _is_int(text):
            return ("CircuitPython reads its own CIRCUITPY_ settings with C's strtol: write the number in "
                    "decimal or 0x hex, at most 15 characters, without _")
    else:
        number = text if _is_int(text) else None
    quote = 'must be text in double quotes, e.g. "GP4"'
    if number is not None:
        return quote if want is str else None
    try:
        typed(text)  # a bool or a float: supervisor.get_setting reads it
    except ValueError:
        return '%r is not a number: text needs double quotes ("%s")' % (text, text)
    if want is int:
        return "must be a whole number"
    return quote if want is str else None


def _is_int(text: str) -> bool:
    try:
        micropython_int(text)
    except ValueError:
        return False
    return True


def problems(data: bytes, types: dict[str, type] | None = None) -> list[str]:
    """One message per line the board would read otherwise than meant:
    ``line N: <the line>: <what is wrong>``. ``types``: the type (int or
    str) each key takes (see :func:`profile_types`)."""
    types = types or {}
    found = []
    seen: dict[str, int] = {}
    for line in lines(data):
        shown = line.raw.decode("utf-8", "replace").strip()
        try:
            line.raw.decode("utf-8")
        except UnicodeDecodeError:
            found.append("line %d: %s: is not UTF-8 text" % (line.number, shown))
            continue
        why = None
        if line.number == 1 and line.text[:1] == "\ufeff":
            if line.text[1:].lstrip(WHITESPACE)[:1] in ("", "#"):
                continue  # (a blank or comment line either way)
            why = ("starts with a byte order mark, which CircuitPython reads as part of the key: "
                   "save it as UTF-8 without BOM")
        elif "\r" in line.text.rstrip("\r"):
            why = "has a carriage return (\\r) inside: CircuitPython ends lines only at \\n, so this is one line to it"
        elif "\0" in line.text:
            why = "has a NUL byte, which CircuitPython reads as the end of the file"
        elif line.kind == "table":
            break  # CircuitPython reads nothing after a [table]
        elif line.kind in ("blank", "comment"):
            continue
        elif line.kind == "stray" or not _BARE_KEY.match(line.key):
            why = STRAY
        elif line.key in seen:
            why = "%s is set on line %d already; CircuitPython reads only that one" % (line.key, seen[line.key])
        else:
            seen[line.key] = line.number
            why = value_problem(Setting(line.key, line.value, line.number), types.get(line.key))
        if why:
            found.append("line %d: %s: %s" % (line.number, shown, why))
    return found


def profile_types(profile: bytes) -> dict[str, type]:
    """The type (int or str) of each key of a board profile."""
    return {key: str if setting.quoted else int for key, setting in parse(profile).items()}
