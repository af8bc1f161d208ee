"""End to end: a change to the persistent types is detected before new code touches the memory,
and only such a change: the stamp covers exactly the types the state embeds (tools/layout_stamp.py).
A detected change migrates the state (the corpus of edits is tests/e2e/test_state_migration.py).
"""
import os
import stat
import subprocess
import time

from hostlib import Checks, Host, SLOW, check, cleanup, edit, end_run, project_copy, stretch

checks = Checks()
root = project_copy()
host = Host(root)


def inits():
    return [e for e in host.of("log") if "NEON SWARM started" in e.get("msg", "")]


def field_added_migrates_state():
    # read through the control socket (docs/control.md): the running state itself, not the once-a-second stats
    host.wait_ev("new_code_running", timeout=20)
    c = host.control()
    steps = lambda: int(c.request("get", path="steps")["value"])   # noqa: E731
    deadline = time.time() + stretch(20)
    while steps() < 60:
        check(time.time() < deadline, "the game never ran 60 steps")
        time.sleep(0.05)
    before = steps()
    m = host.mark()
    n0 = len(inits())
    edit(os.path.join(root, "game", "state.h"), "    float      rot;", "    float      rot;\n    float      added_field;")
    r = host.next_reload(m, 60)
    check(r["state"] == "migrated", f"a field added is a migration: {r}")
    mig = host.wait_ev("migrated", version=r["version"], timeout=10, since=m)
    check(mig["what"] == "Entity: added added_field (0)", f"the migration says what changed: {mig}")
    check(len(inits()) == n0, f"the migrated state must not be initialised again, inits {n0} -> {len(inits())}")
    added = c.request("get", path="entities[0].added_field")
    check(added["ok"] and added["value"] == "0" and added["kind"] == "float", f"the new field in the block: {added}")
    check(c.request("status")["version"] == r["version"] and steps() >= before,
          f"steps go on with the new layout from {before}: {steps()}")
    c.close()


def comment_only_edit_keeps_state():
    m = host.mark()
    n0 = len(inits())
    edit(os.path.join(root, "game", "state.h"), "/* swarms straight at the player */", "/* swarms right at the player */")
    r = host.next_reload(m, 60)
    check(r["state"] == "kept", f"a comment is not a layout change: {r}")
    check(len(inits()) == n0, "a comment edit re-initialised the state")


def tinyheader_function_body_edit_keeps_state():
    # th_math.h is part of the state's types (v2, th_rng) but an inline helper's body is not layout
    m = host.mark()
    n0 = len(inits())
    edit(os.path.join(root, "tinyheaders", "th_math.h"), "static inline float v2_len(v2 a) { return sqrtf(v2_len2(a)); }",
         "static inline float v2_len(v2 a) { float l2 = v2_len2(a); return sqrtf(l2); }")
    r = host.next_reload(m, 240)  # a tinyheader edit rebuilds the -O2 object too
    check(r["state"] == "kept", f"a helper's body is not a layout change: {r}")
    check(len(inits()) == n0, "editing a tinyheader function body re-initialised the state")
    # the -O2 object's key is of the files as they were read before its compile (a tinyheader saved during that
    # compile differs from it, and the next build compiles again): the edited th_math.h's content is in it
    line = subprocess.run(["cksum", "tinyheaders/th_math.h"], cwd=root, capture_output=True, text=True).stdout.split()
    with open(os.path.join(root, "build", "tinyheaders", "tinyheaders.key")) as f:
        key = f.read()
    check(f"|{line[0]} {line[1]} tinyheaders/th_math.h" in key, f"the tinyheader object's key lacks th_math.h {line}: {key}")


def embedded_tinyheader_struct_migrates_state():
    # GameState holds a tha_arena (declared transient: the caches load rebuilds): a field added to it changes
    # the layout, and the migration zeroes the arena for load to lay out again
    m = host.mark()
    n0 = len(inits())
    edit(os.path.join(root, "tinyheaders", "th_arena.h"), "size_t used; size_t high_water; } tha_arena;",
         "size_t used; size_t high_water; size_t spare; } tha_arena;")
    r = host.next_reload(m, 240)  # a tinyheader edit rebuilds the -O2 object too
    check(r["state"] == "migrated", f"a struct the state embeds changed: {r}")
    check(len(inits()) == n0, f"the migrated state must not start afresh, inits {n0} -> {len(inits())}")
    s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == r["version"], 20, m,
                      what="the new version's stats")
    check(s["game"]["consistent"], f"the game's own check after the migration: {s}")


def unembedded_tinyheader_struct_keeps_state():
    # thc_ray_hit never lives in the state
    m = host.mark()
    n0 = len(inits())
    edit(os.path.join(root, "tinyheaders", "th_collide.h"), "typedef struct thc_ray_hit { float t; thc_v2 n; } thc_ray_hit;",
         "typedef struct thc_ray_hit { float t; thc_v2 n; float spare; } thc_ray_hit;")
    r = host.next_reload(m, 240)  # a tinyheader edit rebuilds the -O2 object too
    check(r["state"] == "kept", f"a struct outside the state is not a layout change: {r}")
    check(len(inits()) == n0, "a type the state does not embed re-initialised the state")


def stamp_failure_fails_the_build():
    # A preprocessor that cannot run must stop the build with a reason, never stamp every library alike.
    tmp = project_copy(with_library=False)
    bindir = os.path.join(tmp, "fakebin")
    os.makedirs(bindir)
    for cxx in ("g++", "clang++"):
        real = subprocess.run(["bash", "-c", f"command -v {cxx}"], capture_output=True, text=True).stdout.strip()
        if not real:
            continue
        w = os.path.join(bindir, cxx)
        with open(w, "w") as f:
            f.write(f'#!/bin/sh\nfor a in "$@"; do [ "$a" = -E ] && {{ echo "{cxx}: preprocessor broken" >&2; exit 1; }}; done\n'
                    f'exec {real} "$@"\n')
        os.chmod(w, os.stat(w).st_mode | stat.S_IEXEC)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
    p = subprocess.run(["bash", os.path.join(tmp, "build.sh"), "game"], capture_output=True, text=True, env=env,
                       timeout=120 * SLOW)
    out = p.stdout + p.stderr
    check(p.returncode != 0, f"the build succeeded without a layout stamp:\n{out}")
    check("layout stamp" in out and "state.h" in out and "preprocessor broken" in out,
          f"the build output does not say why the stamp failed:\n{out}")
    check(not os.path.exists(os.path.join(tmp, "build", "game", "libgame.so")), "a library was written anyway")
    cleanup(tmp)


checks.case("field_added_migrates_state", field_added_migrates_state)
checks.case("comment_only_edit_keeps_state", comment_only_edit_keeps_state)
checks.case("tinyheader_function_body_edit_keeps_state", tinyheader_function_body_edit_keeps_state)
checks.case("embedded_tinyheader_struct_migrates_state", embedded_tinyheader_struct_migrates_state)
checks.case("unembedded_tinyheader_struct_keeps_state", unembedded_tinyheader_struct_keeps_state)
checks.case("stamp_failure_fails_the_build", stamp_failure_fails_the_build)
end_run(checks, host, root)
