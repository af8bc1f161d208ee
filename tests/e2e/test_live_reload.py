"""End to end: the host keeps running while game code is edited; state survives reloads.

The autopilot plays NEON SWARM; editing the line of code that launches a bullet must change the speed
of the bullets it fires (reported in the game's stats) without restarting anything. (BULLET_SPEED
itself is a TWEAK() constant that changes without a rebuild: test_tweak.py covers that path.)
ASAN_SCENARIO: build.sh also runs this file against the sanitizer build of the host; ASAN_GAME_SCENARIO: with
the game library it rebuilds sanitized too (ASan + UBSan), so a report from either fails the test.
"""
import os

from hostlib import Checks, Host, check, edit, end_run, input_script, project_copy

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
    host.wait_ev("reload", version=1, timeout=20)
    host.wait_ev("new_code_running", version=1, timeout=20)
    state["before"] = firing_stats(0, 1100, version=1)


def edit_reloads_in_place():
    m = host.mark()
    before = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, m)["game"]
    edit(entities, "b->vel = v2_scale(d, BULLET_SPEED);", "b->vel = v2_scale(d, BULLET_SPEED * 1.5f);")
    r = host.wait_ev("reload", version=2, timeout=60, since=m)
    check(r["state"] == "kept", f"state should be kept across a code edit: {r}")
    check(r["old_unmapped"] is True, f"the old library should be unmapped: {r}")
    check(not host.mapped(".v1.so"), "version 1 is still in /proc/<pid>/maps")
    check(host.mapped(".v2.so"), "version 2 is not mapped")
    after = firing_stats(m, 1650, version=2)
    check(after["steps"] > before["steps"], f"the game's step counter went back: {before['steps']} -> {after['steps']}")
    check(after["runs"] >= before["runs"] and after["player_handle"] != 0, f"run state lost: {before} -> {after}")
    check(len(inits()) == 1, f"the game state was re-initialised ({len(inits())} inits)")
    state["after"] = after


def second_edit_reloads_too():
    m = host.mark()
    edit(entities, "BULLET_SPEED * 1.5f", "BULLET_SPEED * 0.5f")
    r = host.wait_ev("reload", version=3, timeout=60, since=m)
    check(r["state"] == "kept" and r["old_unmapped"] is True, f"second reload: {r}")
    check(not host.mapped(".v2.so"), "version 2 is still mapped after the second reload")
    g = firing_stats(m, 550, version=3)
    check(g["steps"] > state["after"]["steps"], "step counter went back on the second reload")
    check(len(inits()) == 1, "re-initialised on the second reload")


def frames_keep_flowing():
    m = host.mark()
    a = host.wait_for(lambda e: e.get("ev") == "frame_stats", 10, m)["game"]
    b = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"]["steps"] >= a["steps"] + 30, 10, m)["game"]
    check(b["steps"] > a["steps"], "the game stopped stepping")
    check(host.of("crash") == [], f"unexpected crash events: {host.of('crash')}")


checks.case("starts_and_plays", starts_and_plays)
checks.case("edit_reloads_in_place", edit_reloads_in_place)
checks.case("second_edit_reloads_too", second_edit_reloads_too)
checks.case("frames_keep_flowing", frames_keep_flowing)
end_run(checks, host, root,
        final=lambda rc: check(rc == 0 and host.of("quit"), f"host exit code {rc}, quit event {host.of('quit')}"))
