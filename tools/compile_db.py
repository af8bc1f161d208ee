"""compile_db.py ROOT - the project's compile_commands.json (for clangd and other editors' tools): the merge of the
databases the build systems wrote below ROOT/build: CMake's trees (CMAKE_EXPORT_COMPILE_COMMANDS: the dev tree, the
fuzz targets', the Windows and web trees once configured) and each game build folder's (the host's plan writes it,
platform/live/plan.cpp). It only merges: CMake's development tree first, then the others by depth and name (a game
build folder's own database before a tree inside it); the first entry of a file wins, and a file that is gone has
none. Written only when its text changed.

Three changes make the entries what an editor needs: a launcher in front of the compiler (ccache...) is dropped; so
are -fno-gnu-unique (g++ only: clang refuses it, and it changes nothing a parser sees) and -Werror (clangd parses a
file's #include block apart, its preamble, where a header-only implementation's static functions look unused);
platform/release.cpp, built only into a release, gets -DHOST_RELEASE when its entry lacks it.
"""
import json
import os
import shlex
import sys

LEFT_OUT = {"-fno-gnu-unique", "-Werror"}
LAUNCHERS = {"ccache", "sccache", "distcc", "icecc"}


# folders below build/ that hold no database and many files: wine's prefix (its drive Z: is a link to /), SDL2's
# builds, npm's modules
SKIPPED = ("wineprefix", "node_modules", "node", "sdl2-")


def databases(root):
    build = os.path.join(root, "build")
    rel = []
    for d, dirs, files in os.walk(build):   # links are not followed
        dirs[:] = [x for x in dirs if not x.startswith(SKIPPED)]
        if "compile_commands.json" in files:
            rel.append(os.path.relpath(os.path.join(d, "compile_commands.json"), build))
    first = os.path.join("cmake", "dev", "compile_commands.json")
    rel.sort(key=lambda f: (f != first, f.count(os.sep), f))
    return [os.path.join(build, f) for f in rel]


def merged(root):
    launchers = LAUNCHERS | {os.path.basename(os.environ.get("ENGINE_COMPILER_LAUNCHER", "") or "ccache")}
    entries, seen = [], set()
    for path in databases(root):
        try:
            with open(path) as f:
                db = json.load(f)
        except (OSError, ValueError):
            continue
        for e in db:
            file = os.path.normpath(os.path.join(e["directory"], e["file"]))
            if file in seen or not os.path.exists(file):   # (a game folder removed since its build)
                continue
            seen.add(file)
            args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
            while args and os.path.basename(args[0]) in launchers:   # the compiler, not the cache in front of it
                args = args[1:]
            args = [a for a in args if a not in LEFT_OUT]
            if file.endswith(os.sep + os.path.join("platform", "release.cpp")) and "-DHOST_RELEASE" not in args:
                args.append("-DHOST_RELEASE")
            entries.append({"directory": e["directory"], "file": file, "arguments": args})
    return entries


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    text = json.dumps(merged(root), indent=1) + "\n"
    out = os.path.join(root, "compile_commands.json")
    try:
        with open(out) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = f"{out}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
