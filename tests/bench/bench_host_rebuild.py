"""How long a host edit costs: a copy of the project with the host's objects already built (build/obj/host/,
from the checkout), then one platform file saved with a change and `./build.sh host` run, as a person
editing the host would: -MMD dependencies pick the one object, it is compiled, the host is relinked.
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
from benchlib import report, runs  # noqa: E402

ROOT = os.environ.get("PROJECT_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def project_with_objects():
    """A temporary copy of what the host build reads, with the checkout's objects (mtimes kept)."""
    tmp = tempfile.mkdtemp(prefix="bench-host-")
    for d in ("platform", "game", "platform/include", "tinyheaders", "tools"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d), dirs_exist_ok=True)
    shutil.copy2(os.path.join(ROOT, "build.sh"), tmp)
    objs = os.path.join(ROOT, "build", "obj", "host")
    if os.path.isdir(objs):
        shutil.copytree(objs, os.path.join(tmp, "build", "obj", "host"))
        if os.path.exists(os.path.join(ROOT, "build", "host")):
            shutil.copy2(os.path.join(ROOT, "build", "host"), os.path.join(tmp, "build", "host"))
    return tmp


def build_host(tmp):
    t = time.time()
    p = subprocess.run(["bash", os.path.join(tmp, "build.sh"), "host"], cwd=tmp, capture_output=True, text=True, timeout=900)
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
        build_host(tmp)   # objects for this copy's flags (nothing, when the checkout's are current)
        nothing = [build_host(tmp)[0] for _ in range(runs(3))]
        one = []
        for i, name in enumerate(["parse.cpp", "reload.cpp", "render.cpp"] * 2 if not runs(0, 1) else ["parse.cpp"]):
            save_edit(os.path.join(tmp, "platform", name), i)
            ms, err = build_host(tmp)
            assert "1 of " in err, f"a one-file edit of {name} compiled more than one file: {err}"
            one.append(ms)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"host rebuild after a one-file edit: {[round(x) for x in one]} ms; nothing changed: {[round(x) for x in nothing]} ms",
          file=sys.stderr)
    report({"host_rebuild_one_file_ms": round(statistics.median(one), 1),
            "host_rebuild_nothing_ms": round(statistics.median(nothing), 1)})
