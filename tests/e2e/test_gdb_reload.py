"""End to end: a debugging session across a reload, driven through `./build.sh debug` with gdb in batch mode.

gdb (with tools/gdb_engine.py) starts the host on a copy of the project with a breakpoint in game_update.
At the first stop the scenario saves an edit of game_update, continues until the breakpoint is hit in the
new library, checks that gdb shows the saved text there (its source cache was flushed on the reload),
that the pretty-printers print a v2, a handle and an entity, then sits at the breakpoint for 2.5 times the
watchdog (2 s, both stretched by the load factor on a busy machine) and continues: the watchdog must not report a
hang, the game runs on. Then a crash is saved: it stops in gdb first (SIGSEGV), `continue` hands it to the host,
which rolls back; an endless loop is caught by the watchdog, whose SIGUSR2 reaches the host without stopping gdb.
The scenario interrupts gdb when the host's event log shows what it waits for (the rollback, the hang), never
after a fixed time a busy machine may not keep. gdb's output must carry no "Detaching after
vfork" lines.
"""
import json
import os
import subprocess

from hostlib import ROOT, Checks, Host, check, cleanup, project_copy, stretch, watchdog

checks = Checks()
root = project_copy()
WATCHDOG = watchdog(2.0)
HOLD = 2.5 * float(WATCHDOG)   # the hold always outlasts the watchdog
results = os.path.join(root, "gdb_results.json")
events = os.path.join(root, "events.jsonl")
scenario = os.path.join(root, "gdb_scenario.py")
with open(scenario, "w") as f:
    f.write(r'''
import json, os, signal, threading, time
import gdb

root = os.environ["SCENARIO_ROOT"]
hold = float(os.environ["SCENARIO_HOLD"])
limit = float(os.environ["SCENARIO_LIMIT"])
out = {"steps": []}
def logged(*needles):
    """Is there a line of the host's event log holding every needle?"""
    try:
        with open(os.path.join(root, "events.jsonl")) as f:
            return any(all(n in line for n in needles) for line in f)
    except OSError:
        return False
def interrupt_when(pid, *needles):
    """SIGINT to the host (gdb stops in `continue`) once the event log shows the needles, or after `limit` s."""
    def run():
        deadline = time.time() + limit
        while not logged(*needles) and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)   # a few steps of the game after it
        os.kill(pid, signal.SIGINT)
    threading.Thread(target=run, daemon=True).start()
def note(what):
    out["steps"].append(what)
    print("scenario: " + what, flush=True)
def lib():
    return gdb.solib_name(gdb.selected_frame().pc()) or ""
def save():
    with open(os.path.join(root, "gdb_results.json"), "w") as f:
        json.dump(out, f)
def edit(old, new):
    path = os.path.join(root, "game", "game.cpp")
    with open(path) as f:
        text = f.read()
    assert old in text, old
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))
head = "static GAME_UPDATE(game_update)\n{\n"
last_signal = {"name": ""}
def on_stop(event):
    last_signal["name"] = getattr(event, "stop_signal", "") or ""
gdb.events.stop.connect(on_stop)
try:
    gdb.execute("break game_update")
    gdb.execute("run")
    out["first_lib"] = lib()
    note("stopped in " + out["first_lib"])
    out["listing_before"] = gdb.execute("list game_update", to_string=True)   # gdb reads (and caches) the text
    # the new code: a marker line, then 0.3 s of work, which runs after the hold below (a step still going
    # when the host is continued: the watchdog must not count the time it was held)
    edit(head, head + "    volatile int edited_in_gdb = 1; (void)edited_in_gdb;\n"
                      "    { double busy_from = pf->time_seconds(); while (pf->time_seconds() - busy_from < 0.3) {} }\n")
    deadline = time.time() + 240
    while lib() == out["first_lib"] and time.time() < deadline:
        gdb.execute("continue")
    out["new_lib"] = lib()
    note("stopped in " + out["new_lib"])
    out["listing"] = gdb.execute("list game_update", to_string=True)
    out["where"] = gdb.execute("frame", to_string=True)
    out["print_v2"] = gdb.execute("print ((GameState *)mem->base)->cam", to_string=True)
    first = "((GameState *)mem->base)->entities[((GameState *)mem->base)->handles.dense_to_sparse[0]]"
    out["print_handle"] = gdb.execute("print " + first + ".self", to_string=True)
    out["print_entity"] = gdb.execute("print " + first, to_string=True)
    out["entities"] = gdb.execute("engine-entities 5", to_string=True)
    note("holding the host at the breakpoint for %.1f s" % hold)
    time.sleep(hold)
    gdb.execute("delete")
    pid = gdb.selected_inferior().pid
    threading.Timer(4, lambda: os.kill(pid, signal.SIGINT)).start()
    gdb.execute("continue")          # runs 4 s, then the SIGINT stops it
    note("ran 4 s after the breakpoint")
    # a crash in new code: gdb stops on the SIGSEGV, `continue` passes it to the host, which rolls back
    edit(head, head + "    if (in->step > 0) *(volatile int *)0 = 1;\n")
    t = time.time()
    gdb.execute("continue")
    out["fault_stop"] = last_signal["name"]
    note("stopped by " + last_signal["name"])
    interrupt_when(pid, '"ev":"crash"', '"signal":"SIGSEGV"')
    gdb.execute("continue")
    note("ran on after the fault")
    # an endless loop: the watchdog's SIGUSR2 goes to the host without stopping gdb; the host rolls back
    edit("    if (in->step > 0) *(volatile int *)0 = 1;\n", "    for (volatile int spin = 1; spin;) {}\n")
    interrupt_when(pid, '"ev":"crash"', '"signal":"hang"')
    gdb.execute("continue")
    out["hang_stop"] = last_signal["name"]
    note("stopped by " + last_signal["name"] + " after the endless loop")
    out["ok"] = True
except Exception as e:
    out["error"] = repr(e)
save()
gdb.execute("kill")
''')

gdb_out = os.path.join(root, "gdb.out")


def session():
    env = dict(os.environ, SCENARIO_ROOT=root, SCENARIO_HOLD=str(HOLD), SCENARIO_LIMIT=str(stretch(120)),
               GDB_FLAGS=f"-batch -x {scenario}")
    with open(gdb_out, "w") as out:
        p = subprocess.run(["bash", os.path.join(ROOT, "build.sh"), "debug", "--root", root, "--headless", "--watchdog", WATCHDOG,
                            "--log-json", events, "--log-file", os.path.join(root, "host.log"), "--save-dir", os.path.join(root, "save")],
                           stdout=out, stderr=subprocess.STDOUT, env=env, timeout=stretch(600))
    text = open(gdb_out).read()
    check(os.path.exists(results), f"the scenario wrote no results (gdb exit {p.returncode}):\n{text[-3000:]}")
    r = json.load(open(results))
    print("\n".join(r["steps"]))
    check(r.get("ok"), f"scenario failed: {r.get('error')}\n{text[-3000:]}")
    session.r, session.text = r, text


def read_events():
    with open(events) as f:
        return [json.loads(l) for l in f if l.strip()]


def breakpoint_lands_in_new_library():
    r = session.r
    check(r["new_lib"] != r["first_lib"] and "libgame" in r["new_lib"], f"libraries: {r['first_lib']} -> {r['new_lib']}")
    reloads = [e for e in read_events() if e.get("ev") == "reload" and e.get("why") == "build"]
    check(reloads and reloads[0]["version"] == 2 and reloads[0]["path"] == r["new_lib"], f"reload events: {reloads}")


def source_reread_after_reload():
    check("edited_in_gdb" in session.r["listing"], f"gdb lists the old text of game_update:\n{session.r['listing']}")


def pretty_printers():
    r = session.r
    check("= (" in r["print_v2"] and "x =" not in r["print_v2"], f"v2: {r['print_v2']}")
    check("handle #" in r["print_handle"], f"handle: {r['print_handle']}")
    check(" at (" in r["print_entity"] and " hp " in r["print_entity"], f"entity: {r['print_entity']}")
    check(len(r["entities"].splitlines()) >= 2 and " handle #" in r["entities"], f"engine-entities: {r['entities']}")


def no_hang_after_holding():
    crashes = [e for e in read_events() if e.get("ev") == "crash"]
    hangs = [e for e in crashes if e.get("signal") == "hang" and e.get("version") == 2]
    check(not hangs, f"the {HOLD:.1f} s at a breakpoint was reported as a hang: {hangs}")
    held = session.text.split("scenario: ran 4 s after the breakpoint")[0]
    check("hung" not in held and "HANG" not in held, "gdb's output mentions a hang while the breakpoint was held")


def crash_stops_in_gdb_then_rolls_back():
    check(session.r["fault_stop"] == "SIGSEGV", f"the fault did not stop in gdb (stop signal {session.r['fault_stop']!r})")
    faults = [e for e in read_events() if e.get("ev") == "crash" and e.get("signal") == "SIGSEGV"]
    check(faults and faults[0]["rolled_back_to"] > 0 and not faults[0]["halted"], f"SIGSEGV crash events: {faults}")


def hang_caught_without_stopping_gdb():
    check(session.r["hang_stop"] == "SIGINT", f"gdb stopped on {session.r['hang_stop']}, not at the scenario's SIGINT")
    hangs = [e for e in read_events() if e.get("ev") == "crash" and e.get("signal") == "hang"]
    check(hangs and hangs[0]["rolled_back_to"] > 0 and not hangs[0]["halted"], f"hang events: {hangs}")


def quiet_session():
    noise = [l for l in session.text.splitlines() if "Detaching after" in l or "invalid string offset" in l
             or l.startswith("[New Thread") or (l.startswith("[Thread 0x") and "exited" in l) or l.startswith("[Inferior")]
    check(not noise, f"{len(noise)} noise lines in gdb's output, e.g. {noise[:3]}")


checks.case("session", session)
if checks.failed:
    checks.finish()
checks.case("breakpoint_lands_in_new_library", breakpoint_lands_in_new_library)
checks.case("source_reread_after_reload", source_reread_after_reload)
checks.case("pretty_printers", pretty_printers)
checks.case("no_hang_after_holding", no_hang_after_holding)
checks.case("crash_stops_in_gdb_then_rolls_back", crash_stops_in_gdb_then_rolls_back)
checks.case("hang_caught_without_stopping_gdb", hang_caught_without_stopping_gdb)
checks.case("quiet_session", quiet_session)
if checks.failed:
    print(open(gdb_out).read()[-4000:])
else:
    cleanup(root)
checks.finish()
