"""End to end: reload situations beyond a plain edit.

- the very first library crashes: the host stays up with an error screen and loads the fix;
- a library that cannot be unloaded (a STB_GNU_UNIQUE symbol) is detected and reported loudly;
- an outside `./build.sh game` is picked up like a save.
"""
import os
import subprocess

from hostlib import Checks, Host, check, cleanup, inject, project_copy, uninject

checks = Checks()


def first_version_crash_waits_for_fix():
    root = project_copy(with_library=False)
    game_cpp = os.path.join(root, "game", "game.cpp")
    inject(game_cpp, "GAME_UPDATE(game_update)", "*(volatile int *)0 = 1;")
    host = Host(root)
    try:
        crash = host.wait_ev("crash", timeout=90)
        check(crash["halted"] is True and crash["rolled_back_to"] == 0, f"nothing to roll back to: {crash}")
        stats = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > crash["t"] + 1.0, 20,
                              what="frames after the crash")
        check(stats["game"] == {}, f"a halted game reports no stats: {stats}")
        m = host.mark()
        uninject(game_cpp)
        r = host.wait_ev("reload", timeout=60, since=m)
        check(r["state"] in ("kept", "new"), f"fix: {r}")
        host.wait_ev("new_code_running", timeout=20, since=m)
        ok = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("steps", 0) > 30, 20, m,
                           what="the fixed game running")
        check(ok["version"] == r["version"], "wrong version running")
        check(host.alive(), "host died")
    finally:
        rc = host.stop()
    check(rc == 0, f"exit code {rc}")
    cleanup(root)


def unique_symbol_unload_failure_is_reported():
    root = project_copy()
    game_cpp = os.path.join(root, "game", "game.cpp")
    host = Host(root, env={"GAME_CXX": "g++", "GAME_EXTRA_FLAGS": "-fgnu-unique"})
    try:
        host.wait_ev("new_code_running", version=1, timeout=20)
        with open(game_cpp) as f:
            text = f.read()
        marker = "static GameState *game_state"
        with open(game_cpp, "w") as f:
            f.write(text.replace(marker, "__attribute__((visibility(\"default\"))) inline int &unique_counter() "
                                 "{ static int c = 0; return c; }\n" + marker, 1))
        inject(game_cpp, "GAME_UPDATE(game_update)", "unique_counter()++;")
        m = host.mark()
        host.wait_ev("reload", version=2, timeout=60)
        # version 2 holds a unique symbol: replacing it must report that it stayed mapped
        uninject(game_cpp)
        r = host.wait_ev("reload", version=3, timeout=60, since=m)
        check(r["old_unmapped"] is False, f"version 2 should have failed to unmap: {r}")
        fail = host.wait_ev("unload_failed", timeout=5, since=m)
        check("still mapped" in fail["reason"] and "STB_GNU_UNIQUE" in fail["reason"], f"reason: {fail}")
        errors = [e for e in host.of("log", m) if e.get("level") == "error" and "still mapped" in e.get("msg", "")]
        check(errors, "no error-level log line about the library that stayed")
        check(host.alive(), "host died")
    finally:
        rc = host.stop()
    check(rc == 0, f"exit code {rc}")
    cleanup(root)


def outside_build_is_loaded():
    root = project_copy()
    host = Host(root)
    try:
        host.wait_ev("new_code_running", version=1, timeout=20)
        m = host.mark()
        p = subprocess.run(["bash", os.path.join(root, "build.sh"), "game"], capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"build.sh game failed: {p.stderr}")
        r = host.wait_ev("reload", version=2, timeout=20, since=m)
        check(r["why"] == "outside build" and r["state"] == "kept", f"{r}")
    finally:
        host.stop()
    cleanup(root)


checks.case("first_version_crash_waits_for_fix", first_version_crash_waits_for_fix)
checks.case("unique_symbol_unload_failure_is_reported", unique_symbol_unload_failure_is_reported)
checks.case("outside_build_is_loaded", outside_build_is_loaded)
checks.finish()
