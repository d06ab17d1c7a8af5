# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""The console's texts as files on flash: ``assets/strings/<lang>.txt``.

``lib/pisti_app/texts/str_en.py`` and ``str_tr.py`` are where the texts are
written (``S``, and ``S3`` for three buttons); the device does not import
them: a dict of ~150 texts is ~7 KB of heap there. It reads one line of
this file per lookup instead (:mod:`pisti_app.texts.strings`), keeping only a
4-byte index entry a text in RAM.

File layout: a first line ``# pisti texts <lang> <count>``, then one line a
text, ``key<TAB>value`` (``3:key`` for the three-button texts; a newline in
a value is written ``\\n``), sorted by :func:`key_hash` then key, so the
device finds a key by binary search over (hash, offset) pairs.

``python tools/make_strings.py`` writes both files; ``--check`` exits 1
when a committed file differs from what it would write.
"""

import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from tools.generated import write_or_check

OUT_DIR = os.path.join(ROOT, "assets", "strings")
LANGS = ("en", "tr")


def key_hash(key):
    """The 16-bit hash of a key, as ``pisti_app.texts.strings`` computes it."""
    h = 5381
    for ch in key:
        h = ((h * 33) ^ ord(ch)) & 0xFFFF
    return h


def _table(lang):
    path = os.path.join(ROOT, "lib", "pisti_app", "texts", "str_%s.py" % lang)
    spec = importlib.util.spec_from_file_location("_str_" + lang, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.S, mod.S3


def file_text(lang):
    """The text of ``assets/strings/<lang>.txt``."""
    s, s3 = _table(lang)
    rows = [(k, v) for k, v in s.items()] + [("3:" + k, v) for k, v in s3.items()]
    for k, v in rows:
        if "\t" in v or "\\n" in v or "\t" in k or not k.isascii():
            raise ValueError("%s: text %r cannot be written (tab, a literal \\n, or a non-ASCII key)" % (lang, k))
    rows.sort(key=lambda kv: (key_hash(kv[0]), kv[0]))
    lines = ["# pisti texts %s %d" % (lang, len(rows))]
    lines += ["%s\t%s" % (k, v.replace("\n", "\\n")) for k, v in rows]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files")
    args = parser.parse_args(argv)
    bad = 0
    for lang in LANGS:
        data = file_text(lang).encode("utf-8")
        path = os.path.join(OUT_DIR, lang + ".txt")
        if not write_or_check(path, data, "tools/make_strings.py", args.check):
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
