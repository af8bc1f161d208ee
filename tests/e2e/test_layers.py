"""The host's layers hold: every #include of a file in platform/ reaches its own folder or a folder below it
(os < core < services < session < live < devtools < platform/ itself, docs/design.md "The host's layers"), and no
header of platform/ includes itself back through others (a cycle). A file that needs something of a layer above
it takes a hook that layer registers at start instead. Reads the sources only; each failure names the file, the
line and the include; no file outside os/ includes an OS header; no host function is over 80 lines and no
line over 120 columns.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os
import re

from hostlib import Checks, check

ROOT = os.environ.get("PROJECT_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATFORM = os.path.join(ROOT, "platform")
LAYERS = ["os", "core", "services", "session", "live", "devtools"]   # lowest first; platform/ itself is above all
TOP = len(LAYERS)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
checks = Checks()


def rank(path):
    """The layer of a file under platform/ (TOP for platform/ itself), None outside the host (tinyheaders, the
    contract in platform/include, the game's headers)."""
    rel = os.path.relpath(path, PLATFORM)
    if rel.startswith(".."):
        return None
    parts = rel.split(os.sep)
    if len(parts) == 1:
        return TOP
    return LAYERS.index(parts[0]) if parts[0] in LAYERS else None


def host_files():
    out = []
    for dirpath, dirs, files in os.walk(PLATFORM):
        dirs[:] = [d for d in dirs if d != "include"]
        out += [os.path.join(dirpath, f) for f in files if f.endswith((".c", ".cpp", ".h"))]
    return sorted(out)


def resolve(name, including):
    """Where the compiler finds #include "name": beside the including file, then the folders the host is
    compiled with (-Iplatform -Iplatform/include -Itinyheaders); None for a file of the game or the system."""
    for base in (os.path.dirname(including), PLATFORM, os.path.join(PLATFORM, "include"), os.path.join(ROOT, "tinyheaders")):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return p
    return None


def includes(path):
    text = open(path, encoding="utf-8").read()
    for m in INCLUDE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield line, m.group(1), resolve(m.group(1), path)


def layers_known():
    """Every folder of platform/ is a layer the test knows (a new folder is placed in LAYERS and docs/design.md)."""
    unknown = [d for d in os.listdir(PLATFORM) if os.path.isdir(os.path.join(PLATFORM, d)) and d not in LAYERS + ["include"]]
    check(not unknown, f"platform/ has folders that are no layer: {', '.join(unknown)} (add them to LAYERS and docs/design.md)")
    for layer in LAYERS:
        check(os.path.isdir(os.path.join(PLATFORM, layer)), f"platform/{layer}/ is missing")


def no_upward_include():
    upward = []
    for f in host_files():
        r = rank(f)
        for line, name, target in includes(f):
            t = rank(target) if target else None
            if r is not None and t is not None and t > r:
                upward.append(f"{os.path.relpath(f, ROOT)}:{line} includes \"{name}\" "
                              f"({LAYERS[r] if r < TOP else 'platform'} -> {LAYERS[t] if t < TOP else 'platform'})")
    check(not upward, "an include reaches a layer above its file: " + "; ".join(upward))


def no_include_cycle():
    graph = {f: [t for _, _, t in includes(f) if t and rank(t) is not None] for f in host_files()}
    state, cycles = {}, []

    def visit(f, stack):
        state[f] = 1
        stack.append(f)
        for t in graph.get(f, []):
            if state.get(t) == 1:
                cycles.append(" -> ".join(os.path.relpath(x, ROOT) for x in stack[stack.index(t):] + [t]))
            elif not state.get(t):
                visit(t, stack)
        stack.pop()
        state[f] = 2

    for f in graph:
        if not state.get(f):
            visit(f, [])
    check(not cycles, "include cycles: " + "; ".join(cycles))


def modules_include_their_header():
    """A module's .cpp reaches the rest of the host through its own header, not host.h (platform/'s, which
    declares every layer)."""
    wrong = []
    for f in host_files():
        r = rank(f)
        if r is None or r == TOP or not f.endswith(".cpp"):
            continue
        for line, name, target in includes(f):
            if target == os.path.join(PLATFORM, "host.h"):
                wrong.append(f"{os.path.relpath(f, ROOT)}:{line}")
    check(not wrong, "host.h included inside a module: " + ", ".join(wrong))


OS_HEADERS = re.compile(r'^\s*#\s*include\s+<(unistd\.h|sys/[^>]+|windows\.h|dlfcn\.h|signal\.h|pthread\.h|execinfo\.h|'
                        r'fcntl\.h|dirent\.h|poll\.h|spawn\.h|link\.h|ucontext\.h|emscripten[^>]*)>', re.M)


def os_headers_only_in_os():
    """The operating system shows in os/ alone: no other file of the host includes a system header of the OS
    (unistd.h, sys/..., windows.h, dlfcn.h, signal.h, pthread.h, ...); what it needs, os.h offers."""
    found = []
    for f in host_files():
        if rank(f) == 0:
            continue
        text = open(f, encoding="utf-8").read()
        for m in OS_HEADERS.finditer(text):
            found.append(f"{os.path.relpath(f, ROOT)}:{text.count(chr(10), 0, m.start()) + 1} <{m.group(1)}>")
    check(not found, "OS headers outside platform/os/: " + ", ".join(found))


def no_long_function():
    """No host function is longer than 80 lines (its signature to its closing brace): a long one is split into
    the phases it has. A function's body opens with "{" alone at the start of a line and closes with "}" there."""
    long = []
    for f in host_files():
        if not f.endswith(".cpp"):
            continue
        lines = open(f, encoding="utf-8").read().split("\n")
        start = None
        for i, line in enumerate(lines):
            if line == "{" and i > 0:
                start = i - 1
                while start > 0 and lines[start - 1].strip() and not lines[start - 1].rstrip().endswith((";", "}", "*/")) \
                        and lines[start].startswith((" ", "\t")):
                    start -= 1   # a signature over several lines
            elif line == "}" and start is not None:
                if i - start + 1 > 80:
                    long.append(f"{os.path.relpath(f, ROOT)}:{start + 1} ({i - start + 1} lines: {lines[start].strip()[:60]})")
                start = None
    check(not long, "host functions over 80 lines: " + "; ".join(long))


def lines_fit_120():
    """Every line of the host fits 120 columns (.editorconfig, .clang-format)."""
    wide = []
    for f in host_files():
        for i, line in enumerate(open(f, encoding="utf-8").read().split("\n")):
            if len(line) > 120:
                wide.append(f"{os.path.relpath(f, ROOT)}:{i + 1} ({len(line)})")
    check(not wide, f"{len(wide)} host lines over 120 columns: " + ", ".join(wide[:20]))


EXTERN = re.compile(r'^\s*extern\s+(?!"C")([^;(]*);', re.M)


def code_only(text):
    """The text with its comments blanked (line numbers kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def extern_globals(header):
    """The mutable globals a header declares extern: (name, line). A const table (extern const ...) is not state."""
    text = code_only(open(header, encoding="utf-8").read())
    for m in EXTERN.finditer(text):
        decl = m.group(1)
        if re.match(r"\s*const\b", decl) or re.search(r"\*\s*const\b", decl):
            continue
        for part in decl.split(","):
            names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[.*?\]", "", part))
            if names:
                yield names[-1], text.count("\n", 0, m.start()) + 1


def no_global_outside_its_folder():
    """A mutable global declared extern in one folder's header is used by no file of another folder: other modules
    reach a module's state through its functions (core.h's options(), session.h's running_run(), ...)."""
    sources = {f: code_only(open(f, encoding="utf-8").read()) for f in host_files()}
    leaks = []
    for header in (f for f in sources if f.endswith(".h")):
        for name, line in extern_globals(header):
            use = re.compile(r"\b%s\b" % re.escape(name))
            users = [f for f, text in sources.items() if os.path.dirname(f) != os.path.dirname(header)
                     and f != header and use.search(text)]
            if users:
                leaks.append(f"{name} (extern in {os.path.relpath(header, ROOT)}:{line}) used by "
                             + ", ".join(os.path.relpath(u, ROOT) for u in users))
    check(not leaks, "module globals used outside their folder: " + "; ".join(leaks))


checks.case("layers_known", layers_known)
checks.case("no_upward_include", no_upward_include)
checks.case("no_include_cycle", no_include_cycle)
checks.case("modules_include_their_header", modules_include_their_header)
checks.case("os_headers_only_in_os", os_headers_only_in_os)
checks.case("no_global_outside_its_folder", no_global_outside_its_folder)
checks.case("no_long_function", no_long_function)
checks.case("lines_fit_120", lines_fit_120)
checks.finish()
