# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Desktop tools of the pisti console (not deployed to the device)."""
