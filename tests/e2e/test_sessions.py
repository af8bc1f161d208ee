"""End to end: sessions as files and the timeline across a layout change (docs/timeline.md). A host plays the sample,
E on the F8 bar (and --save-session at exit) writes the timeline to a file; a second host process opens it
(--open-session), paused at the newest step with the very state recorded there, and every seek and V's replay of the
whole range matches the recorded hashes. A state.h change between export and open migrates the file's states as
seeks reach them; a truncated, damaged or foreign file is refused with one message naming it and the game runs as
usual; a state.h save while playing keeps the kept states (each migrated when a seek restores it) and the steps
before it stay seekable.
"""
import os
import subprocess

from hostlib import Checks, Host, check, cleanup, edit, example_copy, input_script, project_copy, watchdog

checks = Checks()
root = project_copy()
BAR_Y = 720 - 34 + 5   # the bar's middle, in game pixels (timeline_bar.cpp)
EXTRA_FIELD = ("    int32_t    bombs;", "    int32_t    bombs;\n    int32_t    session_probe = 7;   /* added by a test */")
saved = {}


def build_game(*folder):
    """the game library rebuilt from the copy's sources, as a developer's build after an edit"""
    r = subprocess.run(["bash", os.path.join(root, "build.sh"), "game", *folder], cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=900)
    check(r.returncode == 0, f"./build.sh game failed:\n{r.stdout[-3000:]}")


def export_session():
    """Play, F8, E: the file lands in the game's build folder, named by the game and the time; --save-session writes
    another at exit."""
    at_exit = os.path.join(root, "exit.session")
    script = input_script(root, "5 tap F10\n200 tap F3\n@420 tap F8\n@422 tap E\n@424 tap F8\n@500 quit\n", "exp.txt")
    h = Host(root, "--fast", "--no-watch", "--timeline", "10", "--input", script, "--save-session", at_exit,
             "--watchdog", watchdog())
    try:
        h.wait_ev("quit", timeout=240)
        s = h.of("session_saved")
        check(len(s) == 2, f"session_saved: {s}")
        path = s[0]["path"]
        check(os.path.dirname(path) == os.path.join(root, "build", "game", "sessions"), f"where it went: {path}")
        check(os.path.basename(path).startswith("game-") and path.endswith(".session"), f"its name: {path}")
        check(os.path.getsize(path) == s[0]["bytes"] and s[0]["to"] == 420, f"the file: {s[0]}")
        check(s[1]["path"] == at_exit and s[1]["to"] == h.of("quit")[0]["step"] and os.path.getsize(at_exit) == s[1]["bytes"],
              f"--save-session: {s[1]}")
        logs = [e for e in h.of("log") if "session saved" in e.get("msg", "")]
        check(logs and path in logs[0]["msg"] and "MB" in logs[0]["msg"], f"the log line: {logs}")
        saved["key"], saved["exit"], saved["exit_to"] = path, at_exit, s[1]["to"]
    finally:
        h.stop()


def open_session_in_another_host():
    """A second process opens the file: paused at step 420 with the recorded state (its hash), seeks back land on the
    recorded hashes, V replays the whole range without a mismatch, and F8 plays on from the step shown."""
    check(saved, "no session was exported")
    script = input_script(root, "@3 tap LEFT\n@5 down LSHIFT\n@6 tap LEFT\n@8 tap LEFT\n@9 up LSHIFT\n@11 tap V\n"
                          "@13 tap F8\n@60 quit\n", "open.txt")
    h = Host(root, "--fast", "--no-watch", "--timeline", "10", "--open-session", saved["key"], "--input", script,
             "--watchdog", watchdog())
    try:
        h.wait_ev("quit", timeout=240)
        o = h.of("session_open")
        check(len(o) == 1 and o[0]["to"] == 420 and not o[0]["migrated"] and o[0]["compared"], f"session_open: {o}")
        check(o[0]["hash"] == o[0]["recorded"], f"the restored state is not the recorded one: {o[0]}")
        check(o[0]["from"] <= 420 - 300, f"the range it holds: {o[0]}")
        seeks = h.of("timeline_seek")[1:]
        check([s["to"] for s in seeks[:3]] == [419, 359, 299], f"the seeks: {seeks}")
        check(all(s["hash"] == s["recorded"] for s in seeks), f"a seek missed the recorded state: {seeks}")
        ver = h.of("timeline_verify")
        check(ver and ver[0]["mismatches"] == 0 and ver[0]["to"] == 420, f"V over the opened range: {ver}")
        check(not h.of("timeline_divergence"), f"a divergence: {h.of('timeline_divergence')}")
        check(h.of("quit")[0]["step"] > 420, f"F8 did not play on: {h.of('quit')}")
    finally:
        h.stop()


def bad_files_are_refused():
    """Truncated, one flipped byte, not a session at all: one message naming the file and the fault; the game runs."""
    with open(saved["exit"], "rb") as f:
        data = f.read()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    cases = {"cut.session": (data[: len(data) - 1000], "cut short"), "flip.session": (bytes(flipped), "checksum"),
             "foreign.session": (b"not a session file at all" * 20, "not a session file")}
    for name, (body, what) in cases.items():
        path = os.path.join(root, name)
        with open(path, "wb") as f:
            f.write(body)
        h = Host(root, "--fast", "--no-watch", "--frames", "120", "--open-session", path, "--watchdog", watchdog())
        try:
            q = h.wait_ev("quit", timeout=120)
            r = h.of("session_refused")
            check(len(r) == 1 and r[0]["path"] == path and what in r[0]["why"], f"{name}: {r}")
            errs = [e for e in h.of("log") if e.get("level") == "error" and path in e.get("msg", "")]
            check(len(errs) == 1 and what in errs[0]["msg"], f"{name}: the message: {errs}")
            check(q["step"] >= 100 and not h.of("session_open"), f"{name}: the game did not run: {q}")
        finally:
            h.stop()


def state_change_between_export_and_open():
    """state.h gains a field after the export: the file's states are migrated to the new layout on open (the new
    field at its default), its steps scrub, and nothing is called a divergence (other layout: other code)."""
    edit(os.path.join(root, "game", "state.h"), *EXTRA_FIELD)
    try:
        build_game()
        script = input_script(root, "@3 down LSHIFT\n@4 tap LEFT\n@6 tap LEFT\n@7 up LSHIFT\n@9 tap V\n@11 quit\n",
                              "mig.txt")
        h = Host(root, "--fast", "--no-watch", "--timeline", "10", "--open-session", saved["exit"], "--input", script,
                 "--watchdog", watchdog())
        try:
            h.wait_ev("quit", timeout=600)
            o = h.of("session_open")
            check(len(o) == 1 and o[0]["migrated"] and not o[0]["compared"] and o[0]["to"] == saved["exit_to"], f"open: {o}")
            m = h.of("timeline_state_migrated")   # each state as a seek restores it, not all at open
            check(m and len(m) <= len(h.of("timeline_seek")) + 1 and not h.of("timeline_dropped"),
                  f"the migrations: {m}")
            seeks = h.of("timeline_seek")[1:]
            check([s["to"] for s in seeks[:2]] == [saved["exit_to"] - 60, saved["exit_to"] - 120] and all(s["at"] == s["to"] for s in seeks),
                  f"the seeks: {seeks}")
            ver = h.of("timeline_verify")
            check(ver and ver[0]["mismatches"] == 0, f"V: {ver}")
        finally:
            h.stop()
    finally:
        edit(os.path.join(root, "game", "state.h"), EXTRA_FIELD[1], EXTRA_FIELD[0])
        build_game()


def ring_migrates_on_a_live_layout_change():
    """A state.h save while playing: the kept states are kept (none migrated in the reload's frame, nor cleared), a
    drag to the bar's left end reaches a step from before the save (its state migrated then); V replays the whole
    range with no mismatch."""
    script = input_script(root, "5 tap F10\n200 tap F3\n@2700 tap F8\n"
                          f"@2702 mouse 41 {BAR_Y}\n@2703 down MOUSE_LEFT\n@2705 up MOUSE_LEFT\n@2707 tap V\n"
                          "@2709 quit\n", "live.txt")
    h = Host(root, "--timeline", "60", "--input", script, "--watchdog", watchdog())
    try:
        h.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("step", 0) >= 600, 120, 0, "600 steps")
        m = h.mark()
        edit(os.path.join(root, "game", "state.h"), *EXTRA_FIELD)
        h.next_reload(m, timeout=300)
        lay = h.wait_ev("timeline_layout", timeout=60, since=m)
        check(lay["states"] >= 10 and lay["migrated"] == 0, f"the layout change: {lay}")
        migrated = h.wait_ev("migrated", timeout=30, since=m)
        check(not h.of("timeline_state_migrated", m), f"migrated at the change: {h.of('timeline_state_migrated', m)}")
        check(not h.of("timeline_cleared", m), f"the timeline was cleared: {h.of('timeline_cleared', m)}")
        opened = h.wait_ev("timeline_open", timeout=600, since=m)
        check(opened["oldest"] < migrated["step"] - 300, f"the steps before the save: {opened} {migrated}")
        h.wait_ev("quit", timeout=120)
        seeks = h.of("timeline_seek", m)
        check(seeks and seeks[0]["to"] < migrated["step"] and seeks[0]["at"] == seeks[0]["to"], f"the seek: {seeks}")
        ver = h.of("timeline_verify", m)
        check(ver and ver[0]["mismatches"] == 0 and ver[0]["from"] == opened["oldest"], f"V: {ver}")
        check(not h.of("timeline_divergence", m), f"a divergence: {h.of('timeline_divergence', m)}")
        lazy = h.of("timeline_state_migrated", m)
        check(lazy and lazy[0]["step"] <= seeks[0]["to"] and not h.of("timeline_dropped", m), f"on the seek: {lazy}")
    finally:
        h.stop()
        edit(os.path.join(root, "game", "state.h"), EXTRA_FIELD[1], EXTRA_FIELD[0])


def example_debug_timeline():
    """examples/debug_timeline: ten seconds of firing and moving replay with no mismatch (V), and its session opens in
    another process on the same frame and checks as exactly."""
    game = example_copy(root, "debug_timeline")
    build_game(game)
    script = input_script(root, "1 down SPACE\n2 down RIGHT\n100 up RIGHT\n120 down LEFT\n400 up LEFT\n450 down D\n"
                          "@600 tap F8\n@602 tap V\n@604 tap E\n@606 quit\n", "ex.txt")
    h = Host(root, "--game", game, "--fast", "--no-watch", "--input", script, "--watchdog", watchdog())
    try:
        h.wait_ev("quit", timeout=120)
        ver = h.of("timeline_verify")
        check(ver and ver[0]["mismatches"] == 0 and ver[0]["from"] == 0 and ver[0]["to"] == 600, f"V: {ver}")
        check(h.of("quit")[0]["game"].get("hits", 0) >= 3, f"the example's play: {h.of('quit')}")
        path = h.wait_ev("session_saved")["path"]
        check("debug_timeline" in os.path.basename(path), f"the file's name: {path}")
    finally:
        h.stop()
    script = input_script(root, "@3 tap V\n@5 quit\n", "ex2.txt")
    h = Host(root, "--game", game, "--fast", "--no-watch", "--open-session", path, "--input", script,
             "--watchdog", watchdog())
    try:
        h.wait_ev("quit", timeout=120)
        o = h.of("session_open")
        check(o and o[0]["compared"] and o[0]["hash"] == o[0]["recorded"] and o[0]["to"] == 600, f"open: {o}")
        ver = h.of("timeline_verify")
        check(ver and ver[0]["mismatches"] == 0 and ver[0]["to"] - ver[0]["from"] == 600, f"V after open: {ver}")
    finally:
        h.stop()


checks.case("export_session", export_session)
checks.case("open_session_in_another_host", open_session_in_another_host)
checks.case("bad_files_are_refused", bad_files_are_refused)
checks.case("state_change_between_export_and_open", state_change_between_export_and_open)
checks.case("ring_migrates_on_a_live_layout_change", ring_migrates_on_a_live_layout_change)
checks.case("example_debug_timeline", example_debug_timeline)
if not checks.failed:
    cleanup(root)
checks.finish()
