"""End to end on Windows: the real host.exe (mingw-w64) under wine, on a temporary copy of the project.

The host rebuilds its game DLL through --build-cmd: win_launch.exe (a Windows process it can wait on)
runs `build.sh game-win` on the Linux side, which cross-compiles game.dll with clang++ and a unique PDB
(CMakeLists.txt's game_dll target, the mingw-game preset).
Everything else is the host's own Windows code: ReadDirectoryChangesW, CreateProcess + pipe,
LoadLibrary on a versioned copy, FreeLibrary verified, the vectored-handler fault guard, the
SuspendThread watchdog. Run by ./build.sh test-windows with the wine environment set.
"""
import os
import re
import stat
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import hostlib  # noqa: E402
from faults import faults_for, state_restored  # noqa: E402
from hostlib import Checks, Host, check, cleanup, edit, inject, project_copy, uninject  # noqa: E402

WIN = os.environ["WIN_DIR"]
checks = Checks()
root = project_copy(with_library=False)
os.makedirs(os.path.join(root, "build", "tools"), exist_ok=True)
os.makedirs(os.path.join(root, "build", "game"), exist_ok=True)
with open(os.environ["WIN_GAME_DLL"], "rb") as src, open(os.path.join(root, "build", "game", "game.dll"), "wb") as dst:
    dst.write(src.read())
# The host runs "wine host.exe"; its output goes to a file (never a pipe: wine's helpers keep pipes open).
wrapper = os.path.join(root, "host-wine.sh")
with open(wrapper, "w") as f:
    f.write(f'#!/bin/sh\nexec wine "{WIN}/host.exe" "$@"\n')
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
hostlib.HOST = wrapper
scratch = os.path.join(root, "build", "launch")
os.makedirs(scratch, exist_ok=True)
build_cmd = f"{WIN}/win_launch.exe {scratch} /bin/bash {root}/build.sh game-win"

game_cpp = os.path.join(root, "game", "game.cpp")
entities = os.path.join(root, "game", "entities.cpp")
enemies = os.path.join(root, "game", "enemies.cpp")
script = os.path.join(root, "bot.txt")
with open(script, "w") as f:
    f.write("5 tap F10\n")   # the autopilot plays, so bullets fly
host = Host(root, "--watchdog", "1", "--input", script, "--build-cmd", build_cmd)
current = {"version": 1}
reload_ms = []


def stats(since, version=None, timeout=60):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                         and (version is None or e.get("version") == version), timeout, since,
                         what=f"frame_stats (version {version})")


def next_reload(since, timeout=120):
    r = host.next_reload(since, timeout)
    current["version"] = r["version"]
    return r


def pdb_of(dll):
    """The PDB path a DLL names in its CodeView debug record (RSDS)."""
    with open(dll, "rb") as f:
        data = f.read()
    m = re.search(rb"RSDS.{20}([^\x00]+\.pdb)\x00", data, re.S)
    return m.group(1).decode() if m else None


def starts():
    r = host.wait_ev("reload", timeout=60)
    check(r["state"] == "new" and r["path"].endswith(".dll"), f"first load: {r}")
    current["version"] = r["version"]
    host.wait_ev("new_code_running", version=r["version"], timeout=30)
    s = stats(0, version=r["version"])
    check(s["game"]["steps"] > 0, f"the game does not step: {s}")


def edit_rebuilds_and_keeps_state():
    m = host.mark()
    before = stats(m)
    old_copy = host.of("reload")[-1]["path"]
    pdb1 = pdb_of(os.path.join(root, "build", "game", "game.dll"))
    written = edit(enemies, "e->angle += 4.0f * dt;", "e->angle += 4.5f * dt;")
    r = next_reload(m)
    reload_ms.append((r["wall"] - written) * 1000)
    check(r["state"] == "kept", f"state should be kept across a code edit: {r}")
    check(r["old_unmapped"] is True, f"the old DLL is still mapped: {r}")
    end = host.of("build_end", m)
    check(end and end[-1]["ok"] is True, f"build: {end}")
    after = stats(host.mark(), version=r["version"])
    check(after["game"]["steps"] >= before["game"]["steps"], "steps went back: the state was not kept")
    old = old_copy.replace("Z:", "") if old_copy.startswith("Z:") else old_copy
    check(not os.path.exists(old), f"the old versioned copy {old} was not removed after FreeLibrary")
    pdb2 = pdb_of(os.path.join(root, "build", "game", "game.dll"))
    check(pdb1 and pdb2 and pdb1 != pdb2, f"the PDB name did not change between builds: {pdb1} -> {pdb2}")
    check(os.path.exists(pdb2), f"the new PDB {pdb2} does not exist")
    print(f"  edit -> reload {reload_ms[-1]:.0f} ms; PDBs {os.path.basename(pdb1)} -> {os.path.basename(pdb2)}")


def compile_error_is_shown_and_survived():
    m = host.mark()
    v = current["version"]
    inject(game_cpp, "GAME_UPDATE(game_update)", "this is not C++;")
    end = host.wait_ev("build_end", timeout=120, since=m)
    check(end["ok"] is False and end["error_count"] >= 1, f"build should fail: {end}")
    err = end["errors"][0]
    check(err["file"].endswith("game.cpp") and err["line"] > 0 and err["message"], f"error: {err}")
    s1 = stats(host.mark(), version=v)
    host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("steps", 0) > s1["game"]["steps"],
                  30, what="steps continue")
    check(not host.of("reload", m), "something reloaded after a failed build")
    m2 = host.mark()
    uninject(game_cpp)
    fixed = next_reload(m2)
    check(fixed["state"] == "kept", f"fix: {fixed}")


def remove_injected():
    """After a failed check: the injected code goes, and the case waits for the clean build."""
    m = host.mark()
    uninject(game_cpp)
    try:
        if host.alive():
            next_reload(m)
    except AssertionError as e:
        print(f"  (the clean code did not load either: {e})", flush=True)


def fault(name, entry, code, expect_in, expect_signal, expect_fn):
    def case():
        m = host.mark()
        before = stats(m)
        inject(game_cpp, entry, code)
        try:
            bad = next_reload(m)
            crash = host.wait_ev("crash", timeout=60, since=m)
            check(crash["signal"] == expect_signal, f"signal {crash['signal']}, want {expect_signal}")
            check(crash["in"] == expect_in, f"crashed in {crash['in']}, want {expect_in}")
            check(crash["version"] == bad["version"], f"crash for version {crash['version']}, loaded {bad['version']}")
            check(crash["rolled_back_to"] > 0 and not crash["halted"], f"no rollback: {crash}")
            back = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("t", 0) > crash["t"] + 0.5, 60, m,
                                 what="stats after rollback")
            # the injected code zeroed the step counter before it faulted: only the snapshot brings it back
            wrong = state_restored(before["game"]["steps"], back["game"].get("steps", 0))
            check(not wrong, wrong)
            check(host.alive(), "host died")
        except Exception:
            remove_injected()   # the next case starts from clean code
            raise
        m2 = host.mark()
        uninject(game_cpp)
        fixed = next_reload(m2)
        check(fixed["state"] == "kept", f"the fix did not load over the kept state: {fixed}")
        check(not host.of("crash", m2), "the fixed code crashed")
        # DbgHelp names the faulting function and its line (from the DWARF that wine reads; a PDB on Windows),
        # or at least the game module and the offset (checked last: a failure here leaves no injected code behind)
        first = crash["where"].split(" <- ")[0]
        print(f"  {name}: {crash['where']}")
        named = expect_fn and re.match(r"\S*" + expect_fn + r"\S* \(game\.cpp:\d+\)$", first)
        check(named or (not expect_fn and re.match(r"\? \(game\.\d+\.v\d+\.dll!\+0x[0-9a-f]+\)$", first)),
              f"the crash location does not name {expect_fn or 'the game module'}: {crash['where']!r}")
    checks.case(name, case)


def tweak_is_live():
    m = host.mark()
    edit(entities, "BULLET_SPEED        = TWEAK(1100.0f)", "BULLET_SPEED        = TWEAK(1700.0f)")
    applied = host.wait_ev("tweak_applied", timeout=30, since=m)
    check(applied["value"] == 1700, f"applied: {applied}")
    host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e.get("game", {}).get("bullet_speed", 0) - 1700) < 1,
                  60, m, what="bullets at 1700")
    check(not host.of("build_start", m), "a literal edit started a build")


checks.case("starts", starts)
checks.case("edit_rebuilds_and_keeps_state", edit_rebuilds_and_keeps_state)
checks.case("compile_error_is_shown_and_survived", compile_error_is_shown_and_survived)
for name, entry, code, where, signal, fn in faults_for("windows"):   # shared with test_survive_faults.py
    fault(name, entry, code, where, signal, fn)
checks.case("tweak_is_live", tweak_is_live)

host.stop()
if reload_ms:
    print(f"edit -> reload under wine: {reload_ms[0]:.0f} ms")
if checks.failed:
    print(host.tail(60))
else:
    cleanup(root)
checks.finish()
