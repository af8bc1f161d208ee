"""End to end: mistakes that used to cost the whole session (issue 40), each made while the sample game
plays on autopilot in one host, each followed by its fix.

- a typo that makes the state too big for the block: the build is refused before it is swapped in, the
  old code keeps running, the message names the sizes and the state header's line.
"""
import json
import os
import re

from hostlib import Checks, Host, check, edit, end_run, inject, input_script, project_copy, uninject

checks = Checks()
root = project_copy()
game_dir = os.path.join(root, "game")
state_h = os.path.join(game_dir, "state.h")
entities = os.path.join(game_dir, "entities.cpp")
game_cpp = os.path.join(game_dir, "game.cpp")
script = input_script(root, "5 tap F10\n")
host = Host(root, "--watchdog", "1", "--input", script)
current = {"version": 0}


def stats(since, version=None, timeout=30):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                         and (version is None or e.get("version") == version), timeout, since,
                         what=f"frame_stats (version {version})")


def line_of(path, needle):
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if needle in line:
                return i
    raise AssertionError(f"{path} has no {needle!r}")


def startup():
    host.wait_ev("new_code_running", timeout=30)
    current["version"] = host.of("reload")[-1]["version"]
    stats(0, version=current["version"])


def state_too_big_is_refused():
    m = host.mark()
    v = current["version"]
    before = stats(m, version=v)
    define_line = line_of(state_h, "#define MAX_PARTICLES")
    edit(state_h, "#define MAX_PARTICLES 4096", "#define MAX_PARTICLES 40960000")
    try:
        refused = host.wait_for(lambda e: e.get("ev") in ("reload_refused", "reload"), 120, m, what="reload_refused")
        check(refused["ev"] == "reload_refused", f"a state that does not fit the block was swapped in: {refused}")
        want = f"does not fit the 256 MB block: raise --memory or fix state.h:{define_line}"
        check(want in refused["reason"], f"reason {refused['reason']!r} lacks {want!r}")
        check(re.match(r"state \d+\.\d\d GB ", refused["reason"]), f"the size is not said in GB: {refused['reason']!r}")
        check(refused["running"] == v, f"the running version changed: {refused}")
        later = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("game", {}).get("steps", 0)
                              > before["game"]["steps"] + 30 and e["t"] > refused["t"], 30, m, what="steps go on")
        check(later["version"] == v, f"the old code does not run on: {later}")
        check(not host.of("crash", m), f"a crash: {host.of('crash', m)}")
    finally:
        m2 = host.mark()
        edit(state_h, "#define MAX_PARTICLES 40960000", "#define MAX_PARTICLES 4096")
        back = host.next_reload(m2, 120)
        current["version"] = back["version"]
    check(back["state"] == "kept", f"the revert did not load over the kept state: {back}")
    after = stats(m2, version=back["version"])
    check(after["game"]["steps"] >= before["game"]["steps"], "the state was lost")


checks.case("startup", startup)
checks.case("state_too_big_is_refused", state_too_big_is_refused)
end_run(checks, host, root, tail=80)
