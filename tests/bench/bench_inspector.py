"""The Shift+F1 state inspector (docs/inspector.md) on the sample's F3 stress fight, through the host.

The autopilot plays while F3 drops swarms into the arena; the inspector is open on the entities table (2048 rows, 25
columns) and pages down through it every few frames, then a filter ("drone") keeps a part of them. The host reports
the inspector's own time a frame (its tree or table built, the rows on screen formatted and submitted, the filter's
background refresh; not the renderer's) as the median of every 120 frames: inspector_frame_ms is the median of those
with the table browsed (target <= 1 ms), inspector_filtered_frame_ms with the filter on, inspector_frame_max_ms the
worst single frame while browsing. Then the sprites_batch example's 20,000-row table is browsed the same way
(inspector_20k_frame_ms): an example folder with no code for the inspector.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, example_copy, project_copy, watchdog  # noqa: E402
from benchlib import build_game, report, runs  # noqa: E402

root = project_copy()
BROWSE = runs(1800, 480)            # frames of paging through the table (one step a frame with --fast)
FILTERED = runs(1200, 360)


def keys(lines, step, *taps):
    for t in taps:
        lines.append(f"{step} {t}")
        step += 2
    return step


def open_table(lines, step, field):
    """Shift+F1, Ctrl+F, the field's name, Enter (the tree's filter), Enter (the table)."""
    step = keys(lines, step, "down LSHIFT", "tap F1", "up LSHIFT", "down LCTRL", "tap F", "up LCTRL")
    return keys(lines, step, *[f"tap {c.upper()}" for c in field], "tap ENTER", "tap ENTER")


def browse(lines, step, frames):
    """Shift+Down (a page) every 6 frames; Ctrl+Up back to the top at the end."""
    end = step + frames
    while step < end:
        step = keys(lines, step, "down LSHIFT", "tap DOWN", "up LSHIFT") + 1
        if step % 600 < 7:
            step = keys(lines, step, "down LCTRL", "tap UP", "up LCTRL")
    return step


def run(name, lines, *extra):
    path = os.path.join(root, name + ".txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    h = Host(root, "--fast", "--no-watch", "--input", path, "--watchdog", watchdog(5), *extra)
    h.wait_ev("quit", timeout=3000)
    h.proc.wait(120)
    h.stop()
    return [e for e in h.of("inspector_frame") if e["table"]]


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else float("nan")


# the sample: the fight, the entities table browsed, then filtered
lines = ["5 tap F10"] + [f"{s} tap F3" for s in range(20, 300 + BROWSE + FILTERED, 600)]
step = open_table(lines, 300, "entities")
step = browse(lines, step, BROWSE)
step = keys(lines, step, "down LCTRL", "tap F", "up LCTRL", "tap D", "tap R", "tap O", "tap N", "tap E", "tap ENTER")
step = browse(lines, step, FILTERED)
lines.append(f"{step + 2} quit")
frames = run("sample", lines)
plain = [e for e in frames if not e["filtered"] and e["rows"] == 2048]
filtered = [e for e in frames if e["filtered"]]

# an example folder: sprites_batch's 20,000 movers
game = example_copy(root, "sprites_batch")
build_game(root, game)
lines = []
step = browse(lines, open_table(lines, 30, "movers"), BROWSE)
lines.append(f"{step + 2} quit")
big = [e for e in run("movers", lines, "--game", game) if e["rows"] == 20000]

cleanup(root)
report({
    "inspector_frame_ms": round(median([e["median_ms"] for e in plain]), 4),
    "inspector_frame_max_ms": round(max([e["max_ms"] for e in plain] or [float("nan")]), 3),
    "inspector_filtered_frame_ms": round(median([e["median_ms"] for e in filtered]), 4),
    "inspector_20k_frame_ms": round(median([e["median_ms"] for e in big]), 4),
})
