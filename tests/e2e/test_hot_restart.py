"""End to end: a fault that no jump can leave safely restarts the host process and keeps the game state.

A double free, an allocating endless loop stopped by the watchdog (the C library holds its locks there),
a stack overflow on a thread the game started, a static destructor that crashes inside dlclose, a storm of
static-initializer crashes: each case runs its own host on its own project copy, first lets the state
change (a counter the scenario's code adds to every step), then saves the fault, and checks from the
event log that the process restarted itself (same pid: it re-executes), reloaded the last good code,
restored the state (the counter did not go back, the game did not re-initialise), told the person why,
and goes on; then the fix loads over the kept state.
"""
import json
import os
import shutil
import signal
import subprocess
import time

from hostlib import Checks, Host, check, cleanup, inject, project_copy, stretch, uninject, watchdog, ROOT

checks = Checks()
UPDATE = "GAME_UPDATE(game_update)"
MARK = "((GameState *)mem->base)->score += 1;"          # the state a scenario changes first
SPOIL = "((GameState *)mem->base)->score = 5;"           # what the faulting code does to it before it fails


def stats(host, since, pred=lambda e: True, timeout=30, what="frame_stats"):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "score" in e.get("game", {}) and pred(e),
                         timeout, since, what=what)


def wait_count(host, names, since, n, timeout, what):
    """Until at least n events named one of names are at index >= since."""
    deadline = time.time() + timeout
    while True:
        host.poll()
        if sum(1 for e in host.events[since:] if e.get("ev") in names) >= n:
            return
        if not host.alive():
            raise AssertionError(f"host exited ({host.proc.returncode}) while waiting for {what}")
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def inits(host):
    return len([e for e in host.of("log") if "NEON SWARM started" in e.get("msg", "")])


class Scenario:
    """One host on one project copy, with the marker build running and its counter past 100."""

    def __init__(self, *args):
        self.root = project_copy()
        self.game_cpp = os.path.join(self.root, "game", "game.cpp")
        self.host = Host(self.root, "--watchdog", watchdog(), *args)
        h = self.host
        h.wait_ev("new_code_running", version=1, timeout=30)
        m = h.mark()
        inject(self.game_cpp, UPDATE, MARK)
        self.marked = h.wait_ev("reload", timeout=90, since=m)
        check(self.marked["state"] == "kept", f"marker build: {self.marked}")
        self.before = stats(h, m, lambda e: e.get("version") == self.marked["version"] and e["game"]["score"] > 100,
                            what="the marker counting")
        self.inits = inits(h)

    def restarted(self, since, timeout=60):
        """Waits for the restart, checks the state was kept; returns (hot_restart event, stats after it)."""
        h = self.host
        hr = h.wait_ev("hot_restart", timeout=timeout, since=since)
        check(hr["kept"] is True, f"the state was not kept: {hr}")
        starts = [e for e in h.of("start", since) if e.get("hot_restart")]
        check(starts and starts[-1]["pid"] == h.pid, f"no restarted process with the same pid: {h.of('start', since)}")
        after = stats(h, since, lambda e: e.get("t", 0) > hr["t"] + 0.5, what="frame_stats after the restart")
        check(after["game"]["score"] >= self.before["game"]["score"],
              f"state lost: the counter went {self.before['game']['score']} -> {after['game']['score']}")
        check(after["game"]["steps"] >= self.before["game"]["steps"],
              f"state lost: steps {self.before['game']['steps']} -> {after['game']['steps']}")
        later = stats(h, h.mark(), lambda e: e["game"]["steps"] > after["game"]["steps"], what="steps going on")
        check(later["game"]["score"] >= after["game"]["score"], "the counter went back")
        check(inits(h) == self.inits, "the game re-initialised its state after the restart")
        told = [e for e in h.of("log", since) if "the host restarted itself to recover from" in e.get("msg", "")
                and "your game state was kept" in e.get("msg", "")]
        check(told, "the person was not told why the host restarted")
        check(h.alive(), "host died")
        frame = h.of("hot_restart_frame", since)
        print(f"        restarted: {hr['reason']} ({hr['mode']}); fault to first frame "
              f"{frame[-1]['since_fault_ms'] if frame else '?'} ms", flush=True)
        return hr, after

    def fix_loads(self):
        h = self.host
        m = h.mark()
        uninject(self.game_cpp)
        fixed = h.wait_ev("reload", timeout=90, since=m)
        check(fixed["state"] == "kept", f"the fix did not load over the kept state: {fixed}")
        s = stats(h, m, lambda e: e.get("version") == fixed["version"], what="the fix running")
        check(s["game"]["steps"] >= self.before["game"]["steps"], "steps went back after the fix")
        check(not h.of("crash", m), f"the fixed code crashed: {h.of('crash', m)}")
        return fixed

    def add_destructor(self, code):
        """Appends code (a static object with a destructor) to game.cpp; returns once that build is running."""
        h = self.host
        m = h.mark()
        with open(self.game_cpp, "a") as f:
            f.write(f"\n{code} /*INJECTED*/\n")
        with_dtor = h.wait_ev("reload", timeout=90, since=m)
        stats(h, m, lambda e: e.get("version") == with_dtor["version"], what="the build with the destructor running")

    def end(self):
        rc = self.host.stop()
        check(rc == 0, f"host exit code {rc}")
        cleanup(self.root)

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is not None:
            print(self.host.tail(60))
            if self.host.alive():
                self.host.proc.kill()
                self.host.proc.wait()
        return False


def fault_in_update(code, expect_where=None):
    def case():
        with Scenario() as sc:
            m = sc.host.mark()
            inject(sc.game_cpp, UPDATE, SPOIL + " " + code)
            hr, _ = sc.restarted(m)
            check(hr["mode"] == "rollback", f"the faulting code was not rolled back: {hr}")
            if expect_where:
                check(expect_where in hr["reason"], f"reason {hr['reason']!r} does not say {expect_where!r}")
            crash = sc.host.of("crash", m)
            check(crash and crash[-1].get("restarted") and crash[-1]["rolled_back_to"] == sc.marked["version"],
                  f"no rollback to the marker build: {crash}")
            sc.fix_loads()
            sc.end()
    return case


def allocating_hang():
    with Scenario() as sc:
        m = sc.host.mark()
        inject(sc.game_cpp, UPDATE, SPOIL + " for (;;) { void *volatile p = __builtin_malloc(5000); __builtin_free(p); }")
        # The watchdog's stop lands inside malloc/free nearly always (a restart); inside the loop's own
        # code a jump is safe and the usual rollback follows. Either way nothing may deadlock.
        ev = sc.host.wait_ev("crash", timeout=60, since=m)
        if ev.get("restarted"):
            sc.restarted(m)
        else:
            check(ev["rolled_back_to"] == sc.marked["version"], f"no rollback: {ev}")
            after = stats(sc.host, m, lambda e: e.get("t", 0) > ev["t"] + 0.5, what="stats after the rollback")
            check(after["game"]["score"] >= sc.before["game"]["score"], "state lost")
        sc.fix_loads()
        sc.end()


def stop_that_cannot_land():
    # The game blocks every signal, then loops: the watchdog's stop stays pending and the frame loop stalls.
    # The host's own watchdog sees no frame for 10 s + 3 x --watchdog and restarts the process.
    with Scenario() as sc:
        m = sc.host.mark()
        inject(sc.game_cpp, UPDATE, SPOIL + " { unsigned long all[16]; for (int i = 0; i < 16; i++) all[i] = ~0ul; "
               "engine_test_sigmask(0, all, 0); for (volatile int spin = 1; spin;) {} }")
        with open(sc.game_cpp) as f:
            text = f.read()
        decl = ('extern "C" int engine_test_sigmask(int, const unsigned long *, unsigned long *) __asm__("pthread_sigmask");'
                " /*INJECTED*/\n")
        with open(sc.game_cpp, "w") as f:
            f.write(text.replace("static GAME_UPDATE(game_update)", decl + "static GAME_UPDATE(game_update)", 1))
        hr, _ = sc.restarted(m, timeout=120)
        check(hr["mode"] == "rollback" and "frame loop stalled" in hr["reason"], f"restart: {hr}")
        sc.fix_loads()
        sc.end()


THREAD_CODE = """
extern "C" int engine_test_thread_start(unsigned long *, const void *, void *(*)(void *), void *) __asm__("pthread_create");
static int engine_test_deep(volatile char *up) { volatile char buf[4096]; buf[0] = up ? up[0] : 1; return engine_test_deep(buf) + buf[1]; }
static void *engine_test_overflow(void *) { engine_test_deep(0); return 0; }
"""


def game_thread_stack_overflow():
    with Scenario() as sc:
        m = sc.host.mark()
        with open(sc.game_cpp) as f:
            text = f.read()
        text = text.replace("static GAME_UPDATE(game_update)", THREAD_CODE + " /*INJECTED*/\nstatic GAME_UPDATE(game_update)", 1)
        text = text.replace(THREAD_CODE, THREAD_CODE.replace("\n", " /*INJECTED*/\n"))
        with open(sc.game_cpp, "w") as f:
            f.write(text)
        inject(sc.game_cpp, UPDATE, SPOIL + " { static int started; unsigned long t; "
               "if (!started) { started = 1; engine_test_thread_start(&t, 0, engine_test_overflow, 0); } }")
        hr, _ = sc.restarted(m)
        check(hr["mode"] == "rollback", f"the game thread's code was not rolled back: {hr}")
        check("thread the game started" in hr["reason"], f"reason: {hr['reason']!r}")
        sc.fix_loads()
        sc.end()


def quit_while_a_destructor_hangs():
    """Asked to quit, the host unloads the game: a static destructor that never returns, inside the C library, is
    a hang the watchdog cannot jump out of. A restart would bring the game back and the quit would be lost (a
    slow dlclose on a busy machine did this once); the host ends instead, as asked."""
    with Scenario() as sc:
        h = sc.host
        sc.add_destructor("#include <unistd.h>\nstruct DtorHang { ~DtorHang() { for (;;) usleep(1000); } }; "
                          "static DtorHang g_dtor_hang;")
        m = h.mark()
        h.proc.send_signal(signal.SIGTERM)
        try:
            rc = h.proc.wait(stretch(30))
        except subprocess.TimeoutExpired:
            rc = None
        h.poll()
        check(rc == 0, f"the host did not end on SIGTERM (exit code {rc}): {h.of('hot_restart', m)}")
        check(not h.of("hot_restart", m), f"the host restarted while it quit: {h.of('hot_restart', m)}")
        check("quitting: a hang or a fault while the host quit" in h.tail(20), f"not told why: {h.tail(20)}")
        sc.end()


def swap_library(root, src):
    """An outside build: the library replaced by a rename, as a build does."""
    lib = os.path.join(root, "build", "game", "libgame.so")
    tmp = lib + ".swap"
    shutil.copy2(src, tmp)
    os.rename(tmp, lib)


def crashing_static_destructor():
    with Scenario() as sc:
        h = sc.host
        sc.add_destructor("static int *volatile g_dtor_null; struct DtorCrash { ~DtorCrash() { *g_dtor_null = 1; } }; "
                          "static DtorCrash g_dtor_crash;")
        m = h.mark()
        with open(sc.game_cpp) as f:   # the destructor goes; the marker stays: this reload unloads the crashing one
            lines = [l for l in f.read().split("\n") if "DtorCrash" not in l]
        with open(sc.game_cpp, "w") as f:
            f.write("\n".join(lines))
        hr, _ = sc.restarted(m, timeout=90)
        check(hr["mode"] == "keep" and "static destructor" in hr["reason"], f"restart: {hr}")
        # 20 clean reloads (outside builds of the same library): every old image leaves the address space
        good = os.path.join(sc.root, "good.so")
        shutil.copy2(os.path.join(sc.root, "build", "game", "libgame.so"), good)
        m = h.mark()
        for i in range(20):
            n = len(h.of("reload", m))
            swap_library(sc.root, good)
            wait_count(h, ("reload",), m, n + 1, 30, f"clean reload {i + 1}")
            time.sleep(0.05)
        reloads = h.of("reload", m)
        check(len(reloads) >= 20, f"{len(reloads)} reloads for 20 swaps")
        check(all(r["old_unmapped"] for r in reloads), f"an old library stayed mapped: {[r for r in reloads if not r['old_unmapped']]}")
        check(not h.of("unload_failed", m), f"still mapped: {h.of('unload_failed', m)}")
        check(len(h.of("hot_restart", m)) == 0, "clean reloads restarted the host")
        s = stats(h, h.mark(), lambda e: e["game"]["steps"] > 0, what="steps after the reloads")
        check(s["game"]["score"] >= sc.before["game"]["score"], "state lost over the reloads")
        sc.end()


def prebuilt(root, code):
    """Builds the game with code appended to game.cpp into <root>/<name>.so and puts the source and the
    library back as they were; returns (good copy, faulting copy)."""
    game_cpp = os.path.join(root, "game", "game.cpp")
    lib = os.path.join(root, "build", "game", "libgame.so")
    good, bad = os.path.join(root, "good.so"), os.path.join(root, "bad.so")
    shutil.copy2(lib, good)
    with open(game_cpp) as f:
        original = f.read()
    with open(game_cpp, "a") as f:
        f.write("\n" + code + "\n")
    subprocess.run(["./build.sh", "game"], cwd=root, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=300)
    shutil.copy2(lib, bad)
    with open(game_cpp, "w") as f:
        f.write(original)
    shutil.copy2(good, lib)
    return good, bad


def three_restarts_in_a_minute_stop():
    # A static initializer that double-frees aborts inside the C library while the loader runs it: each
    # load of it restarts the host (keeping the running code); the third restart within a minute stops it.
    root = project_copy()
    good, bad = prebuilt(root, "struct InitFree { InitFree() { void *volatile p = __builtin_malloc(5000); "
                               "__builtin_free(p); __builtin_free(p); } }; static InitFree g_init_free;")
    host = Host(root, "--watchdog", watchdog())
    try:
        host.wait_ev("new_code_running", version=1, timeout=30)
        m = host.mark()
        for i in range(2):
            n = len(host.of("hot_restart", m))
            swap_library(root, bad)
            wait_count(host, ("hot_restart",), m, n + 1, 60, f"restart {i + 1}")
            hr = host.of("hot_restart", m)[-1]
            check(hr["kept"] and hr["mode"] == "keep" and hr["loaded"], f"restart {i + 1}: {hr}")
            stats(host, host.mark(), lambda e: e.get("version") == hr["version"], what=f"running after restart {i + 1}")
        swap_library(root, bad)
        stop = host.wait_ev("hot_restart_loop", timeout=60, since=m)
        check(stop["restarts"] == 3 and "C library" in stop["reason"], f"stop: {stop}")
        host.proc.wait(30)
        check(host.proc.returncode == 70, f"exit code {host.proc.returncode}, want 70")
        check("stopping instead of looping" in host.tail(), "no clear message on the console")
        cleanup(root)
    except Exception:
        print(host.tail(60))
        if host.alive():
            host.proc.kill()
            host.proc.wait()
        raise


def live_values_kept():
    # What the person set live comes back too: a TWEAK literal changed without a build (the file on disk now
    # differs from the text the library was built from), the F7 loop being recorded, the autopilot (state).
    root = project_copy()
    good, bad = prebuilt(root, "struct InitFree { InitFree() { void *volatile p = __builtin_malloc(5000); "
                               "__builtin_free(p); __builtin_free(p); } }; static InitFree g_init_free;")
    entities = os.path.join(root, "game", "entities.cpp")
    script = os.path.join(root, "bot.txt")
    with open(script, "w") as f:
        f.write("5 tap F10\n240 tap F7\n")
    host = Host(root, "--watchdog", watchdog(), "--input", script)

    def bullets_at(since, speed):
        return host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e.get("game", {}).get("bullet_speed", 0) - speed) < 1,
                             30, since, what=f"bullets at {speed}")
    try:
        host.wait_ev("new_code_running", version=1, timeout=30)
        bullets_at(0, 1100)
        m = host.mark()
        with open(entities) as f:
            text = f.read()
        check("BULLET_SPEED        = TWEAK(1100.0f)" in text, "entities.cpp changed shape")
        with open(entities, "w") as f:
            f.write(text.replace("BULLET_SPEED        = TWEAK(1100.0f)", "BULLET_SPEED        = TWEAK(1800.0f)"))
        host.wait_ev("tweak_applied", timeout=20, since=m)
        bullets_at(m, 1800)
        host.wait_ev("loop", state="recording", timeout=60)
        m = host.mark()
        swap_library(root, bad)
        hr = host.wait_ev("hot_restart", timeout=60, since=m)
        check(hr["kept"] and hr["mode"] == "keep" and hr["loaded"], f"restart: {hr}")
        loop = host.wait_ev("loop", timeout=10, since=m)
        check(loop.get("resumed") and loop["state"] == "recording", f"the F7 loop was not kept: {loop}")
        after = bullets_at(m, 1800)
        check(after["t"] > hr["t"], "no bullets after the restart")
        check(not host.of("build_start", m), "the restart rebuilt the game")
        rc = host.stop()
        check(rc == 0, f"host exit code {rc}")
        cleanup(root)
    except Exception:
        print(host.tail(60))
        if host.alive():
            host.proc.kill()
            host.proc.wait()
        raise


def failed_unloads_pile_up():
    # A thread_local with a destructor pins its library (the loader keeps it for the thread's exit): every
    # unload of it leaves it mapped. The third one in a process restarts the host, which starts clean.
    root = project_copy()
    good, pinned = prebuilt(root, "struct TlsPin { int v; ~TlsPin() { v = 0; } }; static thread_local TlsPin g_tls_pin; "
                                  "static int g_tls_touch = (g_tls_pin.v = 1);")
    host = Host(root, "--watchdog", watchdog())
    try:
        host.wait_ev("new_code_running", version=1, timeout=30)
        before = stats(host, 0, lambda e: e["game"]["steps"] > 30)
        m = host.mark()
        for i in range(4):   # the first swap unloads the clean library; the next three the pinned ones
            n = len(host.of("reload", m))
            swap_library(root, pinned)
            wait_count(host, ("reload",), m, n + 1, 30, f"reload {i + 1}")
        hr = host.wait_ev("hot_restart", timeout=60, since=m)
        check(hr["kept"] and hr["mode"] == "keep" and "still mapped" in hr["reason"], f"restart: {hr}")
        check(len(host.of("unload_failed", m)) == 3, f"unload failures: {host.of('unload_failed', m)}")
        after = stats(host, m, lambda e: e.get("t", 0) > hr["t"] + 0.5, what="stats after the restart")
        check(after["game"]["steps"] >= before["game"]["steps"], "state lost")
        rc = host.stop()
        check(rc == 0, f"host exit code {rc}")
        cleanup(root)
    except Exception:
        print(host.tail(60))
        if host.alive():
            host.proc.kill()
            host.proc.wait()
        raise


def foreign_session_starts_fresh():
    # A host handed something that is not a session of its own (here a plain file) starts with a fresh
    # state and says why, instead of mapping it.
    root = project_copy()
    junk = os.path.join(root, "junk.bin")
    with open(junk, "wb") as f:
        f.write(os.urandom(1 << 16))
    fd = os.open(junk, os.O_RDWR)
    log = os.path.join(root, "events.jsonl")
    out = open(os.path.join(root, "host.out"), "w")
    proc = subprocess.Popen([os.environ.get("HOST_BIN") or os.path.join(ROOT, "build", "host"), "--root", root, "--headless",
                             "--log-json", log, "--save-dir", os.path.join(root, "save"), "--frames", "30"],
                            stdout=out, stderr=subprocess.STDOUT, pass_fds=(fd,), env=dict(os.environ, ENGINE_SESSION_FD=str(fd)))
    try:
        rc = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(fd)
        out.close()
    with open(log) as f:
        events = [json.loads(l) for l in f if l.strip()]
    check(rc == 0, f"host exit code {rc}")
    fresh = [e for e in events if e.get("ev") == "hot_restart"]
    check(fresh and fresh[0]["kept"] is False and "not a session" in fresh[0]["reason"], f"no fresh-start message: {fresh}")
    check(any(e.get("ev") == "reload" and e.get("state") == "new" for e in events), "the game did not start on a fresh state")
    cleanup(root)


def static_initializer_storm():
    root = project_copy()
    good, bad = prebuilt(root, "static int *volatile g_init_null; struct InitCrash { InitCrash() { *g_init_null = 1; } }; "
                               "static InitCrash g_init_crash;")
    host = Host(root, "--watchdog", watchdog())
    try:
        host.wait_ev("new_code_running", version=1, timeout=30)
        before = stats(host, 0, lambda e: e["game"]["steps"] > 30)
        m = host.mark()
        for i in range(200):
            n = len(host.of("crash", m)) + len(host.of("hot_restart", m))
            swap_library(root, bad)
            wait_count(host, ("crash", "hot_restart"), m, n + 1, 30, f"crash {i + 1} of the storm")
            check(host.alive(), f"host died after {i + 1} crashes (exit {host.proc.returncode})")
        crashes = host.of("crash", m)
        check(len(crashes) >= 200, f"{len(crashes)} crashes reported for 200 loads")
        check(all(c["in"] == "static initializers" for c in crashes), "a crash outside the static initializers")
        m2 = host.mark()
        swap_library(root, good)
        fixed = host.wait_ev("reload", timeout=30, since=m2)
        check(fixed["state"] == "kept", f"the good library after the storm: {fixed}")
        s = stats(host, m2, lambda e: e.get("version") == fixed["version"], what="the good library running")
        check(s["game"]["steps"] >= before["game"]["steps"], "steps went back over the storm")
        check(host.alive(), "host died")
        rc = host.stop()
        check(rc == 0, f"host exit code {rc} (127: the loader's state was corrupted)")
        cleanup(root)
    except Exception:
        print(host.tail(60))
        if host.alive():
            host.proc.kill()
            host.proc.wait()
        raise


def record_file_goes_on():
    # --record: the file goes on across the restart (the new process appends to the steps the old one
    # wrote), and replays as one recording with the steps of both processes.
    import tempfile
    folder = tempfile.mkdtemp(prefix="record_restart_")
    path = os.path.join(folder, "session.rec")
    with Scenario("--record", path) as sc:
        h = sc.host
        m = h.mark()
        inject(sc.game_cpp, UPDATE, SPOIL + " { void *volatile p = __builtin_malloc(5000); __builtin_free(p); __builtin_free(p); }")
        sc.restarted(m)
        went_on = h.wait_ev("record_continue", timeout=30, since=m)
        check(went_on["steps"] >= sc.before["game"]["steps"] - 5, f"the recording lost its first steps: {went_on}")
        check(not h.of("record_end", m), f"the recording ended: {h.of('record_end', m)}")
        sc.fix_loads()
        later = stats(h, h.mark(), lambda e: e["game"]["steps"] > sc.before["game"]["steps"] + 120, what="120 more steps")
        rc = h.stop()
        check(rc == 0, f"host exit code {rc}")
        replay = Host(sc.root, "--replay", path, "--watchdog", watchdog())
        try:
            end = replay.wait_ev("replay_end", timeout=120)
            check(end["steps"] > went_on["steps"] + 100,
                  f"the file holds {end['steps']} steps: it ended at the restart ({went_on['steps']} then)")
            check(end["steps"] >= later["game"]["steps"] - sc.before["game"]["steps"], f"steps missing: {end}")
        finally:
            replay.stop()
        cleanup(sc.root)
    shutil.rmtree(folder, ignore_errors=True)


ONLY = os.environ.get("HOT_RESTART_CASES", "")   # a comma-separated subset, to run one case by hand


def case(name, fn):
    if not ONLY or name in ONLY.split(","):
        checks.case(name, fn)


case("double_free_in_update", fault_in_update("{ void *volatile p = __builtin_malloc(5000); __builtin_free(p); "
                                                     "__builtin_free(p); }", "C library"))
case("allocating_endless_loop_under_the_watchdog", allocating_hang)
case("stalled_frame_loop_signals_blocked", stop_that_cannot_land)
case("game_thread_stack_overflow", game_thread_stack_overflow)
case("crashing_static_destructor_then_20_clean_reloads", crashing_static_destructor)
case("quit_while_a_destructor_hangs", quit_while_a_destructor_hangs)
case("failed_unloads_pile_up", failed_unloads_pile_up)
case("storm_of_200_static_initializer_crashes", static_initializer_storm)
case("three_restarts_within_a_minute_stop", three_restarts_in_a_minute_stop)
case("tweak_values_and_f7_loop_kept", live_values_kept)
case("foreign_session_starts_fresh", foreign_session_starts_fresh)
case("record_file_goes_on", record_file_goes_on)
checks.finish()
