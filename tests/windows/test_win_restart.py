"""End to end on Windows: a fault that no jump can leave safely restarts host.exe and keeps the game state.

The real host.exe (mingw-w64) under wine, on a temporary copy of the project, one host for the whole run:
the game's state changes first (a counter its code adds to every step), then new code spoils the counter
and faults where a jump would strand a lock or has nowhere to land:
  - inside the C runtime (msvcrt's memset on a bad pointer, called from game_update);
  - on a thread the game started (CreateThread; the fault reaches the unhandled-exception filter).
  - (a second host) an endless loop inside msvcrt's memset, stopped by the watchdog.
Each time the host must start a new host.exe with CreateProcess, hand it the paging-file section (mapped
at the same fixed address), and the new process must restore the snapshot (the counter did not go back),
reload the last good code without re-initialising the game, and say "the host restarted itself to recover
from <reason>; your game state was kept". How a harness sees it: the first host.exe stays as the session's
stand-in (the process this test waits on), the event log goes on in the same file with a second "start"
event ("hot_restart": true, a new pid), then "crash" ("restarted": true), "hot_restart" ("kept": true) and
"hot_restart_frame". The stop at the end ends every process: the new one sees its stand-in gone and quits.
"""
import os
import stat
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import hostlib  # noqa: E402
from hostlib import Checks, Host, check, cleanup, inject, project_copy, uninject  # noqa: E402

WIN = os.environ["WIN_DIR"]
UPDATE = "GAME_UPDATE(game_update)"
MARK = "((GameState *)mem->base)->score += 1;"      # the state the game changes first
SPOIL = "((GameState *)mem->base)->score = 5;"       # what the faulting code does to it before it fails
THREAD_CODE = (
    'extern "C" __declspec(dllimport) void *__stdcall CreateThread(void *, unsigned long long, '
    'unsigned long (__stdcall *)(void *), void *, unsigned long, unsigned long *); /*INJECTED*/\n'
    "static unsigned long __stdcall engine_test_thread(void *) { *(volatile int *)8 = 1; return 0; } /*INJECTED*/\n")

checks = Checks()
root = project_copy(with_library=False)
os.makedirs(os.path.join(root, "build", "tools"), exist_ok=True)
os.makedirs(os.path.join(root, "build", "game"), exist_ok=True)
with open(os.environ["WIN_GAME_DLL"], "rb") as src, open(os.path.join(root, "build", "game", "game.dll"), "wb") as dst:
    dst.write(src.read())
wrapper = os.path.join(root, "host-wine.sh")   # output to a file, never a pipe (wine's helpers keep pipes open)
with open(wrapper, "w") as f:
    f.write(f'#!/bin/sh\nexec wine "{WIN}/host.exe" "$@"\n')
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
hostlib.HOST = wrapper
scratch = os.path.join(root, "build", "launch")
os.makedirs(scratch, exist_ok=True)
build_cmd = f"{WIN}/win_launch.exe {scratch} /bin/bash {root}/build.sh game-win"
game_cpp = os.path.join(root, "game", "game.cpp")
host = Host(root, "--watchdog", "1", "--build-cmd", build_cmd)
state = {}


def stats(since, pred=lambda e: True, timeout=60, what="frame_stats"):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "score" in e.get("game", {}) and pred(e),
                         timeout, since, what=what)


def inits():
    return len([e for e in host.of("log") if "NEON SWARM started" in e.get("msg", "")])


def reload_kept(since, what):
    r = host.next_reload(since, timeout=240)
    check(r["state"] == "kept", f"{what}: {r}")
    return r


def counting():
    host.wait_ev("new_code_running", version=1, timeout=120)
    m = host.mark()
    inject(game_cpp, UPDATE, MARK)
    state["good"] = reload_kept(m, "the counting build")
    state["before"] = stats(m, lambda e: e.get("version") == state["good"]["version"] and e["game"]["score"] > 100,
                            timeout=90, what="the counter past 100")
    state["inits"] = inits()


def restarted(since, reason_has):
    """The restart after index since: a new process took the session over and the state was kept."""
    hr = host.wait_ev("hot_restart", timeout=120, since=since)
    check(hr["kept"] is True, f"the state was not kept: {hr}")
    check(hr["mode"] == "rollback", f"the faulting code was not rolled back: {hr}")
    check(reason_has in hr["reason"], f"reason {hr['reason']!r} does not say {reason_has!r}")
    starts = [e for e in host.of("start", since) if e.get("hot_restart")]
    check(starts, "no restarted process logged its start")
    crash = host.of("crash", since)
    good = state["good"]["version"]
    state["good"] = {"version": hr["version"]}   # what the new process loaded: the next rollback's target
    check(crash and crash[-1].get("restarted") and crash[-1]["rolled_back_to"] == good,
          f"no rollback to the counting build: {crash}")
    after = stats(since, lambda e: e.get("t", 0) > hr["t"] + 0.5, what="frame_stats after the restart")
    before = state["before"]["game"]
    check(after["game"]["score"] >= before["score"],
          f"state lost: the counter went {before['score']} -> {after['game']['score']}")
    check(after["game"]["steps"] >= before["steps"], f"state lost: steps {before['steps']} -> {after['game']['steps']}")
    later = stats(host.mark(), lambda e: e["game"]["steps"] > after["game"]["steps"], what="steps going on")
    check(later["game"]["score"] > after["game"]["score"], "the counter does not go on after the restart")
    check(inits() == state["inits"], "the game re-initialised its state after the restart")
    told = [e for e in host.of("log", since) if "the host restarted itself to recover from" in e.get("msg", "")
            and "your game state was kept" in e.get("msg", "")]
    check(told, "the person was not told why the host restarted")
    check(host.alive(), "the session's process ended")
    frame = host.of("hot_restart_frame", since)
    print(f"  {hr['reason']} ({hr['mode']}, pid {starts[-1]['pid']}); fault to first frame "
          f"{frame[-1]['since_fault_ms'] if frame else '?'} ms", flush=True)
    state["before"] = later


def fault_inside_the_c_runtime():
    m = host.mark()
    inject(game_cpp, UPDATE, SPOIL + " { volatile unsigned long long n = 4096; char *volatile p = (char *)16; "
           "__builtin_memset(p, 0, n); }")
    restarted(m, "inside the C library or the loader")


def fault_on_a_game_thread():
    m = host.mark()
    uninject(game_cpp)
    with open(game_cpp) as f:
        text = f.read()
    with open(game_cpp, "w") as f:
        f.write(text.replace("static GAME_UPDATE(game_update)", THREAD_CODE + "static GAME_UPDATE(game_update)", 1))
    inject(game_cpp, UPDATE, MARK)
    inject(game_cpp, UPDATE, SPOIL + " { static int started; if (!started) { started = 1; "
           "CreateThread(0, 0, engine_test_thread, 0, 0, 0); } }")
    restarted(m, "on a thread the game started")


def fix_loads():
    m = host.mark()
    uninject(game_cpp)
    inject(game_cpp, UPDATE, MARK)
    fixed = reload_kept(m, "the fix did not load over the kept state")
    s = stats(m, lambda e: e.get("version") == fixed["version"], what="the fix running")
    check(s["game"]["score"] >= state["before"]["game"]["score"], "the counter went back after the fix")
    check(not host.of("crash", m), f"the fixed code crashed: {host.of('crash', m)}")


def stopped():
    # Wine ends a Windows process on SIGTERM without a console event (-15, restarted or not); a new
    # process sees its stand-in gone and quits in order ("quit" in the same event log).
    since = host.mark()
    restarted_here = any(e.get("hot_restart") for e in host.of("start"))
    rc = host.stop(timeout=30)
    check(rc in (0, -15), f"exit code {rc}")
    if not restarted_here:
        return
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(host.log_path) as f:
            if any('"ev":"quit"' in line.replace(" ", "") for line in f.readlines()[since:]):
                return
        time.sleep(0.2)
    raise AssertionError("the restarted host.exe did not end after its stand-in was stopped")


def endless_loop_in_the_c_runtime():
    # A second host (three restarts within a minute would stop the first): the game clears a big buffer
    # for ever with msvcrt's memset, so the watchdog's stop finds the main thread inside the C runtime,
    # where a jump could strand its lock. The restart starts from the watchdog's thread, with the main
    # thread held; the state is kept and nothing deadlocks.
    global host
    host = Host(root, "--watchdog", "1", "--build-cmd", build_cmd)
    host.wait_ev("new_code_running", version=1, timeout=120)
    state["good"] = {"version": 1}
    state["before"] = stats(0, lambda e: e["game"]["score"] > state["before"]["game"]["score"] + 60, timeout=90,
                            what="the counter going on in a new host")
    state["inits"] = inits()
    m = host.mark()
    inject(game_cpp, UPDATE, SPOIL + " { static char engine_test_big[8 << 20]; volatile unsigned long long n = "
           "sizeof engine_test_big; for (;;) __builtin_memset(engine_test_big, 1, n); }")
    crash = host.wait_ev("crash", timeout=240, since=m)
    check(crash.get("restarted") and crash["signal"] == "hang", f"the watchdog's stop did not restart: {crash}")
    restarted(m, "a hang (watchdog) inside the C library or the loader")


checks.case("counting", counting)
checks.case("fault_inside_the_c_runtime", fault_inside_the_c_runtime)
checks.case("fault_on_a_game_thread", fault_on_a_game_thread)
checks.case("fix_loads", fix_loads)
checks.case("stopped", stopped)
checks.case("endless_loop_in_the_c_runtime", endless_loop_in_the_c_runtime)
checks.case("fix_loads_again", fix_loads)
checks.case("stopped_again", stopped)
if checks.failed:
    print(host.tail(80))
else:
    cleanup(root)
checks.finish()
