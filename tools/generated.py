# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Files the repository keeps that a tool makes (the glyph sheets, the
texts on flash): write them, or check that the committed ones are fresh."""

import os


def write_or_check(path, data, tool, check):
    """Write ``data`` to ``path`` (and say so), or with ``check`` compare:
    True when the file is what ``tool`` would write (else one line naming it)."""
    if check:
        try:
            with open(path, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            print("%s is stale: run python %s" % (path, tool))
        return same
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    print("wrote %s (%d bytes)" % (path, len(data)))
    return True
