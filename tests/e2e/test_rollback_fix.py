"""End to end: after a crash rolls back, the event log says whose code runs, and a save that brings the
sources back to that code (a file with tweakable literals, so nothing needs rebuilding) clears CRASHED.

A fault goes into entities.cpp's player_update, after a sentinel written into the state's step counter; the host
rolls back to the code before it and to the snapshot taken before that code ran (the sentinel gone). The first good
step of the rolled-back code is reported as new_code_running with rolled_back true and code_of_version the
version rolled back to (not as new code). Then the fault is taken out again: the file now matches the
running code except nothing, so no build starts, and the host reports crash_cleared.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os

from faults import SENTINEL, state_restored
from hostlib import Checks, Host, check, inject, input_script, project_copy, uninject

checks = Checks()
root = project_copy()
entities = os.path.join(root, "game", "entities.cpp")
host = Host(root, "--input", input_script(root, "5 tap F10\n"))


def rollback_then_fix():
    host.wait_ev("new_code_running", timeout=60)
    first = host.of("reload")[-1]["version"]
    before = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("mode") == 1, 60, what="play")
    m = host.mark()
    inject(entities, "static void player_update(GameState *gs, Entity *e, float dt)",
           f"*(volatile uint64_t *)&gs->steps = {SENTINEL}ull; *(volatile int *)0 = 1;")
    crash = host.wait_ev("crash", timeout=90, since=m)
    check(crash["rolled_back_to"] == first and not crash["halted"], f"no rollback to version {first}: {crash}")
    ran = host.wait_for(lambda e: e.get("ev") == "new_code_running" and e["t"] >= crash["t"], 30, m,
                        what="the rolled-back code running")
    check(ran["rolled_back"] is True and ran["code_of_version"] == first,
          f"after the rollback the log says {ran}, want the code of version {first}")
    back = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > ran["t"], 30, m, what="stats after the rollback")
    wrong = state_restored(before["game"]["steps"], back["game"]["steps"])
    check(not wrong, wrong)
    m2 = host.mark()
    uninject(entities)
    cleared = host.wait_ev("crash_cleared", timeout=30, since=m2)
    check(cleared["code_of_version"] == first, f"{cleared}")
    check(not host.of("build_start", m2) and not host.of("reload", m2), "the fix that matches the running code rebuilt")
    check(host.alive(), "host died")


try:
    checks.case("rollback_then_fix", rollback_then_fix)
finally:
    host.stop()
checks.finish()
