"""End to end: a game of one's own, outside the engine's folder (docs/game_api.md, "The game folder").

`./build.sh new hello`, typed in a folder of the author's, makes hello/ from the template, with its own sprite and
sound in hello/assets/ (and the empty sounds/ and fonts/ folders); `build.sh game
hello` (a path relative to where it was typed) builds it into build/games/hello-<hash>/, not build/game/;
the host runs it with --game: the template's sprite moves, its own sprite and sound load from hello/assets/
(edited while it runs, each reloads; a sprite named like one of the engine's wins, and the host says so once), it
saves its best score, a TWEAK literal
changes without a build, a code edit reloads with the state kept, a second .cpp added while it runs is one
build (not one more for each chunk file that build writes), a BUILD FAILED box leaves the template's HUD line
readable (the template's set_safe_area), and a second folder of the same name
elsewhere gets a build folder of its own. No check depends on the temporary folders' names.
"""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import time

from hostlib import HOST, Checks, Host, check, cleanup, edit, input_script, project_copy, read_png

checks = Checks()
root = project_copy(with_library=False)
mine = tempfile.mkdtemp(prefix="engine-mine-")      # the author's own folder, outside the project
game = os.path.join(mine, "hello")
game_cpp = os.path.join(game, "game.cpp")
state = {}


def sh(*args, cwd=None, timeout=600):
    return subprocess.run([os.path.join(root, "build.sh"), *args], cwd=cwd or root, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)


def build_folders():
    return sorted(os.path.basename(d) for d in glob.glob(os.path.join(root, "build", "games", "*")))


def new_makes_a_game():
    r = sh("new", "hello", cwd=mine)
    check(r.returncode == 0, f"./build.sh new failed ({r.returncode}):\n{r.stdout}")
    check(sorted(os.listdir(game)) == ["assets", "game.cpp", "state.h"], f"hello/ holds {os.listdir(game)}")
    check(sorted(os.listdir(os.path.join(game, "assets"))) == ["fonts", "sfx", "sounds", "sprites"],
          f"hello/assets/ holds {os.listdir(os.path.join(game, 'assets'))}")
    for f in ("sprites/ship.png", "sfx/bounce.sfx"):
        check(os.path.isfile(os.path.join(game, "assets", f)), f"no hello/assets/{f}")
    text = open(game_cpp).read()
    for what in ("draw_sprite", "draw_text", "sound_play", "TWEAK(", "pf->save(", "pf->load("):
        check(what in text, f"the template's game.cpp has no {what}")
    check("@NAME@" not in text and "hello" in text, "the template's @NAME@ was not filled in")
    again = sh("new", "hello", cwd=mine)
    check(again.returncode != 0 and "not empty" in again.stdout, f"a second new over hello/ was not refused: {again.stdout}")


def builds_outside_the_project():
    r = sh("game", "hello", cwd=mine)
    check(r.returncode == 0, f"./build.sh game hello failed ({r.returncode}):\n{r.stdout}")
    folders = build_folders()
    check(len(folders) == 1 and re.fullmatch(r"hello-[0-9a-f]{8}", folders[0]), f"build/games/ holds {folders}")
    out = os.path.join(root, "build", "games", folders[0])
    for f in ("libgame.so", "libgame.so.link", "compile.cmd", "state_types.inc", "layout.stamp"):
        check(os.path.isfile(os.path.join(out, f)), f"no {f} in the game's build folder")
    check(not os.path.exists(os.path.join(root, "build", "game", "libgame.so")), "the sample's library was built too")
    state["out"] = out


def stats(since, pred, what, timeout=60):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and pred(e.get("game", {})), timeout, since, what=what)


def runs_moves_and_saves():
    host.wait_ev("reload", timeout=30)
    a = stats(0, lambda g: "x" in g, "the template's stats")
    b = stats(host.mark(), lambda g: g.get("x") != a["game"]["x"], "the ship moving")
    check(b["game"]["x"] != a["game"]["x"], "the ship does not move")
    s = host.wait_for(lambda e: e.get("ev") == "save" and e.get("name") == "best", 60, 0, what="the best score saved")
    check(s["ok"] is True and os.path.isfile(os.path.join(root, "save", "best.sav")), f"save: {s}")
    check(host.mapped(os.path.join(state["out"], "loaded")), "the loaded copy is not in the game's build folder")


def own_assets_load():
    """The template's sprite and sound are the folder's own: no asset error, no sprite missing from the atlas, the
    sound "bounce" loaded from hello/assets/sfx/, the atlas in the game's build folder."""
    host.wait_for(lambda e: e.get("ev") == "sound_loaded" and e.get("name") == "bounce", 60, what="the sound bounce loaded")
    loaded = [e for e in host.of("sound_loaded") if e.get("name") == "bounce"]
    check(loaded[0]["file"] == os.path.join(os.path.realpath(game), "assets", "sfx", "bounce.sfx"), f"bounce from {loaded[0]['file']}")
    check(not host.of("asset_error"), f"asset errors: {host.of('asset_error')}")
    warns = [e["msg"] for e in host.of("log") if "placeholder" in e.get("msg", "") or "not in" in e.get("msg", "")]
    check(not warns, f"warnings: {warns}")
    check(os.path.isfile(os.path.join(state["out"], "assets", "atlas.txt")), "no atlas in the game's build folder")
    manifest = open(os.path.join(state["out"], "assets", "atlas.txt")).read()
    check("ship.png" in manifest and "player/ship.png" in manifest, "the atlas lacks the game's ship or the engine's sprites")


def own_assets_live():
    m = host.mark()
    edit(os.path.join(game, "assets", "sfx", "bounce.sfx"), "freq = 880", "freq = 660")
    r = host.wait_for(lambda e: e.get("ev") == "sound_loaded" and e.get("name") == "bounce", 60, m, what="bounce reloaded")
    check(r["reload"] is True, f"{r}")
    m = host.mark()   # a sprite of the engine's name, in the game's folder: the game's wins, and the host says so once
    os.makedirs(os.path.join(game, "assets", "sprites", "player"))
    shutil.copy(os.path.join(game, "assets", "sprites", "ship.png"), os.path.join(game, "assets", "sprites", "player", "ship.png"))
    host.wait_for(lambda e: e.get("ev") == "asset_reload" and "player" in e.get("file", ""), 60, m, what="the atlas reloaded")
    overrides = host.of("asset_override", m)
    check(len(overrides) == 1 and overrides[0]["kind"] == "sprite" and overrides[0]["name"] == "player/ship",
          f"overrides said: {overrides}")
    m2 = host.mark()
    shutil.copy(os.path.join(game, "assets", "sprites", "ship.png"), os.path.join(game, "assets", "sprites", "player", "ship.png"))
    host.wait_for(lambda e: e.get("ev") == "asset_reload", 60, m2, what="the atlas reloaded again")
    check(not host.of("asset_override", m2), "the override was said twice")
    check(not host.of("asset_error"), f"asset errors: {host.of('asset_error')}")


def tweak_is_live():
    m = host.mark()
    edit(game_cpp, "SPEED = TWEAK(1.0f)", "SPEED = TWEAK(0.0f)")
    applied = host.wait_ev("tweak_applied", timeout=15, since=m)
    check(applied["value"] == 0, f"tweak: {applied}")
    m2 = host.mark()
    a = stats(m2, lambda g: "x" in g, "stats after the tweak")
    b = stats(host.mark(), lambda g: True, "more stats")
    check(a["game"]["x"] == b["game"]["x"], f"the ship still moves at SPEED 0: {a['game']} -> {b['game']}")
    check(not host.of("build_start", m), "a TWEAK edit started a build")
    state["steps"] = b["step"]


def code_edit_reloads():
    m = host.mark()
    edit(game_cpp, "v2_scale(gs->vel, dt * SPEED)", "v2_scale(gs->vel, dt * 2.0f)")
    r = host.next_reload(m, 240)
    check(r["state"] == "kept", f"the state was not kept: {r}")
    a = stats(host.mark(), lambda g: "x" in g, "stats after the reload")
    b = stats(host.mark(), lambda g: g.get("x") != a["game"]["x"], "the ship moving again")
    check(b["step"] > state["steps"], "the step counter went back")


def second_file_builds_once():
    m = host.mark()
    with open(os.path.join(game, "extra.cpp"), "w") as f:
        f.write('#include "game_engine.h"\n\nint hello_extra(int x) { return x + 1; }\n')
    r = host.next_reload(m, 240)
    check(r["state"] == "kept", f"the state was not kept: {r}")
    # a build the chunk files it wrote had queued would start as this one ends: two idle frame_stats after the
    # reload are past that point
    after = host.mark()
    for _ in range(2):
        stats(host.mark(), lambda g: True, "frame_stats after the reload")
    idle = host.wait_for(lambda e: e.get("ev") == "frame_stats" and not e.get("building"), 120, after, what="no build running")
    builds = host.of("build_start", m)
    check(len(builds) == 1, f"adding extra.cpp started {len(builds)} builds: {builds}; idle at {idle.get('step')}")


def hud_pixels(path):
    """White pixels of the template's HUD line (16, 16, 24 px text) and the red of a host banner anywhere."""
    w, h, rows = read_png(path)
    hud = sum(1 for y in range(14, 46) for x in range(14, 440) if min(rows[y][x][:3]) > 200)
    red = sum(1 for y in range(h) for x in range(0, w, 2) if rows[y][x][0] > 200 and rows[y][x][1] < 130 and rows[y][x][2] < 130)
    return hud, red


def banners_leave_the_hud_free():
    shots = "".join(f"{20 * i} tap F12\n" for i in range(1, 6000))   # F12 three times a second for 33 min
    h = Host(root, "--game", game, "--input", input_script(root, shots, "shots.txt"))
    original = open(game_cpp).read()
    try:
        h.wait_ev("new_code_running", timeout=60)
        m = h.mark()
        before = h.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok"), 60, m, what="a screenshot")
        m = h.mark()
        with open(game_cpp, "a") as f:
            f.write("\nthis does not compile;\n")
        failed = h.wait_ev("build_end", timeout=240, since=m)
        check(failed["ok"] is False, f"the broken build: {failed}")
        m = h.mark()
        shots_after = [h.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok"), 60, m, what="a screenshot")]
        shots_after.append(h.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok") and e is not shots_after[0], 60,
                                      h.events.index(shots_after[0]) + 1, what="a second screenshot"))
    finally:
        h.stop()
        with open(game_cpp, "w") as f:
            f.write(original)
    hud0, _ = hud_pixels(before["path"])
    hud1, red1 = hud_pixels(shots_after[-1]["path"])
    check(hud0 > 100, f"the HUD line before: {hud0} white pixels")
    check(red1 > 50, f"no BUILD FAILED banner in the screenshot ({red1} red pixels)")
    check(hud1 >= 0.6 * hud0, f"the HUD line under the banner: {hud1} white pixels, {hud0} before ({shots_after[-1]['path']})")


def dev_saves_apart():
    """Without --save-dir: the user's data folder, under the game's title, in dev/ (a release's are beside it)."""
    xdg = os.path.join(mine, "xdg")
    r = subprocess.run([HOST, "--root", root, "--game", game, "--headless", "--fast", "--frames", "400", "--no-watch"], cwd=mine,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300, env=dict(os.environ, XDG_DATA_HOME=xdg))
    check(r.returncode == 0, f"host exited {r.returncode}: {r.stdout[-2000:]}")
    check(os.path.isfile(os.path.join(xdg, "hello", "dev", "best.sav")), f"no hello/dev/best.sav: {list(os.walk(xdg))}")
    check(not os.path.exists(os.path.join(xdg, "hello", "best.sav")), "a development run wrote where a player's saves live")


def same_name_elsewhere():
    other = os.path.join(mine, "elsewhere", "hello")
    os.makedirs(os.path.dirname(other))
    shutil.copytree(game, other)
    r = sh("game", other)
    check(r.returncode == 0, f"./build.sh game of a second hello/ failed:\n{r.stdout}")
    folders = build_folders()
    check(len(folders) == 2 and all(f.startswith("hello-") for f in folders), f"two hello/ folders, build folders {folders}")


def not_a_game_folder():
    empty = os.path.join(mine, "empty")
    os.makedirs(empty)
    r = sh("game", empty)
    check(r.returncode != 0 and "no state.h" in r.stdout, f"a folder without state.h: {r.returncode} {r.stdout}")


checks.case("new_makes_a_game", new_makes_a_game)
checks.case("builds_outside_the_project", builds_outside_the_project)
host = None
if "out" in state:
    host = Host(root, "--game", game)
    checks.case("runs_moves_and_saves", runs_moves_and_saves)
    checks.case("own_assets_load", own_assets_load)
    checks.case("own_assets_live", own_assets_live)
    checks.case("tweak_is_live", tweak_is_live)
    checks.case("code_edit_reloads", code_edit_reloads)
    checks.case("second_file_builds_once", second_file_builds_once)
    rc = host.stop()
    checks.case("host_alive_to_the_end", lambda: check(rc == 0, f"host exit code {rc}"))
    checks.case("banners_leave_the_hud_free", banners_leave_the_hud_free)
checks.case("dev_saves_apart", dev_saves_apart)
checks.case("same_name_elsewhere", same_name_elsewhere)
checks.case("not_a_game_folder", not_a_game_folder)
if checks.failed:
    if host:
        print(host.tail(40))
else:
    cleanup(root)
    cleanup(mine)
checks.finish()
