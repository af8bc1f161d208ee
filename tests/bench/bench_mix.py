"""The sample game's mix in its heaviest fight (tests/e2e/test_mix.py's fight: the autopilot, three F3 swarms
and a bomb, on the game's fixed seed), heard through SDL's disk audio driver in real time; medians of 3 runs.

mix_peak                    the output's largest sample over the fight (1.0 = full scale)
mix_peak_before_limiter     the mixer's loudest sample before its limiter (the host's audio_levels event)
mix_limiter_engaged_pct     percent of the fight's 5 ms windows in which the output sits at the limiter's ceiling
mix_rms                     the output's RMS over the fight
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from test_mix import describe, heavy_fight  # noqa: E402
from benchlib import report, runs  # noqa: E402

fights = []
for _ in range(runs(3)):
    r = heavy_fight()
    print(describe(r), file=sys.stderr)
    fights.append(r)
report({
    "mix_peak": round(statistics.median(r["peak"] for r in fights), 3),
    "mix_peak_before_limiter": round(statistics.median(r["levels"]["peak_before_limiter"] for r in fights), 3),
    "mix_limiter_engaged_pct": round(statistics.median(100.0 * r["at_ceiling"] / r["windows"] for r in fights), 3),
    "mix_rms": round(statistics.median(r["rms"] for r in fights), 3),
})
