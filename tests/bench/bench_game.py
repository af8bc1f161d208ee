"""The sample game's F3 stress fight under the offscreen software renderer at 1280x720, through the host.

The autopilot plays while F3 (the game's stress key) drops a swarm into the arena; every frame's
work time is logged by the host (--frame-log). game_f3_frame_p99_ms is the 99th percentile over
the frames of that fight, with the entity, particle and sprite counts of the same frames beside it.
The late game's heavier frame (300 enemies, 4,000 sparks) is bench_game_frame.cpp's game_heavy_frame_p99_ms.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402

root = project_copy()
script = os.path.join(root, "heavy.txt")
with open(script, "w") as f:
    f.write("5 tap F10\n200 tap F3\n500 tap F3\n")
frames_path = os.path.join(root, "frames.txt")
FRAMES = runs(1400, 500)   # the quick mode: one swarm, 240 frames of it
h = Host(root, "--fast", "--no-watch", "--frames", str(FRAMES), "--input", script, "--frame-log", frames_path)
h.proc.wait(600)
h.stop()
rows = [l.split() for l in open(frames_path)]
fight = [(float(r[1]), int(r[2])) for r in rows if 260 <= int(r[0]) < FRAMES]
times = sorted(t for t, _ in fight)
p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
stats = [e["game"] for e in h.of("frame_stats") if e["game"].get("mode") == 1]
cleanup(root)
report({
    "game_f3_frame_p99_ms": round(p99, 2),
    "game_f3_frame_p50_ms": round(times[len(times) // 2], 2),
    "game_f3_sprites_max": max(s for _, s in fight),
    "game_f3_entities_max": max((s.get("entities", 0) for s in stats), default=0),
    "game_f3_enemies_max": max((s.get("enemies", 0) for s in stats), default=0),
    "game_f3_particles_max": max((s.get("particles", 0) for s in stats), default=0),
})
