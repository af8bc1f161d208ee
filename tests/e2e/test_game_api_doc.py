"""docs/game_api.md says what it shows: its shell commands run (in a copy of the project; `run` headless and
for a few frames; dist is test_dist_game_folder.py's), every `build.sh` command it names is one the help
lists, and every C++ example of a service compiles in a game made by ./build.sh new.
"""
import json
import os
import re
import shlex
import subprocess
import tempfile

from hostlib import ROOT, Checks, check, cleanup, project_copy

checks = Checks()
root = project_copy(with_host=True)
mine = tempfile.mkdtemp(prefix="engine-doc-")
doc = open(os.path.join(ROOT, "docs", "game_api.md")).read()
blocks = re.findall(r"```(\w+)\n(.*?)```", doc, re.S)
game = os.path.join(root, "mygame")   # the Start block makes it in the project's folder


def run_line(line, cwd):
    """One command of the doc, with the doc's placeholder paths made real; a `run` runs headless, briefly."""
    line = line.split("  #")[0].strip()
    line = line.replace("/path/to/engine", root).replace("/path/to/mygame", game)
    words = shlex.split(line)
    if words[0].endswith("build.sh") and words[1] == "run":
        words += ["--headless", "--frames", "60", "--save-dir", os.path.join(mine, "save")]
    if words[0] == "build/host":
        words[0] = os.path.join(root, "build", "host")
        words = [os.path.join(mine, w) if w in ("events.jsonl",) else w for w in words]
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
    r = subprocess.run(words, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600, env=env)
    check(r.returncode == 0, f"`{line}` exited {r.returncode}:\n{r.stdout[-2000:]}")
    return r.stdout


def shell_commands_run():
    lines = [l for lang, body in blocks if lang == "sh" for l in body.splitlines() if l.strip()]
    check(len(lines) >= 7, f"{len(lines)} command lines in the doc")
    listed = set(re.findall(r"^  ([a-z-]+)", subprocess.run(["./build.sh", "help"], cwd=root, stdout=subprocess.PIPE,
                                                               text=True).stdout, re.M))
    ran = 0
    for line in lines:
        words = shlex.split(line.split("  #")[0])
        if words[0].endswith("build.sh"):
            check(words[1] in listed, f"`{line}`: build.sh has no command {words[1]}")
            if words[1] == "dist":
                continue   # test_dist_game_folder.py
        cwd = game if line.strip().endswith(" .") or " . " in line else root
        run_line(line, cwd)
        ran += 1
    check(os.path.isfile(os.path.join(game, "state.h")), "the Start block made no mygame/")
    evs = [json.loads(l) for l in open(os.path.join(mine, "events.jsonl")) if l.strip()]
    check(any(e.get("ev") == "frame_stats" and "bounces" in e.get("game", {}) for e in evs), "the headless run has no game stats")
    print(f"  {ran} commands ran")


def service_examples_compile():
    section = doc[doc.index("## The services"):doc.index("## The rules")]
    examples = re.findall(r"```cpp\n(.*?)```", section, re.S)
    check(len(examples) >= 7, f"{len(examples)} service examples")
    with open(os.path.join(game, "state.h")) as f:
        st = f.read()
    st = st.replace("    int32_t  best = 0;", "    int32_t  best = 0;\n    int32_t  wave = 0;\n"
                    "    uint32_t level_generation = 0;")   # the examples' fields
    with open(os.path.join(game, "state.h"), "w") as f:
        f.write(st)
    fns = []
    for i, body in enumerate(examples):
        fns.append(f"static void doc_example_{i}(GameState *gs, const GameInput *in, const PlatformAPI *pf)\n{{\n"
                   f"    (void)gs; (void)in; (void)pf;\n{body}}}\n")
    calls = "".join(f"    if (in->step == ~0ull) doc_example_{i}(gs, in, pf);\n" for i in range(len(examples)))
    with open(os.path.join(game, "game.cpp")) as f:
        text = f.read()
    text = text.replace("static GAME_UPDATE(game_update)", "".join(fns) + "static GAME_UPDATE(game_update)")
    text = text.replace("    mem->used = sizeof(GameState);\n}\n\nstatic GAME_RENDER", calls + "    mem->used = sizeof(GameState);\n}\n\nstatic GAME_RENDER")
    check(calls in text, "the examples are not called")
    with open(os.path.join(game, "game.cpp"), "w") as f:
        f.write(text)
    r = subprocess.run(["./build.sh", "game", game], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    check(r.returncode == 0, f"the doc's examples do not compile:\n{r.stdout[-4000:]}")
    check(" error" not in r.stdout, r.stdout[-2000:])


checks.case("shell_commands_run", shell_commands_run)
checks.case("service_examples_compile", service_examples_compile)
if not checks.failed:
    cleanup(root)
    cleanup(mine)
checks.finish()
