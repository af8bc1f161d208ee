"""results.py - the bench runner's checks on its parts' output (tests/run.sh: cmd_bench and the smoke leg).

  results.py check OUT              OUT's last line is one flat JSON object of finite numbers (exit 1 if not)
  results.py merge DEST FAILED OUT...  every part's metrics into DEST, with "failed": the names in FAILED
                                        (space separated) and "quick": 1 when BENCH_QUICK=1 made them
"""
import json
import math
import os
import sys


def metrics(path):
    """The part's metrics, or a reason why there are none."""
    try:
        lines = [l for l in open(path, errors="replace").read().splitlines() if l.strip()]
    except OSError as e:
        return None, f"no output ({e.strerror})"
    if not lines or not lines[-1].lstrip().startswith("{"):
        return None, "its last line is not a JSON object"
    try:
        obj = json.loads(lines[-1])
    except ValueError as e:
        return None, f"its last line is not JSON ({e})"
    if not isinstance(obj, dict) or not obj:
        return None, "no metrics"
    bad = [k for k, v in obj.items() if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)]
    if bad:
        return None, f"not finite numbers: {', '.join(bad)}"
    return obj, None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        obj, why = metrics(sys.argv[2])
        if why:
            print(f"bench: {os.path.basename(sys.argv[2])}: {why}")
            return 1
        print(f"bench: {len(obj)} metrics: {', '.join(sorted(obj))}")
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "merge":
        merged = {}
        for path in sys.argv[4:]:
            obj, _ = metrics(path)
            merged.update(obj or {})
        out = dict(sorted(merged.items()))
        out["failed"] = sys.argv[3].split()
        if os.environ.get("BENCH_QUICK") == "1":
            out["quick"] = 1
        with open(sys.argv[2], "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        return 0
    print(__doc__)
    return 2


sys.exit(main())
