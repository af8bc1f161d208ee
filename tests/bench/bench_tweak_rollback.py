"""Benchmark of a TWEAK value that hangs the game: from the save of the literal to the game running again
on the state from just before the value went live, with the old value served (issue 40).

The game is built once with a site that spins for ever when its value is 7 (./build.sh game on a project
copy); one host then plays it with --watchdog 1, and each run saves the literal as 7 and waits for the
host's tweak_rollback event (the state and the old value are back; the next step runs at once), then
saves it back to 0. The time is the event's wall clock less the save's: the watcher's quiet time, the
watchdog's limit (1 s, the floor of this number), the jump and the restore. Key: tweak_rollback_ms
(median), target <= 1500. BENCH_QUICK=1: two runs.
"""
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, edit, project_copy  # noqa: E402

RUNS = 2 if os.environ.get("BENCH_QUICK") == "1" else 7


def on_alarm(sig, frame):
    raise TimeoutError(f"bench_tweak_rollback: not done after {os.environ.get('BENCH_TIMEOUT', '900')} s")


signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(int(os.environ.get("BENCH_TIMEOUT", "900")))

root = project_copy()
game_cpp = os.path.join(root, "game", "game.cpp")
head = "GAME_UPDATE(game_update)\n{\n"
edit(game_cpp, head, head + "    if (TWEAK_I(0) == 7) { game_state(mem)->steps = 0; for (volatile int spin = 1; spin;) {} }\n")
subprocess.run(["./build.sh", "game"], cwd=root, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)

host = Host(root, "--watchdog", "1")
host.wait_ev("new_code_running", timeout=60)
host.wait_for(lambda e: e.get("ev") == "frame_stats", 30)
times = []
for run in range(RUNS):
    m = host.mark()
    saved = edit(game_cpp, "TWEAK_I(0) == 7", "TWEAK_I(7) == 7")
    rb = host.wait_ev("tweak_rollback", timeout=60, since=m)
    times.append((rb["wall"] - saved) * 1000.0)
    print(f"run {run + 1}: save -> rolled back {times[-1]:.0f} ms (value live {rb['since_live_ms']:.0f} ms before)", flush=True)
    m = host.mark()
    edit(game_cpp, "TWEAK_I(7) == 7", "TWEAK_I(0) == 7")
    host.wait_ev("tweak", timeout=30, since=m)
    host.wait_for(lambda e: e.get("ev") == "frame_stats", 30, host.mark())
crashes = len(host.of("crash"))
rc = host.stop()
if rc != 0 or crashes != RUNS:
    raise SystemExit(f"host exit code {rc}, {crashes} crashes for {RUNS} hangs")
cleanup(root)
med = statistics.median(times)
print(f"tweak_rollback_ms median {med:.1f} (runs: {', '.join(f'{t:.0f}' for t in times)}; target <= 1500)")
print('{"tweak_rollback_ms": %.1f, "tweak_rollback_max_ms": %.1f}' % (med, max(times)))
