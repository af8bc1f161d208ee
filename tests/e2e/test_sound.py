"""End to end: sound, heard through SDL's disk audio driver (the mixed output written to a file).

- silence before the first shot and energy right after it (the audio frame of each play is in the
  event log); a sound whose file is missing is reported by name and plays silence;
- a code reload and a live re-render of the playing music loop leave no gap (no run of silence over
  GAP_MS) and no click (no sample step over CLICK_X times the loop's own largest step);
- corrupt WAV and OGG files are survived with a message naming each, a good OGG loads, and fixing
  the broken file reloads it; a broken .sfx names its line, and saving a fixed one re-renders it.
ASAN_SCENARIO: also run against the sanitizer build of the host.
"""
import array
import math
import os
import shutil
import struct
import subprocess
import time

from hostlib import Checks, Host, check, cleanup, edit, project_copy, stretch

GAP_MS = 20        # longest run of silence allowed inside the playing loop
CLICK_X = 3.0      # largest sample step allowed, relative to the loop's own largest step
RATE = 48000

checks = Checks()


def read_audio(path):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a   # interleaved stereo float


def peak(a, f0, f1):
    f0, f1 = max(0, f0), min(len(a) // 2, f1)
    return max((abs(a[i]) for i in range(2 * f0, 2 * f1)), default=0.0)


def wait_audio(path, frames, timeout=30.0):
    """Waits until SDL's disk driver has written `frames` stereo float frames to path: the test waits for the
    audio itself, never for a wall-clock time a busy machine may not keep."""
    deadline = time.time() + stretch(timeout)
    while True:
        have = os.path.getsize(path) // 8 if os.path.exists(path) else 0
        if have >= frames:
            return have
        check(time.time() < deadline, f"only {have} of {frames} audio frames written after {stretch(timeout):.0f} s")
        time.sleep(0.05)


def disk_env(root):
    out = os.path.join(root, "audio.raw")
    return out, {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": out}


def write_wav(path, samples, rate=22050):
    data = b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 32767)) for s in samples)
    hdr = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(hdr + b"data" + struct.pack("<I", len(data)) + data)
    os.replace(tmp, path)


def silence_then_shot():
    root = project_copy()
    try:
        # no start jingle and no music: the first sound a player hears is the first shot
        os.remove(os.path.join(root, "assets", "sfx", "ui", "start.sfx"))
        os.remove(os.path.join(root, "assets", "sfx", "music", "loop.sfx"))
        out, env = disk_env(root)
        script = os.path.join(root, "in.txt")
        with open(script, "w") as f:
            # the run starts once the sounds have had time to load (5 s), shots come before the wave-start jingle
            f.write("300 tap ENTER\n315 down RIGHT\n345 up RIGHT\n480 quit\n")
        h = Host(root, "--input", script, "--no-watch", env=env)
        h.wait_ev("quit", timeout=40)
        h.stop()
        missing = [e for e in h.of("asset_error") if e.get("sound") in ("music/loop", "ui/start")]
        check(len(missing) == 2, f"expected one message for each missing sound, got {missing}")
        check(all("missing" in e["reason"] for e in missing), f"reasons: {missing}")
        plays = [e for e in h.of("sound_play")]
        shots = [e for e in plays if e["name"] == "player/shot"]
        check(shots, f"no shot played; plays: {plays[:5]}")
        first = shots[0]["audio_frame"]
        loaded = [e for e in h.of("sound_loaded") if e["name"] == "player/shot"]
        check(loaded and loaded[0]["t"] < shots[0]["t"], f"player/shot was not loaded before the first shot: {loaded}")
        heard_before = [e for e in plays if e["audio_frame"] < first and e["name"] not in ("music/loop", "ui/start")]
        check(not heard_before, f"sounds before the shot: {heard_before}")
        a = read_audio(out)
        check(len(a) // 2 > first + RATE // 4, f"audio file too short: {len(a) // 2} frames, shot at {first}")
        before = peak(a, 0, first)
        after = peak(a, first, first + RATE // 5)
        check(before < 1e-4, f"not silent before the shot: peak {before}")
        check(after > 0.05, f"no energy after the shot: peak {after}")
    finally:
        cleanup(root)


TONE = """# test tone: one long sine note per two-second loop
type = music
bpm = 120
steps = 16
gain = 0.7
[track]
wave = sine
freq = 220
attack = 0.01
hold = 1.98
decay = 0.01
pattern = A3 . . . . . . . . . . . . . . .
"""


def reload_during_playback():
    root = project_copy()
    try:
        # only the music, as a pure tone: any gap or step in it shows
        sfx = os.path.join(root, "assets", "sfx")
        shutil.rmtree(sfx)
        os.makedirs(os.path.join(sfx, "music"))
        loop = os.path.join(sfx, "music", "loop.sfx")
        with open(loop, "w") as f:
            f.write(TONE)
        out, env = disk_env(root)
        script = os.path.join(root, "in.txt")
        with open(script, "w") as f:
            f.write("5 tap F10\n")   # the demo bot starts a run and stays alive
        h = Host(root, "--input", script, env=env)
        try:
            h.wait_for(lambda e: e.get("ev") == "sound_play" and e["name"] == "music/loop", 30, what="music start")
            music = [e for e in h.of("sound_play") if e["name"] == "music/loop"][-1]
            wait_audio(out, music["audio_frame"] + int(2.2 * RATE))   # past the fade-in, plus a reference stretch
            m = h.mark()
            edit(os.path.join(root, "game", "sound.cpp"), "what NEON SWARM sounds like", "what NEON SWARM sounds like (edited)")
            h.next_reload(m, 60)
            m = h.mark()
            edit(loop, "pattern = A3", "pattern = C4")
            loaded = h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "music/loop" and e["reload"], 10, m,
                                what="music re-rendered")
            wait_audio(out, os.path.getsize(out) // 8 + RATE)   # a second of the new loop: the tail is measured on it
            check(h.alive(), "host died")
            stats = h.wait_ev("frame_stats", timeout=5, since=h.mark())
        finally:
            h.stop()
        check(stats["game"]["mode"] == 1, f"the run ended during the test (mode {stats['game']['mode']}); music fades")
        a = read_audio(out)
        frames = len(a) // 2
        start = music["audio_frame"] + int(1.7 * RATE)      # the 1.5 s fade-in is over
        ref_end = start + RATE // 2
        end = frames - RATE // 10
        check(end > ref_end + RATE, f"too little audio: {frames} frames")
        ref_step = max(abs(a[2 * i] - a[2 * i - 2]) for i in range(start + 1, ref_end))
        worst_step, worst_at, run, worst_run = 0.0, 0, 0, 0
        for i in range(start + 1, end):
            s = abs(a[2 * i] - a[2 * i - 2])
            if s > worst_step:
                worst_step, worst_at = s, i
            run = run + 1 if abs(a[2 * i]) < 1e-4 and abs(a[2 * i + 1]) < 1e-4 else 0
            worst_run = max(worst_run, run)
        gap_ms = worst_run * 1000.0 / RATE
        print(f"      tone loop: reference step {ref_step:.4f}, worst step {worst_step:.4f} at {worst_at / RATE:.2f} s, "
              f"longest silence {gap_ms:.1f} ms, reload of the loop {loaded['ms']:.0f} ms")
        check(ref_step > 0.003, f"the loop is not playing: reference step {ref_step}")
        check(gap_ms <= GAP_MS, f"gap of {gap_ms:.1f} ms (bound {GAP_MS})")
        check(worst_step <= CLICK_X * ref_step, f"click: step {worst_step:.4f} at {worst_at / RATE:.2f} s > {CLICK_X} x {ref_step:.4f}")
        # the new tone is what plays at the end: count zero crossings over the last half second
        tail0 = end - RATE // 2
        crossings = sum(1 for i in range(tail0 + 1, end) if (a[2 * i] >= 0) != (a[2 * i - 2] >= 0))
        hz = crossings / 2 / 0.5
        check(abs(hz - 261.6) < 15, f"the re-rendered loop is not what plays: {hz:.0f} Hz at the end (C4 = 262)")
    finally:
        cleanup(root)


def corrupt_files_survived():
    root = project_copy()
    try:
        d = os.path.join(root, "assets", "sounds", "test")
        os.makedirs(d)
        bad_wav, bad_ogg, good_ogg = (os.path.join(d, n) for n in ("bad_wav.wav", "bad_ogg.ogg", "good.ogg"))
        with open(bad_wav, "wb") as f:
            f.write(b"RIFF\xff\xff\xff\x7fWAVEfmt \x10\x00\x00\x00" + os.urandom(300))
        with open(bad_ogg, "wb") as f:
            f.write(b"OggS" + os.urandom(4000))
        have_sox = shutil.which("sox") is not None
        if have_sox:
            subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", good_ogg, "synth", "0.3", "sine", "440"], check=True)
        h = Host(root)
        try:
            for name, fname in (("test/bad_wav", "bad_wav.wav"), ("test/bad_ogg", "bad_ogg.ogg")):
                e = h.wait_for(lambda e: e.get("ev") == "asset_error" and e.get("sound") == name, 20, what=f"error for {name}")
                check(e["file"].endswith(fname) and e["reason"], f"message does not name the file and reason: {e}")
                print(f"      {fname}: {e['reason']}")
            if have_sox:
                h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "test/good" and e["channels"] == 2, 20,
                           what="good.ogg loaded")
            check(h.alive(), "host died on a corrupt file")
            h.wait_ev("frame_stats", timeout=5, since=h.mark())
            # the fix reloads
            m = h.mark()
            write_wav(bad_wav, [math.sin(i * 0.1) * 0.5 for i in range(4000)])
            h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "test/bad_wav", 20, m, what="fixed WAV loaded")
            if have_sox:
                m = h.mark()
                shutil.copy(good_ogg, bad_ogg + ".tmp")
                os.replace(bad_ogg + ".tmp", bad_ogg)
                h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "test/bad_ogg", 20, m, what="fixed OGG loaded")
            # a broken parameter file names its line; fixing it re-renders the sound
            shot = os.path.join(root, "assets", "sfx", "player", "shot.sfx")
            m = h.mark()
            edit(shot, "duty = 0.3", "dutty = 0.3")
            e = h.wait_for(lambda e: e.get("ev") == "asset_error" and e.get("sound") == "player/shot", 20, m, what="sfx error")
            check(e["file"].endswith("shot.sfx") and e["reason"].startswith("line ") and "dutty" in e["reason"],
                  f"message does not name the file and line: {e}")
            m = h.mark()
            edit(shot, "dutty = 0.3", "duty = 0.2")
            e = h.wait_for(lambda e: e.get("ev") == "sound_loaded" and e["name"] == "player/shot", 20, m, what="sfx fixed")
            check(e["reload"], "not reported as a reload")
            check(h.alive(), "host died")
        finally:
            h.stop()
    finally:
        cleanup(root)


checks.case("silence before the first shot, energy after it", silence_then_shot)
checks.case("a code reload and a music re-render during playback: no gap, no click", reload_during_playback)
checks.case("corrupt WAV/OGG and a broken .sfx survived, named, and fixed live", corrupt_files_survived)
checks.finish()
