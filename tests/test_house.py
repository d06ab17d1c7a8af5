# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The house's shape, read from the device code's syntax trees (lib/ and
pisti_core/, imports inside functions counted): no import cycles, no
private name of another module used, pisti_core importing nothing of the
app, screens that are views (they never import what saves, times or talks
to the link), the shell app.py within 300 lines and the README within 400."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: what runs a match in play; a screen turns keys into requests, never uses these
NOT_FOR_VIEWS = ("pisti_app.match.play", "pisti_app.match.begin", "pisti_app.match.saves",
                 "pisti_app.match.session_io", "pisti_app.match.movetimer", "pisti_app.link.remote",
                 "pisti_app.link.linkport", "pisti_app.link.linkends", "pisti_app.link.relink")


def modules():
    """{dotted name: path} of every device module, named as the board imports them."""
    found = {}
    for base, top in ((os.path.join(ROOT, "lib"), ""), (ROOT, "pisti_core")):
        for folder, dirs, files in os.walk(os.path.join(base, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for name in files:
                if name.endswith(".py"):
                    parts = os.path.relpath(os.path.join(folder, name[:-3]), base).split(os.sep)
                    if parts[-1] == "__init__":
                        parts.pop()
                    found[".".join(parts)] = os.path.join(folder, name)
    return found


def imports(mods):
    """{module: {module it imports}} and [(module, other module, private name)]."""
    arrows = {}
    private = []
    for name, path in mods.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        out = set()
        alias = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in mods:
                        out.add(a.name)
                        alias[a.asname or a.name] = a.name
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for a in node.names:
                    sub = base + "." + a.name
                    if sub in mods:
                        out.add(sub)
                        alias[a.asname or a.name] = sub
                    elif base in mods:
                        out.add(base)
                        if a.name.startswith("_") and not a.name.startswith("__"):
                            private.append((name, base, a.name))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in alias
                    and node.attr.startswith("_") and not node.attr.startswith("__")
                    and alias[node.value.id] != name):
                private.append((name, alias[node.value.id], node.attr))
        out.discard(name)
        arrows[name] = out
    return arrows, private


def cycles(arrows):
    """The strongly connected groups of more than one module (Tarjan's)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(arrows[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(arrows):
        if v not in index:
            visit(v)
    return found


MODS = modules()
ARROWS, PRIVATE = imports(MODS)


def test_the_scan_sees_the_device_code():
    assert "pisti_app.match.play" in MODS and "pisti_core.pisti" in MODS and "fonts" in MODS
    assert "pisti_app.screens.gfx" in ARROWS["pisti_app.screens.menu"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    assert cycles(ARROWS) == []


def test_no_private_name_of_another_module():
    assert PRIVATE == []


def test_the_core_imports_nothing_of_the_app():
    for name, out in ARROWS.items():
        if name.startswith("pisti_core"):
            assert all(o.startswith("pisti_core") for o in out), (name, out)


def test_screens_are_views():
    for name, out in ARROWS.items():
        if name.startswith("pisti_app.screens."):
            assert not out.intersection(NOT_FOR_VIEWS), (name, sorted(out.intersection(NOT_FOR_VIEWS)))


def test_the_shell_and_the_front_door_stay_small():
    with open(os.path.join(ROOT, "lib", "pisti_app", "app.py"), encoding="utf-8") as f:
        assert len(f.read().splitlines()) <= 300
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert len(f.read().splitlines()) <= 400


def test_every_module_a_needs_names_exists():
    """A scene's ``NEEDS`` (and a table of them, ``*_NEEDS``) names modules
    that exist: :func:`pisti_app.util.unload` passes over a name it cannot find."""
    seen = 0
    for name, path in MODS.items():
        if not name.startswith("pisti_app"):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if not any(t == "NEEDS" or t.endswith("_NEEDS") for t in targets):
                continue
            value = ast.literal_eval(node.value)
            for needs in (value,) if isinstance(value, str) else value:
                for short in needs.split():
                    full = "pisti_core." + short[5:] if short.startswith("core.") else "pisti_app." + short
                    assert full in MODS, "%s: %s names no module" % (name, short)
                    seen += 1
    assert seen > 40


def test_every_module_named_in_a_string_exists():
    """A module named whole in a string (``forget("pisti_app.match.stats")``,
    a table of names) is one: unloading passes over a name it cannot find."""
    import re
    dotted = re.compile(r"^pisti_(?:app|core)(?:\.[a-z_0-9]*[a-z0-9])+$")  # (not a prefix to complete)
    seen = 0
    for name, path in MODS.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and dotted.match(node.value):
                assert node.value in MODS, "%s: %r is no module" % (name, node.value)
                seen += 1
    assert seen > 20
