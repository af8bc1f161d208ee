"""End to end: the host keeps running while game code is edited; state survives reloads.

The autopilot plays NEON SWARM; editing the line of code that launches a bullet must change the speed
of the bullets it fires (reported in the game's stats) without restarting anything. (BULLET_SPEED
itself is a TWEAK() constant that changes without a rebuild: test_tweak.py covers that path.)
The first build of the copy plans it (platform/live/plan.cpp writes build/game/compile.cmd: in the host, or in
`host --build-game` when the tinyheader object is to be compiled again, as with the sanitized game); the next code
save runs that compile and link directly, each a stage event in order; a save of game/state.h stays in the host:
it runs the layout stamp's command from compile.cmd first (a stage of its own), and the next code save does not
stamp again. An editor's save that renames the old file away and writes the new one in two bursts is one
build of the complete file; two files saved together are one batch and one build.
ASAN_SCENARIO: build.sh also runs this file against the sanitizer build of the host; ASAN_GAME_SCENARIO: with
the game library it rebuilds sanitized too (ASan + UBSan), so a report from either fails the test.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os
import re
import time

from hostlib import Checks, Host, check, edit, end_run, input_script, project_copy

DEBOUNCE_MS = 100   # a loose bound: the watcher's quiet time is 10 ms

checks = Checks()
root = project_copy()
entities = os.path.join(root, "game", "entities.cpp")
script = input_script(root, "5 tap F10\n")
host = Host(root, "--input", script)
state = {}


def firing_stats(since, speed, version=None):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e.get("game", {}).get("bullet_speed", 0) - speed) < 1
                         and (version is None or e.get("version") == version), 60, since,
                         what=f"bullets at {speed} (version {version})")["game"]


def inits():
    return [e for e in host.of("log") if "NEON SWARM started" in e.get("msg", "")]


def starts_and_plays():
    r = host.wait_ev("reload", timeout=20)
    host.wait_ev("new_code_running", version=r["version"], timeout=20)
    state["before"] = firing_stats(0, 1100, version=r["version"])
    state["v1"] = r["version"]


def edit_reloads_in_place():
    m = host.mark()
    before = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, m)["game"]
    edit(entities, "b->vel = v2_scale(d, BULLET_SPEED);", "b->vel = v2_scale(d, BULLET_SPEED * 1.5f);")
    r = host.next_reload(m, 240)   # the copy's first build may rebuild the tinyheader object (sanitized: minutes)
    start = host.wait_ev("build_start", timeout=5, since=m)
    check(start["direct"] is False or start["planned"] is True, f"the copy's first build should plan (no compile.cmd yet): {start}")
    check(os.path.exists(os.path.join(root, "build", "game", "compile.cmd")), "the plan wrote no build/game/compile.cmd")
    check(r["state"] == "kept", f"state should be kept across a code edit: {r}")
    check(r["old_unmapped"] is True, f"the old library should be unmapped: {r}")
    check(not host.mapped(f".v{state['v1']}.so"), "the first version is still in /proc/<pid>/maps")
    check(host.mapped(f".v{r['version']}.so"), "the new version is not mapped")
    after = firing_stats(m, 1650, version=r["version"])
    check(after["steps"] > before["steps"], f"the game's step counter went back: {before['steps']} -> {after['steps']}")
    check(after["runs"] >= before["runs"] and after["player_handle"] != 0, f"run state lost: {before} -> {after}")
    check(len(inits()) == 1, f"the game state was re-initialised ({len(inits())} inits)")
    state["after"] = after
    state["v2"] = r["version"]


def second_edit_reloads_too():
    m = host.mark()
    edit(entities, "BULLET_SPEED * 1.5f", "BULLET_SPEED * 0.5f")
    r = host.next_reload(m)
    v = r["version"]
    check(r["state"] == "kept" and r["old_unmapped"] is True, f"second reload: {r}")
    ran = host.wait_ev("new_code_running", version=v, timeout=20, since=m)
    # the stages of a direct build, in the order they happen, each stamped no earlier than the one before
    host.poll()
    names = [("watch_batch", {"code": True}), ("build_start", {"direct": True}), ("build_stage", {"stage": "compile", "ok": True}),
             ("build_stage", {"stage": "link", "ok": True}), ("build_end", {"ok": True, "direct": True}),
             ("reload", {"version": v}), ("new_code_running", {"version": v})]
    at, prev = m, None
    for name, fields in names:
        found = [i for i in range(at, len(host.events)) if host.events[i].get("ev") == name
                 and all(host.events[i].get(k) == v for k, v in fields.items())]
        check(found, f"no {name} {fields} after the events before it; got: {[e.get('ev') for e in host.events[m:]]}")
        e = host.events[found[0]]
        check(prev is None or e["wall"] >= prev["wall"], f"{name} stamped before the event before it: {prev} {e}")
        at, prev = found[0] + 1, e
    end = host.wait_ev("build_end", timeout=5, since=m, ok=True)
    check(end["compile_ms"] > 0 and end["link_ms"] > 0 and end["cpu_ms"] > 0, f"build_end lacks its stage times: {end}")
    check(ran["wall"] >= end["wall"], "new code ran before its build ended")
    check(not host.mapped(f".v{state['v2']}.so"), "the previous version is still mapped after the second reload")
    g = firing_stats(m, 550, version=v)
    check(g["steps"] > state["after"]["steps"], "step counter went back on the second reload")
    check(len(inits()) == 1, "re-initialised on the second reload")


def frames_keep_flowing():
    m = host.mark()
    a = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, m)["game"]
    b = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"]["steps"] >= a["steps"] + 30, 10, m)["game"]
    check(b["steps"] > a["steps"], "the game stopped stepping")
    check(host.of("crash") == [], f"unexpected crash events: {host.of('crash')}")


def state_h_save_stamps_in_the_host():
    # a comment in state.h: the layout stamp's input changed; the host stamps it again itself, then compiles
    m = host.mark()
    with open(os.path.join(root, "game", "state.h"), "a") as f:
        f.write("\n/* a comment */\n")
    r = host.next_reload(m)
    start = host.wait_ev("build_start", timeout=5, since=m)
    check(start["direct"] is True and start.get("stamp") is True, f"a state.h save should stamp in the host: {start}")
    stages = [(e["stage"], e["ok"]) for e in host.of("build_stage", m) if not e.get("resplit")]
    check(stages == [("stamp", True), ("compile", True), ("link", True)], f"the stages: {stages}")
    check(r["state"] == "kept", f"a comment changed the layout stamp: {r}")


def broken_state_h_keeps_the_game():
    # the stamp's own failure (the preprocessor cannot find an include): the build fails naming state.h and the
    # line, the game runs on; the fix builds and the state is kept
    state_h = os.path.join(root, "game", "state.h")
    m = host.mark()
    with open(state_h, "a") as f:
        f.write('#include "no_such_header.h"\n')
    end = host.wait_for(lambda e: e.get("ev") == "build_end", 120, m, what="the failed build")
    check(end["ok"] is False and end["error_count"] >= 1, f"{end}")
    err = end["errors"][0]
    check(err["file"].endswith("state.h") and err["line"] > 0 and "no_such_header.h" in err["message"], f"{err}")
    try:
        stages = [e["stage"] for e in host.of("build_stage", m) if not e.get("resplit")]
        check(stages == ["stamp"], f"only the stamp ran: {host.of('build_stage', m)}")
        frames_keep_flowing()
    finally:
        m = host.mark()
        edit(state_h, '#include "no_such_header.h"\n', "")
    r = host.next_reload(m)
    check(r["state"] == "kept", f"{r}")


def split_save_is_one_build():
    # an editor that renames the old file away, creates the new one and writes it in two bursts
    m = host.mark()
    with open(entities) as f:
        text = f.read().replace("BULLET_SPEED * 0.5f", "BULLET_SPEED * 0.75f")
    os.rename(entities, entities + "~")
    with open(entities, "w") as f:
        half = len(text) // 2
        f.write(text[:half])
        f.flush()
        time.sleep(0.15)
        f.write(text[half:])
    os.remove(entities + "~")
    r = host.next_reload(m)
    firing_stats(m, 825, version=r["version"])
    check(len(host.of("build_start", m)) == 1, f"{len(host.of('build_start', m))} builds for one save")
    check(not [s for s in host.of("build_start", m) if s.get("stamp")], "a code save after state.h's stamped again")
    failed = [e for e in host.of("build_end", m) if not e["ok"]]
    check(not failed, f"a build of the half-written file: {failed[:1]}")
    check(r["state"] == "kept", f"{r}")


def two_files_one_batch():
    # both written, then closed 2 ms apart, as an editor's "save all" does: one batch (the watcher waits 10 ms
    # after the last event), where handing over at the first event would build half the save. On a machine
    # so loaded that the two closes land more than 8 ms apart the attempt says nothing: it is tried again, up to
    # eight times (each a small build), so that a busy machine still gets an attempt with the closes together.
    fx = os.path.join(root, "game", "fx.cpp")
    for attempt, mult in enumerate(("1.25f", "1.5f", "1.75f", "1.3f", "1.45f", "1.6f", "1.35f", "1.55f")):
        m = host.mark()
        version = max(e["version"] for e in host.of("reload"))
        texts = []
        with open(entities) as f:
            texts.append(re.sub(r"BULLET_SPEED \* [0-9.]+f", "BULLET_SPEED * " + mult, f.read(), count=1))
        with open(fx) as f:
            texts.append(f.read().replace("/* ", "/*  ", 1))
        files = [open(entities, "w"), open(fx, "w")]
        for f, t in zip(files, texts):
            f.write(t)
        files[0].close()
        t0 = time.monotonic()
        time.sleep(0.002)
        files[1].close()
        gap = time.monotonic() - t0
        host.wait_for(lambda e: e.get("ev") == "new_code_running" and e["version"] > version, 60, m, what="the new code")
        host.wait_for(lambda e: e.get("ev") == "frame_stats" and not e["building"], 30, m, what="no build running")
        if gap > 0.008:
            print(f"  attempt {attempt}: the closes were {gap * 1000:.0f} ms apart (a loaded machine): again")
            continue
        batches = [b for b in host.of("watch_batch", m) if b["code"]]
        check(len(batches) == 1 and batches[0]["count"] == 2, f"two files saved together: {batches}")
        check(len(host.of("build_start", m)) == 1, f"{len(host.of('build_start', m))} builds for one two-file save")
        firing_stats(m, 1100 * float(mult[:-1]))
        return
    raise AssertionError("in eight attempts the two closes were never within 8 ms of each other")


def debounce_is_short():
    # The watcher hands a save over DEBOUNCE_MS at most after its first event (it waits 10 ms of quiet, more
    # only while a file is half written). The host's own watch_batch events say how long each batch waited;
    # the shortest of this run's saves is the debounce plus the frame loop's delay, far below the bound on
    # any machine, and a debounce raised to 250 ms puts every one of them above it.
    batches = [b for b in host.of("watch_batch") if b["code"]]
    check(len(batches) >= 3, f"too few saves to measure: {batches}")
    waits = sorted(b["debounce_ms"] for b in batches)
    print(f"      debounce: {', '.join(f'{w:.1f}' for w in waits)} ms over {len(waits)} batches")
    check(waits[0] <= DEBOUNCE_MS, f"the shortest debounce was {waits[0]:.1f} ms (bound {DEBOUNCE_MS} ms): {waits}")


checks.case("starts_and_plays", starts_and_plays)
checks.case("edit_reloads_in_place", edit_reloads_in_place)
checks.case("second_edit_reloads_too", second_edit_reloads_too)
checks.case("state_h_save_stamps_in_the_host", state_h_save_stamps_in_the_host)
checks.case("broken_state_h_keeps_the_game", broken_state_h_keeps_the_game)
checks.case("split_save_is_one_build", split_save_is_one_build)
checks.case("two_files_one_batch", two_files_one_batch)
checks.case("frames_keep_flowing", frames_keep_flowing)
checks.case("debounce_is_short", debounce_is_short)
end_run(checks, host, root,
        final=lambda rc: check(rc == 0 and host.of("quit"), f"host exit code {rc}, quit event {host.of('quit')}"))
