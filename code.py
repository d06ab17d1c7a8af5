# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""pisti console: the device entry point (also run on a desktop by the
simulator). The app lives in lib/pisti_app; on the device lib/ is on
sys.path already, on a desktop it is added here.

CircuitPython runs this file as ``__main__``. The guard matters on a
desktop: with the repository root on sys.path, ``import code`` (pdb does
it, under pytest too) finds this file instead of the standard library's.
"""

if __name__ == "__main__":
    import sys

    _here = globals().get("__file__", "").replace("\\", "/").rpartition("/")[0]
    _lib = _here + "/lib" if _here else "lib"
    if "/lib" not in sys.path and _lib not in sys.path:
        sys.path.append(_lib)

    import pisti_app

    pisti_app.run()
