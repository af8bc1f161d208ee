"""The listen-equivalent check of every sound tools/make_sfx renders from assets/sfx: sox's `stat`
on each WAV says it is neither clipped (peak under 0.99) nor silent (RMS over 0.02), an effect is
short (under 2 s) and the music loop is long enough to loop (over 4 s)."""
import os
import subprocess
import tempfile

from hostlib import ROOT, Checks, check, cleanup

checks = Checks()
TOOL = os.path.join(ROOT, "build", "tools", "make_sfx")


def stat(path):
    out = subprocess.run(["sox", path, "-n", "stat"], capture_output=True, text=True).stderr
    vals = {}
    for line in out.splitlines():
        if ":" in line:
            k, v = line.rsplit(":", 1)
            try:
                vals[k.strip()] = float(v)
            except ValueError:
                pass
    return vals


def render_all():
    out = tempfile.mkdtemp(prefix="sfx-")
    try:
        r = subprocess.run([TOOL, "--all", os.path.join(ROOT, "assets", "sfx"), out], capture_output=True, text=True)
        check(r.returncode == 0, f"make_sfx failed: {r.stderr}")
        wavs = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs if f.endswith(".wav")]
        sfx = [f for _, _, fs in os.walk(os.path.join(ROOT, "assets", "sfx")) for f in fs if f.endswith(".sfx")]
        check(len(wavs) == len(sfx) and wavs, f"{len(wavs)} WAVs for {len(sfx)} .sfx files")
        for w in sorted(wavs):
            s = stat(w)
            name = os.path.relpath(w, out)
            peak = max(s.get("Maximum amplitude", 0), -s.get("Minimum amplitude", 0))
            rms, length = s.get("RMS     amplitude", 0), s.get("Length (seconds)", 0)
            print(f"      {name:24s} {length:5.2f} s  peak {peak:.3f}  rms {rms:.3f}")
            check(peak < 0.99, f"{name} clips: peak {peak}")
            check(rms > 0.02, f"{name} is (nearly) silent: rms {rms}")
            if name.startswith("music/"):
                check(length > 4, f"{name}: a {length} s loop")
            else:
                check(0.02 < length < 2, f"{name}: {length} s")
    finally:
        cleanup(out)


def bad_parameters_named():
    d = tempfile.mkdtemp(prefix="sfx-bad-")
    try:
        p = os.path.join(d, "x.sfx")
        with open(p, "w") as f:
            f.write("wave = sine\nfreq = 440\nfreq = banana\n")
        r = subprocess.run([TOOL, p, os.path.join(d, "x.wav")], capture_output=True, text=True)
        check(r.returncode == 1 and "x.sfx:3:" in r.stderr and "freq" in r.stderr, f"rc {r.returncode}: {r.stderr}")
        check(not os.path.exists(os.path.join(d, "x.wav")), "wrote a WAV for a broken file")
    finally:
        cleanup(d)


checks.case("every rendered sound is neither clipped nor silent (sox stat)", render_all)
checks.case("a bad parameter names its file and line", bad_parameters_named)
checks.finish()
