"""End to end: a new build whose own code fails while it is being loaded never costs the session.

Opening a library runs its static initializers, and game_get_api() is its code too. Each scenario saves
a game/game.cpp that crashes or loops forever there, checks that the host survived, reported the crash
(where, what, which build) and kept running the last good code on the same state, then saves the fix
and checks it loads. ASAN_SCENARIO: also run against the sanitizer build of the host.
"""
import os

from hostlib import Checks, Host, check, end_run, inject, project_copy, uninject, watchdog

checks = Checks()
root = project_copy()
game_cpp = os.path.join(root, "game", "game.cpp")
host = Host(root, "--watchdog", watchdog())
current = {"version": 1}

ANCHOR = "GAME_EXPORT GAME_GET_API(game_get_api)"


def stats(since, version=None):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                         and (version is None or e.get("version") == version), 30, since,
                         what=f"frame_stats (version {version})")


def startup():
    host.wait_ev("new_code_running", version=1, timeout=20)
    stats(0, version=1)


def load_fault(name, save_bad, expect_signal, expect_in, names_source=True):
    def case():
        m = host.mark()
        running = current["version"]
        before = stats(m, version=running)
        save_bad()
        crash = host.wait_ev("crash", timeout=60, since=m)
        check(crash["signal"] == expect_signal, f"signal {crash['signal']}, want {expect_signal}")
        check(crash["in"] == expect_in, f"crashed in {crash['in']!r}, want {expect_in!r}")
        check(crash["version"] > running, f"the crash should name the new build, not {crash['version']}")
        check(crash["rolled_back_to"] == running and not crash["halted"], f"the running code was not kept: {crash}")
        if names_source:
            check("game.cpp" in crash["where"], f"the crash location does not name the source: {crash['where']!r}")
        check(not host.of("reload", m), f"the broken build was swapped in: {host.of('reload', m)}")
        after = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("t", 0) > crash["t"] + 0.5, 30, m,
                              what="stats after the crash")
        check(after["version"] == running, f"running version {after['version']}, want {running}")
        check(after["game"]["steps"] > before["game"]["steps"], "the game stopped stepping")
        check(host.alive(), "host died")
        m2 = host.mark()
        uninject(game_cpp)
        fixed = host.wait_ev("reload", timeout=60, since=m2)
        current["version"] = fixed["version"]
        check(fixed["state"] == "kept", f"the fix did not load over the kept state: {fixed}")
        s = stats(m2, version=fixed["version"])
        check(s["game"]["steps"] >= after["game"]["steps"], "steps went back after the fix")
        check(not host.of("crash", m2), "the fixed build crashed")
    checks.case(name, case)


def append(code):
    def save():
        with open(game_cpp, "a") as f:
            f.write("\n" + code + " /*INJECTED*/\n")
    return save


checks.case("startup", startup)
load_fault("crash_in_static_initializer",
           append("static int *volatile g_init_null; struct InitCrash { InitCrash() { *g_init_null = 1; } }; "
                  "static InitCrash g_init_crash;"),
           "SIGSEGV", "static initializers")
load_fault("endless_loop_in_static_initializer",
           append("static volatile int g_init_spin = 1; struct InitHang { InitHang() { while (g_init_spin) {} } }; "
                  "static InitHang g_init_hang;"),
           "hang", "static initializers", names_source=False)
load_fault("crash_in_game_get_api",
           lambda: inject(game_cpp, ANCHOR, "{ static int *volatile null_ptr; *null_ptr = 1; }"),
           "SIGSEGV", "game_get_api")
load_fault("endless_loop_in_game_get_api",
           lambda: inject(game_cpp, ANCHOR, "for (volatile int spin = 1; spin;) {}"),
           "hang", "game_get_api", names_source=False)

end_run(checks, host, root, tail=80)
