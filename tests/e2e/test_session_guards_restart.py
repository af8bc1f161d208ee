"""End to end: the session guards that meet a hot restart (issue 40, round two). Each case runs its own host on
its own project copy (a restart counts against the host's restart limit), lets the sample game play, then:

- fault_during_restore: game code makes the crash snapshot unreadable and the block read-only, then
  dereferences null. The rollback's restore faults in the host's own code: the host restarts in rollback
  mode (the last good library, the state from before the faulty code ran), never in keep mode with the
  faulty library (which looped into exit 70).
- tweak_copy_survives_restart: a TWEAK value makes update fault inside the C library (free of a wild
  pointer), so the host restarts. The state from just before the value went live lives in the session:
  the restarted host goes back to it (not to the older snapshot of the last code reload), runs the same
  library with the old value, and does not serve the blamed value again.
- save_during_restart: the fix is saved the moment the game faults (the old process is about to exec or
  the new one has not watched the folders yet): the restarted host finds the source newer than what the
  old one had seen, builds it and loads it (it used to wait forever for a save it never heard of).
- damaged_f7_loop_not_looped: the F7 loop is recording; game code flips bytes in the loop's snapshot that the
  session keeps beside the block, then faults (a restart): the restarted host finds the snapshot damaged,
  says so and goes on live instead of looping a state the game never had.
"""
import os
import time

from hostlib import Checks, Host, check, cleanup, edit, inject, project_copy, stretch, uninject, watchdog

checks = Checks()
UPDATE = "GAME_UPDATE(game_update)"


def stats(host, since, pred=lambda e: True, timeout=30, what="frame_stats"):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {}) and pred(e),
                         timeout, since, what=what)


def prepend(path, line):
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(line + " /*INJECTED*/\n" + text)


class Scenario:
    """One host on one project copy, its first library running and its steps counting."""

    def __init__(self, *args):
        self.root = project_copy()
        self.game_cpp = os.path.join(self.root, "game", "game.cpp")
        self.host = Host(self.root, "--watchdog", watchdog(), *args)
        self.host.wait_ev("new_code_running", timeout=30)
        self.version = self.host.of("reload")[-1]["version"]
        self.before = stats(self.host, 0, lambda e: e.get("version") == self.version and e["game"]["steps"] > 60,
                            what="the game playing")

    def fix_loads(self):
        h = self.host
        m = h.mark()
        uninject(self.game_cpp)
        fixed = h.wait_for(lambda e: e.get("ev") in ("reload", "crash_cleared"), 120, m, what="the fix")
        s = stats(h, m, lambda e: e["t"] > fixed["t"], what="the fix running")
        check(s["game"]["steps"] >= self.before["game"]["steps"], "steps went back after the fix")
        return fixed

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


def fault_during_restore():
    with Scenario() as sc:
        h = sc.host
        m = h.mark()
        prepend(sc.game_cpp, "#include <sys/mman.h>")
        inject(sc.game_cpp, UPDATE, "game_state(mem)->steps = 0; if (in->step > 0) { "
               "mprotect((char *)mem->base + mem->size, 1 << 20, PROT_NONE); mprotect(mem->base, 1 << 20, PROT_READ); "
               "*(volatile int *)0 = 1; }")
        bad = h.next_reload(m, 120)
        hr = h.wait_ev("hot_restart", timeout=60, since=m)
        check(hr["kept"] is True and hr["mode"] == "rollback", f"not a rollback restart: {hr}")
        check("restor" in hr["reason"], f"the reason does not say the restore faulted: {hr['reason']!r}")
        crash = [c for c in h.of("crash", m) if c.get("restarted")]
        check(crash and crash[-1]["version"] == bad["version"] and crash[-1]["rolled_back_to"] == sc.version
              and not crash[-1]["halted"], f"no rollback to version {sc.version}: {h.of('crash', m)}")
        after = stats(h, m, lambda e: e["t"] > hr["t"] + 0.5, what="frame_stats after the restart")
        check(after["game"]["steps"] >= sc.before["game"]["steps"],
              f"state lost: steps {sc.before['game']['steps']} -> {after['game']['steps']}")
        later = stats(h, h.mark(), lambda e: e["game"]["steps"] > after["game"]["steps"] + 30, what="steps going on")
        check(len(h.of("hot_restart", m)) == 1 and not h.of("hot_restart_loop", m),
              f"restarts: {h.of('hot_restart', m)} {h.of('hot_restart_loop', m)}")
        check(later["version"] != bad["version"] and h.alive(), f"the faulty library runs: {later}")
        sc.fix_loads()
        sc.end()


def tweak_copy_survives_restart():
    with Scenario() as sc:
        h = sc.host
        m = h.mark()
        inject(sc.game_cpp, UPDATE, "if (TWEAK_I(0) == 7) { game_state(mem)->steps = 0; __builtin_free((void *)48); }")
        r = h.next_reload(m, 120)
        # well after the reload's snapshot: only the copy taken when the value goes live has these steps
        before = stats(h, m, lambda e: e.get("version") == r["version"] and e["game"]["steps"] > r["step"] + 120,
                       what="the reloaded game playing")
        m2 = h.mark()
        with open(sc.game_cpp) as f:
            text = f.read()
        with open(sc.game_cpp, "w") as f:
            f.write(text.replace("TWEAK_I(0) == 7", "TWEAK_I(7) == 7"))
        hr = h.wait_ev("hot_restart", timeout=60, since=m2)
        check(hr["mode"] == "rollback", f"restart: {hr}")
        rb = h.wait_ev("tweak_rollback", timeout=30, since=m2)
        check(rb.get("restarted") is True and "TWEAK(7)" in rb["values"], f"tweak_rollback: {rb}")
        after = stats(h, m2, lambda e: e["t"] > hr["t"] + 0.5, what="frame_stats after the restart")
        check(after["game"]["steps"] >= before["game"]["steps"],
              f"not the state from just before the value: steps {before['game']['steps']} -> {after['game']['steps']}")
        running = h.of("new_code_running", m2)
        check(running and running[-1]["code_of_version"] == r["version"], f"not the same code: {running}")
        later = stats(h, h.mark(), lambda e: e["game"]["steps"] > after["game"]["steps"] + 60, what="steps going on")
        check(len(h.of("hot_restart", m2)) == 1 and h.alive(), f"the blamed value was served again: {h.of('hot_restart', m2)}")
        check(later["game"]["steps"] > after["game"]["steps"], "the game stopped")
        sc.fix_loads()
        sc.end()


def save_during_restart():
    with Scenario() as sc:
        h = sc.host
        flag = os.path.join(sc.root, "fault_now")
        prepend(sc.game_cpp, "#include <unistd.h>")
        m = h.mark()
        inject(sc.game_cpp, UPDATE, 'if (access("%s", 0) == 0) { unlink("%s"); game_state(mem)->steps = 0; '
               '__builtin_free((void *)48); }' % (flag, flag))
        bad = h.next_reload(m, 120)
        stats(h, m, lambda e: e.get("version") == bad["version"], what="the flagged library running")
        m2 = h.mark()
        open(flag, "w").close()
        deadline = time.time() + stretch(30)
        while os.path.exists(flag):   # the game took the flag: it faults in this very step
            check(time.time() < deadline, "the game never took the flag")
            time.sleep(0.001)
        uninject(sc.game_cpp)
        edit(sc.game_cpp, "GAME_UPDATE(game_update)\n{\n", "GAME_UPDATE(game_update)\n{\n    (void)2; /*INJECTED*/\n")
        saved = time.time()
        hr = h.wait_ev("hot_restart", timeout=60, since=m2)
        check(hr["mode"] == "rollback", f"restart: {hr}")
        start = [e for e in h.of("start", m2) if e.get("hot_restart")]
        check(start and abs(saved - start[-1]["wall"]) < stretch(0.5),
              f"the save was not within 0.5 s of the restart's start: {saved - start[-1]['wall'] if start else None}")
        fixed = h.next_reload(m2, 90)
        check(fixed["state"] == "kept" and fixed["version"] > hr["version"], f"the saved fix: {fixed}")
        s = stats(h, m2, lambda e: e.get("version") == fixed["version"] and e["game"]["steps"] > 0, what="the fix running")
        check(s["game"]["steps"] >= sc.before["game"]["steps"], "state lost")
        check(len(h.of("hot_restart", m2)) == 1, f"restarts: {h.of('hot_restart', m2)}")
        caught = h.of("restart_catch_up", m2)
        print(f"        saved {saved - start[-1]['wall']:+.3f} s from the restart's start; "
              f"{'taken up after the restart' if caught else 'seen by the new watcher'}", flush=True)
        sc.end()


def damaged_f7_loop_not_looped():
    root = project_copy()
    game_cpp = os.path.join(root, "game", "game.cpp")
    flag = os.path.join(root, "damage_now")
    script = os.path.join(root, "bot.txt")
    with open(script, "w") as f:
        f.write("5 tap F10\n120 tap F7\n")
    h = Host(root, "--watchdog", watchdog(), "--input", script)
    try:
        h.wait_ev("new_code_running", timeout=30)
        m = h.mark()
        prepend(game_cpp, "#include <unistd.h>")
        # the session: header | block | crash snapshot | F7 loop snapshot | ...
        inject(game_cpp, UPDATE, 'if (access("%s", 0) == 0) { unlink("%s"); '
               '((volatile char *)mem->base)[2 * mem->size + 200] ^= 0x5A; __builtin_free((void *)48); }' % (flag, flag))
        h.next_reload(m, 120)
        h.wait_ev("loop", state="recording", timeout=60)
        m2 = h.mark()
        open(flag, "w").close()
        hr = h.wait_ev("hot_restart", timeout=60, since=m2)
        check(hr["kept"], f"restart: {hr}")
        loop = h.wait_ev("loop", timeout=30, since=m2)
        check(loop["state"] == "off" and loop.get("reason") == "damaged", f"the damaged loop: {loop}")
        msg = [e for e in h.of("log", m2) if e.get("level") == "error" and "F7 loop" in e.get("msg", "")
               and "damaged" in e.get("msg", "")]
        check(msg, "no message says the loop's snapshot is damaged")
        s1 = stats(h, m2, lambda e: e["t"] > hr["t"] + 0.5, what="frames after the restart")
        stats(h, h.mark(), lambda e: e["game"]["steps"] > s1["game"]["steps"] + 30, what="live play going on")
        rc = h.stop()
        check(rc == 0, f"host exit code {rc}")
        cleanup(root)
    except Exception:
        print(h.tail(60))
        if h.alive():
            h.proc.kill()
            h.proc.wait()
        raise


checks.case("fault_during_restore", fault_during_restore)
checks.case("tweak_copy_survives_restart", tweak_copy_survives_restart)
checks.case("save_during_restart", save_during_restart)
checks.case("damaged_f7_loop_not_looped", damaged_f7_loop_not_looped)
checks.finish()
