"""The timeline (docs/timeline.md) in the sample's F3 stress fight, through the host.

The autopilot plays while F3 drops swarms into the arena for a minute (the quick mode: fifteen seconds); then F8
opens the timeline and a drag on its bar seeks to random steps of the last 60 s, each a restore of the nearest kept
state and a replay of the recorded inputs to that step (timeline_seek_p95_ms: the host's own time for each seek). V
then replays every kept step and checks each state's hash against the recorded one (replay_divergence: the
mismatches; the full bench adds a 10-minute bot play with a 10-minute timeline). timeline_memory_mb is what the
timeline holds at the default 60 s (its states, inputs and hashes), timeline_kept_s how far back it reaches;
timeline_overhead_frame_ms the host's measured cost of keeping it, per frame (one step a frame with --fast);
timeline_overhead_ab_ms the same fight's mean frame time with the timeline minus without (--timeline 0) in the same
run: noisier, since the frames around it cost 5-20 ms. timeline_migrate_ms: a state.h save (a field added) while the
fight plays with a full ring: what the timeline costs the frame the new library loads in (no kept state is migrated
then; timeline_migrate_states: how many it keeps in the old layout). timeline_seek_across_layout_ms: right after it,
the control socket's seeks to states kept under the old layout, each migrated as it is restored (the slowest of them; p95 target 50 ms).
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, edit, project_copy, watchdog  # noqa: E402
from benchlib import QUICK, report, runs  # noqa: E402

root = project_copy()
PLAY = runs(3600 + 300, 900)          # steps of play before F8: a minute of the fight (the quick mode: 15 s)
SEEKS = runs(300, 30)
BAR_X0, BAR_X1, BAR_Y = 40, 1240, 720 - 34 + 5   # the bar (timeline_bar.cpp), in game pixels
rng = random.Random(43)


def fight(play):
    """Autopilot, then a swarm every ten seconds: the heavy fight, for `play` steps."""
    lines = ["5 tap F10"] + [f"{s} tap F3" for s in range(200, play, 600)]
    return lines


def seeks_script(play, oldest_frac):
    """F8 at frame `play`, a drag to SEEKS random places of the bar's last `oldest_frac`, V, F8, quit."""
    f = play
    lines = [f"@{f} tap F8", f"@{f + 2} mouse {BAR_X1} {BAR_Y}", f"@{f + 3} down MOUSE_LEFT"]
    f += 4
    for _ in range(SEEKS):
        x = BAR_X1 - rng.random() * oldest_frac * (BAR_X1 - BAR_X0)
        lines.append(f"@{f} mouse {x:.1f} {BAR_Y}")
        f += 1
    lines += [f"@{f} up MOUSE_LEFT", f"@{f + 2} tap V", f"@{f + 4} tap F8", f"@{f + 6} quit"]
    return lines


def run(name, extra, lines, frames_log=None):
    path = os.path.join(root, name + ".txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    args = ["--fast", "--no-watch", "--input", path, "--watchdog", watchdog(5)] + extra
    if frames_log:
        args += ["--frame-log", frames_log]
    h = Host(root, *args)
    h.wait_ev("quit", timeout=3000)
    h.proc.wait(120)
    h.stop()
    return h


def mean_frame_ms(path, lo, hi):
    rows = [line.split() for line in open(path)]
    ms = [float(r[1]) for r in rows if lo <= int(r[0]) < hi]
    return sum(ms) / len(ms)


# the minute of fight, with the default timeline (60 s, 64 MB)
frames_on = os.path.join(root, "frames_on.txt")
a = run("timeline", [], fight(PLAY) + seeks_script(PLAY, 0.9), frames_on)
opened = a.of("timeline_open")[0]
seeks = sorted(s["ms"] for s in a.of("timeline_seek"))
verify = a.of("timeline_verify")
divergences = sum(v["mismatches"] for v in verify)
checked = sum(v["to"] - v["from"] for v in verify)

# the same fight without the timeline
frames_off = os.path.join(root, "frames_off.txt")
run("no_timeline", ["--timeline", "0"], fight(PLAY) + [f"@{PLAY} quit"], frames_off)
ab = mean_frame_ms(frames_on, 260, PLAY) - mean_frame_ms(frames_off, 260, PLAY)

# the fight again; state.h gains a field at the minute (the quick mode: 15 s): no kept state is migrated in the frame
# the new library loads in. As soon as it has, the control socket seeks to states kept under the old layout (the
# oldest tenth of the ring), each one's state migrated as it is restored. On the clock, not --fast; the seeks wait
# for the new layout's event, not for a frame count, so a slow rebuild on a loaded machine cannot leave the ring
# holding only the new layout's states (it keeps 60 s).
EDIT = PLAY - 300
with open(os.path.join(root, "migrate.txt"), "w") as fh:
    fh.write("\n".join(fight(EDIT + 7200)) + "\n")
h = Host(root, "--input", os.path.join(root, "migrate.txt"), "--watchdog", watchdog(5))
try:
    h.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("step", 0) >= EDIT, 3000, 0, f"{EDIT} steps")
    c = h.control()
    m = h.mark()
    edit(os.path.join(root, "game", "state.h"), "    int32_t    bombs;", "    int32_t    bombs;\n    int32_t    bench_probe;")
    layout = h.wait_ev("timeline_layout", timeout=600, since=m)
    st = c.request("status")
    for i in range(10):   # 0.6 s apart from the oldest step: another kept state each, all kept before the save
        c.request("seek", step=st["oldest"] + 2 + 36 * i)
    h.poll()
    across, since_seek = [], False   # the seeks that migrated the state they restored
    for e in h.events[m:]:
        if e.get("ev") == "timeline_state_migrated":
            since_seek = True
        elif e.get("ev") == "timeline_seek":
            if since_seek:
                across.append(e["ms"])
            since_seek = False
    if not across:
        raise AssertionError(f"no seek reached a state kept under the old layout: {st}, "
                             f"{[e for e in h.events[m:] if e.get('ev') in ('timeline_seek', 'timeline_layout')][:12]}")
finally:
    h.stop()
    edit(os.path.join(root, "game", "state.h"), "\n    int32_t    bench_probe;", "")

if not QUICK:   # ten minutes of bot play, every step of it kept and replayed
    LONG = 36000
    c = run("long", ["--timeline", "600", "--timeline-mb", "1024"],
            fight(LONG) + [f"@{LONG} tap F8", f"@{LONG + 2} tap V", f"@{LONG + 4} quit"])
    for v in c.of("timeline_verify"):
        divergences += v["mismatches"]
        checked += v["to"] - v["from"]

cleanup(root)
report({
    "timeline_seek_p95_ms": round(seeks[min(len(seeks) - 1, int(0.95 * len(seeks)))], 2),
    "timeline_seek_p50_ms": round(seeks[len(seeks) // 2], 2),
    "timeline_memory_mb": round(opened["used_mb"], 2),
    "timeline_kept_s": round((opened["step"] - opened["oldest"]) / 60.0, 1),
    "timeline_snapshot_every_steps": opened["every"],
    "timeline_snapshot_kb": round(opened["snapshot_bytes"] / 1024.0, 1),
    "timeline_state_kb": round(opened["state_bytes"] / 1024.0, 1),
    "timeline_overhead_frame_ms": round(opened["cost_ms_per_step"], 4),
    "timeline_overhead_ab_ms": round(ab, 3),
    "timeline_migrate_ms": round(layout["ms"], 3),
    "timeline_migrate_states": layout["states"],
    "timeline_seek_across_layout_ms": round(max(across), 2),
    "timeline_seek_across_layout_seeks": len(across),
    "replay_divergence": divergences,
    "replay_checked_steps": checked,
})
