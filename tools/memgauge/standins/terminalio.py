# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# Stand-in for CircuitPython's terminalio (C) in the heap gauge: FONT only.
from fontio import BuiltinFont

FONT = BuiltinFont()
