"""The control socket's cost when nobody uses it (docs/control.md): the poll runs between frames in every development
host, so a frame with no client should not notice it.

The headless sample runs 600 frames (the quick mode: 60) with --fast and no client; the host's last event,
control_end, says how many polls ran and their median, average and largest time. control_poll_us is the median
(an accept and nothing else), control_poll_us_avg the average and control_poll_us_max the largest (a poll
descheduled on a busy machine shows in these two, not in the median). control_request_us is what one small request costs a
client end to end (a status round trip through the socket, median of 50; quick: 5), which is at most a frame's
wait plus the work: the poll runs once a frame.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402

root = project_copy()
try:
    h = Host(root, "--fast", "--no-watch", "--frames", str(runs(600, 60)))
    end = h.wait_ev("control_end", timeout=300)
    h.stop()
    h = Host(root, "--no-watch")
    c = h.control()
    times = []
    for _ in range(runs(50, 5)):
        t0 = time.perf_counter()
        c.request("status")
        times.append((time.perf_counter() - t0) * 1e6)
    c.close()
    h.stop()
    report({"control_poll_us": end["poll_us_median"], "control_poll_us_avg": end["poll_us_avg"],
            "control_poll_us_max": end["poll_us_max"],
            "control_polls": end["polls"], "control_request_us": statistics.median(times)})
finally:
    cleanup(root)
