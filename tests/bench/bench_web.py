"""The web release's size and start: dist_web_wasm_bytes (index.wasm), dist_web_total_gzip_bytes (the four files
gzipped at level 9, what a web host serving them compressed sends), and web_first_frame_ms: from the start of
the page's navigation to the end of the host's first frame (the page's own clock, performance.now()), median of
5 loads in headless chromium, each in a fresh browser context, served from 127.0.0.1. It builds the release
with ./build.sh dist-web (emscripten and SDL2 are installed and built on the first run, then cached)."""
import gzip
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
from webserve import served  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import report, runs  # noqa: E402
ROOT = os.environ.get("PROJECT_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


LOADS = runs(5)


def main():
    p = subprocess.run(["bash", os.path.join(ROOT, "build.sh"), "dist-web"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench_web: ./build.sh dist-web failed:\n" + p.stderr[-3000:])
    webs = [os.path.join(ROOT, "dist", d) for d in os.listdir(os.path.join(ROOT, "dist")) if d.endswith("-web")]
    folder = max((d for d in webs if os.path.isdir(d)), key=os.path.getmtime)   # the one just built
    gz = sum(len(gzip.compress(open(os.path.join(folder, f), "rb").read(), 9)) for f in os.listdir(folder))
    out = os.path.join(ROOT, "build", "bench", "web")
    os.makedirs(out, exist_ok=True)
    p = subprocess.run(["bash", os.path.join(ROOT, "build.sh"), "web-driver"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench_web: no puppeteer-core:\n" + p.stderr[-2000:])
    node_path = p.stdout.strip().splitlines()[-1]
    with served(folder) as url:
        subprocess.run(["node", os.path.join(ROOT, "tests", "web", "drive.js"), url, out, "firstframe", str(LOADS)],
                       env=dict(os.environ, NODE_PATH=node_path), capture_output=True, text=True, timeout=300)
    r = json.load(open(os.path.join(out, "result.json")))
    if r["errors"] or len(r["first_frame_ms"]) != LOADS:
        sys.exit(f"bench_web: {r['errors']} {r['first_frame_ms']}")
    report({
        "dist_web_wasm_bytes": os.path.getsize(os.path.join(folder, "index.wasm")),
        "dist_web_total_gzip_bytes": gz,
        "web_first_frame_ms": round(statistics.median(r["first_frame_ms"]), 1),
    })


if __name__ == "__main__":
    main()
