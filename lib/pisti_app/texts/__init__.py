# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.texts`
=================

Every text the console shows: the lookup of the current language's texts on
flash (strings), the tables they are made from (str_en, str_tr:
tools/make_strings.py writes assets/strings/), the rules pages (rules_en,
rules_tr), how seats, sides and cards are named (names) and word wrap for the
small font (wrap).
"""
