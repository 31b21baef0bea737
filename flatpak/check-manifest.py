#!/usr/bin/env python3
"""Check the Flatpak manifest without building it (no network here).

usage: check-manifest.py MANIFEST APP_ID

Checks that the manifest parses as JSON and holds what a build needs: the
application id, a GNOME runtime and SDK that are still supported (GNOME 49 and
older were end of life by November 2026; the code keeps to the GTK 4.8 and
libadwaita 1.2 API, which newer runtimes keep), the command, the sandbox
permissions the application relies on, babeltrace2 2.1 (which reads CTF 2, LTTng
2.15's default) built from a pinned release before Syncline, and Syncline built
with meson from the source tree around the manifest. Prints one line per
problem, exits 1 on any.
"""

import json
import os
import re
import sys


def main():
    if len(sys.argv) != 3:
        print("usage: check-manifest.py MANIFEST APP_ID", file=sys.stderr)
        return 2
    path, app_id = sys.argv[1], sys.argv[2]
    problems = []

    def need(cond, what):
        if not cond:
            problems.append(what)
        return cond

    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: {e}")
        return 1
    if not isinstance(m, dict):
        print(f"{path}: the manifest is not a JSON object")
        return 1

    need(m.get("app-id", m.get("id")) == app_id, f"app-id is not {app_id}")
    need(os.path.basename(path) == app_id + ".json", f"file name is not {app_id}.json")
    need(m.get("runtime") == "org.gnome.Platform", "runtime is not org.gnome.Platform")
    need(m.get("sdk") == "org.gnome.Sdk", "sdk is not org.gnome.Sdk")
    version = str(m.get("runtime-version", ""))
    need(version.isdigit() and int(version) >= 50,
         f"runtime-version {version!r} is not a supported GNOME runtime (50 or later)")
    need(m.get("command") == "syncline", "command is not syncline")

    args = m.get("finish-args", [])
    if need(isinstance(args, list), "finish-args is not a list"):
        for a in ("--share=ipc", "--socket=wayland", "--socket=fallback-x11",
                  "--device=dri", "--share=network"):
            need(a in args, f"finish-args lacks {a}")
        need("--socket=x11" not in args, "finish-args has --socket=x11 (use fallback-x11)")
        for a in args:
            need(not re.match(r"--filesystem=(host|home)(:rw)?$", a),
                 f"finish-args gives write access to {a.split('=', 1)[1]}")

    modules = m.get("modules", [])
    if not need(isinstance(modules, list) and modules, "modules is empty"):
        modules = []
    names = [mod.get("name") if isinstance(mod, dict) else mod for mod in modules]
    need("babeltrace2" in names, "no babeltrace2 module")
    need(names[-1:] == ["syncline"], "the last module is not syncline")
    if "babeltrace2" in names and "syncline" in names:
        need(names.index("babeltrace2") < names.index("syncline"),
             "babeltrace2 is not built before syncline")

    for mod in modules:
        if not isinstance(mod, dict):
            continue  # a path to a module file: not checked here
        name = mod.get("name", "?")
        sources = mod.get("sources", [])
        need(isinstance(sources, list) and sources, f"module {name}: no sources")
        for s in sources if isinstance(sources, list) else []:
            kind = s.get("type")
            if kind in ("archive", "file"):
                need(str(s.get("url", "")).startswith("https://"),
                     f"module {name}: source url is not https")
                need(re.fullmatch(r"[0-9a-f]{64}", str(s.get("sha256", ""))) is not None,
                     f"module {name}: source has no sha256")
            elif kind == "git":
                need(re.fullmatch(r"[0-9a-f]{40}", str(s.get("commit", ""))) is not None,
                     f"module {name}: git source is not pinned to a commit")

    for mod in modules:
        if isinstance(mod, dict) and mod.get("name") == "babeltrace2":
            urls = [s.get("url", "") for s in mod.get("sources", [])]
            tags = [s.get("tag", "") for s in mod.get("sources", [])]
            need(any(re.search(r"babeltrace2?-2\.1\.\d+\.|/v2\.1\.\d+\.tar", u) for u in urls)
                 or any(re.fullmatch(r"v2\.1\.\d+", t) for t in tags),
                 "babeltrace2 is not a 2.1 release (CTF 2)")
        if isinstance(mod, dict) and mod.get("name") == "syncline":
            need(mod.get("buildsystem") == "meson", "syncline is not built with meson")
            src = mod.get("sources", [{}])
            ok = (len(src) == 1 and src[0].get("type") == "dir"
                  and os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)),
                                                    src[0].get("path", "")))
                  == os.path.dirname(os.path.dirname(os.path.abspath(path))))
            need(ok, "syncline's source is not the directory holding flatpak/")

    for p in problems:
        print(f"{path}: {p}")
    if not problems:
        print(f"{path}: ok ({len(modules)} modules: {', '.join(map(str, names))})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
