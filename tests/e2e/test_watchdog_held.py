"""End to end: time the host is held (SIGSTOP, a debugger's breakpoint) is never counted as a hang, and a
real endless loop is still caught.

Every step of the game is made to take 0.4 s of busy work, so the host is almost always inside a guarded
call. It is stopped with SIGSTOP for 2.5 times the watchdog (a 2 s watchdog and a 5 s hold on a quiet machine,
both stretched by the load factor on a busy one, so a step descheduled by other work is never a hang and the hold
always outlasts the watchdog) and continued: no hang may be reported and the game runs on. Then an endless loop is saved into game_update: the watchdog must still end it.
"""
import os
import signal
import time

from hostlib import Checks, Host, check, end_run, inject, project_copy, watchdog

checks = Checks()
root = project_copy()
game_cpp = os.path.join(root, "game", "game.cpp")
inject(game_cpp, "GAME_UPDATE(game_update)",
       "{ double busy_from = pf->time_seconds(); while (pf->time_seconds() - busy_from < 0.4) {} }")
check(os.spawnlp(os.P_WAIT, "bash", "bash", os.path.join(root, "build.sh"), "game") == 0, "the edited game does not build")
WATCHDOG = watchdog(2.0)
HOLD = 2.5 * float(WATCHDOG)
host = Host(root, "--watchdog", WATCHDOG)


def steps(since):
    e = host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {}), 30, since, what="frame_stats")
    return e["game"]["steps"]


def startup():
    host.wait_ev("new_code_running", version=1, timeout=30)
    steps(0)


def held_by_sigstop():
    for turn in range(2):
        m = host.mark()
        before = steps(m)
        time.sleep(0.1 + 0.15 * turn)   # somewhere inside a 0.4 s step
        os.kill(host.pid, signal.SIGSTOP)
        time.sleep(HOLD)
        os.kill(host.pid, signal.SIGCONT)
        after = steps(host.mark())
        time.sleep(2)
        check(not host.of("crash", m), f"held for {HOLD:.1f} s under a {WATCHDOG} s watchdog, reported as: {host.of('crash', m)}")
        check(after > before, f"the game did not run on after SIGCONT (steps {before} -> {after})")
        check(host.alive(), "host died")


def endless_loop_still_caught():
    m = host.mark()
    t = time.time()
    inject(game_cpp, "GAME_UPDATE(game_update)", "for (volatile int spin = 1; spin;) {}")
    crash = host.wait_ev("crash", timeout=60, since=m)
    check(crash["signal"] == "hang" and crash["in"] == "update", f"crash event {crash}")
    check(crash["rolled_back_to"] > 0 and not crash["halted"], f"no rollback: {crash}")
    check(host.alive(), "host died")
    print(f"hang reported {time.time() - t:.1f} s after the save")


checks.case("startup", startup)
checks.case("held_by_sigstop", held_by_sigstop)
checks.case("endless_loop_still_caught", endless_loop_still_caught)
end_run(checks, host, root)
