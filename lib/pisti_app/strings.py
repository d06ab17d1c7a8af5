# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.strings`
===================

Every text the console shows, in English (``str_en``) and Turkish
(``str_tr``); only the chosen language's table is in memory. ``t(key)``
looks a text up. Rules pages live in ``rules_en`` / ``rules_tr`` and are
imported only while shown.
"""

import gc
import sys

LANGS = ("en", "tr")
_state = {"lang": None, "table": None}


def set_lang(lang):
    """Switch to 'en' or 'tr' (ValueError for anything else)."""
    if lang not in LANGS:
        raise ValueError("unknown language %r (en or tr)" % (lang,))
    if lang == _state["lang"]:
        return
    old = _state["lang"]
    if old is not None:  # the other language's tables go first: never both in memory
        _state["table"] = None
        pkg = sys.modules.get("pisti_app")
        for name in ("str_" + old, "rules_" + old):
            if "pisti_app." + name in sys.modules:
                del sys.modules["pisti_app." + name]
            if pkg is not None and hasattr(pkg, name):
                delattr(pkg, name)
        gc.collect()
    if lang == "tr":
        from pisti_app.str_tr import S
    else:
        from pisti_app.str_en import S
    _state["lang"] = lang
    _state["table"] = S


def lang():
    """The current language code."""
    return _state["lang"]


def t(key):
    """The text for ``key`` in the current language."""
    if _state["table"] is None:
        set_lang("en")
    return _state["table"][key]


def rules_module():
    """The rules pages module of the current language."""
    if _state["lang"] == "tr":
        from pisti_app import rules_tr as mod
    else:
        from pisti_app import rules_en as mod
    return mod
