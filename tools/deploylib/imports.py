# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Which modules the device code imports, and whether the drive holds them.

The walk starts at code.py and every module the project places, reads each
file's imports (``ast`` for .py, the bytecode for .mpy: mpyfile.imports),
finds each module on the drive the way CircuitPython does (``/`` then
``/lib``, ``name.py`` before ``name.mpy``, a folder is a package) and walks
the files it finds, so the libraries' own imports are checked too. A module
built into CircuitPython (any board) is never looked for; an import inside
``try: ... except`` is optional (its ``except`` is the fallback).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable

from tools.deploylib import mpyfile

# Modules compiled into CircuitPython 9/10 on some board (shared-bindings/,
# ports/*/bindings/, the MicroPython core and extmod), so never a file on the drive.
BUILTIN = frozenset("""
__future__ _asyncio _bleio _eve _pew _pixelmap _stage adafruit_bus_device adafruit_pixelbuf aesio alarm
analogbufio analogio array atexit audiobusio audiocore audiodelays audiofilewriter audiofilters audiofreeverb
audioi2sin audioio audiomixer audiomp3 audiopwmio audiospeed aurora_epaper binascii bitbangio bitmapfilter
bitmaptools bitops board builtins busdisplay busio camera canio cmath codeop collections countio cyw43 deflate
digitalio displayio dotclockframebuffer dualbank epaperdisplay errno espcamera espidf espnow espulp floppyio
fontio fourwire framebufferio frequencyio gc getpass gifio gnss hashlib heapq hostnetwork i2cdisplaybus
i2cioexpander i2ctarget imagecapture io ipaddress is31fl3741 jpegio json keypad keypad_demux locale lvfontio
math max3421e mcp4822 mdns memorymap memorymonitor microcontroller micropython mipidsi msgpack neopixel_write
nvm onewireio os paralleldisplaybus picodvi platform ps2io pulseio pwmio qrio qspibus rainbowio random rclcpy
re rgbmatrix rotaryio rp2pio rtc samd sdcardio sdioio select sharpdisplay socketpool spitarget ssl storage
struct supervisor synthio sys terminalio tilepalettemapper time touchio traceback uctypes uheap ulab usb
usb_audio usb_cdc usb_hid usb_host usb_midi usb_video ustack vectorio videocore warnings watchdog wifi
wiznet zephyr_display zephyr_kernel zlib
""".split())


def py_imports(source: bytes, name: str) -> list[tuple[str, int, tuple, bool]]:
    """(module, level, from-names, optional) for each import statement of a .py file."""
    try:
        tree = ast.parse(source, filename=name)
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[str, int, tuple, bool]] = []

    def visit(node, optional):
        for child in ast.iter_child_nodes(node):
            inner = optional or (isinstance(node, ast.Try) and bool(node.handlers) and child not in node.finalbody
                                 and child not in node.orelse)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append((alias.name, 0, (), inner))
            elif isinstance(child, ast.ImportFrom):
                found.append((child.module or "", child.level, tuple(a.name for a in child.names), inner))
            visit(child, inner)

    visit(tree, False)
    return found


def module_of(rel: str) -> str:
    """Dotted module name of a file's drive path (lib/pisti_app/app.py -> pisti_app.app)."""
    parts = rel.rsplit(".", 1)[0].split("/")
    if parts[0] == "lib" and len(parts) > 1:
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


class DriveView:
    """The files on the drive once the deploy is done: drive path -> where its bytes are now."""

    def __init__(self, files: dict[str, Path], dirs: set[str]):
        self.files = files
        self.dirs = dirs

    def find(self, dotted: str) -> tuple[str | None, bool]:
        """(drive path of the module's file or None, whether it is a package folder)."""
        path = dotted.replace(".", "/")
        for root in ("", "lib/"):
            for suffix in (".py", ".mpy"):
                if root + path + suffix in self.files:
                    return root + path + suffix, False
            if root + path in self.dirs:
                for init in ("/__init__.py", "/__init__.mpy"):
                    if root + path + init in self.files:
                        return root + path + init, True
                return None, True  # a namespace package: found, nothing to read
        return None, False


def _resolve(importer: str, name: str, level: int, is_pkg: bool) -> str:
    if not level:
        return name
    base = module_of(importer).split(".")
    if not is_pkg:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([p for p in base + [name] if p])


def check(view: DriveView, start: list[str], read: Callable[[str], list], warn: Callable[[str], None]):
    """Walk the imports from the start files; returns ({missing module: the file
    that imports it}, how many files were read).

    ``read(rel)`` gives a file's imports; it raises mpyfile.MpyError for a
    .mpy whose imports cannot be read (then that file is not followed).
    """
    missing: dict[str, str] = {}
    queue = list(start)
    seen = set(queue)

    def follow(hit):
        if hit and hit not in seen:
            seen.add(hit)
            queue.append(hit)

    while queue:
        rel = queue.pop(0)
        try:
            found = read(rel)
        except mpyfile.MpyError as exc:
            warn(f"cannot read the imports of {rel} ({exc}); it is not checked")
            continue
        is_pkg = rel.rsplit("/", 1)[-1].startswith("__init__.")
        for name, level, names, optional in found:
            dotted = _resolve(rel, name, level, is_pkg)
            if not dotted or dotted.split(".", 1)[0] in BUILTIN:
                continue
            hit, package = view.find(dotted)
            if hit is None and not package:
                if not optional:
                    missing.setdefault(dotted, rel)
                continue
            follow(hit)
            parts = dotted.split(".")
            for i in range(1, len(parts)):  # importing a.b.c runs a and a.b first
                follow(view.find(".".join(parts[:i]))[0])
            for sub in names:  # "from pkg import sub": sub may be a module of its own
                follow(view.find(dotted + "." + sub)[0] if sub != "*" else None)
    return missing, len(seen)
