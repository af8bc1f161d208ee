"""End to end: `./build.sh dist DIR` ships a game folder the way the sample ships (test_dist.py covers the
release itself at length): a game made by `./build.sh new` outside the project becomes
dist/<its name>-linux-x86_64/ (the executable named after the folder, game.pak, README.txt) and its .tar.gz;
its README is a player's README naming the game (none of NEON SWARM's text), and its game.pak holds that game's
own sprite and sound and nothing of NEON SWARM's (no engine sprite or sound the game never names); a README.txt
in the game's folder ships in its place; unpacked elsewhere, with the project moved away, it runs headless and
draws its sprite and text. examples/level_tiled ships its Tiled map (the .tmj, not the .tmx source) and its tileset
PNG in the atlas, and its release reads the level from the archive and draws its bricks (no checker)."""
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

from hostlib import ROOT, Checks, check, cleanup, project_copy, read_png

checks = Checks()
work = tempfile.mkdtemp(prefix="engine-dist-folder-")
root = project_copy(with_library=False)
for d in ("platform", "docs"):
    shutil.copytree(os.path.join(ROOT, d), os.path.join(root, d), dirs_exist_ok=True)   # platform/include is there
game = os.path.join(work, "mine", "hello")
NAME = "hello-linux-x86_64"
state = {}


def ships():
    os.makedirs(os.path.dirname(game))
    r = subprocess.run([os.path.join(root, "build.sh"), "new", game], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 0, f"new: {r.stdout}")
    r = subprocess.run([os.path.join(root, "build.sh"), "dist", game], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=1500)
    check(r.returncode == 0, f"./build.sh dist {game} failed ({r.returncode}):\n{r.stdout[-3000:]}")
    folder = os.path.join(root, "dist", NAME)
    check(sorted(os.listdir(folder)) == ["README.txt", "game.pak", "hello"], f"the folder holds {os.listdir(folder)}")
    tgz = os.path.join(root, "dist", NAME + ".tar.gz")
    check(os.path.isfile(tgz), "no .tar.gz")
    check(not os.path.exists(os.path.join(root, "dist", "neon-swarm-linux-x86_64")), "the sample was shipped instead")
    readme = open(os.path.join(folder, "README.txt")).read()
    check("hello" in readme and "neon-swarm" not in readme, "README.txt does not name the game")
    for sample_text in ("NEON", "drones", "autopilot", "bomb", "@"):
        check(sample_text not in readme, f"README.txt says {sample_text!r}: it is not this game's:\n{readme}")
    pak = os.path.join(folder, "game.pak")
    r = subprocess.run([os.path.join(root, "build", "tools", "pack_assets"), "--list", pak], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 0, f"pack_assets --list: {r.stdout}")
    names = sorted(set(re.findall(r"(?:atlas|fonts|sounds)/\S+", r.stdout)))
    check(names == ["atlas/atlas.txt", "atlas/atlas_0.png", "fonts/default.thfb", "sounds/bounce.pcm"], f"game.pak holds {names}")
    data = open(pak, "rb").read()
    for engine in ("player/", "enemy/", "bullet/", "pickup/", "wall/", "fx/", "ui/", "music/"):
        check(engine.encode() not in data, f"game.pak names NEON SWARM's {engine}")
    check(b"ship.png" in data, "game.pak's atlas has no ship.png")
    state["tgz"] = tgz


def own_readme_ships():
    with open(os.path.join(game, "README.txt"), "w") as f:
        f.write("HELLO\n=====\nBounce.\n@linux Linux: ./@GAME@\n@windows Windows: @GAME@.exe\n")
    r = subprocess.run([os.path.join(root, "build.sh"), "dist", game], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=1500)
    check(r.returncode == 0, f"./build.sh dist {game} failed ({r.returncode}):\n{r.stdout[-3000:]}")
    readme = open(os.path.join(root, "dist", NAME, "README.txt")).read()
    check(readme == "HELLO\n=====\nBounce.\nLinux: ./hello\n", f"README.txt: {readme!r}")
    os.remove(os.path.join(game, "README.txt"))


def runs_unpacked_elsewhere():
    moved = root + "-moved"
    os.rename(root, moved)   # a path into the project or the game's folder leads nowhere now
    os.rename(os.path.dirname(game), os.path.dirname(game) + "-moved")
    try:
        play = os.path.join(work, "play")
        os.makedirs(play)
        with tarfile.open(moved + "/dist/" + NAME + ".tar.gz") as t:
            t.extractall(play)
        shot = os.path.join(work, "shot.png")
        r = subprocess.run([os.path.join(play, NAME, "hello"), "--headless", "--frames", "90", "--screenshot", f"80:{shot}",
                            "--save-dir", os.path.join(work, "save")], cwd=work, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        check(r.returncode == 0, f"the release exited {r.returncode}:\n{r.stdout[-2000:]}")
        w, h, rows = read_png(shot)
        cyan = sum(1 for y in range(0, h, 2) for x in range(0, w, 2) if rows[y][x][2] > 180 and rows[y][x][0] < 160)
        text = sum(1 for y in range(10, 50) for x in range(10, 400) if min(rows[y][x][:3]) > 200)
        magenta = sum(1 for y in range(0, h, 4) for x in range(0, w, 4) if rows[y][x][:3] == (255, 0, 255))
        check(cyan > 20 and text > 50 and magenta < 5, f"the ship ({cyan}), the text ({text}), placeholders ({magenta})")
        # a player's save data: the user's data folder under the game's title (not a development run's dev/)
        xdg = os.path.join(work, "xdg")
        r = subprocess.run([os.path.join(play, NAME, "hello"), "--headless", "--fast", "--frames", "400"], cwd=work,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
                           env=dict(os.environ, XDG_DATA_HOME=xdg))
        check(r.returncode == 0, f"the release exited {r.returncode}:\n{r.stdout[-2000:]}")
        check(os.path.isfile(os.path.join(xdg, "hello", "best.sav")), f"no hello/best.sav in the data folder: {list(os.walk(xdg))}")
    finally:
        os.rename(moved, root)
        os.rename(os.path.dirname(game) + "-moved", os.path.dirname(game))


def tiled_level_ships():
    src = os.path.join(work, "mine", "level_tiled")
    shutil.copytree(os.path.join(ROOT, "examples", "level_tiled"), src)
    r = subprocess.run([os.path.join(root, "build.sh"), "dist", src], cwd=work, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=1500)
    check(r.returncode == 0, f"./build.sh dist {src} failed ({r.returncode}):\n{r.stdout[-3000:]}")
    folder = os.path.join(root, "dist", "level_tiled-linux-x86_64")
    pak = os.path.join(folder, "game.pak")
    r = subprocess.run([os.path.join(root, "build", "tools", "pack_assets"), "--list", pak], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 0, f"pack_assets --list: {r.stdout}")
    maps = sorted(set(re.findall(r"maps/\S+", r.stdout)))
    check(maps == ["maps/level1.tmj"], f"game.pak's maps: {maps}")
    check(b"tiles.png" in open(pak, "rb").read(), "game.pak's atlas has no tiles.png (the tileset)")
    shot, log = os.path.join(work, "level.png"), os.path.join(work, "level.jsonl")
    r = subprocess.run([os.path.join(folder, "level_tiled"), "--headless", "--frames", "40", "--screenshot", f"30:{shot}",
                        "--log-json", log, "--save-dir", os.path.join(work, "save-level")], cwd=work,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    check(r.returncode == 0, f"the release exited {r.returncode}:\n{r.stdout[-2000:]}")
    events = [json.loads(l) for l in open(log) if l.strip()]
    loaded = [e for e in events if e.get("ev") == "map_loaded"]
    errors = [e for e in events if e.get("ev") == "asset_error"]
    check(len(loaded) == 1 and loaded[0]["file"] == "maps/level1.tmj" and not errors, f"map_loaded {loaded}, errors {errors}")
    quit_ev = [e for e in events if e.get("ev") == "quit"]
    check(quit_ev and quit_ev[-1]["game"]["solids"] > 0 and quit_ev[-1]["game"]["pickups"] >= 10, f"stats: {quit_ev}")
    w, h, rows = read_png(shot)
    brick = sum(1 for y in range(0, h, 4) for x in range(0, w, 4) if rows[y][x][0] > rows[y][x][2] + 80)
    magenta = sum(1 for y in range(0, h, 4) for x in range(0, w, 4) if rows[y][x][:3] == (255, 0, 255))
    check(brick > 500 and magenta < 5, f"the walls' bricks ({brick}), the checker ({magenta})")


checks.case("ships", ships)
if "tgz" in state:
    checks.case("runs_unpacked_elsewhere", runs_unpacked_elsewhere)
    checks.case("own_readme_ships", own_readme_ships)
checks.case("tiled_level_ships", tiled_level_ships)
if not checks.failed:
    cleanup(root)
    cleanup(work)
checks.finish()
