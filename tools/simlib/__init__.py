# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Parts of the desktop simulator (``tools/sim.py``).

* :mod:`tools.simlib.script`: key scripts, ``--start`` and the profile's buttons.
* :mod:`tools.simlib.session`: one boot of ``code.py`` on the shims, the
  sleep hook that drives it, frames, GIF, status, outside bots.
* :mod:`tools.simlib.headless`: key scripts on the virtual clock.
* :mod:`tools.simlib.render`: the framebuffer as terminal text.
* :mod:`tools.simlib.terminal`: the interactive terminal front end.
* :mod:`tools.simlib.window`: the pygame window front end.
"""
