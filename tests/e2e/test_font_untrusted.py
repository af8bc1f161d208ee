"""End to end: a font file is untrusted input, and a bad one never costs the session.

Crafted fonts are made here from DejaVu Sans: a valid table directory whose cmap encodings point far
outside the file (stb_truetype reads wherever they point), glyphs that are composites of themselves
(endless recursion inside stb_truetype), a truncated copy and random bytes. For each:
  - started with --font on it, the host runs, logs an error and an asset_error event naming the
    file, and still draws text (the default font stands in: the title reads as with no --font);
  - saved over the font the running host uses: it keeps running, says so on screen and in the log,
    and keeps drawing the previous font (screenshot); saving a good font then loads it.
"""
import os
import random
import shutil
import struct
import time

from hostlib import Checks, Host, check, cleanup, input_script, project_copy, read_png

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
TITLE = (330, 160, 950, 240)       # "NEON SWARM" on the title screen: x0, y0, x1, y1
NOTICE_ROW = 706                   # the asset-error line along the bottom of the screen

checks = Checks()
root = project_copy()
fonts_dir = os.path.join(root, "assets", "fonts")
os.makedirs(fonts_dir, exist_ok=True)
src = open(DEJAVU, "rb").read()


def tables(d):
    n = struct.unpack(">H", d[4:6])[0]
    out = {}
    for i in range(n):
        tag, _, off, ln = struct.unpack(">4sIII", d[12 + 16 * i:28 + 16 * i])
        out[tag] = (off, ln)
    return out


def bad_cmap(d):
    """Every cmap encoding record points 2 GB past the start of the table."""
    d = bytearray(d)
    off, _ = tables(d)[b"cmap"]
    for i in range(struct.unpack(">H", d[off + 2:off + 4])[0]):
        struct.pack_into(">I", d, off + 4 + 8 * i + 4, 0x7FFFFFF0)
    return bytes(d)


def self_composite(d):
    """Every outline becomes a composite glyph made of itself."""
    d = bytearray(d)
    t = tables(d)
    head, loca, glyf, maxp = t[b"head"][0], t[b"loca"][0], t[b"glyf"][0], t[b"maxp"][0]
    long_loca = struct.unpack(">h", d[head + 50:head + 52])[0]
    for g in range(struct.unpack(">H", d[maxp + 4:maxp + 6])[0]):
        if long_loca:
            a, b = struct.unpack(">II", d[loca + 4 * g:loca + 4 * g + 8])
        else:
            a, b = [2 * x for x in struct.unpack(">HH", d[loca + 2 * g:loca + 2 * g + 4])]
        if b - a >= 16:
            struct.pack_into(">hhhhhHHbb", d, glyf + a, -1, 0, 0, 100, 100, 2, g, 0, 0)
    return bytes(d)


rng = random.Random(10)
BAD = {
    "bad_cmap": bad_cmap(src),
    "self_composite": self_composite(src),
    "truncated": src[:len(src) // 3],
    "random": bytes(rng.randrange(256) for _ in range(4096)),
}


def save(path, data):
    """An editor's save: a new file renamed over the old one."""
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def crop(path, box):
    _, _, rows = read_png(path)
    x0, y0, x1, y1 = box
    return [rows[y][x][:3] for y in range(y0, y1, 2) for x in range(x0, x1, 2)]


def diff(a, b):
    return sum(abs(p - q) for pa, pb in zip(a, b) for p, q in zip(pa, pb)) / (3 * len(a))


def brightness(px):
    return sum(sum(p) for p in px) / (3 * len(px))


def run_once(*args):
    """A host that runs 90 frames and exits; (exit code, events, screenshot path)."""
    shot = os.path.join(root, f"shot-{time.time_ns()}.png")
    h = Host(root, "--frames", "90", "--screenshot", f"80:{shot}", *args)
    try:
        rc = h.proc.wait(60)
    finally:
        h.stop()
    return rc, h, shot


state = {}


def baseline_without_font_flag():
    rc, h, shot = run_once()
    check(rc == 0, f"exit {rc}")
    state["title"] = crop(shot, TITLE)
    check(brightness(state["title"]) > 8, "no title text on the baseline screenshot")


def start_with_bad_font(name):
    def case():
        path = os.path.join(fonts_dir, f"start_{name}.ttf")
        save(path, BAD[name])
        rc, h, shot = run_once("--font", path)
        check(rc == 0, f"host exit {rc} with --font {name}; output:\n{h.tail()}")
        errs = [e for e in h.of("asset_error") if e.get("file") == path]
        check(errs and errs[0].get("reason"), f"no asset_error event naming {path}: {h.of('asset_error')}")
        logged = [e for e in h.of("log") if e.get("level") == "error" and path in e.get("msg", "")]
        check(logged, "no error log line names the font")
        check(h.of("new_code_running"), "the game never ran")
        d = diff(crop(shot, TITLE), state["title"])
        check(d < 3, f"the title does not read in the fallback font (mean difference {d:.1f})")
    return case


def running_host_keeps_its_font():
    live = os.path.join(fonts_dir, "live.ttf")
    shutil.copyfile(SERIF, live)
    script = input_script(root, "".join(f"{15 * i} tap F12\n" for i in range(1, 4000)), "shots.txt")
    host = Host(root, "--font", live, "--input", script)
    try:
        host.wait_ev("new_code_running", timeout=30)

        def shot():
            m = host.mark()
            e = host.wait_for(lambda e: e.get("ev") == "screenshot" and e.get("ok"), 10, m, what="screenshot")
            return e["path"]

        serif1, serif2 = crop(shot(), TITLE), crop(shot(), TITLE)
        noise = diff(serif1, serif2)
        check(diff(serif1, state["title"]) > 3 * noise + 2, "the serif font does not look different from the default")
        for name in ("bad_cmap", "self_composite", "truncated", "random"):
            m = host.mark()
            save(live, BAD[name])
            err = host.wait_for(lambda e: e.get("ev") == "asset_error" and e.get("file") == live, 20, m,
                                what=f"asset_error for {name}")
            check(err.get("reason"), f"{name}: no reason")
            rel = host.wait_for(lambda e: e.get("ev") == "asset_reload" and e.get("font"), 20, m, what="font reload")
            check(rel.get("ok") is False, f"{name}: reload reported ok")
            check(host.alive(), f"host died on {name}")
            time.sleep(0.2)
            s = shot()
            d = diff(crop(s, TITLE), serif1)
            check(d <= 2 * noise + 2, f"{name}: the previous font is not what draws now (difference {d:.1f})")
            _, _, rows = read_png(s)
            notice = brightness([rows[NOTICE_ROW][x][:3] for x in range(0, 400)])
            check(notice > 15, f"{name}: no error line on screen (brightness {notice:.1f})")
        m = host.mark()
        save(live, src)
        rel = host.wait_for(lambda e: e.get("ev") == "asset_reload" and e.get("font") and e.get("ok"), 20, m,
                            what="the fixed font loading")
        time.sleep(0.2)
        d = diff(crop(shot(), TITLE), state["title"])
        check(d < 3, f"the fixed font (DejaVu Sans) does not draw (difference {d:.1f})")
        check(host.alive(), "host died")
    finally:
        rc = host.stop()
    check(rc == 0, f"host exit {rc}")


checks.case("baseline_without_font_flag", baseline_without_font_flag)
for name in BAD:
    checks.case(f"start_with_{name}", start_with_bad_font(name))
checks.case("running_host_keeps_its_font", running_host_keeps_its_font)
if not checks.failed:
    cleanup(root)
checks.finish()
