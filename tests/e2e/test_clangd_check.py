"""Every source file parses in an editor: compile_commands.json (./build.sh build merges the build systems'
databases into it: tools/compile_db.py) has an entry for each file with the flags its build really uses, and
Debian's clangd, run as `clangd --check=FILE`, finds no error in files of every kind: each piece of the game (they
stand alone through game/game.h), the game's entry file with its layout stamp, platform files with SDL's flags,
release.cpp with HOST_RELEASE, tools, C and C++ unit tests, fuzz targets, benchmarks, the Windows sources with
mingw-w64's headers, the web backend with emscripten's (asked of em++), and headers (whose commands clangd infers
from a neighbour). CLANGD_CHECK_ALL=1 checks every entry instead of a sample.
"""
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from hostlib import ROOT, Checks, check

checks = Checks()
db_path = os.path.join(ROOT, "compile_commands.json")
entries = {}
# The Windows files' entries are the mingw tree's, configured once SDL2 for mingw-w64 is built (the Windows leg; then
# ./build.sh build configures it too); the web backend's are the web release's tree's: before, they have none.
WINDOWS = ["platform/os/os_win32*.cpp", "tests/windows/*.cpp"]
windows_tree = os.path.exists(os.path.join(ROOT, "build", "cmake", "mingw", "compile_commands.json"))


def waits_for_its_tree(f):
    if any(fnmatch.fnmatch(f, w) for w in WINDOWS):
        return not windows_tree
    return f == "platform/os/os_web.cpp" and f not in entries


def load():
    check(os.path.exists(db_path), f"no {db_path}: ./build.sh build writes it")
    with open(db_path) as f:
        for e in json.load(f):
            entries[os.path.relpath(e["file"], ROOT)] = e["arguments"]


def every_source_has_an_entry():
    kinds = ["platform/**/*.cpp", "game/*.cpp", "tools/*.cpp", "tests/unit/*.cpp", "tests/unit/*.c", "tests/fuzz/*.cpp",
             "tests/bench/*.cpp", "tests/windows/*.cpp"]
    # a pattern that names no file (a folder moved) would check nothing: each must find files, the host's in
    # every one of its folders
    empty = [k for k in kinds if not glob.glob(k, root_dir=ROOT, recursive=True)]
    check(not empty, f"patterns that match no file: {empty}")
    folders = {os.path.dirname(f) for f in glob.glob("platform/**/*.cpp", root_dir=ROOT, recursive=True)}
    check({"platform/os", "platform/core", "platform/services", "platform/session", "platform/live"} <= folders,
          f"the host's folders found: {sorted(folders)}")
    files = [f for k in kinds for f in sorted(glob.glob(k, root_dir=ROOT, recursive=True))]
    later = [f for f in files if waits_for_its_tree(f)]
    if later:
        print(f"no tree configured yet for {later}: not checked")
    missing = [f for f in files if f not in entries and f not in later]
    check(not missing, f"no compile_commands.json entry for {missing}")


def entries_carry_the_real_flags():
    def has(f, *flags):
        args = entries[f]
        for flag in flags:
            check(any(a == flag or (flag.endswith("=") and a.startswith(flag)) for a in args), f"{f}: no {flag} in {args}")
    stamp = os.path.join(ROOT, "build", "game", "layout.stamp")
    with open(stamp) as f:
        layout = f.read().strip()
    for f in glob.glob("game/*.cpp", root_dir=ROOT):
        has(f, f"-DGAME_LAYOUT_HASH={layout}u", "-fno-rtti", "-fvisibility=hidden")
    # SDL2's headers, as CMake's SDL2 package names them (-I or -isystem)
    sdl = [a[2:] for a in subprocess.run(["sdl2-config", "--cflags"], capture_output=True, text=True).stdout.split() if a.startswith("-I")]
    for f in ("platform/main.cpp", "platform/services/render.cpp"):
        dirs = [a[2:] for a in entries[f] if a.startswith("-I") and len(a) > 2]
        dirs += [entries[f][i + 1] for i, a in enumerate(entries[f][:-1]) if a in ("-I", "-isystem")]
        check(all(d in dirs for d in sdl), f"{f}: SDL2's headers {sdl} are not among its include folders {dirs}")
    has("platform/release.cpp", "-DHOST_RELEASE")
    check("-DHOST_RELEASE" not in entries["platform/main.cpp"], "main.cpp (built both ways) has the release's entry")
    has("tests/fuzz/fuzz_host_flags.cpp", "-fsanitize=fuzzer,address,undefined")
    check(entries["tests/unit/test_th_base_c.c"][0].endswith("gcc") and "-std=c99" in entries["tests/unit/test_th_base_c.c"],
          f"C test entry: {entries['tests/unit/test_th_base_c.c']}")
    windows = glob.glob("platform/os/os_win32*.cpp", root_dir=ROOT) + glob.glob("tests/windows/*.cpp", root_dir=ROOT)
    check(windows, "no Windows backend file found under platform/os/")
    for f in [f for f in windows if not waits_for_its_tree(f)]:
        mingw = "mingw32" in entries[f][0] or any(a.startswith("--target=x86_64-w64-mingw32") for a in entries[f])
        check(mingw, f"{f}: compiled by {entries[f][0]} {entries[f][1:3]}, not for mingw-w64")   # (g++, or clang)


def sample():
    if os.environ.get("CLANGD_CHECK_ALL") == "1":
        return sorted(entries)
    files = sorted(glob.glob("game/*.cpp", root_dir=ROOT) + glob.glob("game/*.h", root_dir=ROOT) + glob.glob("platform/include/*", root_dir=ROOT))
    files += ["platform/main.cpp", "platform/services/render.cpp", "platform/release.cpp", "platform/core/parse.cpp", "platform/session/guard.cpp"]
    files += sorted(f for f in glob.glob("platform/os/os_*.cpp", root_dir=ROOT))   # every OS backend, Windows' too
    files += sorted(glob.glob("tests/windows/*.cpp", root_dir=ROOT))
    files += ["tools/atlas_pack.cpp", "tests/unit/test_guard.cpp", "tests/unit/test_th_collide.cpp", "tests/unit/test_th_collide_c.c",
              "tests/fuzz/fuzz_host_flags.cpp", "tests/bench/bench_collide.cpp",
              "platform/host.h", "platform/os/os.h", "tinyheaders/th_collide.h", "tinyheaders/th_tweak.h"]
    return [f for f in files if os.path.exists(os.path.join(ROOT, f)) and not waits_for_its_tree(f)]


def clangd_check(f):
    # --check-lines=1: the diagnostics cover the whole file; the editor features are tried on one line only
    # --query-driver: em++'s entries (the web backend's) name no target or headers clang knows; clangd asks em++
    p = subprocess.run(["clangd", f"--compile-commands-dir={ROOT}", "--query-driver=**/em++",
                        f"--check={os.path.join(ROOT, f)}", "--check-lines=1"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    m = re.search(r"All checks completed, (\d+) errors", p.stderr)
    errors = [l for l in p.stderr.splitlines() if re.match(r"E\[[\d:.]+\] \[", l)]
    return f, (m and m.group(1) == "0" and not errors), errors or p.stderr.splitlines()[-5:]


def clangd_finds_no_error():
    check(shutil.which("clangd"), "clangd is not installed (./build.sh test installs it)")
    files = sample()
    bad = []
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for f, ok, errors in pool.map(clangd_check, files):
            if not ok:
                bad.append(f"{f}:\n    " + "\n    ".join(errors[:6]))
    print(f"clangd --check: {len(files) - len(bad)} of {len(files)} files without errors")
    check(not bad, "clangd errors in:\n" + "\n".join(bad))


checks.case("load", load)
checks.case("every_source_has_an_entry", every_source_has_an_entry)
checks.case("entries_carry_the_real_flags", entries_carry_the_real_flags)
checks.case("clangd_finds_no_error", clangd_finds_no_error)
checks.finish()
