"""End to end: the watchdog interrupts game code that is busy inside host services, over and over,
and the host never deadlocks.

The game's stats function (called by the F1 overlay every frame) is edited into an endless loop that
logs a formatted line on every turn. With a short --watchdog every frame's call is interrupted:
five hundred jumps out of code that spends its time in pf->log. The watchdog is 0.05 s on a quiet machine and
stretches with the load (a first step that takes longer than the bound on a busy machine would halt the game
before the stress begins; any bound interrupts an endless loop, only the rate of jumps changes). A jump that left a lock behind (stdio,
malloc, the time zone lock in localtime_r) would stop the frame loop; the host must keep drawing frames,
keep its log readable, and quit cleanly.
"""
import os
import time

from hostlib import Checks, Host, check, cleanup, input_script, load_factor, project_copy, stretch

JUMPS = 500

checks = Checks()
root = project_copy()
game_cpp = os.path.join(root, "game", "game.cpp")
with open(game_cpp) as f:
    text = f.read()
text = text.replace("static GAME_STATS(game_stats)\n{\n",
                    "static GAME_STATS(game_stats)\n{\n"
                    "    for (unsigned turn = 0; g_stress_pf; turn++)\n"
                    "        g_stress_pf->log(LOG_INFO, \"stats turn %u of %s: %.3f\", turn, \"the endless loop\", turn * 0.25);\n", 1)
update = text.index("GAME_UPDATE(game_update)\n{\n")
update = text.rindex("\n", 0, update) + 1   # the start of that line
text = text[:update] + "static const PlatformAPI *g_stress_pf;\n" + text[update:]
text = text.replace("GAME_UPDATE(game_update)\n{\n", "GAME_UPDATE(game_update)\n{\n    g_stress_pf = pf;\n", 1)
check("g_stress_pf = pf" in text and "stats turn" in text, "game.cpp changed shape")
with open(game_cpp, "w") as f:
    f.write(text)
script = input_script(root, "1 tap F1\n", "overlay.txt")
host = None


def start():
    global host
    build = os.spawnlp(os.P_WAIT, "bash", "bash", os.path.join(root, "build.sh"), "game")
    check(build == 0, "the edited game does not build")
    host = Host(root, "--watchdog", f"{0.05 * load_factor():.3f}", "--fast", "--no-watch", "--input", script)
    host.wait_ev("new_code_running", version=1, timeout=30)


def five_hundred_jumps_no_deadlock():
    # the bounds stretch with the machine's load (a busy machine draws fewer frames, never a stuck one)
    budget = stretch(400)
    deadline = time.time() + budget
    last_t, last_seen = None, time.time()
    jumps = 0
    ctl = host.control()
    seen = host.mark()
    reloads = 0
    while jumps < JUMPS:
        check(time.time() < deadline, f"only {jumps} watchdog jumps in {budget:.0f} s")
        check(host.alive(), f"host died: {host.tail()}")
        new = host.events[seen:]
        seen += len(new)
        if any(e.get("ev") == "crash" and e.get("halted") for e in new):
            # a step or a render the short bound stopped (a busy machine descheduled it), with no older code to
            # roll back to: the game is halted until a build loads. F5 loads one, the same code, and on it goes.
            ctl.request("input", tap=["F5"])
            reloads += 1
        stats = host.of("frame_stats")
        if stats and stats[-1]["t"] != last_t:
            last_t, last_seen = stats[-1]["t"], time.time()
            jumps = stats[-1].get("guard_jumps", 0)
        stuck = stretch(20)
        check(time.time() - last_seen < stuck, f"no frame for {stuck:.0f} s after {jumps} jumps: the host is stuck")
        time.sleep(0.2)
    if reloads:
        print(f"        {reloads} halts of the game (a step or a render over the bound) ended by F5", flush=True)
    lines = [e for e in host.of("log") if "stats turn" in e.get("msg", "")]
    check(lines, "the game's log lines never reached the log")


def quits_cleanly():
    rc = host.stop(timeout=20)
    check(rc == 0, f"host exit code {rc} (it should answer SIGTERM)")


checks.case("start", start)
checks.case("five_hundred_jumps_no_deadlock", five_hundred_jumps_no_deadlock)
checks.case("quits_cleanly", quits_cleanly)
if checks.failed and host:
    print(host.tail(40))
else:
    cleanup(root)
checks.finish()
