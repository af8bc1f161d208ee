"""tools/layout_stamp.py on a state header with a struct declared inside the state's struct (issue 40, round two):
`struct Item { int a; } items[8];` inside GameState. The state's description names every type it holds, and
a nested type has no name of its own there, so the build refuses it - but says so in the compiler's format
(state.h:LINE:COL: error: ...), naming the struct, the line it is declared on and what to write instead,
so the host's error list and an editor jump to it. An unnamed one is refused the same way. The header without
them stamps as before. No host runs here: the tool is called as build.sh calls it.
"""
import os
import re
import shutil
import subprocess
import tempfile

from hostlib import Checks, ROOT, check

checks = Checks()
tmp = tempfile.mkdtemp(prefix="engine-stamp-")
FIELD = "    Particle   particles[MAX_PARTICLES]; /* the first particle_count alive */"


def stamp(extra):
    """Runs the tool on a copy of game/state.h with `extra` after the particles field: (exit code, stderr, line)."""
    with open(os.path.join(ROOT, "game", "state.h")) as f:
        text = f.read()
    check(FIELD in text, "state.h has no particles field to put a struct after")
    game = os.path.join(tmp, "game")
    if os.path.isdir(game):
        shutil.rmtree(game)
    shutil.copytree(os.path.join(ROOT, "game"), game)
    header = os.path.join(game, "state.h")
    with open(header, "w") as f:
        f.write(text.replace(FIELD, FIELD + extra))
    line = text[:text.index(FIELD)].count("\n") + 2
    cxx = os.environ.get("CXX", "g++")
    p = subprocess.run(["python3", os.path.join(ROOT, "tools", "layout_stamp.py"), f"--types={tmp}/state_types.inc", cxx,
                        header, "-std=c++17", f"-I{ROOT}/tinyheaders", f"-I{ROOT}/platform/include", f"-I{game}",
                        "-DTH_MATH_NO_MATH_H"], capture_output=True, text=True)
    return p.returncode, p.stderr.strip(), header, line


def plain_header_stamps():
    rc, err, _, _ = stamp("")
    check(rc == 0, f"the sample's state.h does not stamp: {err}")


def nested_named_struct():
    rc, err, header, line = stamp("\n    struct Item { int a; } items[8];")
    check(rc == 1, f"exit {rc}: {err}")
    m = re.search(r"(\S+state\.h):(\d+):(\d+): error: (.*)", err)
    check(m, f"not in the compiler's file:line:col: error: format: {err!r}")
    check(os.path.realpath(m.group(1)) == os.path.realpath(header) and int(m.group(2)) == line,
          f"names {m.group(1)}:{m.group(2)}, want {header}:{line}")
    msg = m.group(4)
    check("struct Item" in msg and "GameState" in msg, f"does not name the struct and its container: {msg!r}")
    check("before" in msg and "Item items[8];" in msg, f"does not say what to write instead: {msg!r}")


def nested_unnamed_struct():
    rc, err, header, line = stamp("\n    struct { int a; } items[8];")
    check(rc == 1, f"exit {rc}: {err}")
    m = re.search(r"(\S+state\.h):(\d+):(\d+): error: (.*)", err)
    check(m and int(m.group(2)) == line, f"does not name state.h:{line}: {err!r}")
    check("name" in m.group(4) and "before" in m.group(4), f"does not say what to write instead: {err!r}")


checks.case("plain_header_stamps", plain_header_stamps)
checks.case("nested_named_struct", nested_named_struct)
checks.case("nested_unnamed_struct", nested_unnamed_struct)
shutil.rmtree(tmp, ignore_errors=True)
checks.finish()
