"""End to end: an Aseprite file as a live sprite asset, on examples/sprites_aseprite run headless.

- The idle tag (ping-pong, frames of 220/160/160/300 ms) plays: the game's anim_frame events go 0 1 2 3 2 1 0 1...
  and each frame stays on screen for its duration (in fixed steps of 1/60 s, give or take a step).
- The file is rewritten with a red shirt: within a few frames the screenshots show red where the shirt is.
- A truncated file: an asset_error event and an error log line naming hero.aseprite with the reader's message;
  the game runs on and keeps drawing the last good (red) frames.
- The idle tag renamed in the file while it plays: an anim_missing event naming the file and the tag, once; the
  game runs on showing its last frame. Putting the tag back brings the animation back.
Then a second host on the same copy, Space pressed at step 20:
- The "wave" tag (repeat 2) plays its three frames twice and is over: the game's wave_over event, then idle again.
- The "hitbox" slice follows the frame on screen (the wave key, then the idle key), read by pf->sprite_slice.
- The slice moved in the file while it runs: the next stats show the new bounds. The slice removed: one
  slice_missing event naming the file and the slice; the game runs on.
"""
import os
import shutil
import subprocess
import time

from hostlib import ROOT, Checks, Host, check, end_run, input_script, project_copy, read_png
import aseprite_write as aw

checks = Checks()
root = project_copy()
shutil.copytree(os.path.join(ROOT, "examples", "sprites_aseprite"), os.path.join(root, "examples", "sprites_aseprite"))
game = os.path.join(root, "examples", "sprites_aseprite")
hero = os.path.join(game, "assets", "sprites", "hero.aseprite")
b = subprocess.run(["./build.sh", "game", game], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   text=True, timeout=300)
check(b.returncode == 0, f"./build.sh game failed:\n{b.stdout[-3000:]}")

STEP_MS = 1000.0 / 60
# the shirt: sprite pixel (15, 17) of the 32x32 art, drawn x6 with its feet (16, 30) at (640, 0.7 * 720)
PROBE = (640 + (15 - 16) * 6 + 3, 504 + (17 - 30) * 6 + 3)
RED = dict(aw.HERO_COLORS, shirt=(230, 30, 40))
script = input_script(root, "".join(f"{10 * i} tap F12\n" for i in range(1, 6000)), "shots.txt")
host = Host(root, "--game", game, "--input", script)


def frames(since=0):
    return [e for e in host.of("game", since) if e.get("name") == "anim_frame"]


def shirt(name):
    """The mean colour around PROBE in the next screenshot."""
    m = host.mark()
    shot = host.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok"), 10, m, what=f"screenshot ({name})")
    _, _, rows = read_png(shot["path"])
    px = [rows[PROBE[1] + dy][PROBE[0] + dx] for dy in range(-1, 2) for dx in range(-1, 2)]
    return tuple(sum(p[i] for p in px) / len(px) for i in range(3))


def idle_follows_durations():
    host.wait_ev("new_code_running", version=1, timeout=30)
    host.wait_for(lambda e: len(frames()) >= 12, 30, what="12 frame changes")
    seen = [(e["index"], e["step"]) for e in frames() if e["tag"] == "idle"]
    order = [i for i, _ in seen]
    want = [0, 1, 2, 3, 2, 1] * 4
    start = order.index(1)   # the first change after the start frame
    check(order[start:start + 10] == want[1:11], f"ping-pong order: {order}")
    durations = dict(aw.IDLE)   # breath frame -> ms; here frame index == breath
    for (f, s), (_, s_next) in zip(seen[start:start + 10], seen[start + 1:start + 11]):
        held = (s_next - s) * STEP_MS
        check(abs(held - durations[f]) <= STEP_MS + 1, f"frame {f} held {held:.0f} ms, the file says {durations[f]}")
    color = shirt("blue")
    check(color[2] > color[0] + 60, f"the shirt is not blue at {PROBE}: {color}")


def rewrite_shows_new_pixels():
    m = host.mark()
    aw.write(hero, aw.hero_bytes(colors=RED))
    r = host.wait_ev("asset_reload", timeout=15, since=m)
    check(r["errors"] == 0, f"reload: {r}")
    for _ in range(3):   # the next screenshots (every 10 steps)
        color = shirt("red")
        if color[0] > color[2] + 60:
            break
    check(color[0] > color[2] + 60, f"the shirt is not red after the save: {color}")


def corrupt_keeps_last_frames():
    good = aw.hero_bytes(colors=RED)
    m = host.mark()
    aw.write(hero, good[:len(good) // 3])
    err = host.wait_ev("asset_error", timeout=15, since=m)
    check(err["file"].endswith("hero.aseprite") and "truncated" in err["reason"], f"error event: {err}")
    logged = [e for e in host.of("log", m) if e.get("level") == "error" and "hero.aseprite" in e.get("msg", "")]
    check(len(logged) == 1, f"one error line names the file: {logged}")
    n = len(frames())
    host.wait_for(lambda e: len(frames()) >= n + 3, 15, what="frames going on after the bad save")
    color = shirt("still red")
    check(color[0] > color[2] + 60, f"the last good (red) frames are gone: {color}")
    check(host.alive(), "the host died on a truncated file")


def renamed_tag_reported():
    tags = [("breathe", 0, 3, aw.PING_PONG), ("run", 4, 9, aw.FORWARD)]
    m = host.mark()
    aw.write(hero, aw.hero_bytes(colors=RED, tags=tags))
    host.wait_ev("asset_reload", timeout=15, since=m)
    miss = host.wait_ev("anim_missing", timeout=10, since=m)
    check(miss["file"].endswith("hero.aseprite") and miss["tag"] == "idle", f"anim_missing: {miss}")
    steps = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, host.mark(), what="stats")["game"]["steps"]
    host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"]["steps"] > steps + 30, 10, what="steps")
    check(len(host.of("anim_missing", m)) == 1, f"reported more than once: {host.of('anim_missing', m)}")
    color = shirt("the last frame")
    check(color[0] > color[2] + 60, f"no character after the tag went away: {color}")
    m = host.mark()
    aw.write(hero, aw.hero_bytes())
    host.wait_ev("asset_reload", timeout=15, since=m)
    host.wait_for(lambda e: len(frames(m)) >= 3, 15, what="the idle tag playing again")


checks.case("idle_follows_durations", idle_follows_durations)
checks.case("rewrite_shows_new_pixels", rewrite_shows_new_pixels)
checks.case("corrupt_keeps_last_frames", corrupt_keeps_last_frames)
checks.case("renamed_tag_reported", renamed_tag_reported)
checks.case("first_host_alive_to_the_end", lambda: check(host.stop() == 0, "the first host's exit code"))
host = Host(root, "--game", game, "--input", input_script(root, "20 tap SPACE\n", "wave.txt"))


def hitbox_at(since, want, what):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("hitbox") == want, 15, since,
                         what=what)["game"]


def wave_plays_twice_then_idle():
    host.wait_ev("new_code_running", version=1, timeout=30)
    host.wait_for(lambda e: e.get("ev") == "game" and e.get("name") == "wave_over", 30, what="the wave played out")

    def idle_after_wave():
        waves = [f for f in frames() if f["tag"] == "wave"]
        return waves and [f for f in frames() if f["tag"] == "idle" and f["step"] > waves[-1]["step"]]
    host.wait_for(lambda e: idle_after_wave(), 10, what="idle after the wave")
    waves = [f for f in frames() if f["tag"] == "wave"]
    check([f["index"] for f in waves] == [0, 1, 2, 0, 1, 2], f"wave (forward, repeat 2) showed {waves}")
    held = (idle_after_wave()[0]["step"] - waves[-1]["step"]) * STEP_MS
    check(held >= aw.WAVE[-1][1] - STEP_MS - 1, f"the wave's final frame held {held:.0f} ms, the file says "
          f"{aw.WAVE[-1][1]}")
    g = hitbox_at(0, [1, 10, 4, 12, 26], "the idle key of the hitbox slice")
    check(g["waves"] == 1 and g["tag"] == "idle", f"{g}")


def slice_moved_live():
    m = host.mark()
    moved = [(0, 11, 6, 10, 24, (5, 24))] + aw.HITBOX[1:]
    aw.write(hero, aw.hero_bytes(hitbox=moved))
    r = host.wait_ev("asset_reload", timeout=15, since=m)
    check(r["errors"] == 0, f"reload: {r}")
    hitbox_at(m, [1, 11, 6, 10, 24], "the moved hitbox")


def slice_removed_reported():
    m = host.mark()
    aw.write(hero, aw.hero_bytes(hitbox=None))
    host.wait_ev("asset_reload", timeout=15, since=m)
    miss = host.wait_ev("slice_missing", timeout=10, since=m)
    check(miss["file"].endswith("hero.aseprite") and miss["slice"] == "hitbox", f"slice_missing: {miss}")
    hitbox_at(m, [0, 11, 6, 10, 24], "no hitbox (the last one kept in the state, has_hit 0)")
    steps = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, host.mark(), what="stats")["game"]["steps"]
    host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"]["steps"] > steps + 30, 10, what="steps")
    check(len(host.of("slice_missing", m)) == 1, f"said more than once: {host.of('slice_missing', m)}")
    aw.write(hero, aw.hero_bytes())


checks.case("wave_plays_twice_then_idle", wave_plays_twice_then_idle)
checks.case("slice_moved_live", slice_moved_live)
checks.case("slice_removed_reported", slice_removed_reported)
end_run(checks, host, root)
