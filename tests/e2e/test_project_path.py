"""End to end: a project folder can be anywhere and be called anything.

The copy lives under '<tmp>/assets/my "odd" project': spaces and quotes in its name (build.sh splits
nothing, events stay valid JSON) and a folder named assets above the root (a code save there is
still code, not an asset)."""
import json
import os
import shutil
import tempfile

from hostlib import Checks, Host, check, edit, end_run, project_copy

checks = Checks()
base = tempfile.mkdtemp(prefix="engine-path-")
root = os.path.join(base, "assets", 'my "odd" project')
os.makedirs(os.path.dirname(root))
plain = project_copy()
shutil.move(plain, root)
host = Host(root)


def events_are_json_with_the_real_root():
    start = host.wait_ev("start", timeout=20)   # hostlib parses every line with json.loads
    check(start["root"] == root, f"the start event names {start['root']!r}, not {root!r}")
    r = host.wait_ev("reload", version=1, timeout=20)
    check(r["path"].startswith(root + "/build/"), f"the reload event's path is not under the root: {r['path']!r}")


def code_save_reloads_under_odd_path():
    m = host.mark()
    edit(os.path.join(root, "game", "game.cpp"), "static GameState *game_state(GameMemory *mem) { return (GameState *)mem->base; }",
         "static GameState *game_state(GameMemory *mem) { GameState *gs = (GameState *)mem->base; return gs; }")
    changed = host.wait_ev("file_changed", timeout=20, since=m)
    check(changed["path"] == os.path.join(root, "game", "game.cpp"), f"file_changed names {changed['path']!r}")
    end = host.wait_ev("build_end", timeout=120, since=m)
    check(end["ok"], f"the build failed in a folder with spaces and quotes: {end.get('output', '')[:2000]}")
    r = host.wait_ev("reload", version=2, timeout=60, since=m)
    check(r["state"] == "kept", f"a function body edit kept the state: {r}")


def compile_error_names_the_file():
    m = host.mark()
    edit(os.path.join(root, "game", "game.cpp"), "GameState *gs = (GameState *)mem->base; return gs;",
         "GameState *gs = (GameState *)mem->base; return gs oops;")
    end = host.wait_ev("build_end", timeout=120, since=m)
    check(not end["ok"] and end["errors"] and end["errors"][0]["file"].endswith("game.cpp"),
          f"the compile error should name game.cpp: {json.dumps(end)[:1500]}")


checks.case("events_are_json_with_the_real_root", events_are_json_with_the_real_root)
checks.case("code_save_reloads_under_odd_path", code_save_reloads_under_odd_path)
checks.case("compile_error_names_the_file", compile_error_names_the_file)
end_run(checks, host, base)
