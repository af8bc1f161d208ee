"""Benchmark of an Aseprite file's save while the game runs, against the real host (headless):

aseprite_reload_ms      from the write of a 64x64, 32-frame .aseprite file (zlib cels, one tag) to the frame that
                        draws with the repacked atlas (the host's asset_reload event: atlas_pack composited the 32
                        frames, the changed page was decoded and its texture swapped in), median of 8 saves, each
                        with new pixels; the same definition as asset_reload_ms (bench_live.py) for a PNG
aseprite_reload_max_ms  the slowest of them
png_reload_same_run_ms  the baseline in the same run: a 64x64 PNG in the same folder overwritten the same way,
                        interleaved with the Aseprite saves (the same watcher, packer and page reload)
aseprite_vs_png_reload_x  aseprite_reload_ms / png_reload_same_run_ms: what the Aseprite file itself costs, with
                        the machine's load divided out

The game is examples/sprites_aseprite in a copy of the project; the file sits in its own assets/sprites.
"""
import os
import shutil
import statistics
import sys
import struct
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import ROOT, Host, cleanup, project_copy  # noqa: E402
from benchlib import build_game, report, runs  # noqa: E402
import aseprite_write as aw  # noqa: E402

SIZE, FRAMES = 64, 32


def png(w, h, rgba):
    """An 8-bit RGBA PNG of one colour."""
    raw = b"".join(b"\x00" + bytes(rgba) * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


root = project_copy()
shutil.copytree(os.path.join(ROOT, "examples", "sprites_aseprite"), os.path.join(root, "examples", "sprites_aseprite"))
game = os.path.join(root, "examples", "sprites_aseprite")
target = os.path.join(game, "assets", "sprites", "bench.aseprite")
aw.write(target, aw.strip_bytes(SIZE, SIZE, FRAMES, base=0))
baseline = os.path.join(game, "assets", "sprites", "baseline.png")
aw.write(baseline, png(SIZE, SIZE, (0, 0, 0, 255)))
build_game(root, game)

host = Host(root, "--game", game)
host.wait_ev("new_code_running", version=1, timeout=60)
time.sleep(0.5)   # the start's background repack check is over



def save_to_drawn(path, data):
    """ms from the write to the asset_reload event that names the file (and the host's own count)."""
    m = host.mark()
    aw.write(path, data)
    written = time.time()
    name = os.path.basename(path)
    r = host.wait_for(lambda e: e.get("ev") == "asset_reload" and e.get("file", "").endswith(name), 30, m,
                      what=f"the atlas with the new {name}")
    if r.get("errors"):
        sys.exit(f"bench_aseprite: the reload reported errors: {r}")
    time.sleep(0.3)
    return (r["wall"] - written) * 1000.0, r["ms"]


reloads, host_ms, pngs = [], [], []
for i in range(runs(8, 2)):
    t, own = save_to_drawn(target, aw.strip_bytes(SIZE, SIZE, FRAMES, base=i + 1))
    reloads.append(t)
    host_ms.append(own)
    pngs.append(save_to_drawn(baseline, png(SIZE, SIZE, (20 * i, 255 - 20 * i, 90, 255)))[0])

host.stop()
cleanup(root)
print(f"aseprite reloads ({SIZE}x{SIZE}, {FRAMES} frames): {[round(t, 1) for t in reloads]} ms "
      f"(host's own count from the change seen: {[round(t, 1) for t in host_ms]}); the PNG beside it: "
      f"{[round(t, 1) for t in pngs]} ms", file=sys.stderr)
report({
    "aseprite_reload_ms": round(statistics.median(reloads), 1),
    "aseprite_reload_max_ms": round(max(reloads), 1),
    "png_reload_same_run_ms": round(statistics.median(pngs), 1),
    "aseprite_vs_png_reload_x": round(statistics.median(reloads) / max(statistics.median(pngs), 0.1), 2),
})
