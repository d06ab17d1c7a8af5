# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Test configuration: the repo root on sys.path, shared fixtures."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
if os.path.join(ROOT, "lib") not in sys.path:  # as on the device: lib/ holds pisti_app and fonts
    sys.path.append(os.path.join(ROOT, "lib"))
