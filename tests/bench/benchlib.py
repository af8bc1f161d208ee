"""benchlib.py - what every Python benchmark part shares: the quick mode and the line it ends with.

BENCH_QUICK=1 is the suite's bench smoke leg (./build.sh test runs every part once that way): each part takes
few iterations, so a benchmark whose edit site moved or whose host flag went away fails in the suite, not
months later in ./build.sh bench. A quick run's numbers are not measurements; build/bench.json comes from
./build.sh bench alone.
"""
import json
import math
import os
import sys

QUICK = os.environ.get("BENCH_QUICK") == "1"
# A benchmark times real compiles: the compiler cache (build.sh puts ccache in front of every compile) would
# answer an edit it saw in an earlier run, or a comment-only edit, from the cache. A part that wants the cache
# for setup (a copy's first build) asks for it with cached_env().
os.environ.setdefault("CCACHE_DISABLE", "1")


def cached_env():
    """The environment with the compiler cache on, for a part's setup (never for what it times)."""
    env = dict(os.environ)
    env.pop("CCACHE_DISABLE", None)
    return env


def build_game(root, game):
    """./build.sh game for a game folder in a project copy (the compiler cache on: setup, not a measurement); the
    part ends with the build's output when it fails."""
    import subprocess
    b = subprocess.run(["./build.sh", "game", game], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600, env=cached_env())
    if b.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: ./build.sh game failed:\n{b.stdout[-3000:]}")


def runs(full, quick=1):
    """How many times to repeat a measurement: `full` for ./build.sh bench, `quick` in the smoke leg."""
    return quick if QUICK else full


def report(metrics):
    """Print the part's one flat JSON object (its last line), after checking every value is a finite number:
    a NaN, a None or a missing metric is the benchmark's failure, never a number in build/bench.json."""
    bad = {k: v for k, v in metrics.items()
           if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)}
    if not metrics or bad:
        sys.exit(f"{os.path.basename(sys.argv[0])}: no metrics, or metrics that are not finite numbers: {bad}")
    print(json.dumps(metrics), flush=True)
