# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The one installed rig, shared by the replacement modules."""

RIG = None


def require():
    """Return the installed rig or raise a clear error."""
    if RIG is None:
        raise RuntimeError(
            "pisti hardware shims are not installed: call tools.shims.install() first"
        )
    return RIG
