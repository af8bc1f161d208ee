"""How long a host edit costs: a copy of the project, built once (its own CMake tree; the compiles come from
the compiler cache when there is one), then one platform file saved with a change and `./build.sh host` run,
as a person editing the host would: Ninja's dependency files pick the one object, it is compiled, the host
is relinked.
3 files (a small, a middle and a large one) x 2 edits each; plus a run with nothing changed.

host_rebuild_one_file_ms   median wall time of `./build.sh host` after a one-file platform edit (target <= 5000)
host_rebuild_nothing_ms    median wall time of `./build.sh host` with nothing changed
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import cached_env, report, runs  # noqa: E402

ROOT = os.environ.get("PROJECT_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def project_with_objects():
    """A temporary copy of what the host build reads (CMakeLists.txt and the folders its globs read). Its first
    build makes the copy's own build tree; its compiles are found in the compiler cache when build.sh uses one."""
    tmp = tempfile.mkdtemp(prefix="bench-host-")
    for d in ("platform", "game", "platform/include", "tinyheaders", "tools", "tests/unit", "tests/bench", "tests/e2e"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d), dirs_exist_ok=True)
    for f in ("build.sh", "CMakeLists.txt", "CMakePresets.json"):
        shutil.copy2(os.path.join(ROOT, f), tmp)
    return tmp


def compiled(err):
    """How many host files a build compiled (ninja's lines; the stb object is not a host file)."""
    return sum(1 for line in err.splitlines() if "Building CXX object CMakeFiles/host.dir/" in line)


def build_host(tmp, env=None):
    t = time.time()
    p = subprocess.run(["bash", os.path.join(tmp, "build.sh"), "host"], cwd=tmp, capture_output=True, text=True, timeout=900,
                       env=env)
    ms = (time.time() - t) * 1000.0
    assert p.returncode == 0, f"./build.sh host failed:\n{p.stderr[-3000:]}"
    return ms, p.stderr


def save_edit(path, n):
    with open(path, "a") as f:
        f.write(f"/* edit {n} */\n")
    t = time.time() + 0.01
    os.utime(path, (t, t))


if __name__ == "__main__":
    tmp = project_with_objects()
    try:
        build_host(tmp, cached_env())   # the copy's own tree; its compiles from the cache when it has them
        nothing = [build_host(tmp)[0] for _ in range(runs(3))]
        one = []
        for i, name in enumerate(["parse.cpp", "reload.cpp", "render.cpp"] * 2 if not runs(0, 1) else ["parse.cpp"]):
            save_edit(os.path.join(tmp, "platform", name), i)
            ms, err = build_host(tmp)
            assert compiled(err) == 1, f"a one-file edit of {name} compiled other than one file: {err}"
            one.append(ms)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"host rebuild after a one-file edit: {[round(x) for x in one]} ms; nothing changed: {[round(x) for x in nothing]} ms",
          file=sys.stderr)
    report({"host_rebuild_one_file_ms": round(statistics.median(one), 1),
            "host_rebuild_nothing_ms": round(statistics.median(nothing), 1)})
