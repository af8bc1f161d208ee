"""End to end: a TWEAK value always goes to the constant the running code has there.

The host maps a saved literal to a compiled site by comparing the file with its baseline - the text
the running library was compiled from. Two ways that baseline used to be the wrong text:
  - after a crash rollback it was rebuilt from the file on disk, i.e. the crashed build's text;
  - a file first read after a failed build was read from disk, i.e. the failed build's text.
Both scenarios put a decoy TWEAK(1100.0f) one line above BULLET_SPEED = TWEAK(1100.0f) in the text
that is not running, so a stale baseline shows as a value applied to the wrong constant (or a
literal edit of the running text not applied).
"""
import os
import time

from hostlib import Checks, Host, check, cleanup, inject, project_copy

SPEED_LINE = "static constexpr auto BULLET_SPEED        = TWEAK(1100.0f);\n"
DECOY_LINE = "static constexpr auto BULLET_DECOY        = TWEAK(1100.0f);   /* not used: only shifts lines */\n"

checks = Checks()


def save(path, text):
    with open(path, "w") as f:
        f.write(text)


def bullets_at(host, since, speed, timeout=30):
    return host.wait_for(lambda e: e.get("ev") == "frame_stats" and abs(e.get("game", {}).get("bullet_speed", 0) - speed) < 1,
                         timeout, since, what=f"bullets at {speed}")


def never_bullets_at(host, since, speed, seconds):
    end = time.time() + seconds
    while time.time() < end:
        bad = [e for e in host.of("frame_stats", since) if abs(e.get("game", {}).get("bullet_speed", 0) - speed) < 1]
        check(not bad, f"bullets flew at {speed}: the value went to the wrong constant")
        time.sleep(0.1)


def tweak_events(host, since):
    return [e for e in host.of("tweak", since) if e.get("file", "").endswith("entities.cpp")]


def after_rollback_the_old_code_text_is_the_baseline():
    root = project_copy()
    entities = os.path.join(root, "game", "entities.cpp")
    game_cpp = os.path.join(root, "game", "game.cpp")
    original = open(entities).read()
    check(SPEED_LINE in original, "BULLET_SPEED line not found")
    script = os.path.join(root, "bot.txt")
    save(script, "5 tap F10\n")
    host = Host(root, "--input", script)
    try:
        host.wait_ev("new_code_running", version=1, timeout=30)
        bullets_at(host, 0, 1100)
        # version 2: a decoy line moves BULLET_SPEED down, and the update crashes -> rollback to version 1
        m = host.mark()
        inject(game_cpp, "GAME_UPDATE(game_update)", "*(volatile int *)0 = 1;")
        save(entities, original.replace(SPEED_LINE, DECOY_LINE + SPEED_LINE))
        crash = host.wait_ev("crash", timeout=60, since=m)
        check(crash["rolled_back_to"] == 1 and not crash["halted"], f"no rollback to version 1: {crash}")
        bullets_at(host, host.mark(), 1100)
        # Version 1 runs, compiled from the original text. Saving that text with a new BULLET_SPEED is a
        # literal-only change for the running code: live, no build, on the right constant.
        m = host.mark()
        save(entities, original.replace("BULLET_SPEED        = TWEAK(1100.0f)", "BULLET_SPEED        = TWEAK(1500.0f)"))
        t = host.wait_for(lambda e: e.get("ev") == "tweak" and e.get("file", "").endswith("entities.cpp"), 10, m,
                          what="tweak event")
        check(t["live"] is True, f"the running code's own text was not taken as a literal edit: {t}")
        bullets_at(host, m, 1500)
        time.sleep(0.5)
        check(not host.of("build_start", m), "a literal edit of the running code's text started a build")
        check(host.alive(), "host died")
    finally:
        rc = host.stop()
    check(rc == 0, f"host exit {rc}")
    cleanup(root)


def file_first_read_after_a_failed_build():
    root = project_copy()
    entities = os.path.join(root, "game", "entities.cpp")
    original = open(entities).read()
    script = os.path.join(root, "bot.txt")
    save(script, "480 tap F10\n")     # the autopilot (and the first read of entities.cpp's TWEAKs) comes later
    host = Host(root, "--input", script)
    try:
        host.wait_ev("new_code_running", version=1, timeout=30)
        # a save that does not compile: the decoy line, and an error at the end of the file
        m = host.mark()
        save(entities, original.replace(SPEED_LINE, DECOY_LINE + SPEED_LINE) + "\nthis is not C++;\n")
        b = host.wait_ev("build_end", timeout=60, since=m)
        check(b["ok"] is False, "the broken save compiled")
        check(not tweak_events(host, m), "entities.cpp was already read before the autopilot: the scenario needs a first read later")
        # the autopilot starts: entities.cpp's TWEAKs are read for the first time, by version 1
        bullets_at(host, m, 1100, timeout=60)
        # a literal edit of the decoy is not a literal edit of the running code (its text has no decoy)
        m = host.mark()
        save(entities, original.replace(SPEED_LINE, DECOY_LINE.replace("1100.0f", "2500.0f") + SPEED_LINE) + "\nthis is not C++;\n")
        t = host.wait_for(lambda e: e.get("ev") == "tweak" and e.get("file", "").endswith("entities.cpp"), 10, m,
                          what="tweak event")
        check(t["live"] is False, f"an edit against the failed build's text was mapped live: {t}")
        never_bullets_at(host, m, 2500, 3)
        bullets_at(host, m, 1100)
        check(host.alive(), "host died")
    finally:
        rc = host.stop()
    check(rc == 0, f"host exit {rc}")
    cleanup(root)


checks.case("after_rollback_the_old_code_text_is_the_baseline", after_rollback_the_old_code_text_is_the_baseline)
checks.case("file_first_read_after_a_failed_build", file_first_read_after_a_failed_build)
checks.finish()
