"""Benchmark of a layout edit on the real host (headless) while the autopilot plays: from the save of
game/state.h to the first fixed step of the new code on the migrated state. Seven edits alternately add
and remove a field of Entity; each is a layout change: the host runs the layout stamp's command (the stamp and
the description of the state are made again), compiles every chunk (each includes state.h), links, migrates and
swaps.

Keys: edit_to_reload_layout_p50_ms / _max_ms (the write -> new_code_running, by the wall clocks of the
test and of the host's events), migrate_host_p50_ms (the host's own migration of the block: the new
library's default instance, the migrator, the copy; the "migrated" event's ms), and the build's stages:
layout_stamp_p50_ms, layout_compile_p50_ms, layout_link_p50_ms (the host's build_stage events).
"""
import json
import os
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, edit, input_script, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402

EDITS = runs(7)


def on_alarm(sig, frame):
    raise TimeoutError(f"bench_layout_reload: not done after {os.environ.get('BENCH_TIMEOUT', '900')} s")


signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(int(os.environ.get("BENCH_TIMEOUT", "900")))

root = project_copy()
state_h = os.path.join(root, "game", "state.h")
host = Host(root, "--input", input_script(root, "5 tap F10\n"))
host.wait_ev("new_code_running", version=1, timeout=60)
host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("mode") == 1, 60, what="the autopilot playing")
# a copy's first build runs build.sh (it writes the copy's compile.cmd): a code save first, untimed, so every timed
# edit is a save as a developer makes it, after the game was built once
m = host.mark()
edit(os.path.join(root, "game", "waves.cpp"), "arena_build(gs);", "arena_build(gs);   /* warm */")
host.wait_for(lambda e: e.get("ev") == "reload" and e["version"] > 1, 180, m, what="the warm-up build")
version = host.of("reload", m)[-1]["version"]
times, migrate = [], []
stages = {"stamp": [], "compile": [], "link": []}
for i in range(EDITS):
    time.sleep(1.0)
    m = host.mark()
    t = time.time()
    if i % 2 == 0:
        edit(state_h, "    float      rot;", "    float      rot;\n    float      bench_field = 2.0f;")
    else:
        edit(state_h, "\n    float      bench_field = 2.0f;", "")
    r = host.wait_for(lambda e: e.get("ev") == "reload" and e["version"] > version, 120, m, what="the reload")
    version = r["version"]
    if r["state"] != "migrated":
        raise SystemExit(f"bench_layout_reload: edit {i} was not migrated: {r}")
    mig = host.wait_ev("migrated", version=version, timeout=10, since=m)
    first = host.wait_ev("new_code_running", version=version, timeout=30, since=m)
    times.append((first["wall"] - t) * 1000.0)
    for e in host.of("build_stage", m):
        if e["stage"] in stages and not e.get("resplit"):   # not the chunks' own objects, in the background
            stages[e["stage"]].append(e["ms"])
    migrate.append(mig["ms"])
host.stop()
cleanup(root)
out = {"edit_to_reload_layout_p50_ms": round(statistics.median(times), 1), "edit_to_reload_layout_max_ms": round(max(times), 1),
       "migrate_host_p50_ms": round(statistics.median(migrate), 3)}
for stage, ms in stages.items():
    if ms:
        out[f"layout_{stage}_p50_ms"] = round(statistics.median(ms), 1)
sys.stderr.write(f"bench_layout_reload: {', '.join(f'{x:.0f}' for x in times)} ms; migrations {migrate}\n")
report(out)
