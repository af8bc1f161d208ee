"""End to end: TWEAK() constants change on save with no compile and no reload.

The autopilot plays NEON SWARM, firing bullets at BULLET_SPEED = TWEAK(1100.0f). Editing that literal
must change the speed of the next bullets without a build; a real code change afterwards rebuilds and
keeps the tweaked value; an edit that moves lines and changes the literal in one save is left to the
compiler instead of being mapped to the wrong constant; a literal that does not parse goes to the
compiler too, whose error leaves the game running on what it had.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os
import time

from hostlib import Checks, Host, check, edit, end_run, input_script, project_copy

checks = Checks()
root = project_copy()
entities = os.path.join(root, "game", "entities.cpp")
script = input_script(root, "5 tap F10\n")
host = Host(root, "--input", script)


def bullets_at(since, speed, timeout=30):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e.get("game", {}).get("bullet_speed", 0) - speed) < 1,
                         timeout, since, what=f"bullets at {speed}")


def builds_since(m):
    return host.of("build_start", m)


def literal_edit_is_live():
    host.wait_ev("new_code_running", version=1, timeout=30)
    bullets_at(0, 1100)
    m = host.mark()
    line = next(i + 1 for i, l in enumerate(open(entities)) if "BULLET_SPEED        = TWEAK(" in l)
    written = edit(entities, "BULLET_SPEED        = TWEAK(1100.0f)", "BULLET_SPEED        = TWEAK(1800.0f)")
    t = host.wait_ev("tweak", timeout=10, since=m)
    check(t["live"] is True and t["changed"] == 1, f"tweak event: {t}")
    applied = host.wait_ev("tweak_applied", timeout=10, since=m)
    check(applied["value"] == 1800 and applied["line"] == line, f"applied: {applied} (BULLET_SPEED is on line {line})")
    ms = (applied["wall"] - written) * 1000
    print(f"  write -> first frame using the value: {ms:.1f} ms (same frame as seen: {applied['frame'] == t['frame']})")
    check(applied["frame"] - t["frame"] <= 1, f"value used {applied['frame'] - t['frame']} frames after the save was seen")
    bullets_at(m, 1800)
    time.sleep(1.0)
    check(not builds_since(m), f"a literal edit started a build: {builds_since(m)}")
    check(not host.of("reload", m), "a literal edit reloaded the library")


def value_survives_a_real_rebuild():
    m = host.mark()
    edit(os.path.join(root, "game", "enemies.cpp"), "e->angle += 4.0f * dt;", "e->angle += 4.5f * dt;")   # code: needs the compiler
    r = host.wait_ev("reload", version=2, timeout=60, since=m)
    check(r["state"] == "kept", f"{r}")
    s = host.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 2
                      and e["game"].get("bullet_speed", 0) > 0, 30, m, what="v2 bullets")
    check(abs(s["game"]["bullet_speed"] - 1800) < 1, f"after the rebuild the bullets fly at {s['game']['bullet_speed']}")
    # and the new library is live-tweakable too
    m = host.mark()
    edit(entities, "BULLET_SPEED        = TWEAK(1800.0f)", "BULLET_SPEED        = TWEAK(1300.0f)")
    check(host.wait_ev("tweak_applied", timeout=10, since=m)["value"] == 1300, "second tweak not applied")
    bullets_at(m, 1300)
    check(not builds_since(m), "the second literal edit started a build")


def moved_lines_go_to_the_compiler():
    m = host.mark()
    with open(entities) as f:
        text = f.read()
    text = text.replace("BULLET_SPEED        = TWEAK(1300.0f)", "BULLET_SPEED        = TWEAK(700.0f)")
    text = "/* a new first line: every TWEAK below moved down */\n" + text
    with open(entities, "w") as f:
        f.write(text)
    t = host.wait_ev("tweak", timeout=10, since=m)
    check(t["live"] is False, f"a shifted file was mapped live: {t}")
    check(not host.of("tweak_applied", m), f"a value was applied from a shifted file: {host.of('tweak_applied', m)}")
    r = host.wait_ev("reload", timeout=60, since=m)
    check(r["state"] == "kept", f"{r}")
    bullets_at(m, 700)


def bad_literal_keeps_the_game_running():
    m = host.mark()
    edit(entities, "BULLET_SPEED        = TWEAK(700.0f)", "BULLET_SPEED        = TWEAK(70x0.0f)")
    t = host.wait_ev("tweak", timeout=10, since=m)
    check(t["live"] is False, f"{t}")
    b = host.wait_ev("build_end", timeout=60, since=m)
    check(b["ok"] is False, "70x0.0f compiled")
    bullets_at(m, 700)                       # still the last good value, still the same library
    check(host.alive(), "host died")
    m = host.mark()
    edit(entities, "BULLET_SPEED        = TWEAK(70x0.0f)", "BULLET_SPEED        = TWEAK(900.0f)")
    # live at the save; the game may read it or the fixed build may land first (a build takes ~0.2 s)
    t = host.wait_ev("tweak", timeout=10, since=m)
    check(t["live"] is True, f"the fixed literal is not live: {t}")
    bullets_at(m, 900)
    # the last build failed, so the fix is compiled too: the errors on screen go away
    b = host.wait_ev("build_end", timeout=60, since=m)
    check(b["ok"] is True, f"{b}")
    host.wait_ev("reload", timeout=30, since=m)
    bullets_at(m, 900)


checks.case("literal_edit_is_live", literal_edit_is_live)
checks.case("value_survives_a_real_rebuild", value_survives_a_real_rebuild)
checks.case("moved_lines_go_to_the_compiler", moved_lines_go_to_the_compiler)
checks.case("bad_literal_keeps_the_game_running", bad_literal_keeps_the_game_running)
end_run(checks, host, root, final=lambda rc: check(rc == 0 and not host.of("crash"), f"exit {rc}, crashes {host.of('crash')}"))
