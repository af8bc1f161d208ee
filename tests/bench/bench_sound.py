"""Benchmarks of sounds as live assets, against the real host (headless, the shipped game):

sound_reload_ms  from the overwrite of a WAV under assets/sounds to the mixer having the new samples
                 (the host's sound_loaded event: decoder child run, output checked, handed to the
                 mixer), median of 10 saves; the watcher's 30 ms debounce is part of it
sfx_reload_ms    the same for a save of a .sfx parameter file: make_sfx renders it, then the decoder
                 child, median of 10 saves
"""
import json
import math
import os
import re
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from hostlib import Host, cleanup, edit, project_copy  # noqa: E402
from benchlib import report, runs  # noqa: E402


def write_wav(path, freq):
    rate, n = 44100, 22050
    data = b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * freq * i / rate))) for i in range(n))
    hdr = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(hdr + b"data" + struct.pack("<I", len(data)) + data)
    os.replace(tmp, path)


def timed(h, name, save):
    m = h.mark()
    t0 = time.time()
    save()
    e = h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == name and e["reload"], 10, m, what=f"{name} reload")
    print(f"{name}: {(e['wall'] - t0) * 1000.0:.0f} ms total, {e['ms']:.0f} ms after the host saw it", file=sys.stderr)
    return (e["wall"] - t0) * 1000.0


root = project_copy()
try:
    os.makedirs(os.path.join(root, "assets", "sounds", "bench"))
    wav = os.path.join(root, "assets", "sounds", "bench", "tone.wav")
    write_wav(wav, 440)
    sfx = os.path.join(root, "assets", "sfx", "player", "shot.sfx")
    h = Host(root)
    try:
        h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "bench/tone", 30, what="first load")
        h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "player/shot", 30, what="first load")
        time.sleep(0.5)
        wav_ms, sfx_ms = [], []
        # the shot's first layer's pitch, whatever the sound's designer set it to
        base = int(re.search(r"^freq = (\d+)$", open(sfx).read(), re.M).group(1))
        for i in range(runs(10, 2)):
            wav_ms.append(timed(h, "bench/tone", lambda: write_wav(wav, 440 + 20 * (i + 1))))
            time.sleep(0.15)
            sfx_ms.append(timed(h, "player/shot", lambda: edit(sfx, f"freq = {base + i}\n", f"freq = {base + i + 1}\n")))
            time.sleep(0.15)
    finally:
        h.stop()
finally:
    cleanup(root)
report({"sound_reload_ms": round(statistics.median(wav_ms), 1), "sfx_reload_ms": round(statistics.median(sfx_ms), 1)})
