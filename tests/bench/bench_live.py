"""Benchmarks of live editing without the compiler, against the real host (headless, the shipped game):

tweak_apply_ms   from the write of a TWEAK() literal to the first frame that reads the new value
                 (the host's tweak_applied event), median of 10 edits; the watcher's 10 ms quiet
                 time is part of it
asset_reload_ms  from the overwrite of a sprite PNG to the frame that draws with the repacked atlas
                 page (the host's asset_reload event), median of 8 edits
"""
import json
import os
import statistics
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402


def png(w, h, rgba):
    """An 8-bit RGBA PNG of one colour."""
    raw = b"".join(b"\x00" + bytes(rgba) * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


root = project_copy()
entities = os.path.join(root, "game", "entities.cpp")
gem = os.path.join(root, "assets", "sprites", "pickup", "gem.png")
script = os.path.join(root, "bot.txt")
with open(script, "w") as f:
    f.write("5 tap F10\n")
host = Host(root, "--input", script)
host.wait_ev("new_code_running", version=1, timeout=30)
host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("bullet_speed", 0) > 0, 60, what="bullets")

with open(entities) as f:
    original = f.read()
tweaks = []
for i in range(runs(10, 2)):
    m = host.mark()
    with open(entities, "w") as f:
        f.write(original.replace("BULLET_SPEED        = TWEAK(1100.0f)", f"BULLET_SPEED        = TWEAK({1200 + 10 * i}.0f)"))
    written = time.time()
    applied = host.wait_ev("tweak_applied", timeout=20, since=m)
    tweaks.append((applied["wall"] - written) * 1000.0)
    time.sleep(0.3)
builds = host.of("build_start")

reloads = []
for i in range(runs(8, 2)):
    m = host.mark()
    data = png(28, 28, (40 + 20 * i, 255 - 20 * i, 200, 255))
    with open(gem, "wb") as f:
        f.write(data)
    written = time.time()
    r = host.wait_ev("asset_reload", timeout=20, since=m)
    reloads.append((r["wall"] - written) * 1000.0)
    time.sleep(0.3)

host.stop()
cleanup(root)
print(f"tweak edits: {[round(t, 1) for t in tweaks]} ms; builds started by them: {len(builds)}", file=sys.stderr)
print(f"asset reloads: {[round(t, 1) for t in reloads]} ms", file=sys.stderr)
report({
    "tweak_apply_ms": round(statistics.median(tweaks), 1),
    "tweak_apply_max_ms": round(max(tweaks), 1),
    "tweak_builds_started": len(builds),
    "asset_reload_ms": round(statistics.median(reloads), 1),
    "asset_reload_max_ms": round(max(reloads), 1),
})
