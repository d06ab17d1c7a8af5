# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Every rule of the rule book (pisti_core/RULES.md) has a test that names
it, and the book in the repository keeps every id of the ground-truth rule
book it was written from (../shared/RULES.md, where it is beside the
checkout)."""

import ast
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RULES = os.path.join(ROOT, "pisti_core", "RULES.md")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "RULES.md")
# The rule families whose every id must be named by a test, as they are built.
FAMILIES = ("P", "Y", "T", "L", "R")


def rule_ids(path=RULES, fams="PYTLR"):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    pat = "[%s]-\\d+" % fams
    return sorted(set(re.findall(r"\*\*(%s)\b" % pat, text)) | set(re.findall(r"^- \*\*(%s)" % pat, text, re.M)))


def named_in_tests():
    """Rule ids named by test functions (name or docstring): P-5 as P5 or P-5."""
    found = set()
    for f in os.listdir(HERE):
        if not (f.startswith("test_") and f.endswith(".py")):
            continue
        with open(os.path.join(HERE, f), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name + " " + (ast.get_docstring(node) or "")
                for fam, num in re.findall(r"(?<![A-Za-z])([PYTLR])-?(\d+)(?!\d)", text):
                    found.add("%s-%s" % (fam, num))
    return found


def test_every_rule_has_a_named_test():
    ids = [r for r in rule_ids() if r[0] in FAMILIES]
    assert len(ids) >= 13 + 16 + 6 + 17 + 4
    named = named_in_tests()  # every test file parsed once, not once a rule
    missing = [r for r in ids if r not in named]
    assert missing == [], "rules with no test naming them: %s" % ", ".join(missing)


def test_the_repository_rule_book_has_every_rule_in_order():
    """pisti_core/RULES.md: P-1..P-13, Y-1..Y-16, T-1..T-6, L-1..L-17 (link
    play, two consoles and a ring: the book's own), R-1..R-4, each once, in
    order, and its **Choice**
    points are where the ground truth marks a **Decision** (the ground
    truth has no L family: the link's rules are compared only here)."""
    with open(RULES, encoding="utf-8") as f:
        text = f.read()
    heads = re.findall(r"^- \*\*([PYTLR]-\d+)\b", text, re.M)
    want = (["P-%d" % i for i in range(1, 14)] + ["Y-%d" % i for i in range(1, 17)]
            + ["T-%d" % i for i in range(1, 7)] + ["L-%d" % i for i in range(1, 18)]
            + ["R-%d" % i for i in range(1, 5)])
    assert heads == want
    if not os.path.exists(SHARED):
        return
    assert rule_ids(SHARED, "PYTR") == rule_ids(RULES, "PYTR")

    def choices(body, word):
        out = set()
        for part in re.split(r"^- ", body, flags=re.M):
            part = part.split("\n## ")[0]
            m = re.match(r"\*\*([PYTR]-\d+)", part)  # L has no ground truth
            if m and ("**%s" % word) in part:
                out.add(m.group(1))
        return out

    with open(SHARED, encoding="utf-8") as f:
        shared = f.read()
    assert choices(text, "Choice") == choices(shared, "Decision")
