"""Benchmark of the F4 tweak panel's write-back, against the real host (headless, the shipped game):

tweak_writeback_ms   from the end of a drag (the mouse button released: the host's tweak_drag_end event) to the
                     literal rewritten in its file on disk (the host's tweak_written event, after the rename),
                     median of 12 drags of a float TWEAK (GRID_STIFFNESS, found by its name in whichever game
                     file defines it), driven by a scripted mouse. Target: <= 250 ms.
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, input_script, project_copy  # noqa: E402
from panel_script import VALUE, Script  # noqa: E402
from benchlib import report, runs  # noqa: E402

DRAGS = runs(12, 2)
TARGET = "GRID_STIFFNESS"   # a float the panel can drag without changing how the game plays


def tweak_site(root, name):
    """(file, line) of `name = TWEAK(<float>)` in the game's sources: the call the drags target, found by what it
    is, so moving it to another file or column does not stale the benchmark."""
    pattern = re.compile(r"\b" + name + r"\s*=\s*TWEAK\(\s*[-+0-9.]+f?\s*\)")
    game = os.path.join(root, "game")
    for f in sorted(os.listdir(game)):
        if f.endswith((".cpp", ".h")):
            for i, text in enumerate(open(os.path.join(game, f)), 1):
                if pattern.search(text):
                    return f, i
    sys.exit(f"bench_tweak_writeback: no float TWEAK named {name} in game/")


def squeeze(text):
    """The panel's filter matches letters and digits only, lower case."""
    return "".join(c for c in text.lower() if c.isalnum())


def main():
    root = project_copy()
    file, line = tweak_site(root, TARGET)
    s = Script().at("tap ENTER").open_panel().filter(squeeze(f"{file}{line}{TARGET}"))
    for i in range(DRAGS):
        dx = 20 if i % 2 == 0 else -20
        s.drag(VALUE[0], VALUE[1], VALUE[0] + dx, VALUE[1], moves=3).wait(6)
    s.wait(20).at("quit")
    host = Host(root, "--input", input_script(root, s.text()), "--fast")
    try:
        rc = host.proc.wait(300)
    finally:
        host.stop()
    ends = host.of("tweak_drag_end")
    written = host.of("tweak_written")
    ms = []
    for e in ends:
        w = next((x for x in written if x["wall"] >= e["wall"] and x["frame"] >= e["frame"]), None)
        if w:
            ms.append((w["wall"] - e["wall"]) * 1000.0)
    if rc != 0 or len(ms) != DRAGS:
        print(f"bench_tweak_writeback: host exit {rc}, {len(ms)} of {DRAGS} drags written\n{host.tail()}")
        sys.exit(1)
    print(f"tweak write-back after a drag: median {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms over {DRAGS} drags")
    cleanup(root)
    report({"tweak_writeback_ms": round(statistics.median(ms), 3)})


main()
