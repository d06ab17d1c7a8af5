# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Test configuration: the repo root on sys.path, shared fixtures."""
import os
import shutil
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
if os.path.join(ROOT, "lib") not in sys.path:  # as on the device: lib/ holds pisti_app and fonts
    sys.path.append(os.path.join(ROOT, "lib"))

# The simulator keeps a console's saves in the user's data folder when played
# by hand (tools/simlib/nvmfile.py): the tests' runs, and the processes they
# start, keep theirs in a folder of their own instead.
DATA_HOME = tempfile.mkdtemp(prefix="pisti-test-data-")
os.environ["XDG_DATA_HOME"] = DATA_HOME


def pytest_unconfigure(config):
    shutil.rmtree(DATA_HOME, ignore_errors=True)


# The longest runs first (each a fixture's run, or a part of a long run), so
# that under pytest-xdist (tools/test.sh) the workers finish together instead
# of one of them starting a long run last. The order within a file is kept.
LONG_FIRST = ("tests/test_device.py::", "tests/test_web.py::", "tests/test_web_ring.py::", "tests/test_memgauge.py::",
              "tests/test_fuzz.py::test_ci_run_no_fault", "tests/test_botlab.py::test_ray_arena",
              "tests/test_link_remote.py::test_L4_L5",
              "tests/test_botlab.py::test_pimc_beats_random", "tests/test_nvlog.py::test_power_cut_sweep")


def pytest_collection_modifyitems(config, items):
    def rank(item):
        for i, prefix in enumerate(LONG_FIRST):
            if item.nodeid.startswith(prefix):
                return i
        return len(LONG_FIRST)

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def _keys_read_the_shims_keypad():
    """A test that imports ``pisti_app.keys`` with no rig installed binds it to
    Blinka's own ``keypad``; the next simulated console in the same process
    (pytest-xdist gives each worker its own order) then mixes two Event
    classes. Such a module is forgotten after the test, to be imported again
    under the next rig."""
    yield
    name = "pisti_app.keys"
    keys = sys.modules.get(name)
    if keys is not None and getattr(getattr(keys, "keypad", None), "__name__", "") != "tools.shims.keypad":
        del sys.modules[name]
        package, _, short = name.rpartition(".")
        package = sys.modules.get(package)
        if package is not None and getattr(package, short, None) is keys:
            delattr(package, short)


@pytest.fixture
def rare_modules():
    """linkrx and linkproto as they were before the test: a lean Lockstep
    (the board's way) unloads them and imports fresh ones, and other tests
    patch the modules they imported."""
    import pisti_core
    from pisti_core import linkgame
    kept = {n: sys.modules.get(n) for n in linkgame._RARE}
    yield
    for n, mod in kept.items():
        sys.modules[n] = mod
        setattr(pisti_core, n.rpartition(".")[2], mod)


@pytest.fixture(autouse=True)
def _no_cable_left_plugged():
    """A cable end plugged (``tools.shims.uart.plug``) that the test's console
    never opened would be the next test's cable in the same process: each
    test starts with none."""
    yield
    from tools.shims import uart
    del uart._PLUGGED[:]


def _consoles(cls, tmp_path):
    """A maker of ``cls`` consoles (``make(**extra)``, settings), each closed
    at the end of the test, after which no rig may be left installed."""
    made = []

    def make(**extra):
        d = cls(tmp_path, **extra)
        made.append(d)
        return d

    yield make
    for d in made:
        d.close()
    from tools import shims
    assert shims.active_rig() is None


@pytest.fixture
def device(tmp_path):
    """Make a :class:`console.Device` (a simulated Pico) with settings
    ``make(**extra)``; each is closed at the end of the test."""
    from console import Device
    yield from _consoles(Device, tmp_path)


@pytest.fixture
def wing(tmp_path):
    """Make a :class:`console.Wing` (the FeatherWing's 128x32 and three
    buttons) with settings ``make(**extra)``; each is closed at the end."""
    from console import Wing
    yield from _consoles(Wing, tmp_path)


@pytest.fixture
def quick_gc(monkeypatch):
    """gc.collect() collects nothing. The app collects at each screen change
    and the save log before a compaction's image (the device's heap is
    small); under pytest's large heap that is most of a test's time and
    changes nothing the test sees. Modules that drive the app use it for
    every test: ``pytestmark = pytest.mark.usefixtures("quick_gc")``."""
    import gc

    monkeypatch.setattr(gc, "collect", lambda *a: 0)
