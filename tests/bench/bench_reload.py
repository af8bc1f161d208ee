"""Benchmarks of the live loop on the shipped game, run against the real host (headless), in the
heaviest fight: the autopilot plays while F3 drops a swarm every 8 s, so the frames measured during
builds are the game's most expensive ones. max_frame_no_build_p50_ms / _ms are the same fight's
seconds without a build (the longest frame interval of each second), the baseline to compare with.

21 edits, 7 of each kind, interleaved: a changed constant (SOUND_FAR_VOLUME in game/sound.cpp), a
changed function body (drone_update in game/enemies.cpp), a new function (appended to game/ui.cpp).
Each edit's time from the file write to the first step of the new code is cut into stages by the
host's own events, which add up to the whole:

  save_to_seen            the write -> the watcher read its first event (watch_batch.seen_wall)
  debounce                that event -> the batch handed over (watch_batch.debounce_ms; part of the next)
  seen_to_compiler_start  that event -> the compiler process started (build_start)
  compile                 the compiler process, start to exit (build_stage compile)
  link                    the linker process (build_stage link)
  load_swap               the linker's exit -> the new library loaded and swapped in (reload)
  first_step              the swap -> the first fixed step run by the new code (new_code_running)

Keys: edit_to_reload_p50_ms / _p95_ms (all edits), edit_to_reload_<kind>_p50_ms, stage_<name>_p50_ms /
_p95_ms, compile_cpu_p50_ms / link_cpu_p50_ms (the child processes' CPU time, from wait4),
build_p50_ms (compile + link processes alone, wall), build_cpu_p50_ms, swap_ms (dlopen + swap alone),
max_frame_during_build_ms (the longest frame interval while a build ran, with the fight's enemy
count beside it), and the wrapper: build_sh_game_p50_ms is `./build.sh game` after a code change
(what the host runs when compile.cmd is stale), build_wrapper_ms its cost beyond the compiler and
linker it runs (bash, checksums of the cached parts' inputs, writing compile.cmd).
Every wait has a timeout, and the whole benchmark stops after BENCH_TIMEOUT seconds (default 900).
"""
import json
import re
import os
import resource
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402

PER_KIND = runs(7)
STAGES = ["save_to_seen", "debounce", "seen_to_compiler_start", "compile", "link", "load_swap", "first_step"]


def on_alarm(sig, frame):
    raise TimeoutError(f"bench_reload: not done after {os.environ.get('BENCH_TIMEOUT', '900')} s")


signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(int(os.environ.get("BENCH_TIMEOUT", "900")))


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


root = project_copy()
files = {k: os.path.join(root, "game", f) for k, f in (("const", "sound.cpp"), ("body", "enemies.cpp"), ("newfn", "ui.cpp"))}
original = {k: read(p) for k, p in files.items()}
CONST = "SOUND_FAR_VOLUME  = 0.3f;"
BODY = "e->angle += 4.0f * dt;"
assert CONST in original["const"] and BODY in original["body"], "the benchmark's edit sites moved"
added = []


def make_edit(kind, i):
    if kind == "const":
        write(files[kind], original[kind].replace(CONST, f"SOUND_FAR_VOLUME  = 0.{31 + i}f;"))
    elif kind == "body":
        write(files[kind], original[kind].replace(BODY, f"e->angle += {4 + i % 4}.{i}f * dt;"))
    else:
        added.append(f"static int bench_added_{i}(int x) {{ return x * {i + 2}; }}\n")
        write(files[kind], original[kind] + "\n" + "".join(added))


# ---- the wrapper: ./build.sh game after a code change, before the host runs (it would reload each one)
wrapper, sh_wall, sh_cpu = [], [], []
for i in range(runs(5)):
    write(files["body"], original["body"].replace(BODY, f"e->angle += 4.{i}f * dt;"))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    p = subprocess.run(["bash", os.path.join(root, "build.sh"), "game"], capture_output=True, text=True, timeout=300)
    wall = (time.time() - t0) * 1000.0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert p.returncode == 0, f"build.sh game failed:\n{p.stderr}"
    line = [l for l in p.stderr.splitlines() if l.startswith("game: compile ")][-1]
    # "game: compile 123 ms (1 of 4 chunks), link 30 ms"
    m = re.match(r"game: compile (\d+) ms \(\d+ of \d+ chunks\), link (\d+) ms", line)
    assert m, f"bench_reload: build.sh game's timing line changed: {line}"
    compile_ms, link_ms = float(m.group(1)), float(m.group(2))
    sh_wall.append(wall)
    sh_cpu.append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000.0)
    wrapper.append(wall - compile_ms - link_ms)
write(files["body"], original["body"])

# ---- the host in the heaviest fight
script = os.path.join(root, "fight.txt")
write(script, "5 tap F10\n" + "".join(f"{s} tap F3\n" for s in range(200, 200000, 480)))
host = Host(root, "--input", script)
host.wait_ev("new_code_running", version=1, timeout=30)
host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("mode") == 1 and e["game"].get("enemies", 0) >= 50,
              60, what="the F3 fight (50+ enemies)")

rows, version = [], 1
for i in range(3 * PER_KIND):
    kind = ("const", "body", "newfn")[i % 3]
    m = host.mark()
    written = time.time()   # taken before the write: a descheduled benchmark must not make the save look later
    make_edit(kind, i)
    ran = host.wait_for(lambda e: e.get("ev") == "new_code_running" and e["version"] > version, 60, m,
                        what=f"edit {i} ({kind}) running")
    version = ran["version"]

    def ev(name, **f):
        got = [e for e in host.of(name, m) if all(e.get(k) == v for k, v in f.items())]
        assert got, f"edit {i}: no {name} {f} event"
        return got[-1] if name != "watch_batch" else got[0]
    batch = ev("watch_batch", code=True)
    start = ev("build_start")
    comp = ev("build_stage", stage="compile")
    link = ev("build_stage", stage="link")
    reload = ev("reload", why="build")
    assert start["direct"] is True, f"edit {i}: the host ran build.sh, not compile.cmd: {start}"
    t = {
        "save_to_seen": batch["seen_wall"] - written,
        "debounce": batch["debounce_ms"] / 1000.0,
        "seen_to_compiler_start": start["wall"] - batch["seen_wall"],
        "compile": comp["wall"] - start["wall"],
        "link": link["wall"] - comp["wall"],
        "load_swap": reload["wall"] - link["wall"],
        "first_step": ran["wall"] - reload["wall"],
    }
    row = {k: v * 1000.0 for k, v in t.items()}
    row["total"] = (ran["wall"] - written) * 1000.0
    row["kind"] = kind
    row["compile_cpu"], row["link_cpu"] = comp["cpu_ms"], link["cpu_ms"]
    row["swap"] = reload["swap_ms"]
    rows.append(row)
    print(f"edit {i:2} {kind:5} total {row['total']:6.1f} ms: "
          + ", ".join(f"{s} {row[s]:.1f}" for s in STAGES), file=sys.stderr)
    time.sleep(0.3)

frames = host.of("build_frames")
fight = [e["game"].get("enemies", 0) for e in host.of("frame_stats") if e.get("building")]
# the same fight's seconds without a build: the baseline the build's frames compare with
idle = [e["interval_ms_max"] for e in host.of("frame_stats") if not e.get("building") and e["game"].get("mode") == 1]
host.stop()
signal.alarm(0)
cleanup(root)

totals = [r["total"] for r in rows]
result = {
    "edit_to_reload_p50_ms": round(statistics.median(totals), 1),
    "edit_to_reload_p95_ms": round(pct(totals, 0.95), 1),
    "edit_to_reload_edits": len(rows),
    "build_p50_ms": round(statistics.median(r["compile"] + r["link"] for r in rows), 1),
    "build_cpu_p50_ms": round(statistics.median(r["compile_cpu"] + r["link_cpu"] for r in rows), 1),
    "compile_cpu_p50_ms": round(statistics.median(r["compile_cpu"] for r in rows), 1),
    "link_cpu_p50_ms": round(statistics.median(r["link_cpu"] for r in rows), 1),
    "swap_ms": round(statistics.median(r["swap"] for r in rows), 3),
    "build_sh_game_p50_ms": round(statistics.median(sh_wall), 1),
    "build_sh_game_cpu_p50_ms": round(statistics.median(sh_cpu), 1),
    "build_wrapper_ms": round(statistics.median(wrapper), 1),
    "max_frame_during_build_ms": round(max(e["max_frame_interval_ms"] for e in frames), 2),
    "max_frame_during_build_p50_ms": round(statistics.median(e["max_frame_interval_ms"] for e in frames), 2),
    "max_frame_no_build_p50_ms": round(statistics.median(idle), 2) if idle else 0,
    "max_frame_no_build_ms": round(max(idle), 2) if idle else 0,
    "enemies_during_builds_min": min(fight) if fight else 0,
    "enemies_during_builds_p50": statistics.median(fight) if fight else 0,
}
for kind in ("const", "body", "newfn"):
    result[f"edit_to_reload_{kind}_p50_ms"] = round(statistics.median(r["total"] for r in rows if r["kind"] == kind), 1)
for s in STAGES:
    result[f"stage_{s}_p50_ms"] = round(statistics.median(r[s] for r in rows), 1)
    result[f"stage_{s}_p95_ms"] = round(pct([r[s] for r in rows], 0.95), 1)
report(result)
