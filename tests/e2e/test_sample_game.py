"""End to end: NEON SWARM, the sample game, played headless.

- the autopilot plays 5 minutes of game time: no crash, the score rises, it reaches wave 3, it dies
  and starts again;
- entity handles stay valid across a reload in the middle of play;
- a recording replayed on the same code ends in the same state;
- screenshots of the title, play and game-over screens have real content (UPDATE_SCREENSHOTS=1
  copies them to docs/ for the README).
"""
import os
import shutil

from hostlib import ROOT, Checks, Host, check, cleanup, edit, project_copy, read_png

checks = Checks()
root = project_copy()


def script(name, text):
    path = os.path.join(root, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(*args, timeout=600):
    h = Host(root, "--fast", "--no-watch", *args)
    rc = h.proc.wait(timeout)
    h.stop()
    check(rc == 0, f"host exit {rc}\n{h.tail()}")
    check(not h.of("crash"), f"crashes: {h.of('crash')}")
    return h


def games(h, name):
    return [e for e in h.of("game") if e.get("name") == name]


def bot_plays_five_minutes():
    h = run("--frames", str(5 * 60 * 60), "--input", script("bot.txt", "5 tap F10\n"))
    waves = [e["wave"] for e in games(h, "wave_start")]
    deaths = games(h, "player_died")
    runs = games(h, "run_start")
    check(waves and max(waves) >= 3, f"reached wave {max(waves) if waves else 0}, want 3")
    check(len(deaths) >= 1, "the bot never died in 5 minutes: the game is too easy")
    check(len(runs) >= 2, f"{len(runs)} runs: it did not restart after dying")
    check(max(d["score"] for d in deaths) > 100, f"scores {[d['score'] for d in deaths]}")
    quit_ev = h.of("quit")[0]
    check(quit_ev["step"] == 5 * 60 * 60, f"ran {quit_ev['step']} steps")
    print(f"  bot: waves {waves}, deaths {[(d['score'], d['wave']) for d in deaths]}")


def handles_survive_reload_mid_play():
    h = Host(root, "--input", script("bot2.txt", "5 tap F10\n"))
    try:
        h.wait_ev("new_code_running", version=1, timeout=30)
        mid = h.wait_for(lambda e: e.get("ev") == "frame_stats" and e["game"].get("mode") == 1
                         and e["game"].get("enemies", 0) > 0, 60, what="play with enemies")
        m = h.mark()
        edit(os.path.join(root, "game", "entities.cpp"), "e->angle += 4.0f * dt;", "e->angle += 5.0f * dt;")
        r = h.wait_ev("reload", version=2, timeout=60, since=m)
        check(r["state"] == "kept", f"{r}")
        after = h.wait_for(lambda e: e.get("ev") == "frame_stats" and e.get("version") == 2, 20, m, what="v2 stats")
        g0, g1 = mid["game"], after["game"]
        check(g1["player_handle"] == g0["player_handle"] and g1["player_handle"] != 0, f"player handle {g0} -> {g1}")
        check(g1["runs"] == g0["runs"] and g1["steps"] > g0["steps"], f"the run restarted: {g0} -> {g1}")
        check(not h.of("crash"), "crash after reload")
    finally:
        h.stop()
        edit(os.path.join(root, "game", "entities.cpp"), "e->angle += 5.0f * dt;", "e->angle += 4.0f * dt;")


def replay_same_state():
    rec = os.path.join(root, "game.rec")
    a = run("--frames", "900", "--input", script("bot3.txt", "5 tap F10\n"), "--record", rec)
    b = run("--frames", "920", "--replay", rec)
    end = b.of("replay_end")
    check(end and end[0]["state_hash"] == a.of("quit")[0]["state_hash"], f"replay {end} vs {a.of('quit')}")


def distinct_colors(path):
    w, h, rows = read_png(path)
    return len({rows[y][x] for y in range(0, h, 4) for x in range(0, w, 4)})


def screenshots():
    shots = {f: os.path.join(root, f"shot_{f}.png") for f in (40, 400, 700, 1000, 1300, 1600, 1900, 2200, 2500, 2800, 3000)}
    args = []
    for f, p in shots.items():
        args += ["--screenshot", f"{f}:{p}"]
    # ENTER then hands off the controls, holding fire: the player stands and fights until it dies
    h = run("--frames", "3001", "--input", script("idle.txt", "60 tap ENTER\n90 down RIGHT\n"), *args)
    died = games(h, "player_died")
    check(died, "the idle player never died")
    death_frame = died[0]["frame"]
    over = [f for f in sorted(shots) if f >= death_frame + 150]
    play = [f for f in sorted(shots) if 300 <= f < death_frame]
    check(over and play, f"no screenshot after the death at frame {death_frame} or before it")
    picked = {"title": shots[40], "play": shots[play[-1]], "gameover": shots[over[0]]}
    for name, p in picked.items():
        n = distinct_colors(p)
        check(n > 40, f"{name} screenshot has only {n} colours")
    check(open(picked["title"], "rb").read() != open(picked["gameover"], "rb").read(), "title and game over are equal")
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
        for name, p in picked.items():
            shutil.copy2(p, os.path.join(ROOT, "docs", f"{name}.png"))


checks.case("bot_plays_five_minutes", bot_plays_five_minutes)
checks.case("handles_survive_reload_mid_play", handles_survive_reload_mid_play)
checks.case("replay_same_state", replay_same_state)
checks.case("screenshots", screenshots)
if not checks.failed:
    cleanup(root)
checks.finish()
