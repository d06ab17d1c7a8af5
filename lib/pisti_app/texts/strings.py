# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.texts.strings`
=========================

Every text the console shows, in English and Turkish. The texts are
written in ``str_en.py`` / ``str_tr.py``; the device reads them from
``assets/strings/<lang>.txt`` (made from those by ``tools/make_strings.py``),
one line per lookup: only the chosen language's index, 4 bytes a text, is
in memory (a dict of the texts would be ~7 KB of heap). ``t(key)`` looks a
text up. Rules pages live in ``rules_en`` / ``rules_tr`` and are imported
only while shown.

Texts that name buttons are written for the six-button build (arrows, A
selects, B goes back). Each language also has the same keys' texts for
three buttons (A previous, C next, B select, a long B back; ``3:key`` in
the file); ``set_buttons(three)``, called once at boot from the key map,
makes ``t()`` take those instead.
"""

import gc

from pisti_app.util import const, drop_module, open_asset

LANGS = ("en", "tr")
_H0 = const(5381)
_state = {"lang": None, "file": None, "index": None, "three_on": False}


def _hash(key, h=_H0):
    for ch in key:
        h = ((h * 33) ^ ord(ch)) & 0xFFFF
    return h


_H3 = _hash("3:")


def set_buttons(three):
    """Texts for three buttons (True: A C move, B selects, long B back) or
    for the six-button build (False)."""
    _state["three_on"] = bool(three)


def three_buttons():
    """True when the texts are the three-button ones."""
    return _state["three_on"]


def set_lang(lang):
    """Switch to 'en' or 'tr' (ValueError for anything else)."""
    if lang not in LANGS:
        raise ValueError("unknown language %r (en or tr)" % (lang,))
    if lang == _state["lang"]:
        return
    old = _state["lang"]
    f = _state["file"]
    if f is not None:
        f.close()
        _state["file"] = _state["index"] = None
    if old is not None:  # the other language's rules go: never both in memory
        drop_module("pisti_app.texts.rules_" + old)
        gc.collect()
    f = open_asset("strings/%s.txt" % lang)
    head = f.readline()
    n = int(head.split()[-1])
    index = bytearray(4 * n)  # per text: hash, offset (16 bits each, little endian)
    pos = len(head)
    for i in range(n):
        line = f.readline()
        h = _H0
        for b in line:
            if b == 9:  # the tab after the key
                break
            h = ((h * 33) ^ b) & 0xFFFF
        index[4 * i] = h & 255
        index[4 * i + 1] = h >> 8
        index[4 * i + 2] = pos & 255
        index[4 * i + 3] = pos >> 8
        pos += len(line)
    _state["lang"] = lang
    _state["file"] = f
    _state["index"] = index


def lang():
    """The current language code."""
    return _state["lang"]


def _find(key, h, prefix):
    # The text of (prefix + key) whose hash is h, or None.
    index = _state["index"]
    f = _state["file"]
    lo = 0
    hi = len(index) >> 2
    n = hi
    while lo < hi:
        mid = (lo + hi) >> 1
        if index[4 * mid] | index[4 * mid + 1] << 8 < h:
            lo = mid + 1
        else:
            hi = mid
    want = prefix + key
    while lo < n and index[4 * lo] | index[4 * lo + 1] << 8 == h:
        f.seek(index[4 * lo + 2] | index[4 * lo + 3] << 8)
        line = f.readline().decode("utf-8")
        tab = line.find("\t")
        if line[:tab] == want:
            text = line[tab + 1:].rstrip("\n")
            return text.replace("\\n", "\n") if "\\" in text else text
        lo += 1
    return None


def t(key):
    """The text for ``key`` in the current language (KeyError if none)."""
    if _state["file"] is None:
        set_lang("en")
    if _state["three_on"]:
        text = _find(key, _hash(key, _H3), "3:")
        if text is not None:
            return text
    text = _find(key, _hash(key), "")
    if text is None:
        raise KeyError(key)
    return text


def rules_module():
    """The rules pages module of the current language."""
    if _state["lang"] == "tr":
        from pisti_app.texts import rules_tr as mod
    else:
        from pisti_app.texts import rules_en as mod
    return mod
