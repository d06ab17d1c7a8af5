# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.texts.wrap`
======================

Word wrap for the small font's 25 columns (confirmations, text pages, the
Muamele line of a hand end): a module of its own, loaded by those screens.
"""


def wrap(text, cols=25):
    """Lines of at most ``cols`` characters; '\\n' starts a new line."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > cols:
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:cols])
                word = word[cols:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= cols:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out
