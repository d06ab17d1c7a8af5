# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Parts of tools/deploy.py: finding the drive, settings.toml, the device
libraries, .mpy headers and imports, what the device code imports, board
ids. Desktop CPython only."""


class DeployError(Exception):
    """A problem reported to the user as one sentence, without a traceback."""


def skipped(name: str) -> bool:
    """Files and folders deploy never copies: hidden ones, caches, editor
    backups, and documents (pisti_core/RULES.md is for people, not the board)."""
    return (
        name.startswith(".")
        or name == "__pycache__"
        or name.endswith((".pyc", ".pyo", "~", ".md"))
    )
