"""End to end: a change to the persistent types is detected before new code touches the memory."""
import os

from hostlib import Checks, Host, check, cleanup, edit, project_copy

checks = Checks()
root = project_copy()
host = Host(root)


def inits():
    return [e for e in host.of("log") if "NEON SWARM started" in e.get("msg", "")]


def field_added_restarts_state():
    host.wait_ev("new_code_running", version=1, timeout=20)
    before = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("game", {}).get("steps", 0) >= 60,
                           20, what="some steps")
    m = host.mark()
    edit(os.path.join(root, "game", "state.h"), "    float      rot;", "    float      rot;\n    float      added_field;")
    r = host.wait_ev("reload", version=2, timeout=60, since=m)
    check(r["state"] == "restarted", f"a layout change must restart (no migrate hook): {r}")
    warn = [e for e in host.of("log", m) if "state layout changed" in e.get("msg", "")]
    check(warn, "no message says the layout changed")
    check(len(inits()) == 2, f"the new code should have initialised a fresh state, inits={len(inits())}")
    after = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 2, 20, m, what="v2 stats")
    check(after["game"]["steps"] < before["game"]["steps"] + 60,
          f"steps should restart from 0 with the new layout: before {before['game']['steps']} after {after['game']['steps']}")


def comment_only_edit_keeps_state():
    m = host.mark()
    edit(os.path.join(root, "game", "state.h"), "/* swarms straight at the player */", "/* swarms right at the player */")
    r = host.wait_ev("reload", version=3, timeout=60, since=m)
    check(r["state"] == "kept", f"a comment is not a layout change: {r}")
    check(len(inits()) == 2, "a comment edit re-initialised the state")


checks.case("field_added_restarts_state", field_added_restarts_state)
checks.case("comment_only_edit_keeps_state", comment_only_edit_keeps_state)
rc = host.stop()
checks.case("host_survived", lambda: check(rc == 0, f"exit code {rc}"))
if checks.failed:
    print(host.tail())
else:
    cleanup(root)
checks.finish()
