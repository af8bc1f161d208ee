"""End to end: the host keeps running while game code is edited; state survives reloads.

ASAN_SCENARIO: build.sh also runs this file against the sanitizer build of the host.
"""
import os
import time

from hostlib import Checks, Host, check, cleanup, edit, project_copy

checks = Checks()
root = project_copy()
entities = os.path.join(root, "game", "entities.cpp")
host = Host(root)


def game_stats(since, version=None, min_steps=0):
    ev = host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                       and (version is None or e.get("version") == version)
                       and e["game"]["steps"] >= min_steps, 40, since, what=f"frame_stats of version {version}")
    return ev["game"]


state = {}


def starts_and_runs():
    host.wait_ev("reload", version=1, timeout=20)
    host.wait_ev("new_code_running", version=1, timeout=20)
    g = game_stats(0, version=1, min_steps=60)
    check(g["entities"] >= 3, f"expected entities, got {g}")
    check(abs(g["e0_speed"] - 240) < 1, f"bouncer speed should start at 240: {g}")
    state["before"] = g


def edit_reloads_in_place():
    m = host.mark()
    before = game_stats(m, version=1)
    edit(entities, "BOUNCER_SPEED  = 240.0f", "BOUNCER_SPEED  = 480.0f")
    r = host.wait_ev("reload", version=2, timeout=60, since=m)
    check(r["state"] == "kept", f"state should be kept across a code edit: {r}")
    check(r["old_unmapped"] is True, f"the old library should be unmapped: {r}")
    check(not host.mapped(".v1.so"), "version 1 is still in /proc/<pid>/maps")
    check(host.mapped(".v2.so"), "version 2 is not mapped")
    after = game_stats(m, version=2)
    check(abs(after["e0_speed"] - 480) < 1, f"the new constant is not in effect: {after}")
    check(after["steps"] > before["steps"], f"the game's step counter went back: {before['steps']} -> {after['steps']}")
    inits = [e for e in host.of("log") if "placeholder game started" in e.get("msg", "")]
    check(len(inits) == 1, f"the game state was re-initialised ({len(inits)} inits)")
    check(host.alive(), "host died")
    state["after"] = after


def second_edit_reloads_too():
    m = host.mark()
    edit(entities, "BOUNCER_SPEED  = 480.0f", "BOUNCER_SPEED  = 120.0f")
    r = host.wait_ev("reload", version=3, timeout=60, since=m)
    check(r["state"] == "kept" and r["old_unmapped"] is True, f"second reload: {r}")
    check(not host.mapped(".v2.so"), "version 2 is still mapped after the second reload")
    g = game_stats(m, version=3)
    check(abs(g["e0_speed"] - 120) < 1, f"second edit not in effect: {g}")
    check(g["steps"] > state["after"]["steps"], "step counter went back on the second reload")
    # Positions continue: a bouncer moves at most speed * elapsed between two stats lines.
    check(0 <= g["e0_x"] <= 1280 and 0 <= g["e0_y"] <= 720, f"bouncer left the screen: {g}")


def frames_keep_flowing():
    m = host.mark()
    a = game_stats(m)
    b = game_stats(host.mark(), min_steps=a["steps"] + 30)
    check(b["steps"] > a["steps"], "the game stopped stepping")
    check(host.of("crash") == [], f"unexpected crash events: {host.of('crash')}")


checks.case("starts_and_runs", starts_and_runs)
checks.case("edit_reloads_in_place", edit_reloads_in_place)
checks.case("second_edit_reloads_too", second_edit_reloads_too)
checks.case("frames_keep_flowing", frames_keep_flowing)
rc = host.stop()
checks.case("clean_quit", lambda: check(rc == 0 and host.of("quit"), f"host exit code {rc}, quit event {host.of('quit')}"))
if checks.failed:
    print(host.tail())
else:
    cleanup(root)
checks.finish()
