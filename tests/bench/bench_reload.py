"""Benchmarks of the live loop on the shipped game, run against the real host (headless):

edit_to_reload_p50_ms / _p95_ms  from the file write to the first step run by the new code (12 edits)
build_p50_ms                     the compile alone (build.sh game), from the same edits
swap_ms                          median unload + load + rebind, no compile
max_frame_during_build_ms        the longest frame interval while a build ran in the background
"""
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, project_copy  # noqa: E402

EDITS = 12
root = project_copy()
target = os.path.join(root, "game", "game.cpp")
host = Host(root)
host.wait_ev("new_code_running", version=1, timeout=30)
host.wait_for(lambda e: e.get("ev") == "frame_stats", 10)

with open(target) as f:
    original = f.read()
latencies, builds = [], []
for i in range(EDITS):
    m = host.mark()
    # a real edit a person makes: a changed line of code
    with open(target, "w") as f:
        f.write(original + f"\nstatic const int BENCH_EDIT_{i} = {i};\n")
    written = time.time()
    ran = host.wait_ev("new_code_running", version=i + 2, timeout=60, since=m)
    latencies.append((ran["wall"] - written) * 1000.0)
    b = host.wait_ev("build_end", timeout=5, since=m, ok=True)
    builds.append(b["ms"])
    time.sleep(0.3)

reloads = [e for e in host.of("reload") if e["why"] == "build"]
frames = [e["max_frame_interval_ms"] for e in host.of("build_frames")]
host.stop()
cleanup(root)
latencies.sort()
result = {
    "edit_to_reload_p50_ms": round(statistics.median(latencies), 1),
    "edit_to_reload_p95_ms": round(latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))], 1),
    "build_p50_ms": round(statistics.median(builds), 1),
    "swap_ms": round(statistics.median(e["swap_ms"] for e in reloads), 3),
    "max_frame_during_build_ms": round(max(frames), 2),
}
print(json.dumps(result))
