"""End to end: mistakes that used to cost the whole session (issue 40), each made while the sample game
plays on autopilot in one host, each followed by its fix.

- a typo that makes the state too big for the block: the build is refused before it is swapped in, the
  old code keeps running, the message names the sizes and the state header's line;
- a TWEAK literal out of range (1e999f, two billion where the old value was small): a notice naming the
  line, the value not applied, and no non-finite number in the JSON log;
- a TWEAK value that makes the game hang within a few steps: the state from just before the value went
  live, the old value served again, the same library still running;
- exit(0), _exit(3), quick_exit(0) in game code: a crash of that library (rolled back, the state restored),
  the message naming the call and game.cpp's line, never the host's end;
- the block made read-only by game code, then a write: the rollback's restore makes it writable first
  (a plain rollback, no restart);
- memset(pf, 0, sizeof *pf) in update: the game's own copy of the service table, never the host's (the
  game goes on, rolled back or not, never halted);
- close() of descriptors 0..20 from game code: the host's log, watcher and session are out of reach, its
  stdin/stdout/stderr come back on the null device, saves still build, SIGTERM still ends it (exit 0).
"""
import json
import os
import re

from hostlib import Checks, Host, check, edit, end_run, inject, input_script, project_copy, uninject, watchdog

checks = Checks()
root = project_copy()
game_dir = os.path.join(root, "game")
state_h = os.path.join(game_dir, "state.h")
entities = os.path.join(game_dir, "entities.cpp")
game_cpp = os.path.join(game_dir, "game.cpp")
script = input_script(root, "5 tap F10\n")
host = Host(root, "--watchdog", watchdog(), "--input", script)
current = {"version": 0}


def stats(since, version=None, timeout=30):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {})
                         and (version is None or e.get("version") == version), timeout, since,
                         what=f"frame_stats (version {version})")


def line_of(path, needle):
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if needle in line:
                return i
    raise AssertionError(f"{path} has no {needle!r}")


def startup():
    host.wait_ev("new_code_running", timeout=30)
    current["version"] = host.of("reload")[-1]["version"]
    stats(0, version=current["version"])


def state_too_big_is_refused():
    m = host.mark()
    v = current["version"]
    before = stats(m, version=v)
    define_line = line_of(state_h, "#define MAX_PARTICLES")
    original = re.search(r"#define MAX_PARTICLES \d+", open(state_h).read()).group(0)   # the game's own count
    edit(state_h, original, "#define MAX_PARTICLES 40960000")
    try:
        refused = host.wait_for(lambda e: e.get("ev") in ("reload_refused", "reload"), 120, m, what="reload_refused")
        check(refused["ev"] == "reload_refused", f"a state that does not fit the block was swapped in: {refused}")
        want = f"does not fit the 256 MB block: raise --memory or fix state.h:{define_line}"
        check(want in refused["reason"], f"reason {refused['reason']!r} lacks {want!r}")
        check(re.match(r"state \d+\.\d\d GB ", refused["reason"]), f"the size is not said in GB: {refused['reason']!r}")
        check(refused["running"] == v, f"the running version changed: {refused}")
        later = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("game", {}).get("steps", 0)
                              > before["game"]["steps"] + 30 and e["t"] > refused["t"], 30, m, what="steps go on")
        check(later["version"] == v, f"the old code does not run on: {later}")
        check(not host.of("crash", m), f"a crash: {host.of('crash', m)}")
    finally:
        m2 = host.mark()
        edit(state_h, "#define MAX_PARTICLES 40960000", original)
        back = host.next_reload(m2, 120)
        current["version"] = back["version"]
    check(back["state"] == "kept", f"the revert did not load over the kept state: {back}")
    after = stats(m2, version=back["version"])
    check(after["game"]["steps"] >= before["game"]["steps"], "the state was lost")


def all_json_finite(since):
    """Every line of the log parses as strict JSON (no inf/nan)."""
    with open(host.log_path) as f:
        for n, line in enumerate(f):
            if n < since or not line.strip():
                continue
            json.loads(line, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(f"{c} in the log: {line}")))


def wild_tweaks_are_refused():
    m = host.mark()
    v = current["version"]
    with open(entities) as f:
        original = f.read()
    lit = re.search(r"FIRE_INTERVAL\s*=\s*TWEAK\(([^)]*)\)", original)
    check(lit, "entities.cpp has no FIRE_INTERVAL TWEAK")
    fire_line = original[:lit.start()].count("\n") + 1
    try:
        edit(entities, lit.group(0), lit.group(0).replace(lit.group(1), "1e999f"))
        r = host.wait_for(lambda e: e.get("ev") in ("tweak_refused", "tweak_applied"), 30, m, what="tweak_refused (inf)")
        check(r["ev"] == "tweak_refused", f"inf went live: {r}")
        check(r["line"] == fire_line and r["file"].endswith("entities.cpp"), f"the notice names another line: {r}")
        check("1e999f" in r["literal"] and "finite" in r["reason"], f"reason: {r}")
        shown = [e for e in host.of("log", m) if "entities.cpp:%d" % fire_line in e.get("msg", "")]
        check(shown, "no message names the line")
        # the value was not applied: the game still fires
        s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > r["t"] + 1.0, 30, m, what="stats")
        check(s["version"] == v and not host.of("crash", m), "the game did not go on")
    finally:
        with open(entities, "w") as f:
            f.write(original)
    host.wait_for(lambda e: e.get("ev") == "tweak" and e["t"] > 0, 30, m, what="the revert seen")
    all_json_finite(m)


def tweak_count_two_billion_is_refused():
    m = host.mark()
    with open(entities) as f:
        original = f.read()
    # an int TWEAK whose compiled value is small
    lit = re.search(r"TWEAK\((\d{1,3})\)", original)
    check(lit, "entities.cpp has no small int TWEAK")
    line = original[:lit.start()].count("\n") + 1
    try:
        edit(entities, lit.group(0), "TWEAK(2000000000)")
        r = host.wait_for(lambda e: e.get("ev") in ("tweak_refused", "tweak_applied") and e.get("line") == line, 30, m,
                          what="tweak_refused (two billion)")
        check(r["ev"] == "tweak_refused", f"two billion went live: {r}")
        check("range" in r["reason"], f"reason: {r}")
    finally:
        with open(entities, "w") as f:
            f.write(original)
    host.wait_for(lambda e: e.get("ev") == "tweak" and e["t"] > 0, 30, m, what="the revert seen")


HANG = "if (TWEAK_I(0) == 7) { game_state(mem)->steps = 0; for (volatile int spin = 1; spin;) {} }"


def hanging_tweak_rolls_back():
    m = host.mark()
    inject(game_cpp, "GAME_UPDATE(game_update)", HANG)
    try:
        r = host.next_reload(m, 120)
        current["version"] = r["version"]
        before = stats(host.mark(), version=r["version"])
        line = line_of(game_cpp, "TWEAK_I(0) == 7")
        m2 = host.mark()
        edit(game_cpp, "TWEAK_I(0) == 7", "TWEAK_I(7) == 7")   # a live value: no build, and it hangs the next step
        rb = host.wait_ev("tweak_rollback", timeout=60, since=m2)
        check(f"game.cpp:{line} TWEAK(7)" in rb["values"], f"the rollback does not name the line: {rb}")
        check(rb["version"] == r["version"], f"another library: {rb}")
        crash = host.of("crash", m2)
        check(len(crash) == 1 and crash[0]["signal"] == "hang" and crash[0]["rolled_back_to"] == r["version"]
              and not crash[0]["halted"], f"crash events: {crash}")
        # the hang zeroed the steps: only the state from just before the value went live brings them back
        back = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > rb["t"] + 1.0, 30, m2, what="stats after")
        check(back["version"] == r["version"], f"the code changed: {back}")
        check(back["game"]["steps"] >= before["game"]["steps"], f"state lost: {before['game']['steps']} -> {back['game']['steps']}")
        check(rb["step"] - rb["tweak_step"] <= 300, f"not within a few steps: {rb}")
        check(len(host.of("crash", m2)) == 1, "the blamed value was served again")
        check(not host.of("reload", m2), f"a reload: {host.of('reload', m2)}")
        # saving the file again (another literal) must not bring the blamed value back
        m3 = host.mark()
        edit(entities, "TWEAK(0.05f)", "TWEAK(0.06f)")
        host.wait_ev("tweak", timeout=30, since=m3)
        host.wait_for(lambda e: e.get("ev") == "frame_stats", 30, host.mark(), what="stats")
        check(not host.of("crash", m3), "the blamed value went live again")
        edit(entities, "TWEAK(0.06f)", "TWEAK(0.05f)")
        m4 = host.mark()
        edit(game_cpp, "TWEAK_I(7) == 7", "TWEAK_I(0) == 7")
        host.wait_ev("tweak", timeout=30, since=m4)
    finally:
        m5 = host.mark()
        uninject(game_cpp)
        current["version"] = host.next_reload(m5, 120)["version"]


def exit_call(code, signal):
    def case():
        m = host.mark()
        before = stats(m)
        with open(game_cpp) as f:
            text = f.read()
        with open(game_cpp, "w") as f:
            f.write("#include <stdlib.h> /*INJECTED*/\n#include <unistd.h> /*INJECTED*/\n" + text)
        inject(game_cpp, "GAME_UPDATE(game_update)", "game_state(mem)->steps = 0; if (in->step > 0) " + code)
        line = line_of(game_cpp, code + " /*INJECTED*/")
        try:
            bad = host.next_reload(m, 120)
            crash = host.wait_ev("crash", timeout=30, since=m)
            check(crash["signal"] == signal, f"signal {crash['signal']!r}, want {signal!r}")
            check(crash["in"] == "update" and crash["version"] == bad["version"], f"crash: {crash}")
            check(f"game.cpp:{line}" in crash["where"], f"the crash does not name game.cpp:{line}: {crash['where']!r}")
            check(crash["rolled_back_to"] > 0 and not crash["halted"], f"no rollback: {crash}")
            msg = [e for e in host.of("log", m) if signal in e.get("msg", "") and e.get("level") == "error"]
            check(msg, "no message names the call")
            back = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > crash["t"] + 0.5, 30, m, what="stats")
            check(back["game"]["steps"] >= before["game"]["steps"] - 1,
                  f"state lost: {before['game']['steps']} -> {back['game']['steps']}")
            check(host.alive(), "the host ended")
        finally:
            m2 = host.mark()
            uninject(game_cpp)
            # the code is the rolled-back library's again: nothing rebuilds, the crash is cleared
            host.wait_for(lambda e: e.get("ev") in ("reload", "crash_cleared"), 120, m2, what="the fix")
    return case


def closed_descriptors():
    m = host.mark()
    before = stats(m)
    with open(game_cpp) as f:
        text = f.read()
    with open(game_cpp, "w") as f:
        f.write("#include <unistd.h> /*INJECTED*/\n" + text)
    inject(game_cpp, "GAME_UPDATE(game_update)",
           "game_state(mem)->steps = 0; if (in->step > 0) for (int fd = 0; fd <= 20; fd++) close(fd);")
    line = line_of(game_cpp, "close(fd); /*INJECTED*/")
    try:
        r = host.next_reload(m, 120)
        crash = host.wait_ev("crash", timeout=30, since=m)
        check(crash["signal"].startswith("close(") and "host descriptor" in crash["signal"], f"signal {crash['signal']!r}")
        check(crash["version"] == r["version"] and crash["rolled_back_to"] > 0 and not crash["halted"], f"crash: {crash}")
        check(f"game.cpp:{line}" in crash["where"], f"the crash does not name game.cpp:{line}: {crash['where']!r}")
        # the log, the frames and the state go on
        s1 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > crash["t"] + 0.5, 30, m, what="stats")
        check(s1["game"]["steps"] >= before["game"]["steps"] - 1, f"state lost: {before['game']['steps']} -> {s1['game']['steps']}")
        host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"]["steps"] > s1["game"]["steps"] + 30, 30, m,
                      what="steps go on")
    finally:
        m2 = host.mark()
        uninject(game_cpp)
        host.wait_for(lambda e: e.get("ev") in ("reload", "crash_cleared"), 120, m2, what="the fix")
    # a save still reaches the watcher and the compiler
    m3 = host.mark()
    edit(game_cpp, "GAME_UPDATE(game_update)\n{\n", "GAME_UPDATE(game_update)\n{\n    (void)0;\n")
    back = host.next_reload(m3, 120)
    current["version"] = back["version"]
    check(back["state"] == "kept", f"after the fix: {back}")


def build_error_without_a_line():
    """A build that the layout stamp fails (a struct nested in the state): build_end's error_count and errors
    agree (tests/e2e/test_layout_stamp_nested.py checks the message itself)."""
    m = host.mark()
    field = "    Particle   particles[MAX_PARTICLES]; /* the first particle_count alive */"
    edit(state_h, field, field + "\n    struct Item { int a; } items[8];")
    try:
        end = host.wait_ev("build_end", timeout=120, since=m)
        check(end["ok"] is False, f"the build did not fail: {end}")
        check(end["error_count"] == len(end["errors"]) >= 1, f"error_count {end['error_count']}, errors {end['errors']}")
        check("struct" in end["errors"][0]["message"], f"the error does not say why: {end['errors']}")
    finally:
        m2 = host.mark()
        edit(state_h, field + "\n    struct Item { int a; } items[8];", field)
        current["version"] = host.next_reload(m2, 120)["version"]


def read_only_block():
    m = host.mark()
    before = stats(m)
    with open(game_cpp) as f:
        text = f.read()
    with open(game_cpp, "w") as f:
        f.write("#include <sys/mman.h> /*INJECTED*/\n" + text)
    inject(game_cpp, "GAME_UPDATE(game_update)", "game_state(mem)->steps = 0; if (in->step > 0) { "
           "mprotect(mem->base, 1 << 20, PROT_READ); ((volatile char *)mem->base)[64] = 1; }")
    try:
        r = host.next_reload(m, 120)
        crash = host.wait_ev("crash", timeout=30, since=m)
        check(crash["signal"] == "SIGSEGV" and crash["version"] == r["version"], f"crash: {crash}")
        check(crash["rolled_back_to"] > 0 and not crash["halted"], f"no rollback: {crash}")
        s1 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > crash["t"] + 0.5, 30, m, what="stats")
        check(s1["game"]["steps"] >= before["game"]["steps"] - 1, f"state lost: {before['game']['steps']} -> {s1['game']['steps']}")
        check(not host.of("hot_restart", m), f"a restart: {host.of('hot_restart', m)}")
        check(len(host.of("crash", m)) == 1, f"more crashes: {host.of('crash', m)}")
    finally:
        m2 = host.mark()
        uninject(game_cpp)
        host.wait_for(lambda e: e.get("ev") in ("reload", "crash_cleared"), 120, m2, what="the fix")


def service_table_cleared():
    m = host.mark()
    inject(game_cpp, "GAME_UPDATE(game_update)", "if (in->step % 2 == 0) __builtin_memset((void *)pf, 0, sizeof *pf);")
    try:
        r = host.next_reload(m, 120)
        s1 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["t"] > r["t"] + 1.0, 30, m, what="stats")
        s2 = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("steps", 0) > s1["game"].get("steps", 0) + 30,
                           30, m, what="steps go on")
        crashes = host.of("crash", m)
        check(len(crashes) <= 1 and not any(c["halted"] for c in crashes), f"crashes: {crashes}")
    finally:
        m2 = host.mark()
        uninject(game_cpp)
        host.wait_for(lambda e: e.get("ev") in ("reload", "crash_cleared"), 120, m2, what="the fix")


checks.case("startup", startup)
checks.case("state_too_big_is_refused", state_too_big_is_refused)
checks.case("wild_tweaks_are_refused", wild_tweaks_are_refused)
checks.case("tweak_count_two_billion_is_refused", tweak_count_two_billion_is_refused)
checks.case("hanging_tweak_rolls_back", hanging_tweak_rolls_back)
checks.case("exit_in_update_rolls_back", exit_call("exit(0);", "exit(0)"))
checks.case("_exit_in_update_rolls_back", exit_call("_exit(3);", "_exit(3)"))
checks.case("quick_exit_in_update_rolls_back", exit_call("quick_exit(0);", "quick_exit(0)"))
checks.case("build_error_without_a_line", build_error_without_a_line)
checks.case("read_only_block", read_only_block)
checks.case("service_table_cleared", service_table_cleared)
checks.case("closed_descriptors", closed_descriptors)   # last but one: the stop below checks SIGTERM ends it
end_run(checks, host, root, tail=80)
