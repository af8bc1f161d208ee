"""End to end: a change to the state's layout never lets new code see old-layout bytes.

The host records an F7 loop (and a --record file) and plays the loop; then game/state.h gets a new
field. The reload migrates the state for the new layout, and the loop's start snapshot with it: the
loop keeps looping under the new code, every restart a state of the new layout (never the old bytes,
which used to crash the new code). A change no rule can carry ends the loop instead. The --record file
(whose snapshot and header hold the old layout) ends at the change, and a later --replay of it against
the new layout is refused with a message naming the file.
"""
import json
import os
import subprocess
import time

from hostlib import HOST, Checks, Host, check, cleanup, edit, project_copy

checks = Checks()
root = project_copy()
state_h = os.path.join(root, "game", "state.h")
script = os.path.join(root, "loop.txt")
with open(script, "w") as f:
    f.write("30 tap ENTER\n60 tap F7\n150 tap F7\n")   # play, record steps 60..150, then loop them
rec = os.path.join(root, "session.rec")
host = Host(root, "--input", script, "--record", rec)
seen = {}


def loop_playing():
    host.wait_ev("record_start", timeout=30)
    host.wait_ev("loop", state="playing", timeout=60)
    host.wait_ev("loop_restart", timeout=30)   # it loops


def layout_change_migrates_the_loop():
    m = host.mark()
    edit(state_h, "    uint64_t   steps;", "    uint64_t   steps;\n    uint64_t   added_by_the_test[3];")
    r = host.wait_ev("reload", timeout=60, since=m)
    check(r["state"] == "migrated", f"a new field should migrate the state: {r}")
    seen["version"] = r["version"]
    mig = host.wait_ev("loop", timeout=10, since=m, state="migrated")
    check(mig["t"] <= r["t"] + 0.5, "the loop's start must be migrated before the new code runs")
    rec_end = host.wait_ev("record_end", timeout=10, since=m)
    check(rec_end["path"] == rec and rec_end["reason"] == "layout_changed", f"record_end: {rec_end}")
    # the loop goes on under the new code: it restarts from its migrated start, the steps come back to it
    again = host.wait_for(lambda e: e.get("ev") == "loop_restart" and e["t"] > r["t"], 30, m, what="a loop restart after")
    again2 = host.wait_for(lambda e: e.get("ev") == "loop_restart" and e["t"] > again["t"], 30, m, what="another loop restart")
    s1 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == r["version"]
                       and e["t"] > again2["t"], 30, m, what="stats of the new code in the loop")
    check(s1["game"]["consistent"], f"the game's own check in the migrated loop: {s1['game']}")
    check(not host.of("crash", m), f"the new code crashed: {host.of('crash', m)}")
    off = [e for e in host.of("loop", m) if e.get("state") == "off"]
    check(not off, f"the loop ended: {off}")
    check(host.alive(), "host died")


def change_without_a_rule_ends_the_loop():
    m = host.mark()
    # a struct field becomes a number: no automatic rule, so the state restarts and the loop ends
    edit(state_h, "    v2         aim;           /* last aim direction */",
         "    v2         aim;           /* last aim direction */\n    v2         test_pair;")
    r = host.wait_ev("reload", timeout=60, since=m)
    check(r["state"] == "migrated", f"{r}")
    m = host.mark()
    edit(state_h, "    v2         test_pair;", "    float      test_pair;")
    r = host.wait_ev("reload", timeout=60, since=m)
    check(r["state"] == "restarted", f"v2 -> float has no rule: {r}")
    refused = host.wait_ev("migrate_refused", timeout=10, since=m)
    check(refused["why"] == "GameState.test_pair changed from v2 to float, no automatic rule", f"{refused}")
    ended = host.wait_ev("loop", timeout=10, since=m, state="off")
    check(ended.get("reason") == "layout_changed", f"loop ended for {ended.get('reason')}")
    check(ended["t"] <= r["t"], "the loop must end before the new code runs")
    s1 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == r["version"]
                       and e["t"] > r["t"] + 1.0, 30, m, what="stats of the new code")
    time.sleep(3)
    s2 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > s1["t"] + 2.0, 30, m, what="later stats")
    check(s2["game"]["steps"] > s1["game"]["steps"], f"steps {s1['game']['steps']} -> {s2['game']['steps']}")
    late = [e for e in host.of("loop_restart", m) if e["t"] >= r["t"]]
    check(not late, f"the old loop restarted under the new layout: {late}")
    check(host.alive(), "host died")


def replay_of_the_old_layout_is_migrated():
    # --record wrote the description of its snapshot's layout beside the file: a replay under the new
    # state.h migrates the snapshot and plays the recorded input on it
    rc = host.stop()
    check(rc == 0, f"host exit code {rc}")
    check(os.path.exists(rec + ".types"), "--record wrote no description of its layout beside the file")
    log = os.path.join(root, "replay.jsonl")
    out = subprocess.run([HOST, "--root", root, "--headless", "--no-watch", "--replay", rec, "--frames", "150",
                          "--log-json", log], capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    check(out.returncode == 0, f"the migrated replay did not run (exit {out.returncode}):\n{text[-2000:]}")
    check("its snapshot migrated" in text, f"the replay should say its snapshot was migrated:\n{text[-2000:]}")
    with open(log) as f:
        events = [json.loads(line) for line in f if line.strip()]
    check([e for e in events if e.get("ev") == "replay_start"], "no replay_start")
    check(not [e for e in events if e.get("ev") == "crash"], "the replay crashed")
    stats = [e for e in events if e.get("ev") == "frame_stats"]
    check(stats and stats[-1]["game"]["consistent"], f"the game's own check on the migrated replay: {stats[-1:]}")


def replay_without_its_description_is_refused():
    os.remove(rec + ".types")
    out = subprocess.run([HOST, "--root", root, "--headless", "--no-watch", "--replay", rec, "--frames", "30"],
                         capture_output=True, text=True, timeout=60)
    check(out.returncode != 0, "a replay recorded on another layout was run")
    text = out.stdout + out.stderr
    check(rec in text and "another state layout" in text, f"the refusal should name the file and why:\n{text[-2000:]}")


checks.case("loop_playing", loop_playing)
checks.case("layout_change_migrates_the_loop", layout_change_migrates_the_loop)
checks.case("change_without_a_rule_ends_the_loop", change_without_a_rule_ends_the_loop)
checks.case("replay_of_the_old_layout_is_migrated", replay_of_the_old_layout_is_migrated)
checks.case("replay_without_its_description_is_refused", replay_without_its_description_is_refused)
if host.alive():
    host.stop()
if checks.failed:
    print(host.tail(60))
else:
    cleanup(root)
checks.finish()
