"""hostlib.py - drives the real host binary for end-to-end tests.

A test copies the project into a temporary folder (so its edits never touch the checkout), starts
build/host --headless on that copy with a JSON-lines event log, edits files the way a person would,
and asserts on the events the host writes. Every test file ends with Checks.finish(), which prints
the "N passed, N failed" line build.sh adds up.
"""
import atexit
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from control import ControlClient  # noqa: E402  (tools/control.py: the control socket's client, docs/control.md)

HOST = os.environ.get("HOST_BIN") or os.path.join(os.path.dirname(__file__), "..", "..", "build", "host")
ROOT = os.environ.get("PROJECT_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# build.sh asks a host where a game folder's build goes and runs the game build's compile and link through it:
# in a copy of the project that has no host of its own, the checkout's (a host started by build.sh passes
# itself the same way)
os.environ.setdefault("ENGINE_HOST", os.path.abspath(HOST))
SANITIZED = os.environ.get("SANITIZED") == "1"
SLOW = 3.0 if SANITIZED else 1.0   # timeouts stretch under the sanitizers
_LOAD = {"at": 0.0, "factor": 1.0}


def load_factor():
    """How many times slower than a quiet machine this one runs right now (>= 1, at most 8): the larger of the
    wall time over the CPU time of a short spin (how much of a core this process gets) and the 1-minute load
    average per core. Every timeout below is multiplied by it, so a test waits for an event or a step count and
    its bound stretches with the machine's load instead of failing under it. Re-measured every 10 s;
    TEST_LOAD_FACTOR=N fixes it (a test of the tests)."""
    fixed = os.environ.get("TEST_LOAD_FACTOR")
    if fixed:
        return max(1.0, float(fixed))
    now = time.time()
    if now - _LOAD["at"] > 10.0:
        c0, w0 = time.process_time(), time.perf_counter()
        while time.process_time() - c0 < 0.02:
            pass
        share = (time.perf_counter() - w0) / max(1e-6, time.process_time() - c0)
        per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
        _LOAD.update(at=now, factor=min(8.0, max(1.0, share, per_core)))
    return _LOAD["factor"]


def stretch(seconds):
    """A bound in seconds as this machine needs it now: under the sanitizers and the load factor."""
    return seconds * SLOW * load_factor()


def watchdog(seconds=1.0):
    """The --watchdog value for a host whose test is not about the watchdog's bound: long enough that a step
    descheduled on a busy machine is never taken for a hang."""
    return f"{stretch(seconds):.2f}"
SANITIZER_REPORT = re.compile(r"runtime error:|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|SUMMARY: \w+Sanitizer")
_HOSTS = []   # every host a test started: checked (and killed if still running) when the test ends


def _kill_leftovers():
    for h in _HOSTS:
        if h.proc.poll() is None:
            h.proc.kill()
            h.proc.wait()


atexit.register(_kill_leftovers)


def _on_terminate(sig, frame):
    raise SystemExit(128 + sig)   # a test or benchmark stopped by `timeout`: atexit still kills its hosts


signal.signal(signal.SIGTERM, _on_terminate)


class Checks:
    """Named test cases; each passes when all its checks hold."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def case(self, name, fn):
        t = time.time()
        try:
            fn()
            self.passed += 1
            print(f"ok      {name} ({time.time() - t:.1f}s)", flush=True)
        except Exception as e:  # a failed check or a broken scenario: both are failures
            self.failed += 1
            print(f"not ok  {name}: {type(e).__name__}: {e}", flush=True)

    def finish(self):
        # A host still running when its test ends is a failure (and is killed); under the sanitizers, any
        # report in a host's output is a failure even if the scenario itself passed.
        for h in _HOSTS:
            if h.proc.poll() is None:
                h.proc.kill()
                h.proc.wait()
                self.failed += 1
                print(f"not ok  host {h.pid} left running after the test: killed", flush=True)
            if SANITIZED:
                if not h.out.closed:
                    h.out.flush()
                try:
                    with open(h.out_path, errors="replace") as f:
                        text = f.read()
                except OSError:
                    text = ""
                m = SANITIZER_REPORT.search(text)
                if m:
                    self.failed += 1
                    start = max(0, m.start() - 200)
                    print(f"not ok  sanitizer report from host {h.pid}:\n{text[start:start + 3000]}", flush=True)
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        sys.exit(1 if self.failed else 0)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def example_copy(root, name):
    """examples/<name> (its sources and assets) copied into the project copy at root; returns its folder there."""
    dst = os.path.join(root, "examples", name)
    shutil.copytree(os.path.join(ROOT, "examples", name), dst)
    return dst


def project_copy(with_library=True, with_host=False):
    """A temporary copy of the project's sources plus its built tools, assets and game library; with_host: the
    copy's own host and tools built too (its own CMake tree), so ./build.sh build|run in the copy compiles no host file."""
    tmp = tempfile.mkdtemp(prefix="engine-e2e-")
    # the sources and the build description (CMakeLists.txt reads platform/, tools/ and the tests' folders): a
    # command that builds the tools or the host in the copy (dist, run) configures its own tree; its compiles
    # come from the compiler cache when there is one
    for d in ("game", "platform", "tinyheaders", "assets", "tools", "tests/unit", "tests/bench", "tests/e2e"):
        if os.path.isdir(os.path.join(ROOT, d)):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d), dirs_exist_ok=True)
    for f in ("build.sh", "CMakeLists.txt", "CMakePresets.json"):
        shutil.copy2(os.path.join(ROOT, f), tmp)
    shutil.copy2(os.path.join(ROOT, "tests", "run.sh"), os.path.join(tmp, "tests", "run.sh"))   # build.sh sources it
    os.makedirs(os.path.join(tmp, "build", "game"), exist_ok=True)
    for d in ("tools", "assets"):
        src = os.path.join(ROOT, "build", d)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(tmp, "build", d))
    lib = os.path.join(ROOT, "build", "game", "libgame.so")
    if with_library and os.path.exists(lib):
        shutil.copy2(lib, os.path.join(tmp, "build", "game", "libgame.so"))
    # build.sh's caches (tinyheader object, layout stamp) are keyed by content, so they hold in the copy too
    for name in ("layout.stamp", "layout.key", "state_types.inc"):
        cached = os.path.join(ROOT, "build", "game", name)
        if with_library and os.path.exists(cached):
            shutil.copy2(cached, os.path.join(tmp, "build", "game", name))
    # the game's chunk objects: keyed by the content of what each was compiled from (paths relative to the project)
    chunks = os.path.join(ROOT, "build", "game", "chunks")
    if with_library and os.path.isdir(chunks):
        shutil.copytree(chunks, os.path.join(tmp, "build", "game", "chunks"),
                        ignore=lambda d, names: [n for n in names if n.count(".") > 1])   # another build's temporary files
    if with_host:
        # the copy's own build tree (CMake's trees name their folder): its compiles are the checkout's, found in
        # the compiler cache when there is one, so this costs the configure and the links. CCACHE_NOHASHDIR lets
        # ccache hand the checkout's objects to the copy: their debug info names the checkout's folder, which
        # holds the same text (never done for a game library: a test debugs the copy's game code in gdb)
        share = dict(os.environ, CCACHE_NOHASHDIR="1")
        p = subprocess.run(["bash", os.path.join(tmp, "build.sh"), "host"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=1800, env=share)
        check(p.returncode == 0, f"./build.sh host in a copy of the project failed:\n{p.stdout[-3000:]}")
        p = subprocess.run(["bash", os.path.join(tmp, "build.sh"), "tools"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=1800, env=share)
        check(p.returncode == 0, f"./build.sh tools in a copy of the project failed:\n{p.stdout[-3000:]}")
    # the tinyheader object every game folder links (one for all of them: build/tinyheaders/)
    os.makedirs(os.path.join(tmp, "build", "tinyheaders"), exist_ok=True)
    for name in ("tinyheaders.o", "tinyheaders.key"):
        cached = os.path.join(ROOT, "build", "tinyheaders", name)
        if os.path.exists(cached):
            shutil.copy2(cached, os.path.join(tmp, "build", "tinyheaders", name))
    return tmp


def edit(path, old, new, count=1):
    """Rewrites a file with one text replaced, as an editor's save would."""
    with open(path) as f:
        text = f.read()
    check(old in text, f"{path} does not contain {old!r}")
    text = text.replace(old, new, count)
    with open(path, "w") as f:
        f.write(text)
    return time.time()


class Host:
    def __init__(self, root, *args, headless=True, env=None):
        self.root = root
        self.log_path = os.path.join(root, "events.jsonl")
        self.out_path = os.path.join(root, "host.out")
        if os.path.exists(self.log_path):
            os.remove(self.log_path)  # a previous host's log must not be read as this one's
        cmd = [HOST, "--root", root, "--log-json", self.log_path, "--log-file", os.path.join(root, "host.log")]
        if headless:
            cmd.append("--headless")
        if "--save-dir" not in args:   # never the user's real save data
            cmd += ["--save-dir", os.path.join(root, "save")]
        cmd += list(args)
        e = dict(os.environ)
        e.update(env or {})
        self.out = open(self.out_path, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.out, stderr=subprocess.STDOUT, env=e)
        self.pid = self.proc.pid
        _HOSTS.append(self)
        self.events = []
        self._pos = 0
        self._partial = ""

    def poll(self):
        if getattr(self, "_done", False):
            return
        try:
            with open(self.log_path) as f:
                f.seek(self._pos)
                data = f.read()
                self._pos = f.tell()
        except FileNotFoundError:
            return
        data = self._partial + data
        lines = data.split("\n")
        self._partial = lines.pop()
        for line in lines:
            if line.strip():
                self.events.append(json.loads(line))

    def wait_for(self, pred, timeout=30.0, since=0, what="event"):
        """The first event at index >= since satisfying pred; raises after timeout."""
        bound = stretch(timeout)
        deadline = time.time() + bound
        while True:
            self.poll()
            for i in range(since, len(self.events)):
                if pred(self.events[i]):
                    return self.events[i]
            if self.proc.poll() is not None:
                self.poll()
                for i in range(since, len(self.events)):
                    if pred(self.events[i]):
                        return self.events[i]
                raise AssertionError(f"host exited ({self.proc.returncode}) while waiting for {what}; output:\n{self.tail()}")
            if time.time() > deadline:
                raise AssertionError(f"timed out after {bound:.0f}s waiting for {what}; last events:\n"
                                     + "\n".join(json.dumps(e) for e in self.events[-8:]))
            time.sleep(0.02)

    def wait_ev(self, name, timeout=30.0, since=0, **fields):
        def pred(e):
            return e.get("ev") == name and all(e.get(k) == v for k, v in fields.items())
        return self.wait_for(pred, timeout, since, what=f"{name} {fields}")

    def next_reload(self, since, timeout=60.0):
        """The first reload at index >= since. A failed build or a refused reload fails at once: a case
        never waits out its timeout for a reload that cannot come."""
        def pred(e):
            ev = e.get("ev")
            if ev == "build_end" and e.get("ok") is False:
                raise AssertionError(f"the build failed: {e.get('errors')}")
            if ev == "reload_failed":
                raise AssertionError(f"the reload was refused: {e}")
            return ev == "reload"
        return self.wait_for(pred, timeout, since, what="reload")

    def mark(self):
        self.poll()
        return len(self.events)

    def control(self, timeout=30.0):
        """A client of this host's control socket (docs/control.md), once the host says it listens: request("get",
        path="score"), request("step", n=5)... wait on the game itself instead of on events and frame counts."""
        ev = self.wait_ev("control", timeout)
        return ControlClient(ev["path"], timeout=stretch(20.0))

    def of(self, name, since=0):
        self.poll()
        return [e for e in self.events[since:] if e.get("ev") == name]

    def alive(self):
        return self.proc.poll() is None

    def mapped(self, needle):
        with open(f"/proc/{self.pid}/maps") as f:
            return needle in f.read()

    def tail(self, n=40):
        if not self.out.closed:
            self.out.flush()
        try:
            with open(self.out_path) as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""

    def stop(self, timeout=15.0):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(stretch(timeout))
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.out.close()
        self.poll()
        self._done = True   # the log file may be reused by the next host in the same folder
        return self.proc.returncode


def read_png(path):
    """Decodes an 8-bit RGB/RGBA non-interlaced PNG (what the host writes): (w, h, rows of RGBA tuples)."""
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            check(depth == 8 and ctype in (2, 6), f"{path}: unsupported PNG format")
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + bpp]) + ((255,) if bpp == 3 else ()) for x in range(w)])
        prev = line
    return w, h, rows


def check_play_screenshot(path):
    """A screenshot of NEON SWARM being played, as a release draws it: many colours, the score text at the top
    left (the font loaded), the wall tiles' blue outlines across the arena and no placeholder sprites
    (magenta/black checker: the atlas loaded)."""
    w, h, rows = read_png(path)
    colours = {rows[y][x] for y in range(0, h, 4) for x in range(0, w, 4)}
    check(len(colours) > 40, f"the screenshot has only {len(colours)} colours")
    # the score panel at the top left: light text on a dark backing
    panel = [rows[y][x] for y in range(12 * h // 720, 120 * h // 720, 2) for x in range(14 * w // 1280, 250 * w // 1280, 2)]
    bright = sum(1 for p in panel if (p[0] * 3 + p[1] * 6 + p[2]) / 10 > 200) / len(panel)
    check(bright > 0.004, f"no score text in the screenshot ({bright:.4f} of the panel is bright)")
    blue = sum(1 for y in range(0, h, 4) for x in range(0, w, 4) if rows[y][x][2] > 180 and rows[y][x][0] < 140)
    magenta = sum(1 for y in range(0, h, 4) for x in range(0, w, 4) if rows[y][x][:3] == (255, 0, 255))
    check(blue > 100 and magenta < 20, f"sprites: {blue} blue samples, {magenta} placeholder samples")


def inject(path, entry, code):
    """Puts code at the top of an entry point's body, e.g. inject(game_cpp, "GAME_UPDATE(game_update)", "...")."""
    with open(path) as f:
        text = f.read()
    head = entry + "\n{\n"
    check(head in text, f"{path}: no '{entry}' followed by a brace line")
    with open(path, "w") as f:
        f.write(text.replace(head, head + "    " + code + " /*INJECTED*/\n", 1))
    return time.time()


def uninject(path):
    with open(path) as f:
        lines = f.read().split("\n")
    with open(path, "w") as f:
        f.write("\n".join(l for l in lines if "/*INJECTED*/" not in l))
    return time.time()


def cleanup(path):
    shutil.rmtree(path, ignore_errors=True)


def input_script(root, text, name="bot.txt"):
    """Writes an --input script (one timed event a line) into the project copy; returns its path."""
    path = os.path.join(root, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def end_run(checks, host, root, tail=40, final=None):
    """The end of a scenario with one host: it must still run (exit code 0 on the stop; `final(rc)` checks
    more), its log tail is printed when a case failed, the project copy is removed when all passed; then the
    summary."""
    rc = host.stop()
    checks.case("host_alive_to_the_end", lambda: final(rc) if final else check(rc == 0, f"host exit code {rc}"))
    if checks.failed:
        print(host.tail(tail))
    else:
        cleanup(root)
    checks.finish()
