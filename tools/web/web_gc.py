# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The browser page's `gc` for the firmware: this port's gc.mem_free() adds
# the 128 MiB its heap could still grow by (the page refuses the growth), so
# mem_free() here is the board's figure: what is free in the capped heap.
from gc import collect, disable, enable, isenabled, mem_alloc, threshold  # noqa: F401 (re-exported: the page's gc module)
from gc import mem_free as _free


def mem_free():
    f = _free()
    return f - 0x8000000 if f >= 0x8000000 else f
