"""End to end: art changes while the host runs headless.

Overwrite a PNG -> the next screenshots show the new pixels; corrupt it -> the placeholder checker
and an asset_error event naming the file; restore it -> back to normal. The host never exits.
The probe is a rotated wall pillar, visible on the title screen at a fixed place.
"""
import os
import struct
import time
import zlib

from hostlib import Checks, Host, check, end_run, input_script, project_copy, read_png

checks = Checks()
root = project_copy()
wall_png = os.path.join(root, "assets", "sprites", "wall", "block.png")
original = open(wall_png, "rb").read()
PROBE = (320, 360)   # screen pixel inside the left pillar on the title screen


def write_png(path, w, h, rgba):
    raw = b"".join(b"\x00" + bytes(rgba) * w for _ in range(h))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def probe(h, name):
    """The mean colour around PROBE in the next F12 screenshot (the script presses F12 steadily)."""
    m = h.mark()
    shot = h.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok"), 10, m, what=f"screenshot ({name})")
    w, hgt, rows = read_png(shot["path"])
    px = [rows[PROBE[1] + dy][PROBE[0] + dx] for dy in range(-2, 3) for dx in range(-2, 3)]
    return tuple(sum(p[i] for p in px) / len(px) for i in range(3)), shot


# F12 every 20 steps: a steady stream of screenshots to look at
script = input_script(root, "".join(f"{20 * i} tap F12\n" for i in range(1, 3000)), "shots.txt")
host = Host(root, "--input", script)


def baseline():
    host.wait_ev("new_code_running", version=1, timeout=30)
    color, _ = probe(host, "baseline")
    state["base"] = color
    check(max(color) > 10, f"the pillar is not visible at {PROBE}: {color}")


def overwrite_shows_new_art():
    m = host.mark()
    write_png(wall_png, 64, 64, (0, 255, 0, 255))
    reload = host.wait_ev("asset_reload", timeout=10, since=m)
    # How fast is asset_reload_ms in ./build.sh bench; a test only checks that it happened.
    check(reload["ms"] >= 0, f"asset_reload event without a time: {reload}")
    time.sleep(0.2)
    color, _ = probe(host, "green")
    check(color[1] > 2 * color[0] + 10 and color[1] > 2 * color[2] + 10, f"not green after the overwrite: {color}")


def corrupt_shows_placeholder_and_error():
    m = host.mark()
    with open(wall_png, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\nthis is not a png at all")
    err = host.wait_ev("asset_error", timeout=10, since=m)
    check(err["file"].endswith("wall/block.png") and err["reason"], f"error event: {err}")
    logged = [e for e in host.of("log", m) if e.get("level") == "error" and "block.png" in e.get("msg", "")]
    check(logged, "no error log line names the file")
    time.sleep(0.2)
    color, _ = probe(host, "placeholder")
    check(abs(color[1] - state["base"][1]) > 5 or abs(color[0] - state["base"][0]) > 5, f"no placeholder: {color}")
    check(color[0] > color[1] + 10 or max(color) < 30, f"the placeholder should be magenta/black: {color}")
    check(host.alive(), "host died on a corrupt PNG")


def restore_brings_it_back():
    m = host.mark()
    with open(wall_png + ".tmp", "wb") as f:
        f.write(original)
    os.replace(wall_png + ".tmp", wall_png)
    host.wait_ev("asset_reload", timeout=10, since=m)
    time.sleep(0.2)
    color, _ = probe(host, "restored")
    check(all(abs(a - b) < 4 for a, b in zip(color, state["base"])), f"restored {color} vs original {state['base']}")


state = {}
checks.case("baseline", baseline)
checks.case("overwrite_shows_new_art", overwrite_shows_new_art)
checks.case("corrupt_shows_placeholder_and_error", corrupt_shows_placeholder_and_error)
checks.case("restore_brings_it_back", restore_brings_it_back)
end_run(checks, host, root)
