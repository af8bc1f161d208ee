"""End to end: mistakes in new code never cost the running session.

Each scenario injects a fault into game/game.cpp on a temporary copy (the list in faults.py, shared with
the Windows leg: each first zeroes the step counter, then faults), checks from the event log that the
host survived, rolled back (or kept the old code) with the state restored, then fixes the file and
checks the fix loads normally. The fix is made even when a check failed, so one case costs one case.
ASAN_SCENARIO: also run against the sanitizer build of the host.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os
import time

from faults import faults_for, state_restored
from hostlib import Checks, Host, check, end_run, inject, input_script, project_copy, uninject, watchdog

checks = Checks()
root = project_copy()
game_cpp = os.path.join(root, "game", "game.cpp")
script = input_script(root, "5 tap F10\n")
host = Host(root, "--watchdog", watchdog(), "--input", script)
current = {"version": 1}


def stats(since, version=None):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                         and (version is None or e.get("version") == version), 30, since,
                         what=f"frame_stats (version {version})")


def inits():
    return len([e for e in host.of("log") if "NEON SWARM started" in e.get("msg", "")])


def next_reload(since):
    r = host.next_reload(since, 60)
    current["version"] = r["version"]
    return r


def remove_injected():
    """After a failed check: the injected code goes, and the case waits (briefly) for the clean build."""
    m = host.mark()
    uninject(game_cpp)
    try:
        if host.alive():
            next_reload(m)
    except AssertionError as e:
        print(f"      (the clean code did not load either: {e})", flush=True)


def fault(name, entry, code, expect_in, expect_signal):
    def case():
        m = host.mark()
        before = stats(m)
        inits_before = inits()
        inject(game_cpp, entry, code)
        try:
            bad = next_reload(m)
            crash = host.wait_ev("crash", timeout=30, since=m)
            check(crash["signal"] == expect_signal, f"signal {crash['signal']}, want {expect_signal}")
            check(crash["in"] == expect_in, f"crashed in {crash['in']}, want {expect_in}")
            check(crash["version"] == bad["version"], f"crash reported for version {crash['version']}, loaded {bad['version']}")
            check(crash["rolled_back_to"] > 0 and not crash["halted"], f"no rollback: {crash}")
            if expect_signal != "hang":
                check("game.cpp" in crash["where"], f"the crash location does not name the source: {crash['where']!r}")
            back = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("t", 0) > crash["t"] + 0.5, 30, m,
                                 what="stats after rollback")
            # the injected code wrote a sentinel into the step counter before it faulted: only the snapshot undoes it
            wrong = state_restored(before["game"]["steps"], back["game"].get("steps", 0))
            check(not wrong, wrong)
            check(inits() == inits_before, "the game re-initialised its state after the rollback")
            check(host.alive(), "host died")
        except Exception:
            remove_injected()   # the next case starts from clean code
            raise
        m2 = host.mark()
        uninject(game_cpp)
        fixed = next_reload(m2)
        check(fixed["state"] == "kept", f"the fix did not load over the kept state: {fixed}")
        after = stats(m2, version=fixed["version"])
        check(after["game"]["steps"] >= back["game"]["steps"], "steps went back after the fix")
        check(not host.of("crash", m2), "the fixed code crashed")
    checks.case(name, case)


def startup():
    host.wait_ev("new_code_running", timeout=20)
    current["version"] = host.of("reload")[-1]["version"]
    stats(0, version=current["version"])


checks.case("startup", startup)
for name, entry, code, where, signal, _ in faults_for("linux"):
    fault(name, entry, code, where, signal)


def compile_error_keeps_old_code():
    m = host.mark()
    v = current["version"]
    inject(game_cpp, "GAME_UPDATE(game_update)", "this is not C++;")
    end = host.wait_ev("build_end", timeout=60, since=m)
    check(end["ok"] is False and end["error_count"] >= 1, f"build should fail: {end}")
    err = end["errors"][0]
    check(err["file"].endswith("game.cpp") and err["line"] > 0 and err["col"] > 0 and err["message"],
          f"error not as file:line:col: message: {err}")
    s1 = stats(host.mark(), version=v)
    s2 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("steps", 0) > s1["game"]["steps"],
                       10, what="steps continue")
    check(s2["version"] == v, "the version changed after a failed build")
    check(not host.of("reload", m), "something reloaded after a failed build")
    m2 = host.mark()
    uninject(game_cpp)
    fixed = next_reload(m2)
    check(fixed["state"] == "kept", f"fix: {fixed}")


def burst_of_saves_last_wins():
    entities = os.path.join(root, "game", "entities.cpp")
    m = host.mark()
    with open(entities) as f:
        original = f.read()
    launch = "b->vel = v2_scale(d, BULLET_SPEED);"
    check(launch in original, "entities.cpp changed shape")
    for i in range(20):   # code edits (a TWEAK literal would not need the compiler)
        with open(entities, "w") as f:
            f.write(original.replace(launch, f"b->vel = v2_scale(d, {1000 + i}.0f);"))
        time.sleep(0.1)
    # wait until the builds settle: bullets fly at the last saved speed
    final = host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e["game"].get("bullet_speed", 0) - 1019) < 0.5,
                          60, m, what="bullet speed 1019 (the last save)")
    time.sleep(1.0)
    # Builds do not pile up: one at a time (each starts after the previous one ended), and saves handed
    # over while one runs wait for it and go into one build, so at most one build starts after the last
    # batch of saves the watcher handed over. How many builds 20 saves make depends on how long one
    # takes, so that count is not the test.
    starts, ends = host.of("build_start", m), host.of("build_end", m)
    check(len(starts) < 20, f"{len(starts)} builds for 20 saves: saves made during a build were not merged")
    for a, b in zip(ends, starts[1:]):
        check(b["wall"] >= a["wall"], f"a build started at {b['wall']:.3f} before the previous ended at {a['wall']:.3f}")
    last_batch = max(i for i in range(m, len(host.events)) if host.events[i].get("ev") == "watch_batch")
    after = [e for e in host.events[last_batch:] if e.get("ev") == "build_start"]
    check(len(after) <= 1, f"{len(after)} builds started after the last batch of saves: builds pile up")
    check(not host.of("reload_failed", m), f"a reload failed: {host.of('reload_failed', m)}")
    later = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("bullet_speed", 0) > 0, 30,
                          host.mark(), what="bullets")
    check(abs(later["game"]["bullet_speed"] - 1019) < 0.5, f"a stale build won: {later['game']}")
    current["version"] = final["version"]
    with open(entities, "w") as f:
        f.write(original)
    next_reload(host.mark())


def half_written_library_is_refused():
    m = host.mark()
    v = current["version"]
    lib = os.path.join(root, "build", "game", "libgame.so")
    with open(lib, "rb") as f:
        data = f.read()
    tmp = lib + ".partial"
    with open(tmp, "wb") as f:
        f.write(data[: len(data) // 2])
    os.rename(tmp, lib)   # an outside build that died half way
    fail = host.wait_ev("reload_failed", timeout=20, since=m)
    check("libgame.so" in fail["reason"], f"reason should name the file: {fail}")
    s = stats(host.mark(), version=v)
    check(s["version"] == v, "a broken library replaced the running one")
    with open(lib, "wb") as f:
        f.write(data)


checks.case("compile_error_keeps_old_code", compile_error_keeps_old_code)
checks.case("burst_of_saves_last_wins", burst_of_saves_last_wins)
checks.case("half_written_library_is_refused", half_written_library_is_refused)
end_run(checks, host, root, tail=80)
