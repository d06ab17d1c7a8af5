# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""``settings.toml`` as CircuitPython reads it, and ``os.getenv`` on top.

CircuitPython reads a small subset of TOML: ``KEY = value`` lines in the
root table (reading stops at the first ``[table]`` line), values being basic
double-quoted strings (escapes ``\\b \\t \\n \\f \\r \\v \\uXXXX \\UXXXXXXXX``;
any other escaped character stands for itself) or bare values, ``#``
comments, the first occurrence of a key wins. This parser is stricter than
the device in one way: a line that is neither blank, a comment, a table
header nor ``KEY = value`` is an error here (the device skips it silently),
so typos in our profiles are caught on the desktop.

``os.getenv`` changed during CircuitPython 10 (PR adafruit/circuitpython
#10819; circuitpython-stubs 10.3.1 documents the new
``supervisor.get_setting``):

* ``style="int"`` (CircuitPython 8.0 up to that change): a quoted value is
  returned as ``str``, a bare value is parsed as an integer (Python literal
  rules with base 0: ``60``, ``0x3C``, ``-1``) and returned as ``int``;
  anything else raises ``ValueError``.
* ``style="str"`` (after it): ``os.getenv`` always returns a ``str`` (a bare
  value is returned as written, e.g. ``"0x3C"``) and ``supervisor.get_setting``
  parses str / int / bool / float.
"""

import re

STYLES = ("int", "str")

_KEY_LINE = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*)$")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "v": "\v"}
_INT = re.compile(r"[+-]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)$")
_FLOAT = re.compile(
    r"[+-]?(inf|nan|[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)$"
)


class Setting:
    """One ``KEY = value`` line: ``quoted`` is True for a string value."""

    __slots__ = ("key", "text", "quoted", "line", "source")

    def __init__(self, key, text, quoted, line, source):
        self.key = key
        self.text = text  # decoded string if quoted, else the bare text
        self.quoted = quoted
        self.line = line
        self.source = source

    def where(self):
        """``file:line`` of this setting, for error messages."""
        return "%s:%d" % (self.source, self.line)

    def as_int(self):
        """The bare value as CircuitPython 8-10 ``os.getenv`` parses it."""
        text = self.text.strip()
        if not _INT.match(text):
            raise ValueError(
                "%s: %s = %s is neither a quoted string nor an integer"
                % (self.where(), self.key, self.text)
            )
        sign = -1 if text[0] == "-" else 1
        digits = text.lstrip("+-")
        if len(digits) > 1 and digits[0] == "0" and digits[1] in "xXoObB":
            return sign * int(digits[2:], {"x": 16, "o": 8, "b": 2}[digits[1].lower()])
        return sign * int(digits, 10)

    def parsed(self):
        """The value as ``supervisor.get_setting`` returns it."""
        if self.quoted:
            return self.text
        text = self.text.strip()
        if text in ("true", "false"):
            return text == "true"
        if _INT.match(text):
            return self.as_int()
        if _FLOAT.match(text):
            return float(text)
        raise ValueError(
            "%s: %s = %s is not a valid setting value" % (self.where(), self.key, text)
        )


def _decode_string(body, where):
    """Decode the part after the opening quote; return (string, rest)."""
    out = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch == '"':
            return "".join(out), body[i + 1 :]
        if ch == "\\":
            if i + 1 >= n:
                break
            esc = body[i + 1]
            if esc in "uU":
                size = 4 if esc == "u" else 8
                digits = body[i + 2 : i + 2 + size]
                if len(digits) != size or not all(c in "0123456789abcdefABCDEF" for c in digits):
                    raise ValueError("%s: bad \\%s escape" % (where, esc))
                code = int(digits, 16)
                if code >= 0x110000:
                    raise ValueError("%s: invalid unicode escape" % where)
                out.append(chr(code))
                i += 2 + size
                continue
            out.append(_ESCAPES.get(esc, esc))
            i += 2
            continue
        out.append(ch)
        i += 1
    raise ValueError("%s: string value has no closing quote" % where)


def parse_settings(text, source="settings.toml"):
    """Parse settings text into ``{key: Setting}``; raise ValueError on bad lines."""
    settings = {}
    for number, line in enumerate(text.splitlines(), 1):
        where = "%s:%d" % (source, number)
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            break  # CircuitPython cannot read past the root table
        match = _KEY_LINE.match(line)
        if not match:
            raise ValueError("%s: expected KEY = value, got %r" % (where, line))
        key, value = match.group(1), match.group(2)
        if value.startswith('"'):
            decoded, rest = _decode_string(value[1:], where)
            rest = rest.strip()
            if rest and not rest.startswith("#"):
                raise ValueError("%s: unexpected %r after the string" % (where, rest))
            setting = Setting(key, decoded, True, number, source)
        else:
            bare = value.split("#", 1)[0].strip()
            if not bare:
                raise ValueError("%s: %s has no value" % (where, key))
            setting = Setting(key, bare, False, number, source)
        if key not in settings:  # the device returns the first occurrence
            settings[key] = setting
    return settings


def load_settings(path):
    """Read and parse a settings.toml file (UTF-8, as the device requires)."""
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("%s: not UTF-8 (%s)" % (path, exc)) from None
    return parse_settings(text, source=str(path))


def values(settings):
    """``{key: value}`` with values typed as ``supervisor.get_setting`` would."""
    out = {}
    for key, setting in settings.items():
        try:
            out[key] = setting.parsed()
        except ValueError:
            out[key] = setting.text
    return out


def make_getenv(settings, style, fallback):
    """Build the ``os.getenv`` replacement for ``settings``.

    Keys present in the file answer from it. Missing keys that start with
    ``PISTI_`` or ``CIRCUITPY_`` return ``default`` (device semantics); any
    other missing key falls through to ``fallback`` (CPython's own
    ``os.getenv``) so desktop libraries reading ``HOME`` and friends still work.
    """
    if style not in STYLES:
        raise ValueError("getenv style must be one of %s, got %r" % (STYLES, style))

    def getenv(key, default=None):
        """Return the settings.toml value for ``key`` (CircuitPython semantics)."""
        if not isinstance(key, str):
            raise TypeError("getenv key must be str, not %s" % type(key).__name__)
        setting = settings.get(key)
        if setting is None:
            if key.startswith(("PISTI_", "CIRCUITPY_")):
                return default
            return fallback(key, default)
        if setting.quoted or style == "str":
            return setting.text
        return setting.as_int()

    return getenv


def make_get_setting(settings):
    """Build ``supervisor.get_setting(key, default=None)`` (CircuitPython 10.x)."""

    def get_setting(key, default=None):
        """Return the parsed settings.toml value for ``key``."""
        setting = settings.get(key)
        if setting is None:
            return default
        return setting.parsed()

    return get_setting
