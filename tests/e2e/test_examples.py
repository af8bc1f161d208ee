"""test_examples.py - every game in examples/ builds, runs headless and draws what its reference shows.

For each examples/<name>/: ./build.sh game examples/<name>, then the host runs it headless for a fixed
number of steps (--fast: one step a frame, so nothing depends on the clock) with a scripted input, and the
screenshot of the last frame is compared with examples/<name>/screenshot.png by pixels.

The comparison: both images are halved (2x2 box average; the reference is stored at that size, which is
also the README's thumbnail), then a pixel differs when any channel is off by more than CHANNEL_TOLERANCE;
the example fails when more than PIXEL_TOLERANCE of the pixels differ. That absorbs the few anti-aliased
edges a different compiler's float rounding may move, and nothing a reader would see: a shape moved by a
few pixels, a changed colour or a missing line of text fails. On a failure the halved screenshot and a
difference image are left in build/tests/examples/.

EXAMPLES_UPDATE=1 writes the references instead (look at each before committing it).
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(__file__))
import shutil  # noqa: E402
from hostlib import HOST, ROOT, Checks, Host, check, cleanup, edit, project_copy  # noqa: E402

CHANNEL_TOLERANCE = 32      # of 255, per channel, after halving
PIXEL_TOLERANCE = 0.001     # fraction of the halved image's pixels allowed past it (230 of 640x360)
MAX_LINES = 250             # state.h + game.cpp (+ game.h): small enough to read in one sitting
UPDATE = os.environ.get("EXAMPLES_UPDATE") == "1"
OUT = os.path.join(ROOT, "build", "tests", "examples")

# Per example: the frame shot, and the scripted input that brings it to a telling picture ("<step> verb ...").
SCENES = {
    "sprites_batch": (30, ""),
    # fire while moving right then left; F8 at frame 140 pauses on the timeline, V replays every kept step: the bar
    "debug_timeline": (150, "1 down SPACE\n2 down RIGHT\n50 up RIGHT\n60 down LEFT\n130 up LEFT\n@140 tap F8\n@142 tap V\n"),
    "text_fonts": (90, "1 tap TAB\n"),
    "collision_shapes": (40, "1 mouse 560 300\n2 down MOUSE_LEFT\n4 mouse 570 360\n6 mouse 585 400\n8 up MOUSE_LEFT\n"
                             "9 mouse 1060 250\n10 down MOUSE_LEFT\n12 mouse 1000 330\n14 mouse 990 365\n16 up MOUSE_LEFT\n"
                             "17 tap F2\n18 mouse 1200 650\n"),
    "collision_raycast_toi": (30, ""),
    # F7 at step 3 starts a loop, F7 at 24 replays it: the shot shows the replay (step counter about 3 + 12)
    "input_gamepad": (36, "1 mouse 900 600\n2 down D\n2 down W\n12 up W\n2 axis RX 0.7\n2 axis RY -0.5\n2 axis LT 0.6\n"
                          "3 tap F7\n5 down MOUSE_LEFT\n5 down PAD_A\n5 down SPACE\n24 tap F7\n"),
    "sound_mixer": (120, "5 tap 1\n8 down LEFT\n30 up LEFT\n32 tap 2\n34 down UP\n52 up UP\n54 tap 4\n60 down RIGHT\n100 up RIGHT\n"
                        "102 tap 5\n70 tap X\n71 tap C\n72 tap C\n"),
    "tweak_live": (60, ""),
    # two runs on one save folder: the first plays three rounds and saves, the second reads the table back
    "savedata_highscore": (40, "25 tap SPACE\n"),
    # E held for 30 steps zooms in: the shot is at about 2.4x, and the zoom is eased there (th_damp)
    "camera_zoom": (60, "2 down W\n2 down A\n10 down E\n40 up W\n40 up A\n40 up E\n"),
    # idle for 40 steps, then RIGHT held: the shot is a run frame, the character moved right
    "sprites_aseprite": (60, "40 down RIGHT\n"),
    "level_tiled": (260, "5 down DOWN\n85 up DOWN\n85 down RIGHT\n"),
}
# Per example: what its gallery row promises, read from the game's stats in the host's last event (quit), so a
# picture that still matches cannot hide a feature that stopped working: (check of the stats, what it means).
PROMISES = {
    "camera_zoom": (lambda g: g.get("zoom", 0) > 2.0, "E held for half a second zooms in past 2x (START_ZOOM 1.5)"),
    "sprites_batch": (lambda g: g.get("sprites", 0) >= 1000, "thousands of sprites"),
    "debug_timeline": (lambda g: g.get("shots", 0) >= 10 and g.get("hits", 0) >= 1 and g.get("score", 0) > 0,
                       "Space fired, a shot hit a ball and scored"),
    "sprites_aseprite": (lambda g: g.get("tag") == "run" and g.get("frame_changes", 0) >= 5,
                         "the idle tag played, then RIGHT switched to run and its frames advanced"),
    "level_tiled": (lambda g: g.get("solids", 0) > 0 and g.get("pickups", 0) >= 10 and g.get("cam_x", 0) > 100
                    and 0 < g.get("tiles_drawn", 0) < 3000,
                    "the map's walls and pickups read, the camera scrolled with the player, the tiles culled to the view"),
    "savedata_highscore": (lambda g: g.get("loaded") == 1 and g.get("entries", 0) >= 3,
                           "the second run reads back the table the first run's three rounds saved"),
}
FIRST_RUNS = {"savedata_highscore": (150, "20 tap SPACE\n70 tap SPACE\n130 tap SPACE\n")}


# ---------------------------------------------------------------- PNG in and out (8-bit RGB/RGBA, what the host writes)
def png_read(path):
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body[:13])
            check(depth == 8 and ctype in (2, 6) and not interlace, f"{path}: not an 8-bit RGB/RGBA PNG")
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ft:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                c = prev[i - bpp] if i >= bpp else 0
                b = prev[i]
                if ft == 1:
                    line[i] = (line[i] + a) & 255
                elif ft == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif ft == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp == 4:
            del line[3::4]
        out += line
    return w, h, out   # RGB, row after row


def png_write(path, w, h, rgb):
    rows = b"".join(b"\x00" + bytes(rgb[y * w * 3:(y + 1) * w * 3]) for y in range(h))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def halve(w, h, rgb):
    hw, hh = w // 2, h // 2
    out = bytearray(hw * hh * 3)
    for y in range(hh):
        r0, r1 = rgb[2 * y * w * 3:(2 * y + 1) * w * 3], rgb[(2 * y + 1) * w * 3:(2 * y + 2) * w * 3]
        o = y * hw * 3
        for c in range(3):
            a, b, d, e = r0[c::6], r0[c + 3::6], r1[c::6], r1[c + 3::6]
            out[o + c:o + hw * 3:3] = bytes((p + q + s + t + 2) >> 2 for p, q, s, t in zip(a, b, d, e))
    return hw, hh, out


def compare(w, h, got, want):
    """The fraction of pixels past CHANNEL_TOLERANCE, and a difference image (red where they differ)."""
    diff = bytearray(len(got))
    bad = 0
    for i in range(0, len(got), 3):
        if max(abs(got[i] - want[i]), abs(got[i + 1] - want[i + 1]), abs(got[i + 2] - want[i + 2])) > CHANNEL_TOLERANCE:
            bad += 1
            diff[i] = 255
        else:
            diff[i] = diff[i + 1] = diff[i + 2] = got[i] // 4
    return bad / (w * h), diff


# ---------------------------------------------------------------- running an example
def run_example(name, tmp, frames, script, save_dir, promise=True):
    script_path = os.path.join(tmp, name + ".input")
    with open(script_path, "w") as f:
        f.write(script)
    shot = os.path.join(tmp, name + ".png")
    log = os.path.join(tmp, name + ".log")
    cmd = [HOST, "--root", ROOT, "--game", os.path.join("examples", name), "--headless", "--fast", "--no-watch",
           "--frames", str(frames + 1), "--screenshot", f"{frames}:{shot}", "--input", script_path,
           "--save-dir", save_dir, "--log-file", log, "--log-json", os.path.join(tmp, name + ".jsonl")]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    check(r.returncode == 0, f"{name}: host exit code {r.returncode}: {r.stdout[-2000:]}")
    with open(log, errors="replace") as f:
        problems = [l.strip() for l in f if " warn " in l or " error " in l]
    check(not problems, f"{name}: the host complained: {problems[:5]}")
    check(os.path.exists(shot), f"{name}: no screenshot of frame {frames}")
    if promise and name in PROMISES:
        with open(os.path.join(tmp, name + ".jsonl")) as f:
            quit_ev = [e for e in map(json.loads, filter(str.strip, f)) if e.get("ev") == "quit"]
        check(quit_ev, f"{name}: no quit event in the log")
        ok, what = PROMISES[name]
        check(ok(quit_ev[-1]["game"]), f"{name}: {what}: the game's stats at the end are {quit_ev[-1]['game']}")
    return shot


def example_case(name, tmp):
    def run():
        folder = os.path.join(ROOT, "examples", name)
        lines = sum(sum(1 for _ in open(os.path.join(folder, f))) for f in ("state.h", "game.cpp", "game.h")
                    if os.path.exists(os.path.join(folder, f)))
        check(lines <= MAX_LINES, f"{name}: {lines} lines of code (at most {MAX_LINES}: an example is read in one sitting)")
        b = subprocess.run(["./build.sh", "game", os.path.join("examples", name)], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        check(b.returncode == 0, f"{name}: ./build.sh game failed:\n{b.stdout[-3000:]}")
        warnings = [l for l in b.stdout.splitlines() if "warning:" in l]
        check(not warnings, f"{name}: compiler warnings: {warnings[:3]}")
        check(name in SCENES, f"{name}: no scene in test_examples.py's SCENES (frame and input to shoot)")
        save_dir = os.path.join(tmp, name + "-save")
        os.makedirs(save_dir)
        if name in FIRST_RUNS:   # a run before the one shot, on the same save folder (its files in their own folder)
            os.makedirs(os.path.join(tmp, "first"), exist_ok=True)
            run_example(name, os.path.join(tmp, "first"), *FIRST_RUNS[name], save_dir, promise=False)
        frames, script = SCENES[name]
        shot = run_example(name, tmp, frames, script, save_dir)
        w, h, rgb = halve(*png_read(shot))
        ref = os.path.join(folder, "screenshot.png")
        os.makedirs(OUT, exist_ok=True)
        if UPDATE:
            png_write(ref, w, h, rgb)
            print(f"        wrote {os.path.relpath(ref, ROOT)} ({w}x{h})", flush=True)
            return
        check(os.path.exists(ref), f"{name}: no reference {os.path.relpath(ref, ROOT)} (EXAMPLES_UPDATE=1 writes it)")
        rw, rh, want = png_read(ref)
        check((rw, rh) == (w, h), f"{name}: the screenshot is {w}x{h} halved, the reference {rw}x{rh}")
        frac, diff = compare(w, h, rgb, want)
        if frac > PIXEL_TOLERANCE:
            png_write(os.path.join(OUT, name + ".png"), w, h, rgb)
            png_write(os.path.join(OUT, name + ".diff.png"), w, h, diff)
        print(f"        {name}: {frac * 100:.3f} % of the pixels differ", flush=True)
        check(frac <= PIXEL_TOLERANCE, f"{name}: {frac * 100:.2f} % of the pixels differ from the reference (at most "
                                       f"{PIXEL_TOLERANCE * 100:.1f} %); see build/tests/examples/{name}.png and .diff.png")
    return run


def live_edit_case():
    """An example is edited while it runs, on a copy of the project: a TWEAK literal applies with no build,
    a code edit reloads with the state kept, a state.h edit migrates it (steps and balls carried over)."""
    root, host = project_copy(), None
    try:
        shutil.copytree(os.path.join(ROOT, "examples", "tweak_live"), os.path.join(root, "examples", "tweak_live"))
        game = os.path.join(root, "examples", "tweak_live")
        b = subprocess.run(["./build.sh", "game", game], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=300)
        check(b.returncode == 0, f"./build.sh game failed:\n{b.stdout[-3000:]}")
        host = Host(root, "--game", game)
        stats = lambda m, pred, what: host.wait_for(lambda e: e.get("ev") == "frame_stats" and pred(e.get("game", {})),
                                                    60, m, what=what)["game"]
        before = stats(0, lambda g: g.get("steps", 0) > 60 and g.get("radius") == 18, "the balls running at radius 18")
        m = host.mark()
        edit(os.path.join(game, "game.cpp"), "RADIUS = TWEAK(18.0f)", "RADIUS = TWEAK(30.0f)")
        stats(m, lambda g: g.get("radius") == 30, "radius 30 after the TWEAK edit")
        check(not host.of("build_start", m), "a TWEAK edit started a build")
        m = host.mark()
        edit(os.path.join(game, "game.cpp"), "th_rng_range(&gs->rng, 300, 700)", "th_rng_range(&gs->rng, 300, 900)")
        r = host.wait_ev("reload", timeout=90, since=m)
        check(r["state"] == "kept", f"a code edit: {r}")
        after = stats(host.mark(), lambda g: g.get("radius") == 30, "the reloaded game")
        check(after["steps"] > before["steps"], f"steps went from {before['steps']} to {after['steps']}: the state restarted")
        m = host.mark()
        edit(os.path.join(game, "state.h"), "    int32_t  spawned;", "    int32_t  spawned;\n    float    wobble = 1.0f;")
        mg = host.wait_ev("migrated", timeout=90, since=m)
        check(mg["after"].get("balls") == mg["before"].get("balls") and mg["after"].get("steps") == mg["before"].get("steps"),
              f"a state.h edit: {mg}")
    finally:
        rc = host.stop() if host else 0
        cleanup(root)
    check(rc == 0, f"host exit code {rc}")


def editor_case():
    """Each example parses in an editor: compile_commands.json (./build.sh build writes it) has an entry for its
    game.cpp naming its own folder, and clangd --check finds no error (with a neighbour's flags, game_engine.h's
    #include "state.h" would find the neighbour's state.h)."""
    import json
    import re
    from concurrent.futures import ThreadPoolExecutor
    with open(os.path.join(ROOT, "compile_commands.json")) as f:
        db = {os.path.relpath(e["file"], ROOT): e["arguments"] for e in json.load(f)}
    for name in NAMES:
        args = db.get(os.path.join("examples", name, "game.cpp"))
        check(args, f"compile_commands.json has no entry for examples/{name}/game.cpp")
        check("-I" + os.path.join("examples", name) in args, f"examples/{name}/game.cpp's entry: {args}")
    if not shutil.which("clangd"):
        return   # test_clangd_check.py says clangd is missing
    def clangd(name):
        f = os.path.join(ROOT, "examples", name, "game.cpp")
        p = subprocess.run(["clangd", f"--compile-commands-dir={ROOT}", f"--check={f}", "--check-lines=1"],
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
        errors = [l for l in p.stderr.splitlines() if re.match(r"E\[[\d:.]+\] \[", l)]
        return name, "All checks completed, 0 errors" in p.stderr and not errors, errors[:3]
    with ThreadPoolExecutor(max_workers=2) as pool:
        bad = [f"{n}: {e}" for n, ok, e in pool.map(clangd, NAMES) if not ok]
    check(not bad, "clangd errors: " + "; ".join(bad))


def readme_case():
    with open(os.path.join(ROOT, "examples", "README.md")) as f:
        text = f.read()
    for name in NAMES:
        check(f"./build.sh run examples/{name}" in text, f"examples/README.md does not show how to run {name}")
        check(f"{name}/screenshot.png" in text, f"examples/README.md does not show {name}'s screenshot")


NAMES = sorted(d for d in os.listdir(os.path.join(ROOT, "examples"))
               if os.path.isfile(os.path.join(ROOT, "examples", d, "game.cpp")))

if __name__ == "__main__":
    checks = Checks()
    tmp = tempfile.mkdtemp(prefix="engine-examples-")
    checks.case("at_least_8_examples", lambda: check(len(NAMES) >= 8, f"examples/ holds {len(NAMES)} games: {NAMES}"))
    only = os.environ.get("EXAMPLES_ONLY")
    for name in NAMES:
        if not only or name in only.split(","):
            checks.case(f"example_{name}", example_case(name, tmp))
    checks.case("readme_lists_every_example", readme_case)
    if not only or "editor" in only:
        checks.case("examples_parse_in_an_editor", editor_case)
    if not only or "live" in only:
        checks.case("live_edit_tweak_live", live_edit_case)
    if not checks.failed:
        cleanup(tmp)
    checks.finish()
