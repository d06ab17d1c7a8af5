# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# CircuitPython has __future__ built in; MicroPython's wasm VM has none.
annotations = True
