#!/usr/bin/env python3
"""Check an application icon: well-formed SVG of the expected size, small, self-contained.

usage: check-icon.py [--symbolic] SIZE FILE

- the file parses as XML and its root is an SVG element
- width, height and viewBox are SIZE (128 for the full-colour icon, 16 for the symbolic one)
- it stays small (64 KiB, 16 KiB for the symbolic icon): no embedded bitmaps or editor cruft
- it references nothing outside itself (no external href, <image>, <script>, <foreignObject>)
  and draws no <text> (its look would depend on the fonts installed)
- --symbolic: only filled shapes in one grey GTK recolours (#2e3436, #222222, #000000, #bebebe),
  no strokes (GTK recolours fills only), no gradients, no opacity tricks
Prints one line per problem and exits 1 if there is any.
"""

import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
SYMBOLIC_COLOURS = {"#2e3436", "#222222", "#222", "#000000", "#000", "#bebebe", "none"}
FORBIDDEN = {"image", "script", "foreignObject", "text"}
SYMBOLIC_FORBIDDEN = {"linearGradient", "radialGradient", "pattern", "mask", "filter"}


def local(tag):
    return tag.split("}", 1)[1] if tag.startswith("{") else tag


def main():
    argv = sys.argv[1:]
    symbolic = "--symbolic" in argv
    argv = [a for a in argv if a != "--symbolic"]
    if len(argv) != 2:
        print("usage: check-icon.py [--symbolic] SIZE FILE", file=sys.stderr)
        return 2
    size, path = int(argv[0]), argv[1]
    problems = []

    limit = 16 * 1024 if symbolic else 64 * 1024
    nbytes = os.path.getsize(path)
    if nbytes > limit:
        problems.append(f"{nbytes} bytes, more than {limit}")

    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print(f"{path}: not well-formed XML: {e}")
        return 1

    if root.tag != SVG + "svg":
        problems.append(f"root element is {root.tag}, not svg in the SVG namespace")
    for attr in ("width", "height"):
        value = re.sub(r"px$", "", root.get(attr, ""))
        if value != str(size):
            problems.append(f"{attr} is '{root.get(attr)}', not {size}")
    view = (root.get("viewBox") or "").replace(",", " ").split()
    if view != ["0", "0", str(size), str(size)]:
        problems.append(f"viewBox is '{root.get('viewBox')}', not '0 0 {size} {size}'")

    for el in root.iter():
        name = local(el.tag)
        if name in FORBIDDEN:
            problems.append(f"has a <{name}> element")
        for key in ("href", XLINK + "href"):
            ref = el.get(key)
            if ref is not None and not ref.startswith("#"):
                problems.append(f"<{name}> refers to '{ref}' outside the file")
        if not symbolic:
            continue
        if name in SYMBOLIC_FORBIDDEN:
            problems.append(f"symbolic icon has a <{name}> element")
        style = dict(
            (k.strip(), v.strip())
            for k, v in (d.split(":", 1) for d in (el.get("style") or "").split(";") if ":" in d)
        )
        for key in ("stroke", "stroke-width"):
            value = el.get(key, style.get(key))
            if value is not None and value not in ("none", "0"):
                problems.append(f"symbolic icon: <{name}> has {key} '{value}' (GTK recolours fills only)")
        for key in ("opacity", "fill-opacity"):
            value = el.get(key, style.get(key))
            if value is not None and value != "1":
                problems.append(f"symbolic icon: <{name}> has {key} '{value}'")
        fill = el.get("fill", style.get("fill"))
        if fill is not None and fill.lower() not in SYMBOLIC_COLOURS:
            problems.append(f"symbolic icon: <{name}> is filled with '{fill}', not the symbolic grey")

    for p in problems:
        print(f"{path}: {p}")
    if not problems:
        print(f"{path}: ok ({nbytes} bytes)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
