# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.link.linkport`
=========================

The link cables' UARTs (RULES.md L-1, L-11), opened from settings.toml as
``busio.UART(..., timeout=0)``: the first on ``PISTI_LINK_TX`` /
``PISTI_LINK_RX``, the second (a ring of three or four consoles: this
console's first UART to the next one's second) on ``PISTI_LINK2_TX`` /
``PISTI_LINK2_RX``, both at ``PISTI_LINK_BAUD``; the board profiles name
them. Loaded only while a link game starts or resumes (forgotten once the
ports are open): the game itself only reads and writes them.
"""

BAUD = 115200
_BUFFER = 256  # busio.UART's receive buffer: a tick's worth of the line at full rate
# the default pins: (settings key, with GP pins (a Pico), without (a Feather))
_PINS = (("PISTI_LINK_TX", "GP0", "TX"), ("PISTI_LINK_RX", "GP1", "RX"),
         ("PISTI_LINK2_TX", "GP8", "D24"), ("PISTI_LINK2_RX", "GP9", "D25"))


def _pins(getenv, board, second):
    """The two pin names of a cable's UART, checked against the board."""
    gp = hasattr(board, "GP0")
    names = []
    keys = _PINS[2:] if second else _PINS[:2]
    for key, pico, other in keys:
        v = getenv(key)
        name = (pico if gp else other) if v is None or v == "" else str(v)
        if getattr(board, name, None) is None:
            raise ValueError("settings.toml: %s = %r is not a pin of this board" % (key, name))
        names.append(name)
    if names[0] == names[1]:
        raise ValueError("settings.toml: %s and %s are both %s" % (keys[0][0], keys[1][0], names[0]))
    return names


def _baud(getenv):
    baud = getenv("PISTI_LINK_BAUD")
    if baud is None or baud == "":
        return BAUD
    try:
        baud = int(baud)
    except ValueError:
        baud = 0
    if not 9600 <= baud <= 1000000:
        raise ValueError("settings.toml: PISTI_LINK_BAUD must be 9600 to 1000000, not %r"
                         % (getenv("PISTI_LINK_BAUD"),))
    return baud


def _env(getenv, board, busio):
    if getenv is None:
        import os
        getenv = os.getenv
    if board is None:
        import board
    if busio is None:
        import busio
    return getenv, board, busio


def _uart(busio, board, names, baud):
    return busio.UART(getattr(board, names[0]), getattr(board, names[1]), baudrate=baud, timeout=0,
                      receiver_buffer_size=_BUFFER)


def open_uart(getenv=None, board=None, busio=None):
    """``busio.UART`` on the pins settings.toml names for the first cable
    (defaults: GP0/GP1 on a Pico, TX/RX elsewhere), or ValueError with one
    clear sentence naming the setting that is wrong."""
    getenv, board, busio = _env(getenv, board, busio)
    return _uart(busio, board, _pins(getenv, board, False), _baud(getenv))


def open_ring(getenv=None, board=None, busio=None):
    """Both cables' UARTs, ``[first, second]``: the second on GP8/GP9 on a
    Pico, D24/D25 elsewhere, by default; the settings all checked before a
    pin is claimed (ValueError as :func:`open_uart`)."""
    getenv, board, busio = _env(getenv, board, busio)
    one = _pins(getenv, board, False)
    two = _pins(getenv, board, True)
    baud = _baud(getenv)
    for k in range(2):
        for j in range(2):
            if one[k] == two[j]:
                raise ValueError("settings.toml: %s and %s are both %s" % (_PINS[k][0], _PINS[2 + j][0], one[k]))
    first = _uart(busio, board, one, baud)
    try:
        return [first, _uart(busio, board, two, baud)]
    except (ValueError, RuntimeError):
        first.deinit()
        raise
