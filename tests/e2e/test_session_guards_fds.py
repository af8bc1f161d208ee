"""End to end: game code that closes or replaces the host's descriptors (issue 40, round two).

Through libc - close_range(0, ~0U, 0), dup2() of a file of the game's onto a host number, syscall(SYS_close_range,
...) - each call is wrapped in the game's link (platform/session/guard.cpp): a crash of that library, rolled back, the
message naming the call and the descriptor; nothing of the host's is lost.

Past every wrapper - a raw `syscall` instruction (x86-64) for close_range and dup2 - the descriptors really go.
The sample game plays on autopilot; its update does one of these once, each time the test drops a flag file.
Each frame the host checks its own descriptors (the logs, the watcher, the session's memfd, a build's pipes)
and re-opens or re-creates what was lost, with a message and a descriptors_reopened event naming it:

- idle: the log goes on (the event itself is proof), a later save still builds and loads, the session's memfd
  is a memfd again (a hot restart could hand it over), the host does not spin (its CPU time over a few
  seconds stays well below a busy core's);
- during a build: the build whose pipes were lost starts again and its library loads;
- dup2 of the game's own file onto the JSON log's number: the log is the log again;
- the stop (SIGTERM) ends the host with exit 0.
"""
import os
import time

from hostlib import Checks, Host, check, edit, end_run, inject, input_script, project_copy, stretch, watchdog

checks = Checks()
root = project_copy()
game_cpp = os.path.join(root, "game", "game.cpp")
flag = os.path.join(root, "close_now")
dup_flag = os.path.join(root, "dup_now")
LIBC_FLAGS = {name: os.path.join(root, name + "_now") for name in ("close_range", "dup2", "syscall")}
script = input_script(root, "5 tap F10\n")
host = Host(root, "--watchdog", watchdog(), "--input", script)
state = {"version": 0}

# a raw system call: no libc function in between, so no wrapper sees it
RAW = ("long engine_r; __asm__ volatile(\"syscall\" : \"=a\"(engine_r) : \"a\"(%s), \"D\"(%s), \"S\"(%s), \"d\"(0L) "
       ": \"rcx\", \"r11\", \"memory\"); (void)engine_r;")
# the JSON log's descriptor, found through /proc; then `then` with engine_fd set to it
LOG_FD = ("int engine_fd = -1; for (int fd = 3; fd < 4096 && engine_fd < 0; fd++) { char p[64], l[256]; "
          "snprintf(p, sizeof p, \"/proc/self/fd/%d\", fd); long n = readlink(p, l, sizeof l - 1); "
          "if (n > 0) { l[n] = 0; if (strstr(l, \"events.jsonl\")) engine_fd = fd; } }")
CLOSER = ("{ if (access(\"%s\", F_OK) == 0) { unlink(\"%s\"); %s } "
          "if (access(\"%s\", F_OK) == 0) { unlink(\"%s\"); int engine_test_fd = open(\"/dev/null\", O_WRONLY); %s "
          "if (engine_fd >= 0) { %s } close(engine_test_fd); } "
          "if (access(\"%s\", F_OK) == 0) { unlink(\"%s\"); close_range(0u, ~0u, 0); } "
          "if (access(\"%s\", F_OK) == 0) { unlink(\"%s\"); int engine_test_fd = open(\"/dev/null\", O_WRONLY); %s "
          "if (engine_fd >= 0) dup2(engine_test_fd, engine_fd); close(engine_test_fd); } "
          "if (access(\"%s\", F_OK) == 0) { unlink(\"%s\"); syscall(SYS_close_range, 0u, ~0u, 0u); } }") % (
    flag, flag, RAW % ("436L", "0L", "(long)~0u"),
    dup_flag, dup_flag, LOG_FD, RAW % ("33L", "(long)engine_test_fd", "(long)engine_fd"),
    LIBC_FLAGS["close_range"], LIBC_FLAGS["close_range"],
    LIBC_FLAGS["dup2"], LIBC_FLAGS["dup2"], LOG_FD,
    LIBC_FLAGS["syscall"], LIBC_FLAGS["syscall"])


def stats(since, pred=lambda e: True, timeout=30, what="frame_stats"):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and "steps" in e.get("game", {}) and pred(e),
                         timeout, since, what=what)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def session_memfd(pid):
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if "memfd:engine-session" in os.readlink(f"/proc/{pid}/fd/{fd}"):
                return int(fd)
        except OSError:
            pass
    return -1


def startup():
    host.wait_ev("new_code_running", timeout=30)
    m = host.mark()
    with open(game_cpp) as f:
        text = f.read()
    with open(game_cpp, "w") as f:
        f.write("#include <unistd.h> /*INJECTED*/\n#include <fcntl.h> /*INJECTED*/\n#include <stdio.h> /*INJECTED*/\n"
                "#include <string.h> /*INJECTED*/\n#include <sys/syscall.h> /*INJECTED*/\n" + text)
    inject(game_cpp, "GAME_UPDATE(game_update)", CLOSER)
    state["version"] = host.next_reload(m, 120)["version"]
    stats(m, lambda e: e.get("version") == state["version"])
    check(session_memfd(host.pid) >= 0, "no session memfd to begin with")


def closed_while_idle():
    m = host.mark()
    before = stats(m)
    open(flag, "w").close()
    ev = host.wait_ev("descriptors_reopened", timeout=30, since=m)
    for what in ("JSON log", "watcher", "session"):
        check(any(what in w for w in ev["what"]), f"{what} not named: {ev}")
    msg = [e for e in host.of("log", m) if "closed or replaced" in e.get("msg", "")]
    check(msg, "no message says what was lost")
    s = stats(m, lambda e: e["t"] > ev["t"] and e["game"]["steps"] > before["game"]["steps"] + 30, what="steps go on")
    check(s["version"] == state["version"] and not host.of("crash", m), f"the game did not go on: {s}")
    check(session_memfd(host.pid) >= 0, "the session's memfd was not re-created")
    # no spin: a few seconds of CPU time well below a whole core
    c0, w0 = cpu_seconds(host.pid), time.time()
    time.sleep(stretch(3.0))
    used = (cpu_seconds(host.pid) - c0) / (time.time() - w0)
    check(used < 0.8, f"the host uses {used:.0%} of a core")
    # a save reaches the watcher and the compiler
    m2 = host.mark()
    edit(game_cpp, "GAME_UPDATE(game_update)\n{\n", "GAME_UPDATE(game_update)\n{\n    (void)0; /*INJECTED*/\n")
    r = host.next_reload(m2, 120)
    state["version"] = r["version"]
    check(r["state"] == "kept", f"after the close: {r}")


def closed_during_a_build():
    # the flag must land while the build runs; on a loaded machine the test itself may be late: up to 3 tries
    for attempt in range(3):
        m = host.mark()
        edit(game_cpp, "    (void)%d; /*INJECTED*/\n" % attempt, "    (void)%d; /*INJECTED*/\n" % (attempt + 1))
        host.wait_ev("build_start", timeout=30, since=m)
        open(flag, "w").close()
        ev = host.wait_ev("descriptors_reopened", timeout=30, since=m)
        r = host.next_reload(m, 120)
        state["version"] = r["version"]
        check(r["state"] == "kept", f"the build after the close: {r}")
        if any("build" in w for w in ev["what"]):
            break
        print(f"        try {attempt + 1}: the build had ended before the game took the flag", flush=True)
    check(any("build" in w for w in ev["what"]), f"the build's pipes not named: {ev}")
    check(len(host.of("build_start", m)) >= 2, f"the build did not start again: {host.of('build_start', m)}")
    ends = host.of("build_end", m)
    check(ends and ends[-1]["ok"], f"builds: {ends}")
    print(f"        {len(host.of('build_start', m))} build starts, reload {r['t'] - ev['t']:.1f} s after the close", flush=True)


def log_replaced_by_dup2():
    m = host.mark()
    open(dup_flag, "w").close()
    ev = host.wait_ev("descriptors_reopened", timeout=30, since=m)
    check(any("JSON log" in w for w in ev["what"]), f"the JSON log not named: {ev}")
    stats(m, lambda e: e["t"] > ev["t"] + 0.5, what="the log goes on")


def rolled_back(name, says):
    """The libc call is a crash of the library that made it: rolled back, named; the host's files untouched."""
    def case():
        m = host.mark()
        before = stats(m)
        memfd = session_memfd(host.pid)
        open(LIBC_FLAGS[name], "w").close()
        crash = host.wait_ev("crash", timeout=30, since=m)
        check(says in crash["signal"] and "host descriptor" in crash["signal"], f"signal {crash['signal']!r}")
        check(crash["version"] == state["version"] and crash["rolled_back_to"] > 0 and not crash["halted"], f"crash: {crash}")
        # the state is the snapshot the rolled-back library ran from (crash["snapshot_step"]); from there it goes on
        after = stats(m, lambda e: e["t"] > crash["t"], what="stats after the rollback")
        stats(m, lambda e: e["t"] > after["t"] and e["game"]["steps"] > after["game"]["steps"] + 30, what="steps go on")
        check(not host.of("descriptors_reopened", m), f"a descriptor was lost: {host.of('descriptors_reopened', m)}")
        check(session_memfd(host.pid) == memfd, "the session's memfd changed")
        # the next save builds the code again (the closer with it): the next case's library
        m2 = host.mark()
        marker = "    (void)\"%s\"; /*INJECTED*/\n" % name
        edit(game_cpp, "GAME_UPDATE(game_update)\n{\n", "GAME_UPDATE(game_update)\n{\n" + marker)
        r = host.next_reload(m2, 120)
        state["version"] = r["version"]
        check(r["state"] == "kept", f"after the rollback: {r}")
    return case


checks.case("startup", startup)
checks.case("closed_while_idle", closed_while_idle)
checks.case("closed_during_a_build", closed_during_a_build)
checks.case("log_replaced_by_dup2", log_replaced_by_dup2)
checks.case("libc_close_range_rolls_back", rolled_back("close_range", "close_range of"))
checks.case("libc_dup2_rolls_back", rolled_back("dup2", "dup2 onto"))
checks.case("syscall_close_range_rolls_back", rolled_back("syscall", "syscall(close_range)"))
end_run(checks, host, root, tail=80)
