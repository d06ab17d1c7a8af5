# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The rules core under the micropython command (the CI proxy for CircuitPython).

Heap caps: complete random matches of every mode fit in
``-X heapsize=40K`` with pisti_core as .mpy; importing each pisti_core module
from .py source (the device compiles it in RAM) fits in 64K.
"""

import os
import shutil

import pytest

from tools import mpy
from tools.bench import core_modules

MODES = [("pisti", 2), ("pisti", 4), ("yedili", 2), ("yedili", 3), ("yedili", 4)]

CORE_MODULES = core_modules()


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    mpy.build(out)
    shutil.copy(os.path.join(mpy.ROOT, "tools", "mp_selfplay.py"), out)
    return out


def test_every_core_module_compiles_to_mpy(build):
    for m in CORE_MODULES:
        assert os.path.exists(os.path.join(build, "pisti_core", m.replace(".", "/") + ".mpy")), m


@pytest.mark.parametrize("game,players", MODES)
def test_complete_matches_fit_in_40K(build, game, players):
    r = mpy.run(os.path.join(build, "mp_selfplay.py"), "40K", path=(build,),
                args=(game, str(players), "2", "11"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok %s %d hands=" % (game, players))
    assert int(r.stdout.split("hands=")[1].split()[0]) >= 2


def test_a_too_small_heap_fails(build):
    # The cap is real: the same run dies in a heap far below the budget.
    r = mpy.run(os.path.join(build, "mp_selfplay.py"), "6K", path=(build,),
                args=("pisti", "2", "1", "1"))
    assert r.returncode != 0 and "MemoryError" in (r.stdout + r.stderr)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_import_from_source_fits_in_64K(build, tmp_path, module):
    # The module itself from .py (compiled in the heap), the rest precompiled.
    shutil.copytree(os.path.join(build, "pisti_core"), str(tmp_path / "pisti_core"))
    rel = module.replace(".", "/")
    os.unlink(str(tmp_path / "pisti_core" / (rel + ".mpy")))
    shutil.copy(os.path.join(mpy.ROOT, "pisti_core", rel + ".py"),
                str(tmp_path / "pisti_core" / (rel + ".py")))
    r = mpy.run_code("import pisti_core.%s\nprint('imported')\n" % module, "64K",
                     path=(str(tmp_path),))
    assert r.returncode == 0 and "imported" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("module", CORE_MODULES)
def test_import_from_source_with_its_imports_fits_in_64K(module):
    # The module and everything it imports, all from .py, compiled in the heap.
    r = mpy.run_code("import pisti_core.%s\nprint('imported')\n" % module, "64K")
    assert r.returncode == 0 and "imported" in r.stdout, r.stdout + r.stderr
