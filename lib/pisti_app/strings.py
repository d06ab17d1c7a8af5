# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.strings`
===================

Every text the console shows, in English (``str_en``) and Turkish
(``str_tr``); only the chosen language's table is in memory. ``t(key)``
looks a text up. Rules pages live in ``rules_en`` / ``rules_tr`` and are
imported only while shown.

Texts that name buttons are written for the six-button build (arrows, A
selects, B goes back). Each language also has ``S3``, the same keys'
texts for three buttons (A previous, C next, B select, a long B back);
``set_buttons(three)``, called once at boot from the key map, makes
``t()`` take those instead.
"""

import gc
import sys

LANGS = ("en", "tr")
_state = {"lang": None, "table": None, "three": None, "three_on": False}


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
    if old is not None:  # the other language's tables go first: never both in memory
        _state["table"] = None
        _state["three"] = None
        pkg = sys.modules.get("pisti_app")
        for name in ("str_" + old, "rules_" + old):
            if "pisti_app." + name in sys.modules:
                del sys.modules["pisti_app." + name]
            if pkg is not None and hasattr(pkg, name):
                delattr(pkg, name)
        gc.collect()
    if lang == "tr":
        from pisti_app.str_tr import S, S3
    else:
        from pisti_app.str_en import S, S3
    _state["lang"] = lang
    _state["table"] = S
    _state["three"] = S3


def lang():
    """The current language code."""
    return _state["lang"]


def t(key):
    """The text for ``key`` in the current language."""
    if _state["table"] is None:
        set_lang("en")
    if _state["three_on"]:
        text = _state["three"].get(key)
        if text is not None:
            return text
    return _state["table"][key]


def rules_module():
    """The rules pages module of the current language."""
    if _state["lang"] == "tr":
        from pisti_app import rules_tr as mod
    else:
        from pisti_app import rules_en as mod
    return mod
