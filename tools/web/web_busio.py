# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
# The browser page's busio: the heap gauge's stand-in (tools/memgauge/standins/busio.py: I2C, and a
# UART sized as CircuitPython's) with the console's two link cables told apart, as on a board where
# each UART has its own pins and its own wire. A UART is the first link's when its TX or RX pin is
# PISTI_LINK_TX / PISTI_LINK_RX, the second's on PISTI_LINK2_TX / PISTI_LINK2_RX (settings.toml, else
# the firmware's defaults: GP0/GP1 and GP8/GP9 on a Pico, TX/RX and D24/D25 on a Feather; as
# tools/shims/uart.py's link_of on the desktop), else no link's. The page's cables carry each link's
# bytes (web_drive.uart_in / uart_out); a UART of no link, or of a link with no cable, hears nothing.
# web_drive.setup puts this module in sys.modules as busio, before the firmware imports it.
import board
import busio as _gauge
from os_getenv import getenv

I2C = _gauge.I2C
FIRST = 1
SECOND = 2
# (setting, with GP pins (a Pico), without (a Feather)): pisti_app.link.linkport's defaults
_PINS = (("PISTI_LINK_TX", "GP0", "TX"), ("PISTI_LINK_RX", "GP1", "RX"),
         ("PISTI_LINK2_TX", "GP8", "D24"), ("PISTI_LINK2_RX", "GP9", "D25"))


def _names():
    gp = hasattr(board, "GP0")
    out = []
    for key, pico, other in _PINS:
        v = getenv(key)
        out.append((pico if gp else other) if v is None or v == "" else str(v))
    return out


# the pins are names here (the stand-in boards give each pin as its name)
_TX1, _RX1, _TX2, _RX2 = _names()


def link_of(tx, rx):
    """Which link ``busio.UART(tx, rx)`` is: :data:`FIRST`, :data:`SECOND`, or 0 for neither."""
    if tx == _TX1 or rx == _RX1:
        return FIRST
    if tx == _TX2 or rx == _RX2:
        return SECOND
    return 0


# what each link's UARTs wrote since the driver last took it (index 1 the first's, 2 the second's):
# preallocated, as the C driver's TX FIFO costs the heap nothing
_wires = (None, _gauge._Wire(), _gauge._Wire())


class UART(_gauge.UART):
    """The gauge's UART, on the link its pins say (``link``: 1, 2, or 0)."""

    def __init__(self, tx, rx, **kw):
        super().__init__(tx, rx, **kw)
        self.link = link_of(tx, rx)

    def write(self, buf):
        w = _wires[self.link] if self.link else None
        if w is not None:
            w.append(buf)
        return len(buf)


def arrive(data, link):
    """The page's cable brought ``data`` to ``link``: into that link's open UART (the newest,
    if the firmware has two), a full receive buffer dropping the rest as on the board; with
    none open the bytes are lost, as on a line nobody listens to. Returns how many were taken."""
    uarts = _gauge._uarts
    for k in range(len(uarts) - 1, -1, -1):
        u = uarts[k]
        if getattr(u, "link", 0) == link:
            size = len(u._buf)
            for x in data:
                if u._n < size:
                    u._buf[u._n] = x
                    u._n += 1
                else:
                    u.dropped += 1
            return len(data)
    return 0


def sent(link):
    """The bytes ``link``'s UARTs wrote since the last call."""
    w = _wires[link]
    n = w.n
    w.n = 0
    return bytes(w.buf[:n])
