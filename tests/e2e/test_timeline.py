"""End to end: the timeline (docs/timeline.md). The sample plays with its autopilot and a stress swarm; F8 pauses on the
timeline, and the scripted "@frame" keys scrub it while no step runs: every seek (one step, one second, a drag on the
bar) must land on a state whose hash is the one recorded live at that step (byte for byte: the hash covers the whole
used block); leaving at a past step branches, live play goes on from there, and the branch replays as exactly. A
small game that reads the wall clock into its state is caught on replay, with the field named and the clock blamed.
"""
import os
import shutil
import subprocess

from hostlib import ROOT, Checks, Host, check, cleanup, edit, input_script, project_copy, watchdog

checks = Checks()
root = project_copy()
BAR_Y = 720 - 34 + 5   # the bar's middle, in game pixels (timeline_bar.cpp)


def seeks_ok(h, since=0):
    seeks = h.of("timeline_seek", since)
    check(seeks, "no seek happened")
    for s in seeks:
        check(s["at"] == s["to"], f"a seek stopped short: {s}")
        check(s["hash"] == s["recorded"], f"the state after a seek differs from the one recorded at step {s['at']}: {s}")
    check(not h.of("timeline_divergence", since), f"a replay diverged: {h.of('timeline_divergence', since)}")
    return seeks


def seek_back_is_exact():
    # the fight: autopilot, a swarm; F8 at frame 600 (with --fast a frame is a step until the pause)
    script = input_script(root, "5 tap F10\n200 tap F3\n"
                          "@600 tap F8\n@602 tap LEFT\n@604 tap LEFT\n@606 down LSHIFT\n@607 tap LEFT\n@609 tap LEFT\n"
                          "@611 up LSHIFT\n@613 tap RIGHT\n"
                          f"@615 mouse 300 {BAR_Y}\n@616 down MOUSE_LEFT\n@618 mouse 900 {BAR_Y}\n@620 mouse 1000 {BAR_Y}\n"
                          "@622 up MOUSE_LEFT\n@624 tap P\n@640 tap P\n@642 tap F9\n@650 quit\n", "seek.txt")
    h = Host(root, "--fast", "--no-watch", "--timeline", "5", "--input", script, "--watchdog", watchdog())
    try:
        h.wait_ev("quit", timeout=240)
        opened = h.of("timeline_open")
        check(len(opened) == 1 and opened[0]["step"] == 600, f"timeline_open: {opened}")
        seeks = seeks_ok(h)
        back = [s["to"] for s in seeks]
        check(back[:5] == [599, 598, 538, 478, 479], f"the arrow keys' seeks went to {back[:5]}")
        dragged = [s for s in seeks if 615 <= s.get("frame", 0) <= 622]
        check(len(dragged) >= 3 and len({s["to"] for s in dragged}) >= 3, f"the drag seeked to {dragged}")
        check(min(s["to"] for s in dragged) < 400, f"a drag to the bar's left part stayed late: {dragged}")
        played = [s for s in seeks if 625 <= s.get("frame", 0) <= 640]
        check(len(played) >= 10 and all(s["replayed"] <= 1 for s in played), f"P's playback: {played}")
        check(h.of("quit")[0]["step"] == seeks[-1]["at"], "the state is not the one the last seek reached")
    finally:
        h.stop()


def branch_goes_on_exactly():
    """Back two seconds, F8: the steps after it go, live play continues from there, and the branch's own recorded
    steps replay as exactly as any (V replays everything kept and checks every step)."""
    script = input_script(root, "5 tap F10\n200 tap F3\n"
                          "@500 tap F8\n@502 down LSHIFT\n@503 tap LEFT\n@505 tap LEFT\n@506 up LSHIFT\n@508 tap F8\n"
                          "@800 tap F8\n@802 tap V\n@804 tap F8\n@830 quit\n", "branch.txt")
    h = Host(root, "--fast", "--no-watch", "--timeline", "5", "--input", script, "--watchdog", watchdog())
    try:
        h.wait_ev("quit", timeout=240)
        closes = h.of("timeline_close")
        check(len(closes) == 2, f"timeline_close: {closes}")
        check(closes[0]["branched"] and closes[0]["step"] == 380 and closes[0]["dropped"] == 120,
              f"the branch: {closes[0]}")
        opened = h.of("timeline_open")
        # 292 live steps after the branch at 380 (frames 508..800)
        check(len(opened) == 2 and 660 <= opened[1]["step"] <= 680, f"live play after the branch: {opened}")
        ver = h.of("timeline_verify")
        check(ver and ver[0]["mismatches"] == 0, f"the branch did not replay exactly: {ver}")
        check(ver[0]["to"] - ver[0]["from"] >= 250, f"the verify covered too little: {ver}")
        check(not closes[1]["branched"], f"leaving at the live step branched: {closes[1]}")
        seeks_ok(h)
    finally:
        h.stop()


def replays_the_same_seconds(old, new, version):
    """Four seconds back, then a save: the host takes the change while paused there and plays the same recorded inputs
    forward with it (bullets a quarter faster), to the step where F8 was pressed."""
    script = input_script(root, "5 tap F10\n200 tap F3\n@500 tap F8\n@502 down LSHIFT\n@503 tap LEFT\n@505 tap LEFT\n"
                          "@507 tap LEFT\n@509 tap LEFT\n@510 up LSHIFT\n", "edit.txt")
    h = Host(root, "--input", script, "--watchdog", watchdog())
    src = os.path.join(root, "game", "entities.cpp")
    try:
        head = h.wait_ev("timeline_open", timeout=120)["step"]   # real time: frames are not steps
        h.wait_ev("timeline_seek", to=head - 240, timeout=60)
        m = h.mark()
        edit(src, old, new)
        if version > 1:
            h.next_reload(m, timeout=120)
        nc = h.wait_ev("timeline_new_code", timeout=60, since=m)   # a TWEAK: the values in force at once
        check(nc["step"] == head - 240 and nc["version"] == version, f"the change while paused: {nc}")
        last = h.wait_for(lambda e: e.get("ev") == "timeline_seek" and e.get("at") == head, 60, m, "the playback")
        played = h.of("timeline_seek", m)
        check(len(played) >= 230 and all(s["replayed"] <= 1 for s in played), f"the playback: {len(played)} seeks")
        # at the game's own rate whatever the frame rate: 240 steps are four seconds (not fewer when frames are fast)
        check(last["t"] - nc["t"] >= 3.5, f"the playback took {last['t'] - nc['t']:.2f} s for 240 steps")
        runs = [e for e in h.of("frame_stats", m) if e["version"] == version and e["t"] <= last["t"] + 0.5]
        # bullets fired before the restored step still fly for their lifetime (under two seconds): from two
        # seconds of game steps after the restored one, every live bullet is the changed code's
        first = runs[0]["game"]["steps"] if runs else 0
        seen = [(e["game"]["steps"] - first, e["game"]["bullet_speed"]) for e in runs if e["game"].get("bullet_speed")]
        late = [v for at, v in seen if at >= 120]
        # a live bullet is not always in flight when the once-a-second sample is taken; the last shot's speed is
        # kept in the state: once the replay fired, every sample shows the new code's
        shots = [(e["game"]["steps"] - first, e["game"].get("shot_speed")) for e in runs]
        check(any(abs(v - 1375) < 1 for _, v in seen + shots) and all(abs(v - 1375) < 1 for v in late)
              and shots and abs(shots[-1][1] - 1375) < 1,
              f"the same seconds did not run the change (steps after the restored one, speed of a live bullet): {seen}; "
              f"of the last shot: {shots}")
        check(not h.of("timeline_divergence", m), "a replay under the change was compared with the old code's")
    finally:
        h.stop()
        with open(src) as f:
            text = f.read()
        with open(src, "w") as f:   # the next case starts from the sample's code
            f.write(text.replace(new, old, 1))


def new_code_replays_the_same_seconds():
    replays_the_same_seconds("b->vel = v2_scale(d, BULLET_SPEED);", "b->vel = v2_scale(d, BULLET_SPEED * 1.25f);", 2)


def tweak_replays_the_same_seconds():
    """A literal saved while paused in the past goes live with no build (TWEAK) and replays those seconds too."""
    replays_the_same_seconds("BULLET_SPEED        = TWEAK(1100.0f)", "BULLET_SPEED        = TWEAK(1375.0f)", 1)


NONDET_STATE = "    float    clock = 0.0f;              /* the wall clock, read into the state: not deterministic */\n"


def clock_in_state_is_caught():
    """A game that keeps pf->time_seconds() in its state: the replay differs, the field is named and the clock blamed."""
    game = os.path.join(root, "clockgame")
    shutil.copytree(os.path.join(ROOT, "tools", "template"), game)
    for name in ("game.cpp",):
        p = os.path.join(game, name)
        with open(p) as f:
            text = f.read().replace("@NAME@", "clockgame").replace("@FOLDER@", "clockgame")
        text = text.replace("    gs->time += dt;\n", "    gs->time += dt;\n    gs->clock = (float)pf->time_seconds();\n", 1)
        check("gs->clock" in text, "the template's update changed: no place for the clock")
        with open(p, "w") as f:
            f.write(text)
    sp = os.path.join(game, "state.h")
    with open(sp) as f:
        text = f.read()
    text = text.replace("    int32_t  bounces = 0;", NONDET_STATE + "    int32_t  bounces = 0;", 1)
    check("clock" in text, "the template's state changed: no place for the clock")
    with open(sp, "w") as f:
        f.write(text)
    r = subprocess.run(["bash", os.path.join(root, "build.sh"), "game", game], cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=900)
    check(r.returncode == 0, f"./build.sh game clockgame failed:\n{r.stdout[-3000:]}")
    script = input_script(root, "@200 tap F8\n@202 tap LEFT\n@204 tap F8\n@206 quit\n", "clock.txt")
    h = Host(root, "--game", game, "--fast", "--no-watch", "--input", script, "--watchdog", watchdog())
    try:
        d = h.wait_ev("timeline_divergence", timeout=120)
        check(d["field"] == "clock", f"the differing field: {d}")
        check("time_seconds" in d["hint"], f"the hint does not blame the clock: {d}")
        check(d["step"] < 200 and d["compared_at"] > d["step"], f"where: {d}")
        errs = [e for e in h.of("log") if e.get("level") == "error" and "clock" in e.get("msg", "")]
        check(errs and "differs from the recording" in errs[0]["msg"], f"the log line: {errs}")
        h.wait_ev("quit", timeout=60)
    finally:
        h.stop()


checks.case("seek_back_is_exact", seek_back_is_exact)
checks.case("branch_goes_on_exactly", branch_goes_on_exactly)
checks.case("tweak_replays_the_same_seconds", tweak_replays_the_same_seconds)   # before the code change: its host
checks.case("new_code_replays_the_same_seconds", new_code_replays_the_same_seconds)   # leaves the library it built
checks.case("clock_in_state_is_caught", clock_in_state_is_caught)
if not checks.failed:
    cleanup(root)
checks.finish()
