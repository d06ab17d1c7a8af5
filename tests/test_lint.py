# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The house in order: the linter (ruff, pinned in tools/requirements.txt,
configured in tools/ruff.toml, run by tools/test.sh too) finds nothing, and
the comments and docstrings of the code say what it does and why, not its
history (no issue or stop numbers, dates or commit hashes)."""

import ast
import importlib.util
import io
import os
import re
import subprocess
import sys
import tokenize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE = ("code.py", "lib", "pisti_core", "tools", "tests")
SKIP = ("node_modules", "typings")  # others' code: installed packages, CircuitPython's stubs
HISTORY = (r"\bissue \d", r"\bstop \d", r"\b20\d\d-\d\d-\d\d\b", r"\bcommit [0-9a-f]{7}")


def test_ruff_finds_nothing():
    assert importlib.util.find_spec("ruff"), "ruff is not installed: run bash tools/setup.sh"
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", "tools/ruff.toml",
                        "--output-format", "concise", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def python_files():
    for top in CODE:
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


def prose(path):
    """(line, text) of every comment and docstring of ``path``; ``literal``
    spans of docstrings (examples of a format, as a board prints it) left out."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield getattr(node, "lineno", 1), re.sub(r"``.*?``", "", doc, flags=re.S)


def test_no_history_in_comments_and_docstrings():
    found = []
    for path in python_files():
        for line, text in prose(path):
            for pattern in HISTORY:
                m = re.search(pattern, text, re.I)
                if m:
                    found.append("%s:%d: %r" % (os.path.relpath(path, ROOT), line,
                                                text[max(0, m.start() - 30):m.end() + 30]))
    assert not found, "say what the code does and why, not when or in which issue:\n" + "\n".join(found)
