# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The CircuitPython API check: the device code (``code.py``, ``lib/``,
``pisti_core/``) type-checked by pyright in basic mode against CircuitPython
10's own API -- ``circuitpython-stubs`` with ``board`` set to the Raspberry
Pi Pico, plus the Adafruit SSD1306 driver -- in ``.venv/apicheck``, an
environment without Blinka (``tools/requirements-apicheck.txt``, made by
``tools/setup.sh``). The configuration is ``tools/pyright/pyrightconfig.json``;
``tools/pyright/typings`` corrects the stubs that are wrong for this
firmware (each file says why).

    python tools/apicheck.py            # the device code: errors, then their count
    python tools/apicheck.py FILE ...   # these files instead, same settings

Prints one line an error (``path:line:col: rule: message``) and then
``apicheck: N errors``; exits 1 when there is any, 2 when the check could not
run. ``_CHECKING`` (``pyrightconfig.json``'s ``defineConstant``) is true for
pyright only: a device module's ``_CHECKING = const(0)`` compiles an
``if _CHECKING:`` block away on the board, and pyright reads what is in it.
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = os.path.join(ROOT, ".venv", "apicheck")
CONFIG = os.path.join(ROOT, "tools", "pyright", "pyrightconfig.json")


def run(paths=()):
    """Run pyright on ``paths`` (default: the device code); returns
    (errors, summary): errors as dicts (file, line, col, rule, message)."""
    pyright = os.path.join(ENV, "bin", "pyright")
    python = os.path.join(ENV, "bin", "python")
    if not os.path.exists(pyright):
        raise RuntimeError("no %s: run bash tools/setup.sh first" % os.path.relpath(pyright, ROOT))
    env = dict(os.environ)
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"
    env.pop("PYRIGHT_PYTHON_FORCE_VERSION", None)  # the pinned, bundled pyright
    cmd = [pyright, "-p", CONFIG, "--pythonpath", python, "--outputjson"]
    cmd += [os.path.abspath(p) for p in paths]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    try:
        out = json.loads(proc.stdout)
    except ValueError:
        raise RuntimeError("pyright gave no report (exit %d):\n%s%s"
                           % (proc.returncode, proc.stdout, proc.stderr)) from None
    errors = []
    for d in out.get("generalDiagnostics", []):
        if d.get("severity") != "error":
            continue
        start = d["range"]["start"]
        errors.append({
            "file": os.path.relpath(d["file"], ROOT) if d.get("file") else "?",
            "line": start["line"] + 1,
            "col": start["character"] + 1,
            "rule": d.get("rule", "error"),
            "message": d["message"],
        })
    errors.sort(key=lambda e: (e["file"], e["line"], e["col"], e["rule"], e["message"]))
    return errors, out.get("summary", {})


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    try:
        errors, summary = run(argv)
    except RuntimeError as exc:
        print("apicheck: %s" % exc, file=sys.stderr)
        return 2
    for e in errors:
        msg = e["message"].replace("\n", "\n    ")
        print("%s:%d:%d: %s: %s" % (e["file"], e["line"], e["col"], e["rule"], msg))
    print("apicheck: %d errors in %d files" % (len(errors), summary.get("filesAnalyzed", 0)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
