"""End to end: an F7 loop across an edit of game/state.h keeps looping, under the new layout.

The sample game plays on the autopilot; F7 records steps 600..720 and loops them, and the script never ends the
loop, so the edit lands in it however long its build takes on a busy machine. A field with a default member
initializer is added to GameState: the reload migrates the state and the loop's start with it, the report names
the field and its default, the loop restarts under the new code with a consistent game, nothing crashes and the
loop never ends. (test_state_migration.py runs the corpus of edits on a host of its own beside this file;
test_loop_layout_change.py covers a loop of scripted input and a --record file across a layout change.)
"""
import os

from hostlib import Checks, Host, check, edit, end_run, input_script, project_copy

checks = Checks()
root = project_copy()
LOOP_START, LOOP_PLAY = 600, 720
host = Host(root, "--input", input_script(root, f"5 tap F10\n{LOOP_START} tap F7\n{LOOP_PLAY} tap F7\n"))


def f7_loop_across_an_edit():
    host.wait_ev("new_code_running", version=1, timeout=30)
    host.wait_ev("loop", state="playing", timeout=60)
    m = host.mark()
    edit(os.path.join(root, "game", "state.h"), "    uint64_t   steps;", "    uint64_t   steps;\n    int32_t    loop_marker = 5;")
    r = host.wait_for(lambda e: e.get("ev") == "reload" and e["version"] > 1, 120, m, what="the reload of the edit")
    check(r["state"] == "migrated", f"{r}")
    host.wait_ev("loop", state="migrated", timeout=10, since=m)
    mig = host.wait_ev("migrated", version=r["version"], timeout=10, since=m)
    check("GameState: added loop_marker (5)" in mig["what"], mig["what"])
    again = host.wait_for(lambda e: e.get("ev") == "loop_restart" and e["t"] > r["t"], 30, m,
                          what="the loop restarting after")
    s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == r["version"] and e["t"] > again["t"],
                      30, m, what="stats in the migrated loop")
    check(s["game"]["consistent"], f"{s['game']}")
    check(not host.of("crash", m), f"crashed: {host.of('crash', m)}")
    check(not [e for e in host.of("loop", m) if e.get("state") == "off"], "the loop ended across the edit")


checks.case("f7_loop_across_an_edit", f7_loop_across_an_edit)
end_run(checks, host, root)
