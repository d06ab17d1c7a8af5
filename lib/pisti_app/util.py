# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.util`
================

Small helpers shared by the device app: wrapping tick arithmetic
(``supervisor.ticks_ms`` wraps at 2**29) and the assets' files. (The
settings are read at boot only: :mod:`pisti_app.startup`.), and the
modules' lifetimes: a scene that loads modules of its own declares them in
``NEEDS`` (one string of names), and :func:`release` unloads them when it goes.
"""

__version__ = "0.2.0"

import sys

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


KEEP = sys.implementation.name == "cpython"  # modules stay loaded (forget): a desktop CPython

_PERIOD = const(0x20000000)  # 2**29
_MASK = const(0x1FFFFFFF)
_HALF = const(0x10000000)


def ticks_diff(a, b):
    """Signed ``a - b`` in ms for tick values less than 2**28 ms apart."""
    d = (a - b) & _MASK
    return ((d + _HALF) & _MASK) - _HALF


def ticks_add(t, ms):
    """``t + ms`` on the wrapping tick scale."""
    return (t + ms) & _MASK


def clamp(v, lo, hi):
    """``v`` limited to ``lo .. hi`` (for drawing code at screen edges)."""
    return lo if v < lo else hi if v > hi else v


def open_asset(rel):
    """``assets/<rel>`` opened for reading bytes: next to the folder that
    holds ``lib/`` (the repository on a desktop, / on the device), then the
    device root, then the current directory; OSError naming it if none."""
    here = globals().get("__file__", "")
    cut = here.replace("\\", "/").rfind("/lib/")
    for folder in ((here[:cut] + "/assets/") if cut >= 0 else None, "/assets/", "assets/"):
        if folder is None:
            continue
        try:
            return open(folder + rel, "rb")
        except OSError:
            pass
    raise OSError("%s not found in /assets/ or assets/" % rel)


def drop_module(name):
    """Unload module ``name`` (dotted): out of ``sys.modules`` and out of its
    package, whose attribute would keep it (its code is heap on the device)
    alive. Imported again when next needed."""
    import sys
    mods = sys.modules
    if name in mods:
        del mods[name]
    pkg, _, short = name.rpartition(".")
    pkg = mods.get(pkg) if pkg else None
    if pkg is not None and hasattr(pkg, short):
        delattr(pkg, short)


def restarts():
    """True where the app restarts the console to give a link game, and the
    main menu after one, a fresh heap: CircuitPython, whose
    ``supervisor.reload()`` runs code.py again (the names it interned and
    the heap's pieces gone). A desktop rig plays on in place."""
    import sys
    return sys.implementation.name == "circuitpython"


def forget(*names):
    """Unload modules no longer used (their code is heap on the device).
    Only on MicroPython and CircuitPython (:data:`KEEP` false): a desktop
    CPython has no heap to save, and its tests hold on to these modules."""
    if KEEP:
        return
    for name in names:
        drop_module(name)


def release(owner):
    """Unload the modules ``owner`` (a scene, or its class) declares in its
    ``NEEDS``: what it alone loaded, as one string of names, pisti_app's
    modules below the package (``screens.menu``) and pisti_core's after
    ``core.`` (one string: it stays in the heap while its owner's module is
    loaded)."""
    for name in owner.NEEDS.split():
        forget("pisti_core." + name[5:] if name.startswith("core.") else "pisti_app." + name)


def log_mem(screen, level):
    """PISTI_MEMLOG: the free heap at ``screen`` on the serial console (after
    a collection); ``level`` 2 lists the modules loaded and the interned names too."""
    import gc

    import supervisor
    print("mem %s free=%d ms=%d" % (screen, gc.mem_free(), supervisor.ticks_ms()))
    if level > 1:
        print("mods", " ".join(sorted(sys.modules)))
        try:
            import micropython
            micropython.qstr_info()
        except (ImportError, AttributeError):
            pass


def seeded_below(n):
    """A uniformly random int below ``n`` from the seeded ``random`` module
    (the deals' chance with PISTI_SEED)."""
    import random
    return random.randrange(n) if n > 1 else 0
