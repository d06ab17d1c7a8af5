# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The project's environment for the tools typed as ``python tools/X.py``.

A tool run as a script calls :func:`reexec` before it imports anything of
its own. Started by a Python other than the project's ``.venv`` (no
activated environment), it runs itself again under ``.venv``'s Python with
the same arguments. Without a ``.venv``, a tool whose packages this Python
lacks says in one line what to run, and exits with status 2::

    sim.py: no .venv in /home/me/pisti, and this Python has no adafruit_blinka: run bash tools/setup.sh --play first

``PISTI_NO_REEXEC=1`` keeps the tool in the Python that started it.
"""

import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
_GUARD = "PISTI_NO_REEXEC"


def venv_python(venv=VENV):
    """The environment's Python (POSIX or Windows layout), or None."""
    for rel in (("bin", "python"), ("Scripts", "python.exe")):
        path = os.path.join(venv, *rel)
        if os.path.isfile(path):
            return path
    return None


def in_venv(venv=VENV):
    """True when this Python is the environment's (symlinks resolved)."""
    return os.path.realpath(sys.prefix) == os.path.realpath(venv)


def reexec(*needs, setup="bash tools/setup.sh --play", venv=VENV, argv=None):
    """Go on under ``venv`` (re-running this script there when another Python
    runs it), or, without one, check this Python has the modules ``needs``."""
    argv = sys.argv if argv is None else argv
    tool = os.path.basename(argv[0]) if argv and argv[0] else "tool"
    if not in_venv(venv) and not os.environ.get(_GUARD):
        py = venv_python(venv)
        if py is not None:
            env = dict(os.environ)
            env[_GUARD] = "1"  # once: a broken .venv never loops
            cmd = [py] + list(argv)
            if os.name == "posix":
                sys.stdout.flush()
                sys.stderr.flush()
                os.execve(py, cmd, env)
            sys.exit(subprocess.call(cmd, env=env))
    missing = [m for m in needs if importlib.util.find_spec(m) is None]
    if missing:
        where = "no .venv in %s" % os.path.dirname(venv) if venv_python(venv) is None else \
            "this Python (%s) is not the project's .venv" % sys.executable
        sys.stderr.write("%s: %s, and this Python has no %s: run %s first\n"
                         % (tool, where, ", ".join(missing), setup))
        sys.exit(2)
