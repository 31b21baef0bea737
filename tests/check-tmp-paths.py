#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lists the tests' fixed paths in the shared temporary folders.

Usage: tests/check-tmp-paths.py [FOLDER]

Two runs of the suite at once (two build folders, two people on one
machine) must not write the same file: a test makes a folder of its own
(g_dir_make_tmp(), make_tmpdir(), mktemp -d) and works inside it. So the
tests' sources (.c, .h, .sh, .py under FOLDER, default: this script's
folder) may neither name a file or folder of the temporary folder itself
(g_get_tmp_dir ()) nor spell one out ("/tmp/…", "/var/tmp/…"). (The
live harness looks in /dev/shm for what LTTng made there, under LTTng's
names.) Exits 1 when one does.
"""

import os
import re
import sys

FIXED = re.compile(r'g_get_tmp_dir\s*\(|["\'](/var)?/tmp/')
SUFFIXES = ('.c', '.h', '.sh', '.py')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    me = os.path.abspath(__file__)
    found = 0
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(SUFFIXES) or os.path.abspath(path) == me:
                continue
            with open(path, encoding='utf-8', errors='replace') as f:
                for number, line in enumerate(f, 1):
                    if FIXED.search(line):
                        print(f'{os.path.relpath(path, root)}:{number}: a fixed path in the shared '
                              f'temporary folder (make a folder of the test\'s own): {line.strip()}')
                        found += 1
    print(f'{found} fixed temporary paths')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
