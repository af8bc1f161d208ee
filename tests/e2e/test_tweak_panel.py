"""End to end: the F4 tweak panel, driven by scripted mouse input, writes values back into their literals.

- dragging a float rewrites that literal only (the file differs from before in one token), the game reads the
  new value on the frame of the change, and no build starts, not even while build errors are showing;
- Ctrl+Z gives back a byte-identical file, Ctrl+Y the dragged one;
- a value typed into its box is written;
- a drag that pauses (written at 49.44f) and goes on keeps the literal's style as the drag found it (67.2f, not
  67.20f), and the panel's source column shows the literal on disk, not the one the running code was built from;
- a colour keeps its hex style (0xRRGGBB grows to 8 digits for an alpha below FF) and a position dragged by
  its handle in the view keeps its pair's style;
- a file saved on disk since the host last read it is not overwritten ("changed on disk"), and a read-only file
  keeps the value live in memory only;
- nothing the panel takes (clicks, typing into its filter, F4) reaches the game's input or a --record file.
"""
import difflib
import os
import re
import stat
import struct
import time

from hostlib import Checks, Host, check, cleanup, project_copy, input_script
from panel_script import (ALPHA_X, PANEL_X, PICKER_Y, SITE_Y, VALUE, VALUE_X, Script)

checks = Checks()
roots = []


def copy():
    r = project_copy()
    roots.append(r)
    return r


def line_of(path, needle):
    return next(i + 1 for i, l in enumerate(open(path)) if needle in l)


TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.']*|\s+|.", re.S)


def token_changes(before, after):
    """(old tokens, new tokens) of each place where the texts differ, C-like tokens, whitespace kept."""
    a, b = TOKEN.findall(before), TOKEN.findall(after)
    return [(a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
            if op != "equal"]


def wait_steps(host, step, timeout=60):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("step", 0) >= step, timeout, what=f"step {step}")


def drag_float_is_one_token_live_and_unbuilt():
    root = copy()
    ui = os.path.join(root, "game", "fx.cpp")      # the tweak's file
    fx = os.path.join(root, "game", "ui.cpp")      # the file broken on purpose
    original = open(ui).read()
    line = line_of(ui, "GRID_MAX_OFFSET    = TWEAK(48.0f)")
    # F5 with a broken ui.cpp: build errors are showing when the drag writes
    with open(fx, "a") as f:
        f.write("\nthis does not compile;\n")
    s = Script(2).at("tap F5").at("tap ENTER").open_panel().filter(f"fxcpp{line}gridmax").wait(900)
    s.drag(VALUE[0], VALUE[1], VALUE[0] + 40, VALUE[1]).wait(60).ctrl("Z").wait(60).ctrl("Y").wait(60).ctrl("Z").wait(30).at("quit")
    host = Host(root, "--input", input_script(root, s.text()))
    try:
        failed = host.wait_ev("build_end", timeout=120)
        check(failed["ok"] is False, f"the broken build: {failed}")
        start = host.wait_ev("tweak_drag_start", timeout=60)
        check(host.events.index(failed) < host.events.index(start), "the drag came before the build errors showed")
        m = host.mark()
        written = host.wait_ev("tweak_written", timeout=30)
        end = host.of("tweak_drag_end")
        check(end and end[-1]["line"] == line, f"drag end: {end}")
        text = open(ui).read()
        changes = token_changes(original, text)
        check(len(changes) == 1 and changes[0] == (["48.0f"], ["67.2f"]), f"the file changed in {changes}")
        check(written["literal"] == "67.2f" and written["line"] == line, f"{written}")
        # every change the panel made was read by the game on its own frame (the last one of each frame: the
        # game reads GRID_MAX_OFFSET every step, and a loaded machine runs several steps in a frame)
        changes = host.of("tweak_panel_change")
        check(len(changes) >= 3, f"changes: {changes}")
        last_of_frame = {c["frame"]: c for c in changes}
        for c in last_of_frame.values():
            same = [a for a in host.of("tweak_applied") if a["frame"] == c["frame"] and a["line"] == line and a["value"] == c["value"]]
            check(same, f"the change to {c['value']} at frame {c['frame']} was not read on that frame")
        time.sleep(1.5)
        builds = host.of("build_start")
        check(len(builds) == 1, f"builds: {builds} (only F5's may run)")
        host.wait_ev("tweak_own_write", timeout=10, since=m)
        check(not [t for t in host.of("tweak") if t.get("live")], f"a second tweak reload: {host.of('tweak')}")
        # undo, redo, undo (the script then quits): byte-identical to the original at the end
        check(host.proc.wait(120) == 0, "the host did not quit cleanly")
        host.stop()
        ops = [e["ev"] for e in host.events if e.get("ev") in ("tweak_undo", "tweak_redo")]
        check(ops == ["tweak_undo", "tweak_redo", "tweak_undo"], f"{ops}")
        redone = [e for e in host.of("tweak_written")][2]
        check(redone["literal"] == "67.2f", f"Ctrl+Y wrote {redone}")
        check(open(ui).read() == original, "Ctrl+Z did not give back the original file byte for byte")
        check(len(host.of("build_start")) == 1, "undo/redo started a build")
    finally:
        host.stop()


def colour_and_position_keep_their_style():
    root = copy()
    ui = os.path.join(root, "game", "ui.cpp")
    fx = os.path.join(root, "game", "fx.cpp")
    text = open(fx).read()   # (a 6-digit colour growing to 8 digits is the unit test's)
    before_pos = open(ui).read()
    line = line_of(fx, "GRID_COLOR         = TWEAK_COLOR(")
    s = Script().at("tap ENTER").open_panel().filter(f"fxcpp{line}gridcolor")
    s.click(VALUE_X + 10, SITE_Y + 9).wait(4)                              # the swatch opens the picker
    s.drag(ALPHA_X, PICKER_Y + 1, ALPHA_X, PICKER_Y + 50).wait(10)         # alpha to half
    s.drag(12, 10, 112, 60).wait(20)                                      # HUD_SCORE_AT's handle, top left
    host = Host(root, "--input", input_script(root, s.text()), "--fast")
    try:
        host.wait_for(lambda e: e.get("ev") == "tweak_written" and e["line"] == line, 60, what="colour written")
        after = open(fx).read()
        check(token_changes(text, after) == [(["0x24306EC0"], ["0x24306E80"])], f"colour: {token_changes(text, after)}")
        pos_line = line_of(ui, "HUD_SCORE_AT = TWEAK_SCREEN_POS(")
        host.wait_for(lambda e: e.get("ev") == "tweak_written" and e["line"] == pos_line, 60, what="position written")
        final = open(ui).read()
        check(token_changes(before_pos, final) == [(["12.0f"], ["112.0f"]), (["10.0f"], ["60.0f"])], f"position: {token_changes(before_pos, final)}")
        check("HUD_SCORE_AT = TWEAK_SCREEN_POS(112.0f, 60.0f);" in final, "the pair's spacing changed")
        applied = [a for a in host.of("tweak_applied") if a["line"] == pos_line]
        check(applied and applied[-1]["value"] == [112, 60], f"the game read {applied[-1:]}")
    finally:
        host.stop()


def a_save_in_between_is_not_overwritten():
    root = copy()
    ui = os.path.join(root, "game", "fx.cpp")
    line = line_of(ui, "GRID_MAX_OFFSET    = TWEAK(48.0f)")
    # --no-watch: the host never reads the save below by itself, so its write-back finds the file changed
    s = Script().at("tap ENTER").open_panel().filter(f"fxcpp{line}gridmax")
    s.drag(VALUE[0], VALUE[1], VALUE[0] + 40, VALUE[1])
    first_done = s.step
    s.wait(400).drag(VALUE[0], VALUE[1], VALUE[0] + 20, VALUE[1]).wait(60).drag(VALUE[0], VALUE[1], VALUE[0] + 20, VALUE[1])
    host = Host(root, "--input", input_script(root, s.text()), "--no-watch")
    try:
        host.wait_ev("tweak_written", timeout=60)
        step = host.wait_for(lambda e: e.get("ev") == "frame_stats", 30)["step"]
        check(step < first_done + 300, f"the host ran too far ahead of the test (step {step})")
        saved = open(ui).read().replace("POPUP_SECONDS      = TWEAK(0.9f)", "POPUP_SECONDS      = TWEAK(0.8f)")
        open(ui, "w").write(saved)                                           # an editor's save
        refused = host.wait_ev("tweak_write_refused", timeout=60)
        check(refused["reason"] == "changed on disk", f"{refused}")
        check(open(ui).read() == saved, "the save made in between was overwritten")
        m = host.mark()
        again = host.wait_ev("tweak_written", timeout=60, since=m)             # read again: the next drag writes
        now = open(ui).read()
        check(len(token_changes(saved, now)) == 1 and "POPUP_SECONDS      = TWEAK(0.8f)" in now, f"{token_changes(saved, now)}")
        check(again["line"] == line, f"{again}")
    finally:
        host.stop()


def read_only_stays_live_in_memory():
    root = copy()
    ui = os.path.join(root, "game", "fx.cpp")
    line = line_of(ui, "GRID_MAX_OFFSET    = TWEAK(48.0f)")
    before = open(ui).read()
    os.chmod(ui, stat.S_IRUSR | stat.S_IRGRP)
    s = Script().at("tap ENTER").open_panel().filter(f"fxcpp{line}gridmax").drag(VALUE[0], VALUE[1], VALUE[0] + 40, VALUE[1]).wait(10)
    host = Host(root, "--input", input_script(root, s.text()), "--fast")
    try:
        refused = host.wait_ev("tweak_write_refused", timeout=60)
        check(refused["reason"] == "write" and refused["line"] == line, f"{refused}")
        check(open(ui).read() == before, "a read-only file was written")
        logs = [e["msg"] for e in host.of("log") if "read-only" in e.get("msg", "")]
        check(logs, "no message says the file is read-only")
        applied = [a for a in host.of("tweak_applied") if a["line"] == line]
        check(applied and abs(applied[-1]["value"] - 67.2) < 0.01, f"not live: {applied[-1:]}")
    finally:
        host.stop()
        os.chmod(ui, stat.S_IRUSR | stat.S_IWUSR)


def typed_value_is_written():
    root = copy()
    ui = os.path.join(root, "game", "fx.cpp")
    before = open(ui).read()
    line = line_of(ui, "GRID_MAX_OFFSET    = TWEAK(48.0f)")
    s = Script().at("tap ENTER").open_panel().filter(f"fxcpp{line}gridmax").click(*VALUE).at("tap 7").at("tap 5").at("tap ENTER").wait(10)
    host = Host(root, "--input", input_script(root, s.text()), "--fast")
    try:
        w = host.wait_ev("tweak_written", timeout=60)
        check(w["literal"] == "75.0f", f"{w}")
        check(token_changes(before, open(ui).read()) == [(["48.0f"], ["75.0f"])], "typed value")
    finally:
        host.stop()


def pause_keeps_style_and_column_current():
    root = copy()
    fx = os.path.join(root, "game", "fx.cpp")
    before = open(fx).read()
    line = line_of(fx, "GRID_MAX_OFFSET    = TWEAK(48.0f)")
    x, y = VALUE
    s = Script().at("tap ENTER").open_panel().filter(f"fxcpp{line}gridmax")
    s.at(f"mouse {x} {y}", 1).at("down MOUSE_LEFT", 1).at(f"mouse {x + 3} {y}", 1).wait(60)   # held still: written
    s.at(f"mouse {x + 20} {y}", 1).at(f"mouse {x + 40} {y}", 1).at("up MOUSE_LEFT").wait(30)
    s.click(x, y).wait(10)                        # a second gesture: its start reports the source column
    host = Host(root, "--input", input_script(root, s.text()))   # not --fast: the pause is 150 ms of the clock
    try:
        host.wait_ev("tweak_drag_pause", timeout=60)
        first = host.wait_ev("tweak_written", timeout=60)
        check(first["literal"] == "49.44f", f"the write at the pause: {first}")
        m = host.mark()
        end = host.wait_ev("tweak_written", timeout=60, since=m)
        check(end["literal"] == "67.2f", f"the drag's end wrote {end['literal']} (the literal was 48.0f)")
        check(token_changes(before, open(fx).read()) == [(["48.0f"], ["67.2f"])], f"{token_changes(before, open(fx).read())}")
        starts = host.wait_for(lambda e: e.get("ev") == "tweak_drag_start", 60, m, what="the second gesture")
        check("TWEAK(67.2f)" in starts["source"], f"the source column shows {starts['source']!r} (the file holds 67.2f)")
    finally:
        host.stop()


def KEY(root, name):
    with open(os.path.join(root, "platform", "include", "game_api.h")) as f:
        text = f.read()
    body = text[text.index("typedef enum GameKey {"):text.index("} GameKey;")]
    keys = [k.split("=")[0].strip() for k in body.split("{", 1)[1].replace("\n", " ").split(",") if k.strip()]
    return keys.index("KEY_" + name), keys.index("KEY_COUNT")


def panel_input_is_not_the_games():
    root = copy()
    ui = os.path.join(root, "game", "fx.cpp")
    line = line_of(ui, "GRID_MAX_OFFSET    = TWEAK(48.0f)")
    s = Script().at("tap ENTER").open_panel().filter(f"fxcpp{line}gridmax").drag(VALUE[0], VALUE[1], VALUE[0] + 40, VALUE[1])
    s.ctrl("Z").open_panel().at("tap Q").at("mouse 300 300", 1).at("down MOUSE_LEFT", 1).at("up MOUSE_LEFT").wait(5)
    rec = os.path.join(root, "panel.rec")
    host = Host(root, "--input", input_script(root, s.text()), "--fast", "--frames", str(s.step + 5), "--record", rec)
    rc = host.proc.wait(120)
    host.stop()
    check(rc == 0, f"host exit {rc}: {host.tail()}")
    check(host.of("tweak_written") and host.of("tweak_undo"), "the panel did not work")
    _, count = KEY(root, "F4")
    size = 8 + 4 + 3 * count
    size += -size % 4
    mouse_at = size + 4 * 6
    size += 4 * 9 + 8
    size += -size % 8
    data = open(rec, "rb").read()
    steps = host.of("quit")[0]["step"]
    body = data[len(data) - steps * size:]
    pressed, xs = set(), []
    for i in range(steps):
        gi = body[i * size:(i + 1) * size]
        check(struct.unpack_from("<Q", gi, 0)[0] == i, "recording read wrong")
        pressed |= {k for k in range(count) if gi[12 + count + k]}
        xs.append(struct.unpack_from("<f", gi, mouse_at)[0])
    for name in ("F4", "G", "R", "I", "D", "Z"):
        check(KEY(root, name)[0] not in pressed, f"the game saw {name} pressed")
    for name in ("ENTER", "Q", "MOUSE_LEFT", "LCTRL"):
        check(KEY(root, name)[0] in pressed, f"the game did not see {name} (recording read wrong?)")
    check(max(xs) < PANEL_X and 300 in xs, f"the game saw the pointer over the panel: {max(xs)}")
    # the MOUSE_LEFT it saw is the one outside the panel, after it closed: only once
    ml = KEY(root, "MOUSE_LEFT")[0]
    downs = sum(1 for i in range(steps) if body[i * size + 12 + count + ml])
    check(downs == 1, f"the game saw the mouse button go down {downs} times")


checks.case("drag_float_is_one_token_live_and_unbuilt", drag_float_is_one_token_live_and_unbuilt)
checks.case("colour_and_position_keep_their_style", colour_and_position_keep_their_style)
checks.case("a_save_in_between_is_not_overwritten", a_save_in_between_is_not_overwritten)
checks.case("read_only_stays_live_in_memory", read_only_stays_live_in_memory)
checks.case("typed_value_is_written", typed_value_is_written)
checks.case("pause_keeps_style_and_column_current", pause_keeps_style_and_column_current)
checks.case("panel_input_is_not_the_games", panel_input_is_not_the_games)
if not checks.failed:
    for r in roots:
        cleanup(r)
checks.finish()
