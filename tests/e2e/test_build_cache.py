"""Builds go through the compiler launcher (ENGINE_COMPILER_LAUNCHER, CMake's CMAKE_<LANG>_COMPILER_LAUNCHER; ccache
when it is installed): in a copy of the project with a cache of its own, a clean build of the tools misses the
cache for every compile, and a second clean build (build/ removed) finds every one of them; the game library's
compiles, which the host runs on a save, go through the same launcher (its compile.cmd)."""
import os
import re
import shutil
import subprocess
import tempfile

from hostlib import ROOT, Checks, check, cleanup

checks = Checks()
tmp = tempfile.mkdtemp(prefix="engine-cache-")
for d in ("platform", "tinyheaders", "tools", "game", "tests/unit", "tests/bench", "tests/e2e"):
    shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d))
for f in ("build.sh", "CMakeLists.txt", "CMakePresets.json"):
    shutil.copy2(os.path.join(ROOT, f), tmp)
env = dict(os.environ, CCACHE_DIR=os.path.join(tmp, "ccache"), ENGINE_COMPILER_LAUNCHER="ccache")
env.pop("ENGINE_HOST", None)


def ccache_stats():
    p = subprocess.run(["ccache", "--print-stats"], env=env, capture_output=True, text=True, timeout=60)
    stats = dict(line.split("\t", 1) for line in p.stdout.splitlines() if "\t" in line)
    hits = int(stats.get("direct_cache_hit", 0)) + int(stats.get("preprocessed_cache_hit", 0))
    return hits, int(stats.get("cache_miss", 0))


def build_tools():
    p = subprocess.run(["bash", "build.sh", "tools"], cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=1800)
    check(p.returncode == 0, f"./build.sh tools failed:\n{p.stdout[-3000:]}")
    return len(re.findall(r"Building C(XX)? object", p.stdout))


def second_clean_build_hits():
    check(shutil.which("ccache"), "ccache is not installed (./build.sh deps installs it)")
    compiles = build_tools()
    hits0, misses0 = ccache_stats()
    check(compiles > 0 and misses0 >= compiles and hits0 == 0, f"the first build: {compiles} compiles, {hits0} hits, {misses0} misses")
    cache = open(os.path.join(tmp, "build", "cmake", "dev", "CMakeCache.txt")).read()
    check("CMAKE_CXX_COMPILER_LAUNCHER:UNINITIALIZED=ccache" in cache or "CMAKE_CXX_COMPILER_LAUNCHER:STRING=ccache" in cache,
          "the build tree has no ccache launcher")
    shutil.rmtree(os.path.join(tmp, "build"))
    again = build_tools()
    hits1, misses1 = ccache_stats()
    print(f"clean build: {compiles} compiles, {misses0} misses; second clean build: {again} compiles, {hits1 - hits0} hits, "
          f"{misses1 - misses0} misses")
    check(again == compiles and hits1 - hits0 == again and misses1 == misses0,
          f"the second clean build: {again} compiles, {hits1 - hits0} hits, {misses1 - misses0} new misses")


def game_compiles_go_through_it():
    host = os.environ.get("HOST_BIN") or os.path.join(ROOT, "build", "host")   # the checkout's: the copy builds no host
    p = subprocess.run(["bash", "build.sh", "game"], cwd=tmp, env=dict(env, ENGINE_HOST=host), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=1800)
    check(p.returncode == 0, f"./build.sh game failed:\n{p.stdout[-3000:]}")
    lines = open(os.path.join(tmp, "build", "game", "compile.cmd")).read().split("::compile\n", 1)[1].splitlines()
    check(lines[0] == "ccache", f"the game's compile starts with {lines[:2]}, not the launcher")


checks.case("second_clean_build_hits", second_clean_build_hits)
checks.case("game_compiles_go_through_it", game_compiles_go_through_it)
if not checks.failed:
    cleanup(tmp)
checks.finish()
