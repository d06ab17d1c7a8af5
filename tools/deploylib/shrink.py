# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device's .py modules made smaller on their way to the board
(tools/deploy.py, and the heap gauge, which boots what deploy would put
there).

CircuitPython compiles each .py module in RAM and interns every name it
reads -- local variables included -- for as long as the board runs: names
are never freed. Their table grows in pools, each twice the last; on a Pico
the 1,260th name the game adds takes a new pool of 1,280 entries, 7.7 KB at
once. python-minifier renames each function's locals to short names shared
by every module, and drops docstrings and annotations; module globals,
attributes, function parameters and keyword names keep their names, so
imports between modules and keyword calls work unchanged. Fewer names
stay interned: a link table's modules imported keep the game under that
pool, and the heap has more free (the gauge, ``python tools/memgauge.py``,
shows how much).

Before python-minifier, two passes of our own: each module's private
constants are folded into their uses (:func:`fold_private_consts`), and the
private names the modules define get short names, one map for every module
(:func:`private_names`, :func:`rename`): more heap free at a Pis Yedili 4p
link table, where the heap is tightest.

Desktop CPython only; nothing here is imported by device code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tools.deploylib import DeployError

# The parts of the project that are minified: the modules code.py imports.
# code.py itself stays as written (a maker may read it).
SHRUNK_DIRS = ("lib", "pisti_core")

MISSING = ("python-minifier is not installed (bash tools/setup.sh --deploy sets it up in the project's .venv): "
           "the game goes on the board as written, with less memory free in link games")


def available() -> bool:
    try:
        import python_minifier  # noqa: F401 (only whether it is installed)
    except ImportError:
        return False
    return True


def _private_const(node: ast.stmt) -> str | None:
    """The name of a module-level ``_NAME = const(...)``, else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
        return None
    name, value = node.targets[0].id, node.value
    if not name.startswith("_") or name.startswith("__"):
        return None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "const"
            and len(value.args) == 1 and not value.keywords):
        return None
    return name


def fold_private_consts(source: str, filename: str = "<device>") -> str:
    """``source`` with each module-level ``_NAME = const(n)`` gone and its
    uses replaced by the number.

    CircuitPython's compiler does this itself for such a name (it is never
    a global), but its lexer has interned the name by then, for good: ~130
    names in the game, 6 bytes of pool entry and their characters each.
    Only an int the module's own literals and earlier such constants make
    is folded, and only a name nothing else in the module binds."""
    tree = ast.parse(source, filename=filename)
    stores: dict[str, int] = {}  # assignments to a name
    other: set[str] = set()  # names bound any other way (a parameter, a def, an import, global)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            other.update(node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            other.add(node.name)
        elif isinstance(node, ast.alias):
            other.add((node.asname or node.name).split(".")[0])
    values: dict[str, int] = {}

    class _Fold(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:  # (ast's name)
            if isinstance(node.ctx, ast.Load) and node.id in values:
                return ast.copy_location(ast.Constant(values[node.id]), node)
            return node

    body = []
    for node in tree.body:
        name = _private_const(node)
        if name is not None and stores.get(name) == 1 and name not in other:
            expr = ast.Expression(_Fold().visit(node.value.args[0]))
            try:
                value = eval(compile(ast.fix_missing_locations(expr), filename, "eval"),
                             {"__builtins__": {}})
            except Exception:
                value = None  # not made of literals: left to the board's compiler
            if isinstance(value, int) and not isinstance(value, bool):
                values[name] = value
                continue
        body.append(node)
    if not values:
        return source
    tree.body = body
    return ast.unparse(ast.fix_missing_locations(_Fold().visit(tree))) + "\n"


# What runs beside the deployed modules and may name what they hold: their
# private names that these files spell keep their names (the project's root
# is three folders up from here).
READERS = ("code.py", "tools/memgauge/drive.py", "tools/memgauge/standins", "tools/web")
_ROOT = Path(__file__).resolve().parents[2]


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def _words(root: Path, rels=READERS) -> tuple[set[str], set[str]]:
    """Every identifier-like word in the files ``rels`` under ``root``, and
    the attribute names they read or write."""
    words: set[str] = set()
    attrs: set[str] = set()
    for rel in rels:
        p = root / rel
        for f in sorted(p.rglob("*.py") if p.is_dir() else [p]):
            if "node_modules" not in f.parts and f.is_file():
                text = f.read_text(encoding="utf-8")
                words.update(_IDENT.findall(text))
                try:
                    attrs.update(n.attr for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Attribute))
                except SyntaxError:
                    attrs.update(words)
    return words, attrs


def private_names(texts: dict[str, str], readers: tuple[set[str], set[str]] | None = None) -> dict[str, str]:
    """The map from each private name (``_name``) the modules ``texts``
    (rel -> source, constants folded) define -- a function, a class, an
    attribute or a variable they assign -- to a short name, the same in
    every module, so an import or an attribute between them still meets.

    A board interns every name of a module it compiles, for good: ~150 of
    the game's are private, ~900 characters. Their short names are first
    those python-minifier gives locals (``A`` .. ``Z``, interned anyway), so
    most cost nothing. Kept as written: a name any string of the modules
    holds (``getattr(obj, "_grid", None)``), one the :data:`READERS` spell,
    and one the modules only read (another library's)."""
    words, attrs = _words(_ROOT) if readers is None else readers
    defined: set[str] = set()
    used: set[str] = set()
    quoted: set[str] = set()
    for rel in sorted(texts):
        for node in ast.walk(ast.parse(texts[rel], filename=rel)):
            name = None
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                used.add(node.name)
                name = node.name
            elif isinstance(node, ast.Name):
                used.add(node.id)  # (every name a module spells: never a short name)
                if not isinstance(node.ctx, ast.Load):
                    name = node.id
            elif isinstance(node, ast.Attribute):
                used.add(node.attr)
                if not isinstance(node.ctx, ast.Load):
                    name = node.attr
            elif isinstance(node, ast.arg):
                used.add(node.arg)
                name = node.arg
            elif isinstance(node, ast.alias):
                used.add(node.asname or node.name)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                quoted.update(_IDENT.findall(node.value))
            if name is not None and _private(name):
                defined.add(name)
    names = sorted(n for n in defined if n not in quoted and n not in words)
    taken = used | defined | attrs  # (a short name is never one a module or a reader spells in code)
    short = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in taken]
    short += [a + b for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
              for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if a + b not in taken]
    # the longest names take the names that cost nothing
    names.sort(key=lambda n: (-len(n), n))
    return dict(zip(names, short, strict=False))


def rename(source: str, names: dict[str, str], filename: str = "<device>") -> str:
    """``source`` with every identifier in ``names`` renamed (names in
    strings and comments untouched; a dotted module name is never one)."""
    tree = ast.parse(source, filename=filename)
    hit = False
    for node in ast.walk(tree):
        for field in ("id", "attr", "name", "arg", "asname"):
            v = getattr(node, field, None)
            if isinstance(v, str) and v in names:
                setattr(node, field, names[v])
                hit = True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and any(n in names for n in node.names):
            node.names = [names.get(n, n) for n in node.names]
            hit = True
    return ast.unparse(tree) + "\n" if hit else source


def minify(source: str, filename: str = "<device>", names: dict[str, str] | None = None) -> str:
    """``source`` with its locals renamed, its private constants folded
    (:func:`fold_private_consts`), its private names shortened as ``names``
    says (:func:`private_names`), its docstrings and annotations dropped;
    everything another module or a keyword call can see keeps its
    name. Of python-minifier's transformations only those that keep the
    code inside CircuitPython's subset (no literals hoisted into new
    globals, no imports combined, none of its constant folding, no branches
    removed, ``class X(object)`` kept)."""
    import python_minifier

    source = fold_private_consts(source, filename)
    if names:
        source = rename(source, names, filename)
    return python_minifier.minify(
        source, filename=filename,
        rename_locals=True, rename_globals=False,
        remove_literal_statements=True, remove_annotations=True, remove_pass=True,
        hoist_literals=False, combine_imports=False, constant_folding=False, remove_dead_branches=False,
        remove_object_base=False, convert_posargs_to_args=False, remove_builtin_exception_brackets=False,
        remove_asserts=False, remove_debug=False, remove_explicit_return_none=True, preserve_shebang=False,
    ) + "\n"


def shrinks(rel: str) -> bool:
    """True for a file deploy minifies (a .py module under lib/ or pisti_core/)."""
    return rel.endswith(".py") and rel.split("/", 1)[0] in SHRUNK_DIRS


def sources_names(sources: dict[str, Path]) -> dict[str, str]:
    """:func:`private_names` of the modules among ``sources`` (rel -> file)
    that deploy minifies; a module that does not parse is left out here
    (:func:`shrink_sources` reports it)."""
    texts = {}
    for rel, src in sources.items():
        if shrinks(rel):
            try:
                texts[rel] = fold_private_consts(src.read_text(encoding="utf-8"), rel)
            except (SyntaxError, UnicodeDecodeError):
                continue
    return private_names(texts)


def project_names(root: Path) -> dict[str, str]:
    """:func:`sources_names` of the modules under ``root``'s lib/ and pisti_core/."""
    return sources_names({f.relative_to(root).as_posix(): f
                          for d in SHRUNK_DIRS for f in sorted((root / d).rglob("*.py"))})


def shrink_sources(sources: dict[str, Path], out_dir: Path, names: dict[str, str] | None = None) -> dict[str, Path]:
    """The mapping rel -> file with each module of lib/ and pisti_core/
    minified into ``out_dir`` (everything else as it was). ``names``: the
    private names' map (:func:`private_names`) when ``sources`` are only
    part of the modules; by default made from ``sources``."""
    result: dict[str, Path] = {}
    if names is None:
        names = sources_names(sources)
    for rel, src in sources.items():
        if not shrinks(rel):
            result[rel] = src
            continue
        out = out_dir / "shrunk" / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            text = minify(src.read_text(encoding="utf-8"), rel, names)
        except SyntaxError as exc:
            raise DeployError(f"could not compile {rel}: SyntaxError: {exc.msg} (line {exc.lineno}); "
                              "nothing was changed") from None
        except UnicodeDecodeError:
            raise DeployError(f"could not compile {rel}: it is not UTF-8 text; nothing was changed") from None
        out.write_text(text, encoding="utf-8")
        result[rel] = out
    return result
