"""Benchmark of a Tiled map as a live level, against the real host (headless): examples/level_tiled in a copy of
the project, its level1.tmj replaced by a 200x200-cell map (32-pixel tiles: walls around rooms, noise, two tile
layers, 80,000 cells, about 200 KB of JSON as Tiled writes it).

tiled_reload_ms         from the write of the .tmj (a wall moved) to the render that draws the new level: the
                        host's watcher saw the save, th_tiled.h read the map, the solid tiles were merged into
                        boxes, the game's next update got map_changed() (it reads the boxes and objects again)
                        and its render called map_draw on the new level (the wall clock of the game's first
                        draw_timing event after its level_changed event); median of 8 saves (2 with BENCH_QUICK=1)
tiled_reload_max_ms     the slowest of them
tiled_read_ms           the host's own part of it: reading and checking the file, the boxes (map_loaded's ms)
tilemap_draw_ms         map_draw of every visible tile layer for a 1280x720 view of that map (40x23 cells a
                        layer, culled from 40,000), the call's time in the game's render: culling and submitting
                        the tiles to the sprite batch; median of 120 frames (30 quick)
tilemap_frame_ms        the host's whole frame (work_ms_avg of frame_stats) while drawing it, the software
                        renderer included: what the tiles cost on screen
"""
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, example_copy, project_copy  # noqa: E402
from benchlib import build_game, report, runs  # noqa: E402

N = 200
WALL, FLOOR = 3, 1

root = project_copy()
game = example_copy(root, "level_tiled")
tmj = os.path.join(game, "assets", "maps", "level1.tmj")
with open(tmj) as f:
    template = json.load(f)


def big_map(gate):
    """200x200: a border, rooms every 20 cells with doors, 3 % noise, and a gate wall at column `gate`."""
    rng = random.Random(7)
    ground = [FLOOR + ((x + y) % 7 == 0) for y in range(N) for x in range(N)]
    walls = [0] * (N * N)
    for y in range(N):
        for x in range(N):
            border = x in (0, N - 1) or y in (0, N - 1)
            room = (x % 20 == 0 and y % 20 not in (9, 10)) or (y % 20 == 0 and x % 20 not in (9, 10))
            if border or room or rng.random() < 0.03:
                walls[y * N + x] = WALL
    for y in range(1, 19):
        walls[y * N + gate] = WALL
    for y in range(2, 8):   # the spawn's surroundings clear
        for x in range(2, 8):
            walls[y * N + x] = 0
    m = json.loads(json.dumps(template))
    m["width"] = m["height"] = N
    for layer in m["layers"]:
        if layer["type"] == "tilelayer":
            layer["width"] = layer["height"] = N
            layer["data"] = ground if layer["name"] == "ground" else walls
    return json.dumps(m, indent=1)


with open(tmj, "w") as f:
    f.write(big_map(12))
game_cpp = os.path.join(game, "game.cpp")
with open(game_cpp) as f:
    src = f.read()
timed = ('double t0_ = pf->time_seconds(); g_tiles_drawn = pf->map_draw(map, NULL, 0); '
         'char f_[96]; snprintf(f_, sizeof f_, "\\"ms\\":%.5f,\\"tiles\\":%d", (pf->time_seconds() - t0_) * 1000.0, '
         'g_tiles_drawn); pf->event("draw_timing", f_);')
if "g_tiles_drawn = pf->map_draw(map, NULL, 0);" not in src:
    sys.exit("bench_tiled: level_tiled's game.cpp no longer has the map_draw line to time")
with open(game_cpp, "w") as f:
    f.write(src.replace("g_tiles_drawn = pf->map_draw(map, NULL, 0);", timed))
build_game(root, game)

host = Host(root, "--game", game)
host.wait_ev("new_code_running", version=1, timeout=60)
loaded = host.wait_ev("map_loaded", timeout=30)
if loaded.get("solids", 0) < 100:
    sys.exit(f"bench_tiled: the 200x200 map did not load as expected: {loaded}")
time.sleep(0.5)

# the draw: frames of the view at the spawn (the camera at the map's corner: a full 1280x720 of tiles)
m = host.mark()
want = runs(120, 30)
host.wait_for(lambda e: len([x for x in host.of("game", m) if x.get("name") == "draw_timing"]) >= want, 120, m,
              what=f"{want} timed draws")
timings = [x for x in host.of("game", m) if x.get("name") == "draw_timing"][:want]
draw_ms = [x["ms"] for x in timings]
tiles = statistics.median(x["tiles"] for x in timings)
frames = [e["work_ms_avg"] for e in host.of("frame_stats", m) if "work_ms_avg" in e]


def save_to_drawn(gate):
    """ms from the write to the first render of the new level, and the host's own read time."""
    text = big_map(gate)
    m = host.mark()
    with open(tmj, "w") as f:
        f.write(text)
    written = time.time()

    def changed():
        return [e for e in host.of("game", m) if e.get("name") == "level_changed"]
    host.wait_for(lambda e: changed(), 30, m, what="the level-changed call")
    after = host.events.index(changed()[0])
    drawn = host.wait_for(lambda e: e.get("ev") == "game" and e.get("name") == "draw_timing", 30, after,
                          what="the new level drawn")
    read = host.of("map_loaded", m)
    time.sleep(0.3)
    return (drawn["wall"] - written) * 1000.0, read[0]["ms"]


reloads, reads = [], []
for i in range(runs(8, 2)):
    t, r = save_to_drawn(14 + i)
    reloads.append(t)
    reads.append(r)
errors = host.of("asset_error")
host.stop()
cleanup(root)
if errors:
    sys.exit(f"bench_tiled: the host refused a map: {errors[:2]}")
print(f"tiled reloads (200x200): {[round(t, 1) for t in reloads]} ms (host's read: {[round(t, 2) for t in reads]}); "
      f"map_draw {statistics.median(draw_ms):.3f} ms for {tiles:.0f} tiles; frames {frames}", file=sys.stderr)
report({
    "tiled_reload_ms": round(statistics.median(reloads), 1),
    "tiled_reload_max_ms": round(max(reloads), 1),
    "tiled_read_ms": round(statistics.median(reads), 2),
    "tilemap_draw_ms": round(statistics.median(draw_ms), 3),
    "tilemap_frame_ms": round(statistics.median(frames), 2) if frames else -1,
})
