"""End to end: a game in its own CMake project, outside the engine's folder, as docs/game_api.md shows it
("From your own CMake project"): its CMakeLists.txt includes the engine with add_subdirectory and declares the
game with engine_game(NAME DIR). Configured with Ninja and built with `cmake --build`, the build makes the host
and the tools (into the engine's build/, where the host finds its tools) and the game's library (the engine's
game build, into build/games/<name>-<hash>/), and none of the engine's own games or tests. The host then runs
the game headless from that library, and a second `cmake --build` with nothing changed builds nothing.
"""
import os
import shutil
import subprocess
import tempfile

from hostlib import ROOT, Checks, check, cleanup, project_copy

checks = Checks()
engine = project_copy(with_library=False)
outer = tempfile.mkdtemp(prefix="engine-outer-")
build = os.path.join(outer, "out")
CMAKELISTS = """cmake_minimum_required(VERSION 3.25)
project(rocks LANGUAGES C CXX)
add_subdirectory("{engine}" engine)
engine_game(rocks rocks)
"""
# the compiler cache may hand this build the checkout's host objects (their debug info names the checkout's
# folder, which holds the same text); the game is new, it compiles
env = dict(os.environ, CCACHE_NOHASHDIR="1", CCACHE_BASEDIR=engine)
env.pop("ENGINE_HOST", None)


def run(cmd, timeout=1800, cwd=outer):
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)


def configure_and_build():
    p = run(["bash", os.path.join(ROOT, "build.sh"), "new", os.path.join(outer, "rocks")])
    check(p.returncode == 0, f"build.sh new failed:\n{p.stdout[-2000:]}")
    with open(os.path.join(outer, "CMakeLists.txt"), "w") as f:
        f.write(CMAKELISTS.format(engine=engine))
    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
    p = run(["cmake", "-G", "Ninja", "-S", outer, "-B", build] + launcher)
    check(p.returncode == 0, f"configure failed:\n{p.stdout[-3000:]}")
    p = run(["cmake", "--build", build])
    check(p.returncode == 0, f"build failed:\n{p.stdout[-3000:]}")
    configure_and_build.out = p.stdout


def what_was_built():
    check(os.access(os.path.join(engine, "build", "host"), os.X_OK), "no host in the engine's build/")
    for tool in ("font_bake", "atlas_pack", "sound_decode", "make_sfx"):
        check(os.access(os.path.join(engine, "build", "tools", tool), os.X_OK), f"no build/tools/{tool}")
    games = [d for d in os.listdir(os.path.join(engine, "build", "games")) if d.startswith("rocks-")]
    check(len(games) == 1, f"game builds: {games}")
    lib = os.path.join(engine, "build", "games", games[0], "libgame.so")
    check(os.path.exists(lib), f"no {lib}")
    check(not os.path.exists(os.path.join(engine, "build", "game", "libgame.so")), "the sample game was built too")
    p = run(["ninja", "-C", build, "-t", "targets", "all"])
    names = p.stdout
    check("run_rocks:" in names and "rocks:" in names, "no rocks / run_rocks targets")
    check("unit_normal_" not in names and "game_camera_zoom" not in names, "the engine's tests or examples are targets")


def host_runs_it():
    game = os.path.join(outer, "rocks")
    p = run([os.path.join(engine, "build", "host"), "--root", engine, "--game", game, "--headless", "--frames", "60",
             "--save-dir", os.path.join(outer, "save")], timeout=300)
    check(p.returncode == 0, f"host exit {p.returncode}:\n{p.stdout[-2000:]}")
    check("version 1 loaded" in p.stdout, f"the game did not load:\n{p.stdout[-2000:]}")


def second_build_is_a_no_op():
    p = run(["cmake", "--build", build])
    check(p.returncode == 0, f"second build failed:\n{p.stdout[-2000:]}")
    check("Building" not in p.stdout and "Linking" not in p.stdout, f"the second build compiled:\n{p.stdout[-2000:]}")
    check("game: up to date" in p.stdout or "compile 0 ms" in p.stdout, f"the game build did work:\n{p.stdout[-2000:]}")


checks.case("configure_and_build", configure_and_build)
if checks.failed:
    checks.finish()
checks.case("what_was_built", what_was_built)
checks.case("host_runs_it", host_runs_it)
checks.case("second_build_is_a_no_op", second_build_is_a_no_op)
if not checks.failed:
    cleanup(engine)
    shutil.rmtree(outer, ignore_errors=True)
checks.finish()
