"""The long soak: 500 reloads in one host process; reports soak_500_rss_growth_mb and friends."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from test_soak import soak  # noqa: E402
from benchlib import report, runs  # noqa: E402

r = soak(runs(500, 20))   # the keys keep their name in the quick mode's 20 reloads
report({"soak_500_rss_growth_mb": round(r["rss_growth_mb"], 3), "soak_500_fd_growth": r["fd_growth"],
        "soak_500_maps_growth": r["maps_growth"]})
