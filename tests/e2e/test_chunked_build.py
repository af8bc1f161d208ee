"""End to end: a save recompiles only the chunks it touched, and the running game stays right.

The host's plan packs the game's files into chunks (platform/live/plan.cpp), each one translation unit with a
cached object keyed by the content of every file its compile read, so the first save in a copy of the project
compiles one chunk. The sample's chunks (at the default
GAME_CHUNK_LINES): bot+enemies, entities, fx, game, sound, ui, waves, world.

The cases, one host: a code save compiles one chunk and the new code runs; a header save compiles every chunk
that includes it (all of them here: on a machine with fewer cores than chunks, as groups of chunks, one per core,
and then the chunks' own objects in the background, with no second reload); the chunks without game_get_api read
game_engine.h precompiled, which a .cpp save leaves alone and a state.h save makes again, once; a literal saved without a build (TWEAK) and then a code save elsewhere rebuilds the literal's
chunk too, so its tweak is not reverted by an object compiled from the old literal; an error in one chunk names
its file and line while the game keeps running, and the fix compiles only that chunk; a new .cpp file changes
the plan, so the host plans again (in process); a header only the new file includes compiles its chunk alone; the
library exports only its entry point (-fvisibility=hidden); a game made by ./build.sh new and split into two files
as docs/game_api.md says runs when each file is its own chunk.
"""
import glob
import os
import subprocess
import time

from hostlib import HOST, Checks, Host, check, edit, end_run, input_script, project_copy

checks = Checks()
root = project_copy()
game = os.path.join(root, "game")
script = input_script(root, "5 tap F10\n")
host = Host(root, "--input", script)


def bullets_at(since, speed, version=None, timeout=60):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e.get("game", {}).get("bullet_speed", 0) - speed) < 1
                         and (version is None or e.get("version") == version), timeout, since,
                         what=f"bullets at {speed} (version {version})")["game"]


def build_of(m):
    """The build a save started: (its build_start, its build_end, the reload after it)."""
    r = host.next_reload(m, 240)
    start = host.wait_ev("build_start", timeout=5, since=m)
    end = host.wait_ev("build_end", timeout=5, since=m)
    return start, end, r


def first_build():
    r = host.wait_ev("reload", timeout=20)
    host.wait_ev("new_code_running", version=r["version"], timeout=20)
    bullets_at(0, 1100)
    # a code save before any build of the copy's: the host plans it (compile.cmd; the cached parts and chunks are
    # keyed by content, so the checkout's hold), in the host, and builds it
    m = host.mark()
    edit(os.path.join(game, "waves.cpp"), "arena_build(gs);", "arena_build(gs);   /* v2 */")
    start, end, r = build_of(m)
    check(start["direct"] is True and start["planned"] is True, f"the copy's first build should plan in the host: {start}")
    check(start["stale"] == 1, f"the checkout's chunk objects should hold in the copy: {start}")
    check(end["ok"] and r["state"] == "kept", f"{end} {r}")


def code_save_compiles_one_chunk():
    m = host.mark()
    edit(os.path.join(game, "entities.cpp"), "b->vel = v2_scale(d, BULLET_SPEED);", "b->vel = v2_scale(d, BULLET_SPEED * 1.5f);")
    start, end, r = build_of(m)
    check(start["direct"] is True, f"a code save should run the cached commands: {start}")
    check(start["chunks"] == 8 and start["stale"] == 1,
          f"one chunk of 8 should compile: {start}")
    compiled = host.of("build_chunk", m)
    check([c["chunk"] for c in compiled] == [1], f"chunk 1 (entities) should be the one compiled: {compiled}")
    bullets_at(m, 1650, version=r["version"])
    # the chunk read game_engine.h precompiled, and a .cpp save does not make that header again
    with open(os.path.join(root, "build", "game", "chunks", "chunk-1.d")) as f:
        check("chunks/engine.h" in f.read(), "entities' chunk should read the precompiled engine header")
    check(not host.of("build_pch", m), f"a .cpp save made the precompiled header again: {host.of('build_pch', m)}")
    # the library the host's build moved into place is not a change for the watcher: no batch of it, which would
    # hold up the next save's (a batch with a library waits for the frame's end)
    time.sleep(0.3)
    own = [e for e in host.of("watch_batch", m) if not e.get("code")]
    check(not own, f"the host's own library came back as a watcher batch: {own}")


def header_save_compiles_its_dependents():
    m = host.mark()
    with open(os.path.join(game, "game.h"), "a") as f:
        f.write("\n/* a comment */\n")
    start, end, r = build_of(m)
    check(start["direct"] is True and start["stale"] == 8, f"every chunk includes game.h: {start}")
    check(end["ok"] and r["state"] == "kept", f"{end} {r}")
    if start["groups"]:   # fewer cores than chunks: one compiler per core, then the chunks' objects behind it
        compile_stage = [e for e in host.of("build_stage", m) if e["stage"] == "compile"]
        check(compile_stage and compile_stage[0]["grouped"] and compile_stage[0]["chunks"] == start["groups"] < 8,
              f"{compile_stage} {start}")
        done = host.wait_ev("build_resplit_end", timeout=120, since=m)
        check(done["ok"], f"{done}")
        resplit = [e["chunk"] for e in host.of("build_chunk", m) if e.get("resplit")]
        check(sorted(resplit) == list(range(8)), f"every chunk's own object, in the background: {resplit}")
        check(len([e for e in host.of("reload", m)]) == 1, "the background compiles reloaded the game")


def state_save_makes_the_precompiled_header_once():
    m = host.mark()
    with open(os.path.join(game, "state.h"), "a") as f:
        f.write("\n/* a comment */\n")
    start, end, r = build_of(m)
    check(end["ok"] and r["state"] == "kept", f"{end} {r}")
    # made again, once: in the save's build, or with the chunks' own objects behind a grouped one
    try:
        made = host.wait_ev("build_pch", timeout=60, since=m)
    except AssertionError:
        print([e for e in host.events[m:] if e["ev"].startswith("build") or e["ev"] in ("reload", "watch_batch")])
        raise
    check(made["ok"], f"{made}")
    if host.of("build_resplit", m):
        host.wait_ev("build_resplit_end", timeout=120, since=m)
    check(len(host.of("build_pch", m)) == 1, f"the header should be made once: {host.of('build_pch', m)}")


def literal_then_code_elsewhere_keeps_the_tweak():
    m = host.mark()
    entities = os.path.join(game, "entities.cpp")
    edit(entities, "BULLET_SPEED        = TWEAK(1100.0f)", "BULLET_SPEED        = TWEAK(1800.0f)")
    host.wait_ev("tweak_applied", timeout=10, since=m)
    bullets_at(m, 2700)   # 1800 * 1.5
    check(not host.of("build_start", m), "a literal save started a build")
    m = host.mark()
    edit(os.path.join(game, "world.cpp"), "world_init(GameState *gs)\n{", "world_init(GameState *gs)\n{\n    (void)0;")
    start, end, r = build_of(m)
    check(start["direct"] is True and start["stale"] == 2,
          f"world's chunk and the chunk whose literal changed since its object should compile: {start}")
    check(sorted(c["chunk"] for c in host.of("build_chunk", m)) == [1, 7], f"{host.of('build_chunk', m)}")
    bullets_at(m, 2700, version=r["version"])


def error_in_one_chunk():
    m = host.mark()
    world = os.path.join(game, "world.cpp")
    edit(world, "    (void)0;", "    (void)0\n")
    end = host.wait_ev("build_end", timeout=60, since=m)
    check(end["ok"] is False, f"{end}")
    errs = end.get("errors", [])
    check(errs and errs[0]["file"].endswith("game/world.cpp") and errs[0]["line"] > 0, f"the error should name world.cpp: {errs}")
    a = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, m)["game"]
    b = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"]["steps"] >= a["steps"] + 30, 10, m)["game"]
    check(b["steps"] > a["steps"] and host.alive(), "the game stopped stepping on a build error")
    m = host.mark()
    edit(world, "    (void)0\n", "    (void)0;")
    start, end, r = build_of(m)
    check(start["stale"] == 1 and end["ok"], f"the fix should compile world's chunk alone: {start} {end}")


def chunks_removed():
    # the chunk files gone (a cleaned build folder) while compile.cmd stays: the next save plans them again
    import shutil
    shutil.rmtree(os.path.join(root, "build", "game", "chunks"))
    m = host.mark()
    edit(os.path.join(game, "world.cpp"), "    (void)0;", "    (void)1;")
    start, end, r = build_of(m)
    check(start["planned"] is True and end["ok"], f"with its chunks gone the build should plan again: {start} {end}")
    idle_after(m)


def idle_after(m):
    """Waits out what a build since m left running in the background: the chunks' own objects after a grouped build
    (with the precompiled header first). A save that lands meanwhile waits for them, and a chunk of them compiled
    after it already holds the saved text: its build then rightly finds nothing stale."""
    time.sleep(1.0)   # the background compiles start on the frame after the build's end
    if host.of("build_resplit", m):
        host.wait_ev("build_resplit_end", timeout=240, since=m)


def new_file_replans():
    m = m0 = host.mark()
    with open(os.path.join(game, "extra.h"), "w") as f:
        f.write("static const int EXTRA_ANSWER = 42;\n")
    with open(os.path.join(game, "extra.cpp"), "w") as f:
        f.write('#include "game.h"\n#include "extra.h"\n\nint extra_answer(void) { return EXTRA_ANSWER; }\n')
    start, end, r = build_of(m)
    check(start["direct"] is True and start["planned"] is True,
          f"a new file changes the chunks: the host plans them again, in process: {start}")
    check(end["ok"], f"{end}")
    # the two new files can reach the watcher in two batches: a second build of them may follow the first; the
    # save below must not land while that one is about to read extra.cpp (it would compile the saved text, and the
    # save's own build would then rightly find nothing stale); nor while the chunks' own objects compile behind a
    # grouped build
    idle_after(m)
    if host.of("build_start", m)[1:]:
        host.wait_for(lambda e: e.get("ev") == "build_end" and e["t"] > host.of("build_start", m)[-1]["t"], 240, m,
                      what="the second build of the new files")
        idle_after(m)
    m = host.mark()
    edit(os.path.join(game, "extra.cpp"), "return EXTRA_ANSWER;", "return EXTRA_ANSWER + 1;")
    start, end, r = build_of(m)
    builds = [e for e in host.events[m0:] if e.get("ev", "").startswith(("build_", "watch_batch", "reload"))]
    check(start["direct"] is True and start["planned"] is False and start["stale"] == 1,
          f"after the new plan, a save of the new file: {start}; since the new files: {builds}")


def header_of_one_chunk():
    # extra.h is read by one chunk's compile alone: a save of it compiles that chunk, not the others
    m = host.mark()
    edit(os.path.join(game, "extra.h"), "= 42;", "= 44;")
    start, end, r = build_of(m)
    check(start["direct"] is True and start["stale"] == 1, f"a header one chunk includes should compile that chunk: {start}")
    check(end["ok"] and r["state"] == "kept", f"{end} {r}")


def template_game_split_in_two():
    """A game from ./build.sh new, split as docs/game_api.md says (a game.h both files include, a function and an
    inline global shared, a profile zone in the second file), built as two chunks: the zone pointer the entry
    points set is the one the other chunk reads (one for the library), so it runs. The second file calls operator
    new: the library is linked without libstdc++ and finds it in the host."""
    folder = os.path.join(root, "split")
    p = subprocess.run(["bash", os.path.join(root, "build.sh"), "new", folder], capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"build.sh new: {p.stdout}{p.stderr}")
    with open(os.path.join(folder, "game.h"), "w") as f:
        f.write('#ifndef SPLIT_GAME_H\n#define SPLIT_GAME_H\n#include "game_engine.h"\n'
                'float enemy_speed(float t);   /* enemies.cpp */\ninline int g_enemy_calls;\n#endif\n')
    with open(os.path.join(folder, "enemies.cpp"), "w") as f:
        f.write('#include "game.h"\n\nfloat enemy_speed(float t)\n{\n    PROFILE_ZONE("enemies");\n'
                '    g_enemy_calls++;\n    float *v = new float(2.0f * t);   /* operator new: libstdc++, found in the host */\n'
                '    float r = *v;\n    delete v;\n    return r;\n}\n')
    game_cpp = os.path.join(folder, "game.cpp")
    edit(game_cpp, '#include "game_engine.h"', '#include "game.h"')
    with open(game_cpp) as f:
        text = f.read()
    i = text.index("{", text.index("GAME_UPDATE(game_update)")) + 1
    with open(game_cpp, "w") as f:
        f.write(text[:i] + "\n    (void)enemy_speed(1.0f);" + text[i:])
    env = dict(os.environ, GAME_CHUNK_LINES="1")   # one chunk a file
    p = subprocess.run(["bash", os.path.join(root, "build.sh"), "game", folder], capture_output=True, text=True, timeout=300, env=env)
    check(p.returncode == 0 and "(2 of 2 chunks)" in p.stderr, f"two chunks: {p.stderr[-2000:]}")
    p = subprocess.run([HOST, "--root", root, "--game", folder, "--headless", "--frames", "90",
                        "--no-watch", "--save-dir", os.path.join(root, "split-save")],
                       capture_output=True, text=True, timeout=60, env=env)
    check(p.returncode == 0 and "SIG" not in p.stdout + p.stderr and "crash" not in (p.stdout + p.stderr).lower(),
          f"the split game should run: exit {p.returncode}\n{(p.stdout + p.stderr)[-2000:]}")
    libs = glob.glob(os.path.join(root, "build", "games", "split-*", "libgame.so"))
    check(len(libs) == 1, f"the split game's library: {libs}")
    lib = libs[0]
    needed = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True).stdout
    undefined = subprocess.run(["nm", "-D", "--undefined-only", lib], capture_output=True, text=True).stdout
    check("_Znwm" in undefined and "libstdc++" not in needed,
          f"the library should call operator new without linking libstdc++:\n{needed}\n{undefined}")
    # the state's description (state_types.inc) is compiled only in the chunk of the file with GAME_GET_API
    build = os.path.dirname(lib)
    chunks = {}
    for k in (0, 1):
        with open(os.path.join(build, "chunks", f"chunk-{k}.cpp")) as f:
            text = f.read()
        with open(os.path.join(build, "chunks", f"chunk-{k}.d")) as f:
            deps = f.read()
        chunks["game" if '"game.cpp"' in text else "enemies"] = (text, deps)
    check(set(chunks) == {"game", "enemies"}, f"{chunks}")
    check("GAME_NO_STATE_TYPES" in chunks["enemies"][0] and "state_types.inc" not in chunks["enemies"][1],
          f"enemies.cpp's chunk should skip the state's description: {chunks['enemies']}")
    check("GAME_NO_STATE_TYPES" not in chunks["game"][0] and "state_types.inc" in chunks["game"][1],
          f"game.cpp's chunk hands out game_get_api and should read the description: {chunks['game']}")


def entry_point_moves():
    """The split game run by a host of its own: a field added to state.h migrates (the library still describes its
    state), then game_get_api moves from game.cpp to enemies.cpp. The chunk that now holds it was planned without
    the state's description, so the host plans the chunks again."""
    folder = os.path.join(root, "split")
    env = dict(os.environ, GAME_CHUNK_LINES="1")
    h = Host(root, "--game", folder, env=env)
    try:
        h.wait_ev("new_code_running", version=1, timeout=60)
        m = h.mark()
        edit(os.path.join(folder, "state.h"), "int32_t  best = 0;", "int32_t  best = 0;\n    int32_t  lives = 3;")
        r = h.next_reload(m, 120)
        check(r["state"] == "migrated", f"a field added should migrate: {r}")
        game_cpp = os.path.join(folder, "game.cpp")
        with open(game_cpp) as f:
            text = f.read()
        i = text.index("GAME_EXPORT GAME_GET_API(game_get_api)")
        entry = text[i:]
        text = text[:i]
        for fn in ("GAME_LOAD(game_load)", "GAME_UPDATE(game_update)", "GAME_RENDER(game_render)", "GAME_STATS(game_stats)"):
            text = text.replace("static " + fn, fn)
        m = h.mark()
        with open(os.path.join(folder, "game.h"), "w") as f:
            f.write('#ifndef SPLIT_GAME_H\n#define SPLIT_GAME_H\n#include "game_engine.h"\n'
                    'float enemy_speed(float t);   /* enemies.cpp */\ninline int g_enemy_calls;\n'
                    'GAME_LOAD(game_load);\nGAME_UPDATE(game_update);\nGAME_RENDER(game_render);\nGAME_STATS(game_stats);\n#endif\n')
        with open(game_cpp, "w") as f:
            f.write(text)
        with open(os.path.join(folder, "enemies.cpp"), "a") as f:
            f.write("\n" + entry)
        # three files written one after another: a build may start between them and fail on half a move (a plan
        # checked before the last write, a compile that read it); the save of the last file builds again
        r = h.wait_for(lambda e: e.get("ev") == "reload" and e["version"] > 2, 180, m, what="the reload after the move")
        starts = h.of("build_start", m)
        ends = h.of("build_end", m)
        check(ends and ends[-1]["ok"], f"the last build should succeed: {ends}")
        check(any(s.get("planned") for s in starts),
              f"with game_get_api in another file the host should plan the chunks again: {starts}")
        check(r["state"] == "kept", f"{r}")
        build = glob.glob(os.path.join(root, "build", "games", "split-*"))[0]
        texts = []
        for k in (0, 1):   # enemies.cpp, game.cpp
            with open(os.path.join(build, "chunks", f"chunk-{k}.cpp")) as f:
                texts.append(f.read())
        check("GAME_NO_STATE_TYPES" not in texts[0] and "GAME_NO_STATE_TYPES" in texts[1],
              f"now enemies.cpp's chunk should read the description, game.cpp's not: {texts}")
    finally:
        h.stop()


def exports_only_the_entry_point():
    lib = os.path.join(root, "build", "game", "libgame.so")
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True).stdout
    # gold and GNU ld add the data segment's end markers to every shared library they write (lld does not): they
    # are the linker's, not the game's
    linker_markers = {"__bss_start", "_edata", "_end"}
    names = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
    names = [n for n in names if n not in linker_markers]
    check(names == ["game_get_api"], f"the library should export game_get_api alone: {names}")


checks.case("the first build plans in the host", first_build)
checks.case("a code save compiles one chunk", code_save_compiles_one_chunk)
checks.case("a header save compiles its dependents", header_save_compiles_its_dependents)
checks.case("a state.h save makes the precompiled header once", state_save_makes_the_precompiled_header_once)
checks.case("a literal then a code save elsewhere keeps the tweak", literal_then_code_elsewhere_keeps_the_tweak)
checks.case("an error in one chunk", error_in_one_chunk)
checks.case("the chunks removed", chunks_removed)
checks.case("a new file replans the chunks", new_file_replans)
checks.case("a header of one chunk compiles that chunk", header_of_one_chunk)
checks.case("the library exports only its entry point", exports_only_the_entry_point)
checks.case("a template game split in two files runs as two chunks", template_game_split_in_two)
checks.case("game_get_api moved to another file: the chunks are planned again", entry_point_moves)
end_run(checks, host, root)
