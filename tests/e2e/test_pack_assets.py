"""tools/pack_assets: the project's real atlas output and sounds go into one archive that a reader written
from th_pack.h's format description alone (here, in Python) reads back byte for byte; damaged archives,
missing files and bad names are refused with a message naming the file, and leave nothing behind."""
import os
import shutil
import struct
import subprocess
import tempfile

from hostlib import ROOT, Checks, check

checks = Checks()
TOOL = os.path.join(ROOT, "build", "tools", "pack_assets")
M64 = (1 << 64) - 1


def thpk_hash(data, seed=0):
    """th_pack.h's check hash, from its description: 8 bytes a step little-endian, then the tail."""
    h = 14695981039346656037 ^ seed
    i = 0
    while i + 8 <= len(data):
        h = ((h ^ int.from_bytes(data[i:i + 8], "little")) * 1099511628211) & M64
        h ^= h >> 29
        i += 8
    for b in data[i:]:
        h = ((h ^ b) * 1099511628211) & M64
    h ^= len(data)
    h = (h * 0x9E3779B97F4A7C15) & M64
    return h ^ (h >> 32)


def read_archive(path):
    """name -> bytes, checking everything the format promises."""
    b = open(path, "rb").read()
    check(b[:8] == b"THPK\r\n\x1a\n", "magic")
    version, count, index_bytes, index_check, size = struct.unpack_from("<IIIIQ", b, 8)
    check(version == 1 and size == len(b), f"version {version}, size {size} vs {len(b)}")
    index = b[32:32 + index_bytes]
    check(thpk_hash(index) & 0xFFFFFFFF == index_check, "index check")
    names = index[count * 32:]
    out, prev_name, prev_end = {}, None, 32 + index_bytes
    for i in range(count):
        off, n, data_check, noff, nlen = struct.unpack_from("<QQQII", index, i * 32)
        name = names[noff:noff + nlen]
        check(names[noff + nlen] == 0, "name NUL")
        check(prev_name is None or name > prev_name, "names ascending")
        check(off >= prev_end and off % 16 == 0 and off + n <= len(b), f"{name}: placement")
        data = b[off:off + n]
        check(thpk_hash(data) == data_check, f"{name}: check")
        out[name.decode()] = data
        prev_name, prev_end = name, off + n
    return out


def run(*args):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def project_files():
    """What a release packs today: the atlas output and the sound sources (name -> path)."""
    files = {}
    for prefix, d in (("atlas/", os.path.join(ROOT, "build", "assets")), ("sfx/", os.path.join(ROOT, "assets", "sfx"))):
        for dirpath, dirnames, filenames in os.walk(d):
            dirnames[:] = [x for x in dirnames if not x.startswith(".")]
            for f in filenames:
                if not f.startswith("."):
                    full = os.path.join(dirpath, f)
                    files[prefix + os.path.relpath(full, d).replace(os.sep, "/")] = full
    return files


def real_assets_round_trip():
    tmp = tempfile.mkdtemp(prefix="pack_assets.")
    try:
        out = os.path.join(tmp, "game.pak")
        rc, said = run(out, "atlas/=" + os.path.join(ROOT, "build", "assets"), "sfx/=" + os.path.join(ROOT, "assets", "sfx"),
                       "fonts/default.ttf=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        check(rc == 0, f"exit {rc}: {said}")
        want = project_files()
        check("atlas/atlas.txt" in want and "atlas/atlas_0.png" in want, f"the atlas is not built: {sorted(want)}")
        want["fonts/default.ttf"] = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        got = read_archive(out)
        check(sorted(got) == sorted(want), f"names {sorted(got)} vs {sorted(want)}")
        for name, path in want.items():
            check(got[name] == open(path, "rb").read(), f"{name}: bytes differ from {path}")
        check(not os.path.exists(out + ".tmp"), "temporary file left behind")
        rc, listing = run("--list", out)
        check(rc == 0 and f"{len(want)} files" in listing and "atlas/atlas_0.png" in listing, listing)
    finally:
        shutil.rmtree(tmp)


def hidden_and_nested():
    tmp = tempfile.mkdtemp(prefix="pack_assets.")
    try:
        src = os.path.join(tmp, "src")
        os.makedirs(os.path.join(src, "a", "b"))
        os.makedirs(os.path.join(src, ".git"))
        open(os.path.join(src, "a", "b", "deep.bin"), "wb").write(bytes(range(256)) * 3)
        open(os.path.join(src, ".hidden"), "w").write("no")
        open(os.path.join(src, ".git", "HEAD"), "w").write("no")
        open(os.path.join(src, "top.txt"), "w").write("")
        out = os.path.join(tmp, "x.pak")
        rc, said = run(out, "d/=" + src, "single=" + os.path.join(src, "top.txt"))
        check(rc == 0, said)
        got = read_archive(out)
        check(sorted(got) == ["d/a/b/deep.bin", "d/top.txt", "single"], f"{sorted(got)}")
        check(got["d/a/b/deep.bin"] == bytes(range(256)) * 3 and got["single"] == b"", "contents")
    finally:
        shutil.rmtree(tmp)


def damaged_archives_named():
    tmp = tempfile.mkdtemp(prefix="pack_assets.")
    try:
        out = os.path.join(tmp, "g.pak")
        check(run(out, "atlas/=" + os.path.join(ROOT, "build", "assets"))[0] == 0, "pack")
        good = open(out, "rb").read()
        pos = good.index(b"\x89PNG") + 40          # inside the atlas page's data
        bad = bytearray(good)
        bad[pos] ^= 0x10
        open(out, "wb").write(bad)
        rc, said = run("--list", out)
        check(rc == 1 and "atlas/atlas_0.png  DAMAGED" in said and "damaged" in said, f"flip: {rc} {said}")
        check("atlas/atlas.txt  DAMAGED" not in said, "an intact file reported damaged")
        open(out, "wb").write(good[:-5])
        rc, said = run("--list", out)
        check(rc == 1 and out in said and "truncated" in said, f"truncated: {rc} {said}")
        open(out, "wb").write(b"PK\x03\x04 a zip, not ours" + bytes(40))
        rc, said = run("--list", out)
        check(rc == 1 and "not an archive" in said, f"foreign: {rc} {said}")
    finally:
        shutil.rmtree(tmp)


def bad_inputs_leave_nothing():
    tmp = tempfile.mkdtemp(prefix="pack_assets.")
    try:
        out = os.path.join(tmp, "g.pak")
        readme = os.path.join(ROOT, "README.md")
        for args, needle in (((out, "x=" + os.path.join(tmp, "missing.png")), "missing.png"),
                             ((out, "../up=" + readme), "'../up' is not a valid archive name"),
                             ((out, "d/=" + os.path.join(tmp, "nodir")), "nodir"),
                             ((out, "a=" + readme, "a=" + readme), "added twice")):
            rc, said = run(*args)
            check(rc == 1 and needle in said, f"{args}: exit {rc}, {said!r} lacks {needle!r}")
            check(not os.path.exists(out) and not os.path.exists(out + ".tmp"), f"{args}: left a file behind")
        check(run("--bogus")[0] == 2 and run()[0] == 2 and run(out, "noequals")[0] == 2, "usage errors exit 2")
    finally:
        shutil.rmtree(tmp)


checks.case("real_assets_round_trip", real_assets_round_trip)
checks.case("hidden_and_nested", hidden_and_nested)
checks.case("damaged_archives_named", damaged_archives_named)
checks.case("bad_inputs_leave_nothing", bad_inputs_leave_nothing)
checks.finish()
