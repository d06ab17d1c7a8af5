# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.linkport`
=========================

The link cable's UART (RULES.md L-1), opened from settings.toml
(``PISTI_LINK_TX``, ``PISTI_LINK_RX``, ``PISTI_LINK_BAUD``; the board
profiles name them) as ``busio.UART(..., timeout=0)``. Loaded only while a
link game starts or resumes (forgotten once it is open): the game itself
only reads and writes the port.
"""

BAUD = 115200
_BUFFER = 256  # busio.UART's receive buffer: a tick's worth of the line at full rate


def open_uart(getenv=None, board=None, busio=None):
    """``busio.UART`` on the pins settings.toml names (defaults: GP0/GP1 on a
    Pico, TX/RX elsewhere), or ValueError with one clear sentence naming the
    setting that is wrong."""
    if getenv is None:
        import os
        getenv = os.getenv
    if board is None:
        import board
    if busio is None:
        import busio
    gp = hasattr(board, "GP0")
    names = []
    for key, default in (("PISTI_LINK_TX", "GP0" if gp else "TX"), ("PISTI_LINK_RX", "GP1" if gp else "RX")):
        v = getenv(key)
        name = default if v is None or v == "" else str(v)
        if getattr(board, name, None) is None:
            raise ValueError("settings.toml: %s = %r is not a pin of this board" % (key, name))
        names.append(name)
    if names[0] == names[1]:
        raise ValueError("settings.toml: PISTI_LINK_TX and PISTI_LINK_RX are both %s" % names[0])
    baud = getenv("PISTI_LINK_BAUD")
    if baud is None or baud == "":
        baud = BAUD
    try:
        baud = int(baud)
    except ValueError:
        baud = 0
    if not 9600 <= baud <= 1000000:
        raise ValueError("settings.toml: PISTI_LINK_BAUD must be 9600 to 1000000, not %r"
                         % (getenv("PISTI_LINK_BAUD"),))
    return busio.UART(getattr(board, names[0]), getattr(board, names[1]), baudrate=baud, timeout=0,
                      receiver_buffer_size=_BUFFER)
