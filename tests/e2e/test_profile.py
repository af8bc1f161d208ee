"""End to end: the frame profiler's Chrome trace (--profile) and the view's keys (Shift+F4).

The host runs headless with --profile for 60 frames while the autopilot plays: the trace parses back as
JSON, its zones nest (per thread, each child inside its parent, at the depth it says), and the zones of
each frame sum to no more than the frame's time. The game's zones (through pf->profile_begin) appear by
name, also those recorded before a reload unloaded the library their names were literals in (the host
copies the names: the paused view draws them after the reload), and those of a library loaded where an unloaded
one was, its name's text different at the same address. Shift+F4 opens the view and captures to build/profile-<time>.json; P pauses it, and
the keys the view takes never reach the game (its recorded input does not have them).
"""
import glob
import json
import os
import struct

from hostlib import Checks, Host, check, cleanup, edit, input_script, project_copy

checks = Checks()
root = project_copy()
EPS = 0.002   # microseconds: ts and dur are written with 3 decimals each


def load_trace(path):
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    for e in events:
        check(e["ph"] == "X" and isinstance(e["name"], str) and e["name"], f"not a complete zone: {e}")
        check(e["dur"] >= 0 and e["ts"] >= 0 and e["pid"] == 1 and e["tid"] in (1, 2), f"bad fields: {e}")
    return events


def check_nesting(events):
    """Per thread: sorted by start (longest first), each zone lies inside the zone open around it."""
    for tid in sorted({e["tid"] for e in events}):
        zs = sorted((e for e in events if e["tid"] == tid), key=lambda e: (e["ts"], -e["dur"], e["args"]["depth"]))
        stack = []
        for z in zs:
            while stack and z["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - EPS and not (
                    z["dur"] == 0 and z["ts"] <= stack[-1]["ts"] + stack[-1]["dur"] and z["args"]["depth"] > stack[-1]["args"]["depth"]):
                stack.pop()
            if stack:
                p = stack[-1]
                check(z["ts"] + z["dur"] <= p["ts"] + p["dur"] + EPS,
                      f"tid {tid}: {z['name']} ({z['ts']}+{z['dur']}) overlaps the end of {p['name']} ({p['ts']}+{p['dur']})")
            check(z["args"]["depth"] == len(stack), f"tid {tid}: {z['name']} says depth {z['args']['depth']}, "
                  f"is inside {[s['name'] for s in stack]}")
            stack.append(z)


def check_frame_sums(events):
    """On the main thread: every zone's children sum to no more than it, the frames' zones to no more than the frame."""
    main = sorted((e for e in events if e["tid"] == 1), key=lambda e: (e["ts"], -e["dur"]))
    frames = [e for e in main if e["args"]["depth"] == 0]
    check(all(f["name"] == "frame" for f in frames), f"top-level zones other than frame: {set(f['name'] for f in frames)}")
    for i, f in enumerate(frames):
        inside = [e for e in main if e["args"]["frame"] == f["args"]["frame"] and e is not f]
        top = sum(e["dur"] for e in inside if e["args"]["depth"] == 1)
        check(top <= f["dur"] + EPS * len(inside), f"frame {f['args']['frame']}: zones sum to {top} us, the frame is {f['dur']} us")
        if i + 1 < len(frames):
            check(f["ts"] + f["dur"] <= frames[i + 1]["ts"] + EPS, f"frame {f['args']['frame']} ends after the next starts")
        for p in inside:
            kids = [e for e in inside if e["args"]["depth"] == p["args"]["depth"] + 1 and p["ts"] - EPS <= e["ts"] <= p["ts"] + p["dur"]]
            check(sum(k["dur"] for k in kids) <= p["dur"] + EPS * (len(kids) + 1), f"children of {p['name']} sum past it")


def trace_of_60_frames():
    script = input_script(root, "3 tap ENTER\n4 tap F10\n")   # a run starts, the autopilot plays: play step runs
    path = os.path.join(root, "trace.json")
    host = Host(root, "--input", script, "--frames", "60", "--profile", path, "--fast")
    rc = host.proc.wait(120)
    host.stop()
    check(rc == 0, f"host exit {rc}: {host.tail()}")
    w = host.of("profile_written")
    check(len(w) == 1 and w[0]["ok"] and w[0]["frames"] == 60, f"profile_written: {w}")
    events = load_trace(path)
    check(len(events) == w[0]["zones"], f"{len(events)} events, the host said {w[0]['zones']}")
    names = {e["name"] for e in events}
    for n in ("frame", "input", "reload, assets", "update", "render", "batch build", "present",
              "game update", "game render", "play step"):
        check(n in names, f"no zone {n!r} in the trace (have {sorted(names)})")
    frames = sorted(e["args"]["frame"] for e in events if e["name"] == "frame")
    check(frames == list(range(60)), f"frames {frames[:5]}..{frames[-5:]} ({len(frames)})")
    check_nesting(events)
    check_frame_sums(events)
    print(f"  {len(events)} zones, {len(names)} names: {sorted(names)}")


NAMED = 'static const char zone_name[24] = "named zone, v{}";\n    {}'   # a game's zone name at a fixed offset


def game_names_survive_a_reload():
    # the view is opened and paused before the reload: it keeps drawing v1's frames, their names included,
    # after the library whose literals they were is gone
    script = input_script(root, "5 tap F10\n6 down LSHIFT\n7 tap F4\n9 up LSHIFT\n30 tap P\n", "reload.txt")
    path = os.path.join(root, "reload-trace.json")
    host = Host(root, "--input", script, "--profile", path, "--profile-frames", "100000")
    try:
        host.wait_ev("new_code_running", version=1, timeout=60)
        host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 1, 30, what="v1 frames")
        m = host.mark()
        edit(os.path.join(root, "game", "game.cpp"), 'PROFILE_ZONE("game render");',
             'PROFILE_ZONE("game render, second build");\n    ' + NAMED.format(2, 'PROFILE_ZONE(zone_name);'))
        r = host.wait_ev("reload", version=2, timeout=120, since=m)
        check(r["old_unmapped"] is True, f"the first library is still mapped: {r}")
        host.wait_ev("new_code_running", version=2, timeout=60, since=m)
        host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 2, 30, m, what="v2 frames")
        check([v.get("paused") for v in host.of("profile_view")] == [None, True], f"{host.of('profile_view')}")
        # A library mapped where an unloaded one was, with other text at an address the host has seen: the loader
        # takes turns between two places (v2 and v4 at one), and v4's zone_name has v2's offset (the same code,
        # only its text changed). v3 uses no zone_name. The host recognises a game's name by its pointer and
        # forgets the pointers when it loads a library: v4's zone is named by v4's text.
        for version, old, new in ((3, NAMED.format(2, 'PROFILE_ZONE(zone_name);'), NAMED.format(2, '(void)zone_name;')),
                                  (4, NAMED.format(2, '(void)zone_name;'), NAMED.format(4, 'PROFILE_ZONE(zone_name);'))):
            m = host.mark()
            edit(os.path.join(root, "game", "game.cpp"), old, new)
            host.wait_ev("reload", version=version, timeout=120, since=m)
            host.wait_ev("new_code_running", version=version, timeout=60, since=m)
            host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == version, 30, m,
                          what=f"v{version} frames")
    finally:
        rc = host.stop()
    check(rc == 0, f"host exit {rc}: {host.tail()}")
    w = host.of("profile_written")
    check(len(w) == 1 and w[0]["ok"], f"profile_written: {w}")
    events = load_trace(path)
    names = {}
    for e in events:
        names[e["name"]] = names.get(e["name"], 0) + 1
    check(names.get("game render", 0) > 0 and names.get("game render, second build", 0) > 0,
          f"the game's zone names across the reload: { {k: v for k, v in names.items() if 'game' in k} }")
    check(names.get("named zone, v2", 0) > 0 and names.get("named zone, v4", 0) > 0,
          f"a name at an address an unloaded library had: { {k: v for k, v in names.items() if 'named' in k} }")
    unknown = set(names) - {"frame", "input", "reload, assets", "update", "render", "batch build", "present", "audio mix", "tweak",
                            "wait (build child, clock)", "game update", "game render", "game render, second build", "play step",
                            "named zone, v2", "named zone, v4",
                            "grid", "grid draw"}
    check(not unknown, f"zones with unexpected names (a name read from an unloaded library?): {unknown}")
    check_nesting(events)


def KEY(name):
    """The GameKey value of a key, read from the contract's enum."""
    with open(os.path.join(root, "platform", "include", "game_api.h")) as f:
        text = f.read()
    body = text[text.index("typedef enum GameKey {"):text.index("} GameKey;")]
    keys = [k.strip() for k in body.split("{", 1)[1].replace("\n", " ").split(",") if k.strip()]
    keys = [k.split("=")[0].strip() for k in keys]
    return keys.index("KEY_" + name), keys.index("KEY_COUNT")


def view_keys_do_not_reach_the_game():
    # Shift+F4 opens the view (and captures), P pauses and resumes it: neither F4 nor P is in the game's
    # input. Q, pressed while the view is open, is not the view's and does reach the game.
    script = input_script(root, "5 down LSHIFT\n6 tap F4\n8 up LSHIFT\n20 tap P\n30 tap Q\n40 tap P\n50 tap F10\n", "view.txt")
    rec = os.path.join(root, "view.rec")
    host = Host(root, "--input", script, "--frames", "90", "--fast", "--record", rec, "--profile-frames", "20")
    rc = host.proc.wait(120)
    host.stop()
    check(rc == 0, f"host exit {rc}: {host.tail()}")
    views = host.of("profile_view")
    check([v.get("open") for v in views] == [True, True, True] and [v.get("paused") for v in views[1:]] == [True, False],
          f"profile_view events: {views}")
    w = host.of("profile_written")
    check(len(w) == 1 and w[0]["ok"] and w[0]["frames"] == 20, f"profile_written: {w}")
    check(glob.glob(os.path.join(root, "build", "profile-*.json")) == [w[0]["path"]], f"{w[0]['path']}")
    load_trace(w[0]["path"])
    # the recording: a header, the snapshot, then one GameInput per step (step u64, dt f32, down[], pressed[], ...)
    f4, count = KEY("F4")
    size = 8 + 4 + 3 * count
    size += -size % 4 + 4 * 9 + 8       # axis[6], mouse x/y, wheel, then 8 bytes of flags and padding
    size += -size % 8
    data = open(rec, "rb").read()
    steps = host.of("quit")[0]["step"]
    body = data[len(data) - steps * size:]
    pressed = set()
    for i in range(steps):
        gi = body[i * size:(i + 1) * size]
        check(struct.unpack_from("<Q", gi, 0)[0] == i, f"step {i} of the recording reads {struct.unpack_from('<Q', gi, 0)[0]}")
        for k in range(count):
            if gi[12 + count + k]:
                pressed.add(k)
    for name in ("F4", "P"):
        check(KEY(name)[0] not in pressed, f"the game saw {name} pressed")
    for name in ("Q", "F10", "LSHIFT"):
        check(KEY(name)[0] in pressed, f"the game did not see {name} pressed (recording read wrong?)")


checks.case("trace_of_60_frames", trace_of_60_frames)
checks.case("game_names_survive_a_reload", game_names_survive_a_reload)
checks.case("view_keys_do_not_reach_the_game", view_keys_do_not_reach_the_game)
if not checks.failed:
    cleanup(root)
checks.finish()
