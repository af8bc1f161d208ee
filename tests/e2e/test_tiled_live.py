"""End to end: a Tiled map as a live level, on examples/level_tiled run headless.

- At start the map reads (a map_loaded event, generation 1), the game gets its level-changed call and the player,
  walking right from the spawn point, is stopped by the gate (the wall at column 20).
- The gate is moved to column 28 in the .tmj (its data rewritten, as a save from Tiled would): the game gets the
  level-changed call for generation 2, keeps the player where it was, the player walks on and stops at the new
  wall; the screenshots show bricks at the new place and floor at the old one.
- Bad saves, each one asset_error naming level1.tmj and the problem, the last good level kept (no level-changed
  call, the player still stopped at the same wall): the JSON cut short, a tile id past the tileset, base64+gzip
  data. A tileset image that is missing: the level reads, the message names the image, its tiles draw as the
  checker. The tileset moved out into a .tsj: a save of the .tsj alone (the wall tile no longer "solid") reloads
  the map that uses it, and the player walks through the wall. A new map saved while the game runs whose
  tileset file is missing: said, then read when the tileset is saved. A second map that never read (broken.tmj, cut short at start): said at start, the host runs on.
ASAN_SCENARIO: also run against the sanitizer build of the host (the maps are read in the host's process).
"""
import json
import os
import subprocess

from hostlib import Checks, Host, check, end_run, example_copy, input_script, project_copy, read_png

checks = Checks()
root = project_copy()
game = example_copy(root, "level_tiled")
tmj = os.path.join(game, "assets", "maps", "level1.tmj")
with open(tmj) as f:
    GOOD = json.load(f)
with open(os.path.join(game, "assets", "maps", "broken.tmj"), "w") as f:
    f.write(json.dumps(GOOD)[:500])
b = subprocess.run(["./build.sh", "game", game], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   text=True, timeout=300)
check(b.returncode == 0, f"./build.sh game failed:\n{b.stdout[-3000:]}")

T, HALF = 32, 11   # tile size; half the player's size
WALL_GID = 3       # the brick tile
script = input_script(root, "10 down RIGHT\n" + "".join(f"{10 * i} tap F12\n" for i in range(1, 6000)), "bot.txt")
host = Host(root, "--game", game, "--input", script)


def write_map(m):
    with open(tmj, "w") as f:
        json.dump(m, f)


def stats(pred, what, since=0, timeout=30):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "x" in e.get("game", {}) and pred(e["game"]),
                         timeout, since, what=what)["game"]


def level_changes(since=0):
    return [e for e in host.of("game", since) if e.get("name") == "level_changed"]


def moved_gate(col):
    m = json.loads(json.dumps(GOOD))
    walls = next(l for l in m["layers"] if l["name"] == "walls")
    w = m["width"]
    for y in range(1, 12):
        walls["data"][y * w + 20] = 0
        walls["data"][y * w + col] = WALL_GID
    return m


def screen_color(x, y):
    """The mean colour around screen pixel (x, y) in the next screenshot."""
    m = host.mark()
    shot = host.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok"), 10, m, what="screenshot")
    _, _, rows = read_png(shot["path"])
    px = [rows[y + dy][x + dx] for dy in range(-2, 3) for dx in range(-2, 3)]
    return tuple(sum(p[i] for p in px) / len(px) for i in range(3))


def first_level_and_gate():
    loaded = host.wait_ev("map_loaded", timeout=30)
    check(loaded["name"] == "level1" and loaded["generation"] == 1 and loaded["solids"] > 0, f"map_loaded: {loaded}")
    host.wait_for(lambda e: level_changes(), 30, what="the level-changed call")
    check(level_changes()[0]["generation"] == 1, f"first call: {level_changes()}")
    g = stats(lambda g: g["blocked_x"] == 1, "the player stopped by the gate")
    check(abs(g["x"] - (20 * T - HALF)) < 0.5, f"the player should stop at the gate (x {20 * T - HALF}): {g}")
    errors = [e for e in host.of("asset_error") if "level1" in e.get("file", "")]
    check(not errors, f"the good map was refused: {errors}")


def never_read_map_said_at_start():
    errs = [e for e in host.of("asset_error") if e.get("file", "").endswith("broken.tmj")]
    check(len(errs) == 1 and "no level" in errs[0]["reason"], f"broken.tmj at start: {errs}")
    check(host.alive(), "the host died on a map that never read")


def moved_wall_collides_and_draws():
    m = host.mark()
    write_map(moved_gate(28))
    loaded = host.wait_ev("map_loaded", timeout=15, since=m, generation=2)
    host.wait_for(lambda e: level_changes(m), 15, m, what="the level-changed call for generation 2")
    call = level_changes(m)[0]
    check(call["generation"] == 2, f"level_changed: {call}")
    check(abs(call["x"] - (20 * T - HALF)) < 0.5, f"the player did not keep its place over the change: {call}")
    g = stats(lambda g: g["blocked_x"] == 1 and g["x"] > 21 * T, "the player stopped by the moved gate", m)
    check(abs(g["x"] - (28 * T - HALF)) < 0.5, f"the player should stop at the new wall (x {28 * T - HALF}): {g}")
    check(g["generation"] == 2 and g["level_changes"] == 2, f"stats: {g} (map_loaded {loaded})")
    cam = g["cam_x"]
    brick = screen_color(int(28 * T + 16 - cam), 6 * T + 16)
    floor = screen_color(int(20 * T + 16 - cam), 6 * T + 16)
    check(brick[0] > brick[2] + 60, f"no bricks drawn at the moved wall: {brick}")
    check(floor[2] > floor[0], f"the old wall is still drawn: {floor}")


def bad_save(name, mutate, words):
    def case():
        m = host.mark()
        text = mutate(json.loads(json.dumps(moved_gate(28))))
        with open(tmj, "w") as f:
            f.write(text if isinstance(text, str) else json.dumps(text))
        err = host.wait_ev("asset_error", timeout=15, since=m)
        check(err["file"].endswith("level1.tmj") and all(w in err["reason"] for w in words), f"{name}: {err}")
        logged = [e for e in host.of("log", m) if e.get("level") == "error" and "level1.tmj" in e.get("msg", "")]
        check(len(logged) == 1, f"{name}: one error line names the file: {logged}")
        s0 = stats(lambda g: True, "stats after the bad save", host.mark())["steps"]
        g = stats(lambda g: g["steps"] > s0 + 10, "steps going on after the bad save", host.mark())
        check(g["generation"] == 2 and g["blocked_x"] == 1 and abs(g["x"] - (28 * T - HALF)) < 0.5,
              f"{name}: the last good level is gone: {g}")
        check(not level_changes(m) and not host.of("map_loaded", m), f"{name}: a level-changed call on a bad save")
        check(host.alive(), f"the host died on {name}")
    return case


def truncated(m):
    return json.dumps(m)[:3000]


def tile_past_tileset(m):
    next(l for l in m["layers"] if l["name"] == "walls")["data"][5 * m["width"] + 5] = 99
    return m


def gzip_data(m):
    import base64, gzip, struct
    layer = next(l for l in m["layers"] if l["name"] == "ground")
    layer["data"] = base64.b64encode(gzip.compress(struct.pack(f"<{len(layer['data'])}I", *layer["data"]))).decode()
    layer["encoding"], layer["compression"] = "base64", "gzip"
    return m


def missing_image_checker():
    m = host.mark()
    broken = moved_gate(28)
    broken["tilesets"][0]["image"] = "../sprites/nothere.png"
    write_map(broken)
    err = host.wait_ev("asset_error", timeout=15, since=m)
    check(err["file"].endswith("level1.tmj") and "nothere.png" in err["reason"] and "checker" in err["reason"],
          f"missing image: {err}")
    host.wait_ev("map_loaded", timeout=15, since=m, generation=3)
    g = stats(lambda g: g["generation"] == 3, "the level with the missing image", m)
    px = screen_color(int(28 * T + 16 - g["cam_x"]), 6 * T + 16)
    check(px[0] > 100 and px[1] < 60 and px[2] > 100, f"no checker (magenta) where the tiles are: {px}")
    m = host.mark()
    write_map(moved_gate(28))
    host.wait_ev("map_loaded", timeout=15, since=m, generation=4)


def external_tileset_save_reloads():
    tsj = os.path.join(game, "assets", "maps", "tiles.tsj")
    m = moved_gate(28)
    tileset = dict(m["tilesets"][0])
    tileset.pop("firstgid")
    tileset["type"] = "tileset"

    def write_tileset(ts):
        with open(tsj, "w") as f:
            json.dump(ts, f)
    write_tileset(tileset)
    m["tilesets"] = [{"firstgid": 1, "source": "tiles.tsj"}]
    mark = host.mark()
    write_map(m)
    loaded = host.wait_ev("map_loaded", timeout=15, since=mark)
    check(not host.of("asset_error", mark), f"the map with an external tileset: {host.of('asset_error', mark)}")
    g = stats(lambda g: g["generation"] == loaded["generation"] and g["blocked_x"] == 1, "the wall still solid", mark)
    check(abs(g["x"] - (28 * T - HALF)) < 0.5, f"the player should still stop at the wall: {g}")
    tileset["tiles"] = [t for t in tileset["tiles"] if t["id"] != WALL_GID - 1]   # bricks no longer solid
    mark = host.mark()
    write_tileset(tileset)
    again = host.wait_ev("map_loaded", timeout=15, since=mark)
    check(again["generation"] == loaded["generation"] + 1 and again["solids"] < loaded["solids"],
          f"the .tsj's save: {again} (before: {loaded})")
    g = stats(lambda g: g["x"] > 28 * T + 40, "the player walking through the wall that is no longer solid", mark)
    check(g["generation"] == again["generation"], f"stats: {g}")


def new_map_waits_for_its_tileset():
    maps = os.path.join(game, "assets", "maps")
    m = moved_gate(28)
    m["tilesets"] = [{"firstgid": 1, "source": "later.tsj"}]
    mark = host.mark()
    with open(os.path.join(maps, "late.tmj"), "w") as f:
        json.dump(m, f)
    err = host.wait_ev("asset_error", timeout=15, since=mark)
    check(err["file"].endswith("late.tmj") and "later.tsj" in err["reason"], f"the missing tileset: {err}")
    with open(os.path.join(maps, "tiles.tsj")) as f:
        tileset = f.read()
    mark = host.mark()
    with open(os.path.join(maps, "later.tsj"), "w") as f:
        f.write(tileset)
    loaded = host.wait_for(lambda e: e.get("ev") == "map_loaded" and e.get("name") == "late", 15, mark,
                           what="late.tmj read")
    check(loaded["generation"] == 1, f"late.tmj once its tileset is there: {loaded}")


checks.case("first_level_and_gate", first_level_and_gate)
checks.case("never_read_map_said_at_start", never_read_map_said_at_start)
checks.case("moved_wall_collides_and_draws", moved_wall_collides_and_draws)
checks.case("truncated_json_keeps_level", bad_save("truncated JSON", truncated, ["JSON"]))
checks.case("tile_past_tileset_keeps_level", bad_save("a tile past its tileset", tile_past_tileset, ["99", "tileset"]))
checks.case("gzip_keeps_level", bad_save("gzip data", gzip_data, ["gzip"]))
checks.case("missing_image_checker", missing_image_checker)
checks.case("external_tileset_save_reloads", external_tileset_save_reloads)
checks.case("new_map_waits_for_its_tileset", new_map_waits_for_its_tileset)
end_run(checks, host, root)
