"""The Windows release (./build.sh dist-windows) as a player gets it, run under wine.

The leg builds the release into build/win/release/ and passes the .zip. It is unpacked into an empty
temporary folder with no project around it and run from another working directory, headless, with the
autopilot playing:
- the folder holds <game>.exe, SDL2.dll, game.pak and README.txt (the Windows text)
- the .exe imports SDL2.dll and Windows' own DLLs only: libstdc++, libgcc and winpthread are linked in;
  SDL2.dll imports system DLLs only; the .exe is a GUI program (no console window beside the game)
- it plays: no asset error, every sound loaded from the archive, a screenshot with sprites and text;
  neither file holds a path into the project
- a missing, truncated or damaged game.pak: a message naming it, a nonzero exit
Run by ./build.sh test-windows with the wine environment set (WIN_DIST_ZIP).
"""
import os
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from hostlib import ROOT, Checks, check, check_play_screenshot, cleanup  # noqa: E402

GAME = "neon-swarm"
NAME = f"{GAME}-windows-x86_64"
EXE = GAME + ".exe"
# DLLs every Windows has (what SDL2 and the C runtime import); anything else must be in the folder
SYSTEM_DLLS = {"kernel32.dll", "user32.dll", "gdi32.dll", "msvcrt.dll", "advapi32.dll", "shell32.dll", "ole32.dll",
               "oleaut32.dll", "imm32.dll", "version.dll", "winmm.dll", "setupapi.dll", "dinput8.dll", "psapi.dll"}
checks = Checks()
work = tempfile.mkdtemp(prefix="engine-windist-")
with zipfile.ZipFile(os.environ["WIN_DIST_ZIP"]) as z:
    z.extractall(os.path.join(work, "unpacked"))
folder = os.path.join(work, "unpacked", NAME)
exe = os.path.join(folder, EXE)
elsewhere = os.path.join(work, "elsewhere")
os.makedirs(elsewhere)


def win(path):
    return "Z:" + path.replace("/", "\\")


def run(*args, frames=5, timeout=120):
    """The release under wine from an unrelated working directory, with its own save folder: (exit code,
    output). Output goes to a file: wine's helper processes keep a pipe open after the program ends."""
    out_path = os.path.join(work, "out.txt")
    with open(out_path, "w") as out:
        rc = subprocess.run(["wine", exe, "--headless", "--frames", str(frames), "--save-dir", win(os.path.join(work, "save")),
                             *args], cwd=elsewhere, stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
    with open(out_path, errors="replace") as f:
        return rc, f.read()


def imports(path):
    out = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", path], stdout=subprocess.PIPE, text=True).stdout
    return out, [line.split(":", 1)[1].strip() for line in out.splitlines() if "DLL Name:" in line]


def folder_contents():
    check(sorted(os.listdir(folder)) == sorted([EXE, "SDL2.dll", "game.pak", "README.txt"]), f"the folder holds {os.listdir(folder)}")
    readme = open(os.path.join(folder, "README.txt")).read()
    for words in (EXE, f"{NAME}.zip", "SDL2.dll", "game.pak", "%APPDATA%", "--dev-keys", "WASD"):
        check(words in readme, f"README.txt does not mention {words!r}")
    for words in ("@linux", "@windows", "@GAME@", "tar xzf", "apt-get"):
        check(words not in readme, f"README.txt holds {words!r}")


def imports_only_system_dlls():
    text, dlls = imports(exe)
    check("SDL2.dll" in dlls, f"{EXE} does not import SDL2.dll: {dlls}")
    others = [d for d in dlls if d != "SDL2.dll" and d.lower() not in SYSTEM_DLLS]
    check(not others, f"{EXE} needs DLLs that are not in the folder or in Windows: {others}")
    check("(Windows GUI)" in text, f"{EXE} is not a GUI program:\n{[l for l in text.splitlines() if 'Subsystem' in l]}")
    _, sdl_dlls = imports(os.path.join(folder, "SDL2.dll"))
    others = [d for d in sdl_dlls if d.lower() not in SYSTEM_DLLS]
    check(sdl_dlls and not others, f"SDL2.dll needs DLLs that are not in Windows: {others}")
    for f in (EXE, "SDL2.dll", "game.pak"):
        data = open(os.path.join(folder, f), "rb").read()
        for path in (ROOT, os.path.dirname(ROOT)):
            check(path.encode() not in data and win(path).encode() not in data, f"{f} holds the path {path}")


def plays_without_the_project():
    log, shot = os.path.join(work, "play.jsonl"), os.path.join(work, "play.png")
    bot = os.path.join(work, "bot.txt")
    with open(bot, "w") as f:
        f.write("5 tap F10\n")   # the autopilot plays
    rc, out = run("--fast", "--input", win(bot), "--screenshot", f"600:{win(shot)}", "--log-json", win(log), frames=700)
    check(rc == 0, f"exit {rc}:\n{out[-3000:]}")
    import json
    with open(log) as f:
        ev = [json.loads(line) for line in f if line.strip()]
    start = [e for e in ev if e["ev"] == "start"][0]
    check(start["root"].lower() == win(folder).replace("\\", "/").lower(), f"the release's root is {start['root']}, not {folder}")
    errors = [e for e in ev if e["ev"] in ("asset_error", "crash")]
    check(not errors, f"errors: {errors[:3]}")
    loaded = [e for e in ev if e["ev"] == "sound_loaded"]
    check(len(loaded) >= 15 and all(e["file"].startswith("sounds/") for e in loaded), f"sounds loaded: {len(loaded)}")
    check([e for e in ev if e["ev"] == "game" and e.get("name") == "wave_start"], "the autopilot never started a wave")
    check_play_screenshot(shot)


def archive_missing_or_damaged():
    pak = os.path.join(folder, "game.pak")
    named = win(pak).replace("\\", "/")   # paths leave the host '/'-separated
    data = open(pak, "rb").read()
    try:
        os.remove(pak)
        rc, out = run()
        check(rc != 0 and named in out and "missing" in out, f"missing archive: exit {rc}: {out}")
        with open(pak, "wb") as f:
            f.write(data[:len(data) // 2])
        rc, out = run()
        check(rc != 0 and named in out and "damaged" in out and "truncated" in out, f"truncated archive: exit {rc}: {out}")
        flipped = bytearray(data)
        flipped[len(data) - 1000] ^= 0x55   # inside the last file's bytes: the header and index still hold
        with open(pak, "wb") as f:
            f.write(bytes(flipped))
        rc, out = run()
        check(rc != 0 and named in out and "damaged" in out and "sounds/" in out, f"a damaged file inside: exit {rc}: {out}")
    finally:
        with open(pak, "wb") as f:
            f.write(data)


def help_names_the_executable():
    rc, out = run("--help")
    # the usage line names the program as the player sees it: its file name, not a Windows path to it
    check(rc == 0 and f"usage: {EXE} [flags]" in out and "usage: Z:" not in out, f"--help: exit {rc}: {out[:300]}")


checks.case("folder_contents", folder_contents)
checks.case("help_names_the_executable", help_names_the_executable)
checks.case("imports_only_system_dlls", imports_only_system_dlls)
checks.case("plays_without_the_project", plays_without_the_project)
checks.case("archive_missing_or_damaged", archive_missing_or_damaged)
if not checks.failed:
    cleanup(work)
checks.finish()
