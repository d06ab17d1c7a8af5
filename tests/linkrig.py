# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""What the link protocol's tests (two consoles and the ring) drive the core
with: a clock the test sets, and byte sources that repeat for a seed."""

import random


class Clock:
    """Milliseconds as the test sets them (``t``); calling it reads them."""

    def __init__(self):
        self.t = 0

    def __call__(self):
        return self.t


def urandom_from(seed):
    """An ``os.urandom`` stand-in whose bytes repeat for ``seed``."""
    r = random.Random(seed)
    return lambda n: bytes(r.randrange(256) for _ in range(n))
