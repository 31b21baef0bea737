#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that every translation in po/LINGUAS is complete: the strings of
po/POTFILES.in, extracted as `meson compile syncline-pot` does (the glib
preset's keywords), are all in the language's .po, translated and not
fuzzy (msgcmp), and the .po compiles with its formats checked (msgfmt
--check).

Usage: tests/check-po.py SOURCE_ROOT
"""

import os
import subprocess
import sys
import tempfile

KEYWORDS = ['--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
            '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3', '--keyword=g_dpgettext2:2c,3',
            '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format', '--flag=NC_:2:pass-c-format',
            '--flag=g_dngettext:2:pass-c-format', '--flag=g_strdup_printf:1:c-format',
            '--flag=g_string_printf:2:c-format', '--flag=g_string_append_printf:2:c-format']


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    po_dir = os.path.join(root, 'po')
    with open(os.path.join(po_dir, 'LINGUAS')) as f:
        langs = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'syncline.pot')
        subprocess.run(['xgettext', '--package-name=syncline', '-D', root,
                        '-f', os.path.join(po_dir, 'POTFILES.in'), '--from-code=UTF-8',
                        '--add-comments', *KEYWORDS, '-o', pot], check=True)
        for lang in langs:
            po = os.path.join(po_dir, lang + '.po')
            # untranslated and fuzzy entries count as missing
            cmp = subprocess.run(['msgcmp', po, pot], capture_output=True, text=True)
            if cmp.returncode != 0:
                missing = [l for l in cmp.stderr.splitlines() if 'this message' in l]
                print(f'{lang}.po: {len(missing)} strings missing, untranslated or fuzzy:', file=sys.stderr)
                print(cmp.stderr[:4000], file=sys.stderr)
                failed = True
            fmt = subprocess.run(['msgfmt', '--check', '--statistics', '-o', os.devnull, po],
                                 capture_output=True, text=True)
            print(f'{lang}.po: {fmt.stderr.strip()}')
            if fmt.returncode != 0:
                failed = True
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
