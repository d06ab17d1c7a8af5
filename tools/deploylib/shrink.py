# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The device's .py modules made smaller on their way to the board
(tools/deploy.py, and the heap gauge, which boots what deploy would put
there).

CircuitPython compiles each .py module in RAM and interns every name it
reads -- local variables included -- for as long as the board runs: names
are never freed. Their table grows in pools, each twice the last; on a Pico
the 1,260th name the game adds takes a new pool of 1,280 entries, 7.7 KB at
once (measured on the emulated Pico). python-minifier
renames each function's locals to short names shared by every module, and
drops docstrings and annotations; module globals, attributes, function
parameters and keyword names keep their names, so imports between modules
and keyword calls work as before. Measured on the emulated Pico (a link
table's 43 modules imported, then names added until that pool comes):
~1,313 of the game's names as written, ~1,227 minified, and 10 KB more free
after those imports; the main menu 0.9 KB more.

Desktop CPython only; nothing here is imported by device code.
"""

from __future__ import annotations

from pathlib import Path

from tools.deploylib import DeployError

# The parts of the project that are minified: the modules code.py imports.
# code.py itself stays as written (a maker may read it).
SHRUNK_DIRS = ("lib", "pisti_core")

MISSING = ("python-minifier is not installed (pip install python-minifier==3.4.0, or bash tools/setup.sh): "
           "the game goes on the board as written, with less memory free in link games")


def available() -> bool:
    try:
        import python_minifier  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
    except ImportError:
        return False
    return True


def minify(source: str, filename: str = "<device>") -> str:
    """``source`` with its locals renamed, its docstrings and annotations
    dropped; everything another module or a keyword call can see keeps its
    name. Only transformations that keep the code inside CircuitPython's
    subset (no literals hoisted into new globals, no imports combined, no
    constants folded, no branches removed, ``class X(object)`` kept)."""
    import python_minifier  # pylint: disable=import-outside-toplevel

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


def shrink_sources(sources: dict[str, Path], out_dir: Path) -> dict[str, Path]:
    """The mapping rel -> file with each module of lib/ and pisti_core/
    minified into ``out_dir`` (everything else as it was)."""
    result: dict[str, Path] = {}
    for rel, src in sources.items():
        if not shrinks(rel):
            result[rel] = src
            continue
        out = out_dir / "shrunk" / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            text = minify(src.read_text(encoding="utf-8"), rel)
        except SyntaxError as exc:
            raise DeployError(f"could not compile {rel}: SyntaxError: {exc.msg} (line {exc.lineno}); "
                              "nothing was changed") from None
        except UnicodeDecodeError:
            raise DeployError(f"could not compile {rel}: it is not UTF-8 text; nothing was changed") from None
        out.write_text(text, encoding="utf-8")
        result[rel] = out
    return result
