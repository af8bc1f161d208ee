"""The maps of the source tree stay true: docs/layout.md and host.h's file list name every
file that `ls` shows in the folders they describe, and no file that is not there; every tinyheader
carries its version and licence line at the top and the licence texts at its end, beside the root LICENSE;
what differs between development and a release is asked in release.cpp alone.
QUICK_SCENARIO: in ./build.sh test --quick too (the edit-test loop's tier).
"""
import os
import re

from hostlib import Checks, check

ROOT = os.environ.get("PROJECT_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = re.compile(r"\.(cpp|c|h|py|sh|bat|txt|png)$")
checks = Checks()


def ls(folder):
    path = os.path.join(ROOT, folder)
    return sorted(f for f in os.listdir(path) if not f.startswith(".") and os.path.isfile(os.path.join(path, f)))


# the host's folders: platform/ (the frame loop and the two builds' HostMode) and its modules
PLATFORM = ["platform"] + sorted("platform/" + d for d in os.listdir(os.path.join(ROOT, "platform"))
                                 if os.path.isdir(os.path.join(ROOT, "platform", d)) and d != "include")


def named(text, name):
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", text) is not None


def file_tokens(text):
    """Every word of text that looks like a file name (no globs)."""
    return {t for t in re.findall(r"[\w./-]+\.(?:cpp|c|h|py|sh|bat|txt|png)\b", text) if "*" not in t}


def exists_somewhere(token):
    if os.path.exists(os.path.join(ROOT, token)):
        return True
    base = os.path.basename(token)
    for folder in PLATFORM + ["platform/include", "game", "tools", "tinyheaders", "docs", "tests/unit", "tests/e2e", "tests/bench",
                              "tests/fuzz", "tests/windows", "tests/web", "."]:
        if base in ls(folder):
            return True
    return False


def readme_layout():
    text = open(os.path.join(ROOT, "docs", "layout.md"), encoding="utf-8").read()
    start = text.index("\n## Layout")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def readme_names_every_file():
    layout = readme_layout()
    missing = []
    for folder in PLATFORM + ["platform/include", "game", "tinyheaders", "tools", "docs"]:
        # a module of platform/ is named as a line of its own under platform/ ("  core/ ...")
        sub = folder.startswith("platform/") and folder != "platform/include"
        check(named(layout, folder + "/") or (sub and re.search(r"^ +" + re.escape(folder[9:]) + "/ ", layout, re.M)),
              f"the Layout section does not name {folder}/")
        for f in ls(folder):
            stem = os.path.splitext(f)[0]
            # a tool or a tinyheader may be named without its extension (atlas_pack, th_math)
            if not named(layout, f) and not (folder in ("tools", "tinyheaders") and named(layout, stem)):
                missing.append(f"{folder}/{f}")
    for sub in ("unit", "e2e", "bench", "fuzz", "windows", "web"):
        if not named(layout, sub + "/"):
            missing.append(f"tests/{sub}/")
    for f in ("build.sh", "build.bat", "LICENSE"):
        if not named(layout, f):
            missing.append(f)
    check(not missing, f"docs/layout.md does not name: {', '.join(missing)}")


def readme_names_no_missing_file():
    ghosts = sorted(t for t in file_tokens(readme_layout()) if not exists_somewhere(t))
    check(not ghosts, f"docs/layout.md names files that do not exist: {', '.join(ghosts)}")


def host_h_map():
    text = open(os.path.join(ROOT, "platform", "host.h"), encoding="utf-8").read()
    return text[:text.index("*/")]


def host_h_names_every_platform_file():
    text = host_h_map()
    missing = [f for d in PLATFORM for f in ls(d) if not named(text, f)]
    check(not missing, f"host.h's file map does not name: {', '.join(missing)}")
    ghosts = sorted(t for t in file_tokens(text) if not exists_somewhere(t))
    check(not ghosts, f"host.h's file map names files that do not exist: {', '.join(ghosts)}")


def tinyheaders_carry_version_and_licence():
    check(os.path.isfile(os.path.join(ROOT, "LICENSE")), "no LICENSE at the root")
    lic = open(os.path.join(ROOT, "LICENSE"), encoding="utf-8").read()
    check("MIT License" in lic and "public domain" in lic, "LICENSE lacks the MIT text or the public-domain dedication")
    bad = []
    for f in ls("tinyheaders"):
        text = open(os.path.join(ROOT, "tinyheaders", f), encoding="utf-8").read()
        head = "\n".join(text.split("\n")[:8])
        if not re.search(re.escape(f) + r" v\d+\.\d+ - MIT or public domain", head):
            bad.append(f + " (no version and licence line at the top)")
        tail = text[-4000:]
        if "A - MIT License" not in tail or "B - Public domain" not in tail:
            bad.append(f + " (no licence texts at the end)")
    check(not bad, "; ".join(bad))


def release_differs_in_one_place():
    """Development and release are one interface (HostMode in host.h): no file of the frame loop asks
    #if HOST_RELEASE. Allowed: release.cpp itself, the OS backends, restart.cpp (no hot restart on Windows
    or in a release: its stand-ins sit beside it) and host.h (a release's profiler compiles to nothing)."""
    allowed = {"release.cpp", "restart.cpp", "services.h"}
    asking = []
    for f in [os.path.join(d, f) for d in PLATFORM for f in ls(d)]:
        if os.path.basename(f) in allowed or os.path.basename(f).startswith("os_") or not f.endswith((".cpp", ".h")):
            continue
        text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        if re.search(r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*\bHOST_RELEASE\b", text, re.M):
            asking.append(f)
    check(not asking, f"#if HOST_RELEASE outside release.cpp (call through g_host_mode instead): {', '.join(asking)}")


checks.case("readme_names_every_file", readme_names_every_file)
checks.case("readme_names_no_missing_file", readme_names_no_missing_file)
checks.case("host_h_names_every_platform_file", host_h_names_every_platform_file)
checks.case("tinyheaders_carry_version_and_licence", tinyheaders_carry_version_and_licence)
checks.case("release_differs_in_one_place", release_differs_in_one_place)
checks.finish()
