# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""CircuitPython's ``micropython`` module, in place of circuitpython-stubs'
``micropython-stubs`` (10.3.1), which is wrong for this firmware twice:

* it leaves out ``mem_info`` and ``qstr_info``, which CircuitPython builds
  have (``MICROPY_PY_MICROPYTHON_MEM_INFO`` is 1 in ``circuitpy_mpconfig.h``;
  ``PISTI_MEMLOG = 2`` calls ``qstr_info``);
* it names ``const``'s parameter ``expr``. The firmware's ``const`` is a C
  function of one positional argument (no keyword name at all), so the name
  is arbitrary; the stub's ``expr`` made every CPython fallback
  ``def const(x): return x`` a mismatched redeclaration of the import. Here
  it is ``x``, the fallbacks' name.
"""

from typing import TypeVar

_T = TypeVar("_T")

def const(x: _T) -> _T: ...
def mem_info(verbose: int = ..., /) -> None: ...
def qstr_info(verbose: int = ..., /) -> None: ...
