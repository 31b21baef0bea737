#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lists the files of src/ over 1 500 lines and the C functions over 150.

Usage: tests/check-sizes.py [--files N] [--functions N] [FOLDER]

A function's length runs from the line of its name to its closing brace,
found by matching braces outside comments, strings, character constants
and preprocessor lines. Exits 1 when something is over a limit.
"""

import argparse
import os
import re
import sys

SIGNATURE_END = re.compile(r'\)\s*(G_GNUC_\w+(\s*\([^)]*\))?\s*)*$')
NAME = re.compile(r'([A-Za-z_]\w*)\s*\($')


def strip_code(text):
    """@text with comments, strings and character constants blanked and
    preprocessor lines emptied; the newlines stay where they were."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == '#':
            # a directive, with its continuation lines
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append('\n')
                    i += 2
                    continue
                i += 1
            continue
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == '/' and text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (min(j, n - 1) - i - 1) + c)
            i = j + 1
            continue
        if c == '\n':
            line_start = True
        elif not c.isspace():
            line_start = False
        out.append(c)
        i += 1
    return ''.join(out)


def functions(text):
    """(name, first line, last line) of each function defined in @text."""
    code = strip_code(text)
    depth = 0
    found = []
    start = None
    for i, c in enumerate(code):
        if c == '{':
            if depth == 0:
                before = code[:i].rstrip()
                if SIGNATURE_END.search(before) and not before.endswith('='):
                    # back to the '(' that opens the parameter list
                    level, j = 0, len(before) - 1
                    while j >= 0:
                        if before[j] == ')':
                            level += 1
                        elif before[j] == '(':
                            level -= 1
                            if level == 0:
                                break
                        j -= 1
                    m = NAME.search(before[:j + 1])
                    if m is not None and m.group(1) not in ('if', 'for', 'while', 'switch'):
                        start = (m.group(1), code.count('\n', 0, m.start(1)) + 1)
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0 and start is not None:
                found.append((start[0], start[1], code.count('\n', 0, i) + 1))
                start = None
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--files', type=int, default=1500, help='most lines of a file (1500)')
    parser.add_argument('--functions', type=int, default=150, help='most lines of a function (150)')
    parser.add_argument('folder', nargs='?',
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src'))
    args = parser.parse_args()

    root = os.path.normpath(args.folder)
    big_files, big_functions = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
            rel = os.path.relpath(path, os.path.dirname(root))
            lines = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
            if lines > args.files:
                big_files.append((lines, rel))
            for fn, first, last in functions(text):
                if last - first + 1 > args.functions:
                    big_functions.append((last - first + 1, rel, first, fn))

    print('Files over %d lines: %d' % (args.files, len(big_files)))
    for lines, rel in sorted(big_files, reverse=True):
        print('  %6d  %s' % (lines, rel))
    print('Functions over %d lines: %d' % (args.functions, len(big_functions)))
    for lines, rel, first, fn in sorted(big_functions, reverse=True):
        print('  %6d  %s:%d  %s()' % (lines, rel, first, fn))
    return 1 if big_files or big_functions else 0


if __name__ == '__main__':
    sys.exit(main())
