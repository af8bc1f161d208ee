"""End to end: before a library unloads, the host finds the words of the game's state that point into
its image and reports each one with its offset - a warning instead of a crash three frames later.

The edit adds pointers to GameState and stores in them what GUIDE.md §2 forbids: a string literal, a
pointer deep into a static buffer of the library (its .bss pages past the first are an anonymous mapping
that no file name marks) and the same kind of pointer copied to an odd offset (a packed field). The reload that brings it in migrates the state (new layout, the new fields null), so nothing
points into the old library yet. The next code edit unloads the library that literal lives in: the host must report the
pointer (its offset in the block, that it points into read-only data, the text) in the log, as a JSON
event, and on the overlay, and the game keeps running.
ASAN_SCENARIO, ASAN_GAME_SCENARIO: also run with the sanitizer build of the host and a sanitized game.
"""
import os

from hostlib import Checks, Host, check, edit, end_run, project_copy, read_png

LITERAL = "a literal in the old library"

checks = Checks()
root = project_copy()
state_h = os.path.join(root, "game", "state.h")
game_cpp = os.path.join(root, "game", "game.cpp")
host = Host(root)
found = {}


def screenshot(name):
    """A screenshot through the control socket, once the next frame is drawn: its path (the overlay check compares
    one from before the edit with one after the warning, whatever the machine's speed)."""
    path = os.path.join(root, name)
    r = found["control"].request("screenshot", path=path)
    check(r["ok"] and r["path"] == path, f"screenshot: {r}")
    return path


def startup():
    host.wait_ev("new_code_running", version=1, timeout=30)
    found["control"] = host.control()


def clean_state_no_warning():
    m = host.mark()
    edit(game_cpp, "    gs->steps++;\n", "    gs->steps++;\n    gs->steps += 0;\n")
    r = host.next_reload(m, 240)   # the copy's first build may rebuild the tinyheader object (sanitized: minutes)
    host.wait_ev("new_code_running", version=r["version"], timeout=30, since=m)
    check(not host.of("image_pointers", m), f"a state without such pointers was reported: {host.of('image_pointers', m)}")


def literal_stored_in_state():
    m = host.mark()
    edit(state_h, "    uint64_t   steps;", "    const char *label;    /* forbidden: points into the library */\n"
         "    char *deep;           /* forbidden: into the library's .bss */\n"
         "    uint8_t packed[16];   /* forbidden: the same, at an odd offset */\n    uint64_t   steps;")
    edit(game_cpp, "static GAME_UPDATE(game_update)", "static char g_big_bss[1 << 16];\n\nstatic GAME_UPDATE(game_update)")
    edit(game_cpp, "    gs->steps++;\n", f"    gs->steps++;\n    gs->label = \"{LITERAL}\";\n"
         "    gs->deep = &g_big_bss[40000];\n"
         "    { char *p = &g_big_bss[50000]; memcpy(gs->packed + 3, &p, sizeof p); }\n")
    r = host.wait_ev("reload", timeout=60, since=m)
    check(r["state"] == "migrated", f"a new field should migrate the state: {r}")
    check(not host.of("image_pointers", m), "the migrated state (its new field null) cannot point into the old library")
    found["version"] = r["version"]
    host.wait_ev("new_code_running", version=r["version"], timeout=30, since=m)


def next_reload_reports_it():
    found["before"] = screenshot("before.png")
    m = host.mark()
    edit(game_cpp, "    gs->steps += 0;\n", "    gs->steps += 0;\n    gs->steps += 0;\n")
    ev = host.wait_ev("image_pointers", timeout=60, since=m)
    found["warn_t"] = ev["t"]
    r = host.wait_ev("reload", timeout=30, since=m)
    check(ev["version"] == found["version"], f"reported for version {ev['version']}, the unloading one is {found['version']}")
    check(ev["count"] == 3, f"{ev['count']} pointers reported, the state holds three: {ev}")
    hit, deep, packed = ev["hits"]
    check(hit["kind"] == "read-only data" and hit["text"] == LITERAL, f"hit: {hit}")
    check(0 < hit["offset"] < r["state_size"], f"offset {hit['offset']} is not inside GameState ({r['state_size']} bytes)")
    check(hit["offset"] % 8 == 0, f"the literal's field is an aligned word: {hit}")
    check(deep["kind"] == "data" and deep["offset"] == hit["offset"] + 8, f"the pointer into .bss: {deep}")
    check(packed["kind"] == "data" and packed["offset"] == hit["offset"] + 16 + 3, f"the packed pointer: {packed}")
    check(packed["library_offset"] == deep["library_offset"] + 10000, f"the two .bss pointers: {deep} {packed}")
    logs = [e for e in host.of("log", m) if e.get("level") == "warn" and "pointer" in e.get("msg", "")]
    check(logs and ("block+0x%x" % hit["offset"]) in logs[0]["msg"] and LITERAL in logs[0]["msg"],
          f"no log line naming the offset and the text: {logs}")
    check(host.alive(), "host died")
    host.wait_ev("new_code_running", version=r["version"], timeout=30, since=m)


def yellow_pixels(path):
    """The warning's yellow, in the strip NEON SWARM leaves for the host's banners on its title screen (the
    lower part of the view, set_safe_area)."""
    w, h, rows = read_png(path)
    n = 0
    for y in range(int(h * 0.42), h):
        for x in range(0, w):
            r, g, b, _ = rows[y][x]
            n += r > 200 and 160 < g < 230 and b < 110
    return n


def overlay_shows_it():
    warn_t = found["warn_t"]
    host.wait_for(lambda e: e.get("t", 0) > warn_t + 0.5, 30, what="half a second of the host's after the warning")
    after = screenshot("after.png")
    n0, n1 = yellow_pixels(found["before"]), yellow_pixels(after)
    check(n0 == 0 and n1 > 50, f"yellow warning pixels: {n0} before, {n1} after")


checks.case("startup", startup)
checks.case("clean_state_no_warning", clean_state_no_warning)
checks.case("literal_stored_in_state", literal_stored_in_state)
checks.case("next_reload_reports_it", next_reload_reports_it)
checks.case("overlay_shows_it", overlay_shows_it)
end_run(checks, host, root, tail=60)
