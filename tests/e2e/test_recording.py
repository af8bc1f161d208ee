"""End to end: input recording, deterministic replay, and F7 looped live editing."""
import os

from hostlib import Checks, Host, check, cleanup, edit, input_script, project_copy

checks = Checks()
root = project_copy()
rec = os.path.join(root, "run.rec")
script = input_script(root, "# a few presses so the recording has input in it\n"
                      "20 down RIGHT\n80 up RIGHT\n100 tap SPACE\n130 mouse 300 200\n150 axis LX -0.7\n", "input.txt")


def run_to_end(*args):
    h = Host(root, "--fast", "--no-watch", *args)
    rc = h.proc.wait(120)
    h.stop()
    check(rc == 0, f"host exit {rc}: {h.tail()}")
    return h


def replay_gives_same_state():
    a = run_to_end("--frames", "300", "--input", script, "--record", rec)
    qa = a.of("quit")[0]
    check(qa["step"] == 300, f"recorded {qa['step']} steps")
    check(os.path.getsize(rec) > 300 * 100, "recording file is too small")
    b = run_to_end("--frames", "320", "--replay", rec)
    end = b.of("replay_end")
    check(end and end[0]["steps"] == 300, f"replay_end: {end}")
    check(end[0]["state_hash"] == qa["state_hash"],
          f"replayed state {end[0]['state_hash']} differs from the recorded run's {qa['state_hash']}")
    c = run_to_end("--frames", "320", "--replay", rec)
    check(c.of("replay_end")[0]["state_hash"] == end[0]["state_hash"], "two replays differ")


def replay_rejects_other_layouts():
    bad = os.path.join(root, "bad.rec")
    with open(bad, "wb") as f:
        f.write(b"NOTAREC!" + bytes(64))
    h = Host(root, "--fast", "--no-watch", "--frames", "10", "--replay", bad)
    rc = h.proc.wait(60)
    h.stop()
    check(rc != 0, "a bad recording should stop the host with an error")
    errs = [e for e in h.of("log") if e.get("level") == "error" and "bad.rec" in e.get("msg", "")]
    check(errs and "not a recording" in errs[0]["msg"], f"message: {errs}")


def replay_rejects_damaged_snapshot():
    """Bytes flipped inside a recording's snapshot (a disk, a copy, an editor): refused before the game sees a
    byte, with a message naming the file - it used to replay to the end with rc 0 on a state the game never had."""
    with open(rec, "rb") as f:
        data = bytearray(f.read())
    for at in (4096, 4097, 20000):   # well inside the snapshot, which follows a header of a few dozen bytes
        data[at] ^= 0x5A
    bad = os.path.join(root, "damaged.rec")
    with open(bad, "wb") as f:
        f.write(data)
    h = Host(root, "--fast", "--no-watch", "--frames", "30", "--replay", bad)
    rc = h.proc.wait(60)
    h.stop()
    check(rc != 0, "a damaged recording was replayed")
    check(not h.of("replay_start"), f"it was loaded: {h.of('replay_start')}")
    errs = [e for e in h.of("log") if e.get("level") == "error" and "damaged.rec" in e.get("msg", "")]
    check(errs and "snapshot" in errs[0]["msg"] and "damaged" in errs[0]["msg"], f"message: {errs}")


def f7_loops_and_picks_up_new_code():
    with open(script, "w") as f:
        # a run starts, F7 records while the player holds fire to the right, F7 loops that
        f.write("5 tap ENTER\n60 tap F7\n70 down RIGHT\n150 tap F7\n")
    h = Host(root, "--input", script)
    try:
        h.wait_ev("loop", state="recording", timeout=30)
        play = h.wait_ev("loop", state="playing", timeout=30)
        check(play["steps"] >= 80, f"recorded {play['steps']} steps")
        r1 = h.wait_ev("loop_restart", timeout=30)
        r2 = h.wait_ev("loop_restart", timeout=30, since=h.events.index(r1) + 1)
        # each pass starts from the same snapshot: the game's step counter cycles
        s = [e for e in h.of("frame_stats") if e["t"] > r1["t"]]
        steps = [e["game"]["steps"] for e in s if "steps" in e["game"]]
        check(steps and max(steps) <= 60 + play["steps"] + 2, f"steps should stay inside the loop: {steps}")
        m = h.mark()
        edit(os.path.join(root, "game", "entities.cpp"), "b->vel = v2_scale(d, BULLET_SPEED);", "b->vel = v2_scale(d, BULLET_SPEED * 1.25f);")
        h.wait_ev("reload", version=2, timeout=60, since=m)
        m2 = h.mark()
        r3 = h.wait_ev("loop_restart", timeout=30, since=m2)
        # from the next pass on, every bullet in the loop was fired by the new code
        looped = h.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 2
                            and e["game"].get("bullet_speed", 0) > 0, 20, h.events.index(r3) + 1, what="v2 bullets in the loop")
        check(abs(looped["game"]["bullet_speed"] - 1375) < 1, f"the loop does not run the new code: {looped['game']}")
        check(not h.of("loop", m) or all(e["state"] != "off" for e in h.of("loop", m)), "the loop stopped on reload")
    finally:
        h.stop()


checks.case("replay_gives_same_state", replay_gives_same_state)
checks.case("replay_rejects_other_layouts", replay_rejects_other_layouts)
checks.case("replay_rejects_damaged_snapshot", replay_rejects_damaged_snapshot)
checks.case("f7_loops_and_picks_up_new_code", f7_loops_and_picks_up_new_code)
if not checks.failed:
    cleanup(root)
checks.finish()
