"""The host is built as one object per platform file (CMakeLists.txt, ninja), recompiled by real dependencies
(the compiler's dependency files): on a copy of the project, after its first build, nothing changed compiles nothing, a saved
.cpp compiles that file alone, a saved header compiles exactly the files that include it, and a compile
error leaves no object behind that a later build would link. The relinked host runs."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
from bench_host_rebuild import build_host, compiled, project_with_objects, save_edit   # noqa: E402
from benchlib import cached_env   # noqa: E402
from hostlib import Checks, check, cleanup   # noqa: E402

checks = Checks()
tmp = project_with_objects()
build_host(tmp, cached_env())


def nothing_changed():
    ms, err = build_host(tmp)
    check("no work to do" in err and compiled(err) == 0, f"nothing changed, yet: {err}")


def one_cpp():
    save_edit(os.path.join(tmp, "platform", "core", "parse.cpp"), 1)
    ms, err = build_host(tmp)
    check(compiled(err) == 1, f"one saved .cpp: {err}")


def one_header():
    services = os.path.join(tmp, "platform", "services")
    includers = [f for f in os.listdir(services) if f.endswith(".cpp")
                 and '#include "render_internal.h"' in open(os.path.join(services, f)).read()]
    save_edit(os.path.join(services, "render_internal.h"), 2)
    ms, err = build_host(tmp)
    check(compiled(err) == len(includers), f"render_internal.h is included by {includers}, yet: {err}")


def compile_error_leaves_no_object():
    path = os.path.join(tmp, "platform", "core", "parse.cpp")
    good = open(path).read()
    with open(path, "a") as f:
        f.write("this is not C++;\n")
    p = subprocess.run(["bash", os.path.join(tmp, "build.sh"), "host"], cwd=tmp, capture_output=True, text=True, timeout=600)
    check(p.returncode != 0 and "parse.cpp" in p.stderr, f"a compile error passed: {p.returncode} {p.stderr[-500:]}")
    with open(path, "w") as f:
        f.write(good)
    ms, err = build_host(tmp)
    check(compiled(err) == 1, f"after the fix: {err}")


def relinked_host_runs():
    p = subprocess.run([os.path.join(tmp, "build", "host"), "--help"], capture_output=True, text=True, timeout=30)
    check(p.returncode == 0 and "--watchdog" in p.stdout + p.stderr, f"host --help: {p.returncode}")


checks.case("nothing_changed", nothing_changed)
checks.case("one_cpp", one_cpp)
checks.case("one_header", one_header)
checks.case("compile_error_leaves_no_object", compile_error_leaves_no_object)
checks.case("relinked_host_runs", relinked_host_runs)
if not checks.failed:
    cleanup(tmp)
checks.finish()
