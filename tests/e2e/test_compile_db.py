"""tools/compile_db.py, the merge of the build systems' databases into compile_commands.json, on a made-up project:
the development tree's entry wins over another tree's for the same file, a game build folder's entries are taken,
an entry for a file that is gone is not, a launcher and -Werror are dropped, release.cpp gets -DHOST_RELEASE; and the
walk below build/ neither follows links nor reads the folders it skips (wine's prefix links its drive Z: to /, and
a link back into build/ would loop): it ends at once.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import json
import os
import subprocess
import sys
import tempfile

from hostlib import ROOT, Checks, check

checks = Checks()
root = tempfile.mkdtemp(prefix="engine-compile-db-")


def db(path, entries):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(entries, f)


def entry(file, *args):
    return {"directory": root, "file": file, "arguments": list(args) + ["-c", file]}


def touch(rel):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").close()
    return p


def merges_what_the_builds_wrote():
    main_cpp, rel_cpp, game_cpp = touch("platform/main.cpp"), touch("platform/release.cpp"), touch("game/game.cpp")
    b = os.path.join(root, "build")
    db(os.path.join(b, "cmake", "dev", "compile_commands.json"),
       [entry(main_cpp, "ccache", "g++", "-O2", "-Werror"), entry(rel_cpp, "g++", "-O2")])
    db(os.path.join(b, "cmake", "mingw", "compile_commands.json"), [entry(main_cpp, "x86_64-w64-mingw32-g++")])
    db(os.path.join(b, "game", "compile_commands.json"),
       [entry(game_cpp, "clang++", "-O0"), entry(os.path.join(root, "game", "gone.cpp"), "clang++")])
    # what a walk must not go into: wine's drive Z: (a link to /), a link back into build/, a skipped folder
    os.makedirs(os.path.join(b, "win", "wineprefix", "dosdevices"))
    os.symlink("/", os.path.join(b, "win", "wineprefix", "dosdevices", "z:"))
    os.symlink(b, os.path.join(b, "loop"))
    db(os.path.join(b, "win", "sdl2-2.0-1", "compile_commands.json"), [entry(touch("sdl.c"), "gcc")])
    try:   # a tree of ten files: a minute is only reached by a walk through / or round a loop
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "compile_db.py"), root],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("compile_db.py did not end in 60 s: its walk followed a link (to / or round a loop)")
    check(r.returncode == 0, f"compile_db.py failed: {r.stdout}")
    with open(os.path.join(root, "compile_commands.json")) as f:
        got = {e["file"]: e["arguments"] for e in json.load(f)}
    check(set(got) == {main_cpp, rel_cpp, game_cpp}, f"the files: {sorted(got)}")
    check(got[main_cpp][0] == "g++" and "-Werror" not in got[main_cpp], f"main.cpp's entry: {got[main_cpp]}")
    check("-DHOST_RELEASE" in got[rel_cpp], f"release.cpp's entry: {got[rel_cpp]}")
    check(got[game_cpp][0] == "clang++", f"game.cpp's entry: {got[game_cpp]}")


checks.case("merges_what_the_builds_wrote", merges_what_the_builds_wrote)
if not checks.failed:
    subprocess.run(["rm", "-rf", root])
checks.finish()
