#!/usr/bin/env python3
"""Check that the GSettings schema holds exactly the keys the application codes against.

usage: check-schema-keys.py SCHEMA_XML APP_ID

The application (src/app/) reads these keys by name; a renamed key, a changed type or default,
or a key without summary and description fails here before it fails at run time.
Prints one line per problem and exits 1 if there is any.
"""

import sys
import xml.etree.ElementTree as ET

# name: (type, default as written in the schema, choices or None, (min, max) or None)
CONTRACT = {
    "recent-inputs": ("as", "[]", None, None),
    "algorithm": ("s", "'hull'", ["hull", "linreg"], None),
    "tree": ("s", "'mst'", ["mst", "shortest-path"], None),
    "pinned-reference": ("s", "''", None, None),
    "pinned-references": ("a{ss}", "{}", None, None),
    "live-update-ms": ("u", "100", None, ("20", "5000")),
    "tree-margin": ("u", "25", None, ("0", "100")),
    "live-retention": ("u", "600", None, ("0", "86400")),
    "relay-address": ("s", "'net://localhost'", None, None),
    "window-width": ("i", "1200", None, None),
    "window-height": ("i", "800", None, None),
    "window-maximized": ("b", "false", None, None),
}


def main():
    if len(sys.argv) != 3:
        print("usage: check-schema-keys.py SCHEMA_XML APP_ID", file=sys.stderr)
        return 2
    path, app_id = sys.argv[1], sys.argv[2]
    problems = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print(f"{path}: not well-formed XML: {e}")
        return 1

    schema = next((s for s in root.findall("schema") if s.get("id") == app_id), None)
    if schema is None:
        print(f"{path}: no schema with id {app_id}")
        return 1
    expected_path = "/" + app_id.replace(".", "/") + "/"
    if schema.get("path") != expected_path:
        problems.append(f"schema path is '{schema.get('path')}', not '{expected_path}'")
    if root.get("gettext-domain") != "syncline" and schema.get("gettext-domain") != "syncline":
        problems.append("no gettext-domain 'syncline': summaries would not be translated")

    keys = {k.get("name"): k for k in schema.findall("key")}
    for name in sorted(set(keys) - set(CONTRACT)):
        problems.append(f"key '{name}' is not in the contract (add it to this test too)")
    for name, (typ, default, choices, rng) in CONTRACT.items():
        key = keys.get(name)
        if key is None:
            problems.append(f"key '{name}' is missing")
            continue
        if key.get("type") != typ:
            problems.append(f"key '{name}' has type '{key.get('type')}', not '{typ}'")
        got = (key.findtext("default") or "").strip()
        if got != default:
            problems.append(f"key '{name}' defaults to {got}, not {default}")
        got_choices = [c.get("value") for c in key.findall("choices/choice")]
        if got_choices != (choices or []):
            problems.append(f"key '{name}' has choices {got_choices}, not {choices or []}")
        r = key.find("range")
        got_range = None if r is None else (r.get("min"), r.get("max"))
        if got_range != rng:
            problems.append(f"key '{name}' has range {got_range}, not {rng}")
        for field in ("summary", "description"):
            if not (key.findtext(field) or "").strip():
                problems.append(f"key '{name}' has no {field}")

    for p in problems:
        print(f"{path}: {p}")
    if not problems:
        print(f"{path}: ok ({len(keys)} keys)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
