"""The host's command line: bad flags get a clear message and exit code 2; good ones work.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os
import subprocess

from hostlib import Checks, HOST, Host, check, cleanup, input_script, load_factor, project_copy, read_png

checks = Checks()


def run(*args):
    p = subprocess.run([HOST, *args], capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout + p.stderr


def bad(args, needle):
    def case():
        rc, out = run(*args)
        check(rc == 2, f"{args}: exit code {rc}, want 2")
        check(needle in out, f"{args}: message {out!r} does not mention {needle!r}")
    return case


checks.case("unknown_flag", bad(["--bogus"], "unknown flag '--bogus'"))
checks.case("frames_not_a_number", bad(["--frames", "ten"], "--frames wants a count"))
checks.case("frames_missing_value", bad(["--frames"], "--frames needs a value"))
checks.case("screenshot_malformed", bad(["--screenshot", "nocolon.png"], "--screenshot wants FRAME:PATH"))
checks.case("memory_out_of_range", bad(["--memory", "0"], "--memory wants megabytes"))
checks.case("window_malformed", bad(["--window", "big"], "--window wants WxH"))
checks.case("watchdog_below_range", bad(["--watchdog", "0.005"], "--watchdog wants seconds 0.01..3600"))
checks.case("watchdog_above_range", bad(["--watchdog", "3600.5"], "--watchdog wants seconds 0.01..3600"))
checks.case("input_missing_file", bad(["--input", "/nonexistent/script.txt"], "/nonexistent/script.txt"))


def help_lists_flags():
    rc, out = run("--help")
    check(rc == 0, f"--help exit {rc}")
    for flag in ("--headless", "--frames", "--log-json", "--screenshot", "--input", "--no-watch", "--memory"):
        check(flag in out, f"--help does not list {flag}")


def bad_script_line():
    root = project_copy()
    script = input_script(root, "10 down SPACE\n20 jump X\n", "bad.txt")
    rc, out = run("--root", root, "--headless", "--input", script)
    check(rc == 2 and "bad.txt:2" in out, f"bad script: rc {rc} {out!r}")
    cleanup(root)


def frames_and_screenshot():
    root = project_copy()
    shot = os.path.join(root, "shot.png")
    h = Host(root, "--frames", "30", "--no-watch", "--screenshot", f"20:{shot}")
    rc = h.proc.wait(60)
    h.stop()
    check(rc == 0, f"exit code {rc}\n{h.tail()}")
    q = h.of("quit")
    check(q and q[0]["frames"] == 30, f"quit event {q}")
    s = h.of("screenshot")
    check(s and s[0]["ok"], f"screenshot event {s}")
    w, hgt, rows = read_png(shot)
    check((w, hgt) == (1280, 720), f"screenshot size {w}x{hgt}")
    colors = {rows[y][x] for y in range(0, hgt, 16) for x in range(0, w, 16)}
    check(len(colors) >= 4, f"screenshot looks empty: {len(colors)} colours")
    cleanup(root)


def no_display_stops_with_a_message():
    # without a display and without --headless the host must say so and stop, not run an invisible window
    root = project_copy()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    try:
        p = subprocess.run([HOST, "--root", root], capture_output=True, text=True, timeout=20, env=env)
    except subprocess.TimeoutExpired:
        raise AssertionError("the host ran on with no display and no window")
    out = p.stdout + p.stderr
    check(p.returncode != 0 and "no display" in out and "--headless" in out, f"exit {p.returncode}, output: {out[-800:]}")
    cleanup(root)


def bounds_accepted():
    # the documented ranges include both ends, and --watchdog 0 switches the watchdog off (a step is never "hung").
    # The host reports the value it took in its start event. --watchdog 0.01 is checked there alone: a real step
    # against a 10 ms deadline would fail on a busy machine (a step descheduled for 10 ms is "hung"), which is the
    # watchdog working, not the bound; test_watchdog_held covers what the watchdog does.
    root = project_copy()
    for args in (["--watchdog", "3600"], ["--watchdog", "0.01"], ["--watchdog", "0"], ["--memory", "1"], ["--window", "64x64"]):
        h = Host(root, "--frames", "20", "--fast", "--no-watch", *args)
        rc = h.proc.wait(60 * load_factor())
        h.stop()
        start = h.of("start")
        check(start, f"{args}: no start event (exit code {rc})\n{h.tail()}")
        if args[0] == "--watchdog":
            check(start and start[0]["watchdog_s"] == float(args[1]), f"{args}: the host took {start and start[0]}")
        if args[1] == "0.01":
            check(rc != 2, f"{args}: refused as a bad flag\n{h.tail()}")
            continue
        check(rc == 0, f"{args}: exit code {rc}\n{h.tail()}")
        check(not h.of("crash"), f"{args}: {h.of('crash')}")
    cleanup(root)


checks.case("bounds_accepted", bounds_accepted)
checks.case("help_lists_flags", help_lists_flags)
checks.case("bad_script_line", bad_script_line)
checks.case("frames_and_screenshot", frames_and_screenshot)
checks.case("no_display_stops_with_a_message", no_display_stops_with_a_message)
checks.finish()
