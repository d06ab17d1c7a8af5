# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Every rule of the rule book has a test that names it (issue: rules core)."""

import ast
import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "shared", "RULES.md")
# The rule families whose every id must be named by a test, as they are built.
FAMILIES = ("P", "Y", "T", "R")


def rule_ids():
    with open(RULES, encoding="utf-8") as f:
        text = f.read()
    return sorted(set(re.findall(r"\*\*([PYTR]-\d+)\b", text)) | set(re.findall(r"^- \*\*([PYTR]-\d+)", text, re.M)))


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
                for fam, num in re.findall(r"(?<![A-Za-z])([PYTR])-?(\d+)(?!\d)", text):
                    found.add("%s-%s" % (fam, num))
    return found


@pytest.mark.skipif(not os.path.exists(RULES) and os.environ.get("CI") != "true",
                    reason="../shared/RULES.md not beside the checkout")
def test_every_rule_has_a_named_test():
    ids = [r for r in rule_ids() if r[0] in FAMILIES]
    assert len(ids) >= 13 + 16 + 6 + 4
    missing = [r for r in ids if r not in named_in_tests()]
    assert missing == [], "rules with no test naming them: %s" % ", ".join(missing)
