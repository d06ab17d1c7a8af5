# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's os.getenv (C): /settings.toml's values, read
# once when the gauge starts (C parses the file at each call without garbage;
# a Python reader at each call would make a tick's garbage larger than on the
# device). Bare integers come back as int (CircuitPython up to early 10.x).
import os

_v = {}
try:
    with open("/settings.toml") as f:
        for line in f:
            k, eq, v = line.partition("=")
            k = k.strip()
            if not eq or not k or k[0] == "#":
                continue
            v = v.strip()
            if v[:1] == '"':
                _v[k] = v[1:v.find('"', 1)]
            else:
                try:
                    _v[k] = int(v.split("#")[0].strip(), 0)
                except ValueError:
                    pass
except OSError:
    pass


def getenv(key, default=None):
    return _v.get(key, default)


if not hasattr(os, "getenv"):
    os.getenv = getenv
