"""The web release (./build.sh dist-web, built by the web leg before this runs) played in the system chromium,
headless, through tests/web/drive.js (puppeteer-core). The folder is served on 127.0.0.1 only, by a server in
this process. Checks:
- the page reaches its first frame, and no console error or page error happens at any point;
- Enter starts a run and F10 lets the autopilot play: the screenshot shows sprites and the score text, by
  pixels (hostlib.check_play_screenshot, the same check as the Linux release);
- a best score from a run played by hand (saved when it is restarted from the pause menu, or when the ship
  dies) is synced to the
  browser's storage and comes back after the page is reloaded;
- the folder holds index.html, index.js, index.wasm and index.data, and the .zip beside it;
- in a browser with WebGL turned off, the page says so and the game does not start.
WEB_DIST (the folder), WEB_NODE_PATH (where puppeteer-core is) and WEB_OUT come from build.sh."""
import json
import os
import re
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Checks, check, check_play_screenshot  # noqa: E402
from webserve import served  # noqa: E402

DIST = os.environ["WEB_DIST"]
OUT = os.environ["WEB_OUT"]
checks = Checks()


def drive():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    with served(DIST) as url:
        env = dict(os.environ, NODE_PATH=os.environ["WEB_NODE_PATH"])
        p = subprocess.run(["node", os.path.join(os.path.dirname(__file__), "drive.js"), url, OUT], env=env,
                           capture_output=True, text=True, timeout=300)
        check(os.path.exists(os.path.join(OUT, "result.json")), f"drive.js wrote no result (exit {p.returncode}): {p.stderr[-2000:]}")
        with open(os.path.join(OUT, "result.json")) as f:
            return json.load(f)


R = drive()


def folder():
    names = sorted(os.listdir(DIST))
    check(names == ["index.data", "index.html", "index.js", "index.wasm"], f"the folder holds {names}")
    with zipfile.ZipFile(DIST + ".zip") as z:
        inside = sorted(os.path.basename(n) for n in z.namelist())
    check(inside == names, f"the zip holds {inside}")
    html = open(os.path.join(DIST, "index.html")).read()
    check("WebAssembly" in html and "WebGL" in html, "the page has no message for a browser without WebAssembly or WebGL")


def starts_without_errors():
    check(not R["errors"], "errors: " + " | ".join(R["errors"])[:3000])
    bad = [c for c in R["console"] if c.startswith("error:")]
    check(not bad, "console errors: " + " | ".join(bad)[:3000])
    check(len(R["first_frame_ms"]) == 2 and all(t > 0 for t in R["first_frame_ms"]), f"first frames {R['first_frame_ms']}")
    check(R["frames"] >= 300, f"only {R['frames']} frames")
    check(not R.get("report_shown"), "the page showed its crash report")


def autopilot_screenshot():
    check_play_screenshot(os.path.join(OUT, "autopilot.png"))
    check_play_screenshot(os.path.join(OUT, "play.png"))


def best_survives_reload():
    # the run's best is saved when it is restarted from the pause menu, or earlier if the ship died
    check(R.get("synced_after", 0) >= 1, f"no save synced to storage ({R.get('synced_before')} -> {R.get('synced_after')})")
    first = [c for c in R["console"][:R["console_after_reload_from"]] if "NEON SWARM started" in c]
    after = [c for c in R["console"][R["console_after_reload_from"]:] if "NEON SWARM started" in c]
    check(first and after, f"no start line: {first} / {after}")
    best = int(re.search(r"best (\d+)", after[-1]).group(1))
    check(re.search(r"best 0\b", first[0]) is not None, f"the first start was not from an empty storage: {first[0]}")
    check(best > 0, f"after a reload the best is {best}: {after[-1]}")


def no_webgl_says_so():
    r = R.get("no_webgl") or {}
    check(r.get("shown") and "WebGL" in r.get("text", ""), f"without WebGL the page shows {r}")
    check(r.get("frames", 1) == 0, f"without WebGL the game still ran {r.get('frames')} frames")


checks.case("web: the folder and its zip", folder)
checks.case("web: first frame, no console or page errors", starts_without_errors)
checks.case("web: a run by hand and the autopilot draw sprites and text", autopilot_screenshot)
checks.case("web: the best score survives a reload of the page", best_survives_reload)
checks.case("web: a browser without WebGL gets a message, not a broken page", no_webgl_says_so)
print(json.dumps({"web_first_frame_ms": R["first_frame_ms"][0] if R["first_frame_ms"] else None}))
checks.finish()
