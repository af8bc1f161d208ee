"""End to end: `./build.sh run` never calls a library "up to date" that was built from other sources.

The case from a live session: ./build.sh builds the game; the host rebuilds the library on a save (which
replaces libgame.so); the session ends and the edit is undone (`git checkout` of the file). The next
./build.sh build must compile again - the library on disk is the edited one - and the game that runs is the
checked-out code. Both builds are one code (platform/live/build.cpp): a chunk's key is what its last compile read,
so the checkout makes it stale whoever compiled it last.
"""
import os
import subprocess

from hostlib import Checks, Host, check, cleanup, edit, project_copy

checks = Checks()
root = project_copy(with_library=False, with_host=True)   # ./build.sh build in the copy compiles only the game
game_cpp = os.path.join(root, "game", "game.cpp")
original = open(game_cpp).read()
MARK = '"\\"consistent\\":%s,'
state = {}


def build():
    r = subprocess.run(["./build.sh", "build"], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    check(r.returncode == 0, f"./build.sh build failed ({r.returncode}):\n{r.stdout[-3000:]}")
    check("CMakeFiles/host.dir/" not in r.stdout, f"the copy's host was rebuilt (the test expects only the game to be):\n{r.stdout[-2000:]}")
    return r.stdout


def game_stats(host):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {}), 60, 0, what="stats")["game"]


def first_build_writes_the_key():
    out = build()
    check("game: compile" in out, f"the first build compiled no game:\n{out[-2000:]}")
    check(os.path.isfile(os.path.join(root, "build", "game", "libgame.so.link")), "no libgame.so.link beside the library")
    again = build()
    check("game: up to date" in again, f"nothing changed, yet the game was built again:\n{again[-2000:]}")


def live_edit_then_checkout_rebuilds():
    host = Host(root)
    try:
        r = host.wait_ev("reload", timeout=30)
        check("edited" not in game_stats(host), "the edit marker is there before the edit")
        m = host.mark()
        edit(game_cpp, MARK, '"\\"edited\\":1,\\"consistent\\":%s,')
        r = host.next_reload(m, 240)
        check(r["state"] == "kept", f"the live edit did not reload: {r}")
        e = host.wait_for(lambda e: e.get("ev") == "frame_stats" and "edited" in e.get("game", {}), 60, m, what="the edited code")
        check(e["game"]["edited"] == 1, "the edited code does not run")
    finally:
        rc = host.stop()
    check(rc == 0, f"host exit code {rc}")
    with open(game_cpp, "w") as f:   # `git checkout game/game.cpp`
        f.write(original)
    out = build()
    check("game: up to date" not in out, "./build.sh calls the library the host built from the edit up to date")
    check("game: compile" in out, f"no game build after the checkout:\n{out[-2000:]}")
    host = Host(root, "--no-watch")
    try:
        g = game_stats(host)
        check("edited" not in g, f"the library that runs is still the edited one: {g}")
    finally:
        rc = host.stop()
    check(rc == 0, f"host exit code {rc}")


checks.case("first_build_writes_the_key", first_build_writes_the_key)
checks.case("live_edit_then_checkout_rebuilds", live_edit_then_checkout_rebuilds)
if not checks.failed:
    cleanup(root)
checks.finish()
