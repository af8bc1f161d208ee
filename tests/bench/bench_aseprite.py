"""Benchmark of an Aseprite file's save while the game runs, against the real host (headless):

aseprite_reload_ms      from the write of a 64x64, 32-frame .aseprite file (zlib cels, one tag) to the frame that
                        draws with the repacked atlas (the host's asset_reload event: atlas_pack composited the 32
                        frames, the changed page was decoded and its texture swapped in), median of 8 saves, each
                        with new pixels; the same definition as asset_reload_ms (bench_live.py) for a PNG
aseprite_reload_max_ms  the slowest of them

The game is examples/sprites_aseprite in a copy of the project; the file sits in its own assets/sprites.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import ROOT, Host, cleanup, project_copy  # noqa: E402
from benchlib import cached_env, report, runs  # noqa: E402
import aseprite_write as aw  # noqa: E402

SIZE, FRAMES = 64, 32

root = project_copy()
shutil.copytree(os.path.join(ROOT, "examples", "sprites_aseprite"), os.path.join(root, "examples", "sprites_aseprite"))
game = os.path.join(root, "examples", "sprites_aseprite")
target = os.path.join(game, "assets", "sprites", "bench.aseprite")
aw.write(target, aw.strip_bytes(SIZE, SIZE, FRAMES, base=0))
b = subprocess.run(["./build.sh", "game", game], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                   timeout=600, env=cached_env())
if b.returncode != 0:
    sys.exit(f"bench_aseprite: ./build.sh game failed:\n{b.stdout[-3000:]}")

host = Host(root, "--game", game)
host.wait_ev("new_code_running", version=1, timeout=60)
time.sleep(0.5)   # the start's background repack check is over

reloads, host_ms = [], []
for i in range(runs(8, 2)):
    data = aw.strip_bytes(SIZE, SIZE, FRAMES, base=i + 1)
    m = host.mark()
    aw.write(target, data)
    written = time.time()
    r = host.wait_for(lambda e: e.get("ev") == "asset_reload" and e.get("file", "").endswith("bench.aseprite"), 30, m,
                      what="the atlas with the new frames")
    if r.get("errors"):
        sys.exit(f"bench_aseprite: the reload reported errors: {r}")
    reloads.append((r["wall"] - written) * 1000.0)
    host_ms.append(r["ms"])
    time.sleep(0.3)

host.stop()
cleanup(root)
print(f"aseprite reloads ({SIZE}x{SIZE}, {FRAMES} frames): {[round(t, 1) for t in reloads]} ms "
      f"(host's own count from the change seen: {[round(t, 1) for t in host_ms]})", file=sys.stderr)
report({
    "aseprite_reload_ms": round(statistics.median(reloads), 1),
    "aseprite_reload_max_ms": round(max(reloads), 1),
})
