"""The release a player gets from `./build.sh dist` (built here first, from this project):

dist_exe_bytes       the executable (game linked in, -O2, -g1 line tables for the crash report)
dist_pak_bytes       game.pak: atlas pages and manifest, the baked font, the decoded sounds
dist_tgz_bytes       dist/<game>-linux-x86_64.tar.gz, what a player downloads
dist_startup_p50_ms  exec to the end of the first frame (the host's first_frame event: window,
                     archive mounted and checked, atlas, font and sounds loaded, one update and draw),
                     headless (SDL's offscreen driver, software renderer), median of 9 runs, wall clock (1 under BENCH_QUICK=1)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import ROOT, cleanup  # noqa: E402
from benchlib import report, runs  # noqa: E402

GAME = "neon-swarm"
NAME = f"{GAME}-linux-x86_64"
r = subprocess.run(["./build.sh", "dist"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
if r.returncode != 0:
    sys.exit(f"bench_dist: ./build.sh dist failed:\n{r.stdout[-3000:]}")
folder = os.path.join(ROOT, "dist", NAME)
exe = os.path.join(folder, GAME)
work = tempfile.mkdtemp(prefix="engine-bench-dist-")
startup = []
for i in range(runs(9)):
    log = os.path.join(work, f"run{i}.jsonl")
    t0 = time.time()
    p = subprocess.run([exe, "--headless", "--frames", "1", "--log-json", log, "--save-dir", os.path.join(work, "save")],
                       cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit(f"bench_dist: the release exited with {p.returncode}")
    with open(log) as f:
        first = [e for e in map(json.loads, f) if e["ev"] == "first_frame"][0]
    startup.append((first["wall"] - t0) * 1000.0)
cleanup(work)
report({
    "dist_exe_bytes": os.path.getsize(exe),
    "dist_pak_bytes": os.path.getsize(os.path.join(folder, "game.pak")),
    "dist_tgz_bytes": os.path.getsize(os.path.join(ROOT, "dist", NAME + ".tar.gz")),
    "dist_startup_p50_ms": round(statistics.median(startup), 1),
})
