"""./build.sh help, -h and --help list every command with one line, then every flag the host takes (the ones
`build/host --help` prints) and where that list comes from; an unknown command prints the same text and exits 2;
no argument at all still runs the game (the host starts, on the sample)."""
import os
import re
import signal
import subprocess
import time

from hostlib import Checks, check, cleanup, project_copy

checks = Checks()
root = project_copy(with_host=True)


def sh(*args, **kw):
    return subprocess.run(["./build.sh", *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120, **kw)


def commands_in_script():
    """The commands build.sh's dispatch knows: the labels of its last `case "$cmd" in`."""
    text = open(os.path.join(root, "build.sh")).read()
    body = text[text.rindex('case "$cmd" in'):]
    body = body[:body.index("esac")]
    names = set()
    for label in re.findall(r"^\s+([a-z|-]+)\)", body, re.M):
        names.update(n for n in label.split("|") if n)
    return names


def help_lists_every_command():
    outs = []
    for flag in ("help", "-h", "--help"):
        r = sh(flag)
        check(r.returncode == 0, f"./build.sh {flag} exited {r.returncode}")
        outs.append(r.stdout)
    check(outs[0] == outs[1] == outs[2], "help, -h and --help print different texts")
    listed = set(re.findall(r"^  ([a-z-]+)", outs[0], re.M))
    missing = commands_in_script() - listed - {"game-win", "web-driver", "-h", "--help"}   # two internal ones
    check(not missing, f"commands without a line in the help: {sorted(missing)}")
    for line in outs[0].splitlines():
        if line.startswith("  ") and line.strip():
            check(len(line.split(None, 1)) == 2, f"a command without its one line: {line!r}")


def unknown_command_prints_help():
    r = sh("frobnicate")
    check(r.returncode == 2, f"an unknown command exited {r.returncode}")
    check("unknown command 'frobnicate'" in r.stderr, f"no message naming the command: {r.stderr[:300]}")
    check(sh("help").stdout in r.stderr, "an unknown command does not print the command list")


def no_argument_runs_the_game():
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
    log = os.path.join(root, "build", "host.log")
    out_path = os.path.join(root, "run.out")
    started = lambda: os.path.exists(log) and "reload: version 1 loaded" in open(log).read()
    with open(out_path, "w") as out:   # a file, never a pipe nobody reads: the host would block writing
        p = subprocess.Popen(["./build.sh"], cwd=root, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not started() and p.poll() is None:
            time.sleep(0.2)
        check(started(), f"the game never started ({p.poll()}): {open(out_path).read()[-2000:]}")
        check("run: build/host" in open(out_path).read(), "./build.sh with no argument did not run the host")
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def help_lists_the_host_flags():
    text = sh("help").stdout
    host = subprocess.run([os.path.join(root, "build", "host"), "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=60).stdout
    flags = set(re.findall(r"^  (--[a-z-]+)", host, re.M)) - {"--help"}
    check(len(flags) > 10, f"build/host --help lists {sorted(flags)}")
    missing = sorted(f for f in flags if not re.search(r"^\s+" + f + r"\b", text, re.M))
    check(not missing, f"./build.sh help does not name the host's flags {missing}")
    check("build/host --help" in text, "./build.sh help does not point to build/host --help")


checks.case("help_lists_every_command", help_lists_every_command)
checks.case("help_lists_the_host_flags", help_lists_the_host_flags)
checks.case("unknown_command_prints_help", unknown_command_prints_help)
checks.case("no_argument_runs_the_game", no_argument_runs_the_game)
if not checks.failed:
    cleanup(root)
checks.finish()
