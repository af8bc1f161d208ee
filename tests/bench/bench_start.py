"""A second `./build.sh run` with nothing changed, as a person starts the game again: from the start of
build.sh to the host's first_frame event (build.sh's up-to-date checks, the host's start, the first
library load, the first frame). Headless, so it runs without a display; 3 runs in the checkout itself
(./build.sh bench has just built everything, so nothing is rebuilt), save data in a temporary folder.

run_second_to_first_frame_ms  median wall time, command start -> first_frame
run_second_cpu_ms             median CPU time of build.sh, its checks and the host (to its exit after 5 frames)
run_up_to_date_ms             median wall time of `./build.sh run --headless --frames 1` with nothing changed, command
                              to exit (target <= 1500)
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import report, runs  # noqa: E402

ROOT = os.environ.get("PROJECT_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
tmp = tempfile.mkdtemp(prefix="bench-start-")
walls, cpus, whole = [], [], []
try:
    for i in range(runs(3)):
        log = os.path.join(tmp, f"events{i}.jsonl")
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.time()
        p = subprocess.run([os.path.join(ROOT, "build.sh"), "run", "--headless", "--frames", "5", "--log-json", log,
                            "--save-dir", os.path.join(tmp, "save")], cwd=ROOT, capture_output=True, text=True, timeout=120)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert p.returncode == 0, f"./build.sh run failed:\n{p.stderr[-2000:]}"
        rebuilt = [l for l in p.stderr.splitlines() if "compiling" in l or "Building " in l or "Linking " in l]
        assert not rebuilt, f"a second run rebuilt something: {rebuilt}"
        first = [json.loads(l) for l in open(log) if '"first_frame"' in l]
        assert first, "the host wrote no first_frame event"
        walls.append((first[0]["wall"] - t0) * 1000.0)
        cpus.append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000.0)
    for i in range(runs(3)):
        t0 = time.time()
        p = subprocess.run([os.path.join(ROOT, "build.sh"), "run", "--headless", "--frames", "1",
                            "--save-dir", os.path.join(tmp, "save")], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, f"./build.sh run --frames 1 failed:\n{p.stderr[-2000:]}"
        whole.append((time.time() - t0) * 1000.0)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print(f"run, nothing changed, command to exit: {[round(w) for w in whole]} ms", file=sys.stderr)
print(f"second run to first frame: {[round(w) for w in walls]} ms", file=sys.stderr)
report({
    "run_second_to_first_frame_ms": round(statistics.median(walls), 1),
    "run_second_cpu_ms": round(statistics.median(cpus), 1),
    "run_up_to_date_ms": round(statistics.median(whole), 1),
})
