"""test_dist.py - `./build.sh dist` makes a game a player can run without the engine's tools.

A copy of the project builds its release (and a second one whose update crashes on purpose), then the
copy is renamed, so any path into it would fail. The .tar.gz is unpacked into an empty folder and run
from another working directory, headless, with the autopilot playing:
- the folder holds the executable, game.pak and README.txt; the archive holds the atlas (not the
  packer's cache), the baked font and the decoded sounds
- it plays: no asset error, every sound loaded from the archive, a screenshot with sprites and text
- `ldd`: only system libraries (no libstdc++ or libstb to be missing, nothing in the project)
- no dlopen in the binary's imports, no project path in the binary or the archive
- a missing, truncated or damaged game.pak: a message naming it, a nonzero exit
- development flags are refused by name; F1-F9 do nothing unless --dev-keys
- a crash prints the fault and the function and file:line, and exits with code 70
"""
import os
import shutil
import subprocess
import tarfile
import tempfile

from hostlib import ROOT, Checks, check, check_play_screenshot, cleanup, inject, project_copy

GAME = "neon-swarm"
NAME = f"{GAME}-linux-x86_64"
checks = Checks()
work = tempfile.mkdtemp(prefix="engine-dist-")
root = project_copy(with_library=False)
for d in ("platform", "docs"):
    shutil.copytree(os.path.join(ROOT, d), os.path.join(root, d), dirs_exist_ok=True)   # platform/include is there


def build_dist(tag):
    """./build.sh dist in the copy; the tarball is kept as work/<tag>.tar.gz."""
    r = subprocess.run(["./build.sh", "dist"], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=1200)
    check(r.returncode == 0, f"./build.sh dist failed ({r.returncode}):\n{r.stdout[-3000:]}")
    tgz = os.path.join(root, "dist", NAME + ".tar.gz")
    check(os.path.isfile(tgz), f"no {tgz}")
    keep = os.path.join(work, tag + ".tar.gz")
    shutil.copy2(tgz, keep)
    return keep


def unpack(tgz, where):
    os.makedirs(where)
    with tarfile.open(tgz) as t:
        t.extractall(where)
    return os.path.join(where, NAME)


good_tgz = build_dist("good")
game_cpp = os.path.join(root, "game", "game.cpp")
inject(game_cpp, "static GAME_UPDATE(game_update)", "if (in->step == 30) { volatile int *crash_here = 0; *crash_here = 1; }")
crash_tgz = build_dist("crash")
moved = root + "-moved"
os.rename(root, moved)   # from here on, a path into the project leads nowhere
folder = unpack(good_tgz, os.path.join(work, "play"))
exe = os.path.join(folder, GAME)
elsewhere = os.path.join(work, "elsewhere")
os.makedirs(elsewhere)


def run(*args, folder_exe=None, timeout=300):
    """The release, run from an unrelated working directory (never with the user's save data): (exit code, output)."""
    if "--save-dir" not in args:
        args += ("--save-dir", os.path.join(work, "save"))
    r = subprocess.run([folder_exe or exe, *args], cwd=elsewhere, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    return r.returncode, r.stdout


def events(path):
    import json
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def script(name, text):
    p = os.path.join(work, name)
    with open(p, "w") as f:
        f.write(text)
    return p


def folder_contents():
    check(sorted(os.listdir(folder)) == sorted([GAME, "game.pak", "README.txt"]), f"the folder holds {os.listdir(folder)}")
    check(os.access(exe, os.X_OK), "the executable is not executable")
    readme = open(os.path.join(folder, "README.txt")).read()
    for words in (f"./{NAME}/{GAME}", "--dev-keys", "WASD", "game.pak", "libsdl2"):
        check(words in readme, f"README.txt does not mention {words!r}")
    listing = subprocess.run([os.path.join(moved, "build", "tools", "pack_assets"), "--list", os.path.join(folder, "game.pak")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(listing.returncode == 0, f"pack_assets --list: {listing.stdout}")
    names = [line.split()[-1] for line in listing.stdout.splitlines() if line.strip() and not line.startswith("pack_assets")]
    check("atlas/atlas.txt" in names and any(n.startswith("atlas/") and n.endswith(".png") for n in names),
          f"no atlas in the archive: {names}")
    check("fonts/default.thfb" in names, f"no baked font in the archive: {names}")
    sounds = [n for n in names if n.startswith("sounds/") and n.endswith(".pcm")]
    check(len(sounds) >= 15 and "sounds/music/loop.pcm" in sounds, f"sounds in the archive: {sounds}")
    check(not [n for n in names if "cache" in n or n.endswith((".sfx", ".wav", ".ogg", ".ttf"))],
          f"development files in the archive: {names}")


def plays_without_the_project():
    log = os.path.join(work, "play.jsonl")
    shot = os.path.join(work, "play.png")
    rc, out = run("--headless", "--fast", "--frames", "700", "--input", script("bot.txt", "5 tap F10\n"),
                  "--screenshot", f"600:{shot}", "--log-json", log)
    check(rc == 0, f"exit {rc}:\n{out[-3000:]}")
    ev = events(log)
    start = [e for e in ev if e["ev"] == "start"][0]
    check(start["root"] == folder, f"the release's root is {start['root']}, not its folder {folder}")
    errors = [e for e in ev if e["ev"] in ("asset_error", "crash")]
    check(not errors, f"errors: {errors[:3]}")
    loaded = [e for e in ev if e["ev"] == "sound_loaded"]
    check(len(loaded) >= 15 and all(e["file"].startswith("sounds/") for e in loaded), f"sounds loaded: {len(loaded)}")
    check([e for e in ev if e["ev"] == "game" and e.get("name") == "wave_start"], "the autopilot never started a wave")
    check([e for e in ev if e["ev"] == "sound_play"], "no sound was played")
    check_play_screenshot(shot)   # sprites and text: the atlas and the font came from the archive


def links_only_system_libraries():
    out = subprocess.run(["ldd", exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    check("not found" not in out, f"ldd: a library is missing:\n{out}")
    for line in out.splitlines():
        if "=>" in line:
            path = line.split("=>")[1].split("(")[0].strip()
            check(path.startswith(("/lib", "/usr/lib")), f"ldd: {line.strip()} is not a system library")
        for bad in ("libstdc++", "libstb", "libgcc_s", root, moved, ROOT, work):
            check(bad not in line, f"ldd: {line.strip()} ({bad})")


def no_library_loading_or_project_paths():
    imports = subprocess.run(["nm", "-D", "--undefined-only", exe], stdout=subprocess.PIPE, text=True).stdout
    check(imports and "dlopen" not in imports and "dlsym" not in imports, f"the release imports dlopen/dlsym:\n{imports}")
    for f in (GAME, "game.pak"):
        data = open(os.path.join(folder, f), "rb").read()
        for path in (root, ROOT, os.path.dirname(ROOT)):
            check(path.encode() not in data, f"{f} holds the path {path}")
        check(b"libgame" not in data and b"build/game" not in data, f"{f} names the game library")


def archive_missing_or_damaged():
    pak = os.path.join(folder, "game.pak")
    kept = os.path.join(work, "game.pak.kept")
    shutil.copy2(pak, kept)
    try:
        os.remove(pak)
        rc, out = run("--headless", "--frames", "5")
        check(rc != 0 and pak in out and "missing" in out, f"missing archive: exit {rc}: {out}")
        data = open(kept, "rb").read()
        with open(pak, "wb") as f:
            f.write(data[:len(data) // 2])
        rc, out = run("--headless", "--frames", "5")
        check(rc != 0 and pak in out and "damaged" in out and "truncated" in out, f"truncated archive: exit {rc}: {out}")
        flipped = bytearray(data)
        flipped[len(data) - 1000] ^= 0x55   # inside the last file's bytes: the header and index still hold
        with open(pak, "wb") as f:
            f.write(bytes(flipped))
        rc, out = run("--headless", "--frames", "5")
        check(rc != 0 and pak in out and "damaged" in out and "sounds/" in out, f"a damaged file inside: exit {rc}: {out}")
    finally:
        shutil.copy2(kept, pak)


def dev_flags_refused_dev_keys_off():
    for flag in (["--root", elsewhere], ["--font", "x.ttf"], ["--build-cmd", "make"], ["--no-watch"], ["--record", "r.rec"],
                 ["--open-session", "s.session"], ["--save-session", "s.session"]):
        rc, out = run(*flag, "--headless", "--frames", "1")
        check(rc == 2 and flag[0] in out and "development flag" in out, f"{flag[0]}: exit {rc}: {out}")
    rc, out = run("--help")
    check(rc == 0 and out.startswith(f"usage: {os.path.basename(GAME)} [flags]") and "--root" not in out,
          f"--help: exit {rc}: {out[:300]}")
    keys = script("keys.txt", "5 tap F8\n10 tap F1\n")
    for extra, want in (([], False), (["--dev-keys"], True)):
        log = os.path.join(work, "keys.jsonl")
        rc, out = run("--headless", "--fast", "--frames", "30", "--input", keys, "--log-json", log, *extra)
        check(rc == 0, f"exit {rc}: {out[-2000:]}")
        paused = [e for e in events(log) if e["ev"] == "pause"]
        check(bool(paused) == want, f"F8 with {extra or 'no flags'}: pause events {paused}")


def crash_is_reported():
    crash_exe = os.path.join(unpack(crash_tgz, os.path.join(work, "crash")), GAME)
    rc, out = run("--headless", "--fast", "--frames", "200", folder_exe=crash_exe)
    check(rc == 70, f"exit {rc} (want 70):\n{out[-2000:]}")
    check(("SIGSEGV" in out or "SIGILL" in out) and "in update" in out, f"no fault named:\n{out[-2000:]}")
    check("game_update" in out and "game.cpp:" in out, f"no function and file:line:\n{out[-2000:]}")
    check(root not in out, f"the report names the project folder:\n{out[-2000:]}")
    report = [line for line in out.splitlines() if "crashed" in line][0]
    check("fault_handler" not in report and "guard_run" not in report, f"the report lists the host's frames: {report}")
    print("\n".join("        " + line for line in out.splitlines() if "crashed" in line or "ended" in line), flush=True)


checks.case("folder_contents", folder_contents)
checks.case("plays_without_the_project", plays_without_the_project)
checks.case("links_only_system_libraries", links_only_system_libraries)
checks.case("no_library_loading_or_project_paths", no_library_loading_or_project_paths)
checks.case("archive_missing_or_damaged", archive_missing_or_damaged)
checks.case("dev_flags_refused_dev_keys_off", dev_flags_refused_dev_keys_off)
checks.case("crash_is_reported", crash_is_reported)
if not checks.failed:
    cleanup(moved)
    cleanup(work)
checks.finish()
