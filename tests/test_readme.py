# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The README cannot go stale where a newcomer would trip:
its settings tables against the keys the device code reads (with their
ranges and defaults) and the board profiles; the bot levels' English names
against the strings; the rule book it points at; the terminal's size for
half blocks; and the files, tools and options it names."""

import ast
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
README = os.path.join(ROOT, "README.md")
# The tools' own READMEs, where the README's details live: their files and commands are checked too.
TOOL_READMES = ("tools/botlab/README.md", "tools/simlib/README.md", "tools/web/README.md",
                "tools/memgauge/README.md", "tools/shims/README.md")
KEY = re.compile(r"^PISTI_[A-Z0-9_]+$")


def readme(path=README):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def documents():
    """(path, text) of README.md and the tools' READMEs."""
    return [("README.md", readme())] + [(p, readme(p)) for p in TOOL_READMES]


def settings_section():
    """The text of the README's "6. Settings" section."""
    text = readme()
    start = text.index("### 6. Settings\n")
    end = text.index("\n### ", start + 1)
    return text[start:end]


def settings_rows():
    """{key: (takes, whole row)} from the tables of the settings section."""
    rows = {}
    for line in settings_section().splitlines():
        if not line.startswith("| `PISTI_"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == 3, "a settings row has Key | Takes (default) | Meaning: %r" % line
        for key in re.findall(r"`(PISTI_[A-Z0-9_]+)`", cells[0]):
            assert key not in rows, "%s has two rows in the settings tables" % key
            rows[key] = (cells[1], line)
    return rows


def device_sources():
    """Paths of the device code: code.py, lib/, pisti_core/."""
    paths = [os.path.join(ROOT, "code.py")]
    for top in ("lib", "pisti_core"):
        paths += glob.glob(os.path.join(ROOT, top, "**", "*.py"), recursive=True)
    return sorted(paths)


def parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def key_calls():
    """(key, call node, path) for every call in the device code that passes a
    whole ``PISTI_*`` name (``rd.num("PISTI_TIMER", ...)``, ``os.getenv(...)``,
    ``_pin(rd, board, "PISTI_I2C_SCL", ...)``): the settings the firmware reads."""
    out = []
    for path in device_sources():
        for node in ast.walk(parse(path)):
            if isinstance(node, ast.Call):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and KEY.match(arg.value):
                        out.append((arg.value, node, path))
    return out


def device_keys():
    return {k for k, _, _ in key_calls()}


def profile(name):
    """{key: value text} of tools/boards/NAME.toml."""
    out = {}
    with open(os.path.join(ROOT, "tools", "boards", name + ".toml"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    return out


def numbers(text):
    """The whole numbers written in ``text`` (decimal or 0x hex, not inside a word like GP4)."""
    return {int(n, 0) for n in re.findall(r"(?<![\w.])(0x[0-9A-Fa-f]+|\d+)(?![\w.])", text)}


def module_constants(path):
    """Module-level NAME = literal (and NAME = const(literal)) of ``path``."""
    out = {}
    for node in parse(path).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "const":
                value = value.args[0]
            try:
                out[node.targets[0].id] = ast.literal_eval(value)
            except ValueError:
                pass
    return out


def test_every_key_the_firmware_reads_is_in_the_settings_tables():
    keys = device_keys()
    # The reader is found: the board's and the game's keys are there.
    assert {"PISTI_BUTTONS", "PISTI_I2C_FREQUENCY", "PISTI_START", "PISTI_LANG", "PISTI_MEMLOG"} <= keys
    missing = sorted(keys - set(settings_rows()))
    assert not missing, "README.md section 6 does not document %s" % ", ".join(missing)


def test_every_key_in_the_settings_tables_is_read_or_in_a_profile():
    profiles = set(profile("pico")) | set(profile("featherwing"))
    rows = settings_rows()
    stale = sorted(set(rows) - device_keys() - profiles)
    assert not stale, "README.md documents %s, which nothing reads" % ", ".join(stale)
    undocumented = sorted(profiles - set(rows))
    assert not undocumented, "the board profiles write %s, not in README.md" % ", ".join(undocumented)


def test_profile_values_are_in_their_rows():
    """Deploy writes these values; the README names each one."""
    rows = settings_rows()
    for name in ("pico", "featherwing"):
        for key, value in profile(name).items():
            assert value in rows[key][0], "%s = %s (tools/boards/%s.toml) not in the README's row %r" % (
                key, value, name, rows[key][0])


def _resolve(node, path):
    """An int or str literal, or a name the module, pisti_core.table or the
    games' description (pisti_core) defines; else None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        for where in (path, os.path.join(ROOT, "pisti_core", "table.py"),
                      os.path.join(ROOT, "pisti_core", "__init__.py")):
            consts = module_constants(where)
            if node.id in consts:
                return consts[node.id]
        raise AssertionError("%s: cannot resolve %s for the README check" % (path, node.id))
    return None


def test_ranges_and_defaults_match_the_code():
    """For every ``rd.num(KEY, default, ok, why)``: the default is a number
    in the parentheses of the README's Takes (default) cell and every bound
    in ``ok`` a number of that cell; for a pin setting, its fallback pins
    are named there."""
    rows = settings_rows()
    checked = set()
    for key, call, path in key_calls():
        func = getattr(call.func, "attr", getattr(call.func, "id", ""))
        takes = rows[key][0]
        if func == "num":
            default, ok = call.args[1], call.args[2]
            said = takes[takes.index(" ("):]  # "... (default)"
            for d in (default.body, default.orelse) if isinstance(default, ast.IfExp) else (default,):
                v = _resolve(d, path)
                assert v is None or v in numbers(said), "%s: the default %s (%s) not in %r" % (
                    key, v, os.path.relpath(path, ROOT), said)
            want = set()
            inside = set()  # the nodes of an entry of a name (TARGETS[0]): its value is the entry's
            for n in ast.walk(ok.body):  # (parents first)
                if id(n) in inside:
                    continue
                if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and isinstance(n.slice, ast.Constant):
                    v = _resolve(n.value, path)[n.slice.value]
                    inside.update(id(c) for c in ast.walk(n))
                else:
                    v = _resolve(n, path) if isinstance(n, (ast.Constant, ast.Name)) and not (
                        isinstance(n, ast.Name) and n.id == ok.args.args[0].arg) else None
                for x in v if isinstance(v, tuple) else (v,):
                    if isinstance(x, int) and not isinstance(x, bool):
                        want.add(x)
            lost = sorted(want - numbers(takes))
            assert not lost, "%s: %s (%s) not in the README's %r" % (key, lost, os.path.relpath(path, ROOT), takes)
            checked.add(key)
        elif func == "_pin":
            for elt in call.args[3].elts:
                assert '"%s"' % elt.value in takes, "%s falls back to %s; README: %r" % (key, elt.value, takes)
            checked.add(key)
    assert {"PISTI_TIMER", "PISTI_DELAY", "PISTI_I2C_FREQUENCY", "PISTI_DISPLAY_HEIGHT", "PISTI_I2C_SDA"} <= checked


def test_text_settings_and_derived_defaults():
    rows = settings_rows()
    table = module_constants(os.path.join(ROOT, "pisti_core", "table.py"))
    assert str(table["TIMER_DEFAULT"]) in rows["PISTI_TIMER"][0]  # a new console's timer (T-3)
    app = module_constants(os.path.join(ROOT, "lib", "pisti_app", "app.py"))
    en = strings("pisti_app.texts.str_en")
    delay = rows["PISTI_DELAY"][0]
    for ms, name in zip(app["SPEEDS"], ("sp_slow", "sp_normal", "sp_fast", "sp_vfast"), strict=True):
        assert "%s `%d`" % (en[name], ms) in delay, "Speed %s is %d ms: %r" % (en[name], ms, delay)
    hw = module_constants(os.path.join(ROOT, "lib", "pisti_app", "hw.py"))
    for buttons in (hw["DEFAULT_BUTTONS"], hw["WING_BUTTONS"]):
        assert '"%s"' % buttons in rows["PISTI_BUTTONS"][0]
    assert '"en"' in rows["PISTI_LANG"][0] and '"tr"' in rows["PISTI_LANG"][0]
    start = rows["PISTI_START"][1]
    bots = module_constants(os.path.join(ROOT, "pisti_core", "bots", "__init__.py"))
    for word in ("pisti", "yedili") + bots["LEVELS"] + bots["REFERENCE"]:
        assert "`%s`" % word in start, word


def strings(module):
    tree = parse(os.path.join(ROOT, "lib", *module.split(".")) + ".py")
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "S":
            return ast.literal_eval(node.value)
    raise AssertionError("no S in " + module)


def test_levels_are_named_in_both_languages_where_they_are_introduced():
    text = readme()
    opening = text[:text.index("\n## ")]
    en, tr = strings("pisti_app.texts.str_en"), strings("pisti_app.texts.str_tr")
    for lv in ("acemi", "kalfa", "usta"):
        name = "lv_" + lv
        assert tr[name] in opening and en[name] in opening, (tr[name], en[name])
        assert "`%s`" % lv in opening


def test_the_rule_book_is_the_one_in_the_repository():
    text = readme()
    assert "shared/RULES.md" not in text
    assert "](pisti_core/RULES.md)" in text[:text.index("\n## ")]  # linked in the opening
    assert os.path.exists(os.path.join(ROOT, "pisti_core", "RULES.md"))
    # A bare "RULES.md" is always a link to it (or its path).
    for m in re.finditer(r"RULES\.md", text):
        before = text[max(0, m.start() - 12):m.start()]
        assert before.endswith(("[", "pisti_core/", "(`")) or text[m.start() - 1] == "`", \
            text[m.start() - 40:m.end() + 20]


def test_terminal_size_for_half_blocks():
    """The README's "at least N columns and L lines" is the simulator's threshold."""
    from tools.simlib.terminal import Terminal

    m = re.search(r"at least \*\*(\d+) columns and (\d+)\s+lines\*\*", readme())
    assert m, "the README names the terminal size half blocks need"
    cols, lines = int(m.group(1)), int(m.group(2))
    t = Terminal(("UP", "DOWN", "LEFT", "RIGHT", "A", "B"))
    t._size = os.terminal_size((cols, lines))
    assert t.choose_cells(128, 64) == "half"
    for smaller in ((cols - 1, lines), (cols, lines - 1)):
        t._size = os.terminal_size(smaller)
        assert t.choose_cells(128, 64) == "braille", smaller


def tool_options(script):
    """The --options a tools/ script's argparse knows."""
    with open(os.path.join(ROOT, "tools", script), encoding="utf-8") as f:
        src = f.read()
    if script.endswith(".sh"):  # a shell script's `case` arms: --opt) or --opt|-o)
        return set(re.findall(r"^\s*(--[a-z][a-z0-9-]*)(?:\|[^)\s]*)?\)", src, re.M)) | {"--help"}
    return set(re.findall(r"add_argument\(\s*(?:\"-\w\",\s*)?\"(--[a-z][a-z0-9-]*)\"", src)) | {"--help"}


def test_named_files_exist():
    for doc, text in documents():
        paths = set(re.findall(r"(?<![\w/.\\-])((?:tools|tests|lib|pisti_core|assets|\.ci)/[\w./*-]*[\w*])", text))
        # A link is relative to the document's folder.
        links = {os.path.normpath(os.path.join(os.path.dirname(doc), p))
                 for p in re.findall(r"\]\(([^)]+)\)", text) if "://" not in p}
        if doc == "README.md":
            assert len(paths | links) > 20
        missing = sorted(p for p in paths | links if not glob.glob(os.path.join(ROOT, p)))
        assert not missing, "%s names files that do not exist: %s" % (doc, ", ".join(missing))


def test_the_readme_links_the_tools_readmes():
    text = readme()
    for doc in TOOL_READMES[:4]:
        assert "](%s)" % doc in text, doc


def test_command_lines_use_options_the_tools_have():
    """Every ``python tools/X.py --opt`` (``bash tools/play.sh`` is sim.py) in
    the README uses options X has; any --option named in the prose is one
    of some tool's (or circup's ``--path``, in deploy's sample output)."""
    text = readme()
    everything = {"--path"}
    for f in (glob.glob(os.path.join(ROOT, "tools", "*.py")) + glob.glob(os.path.join(ROOT, "tools", "*", "*.py"))
              + glob.glob(os.path.join(ROOT, "tools", "*.sh"))):
        everything |= tool_options(os.path.relpath(f, os.path.join(ROOT, "tools")))
    for f in glob.glob(os.path.join(ROOT, "tools", "*.sh")):  # what the scripts pass on (apt-get's, pytest's)
        with open(f, encoding="utf-8") as handle:
            everything |= set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", handle.read()))
    used = 0
    for line in "\n".join(t for _, t in documents()).splitlines():
        m = re.match(r"\s*(?:python|\.venv/bin/python|bash) tools/((?:\w+/)?\w+\.(?:py|sh))(.*)", line)
        if not m:
            continue
        script = "sim.py" if m.group(1) == "play.sh" else m.group(1)
        if not script.endswith(".py") and script != "web.sh":
            continue
        args = m.group(2).split("#")[0]
        bad = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", args)) - tool_options(script))
        assert not bad, "%s has no %s: %r" % (script, ", ".join(bad), line)
        used += 1
    assert used > 10
    for doc, text in documents():
        unknown = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text)) - everything)
        assert not unknown, "%s names options no tool has: %s" % (doc, ", ".join(unknown))


def test_the_windows_line_pins_the_circup_of_the_requirements():
    """Deploy needs circup and python-minifier; the README's Windows line installs the pinned ones."""
    with open(os.path.join(ROOT, "tools", "requirements.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    pins = [next(line.strip() for line in lines if line.lower().startswith(name + "=="))
            for name in ("circup", "python-minifier")]
    assert "`pip install %s`" % " ".join(pins) in readme()


def test_the_ladder_table_is_ladder_json():
    """The README's ladder is ``python tools/ladder.py --from tools/botlab/ladder.json --brief``,
    and tools/botlab/README.md has the whole table."""
    import json

    from tools import ladder

    with open(os.path.join(ROOT, "tools", "botlab", "ladder.json"), encoding="utf-8") as f:
        rows = json.load(f)
    assert ladder.brief(rows) in readme(), "run python tools/ladder.py --from tools/botlab/ladder.json --brief"
    assert "python tools/ladder.py --from tools/botlab/ladder.json --brief" in readme()
    assert ladder.markdown(rows) in readme("tools/botlab/README.md")


def test_no_history_in_the_readmes():
    """A text says what the thing does: no issue or stop numbers, dates or commit hashes."""
    for doc, text in documents()[:4]:
        for pattern in (r"\bissue \d", r"\bstop \d",
                        r"\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* 20\d\d",
                        r"\b20\d\d-\d\d-\d\d\b", r"\bat [0-9a-f]{7}\b", r"\bcommit [0-9a-f]{7}"):
            found = re.search(pattern, text)
            assert not found, "%s: %r" % (doc, text[max(0, found.start() - 40):found.end() + 40])
