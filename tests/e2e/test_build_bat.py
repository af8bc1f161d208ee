"""build.bat's commands are build.sh's that make sense on Windows: its help (parsed from the file) lists the same
names build.sh's help does, and its dispatch knows each. Under wine (the Windows leg installs it; without it that
part is skipped, saying so), in a copy of the few files those commands read: help, -h and --help print that list;
an unknown command, a bad argument and a folder that is no game are named with exit code 2; `new` makes a game
folder as ./build.sh new does (the text files only where wine's findstr numbers lines: wine 8's prints none, and
then `new` must fail saying so and leave nothing behind); `dist` without a game.pak names the files it looked for.
cl.exe cannot run here (the msvc presets' condition is a Windows host): where clang-cl and lld-link are, the
msvc-release preset's cache variables configure tools/cmake/release.cmake with clang-cl (MSVC's command line) for a
Windows target, and the build's commands must carry the MSVC branch's flags (nothing is compiled)."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from hostlib import ROOT, Checks, check, cleanup

checks = Checks()
WINDOWS_COMMANDS = {"run", "new", "game", "host", "build", "dist", "clean", "help"}
tmp = tempfile.mkdtemp(prefix="engine-bat-")


def bat_text():
    with open(os.path.join(ROOT, "build.bat"), newline="") as f:
        return f.read()


def bat_usage_commands():
    """The commands build.bat's :usage lists: its `echo   name ...` lines."""
    text = bat_text().replace("\r\n", "\n")
    usage = text[text.index("\n:usage\n"):]
    usage = usage[:usage.index("exit /b 0")]
    return set(re.findall(r"^echo   ([a-z-]+)", usage, re.M))


def sh_help_commands():
    r = subprocess.run(["./build.sh", "help"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60)
    check(r.returncode == 0, f"./build.sh help exited {r.returncode}")
    return set(re.findall(r"^  ([a-z-]+)", r.stdout, re.M))


def help_matches_build_sh():
    check("\r\n" in bat_text() and "\n" not in bat_text().replace("\r\n", ""), "build.bat has lines not ending CRLF")
    listed = bat_usage_commands()
    check(listed == WINDOWS_COMMANDS, f"build.bat's help lists {sorted(listed)}, not {sorted(WINDOWS_COMMANDS)}")
    missing = WINDOWS_COMMANDS - sh_help_commands()
    check(not missing, f"build.sh's help does not list {sorted(missing)}")
    text = bat_text()
    for c in WINDOWS_COMMANDS - {"help"}:
        check(f'"%CMD%"=="{c}"' in text, f"build.bat's dispatch does not know '{c}'")


# ---------------------------------------------------------------- under wine
def wine_env():
    prefix = os.path.join(ROOT, "build", "e2e-wine")   # its own prefix: the Windows leg stops the server of its own
    return dict(os.environ, WINEPREFIX=prefix, WINEARCH="win64", WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")


def have_wine():
    return shutil.which("wine") is not None and shutil.which("wineserver") is not None


def project():
    """The files build.bat's compiler-free commands read: itself, tools/template/ and the sample's sources."""
    root = os.path.join(tmp, "project")
    shutil.copytree(os.path.join(ROOT, "tools", "template"), os.path.join(root, "tools", "template"))
    os.makedirs(os.path.join(root, "game"))
    for f in ("state.h", "game.cpp"):
        shutil.copy2(os.path.join(ROOT, "game", f), os.path.join(root, "game", f))
    shutil.copy2(os.path.join(ROOT, "build.bat"), root)
    return root


def run_driver(root, lines):
    """One cmd.exe under wine runs every case (a wine start is seconds): each prints ==name, its output, ==rc N."""
    body = ["@echo off", "set GAME_PAK=", "set SDL2_DIR=", "set STB_DIR="]
    for name, cmd in lines:
        body += [f"echo =={name}", f"{cmd} 2>&1", f"echo ==rc %errorlevel%"]
    with open(os.path.join(tmp, "driver.bat"), "w", newline="") as f:
        f.write("\r\n".join(body) + "\r\n")
    env = wine_env()
    if not os.path.exists(os.path.join(env["WINEPREFIX"], "system.reg")):
        os.makedirs(env["WINEPREFIX"], exist_ok=True)
        subprocess.run(["wineboot", "-i"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=180)
        subprocess.run(["wineserver", "-w"], env=env, timeout=180)
    r = subprocess.run(["wine", "cmd", "/c", "driver.bat"], cwd=tmp, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    out = r.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    results = {}
    for m in re.finditer(r"^==(\S+)\n(.*?)^==rc (\d+)", out, re.M | re.S):
        results[m.group(1)] = (int(m.group(3)), m.group(2))
    check(len(results) == len(lines), f"the driver ran {sorted(results)} of {[n for n, _ in lines]}: {out[-2000:]}")
    return results


def wine_cases():
    root = project()
    bat = "cmd /c Z:" + os.path.join(root, "build.bat").replace("/", "\\")   # `call` loses the exit code in wine
    with open(os.path.join(tmp, "probe.txt"), "w") as f:
        f.write("one\n\ntwo\n")
    full = os.path.join(tmp, "mygame")
    os.makedirs(os.path.join(tmp, "full", "x"))
    res = run_driver(root, [
        ("help", f"{bat} help"), ("h", f"{bat} -h"), ("dashhelp", f"{bat} --help"),
        ("unknown", f"{bat} frobnicate"), ("hostarg", f"{bat} host extra"), ("buildargs", f"{bat} build game extra"),
        ("distnogame", f"{bat} dist nosuch"), ("distnopak", f"{bat} dist"),
        ("newnone", f"{bat} new"), ("newbad", f'{bat} new "bad name"'), ("newfull", f"{bat} new full"),
        ("findstr", 'findstr /n "^" probe.txt'), ("new", f"{bat} new mygame")])
    usage = res["help"][1]
    check(res["help"][0] == 0 and set(re.findall(r"^  ([a-z-]+)", usage, re.M)) == WINDOWS_COMMANDS,
          f"build.bat help under wine: {res['help']}")
    check(res["h"] == res["help"] == res["dashhelp"], "help, -h and --help differ")
    for name, rc, words in (("unknown", 2, "unknown command 'frobnicate'"), ("hostarg", 2, "extra"),
                            ("buildargs", 2, "extra"), ("distnogame", 2, "no game folder"),
                            ("distnopak", 1, "build\\dist\\game.pak"), ("newnone", 2, "usage: build.bat new"),
                            ("newbad", 2, "'bad name' is not a name"), ("newfull", 1, "not empty")):
        check(res[name][0] == rc and words in res[name][1], f"build.bat {name}: exit {res[name][0]}, {res[name][1]!r}")
    check(usage.strip() in res["unknown"][1], "an unknown command does not print the command list")
    check("./build.sh dist" in res["distnopak"][1], "dist without game.pak does not say where one is made")
    # new: the folders and its own sprite and sound; the text files as build.sh's sed makes them
    template = os.path.join(root, "tools", "template")
    if "1:one" in res["findstr"][1]:
        check(res["new"][0] == 0, f"build.bat new mygame: {res['new']}")
        for d in ("sprites", "sfx", "sounds", "fonts"):
            check(os.path.isdir(os.path.join(full, "assets", d)), f"new made no assets/{d}")
        for f in ("state.h", "game.cpp"):
            want = open(os.path.join(template, f)).read().replace("@NAME@", "mygame").replace("@FOLDER@", "mygame")
            got = open(os.path.join(full, f), newline="").read().replace("\r\n", "\n")
            check(got == want, f"new's {f} differs from the template's with the name")
        for f in ("sprites/ship.png", "sfx/bounce.sfx"):
            same = open(os.path.join(full, "assets", f), "rb").read() == open(os.path.join(template, "assets", f),
                                                                                 "rb").read()
            check(same, f"new's assets/{f} is not the template's")
    else:
        print("note: wine's findstr prints no numbered lines (a stub): new's text files are not checked here")
        check(res["new"][0] == 1 and "findstr /n" in res["new"][1], f"new without findstr: {res['new']}")
        check(not os.path.exists(full), "a failed new left its folder behind")


# ---------------------------------------------------------------- the msvc-release preset's CMake, with clang-cl
def llvm_tool(name):
    found = shutil.which(name)
    if not found:
        for d in sorted(os.listdir("/usr/lib"), reverse=True):
            if d.startswith("llvm-") and os.path.exists(os.path.join("/usr/lib", d, "bin", name)):
                return os.path.join("/usr/lib", d, "bin", name)
    return found


def preset_cache(name):
    """A configure preset's cache variables with those of the presets it inherits (theirs first)."""
    presets = {p["name"]: p for p in json.load(open(os.path.join(ROOT, "CMakePresets.json")))["configurePresets"]}
    p = presets[name]
    out = {}
    for parent in reversed(p.get("inherits", [])):
        out.update(preset_cache(parent))
    out.update(p.get("cacheVariables", {}))
    return {k: v.replace("${sourceDir}", ROOT) for k, v in out.items()}


def clang_cl_cache(preset):
    """The preset's cache variables with clang-cl and LLVM's tools for cl.exe and link.exe, for a Windows target."""
    tools = {t: llvm_tool(t) for t in ("clang-cl", "lld-link", "llvm-lib", "llvm-rc", "llvm-mt")}
    cache = preset_cache(preset)
    cache.update(CMAKE_C_COMPILER=tools["clang-cl"], CMAKE_CXX_COMPILER=tools["clang-cl"], CMAKE_SYSTEM_NAME="Windows",
                 CMAKE_LINKER=tools["lld-link"], CMAKE_AR=tools["llvm-lib"], CMAKE_RC_COMPILER=tools["llvm-rc"],
                 CMAKE_MT=tools["llvm-mt"], CMAKE_TRY_COMPILE_TARGET_TYPE="STATIC_LIBRARY")
    return cache


def configure(tree, cache):
    r = subprocess.run(["cmake", "-G", "Ninja", "-S", ROOT, "-B", tree] + [f"-D{k}={v}" for k, v in cache.items()],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    check(r.returncode == 0, f"configuring {tree} with clang-cl failed: {r.stdout[-2000:]}")
    return subprocess.run(["ninja", "-C", tree, "-t", "commands"], stdout=subprocess.PIPE, text=True, timeout=60).stdout


def msvc_host_configures():
    """The msvc preset's host.exe: CMake's Release with its flags emptied: /O2 and /MD (game.dll's C runtime)."""
    cmake_dir = os.path.join(tmp, "sdl-cmake")
    os.makedirs(cmake_dir)
    with open(os.path.join(cmake_dir, "SDL2Config.cmake"), "w") as f:
        f.write("add_library(SDL2::SDL2 SHARED IMPORTED)\nset_target_properties(SDL2::SDL2 PROPERTIES "
                "IMPORTED_IMPLIB SDL2.lib IMPORTED_LOCATION SDL2.dll)\n")
    cache = clang_cl_cache("msvc")
    cache.update(SDL2_DIR=cmake_dir, ENGINE_OUT_DIR=os.path.join(tmp, "msvc-out"))
    cmds = configure(os.path.join(tmp, "msvc"), cache)
    main = next((l for l in cmds.splitlines() if "platform/main.cpp" in l and " -c " in l), "")
    for flag in ("/O2", "-MD"):
        check(f" {flag} " in main, f"host.exe's compile has no {flag}: {main}")
    for flag in ("/RTC1", "-MDd", "/DNDEBUG"):
        check(f" {flag} " not in cmds, f"a compile of host.exe with {flag}")


def msvc_release_configures():
    sdl, tree, gb = (os.path.join(tmp, d) for d in ("sdl", "msvc-release", "gb"))
    for d in ("include", "lib/x64"):
        os.makedirs(os.path.join(sdl, d))
    for f in ("include/SDL.h", "lib/x64/SDL2.lib", "lib/x64/SDL2.dll"):
        open(os.path.join(sdl, f), "w").close()
    os.makedirs(gb)
    open(os.path.join(gb, "unity.cpp"), "w").close()
    cache = clang_cl_cache("msvc-release")
    cache.update(ENGINE_RELEASE_GAME_BUILD=gb, ENGINE_RELEASE_SDL2=sdl)
    cmds = configure(tree, cache)
    game = next((l for l in cmds.splitlines() if "unity.cpp" in l and " -c " in l), "")
    for flag in ("/O2", "/EHs-c-", "/GR-", f"/FI{tree}/layout_stamp.h", "-MT", "-DTHTW_LITERALS"):
        check(f" {flag} " in game, f"the game's compile has no {flag}: {game}")
    for flag in ("/RTC1", "-MD", "/DNDEBUG"):   # CMake's Debug or Release flags: the preset empties the latter
        check(f" {flag} " not in cmds, f"a compile of the release with {flag}")
    link = next((l for l in cmds.splitlines() if "lld-link" in l), "")
    for part in ("/out:neon-swarm.exe", "/subsystem:windows", "/ENTRY:mainCRTStartup", "/OPT:REF",
                 f"{sdl}/lib/x64/SDL2.lib", "psapi.lib", f"copy_if_different {sdl}/lib/x64/SDL2.dll"):
        check(part in link, f"the link has no {part}: {link[-1500:]}")
    stamp = next((l for l in cmds.splitlines() if "layout_stamp.py" in l), "")
    check("/std:c++17" in stamp and "/DTH_MATH_NO_MATH_H" in stamp, f"the layout stamp's flags: {stamp}")


checks.case("help_matches_build_sh", help_matches_build_sh)
if all(llvm_tool(t) for t in ("clang-cl", "lld-link", "llvm-lib", "llvm-rc", "llvm-mt")) and shutil.which("ninja"):
    checks.case("msvc_host_configures", msvc_host_configures)
    checks.case("msvc_release_configures", msvc_release_configures)
else:
    print("skipped: no clang-cl and lld-link (Debian's clang): the msvc-release preset's CMake was not configured")
if have_wine():
    checks.case("commands_under_wine", wine_cases)
else:
    print("skipped: no wine (the Windows leg installs it: ./build.sh test-windows): build.bat was not run")
if not checks.failed:
    cleanup(tmp)
checks.finish()
